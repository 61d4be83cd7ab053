//! Read-only memory maps as [`Bytes`], for the zero-copy file readers, and
//! large reads into huge-page-advised anonymous maps.

use bytes::Bytes;

#[cfg(any(feature = "checkpoint", feature = "npy", feature = "safetensors"))]
use crate::error::{Error, Result};

/// Maps the file at `path` read-only. The map is unmapped when the last
/// `Bytes` (and so the last tensor) over it is dropped.
///
/// # Safety
/// The file must not be modified or truncated while any `Bytes` over the
/// map is alive: those reads go straight to the mapped pages.
#[cfg(any(feature = "npy", feature = "safetensors"))]
pub(crate) unsafe fn map(path: &std::path::Path, what: &str) -> Result<Bytes> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(what, &e))?;
    // SAFETY: forwarded to the caller (this function's contract).
    unsafe { map_file(&file, what) }
}

/// Maps an open file read-only, as [`map`]; an empty file gives empty
/// `Bytes` (mapping zero bytes fails on Linux).
///
/// # Safety
/// As [`map`].
#[cfg(any(feature = "checkpoint", feature = "npy", feature = "safetensors"))]
pub(crate) unsafe fn map_file(file: &std::fs::File, what: &str) -> Result<Bytes> {
    if file.metadata().map_err(|e| Error::io(what, &e))?.len() == 0 {
        return Ok(Bytes::new());
    }
    // SAFETY: the caller guarantees the file is not changed while mapped.
    let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| Error::io(what, &e))?;
    Ok(Bytes::from_owner(map))
}

/// Reads exactly `len` bytes from `r` into a new buffer under the crate's
/// one read policy ([`crate::buffer::read_policy`]): a huge-page-advised
/// anonymous map for large reads, which is page-aligned and read-only once
/// filled.
#[cfg(any(feature = "keras", feature = "npy", feature = "safetensors"))]
pub(crate) fn read_large<R: std::io::Read>(r: &mut R, len: usize) -> std::io::Result<Bytes> {
    crate::buffer::read_policy::read_exact_new(r, len)
}
