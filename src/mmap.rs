//! Read-only memory maps as [`Bytes`], for the zero-copy file readers, and
//! large reads into huge-page-advised anonymous maps.

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

/// Reads exactly `len` bytes from `r` into an anonymous memory map advised
/// to use transparent huge pages (as NumPy does for its large arrays):
/// reading a large file from the page cache is bound by first-touch page
/// faults on the destination, and 2 MiB pages take 512 times fewer than
/// 4 KiB ones. The map is page-aligned and read-only once filled.
pub(crate) fn read_large<R: std::io::Read>(r: &mut R, len: usize) -> std::io::Result<Bytes> {
    let mut map = memmap2::MmapMut::map_anon(len)?;
    #[cfg(target_os = "linux")]
    {
        // Only advice: without THP the map still works, with 4 KiB pages.
        let _ = map.advise(memmap2::Advice::HugePage);
    }
    r.read_exact(map.as_mut())?;
    Ok(Bytes::from_owner(map.make_read_only()?))
}
