//! Reading `.npy` data into a [`Tensor`]: from `Bytes` (adopting the data
//! without a copy when it is aligned) or from a stream of known length.

use std::io::Read;

use bytes::Bytes;

use super::header::{self, Elem, Header};
use crate::buffer::try_vec;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::{Blob, Checksum};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

fn bad(what: &str, message: impl std::fmt::Display) -> Error {
    Error::invalid_format("npy", message.to_string()).with_path(what)
}

fn io_err(what: &str, e: &std::io::Error) -> Error {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        header::truncated(what, "the data")
    } else {
        Error::io(what, e)
    }
}

/// Parses the header at the start of `buf` (which holds the whole file or
/// at least the whole header).
pub(crate) fn parse_header(buf: &[u8], what: &str) -> Result<Header> {
    let (prefix_len, text_len, utf8) = header::parse_prefix(buf, what)?;
    let end = prefix_len
        .checked_add(text_len)
        .ok_or_else(|| bad(what, "header length overflows"))?;
    let text = buf.get(prefix_len..end).ok_or_else(|| {
        Error::data_loss(format!(
            "npy: the header length is {text_len} bytes but only {} follow",
            buf.len().saturating_sub(prefix_len)
        ))
        .with_path(what)
    })?;
    header::parse_text(text, utf8, end, what)
}

/// Reads a whole `.npy` held in `bytes`. POD data that needs no byte swap
/// or transpose is adopted without a copy when element-aligned.
pub(crate) fn from_bytes(bytes: Bytes, as_dtype: Option<DataType>, what: &str) -> Result<Tensor> {
    let h = parse_header(&bytes, what)?;
    let len = h.data_len()?;
    let available = bytes.len().saturating_sub(h.data_offset);
    check_data_len(&h, len, available as u64, what)?;
    build(
        &h,
        bytes.slice(h.data_offset..h.data_offset + len),
        as_dtype,
        what,
    )
}

/// The declared data length against what the source holds.
fn check_data_len(h: &Header, len: usize, available: u64, what: &str) -> Result<()> {
    match (len as u64).cmp(&available) {
        std::cmp::Ordering::Equal => Ok(()),
        std::cmp::Ordering::Greater => Err(Error::data_loss(format!(
            "npy: truncated: the header declares {} elements of '{}' ({len} bytes) but {available} bytes follow it",
            h.shape.num_elements(),
            h.descr
        )).with_path(what)),
        std::cmp::Ordering::Less => Err(bad(
            what,
            format!(
                "{} bytes follow the {len} bytes of data the header declares (shape {}, '{}')",
                available - len as u64,
                h.shape,
                h.descr
            ),
        )),
    }
}

/// Reads a `.npy` from a stream that holds exactly `total` bytes (a file's
/// length, an archive member's size). Sizes are checked against `total`
/// before anything is allocated.
pub(crate) fn from_reader<R: Read>(
    r: &mut R,
    total: u64,
    as_dtype: Option<DataType>,
    what: &str,
) -> Result<Tensor> {
    let (h, header_end) = read_header(r, total, what)?;
    let len = h.data_len()?;
    check_data_len(&h, len, total - header_end, what)?;
    let data = read_data(r, len, what)?;
    build(&h, data, as_dtype, what)
}

/// Reads the `.npy` in `blob`: a mapped (or in-memory) blob's data is
/// adopted in place; otherwise the header comes from its first bytes and
/// the data from one read of the rest (on two cores from a local file),
/// `on`, when given, told the bytes as they arrive.
pub(crate) fn from_blob(
    blob: &dyn Blob,
    as_dtype: Option<DataType>,
    on: Option<&mut dyn FnMut(u64)>,
) -> Result<Tensor> {
    let what = blob.id();
    if let Some(all) = blob.mapped() {
        if let Some(on) = on {
            on(all.len() as u64);
        }
        return from_bytes(all, as_dtype, what);
    }
    let (h, header_end) = blob_header(blob)?;
    let len = h.data_len()?;
    check_data_len(&h, len, blob.len() - header_end, what)?;
    let data = match on {
        Some(on) => {
            on(header_end);
            blob.read_bytes_reporting(header_end..blob.len(), on)?
        }
        None => blob.read_bytes(header_end..blob.len())?,
    };
    build(&h, data, as_dtype, what)
}

