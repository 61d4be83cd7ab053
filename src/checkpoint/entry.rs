//! How one tensor's bytes sit in a `.data` file (TF's `BundleWriter::Add`
//! and `BundleReader::GetValue`), and the checksum that covers them.
//!
//! - POD dtypes: the raw little-endian element bytes; the CRC is over them.
//! - `DT_STRING`: `[varint64 len]*n`, the masked CRC of the lengths (each
//!   as a little-endian u32, or u64 when it does not fit), then the bytes.
//! - `DT_VARIANT`: per element `[varint64 len][VariantTensorDataProto]`
//!   followed by the masked running CRC.

use bytes::Bytes;
use prost::Message;

use crate::crc32c;
use crate::dtype::DataType;
use crate::element::Variant;
use crate::error::{Error, Result};
use crate::pb;
use crate::proto::handle::{variant_from_proto, variant_to_proto};
use crate::proto::{DecodeCtx, FromProtoOptions};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

use super::table::{get_varint64, put_varint64};

/// Streams `t`'s on-disk bytes to `sink`; returns `(bytes written, crc)`,
/// the CRC unmasked.
pub(crate) fn encode(t: &Tensor, sink: &mut dyn FnMut(&[u8]) -> Result<()>) -> Result<(u64, u32)> {
    let dtype = t.dtype();
    if dtype.can_use_memcpy() {
        let data = t.tensor_data()?;
        let mut crc = 0;
        for chunk in data.chunks(crate::buffer::read_policy::READ_CHUNK) {
            crc = crc32c::extend(crc, chunk);
            sink(chunk)?;
        }
        return Ok((data.len() as u64, crc));
    }
    match dtype {
        DataType::String => {
            let strings: &[Bytes] = t.as_slice()?;
            let mut lengths = Vec::with_capacity(strings.len());
            let mut crc = 0;
            for s in strings {
                put_varint64(&mut lengths, s.len() as u64);
                crc = extend_len(crc, s.len() as u64, false);
            }
            let length_checksum = crc32c::mask(crc).to_le_bytes();
            crc = crc32c::extend(crc, &length_checksum);
            sink(&lengths)?;
            sink(&length_checksum)?;
            let mut written = lengths.len() as u64 + 4;
            for s in strings {
                crc = crc32c::extend(crc, s);
                sink(s)?;
                written += s.len() as u64;
            }
            Ok((written, crc))
        }
        DataType::Variant => {
            let variants: &[Variant] = t.as_slice()?;
            let mut crc = 0;
            let mut written = 0u64;
            for v in variants {
                let elem = variant_to_proto(v)?.encode_to_vec();
                let mut len = Vec::with_capacity(10);
                put_varint64(&mut len, elem.len() as u64);
                crc = crc32c::extend(crc, &(elem.len() as u64).to_le_bytes());
                crc = crc32c::extend(crc, &elem);
                let checksum = crc32c::mask(crc).to_le_bytes();
                crc = crc32c::extend(crc, &checksum);
                sink(&len)?;
                sink(&elem)?;
                sink(&checksum)?;
                written += len.len() as u64 + elem.len() as u64 + 4;
            }
            Ok((written, crc))
        }
        other => Err(Error::unsupported(
            other,
            format!("Saving data type {other} is not yet implemented."),
        )),
    }
}

/// Extends `crc` with a string length as TF checksums it: a u32 when it
/// fits ("older checkpoints only used uint32s"), else a u64, in the
/// writer's byte order.
fn extend_len(crc: u32, len: u64, big_endian: bool) -> u32 {
    match u32::try_from(len) {
        Ok(l) if big_endian => crc32c::extend(crc, &l.to_be_bytes()),
        Ok(l) => crc32c::extend(crc, &l.to_le_bytes()),
        Err(_) if big_endian => crc32c::extend(crc, &len.to_be_bytes()),
        Err(_) => crc32c::extend(crc, &len.to_le_bytes()),
    }
}

