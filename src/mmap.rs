//! Read-only memory maps as [`Bytes`], for the zero-copy file readers.

use std::path::Path;

use bytes::Bytes;

use crate::error::{Error, Result};

/// Maps the file at `path` read-only. The map is unmapped when the last
/// `Bytes` (and so the last tensor) over it is dropped.
///
/// # Safety
/// The file must not be modified or truncated while any `Bytes` over the
/// map is alive: those reads go straight to the mapped pages.
pub(crate) unsafe fn map(path: &Path, what: &str) -> Result<Bytes> {
    let file = std::fs::File::open(path).map_err(|e| Error::io(what, &e))?;
    // SAFETY: the caller guarantees the file is not changed while mapped.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| Error::io(what, &e))?;
    Ok(Bytes::from_owner(map))
}