/// The header of the `.npy` in `blob` and where its data starts, from one
/// read of its first [`HEAD`] bytes (more only for a longer header).
fn blob_header(blob: &dyn Blob) -> Result<(Header, u64)> {
    let mut first = std::io::BufReader::with_capacity(HEAD, blob.reader());
    read_header(&mut first, blob.len(), blob.id())
}

/// How many first bytes a header read asks for: `np.save` writes headers
/// of 128 bytes, and a few KiB for arrays of many dimensions.
const HEAD: usize = 4 << 10;

/// A `.npy` stored uncompressed as `member` (a window of an `.npz`) whose
/// bytes have zip's CRC-32 `expected`: the data is one read of the window
/// (on two cores from a local file, each piece summed as it arrives), and
/// the member's CRC-32 is combined from the header's and the data's.
/// `None` when anything is not as the zip reader would accept it (a header
/// past the first 64 KiB, bytes after the data, a read error, a CRC
/// mismatch): that path then gives the result, errors included.
pub(crate) fn from_window(
    member: &dyn Blob,
    expected: u32,
    as_dtype: Option<DataType>,
    what: &str,
) -> Result<Option<Tensor>> {
    let total = member.len();
    // The header is in the first 64 KiB (NumPy writes a few hundred bytes).
    let Ok(prefix) = member.read_upto(0, 64 << 10) else {
        return Ok(None);
    };
    let Ok((h, header_end)) = read_header(&mut prefix.as_slice(), total, what) else {
        return Ok(None);
    };
    let Ok(len) = h.data_len() else {
        return Ok(None);
    };
    // The header was parsed out of `prefix`, so it lies within it.
    let head = usize::try_from(header_end)
        .ok()
        .and_then(|n| prefix.get(..n));
    let (Some(head), Some(end)) = (head, header_end.checked_add(len as u64)) else {
        return Ok(None);
    };
    if end != total {
        return Ok(None);
    }
    let Ok((data, Some(data_crc))) =
        member.read_bytes_summed(header_end..end, Some(Checksum::Crc32))
    else {
        return Ok(None);
    };
    let head_crc = Checksum::Crc32.of(head);
    if Checksum::Crc32.combine(head_crc, data_crc, len as u64) != expected {
        return Ok(None);
    }
    build(&h, data, as_dtype, what).map(Some)
}

/// The dtype and shape the header of the `.npy` in `blob` declares, from
/// its first bytes (the data's length is checked against the blob's).
pub(crate) fn blob_dtype_and_shape(
    blob: &dyn Blob,
    as_dtype: Option<DataType>,
) -> Result<(DataType, TensorShape)> {
    let mut first = std::io::BufReader::with_capacity(HEAD, blob.reader());
    dtype_and_shape(&mut first, blob.len(), as_dtype, blob.id())
}

/// The dtype and shape a stream's header declares, reading the header
/// only (for listing an archive without its data). The declared data
/// length is checked against `total`.
pub(crate) fn dtype_and_shape<R: Read>(
    r: &mut R,
    total: u64,
    as_dtype: Option<DataType>,
    what: &str,
) -> Result<(DataType, TensorShape)> {
    let (h, header_end) = read_header(r, total, what)?;
    let len = h.data_len()?;
    check_data_len(&h, len, total - header_end, what)?;
    let dtype = match resolve(&h, as_dtype, what)? {
        Elem::Pod { dtype, .. } => dtype,
        Elem::Bytes(_) | Elem::Unicode { .. } => DataType::String,
        Elem::Opaque { .. } => {
            return Err(bad(what, "an opaque type with no dtype to read it as"));
        }
    };
    Ok((dtype, h.shape))
}