/// What a reader needs to turn an entry's bytes into a tensor.
pub(crate) struct Decode<'a> {
    /// The key, for messages.
    pub key: &'a str,
    pub dtype: DataType,
    pub shape: &'a TensorShape,
    /// The stored (unmasked) CRC.
    pub crc: u32,
    /// The bundle was written big-endian.
    pub swap: bool,
    pub verify: bool,
    pub opts: &'a FromProtoOptions,
}

impl Decode<'_> {
    pub(crate) fn loss(&self, what: impl std::fmt::Display) -> Error {
        Error::data_loss(what.to_string()).with_key(self.key)
    }

    /// Compares the CRC computed over the bytes with the stored one.
    pub(crate) fn check_crc(&self, actual: u32, file: &str) -> Result<()> {
        if self.verify && actual != self.crc {
            return Err(self
                .loss(format!(
                    "checksum does not match: stored {:08x} vs. calculated on the restored bytes {actual:08x}",
                    self.crc
                ))
                .with_path(file));
        }
        Ok(())
    }

    /// Refuses element handles beyond the memory budget.
    fn charge<T>(&self, n: usize) -> Result<()> {
        let bytes = (n as u64).saturating_mul(size_of::<T>() as u64);
        if bytes > self.opts.max_bytes {
            return Err(Error::LimitExceeded {
                what: "decoded tensor bytes (FromProtoOptions::max_bytes)",
                limit: self.opts.max_bytes,
                requested: bytes,
            });
        }
        Ok(())
    }

    /// A POD tensor from its stored bytes (adopted without a copy when
    /// element-aligned and no byte swap is needed). `computed` is the CRC
    /// of `region` when the reader computed it while reading.
    pub(crate) fn pod(&self, region: Bytes, computed: Option<u32>, file: &str) -> Result<Tensor> {
        if self.verify {
            // Not a fallback: without the reader's CRC, compute it here.
            let crc = computed.unwrap_or_else(|| crc32c::value(&region));
            self.check_crc(crc, file)?;
        }
        if self.dtype == DataType::Bool {
            check_bools(&region).map_err(|m| self.loss(m))?;
        }
        let mut t = Tensor::from_buffer(self.dtype, self.shape.clone(), region)?;
        if self.swap {
            swap_bytes(t.raw_bytes_mut()?, self.dtype);
        }
        Ok(t)
    }

    /// A string or variant tensor from its stored bytes; strings are slices
    /// of `region`.
    pub(crate) fn non_pod(&self, region: &Bytes, file: &str) -> Result<Tensor> {
        let n = usize::try_from(self.shape.num_elements())
            .map_err(|_| self.loss("element count overflows"))?;
        match self.dtype {
            DataType::String => self.strings(region, n, file),
            DataType::Variant => self.variants(region, n, file),
            other => Err(Error::unsupported(
                other,
                format!("reading dtype {other} is not supported (TF cannot save it)"),
            )
            .with_key(self.key)),
        }
    }

    fn strings(&self, region: &Bytes, n: usize, file: &str) -> Result<Tensor> {
        // Every element has at least a one-byte length.
        if n > region.len() {
            return Err(self.loss(format!("{n} strings cannot fit in {} bytes", region.len())));
        }
        self.charge::<Bytes>(n)?;
        let mut rest: &[u8] = region;
        let mut lens = Vec::with_capacity(n);
        let mut crc = 0;
        for _ in 0..n {
            let len =
                get_varint64(&mut rest).ok_or_else(|| self.loss("truncated string lengths"))?;
            crc = extend_len(crc, len, self.swap);
            lens.push(len);
        }
        let raw: [u8; 4] = rest
            .get(..4)
            .and_then(|b| b.try_into().ok())
            .ok_or_else(|| self.loss("truncated string length checksum"))?;
        let stored = if self.swap {
            u32::from_be_bytes(raw)
        } else {
            u32::from_le_bytes(raw)
        };
        if self.verify && crc32c::unmask(stored) != crc {
            return Err(self
                .loss(format!(
                    "The length checksum does not match: expected {:08x} but actual is {crc:08x}",
                    crc32c::unmask(stored)
                ))
                .with_path(file));
        }
        crc = crc32c::extend(crc, &raw);
        let mut pos = region.len() - rest.len() + 4;
        let mut out = Vec::with_capacity(n);
        for len in lens {
            let end = usize::try_from(len)
                .ok()
                .and_then(|l| pos.checked_add(l))
                .filter(|&e| e <= region.len())
                .ok_or_else(|| self.loss("string bytes run past the entry's size"))?;
            let s = region.slice(pos..end);
            if self.verify {
                crc = crc32c::extend(crc, &s);
            }
            out.push(s);
            pos = end;
        }
        self.check_crc(crc, file)?;
        Tensor::from_vec(self.shape.clone(), out)
    }

    fn variants(&self, region: &Bytes, n: usize, file: &str) -> Result<Tensor> {
        if self.swap {
            return Err(Error::invalid_format(
                "tensor bundle",
                "the bundle is big-endian and the entry holds variants; byte-swapping variants \
                 is not implemented (as in TF)",
            )
            .with_path(file)
            .with_key(self.key));
        }
        // Every element needs a length byte and a 4-byte checksum.
        if n > region.len() / 5 {
            return Err(self.loss(format!("{n} variants cannot fit in {} bytes", region.len())));
        }
        self.charge::<Variant>(n)?;
        let mut ctx = DecodeCtx::new(self.opts);
        let mut rest: &[u8] = region;
        let mut crc = 0;
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let len =
                get_varint64(&mut rest).ok_or_else(|| self.loss("truncated variant length"))?;
            crc = crc32c::extend(crc, &len.to_le_bytes());
            let elem = usize::try_from(len)
                .ok()
                .and_then(|l| rest.get(..l))
                .ok_or_else(|| self.loss("variant bytes run past the entry's size"))?;
            crc = crc32c::extend(crc, elem);
            let proto = pb::VariantTensorDataProto::decode(elem).map_err(|e| {
                self.loss(format!(
                    "Unable to parse VariantTensorDataProto of element {i}: {e}"
                ))
            })?;
            rest = rest
                .get(elem.len()..)
                .ok_or_else(|| self.loss("variant bytes run past the entry's size"))?;
            let raw: [u8; 4] = rest
                .get(..4)
                .and_then(|b| b.try_into().ok())
                .ok_or_else(|| self.loss("truncated variant checksum"))?;
            if self.verify && crc32c::unmask(u32::from_le_bytes(raw)) != crc {
                return Err(self
                    .loss(format!("The checksum after Variant {i} does not match"))
                    .with_path(file));
            }
            crc = crc32c::extend(crc, &raw);
            rest = rest
                .get(4..)
                .ok_or_else(|| self.loss("truncated variant checksum"))?;
            out.push(variant_from_proto(&proto, &mut ctx)?);
        }
        self.check_crc(crc, file)?;
        Tensor::from_vec(self.shape.clone(), out)
    }
}

/// Bool bytes must be 0 or 1, or the tensor could not be viewed as `bool`.
pub(crate) fn check_bools(bytes: &[u8]) -> std::result::Result<(), String> {
    match bytes.iter().enumerate().find(|&(_, &b)| b > 1) {
        Some((i, b)) => Err(format!("bool element {i} holds byte {b}")),
        None => Ok(()),
    }
}

/// TF's `ByteSwapTensor`: each element reversed; complex numbers as two
/// halves.
pub(crate) fn swap_bytes(bytes: &mut [u8], dtype: DataType) {
    let size = if dtype.is_complex() {
        dtype.size() / 2
    } else {
        dtype.size()
    };
    if size > 1 {
        for e in bytes.chunks_exact_mut(size) {
            e.reverse();
        }
    }
}
