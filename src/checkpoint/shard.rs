//! One `.data` shard of a bundle and how an entry's bytes are read from
//! it: a range of its blob (one ranged read, checksummed as it arrives), a
//! slice of a mapped blob, or a slice of the shard read whole by
//! [`BundleReader::load`](super::BundleReader::load).

use std::sync::Arc;

use bytes::Bytes;

use crate::buffer::read_policy::{LARGE, ReadBuf};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::{Blob, Checksum, RangeRead};
use crate::pb;
use crate::tensor::Tensor;

use super::entry::{Decode, check_bools, swap_bytes};
use super::load::{Loaded, Span};

/// Where one shard's bytes come from.
pub(super) enum Shard {
    /// Read by range; when the blob is mapped or in memory, entries are
    /// slices of it (aligned tensors adopted without a copy).
    Blob(Arc<dyn Blob>),
    /// Read once, whole ([`BundleReader::load`](super::BundleReader::load)):
    /// every entry's bytes at an aligned offset of one buffer, checksummed
    /// while read.
    Loaded { loaded: Loaded, blob: Arc<dyn Blob> },
    /// The data file could not be opened; reported when a tensor needs it.
    Missing(Error),
}

impl Shard {
    /// The shard opened by `open`: a missing file is remembered, to be
    /// reported by the first read that needs it (as TF does, the listing
    /// still works).
    pub(super) fn open(id: String, opened: Result<Arc<dyn Blob>>) -> Shard {
        match opened {
            Ok(blob) => Shard::Blob(blob),
            Err(e) if is_not_found(&e) => {
                Shard::Missing(Error::not_found("data file not found").with_path(id))
            }
            Err(e) => Shard::Missing(e),
        }
    }

    /// Reads the entry's bytes (`span`, inside the shard: checked by the
    /// caller) as described by `dec`.
    pub(super) fn read(&self, span: Span, dec: &Decode<'_>) -> Result<Tensor> {
        let (blob, loaded) = match self {
            Shard::Blob(blob) => (blob, None),
            Shard::Loaded { loaded, blob } => (blob, Some(loaded)),
            Shard::Missing(e) => return Err(e.clone()),
        };
        let id = blob.id();
        let pod = dec.dtype.can_use_memcpy();
        // In range of a buffer we hold: the caller checked the span
        // against the shard's length.
        let size = span.size as usize;
        if let Some(loaded) = loaded {
            // `load` placed every in-bounds span of this shard.
            let place = loaded
                .places
                .get(&span)
                .copied()
                .ok_or_else(|| dec.loss("no loaded bytes").with_path(id))?;
            let region = loaded.bytes.slice(place.start..place.start + size);
            return if pod {
                dec.pod(region, place.crc, id)
            } else {
                dec.non_pod(&region, id)
            };
        }
        if let Some(all) = blob.mapped() {
            let start = span.offset as usize;
            let region = all.slice(start..start + size);
            return if pod {
                dec.pod(region, None, id)
            } else {
                dec.non_pod(&region, id)
            };
        }
        if pod {
            return read_pod(&**blob, span.offset, dec);
        }
        let region = Bytes::from(blob.read_vec(span.offset, span.size)?);
        dec.non_pod(&region, id)
    }

    /// The shard's length, or why it cannot be read.
    pub(super) fn len(&self) -> Result<u64> {
        match self {
            Shard::Blob(blob) | Shard::Loaded { blob, .. } => Ok(blob.len()),
            Shard::Missing(e) => Err(e.clone()),
        }
    }

    /// The shard's name, as errors give it.
    pub(super) fn id(&self) -> Option<&str> {
        match self {
            Shard::Blob(blob) | Shard::Loaded { blob, .. } => Some(blob.id()),
            Shard::Missing(_) => None,
        }
    }
}

/// Whether an open failed because nothing is there.
pub(super) fn is_not_found(e: &Error) -> bool {
    e.kind() == crate::error::ErrorKind::NotFound
        || e.io_kind() == Some(std::io::ErrorKind::NotFound)
}

/// The spans of every full-tensor entry stored in `shard`, and whether
/// each is checksummed as read (POD entries, whose CRC covers exactly
/// their bytes).
pub(super) fn spans_of<'a>(
    entries: impl Iterator<Item = &'a pb::BundleEntryProto>,
    shard: i32,
) -> Vec<(Span, bool)> {
    entries
        .filter(|e| e.slices.is_empty() && e.shard_id == shard)
        .filter_map(|e| {
            let span = Span {
                offset: u64::try_from(e.offset).ok()?,
                size: u64::try_from(e.size).ok()?,
            };
            Some((span, DataType::from_i32(e.dtype).can_use_memcpy()))
        })
        .collect()
}

/// Reads a POD tensor straight into a fresh aligned buffer (a huge-page
/// map, unzeroed, from [`LARGE`] on), checksumming each piece while it is
/// still in cache.
fn read_pod(blob: &dyn Blob, offset: u64, dec: &Decode<'_>) -> Result<Tensor> {
    let size = crate::tensor::byte_len(dec.dtype, dec.shape.num_elements())?;
    if size >= LARGE {
        let mut buf = ReadBuf::new(size)?;
        fill_pod(blob, offset, dec, buf.as_mut_slice())?;
        let bytes = buf.freeze().map_err(|e| Error::io(blob.id(), &e))?;
        return Tensor::from_buffer(dec.dtype, dec.shape.clone(), bytes);
    }
    let mut t = Tensor::new(dec.dtype, dec.shape.clone())?;
    fill_pod(blob, offset, dec, t.raw_bytes_mut()?)?;
    Ok(t)
}

/// Reads a POD entry into `buf` with its CRC taken as it arrives, checks
/// it, then checks bools and swaps bytes.
fn fill_pod(blob: &dyn Blob, offset: u64, dec: &Decode<'_>, buf: &mut [u8]) -> Result<()> {
    let job = RangeRead {
        offset,
        dst: &mut *buf,
        sum: dec.verify.then_some(Checksum::Crc32c),
    };
    let crcs = blob.read_ranges(vec![job])?;
    if let Some(&Some(crc)) = crcs.first() {
        dec.check_crc(crc, blob.id())?;
    }
    if dec.dtype == DataType::Bool {
        check_bools(buf).map_err(|m| dec.loss(m).with_path(blob.id()))?;
    }
    if dec.swap {
        swap_bytes(buf, dec.dtype);
    }
    Ok(())
}