/// Reads the prefix and header of a stream of `total` bytes; returns the
/// header and where its data starts.
fn read_header<R: Read>(r: &mut R, total: u64, what: &str) -> Result<(Header, u64)> {
    let cut = |part: &'static str| {
        move |e: std::io::Error| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => header::truncated(what, part),
            _ => Error::io(what, &e),
        }
    };
    let mut start = [0u8; 8];
    r.read_exact(&mut start).map_err(cut("the magic string"))?;
    let mut buf = start.to_vec();
    if start.starts_with(header::MAGIC) {
        // The header length: 2 bytes in version 1, 4 after.
        let len_size = if start.get(6) == Some(&1) { 2 } else { 4 };
        r.take(len_size)
            .read_to_end(&mut buf)
            .map_err(|e| io_err(what, &e))?;
    }
    let (prefix_len, text_len, _) = header::parse_prefix(&buf, what)?;
    let header_end = (prefix_len as u64).saturating_add(text_len as u64);
    if header_end > total {
        return Err(Error::data_loss(format!(
            "npy: the header length is {text_len} bytes but the file holds only {total}"
        ))
        .with_path(what));
    }
    // `buf` holds the prefix parse_prefix read; the text follows it.
    buf.try_reserve_exact(text_len)
        .map_err(|_| Error::AllocationFailed { bytes: text_len })?;
    r.take(text_len as u64)
        .read_to_end(&mut buf)
        .map_err(cut("the header"))?;
    if buf.len() != prefix_len + text_len {
        return Err(header::truncated(what, "the header"));
    }
    Ok((parse_header(&buf, what)?, header_end))
}

/// Below this, data goes into a `Vec`; above, into an anonymous map.
const MAP_THRESHOLD: usize = 4 << 20;

/// Reads exactly `len` bytes of data; large data into a huge-page-advised
/// anonymous map (see [`read_exact_new`](crate::buffer::read_policy::read_exact_new)).
fn read_data<R: Read>(r: &mut R, len: usize, what: &str) -> Result<Bytes> {
    if len >= MAP_THRESHOLD {
        return crate::buffer::read_policy::read_exact_new(r, len).map_err(|e| io_err(what, &e));
    }
    let mut data = try_vec::<u8>(len)?;
    // `take` + `read_to_end` fills the reserved capacity without zeroing it
    // first, which is what `std::fs::read` does.
    r.take(len as u64)
        .read_to_end(&mut data)
        .map_err(|e| io_err(what, &e))?;
    if data.len() != len {
        return Err(Error::data_loss(format!(
            "npy: truncated: the header declares {len} bytes of data, the stream ended after {}",
            data.len()
        ))
        .with_path(what));
    }
    Ok(Bytes::from(data))
}

/// What the caller's dtype makes of the file's element type.
fn resolve(h: &Header, as_dtype: Option<DataType>, what: &str) -> Result<Elem> {
    let quantized_twin = |natural: DataType, dt: DataType| {
        matches!(
            (natural, dt),
            (DataType::Int8, DataType::QInt8)
                | (DataType::UInt8, DataType::QUInt8)
                | (DataType::Int16, DataType::QInt16)
                | (DataType::UInt16, DataType::QUInt16)
                | (DataType::Int32, DataType::QInt32)
        )
    };
    match (&h.elem, as_dtype) {
        (Elem::Opaque { size, .. }, None) => Err(Error::OpaqueDtype {
            descr: h.descr.clone(),
            size: *size,
            at: crate::Location::default(),
        }
        .with_path(what)),
        (&Elem::Opaque { size, big_endian }, Some(dt)) => {
            if dt.can_use_memcpy() && dt.size() == size {
                let swap = if big_endian && size > 1 {
                    if dt.is_complex() { size / 2 } else { size }
                } else {
                    0
                };
                Ok(Elem::Pod { dtype: dt, swap })
            } else {
                Err(bad(
                    what,
                    format!(
                        "'{}' elements are {size} bytes, which cannot hold {dt} ({} bytes)",
                        h.descr,
                        dt.size()
                    ),
                ))
            }
        }
        (_, None) => Ok(h.elem.clone()),
        (&Elem::Pod { dtype, swap }, Some(dt)) if dt == dtype || quantized_twin(dtype, dt) => {
            Ok(Elem::Pod { dtype: dt, swap })
        }
        (Elem::Bytes(_) | Elem::Unicode { .. }, Some(DataType::String)) => Ok(h.elem.clone()),
        (_, Some(dt)) => Err(bad(
            what,
            format!("the file holds '{}', which cannot be read as {dt}", h.descr),
        )),
    }
}

