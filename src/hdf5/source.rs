//! Where an HDF5 file's bytes come from: a file (or a region of one, such
//! as a STORED zip member) read with positioned reads, or bytes in memory.

use std::fs::File;
use std::sync::Arc;

use bytes::Bytes;

use super::data_loss;
use crate::error::{Error, Result};

/// The bytes of one HDF5 file. HDF5 addresses are offsets from `base`
/// (after the superblock's own base address is applied by the reader).
#[derive(Clone, Debug)]
pub enum Source {
    /// `len` bytes of `file` starting at `start`.
    File {
        /// The open file, shared by every reader of this source.
        file: Arc<File>,
        /// Where the HDF5 bytes start (a zip member's data offset, or 0).
        start: u64,
        /// How many bytes belong to the HDF5 file.
        len: u64,
        /// The name used in error messages.
        name: String,
    },
    /// The whole file in memory.
    Bytes(Bytes),
}

impl Source {
    /// A whole file on disk.
    pub fn open(path: &std::path::Path) -> Result<Source> {
        let name = path.display().to_string();
        let file = File::open(path).map_err(|e| Error::io(&name, &e))?;
        let len = file.metadata().map_err(|e| Error::io(&name, &e))?.len();
        Ok(Source::File {
            file: Arc::new(file),
            start: 0,
            len,
            name,
        })
    }

    /// The same bytes, with address 0 moved to `base` (a superblock's base
    /// address, e.g. after a userblock).
    pub(crate) fn rebase(&self, base: u64) -> Source {
        match self {
            Source::File {
                file,
                start,
                len,
                name,
            } => Source::File {
                file: file.clone(),
                start: start + base.min(*len),
                len: len - base.min(*len),
                name: name.clone(),
            },
            Source::Bytes(b) => Source::Bytes(b.slice((base as usize).min(b.len())..)),
        }
    }

    /// The number of bytes the source holds.
    pub fn len(&self) -> u64 {
        match self {
            Source::File { len, .. } => *len,
            Source::Bytes(b) => b.len() as u64,
        }
    }

    /// Whether the source holds no bytes.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn name(&self) -> &str {
        match self {
            Source::File { name, .. } => name,
            Source::Bytes(_) => "<memory>",
        }
    }

    /// Checks that `[pos, pos + n)` lies inside the source.
    pub(crate) fn check(&self, pos: u64, n: u64, what: &str) -> Result<()> {
        match pos.checked_add(n) {
            Some(end) if end <= self.len() => Ok(()),
            _ => Err(data_loss(format!(
                "{what} at {pos} ({n} bytes) runs past the end of {} ({} bytes)",
                self.name(),
                self.len()
            ))),
        }
    }

    /// Fills `buf` from `pos`.
    pub(crate) fn read_into(&self, pos: u64, buf: &mut [u8], what: &str) -> Result<()> {
        self.check(pos, buf.len() as u64, what)?;
        match self {
            Source::File {
                file, start, name, ..
            } => read_at(file, buf, start + pos).map_err(|e| Error::io(name, &e)),
            Source::Bytes(b) => {
                // In range: checked above.
                let s = b
                    .get(pos as usize..pos as usize + buf.len())
                    .unwrap_or_default();
                buf.copy_from_slice(s);
                Ok(())
            }
        }
    }

    /// `n` bytes from `pos`, after checking they exist (so a lying size
    /// never allocates more than the file holds).
    pub(crate) fn read_vec(&self, pos: u64, n: u64, what: &str) -> Result<Vec<u8>> {
        self.check(pos, n, what)?;
        let mut v = crate::buffer::try_vec::<u8>(n as usize)?;
        v.resize(n as usize, 0);
        self.read_into(pos, &mut v, what)?;
        Ok(v)
    }

    /// Up to `n` bytes from `pos` (fewer at the end of the source): for
    /// blocks whose length is only known after parsing them.
    pub(crate) fn read_upto(&self, pos: u64, n: u64, what: &str) -> Result<Vec<u8>> {
        if pos > self.len() {
            return Err(data_loss(format!(
                "{what} at {pos} lies past the end of {} ({} bytes)",
                self.name(),
                self.len()
            )));
        }
        let n = n.min(self.len() - pos);
        self.read_vec(pos, n, what)
    }

    /// `n` bytes from `pos` as `Bytes`: a slice of memory, or a fresh
    /// read (large reads into a huge-page-advised map, as the other formats do).
    pub(crate) fn read_bytes(&self, pos: u64, n: u64, what: &str) -> Result<Bytes> {
        self.check(pos, n, what)?;
        match self {
            Source::Bytes(b) => Ok(b.slice(pos as usize..(pos + n) as usize)),
            Source::File {
                file, start, name, ..
            } if n >= LARGE => {
                let mut r = AtReader {
                    file,
                    pos: start + pos,
                };
                crate::buffer::read_policy::read_exact_new(&mut r, n as usize)
                    .map_err(|e| Error::io(name, &e))
            }
            Source::File { .. } => Ok(Bytes::from(self.read_vec(pos, n, what)?)),
        }
    }
}

/// Reads of at least this many bytes go into an anonymous huge-page map.
pub(crate) const LARGE: u64 = 4 << 20;

/// A `Read` over positioned reads, so concurrent readers of one file
/// never share a seek position.
struct AtReader<'a> {
    file: &'a File,
    pos: u64,
}

impl std::io::Read for AtReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = read_some_at(self.file, buf, self.pos)?;
        self.pos += n as u64;
        Ok(n)
    }
}

#[cfg(unix)]
fn read_some_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
fn read_some_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

#[cfg(not(any(unix, windows)))]
fn read_some_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<usize> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f: &File = file;
    f.seek(SeekFrom::Start(offset))?;
    f.read(buf)
}

#[cfg(unix)]
fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(not(unix))]
fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        let n = read_some_at(file, buf, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        // In bounds: a read returns at most `buf.len()` bytes.
        buf = buf.get_mut(n..).unwrap_or_default();
        offset += n as u64;
    }
    Ok(())
}