/// Turns the data bytes into a tensor of the header's (or caller's) dtype.
fn build(h: &Header, data: Bytes, as_dtype: Option<DataType>, what: &str) -> Result<Tensor> {
    // A TensorShape's dims are >= 0, and their product (the data length,
    // checked) fits usize, so each does: the error is never taken.
    let dims = h
        .shape
        .dim_sizes()
        .iter()
        .map(|&d| usize::try_from(d))
        .collect::<std::result::Result<Vec<usize>, _>>()
        .map_err(|_| bad(what, "a dimension does not fit in memory"))?;
    match resolve(h, as_dtype, what)? {
        Elem::Pod { dtype, swap } => {
            if dtype == DataType::Bool {
                if let Some((i, b)) = data.iter().enumerate().find(|&(_, &b)| b > 1) {
                    return Err(bad(what, format!("bool element {i} is {b}, not 0 or 1")));
                }
            }
            let data = if swap == 0 && !h.fortran_order {
                data
            } else {
                let mut owned = match data.try_into_mut() {
                    Ok(m) => Vec::from(m),
                    Err(shared) => shared.to_vec(),
                };
                if swap > 1 {
                    for unit in owned.chunks_exact_mut(swap) {
                        unit.reverse();
                    }
                }
                if h.fortran_order {
                    owned = fortran_to_c_bytes(&owned, dtype.size(), &dims)?;
                }
                Bytes::from(owned)
            };
            Tensor::from_buffer(dtype, h.shape.clone(), data).map_err(|e| bad(what, e))
        }
        Elem::Bytes(n) => {
            let mut out = strings_vec(h, n, what)?;
            if n > 0 {
                // One element per `n` bytes: `data` holds exactly the
                // element count's worth (checked against the header). It
                // looped to the Vec's capacity, which `try_reserve_exact`
                // does not promise to equal the count.
                for (i, elem) in data.chunks_exact(n).enumerate() {
                    let len = elem.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
                    out.push(data.slice(i * n..i * n + len));
                }
            }
            finish_strings(h, out, &dims)
        }
        Elem::Unicode { chars, big_endian } => {
            let mut out = strings_vec(h, chars, what)?;
            if chars > 0 {
                for (i, elem) in data.chunks_exact(chars * 4).enumerate() {
                    out.push(decode_utf32(elem, big_endian).map_err(|c| {
                        bad(
                            what,
                            format!(
                                "element {i} holds {c:#x}, which is not a Unicode scalar value"
                            ),
                        )
                    })?);
                }
            }
            finish_strings(h, out, &dims)
        }
        Elem::Opaque { .. } => Err(bad(what, "opaque type left unresolved")),
    }
}

/// Room for the string elements. Zero-width strings (`S0`, `U0`) are
/// refused when there are elements: their count would not be paid for by
/// any bytes of the input.
fn strings_vec(h: &Header, width: usize, what: &str) -> Result<Vec<Bytes>> {
    let n = usize::try_from(h.shape.num_elements())
        .map_err(|_| bad(what, "the element count does not fit in memory"))?;
    if width == 0 && n > 0 {
        return Err(bad(
            what,
            format!(
                "'{}' elements hold no bytes, so {n} of them are not stored",
                h.descr
            ),
        ));
    }
    try_vec(n)
}

fn finish_strings(h: &Header, out: Vec<Bytes>, dims: &[usize]) -> Result<Tensor> {
    let out = if h.fortran_order {
        in_c_order(&out, dims)
    } else {
        out
    };
    Tensor::from_vec(h.shape.clone(), out)
}

/// Column-major elements in row-major order.
#[expect(
    clippy::indexing_slicing,
    reason = "`elems` holds one element per index of `dims`, and FortranOrder yields each index \
              below that count once"
)]
fn in_c_order(elems: &[Bytes], dims: &[usize]) -> Vec<Bytes> {
    FortranOrder::new(dims).map(|i| elems[i].clone()).collect()
}

/// One `U<n>` element to UTF-8, trailing NUL code points removed as NumPy
/// does. `Err` carries the offending code unit.
fn decode_utf32(elem: &[u8], big_endian: bool) -> std::result::Result<Bytes, u32> {
    // chunks_exact(4): every chunk has its 4 bytes, so none is dropped.
    let units = elem
        .chunks_exact(4)
        .filter_map(|c| c.first_chunk::<4>().copied());
    let units = units.map(|b| {
        if big_endian {
            u32::from_be_bytes(b)
        } else {
            u32::from_le_bytes(b)
        }
    });
    let count = elem
        .chunks_exact(4)
        .rposition(|c| c.iter().any(|&b| b != 0))
        .map_or(0, |p| p + 1);
    let mut s = String::with_capacity(count);
    for u in units.take(count) {
        s.push(char::from_u32(u).ok_or(u)?);
    }
    Ok(Bytes::from(s))
}

/// For each element in row-major (C) order, its index in a column-major
/// (Fortran) layout of the same shape.
struct FortranOrder {
    dims: Vec<usize>,
    strides: Vec<usize>,
    index: Vec<usize>,
    offset: usize,
    remaining: usize,
}

impl FortranOrder {
    fn new(dims: &[usize]) -> Self {
        let mut strides = Vec::with_capacity(dims.len());
        let mut s = 1usize;
        for &d in dims {
            strides.push(s);
            s = s.saturating_mul(d);
        }
        let remaining = if dims.contains(&0) {
            0
        } else {
            dims.iter().product()
        };
        FortranOrder {
            dims: dims.to_vec(),
            strides,
            index: vec![0; dims.len()],
            offset: 0,
            remaining,
        }
    }
}

impl Iterator for FortranOrder {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        if self.remaining == 0 {
            return None;
        }
        self.remaining -= 1;
        let current = self.offset;
        // Advance the last axis fastest (C order), carrying leftwards.
        for ((i, &d), &s) in self
            .index
            .iter_mut()
            .zip(&self.dims)
            .zip(&self.strides)
            .rev()
        {
            *i += 1;
            self.offset += s;
            if *i < d {
                break;
            }
            self.offset -= s * d;
            *i = 0;
        }
        Some(current)
    }
}

/// Rewrites column-major element bytes in row-major order.
#[expect(
    clippy::indexing_slicing,
    reason = "`src` holds `elem` bytes per element of `dims`, and FortranOrder yields each \
              element index once (asserted below)"
)]
fn fortran_to_c_bytes(src: &[u8], elem: usize, dims: &[usize]) -> Result<Vec<u8>> {
    let mut out = try_vec::<u8>(src.len())?;
    for i in FortranOrder::new(dims) {
        out.extend_from_slice(&src[i * elem..(i + 1) * elem]);
    }
    debug_assert_eq!(out.len(), src.len());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fortran_order_indices() {
        // A 2x3 array stored column-major: element (r, c) at r + 2c.
        let idx: Vec<_> = FortranOrder::new(&[2, 3]).collect();
        assert_eq!(idx, vec![0, 2, 4, 1, 3, 5]);
        assert_eq!(FortranOrder::new(&[]).collect::<Vec<_>>(), vec![0]);
        assert_eq!(FortranOrder::new(&[3, 0]).count(), 0);
        let idx: Vec<_> = FortranOrder::new(&[2, 1, 2]).collect();
        assert_eq!(idx, vec![0, 2, 1, 3]);
    }

    #[test]
    fn utf32_decoding() {
        let le: Vec<u8> = [0x68u32, 0xe9, 0x1F600, 0, 0]
            .iter()
            .flat_map(|c| c.to_le_bytes())
            .collect();
        assert_eq!(&decode_utf32(&le, false).unwrap()[..], "hé😀".as_bytes());
        let be: Vec<u8> = [0x61u32, 0].iter().flat_map(|c| c.to_be_bytes()).collect();
        assert_eq!(&decode_utf32(&be, true).unwrap()[..], b"a");
        assert_eq!(decode_utf32(&0xD800u32.to_le_bytes(), false), Err(0xD800));
    }
}
