//! [`Blob`]: the bytes every format reads, by range. A local file (read
//! with positioned reads, large reads on two cores into huge-page buffers),
//! a memory map, [`Bytes`] in memory, a window of another blob (a STORED
//! zip member), or an object in a remote store: each format's reader is
//! written once, against this trait, and serves them all.

use std::fmt;
use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;

use crate::buffer::read_jobs::read_jobs;
pub use crate::buffer::read_jobs::{Checksum, RangeRead};
use crate::buffer::read_policy::ReadBuf;
use crate::error::{Error, Result};

/// Bytes that are read by range: the one thing a format's reader needs.
///
/// Every read is checked against [`len`](Blob::len) first, so a reader
/// never asks for (or allocates for) more than the blob holds: a range
/// past the end is [`Error::DataLoss`] with the blob's [`id`](Blob::id) and
/// the offset as fields.
///
/// ```
/// use std::sync::Arc;
/// use tftensor::io::{Blob, BytesBlob};
/// let blob: Arc<dyn Blob> = Arc::new(BytesBlob::new("mem", &b"hello world"[..]));
/// let mut five = [0u8; 5];
/// blob.read_at(6, &mut five)?;
/// assert_eq!(&five, b"world");
/// assert_eq!(blob.read_bytes(0..5)?, &b"hello"[..]);
/// assert!(blob.read_at(8, &mut five).is_err()); // past the end
/// # Ok::<(), tftensor::Error>(())
/// ```
pub trait Blob: Send + Sync + fmt::Debug {
    /// The path or URL the bytes come from, as errors name it.
    fn id(&self) -> &str;

    /// How many bytes there are.
    fn len(&self) -> u64;

    /// Whether there are none.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Fills `dst` with the bytes at `offset`.
    ///
    /// # Errors
    /// [`Error::DataLoss`] when the range runs past the end;
    /// [`Error::Io`] when the storage fails.
    fn read_at(&self, offset: u64, dst: &mut [u8]) -> Result<()>;

    /// Reads every range into its destination, taking each one's
    /// checksum where asked, and returns the checksums in order. A store
    /// may read them at once (a local file on two cores, a remote one
    /// with several requests in flight); the default reads them in turn.
    ///
    /// # Errors
    /// As [`read_at`](Blob::read_at), for the first range that fails.
    fn read_ranges(&self, reads: Vec<RangeRead<'_>>) -> Result<Vec<Option<u32>>> {
        reads
            .into_iter()
            .map(|r| {
                self.read_at(r.offset, r.dst)?;
                Ok(r.sum.map(|s| s.of(r.dst)))
            })
            .collect()
    }

    /// All the bytes, when the storage holds them in memory already (a
    /// map, [`Bytes`]): readers then take slices instead of copying.
    fn mapped(&self) -> Option<Bytes> {
        None
    }
}

impl dyn Blob + '_ {
    /// Checks that `len` bytes at `offset` lie inside the blob.
    ///
    /// # Errors
    /// [`Error::DataLoss`] naming the blob and the offset.
    ///
    /// ```
    /// use tftensor::io::{Blob, BytesBlob};
    /// let blob: &dyn Blob = &BytesBlob::new("m", &[0u8; 4][..]);
    /// assert!(blob.check(0, 4).is_ok());
    /// assert!(blob.check(3, 2).is_err());
    /// ```
    pub fn check(&self, offset: u64, len: u64) -> Result<()> {
        match offset.checked_add(len) {
            Some(end) if end <= self.len() => Ok(()),
            _ => Err(past_end(self.id(), offset, len, self.len())),
        }
    }

    /// The bytes of `range`: a slice where the blob is in memory, else one
    /// read into a new buffer (a huge-page map for large reads, read on two
    /// cores from a local file).
    ///
    /// # Errors
    /// As [`Blob::read_at`]; [`Error::AllocationFailed`].
    ///
    /// ```
    /// use tftensor::io::{Blob, BytesBlob};
    /// let blob: &dyn Blob = &BytesBlob::new("m", &b"abcdef"[..]);
    /// assert_eq!(blob.read_bytes(2..4)?, &b"cd"[..]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn read_bytes(&self, range: Range<u64>) -> Result<Bytes> {
        Ok(self.read_bytes_summed(range, None)?.0)
    }

    /// `read_bytes`, with the checksum of the bytes
    /// taken as they arrive (while they are in cache).
    ///
    /// # Errors
    /// As `read_bytes`.
    ///
    /// ```
    /// use tftensor::io::{Blob, BytesBlob, Checksum};
    /// let blob: &dyn Blob = &BytesBlob::new("m", &b"123456789"[..]);
    /// let (bytes, sum) = blob.read_bytes_summed(0..9, Some(Checksum::Crc32c))?;
    /// assert_eq!((bytes.len(), sum), (9, Some(0xe306_9283)));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn read_bytes_summed(
        &self,
        range: Range<u64>,
        sum: Option<Checksum>,
    ) -> Result<(Bytes, Option<u32>)> {
        let len = range.end.saturating_sub(range.start);
        self.check(range.start, len)?;
        if let Some(all) = self.mapped() {
            // In range: checked against `len()`, which is the map's length.
            let (a, b) = (range.start as usize, range.end as usize);
            let bytes = all.slice(a..b);
            let s = sum.map(|s| s.of(&bytes));
            return Ok((bytes, s));
        }
        let n = usize::try_from(len).map_err(|_| Error::AllocationFailed { bytes: usize::MAX })?;
        let mut buf = ReadBuf::new(n)?;
        let sums = self.read_ranges(vec![RangeRead {
            offset: range.start,
            dst: buf.as_mut_slice(),
            sum,
        }])?;
        let bytes = buf.freeze().map_err(|e| Error::io(self.id(), e))?;
        Ok((bytes, sums.into_iter().next().flatten()))
    }

    /// `len` bytes at `offset` into a new `Vec`, for small reads (headers,
    /// indexes), after checking they exist.
    ///
    /// # Errors
    /// As [`Blob::read_at`]; [`Error::AllocationFailed`].
    ///
    /// ```
    /// use tftensor::io::{Blob, BytesBlob};
    /// let blob: &dyn Blob = &BytesBlob::new("m", &b"abc"[..]);
    /// assert_eq!(blob.read_vec(1, 2)?, b"bc");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn read_vec(&self, offset: u64, len: u64) -> Result<Vec<u8>> {
        self.check(offset, len)?;
        // Fits: checked against the blob's length above.
        let mut v = crate::buffer::try_vec::<u8>(len as usize)?;
        v.resize(len as usize, 0);
        self.read_at(offset, &mut v)?;
        Ok(v)
    }

    /// Up to `len` bytes at `offset`: fewer where the blob ends first (for
    /// a header whose length is known only once parsed).
    ///
    /// # Errors
    /// [`Error::DataLoss`] when `offset` is past the end; as
    /// [`Blob::read_at`].
    ///
    /// ```
    /// use tftensor::io::{Blob, BytesBlob};
    /// let blob: &dyn Blob = &BytesBlob::new("m", &b"abc"[..]);
    /// assert_eq!(blob.read_upto(1, 100)?, b"bc");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn read_upto(&self, offset: u64, len: u64) -> Result<Vec<u8>> {
        self.check(offset, 0)?;
        self.read_vec(offset, len.min(self.len() - offset))
    }

    /// Every byte, as `read_bytes` of the whole blob.
    ///
    /// # Errors
    /// As `read_bytes`.
    ///
    /// ```
    /// use tftensor::io::{Blob, BytesBlob};
    /// let blob: &dyn Blob = &BytesBlob::new("m", &b"abc"[..]);
    /// assert_eq!(blob.read_all()?, &b"abc"[..]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn read_all(&self) -> Result<Bytes> {
        self.read_bytes(0..self.len())
    }

    /// A reader over the blob, for stream parsers (zip, compression,
    /// record framing): positioned reads, so readers of one blob never
    /// share a position.
    ///
    /// ```
    /// use std::io::Read;
    /// use tftensor::io::{Blob, BytesBlob};
    /// let blob: &dyn Blob = &BytesBlob::new("m", &b"abc"[..]);
    /// let mut s = String::new();
    /// blob.reader().read_to_string(&mut s)?;
    /// assert_eq!(s, "abc");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn reader(&self) -> BlobReader<'_> {
        BlobReader { blob: self, pos: 0 }
    }
}

/// The error for `len` bytes at `offset` of a blob of `total` bytes.
fn past_end(id: &str, offset: u64, len: u64, total: u64) -> Error {
    Error::data_loss(format!(
        "{len} bytes at {offset} run past the end ({total} bytes)"
    ))
    .with_path(id)
    .with_offset(offset)
}

/// A [`Read`] + [`Seek`] over a [`Blob`], from `dyn Blob::reader`.
/// Errors come back as `io::Error`s wrapping the crate's [`Error`].
#[derive(Debug)]
pub struct BlobReader<'b> {
    blob: &'b dyn Blob,
    pos: u64,
}

impl Read for BlobReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let left = self.blob.len().saturating_sub(self.pos);
        let n = usize::try_from(left).map_or(buf.len(), |l| l.min(buf.len()));
        let Some(dst) = buf.get_mut(..n) else {
            return Ok(0);
        };
        self.blob.read_at(self.pos, dst).map_err(io::Error::other)?;
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for BlobReader<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let (base, delta) = match to {
            SeekFrom::Start(p) => {
                self.pos = p;
                return Ok(p);
            }
            SeekFrom::End(d) => (self.blob.len(), d),
            SeekFrom::Current(d) => (self.pos, d),
        };
        self.pos = base
            .checked_add_signed(delta)
            .ok_or_else(|| io::Error::new(io::ErrorKind::InvalidInput, "seek before the start"))?;
        Ok(self.pos)
    }
}

/// A [`Read`] + [`Seek`] that owns its [`Blob`] (for readers kept beside
/// other state, as a record stream's).
#[derive(Debug)]
pub(crate) struct SharedReader {
    blob: Arc<dyn Blob>,
    pos: u64,
}

impl SharedReader {
    #[allow(dead_code, reason = "used by the record streams (feature tfrecord)")]
    pub(crate) fn new(blob: Arc<dyn Blob>) -> SharedReader {
        SharedReader { blob, pos: 0 }
    }
}

impl Read for SharedReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let mut r = BlobReader {
            blob: &*self.blob,
            pos: self.pos,
        };
        let n = r.read(buf)?;
        self.pos = r.pos;
        Ok(n)
    }
}

impl Seek for SharedReader {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let mut r = BlobReader {
            blob: &*self.blob,
            pos: self.pos,
        };
        self.pos = r.seek(to)?;
        Ok(self.pos)
    }
}

/// A local file, read with positioned reads: large reads go on two cores
/// in 1 MiB pieces, each checksummed on the core that read it, into
/// huge-page buffers that a process-wide pool reuses.
///
/// ```
/// use tftensor::io::{Blob, LocalFile};
/// let blob = LocalFile::open("tests/data/npy/float32.npy")?;
/// let mut magic = [0u8; 6];
/// blob.read_at(0, &mut magic)?;
/// assert_eq!(&magic, b"\x93NUMPY");
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Debug)]
pub struct LocalFile {
    file: File,
    len: u64,
    id: String,
}

impl LocalFile {
    /// Opens `path` for reading.
    ///
    /// # Errors
    /// [`Error::Io`] naming the path (`NotFound` when it does not exist).
    pub fn open(path: impl AsRef<Path>) -> Result<LocalFile> {
        let path = path.as_ref();
        let id = path.display().to_string();
        let file = File::open(path).map_err(|e| Error::io(&id, e))?;
        let meta = file.metadata().map_err(|e| Error::io(&id, e))?;
        if meta.is_dir() {
            return Err(Error::io(
                &id,
                io::Error::new(io::ErrorKind::IsADirectory, "is a directory"),
            ));
        }
        Ok(LocalFile {
            file,
            len: meta.len(),
            id,
        })
    }
}

impl Blob for LocalFile {
    fn id(&self) -> &str {
        &self.id
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, dst: &mut [u8]) -> Result<()> {
        (self as &dyn Blob).check(offset, dst.len() as u64)?;
        crate::buffer::read_jobs::read_at(&self.file, dst, offset)
            .map_err(|e| file_error(&self.id, offset, e))
    }

    fn read_ranges(&self, mut reads: Vec<RangeRead<'_>>) -> Result<Vec<Option<u32>>> {
        for r in &mut reads {
            (self as &dyn Blob).check(r.offset, r.dst.len() as u64)?;
        }
        let first = reads.iter().map(|r| r.offset).min().unwrap_or(0);
        read_jobs(&self.file, reads).map_err(|e| file_error(&self.id, first, e))
    }
}

/// A read error of a local file: a file cut short since it was opened is
/// data loss, anything else the I/O error.
fn file_error(id: &str, offset: u64, e: io::Error) -> Error {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        Error::data_loss("the file ended early (changed since it was opened?)")
            .with_path(id)
            .with_offset(offset)
    } else {
        Error::io(id, e)
    }
}

/// Bytes in memory (or a memory map) as a blob: reads are slices.
///
/// ```
/// use tftensor::io::{Blob, BytesBlob};
/// let blob = BytesBlob::new("weights", bytes::Bytes::from_static(b"\x01\x02"));
/// assert_eq!(blob.mapped().unwrap(), &b"\x01\x02"[..]);
/// ```
#[derive(Clone, Debug)]
pub struct BytesBlob {
    bytes: Bytes,
    id: String,
}

impl BytesBlob {
    /// `bytes`, named `id` in errors.
    pub fn new(id: impl Into<String>, bytes: impl Into<Bytes>) -> BytesBlob {
        BytesBlob {
            bytes: bytes.into(),
            id: id.into(),
        }
    }

    /// Maps the file at `path` read-only: reads are then slices of the
    /// map, and tensors read from it may use the mapped pages in place.
    ///
    /// # Safety
    /// The file must not be modified or truncated while the blob, or any
    /// [`Bytes`] or tensor taken from it, is alive: those read the mapped
    /// pages directly.
    ///
    /// # Errors
    /// [`Error::Io`] naming the path.
    ///
    /// ```
    /// use tftensor::io::{Blob, BytesBlob};
    /// // SAFETY: nothing writes the test fixtures.
    /// let blob = unsafe { BytesBlob::map("tests/data/npy/float32.npy") }?;
    /// assert!(blob.mapped().unwrap().starts_with(b"\x93NUMPY"));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub unsafe fn map(path: impl AsRef<Path>) -> Result<BytesBlob> {
        let path = path.as_ref();
        let id = path.display().to_string();
        let file = File::open(path).map_err(|e| Error::io(&id, e))?;
        // SAFETY: forwarded to the caller (this function's contract).
        unsafe { BytesBlob::map_file(&file, id) }
    }

    /// Maps an open file read-only, named `id` in errors; an empty file
    /// gives no bytes (mapping zero bytes fails on Linux). The map is
    /// unmapped when the last `Bytes` over it is dropped.
    ///
    /// # Safety
    /// As [`BytesBlob::map`].
    ///
    /// # Errors
    /// [`Error::Io`] naming `id`.
    ///
    /// ```
    /// let file = std::fs::File::open("tests/data/npy/float32.npy")?;
    /// // SAFETY: nothing writes the test fixtures.
    /// let blob = unsafe { tftensor::io::BytesBlob::map_file(&file, "f.npy") }?;
    /// assert!(blob.into_bytes().starts_with(b"\x93NUMPY"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub unsafe fn map_file(file: &File, id: impl Into<String>) -> Result<BytesBlob> {
        let id = id.into();
        if file.metadata().map_err(|e| Error::io(&id, e))?.len() == 0 {
            return Ok(BytesBlob::new(id, Bytes::new()));
        }
        // SAFETY: the caller guarantees the file is not changed while mapped.
        let map = unsafe { memmap2::Mmap::map(file) }.map_err(|e| Error::io(&id, e))?;
        Ok(BytesBlob::new(id, Bytes::from_owner(map)))
    }
}

impl BytesBlob {
    /// The bytes.
    ///
    /// ```
    /// let blob = tftensor::io::BytesBlob::new("m", &b"ab"[..]);
    /// assert_eq!(blob.into_bytes(), &b"ab"[..]);
    /// ```
    pub fn into_bytes(self) -> Bytes {
        self.bytes
    }
}

impl Blob for BytesBlob {
    fn id(&self) -> &str {
        &self.id
    }

    fn len(&self) -> u64 {
        self.bytes.len() as u64
    }

    fn read_at(&self, offset: u64, dst: &mut [u8]) -> Result<()> {
        (self as &dyn Blob).check(offset, dst.len() as u64)?;
        // In range: checked above.
        let start = offset as usize;
        if let Some(src) = self.bytes.get(start..start + dst.len()) {
            dst.copy_from_slice(src);
        }
        Ok(())
    }

    fn mapped(&self) -> Option<Bytes> {
        Some(self.bytes.clone())
    }
}

/// `len` bytes of another blob from `start`: a STORED zip member, an HDF5
/// file after its user block.
///
/// ```
/// use std::sync::Arc;
/// use tftensor::io::{Blob, BytesBlob, Window};
/// let whole: Arc<dyn Blob> = Arc::new(BytesBlob::new("a.zip", &b"..member.."[..]));
/// let member: Arc<dyn Blob> = Arc::new(Window::new(whole, 2, 6, "a.zip/member")?);
/// assert_eq!(member.read_all()?, &b"member"[..]);
/// assert!(Window::new(Arc::new(BytesBlob::new("x", &b"ab"[..])), 1, 5, "x").is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Window {
    inner: Arc<dyn Blob>,
    start: u64,
    len: u64,
    id: String,
}

impl Window {
    /// The `len` bytes of `inner` at `start`, named `id` in errors.
    ///
    /// # Errors
    /// [`Error::DataLoss`] when they run past `inner`'s end.
    pub fn new(
        inner: Arc<dyn Blob>,
        start: u64,
        len: u64,
        id: impl Into<String>,
    ) -> Result<Window> {
        inner.check(start, len)?;
        Ok(Window {
            inner,
            start,
            len,
            id: id.into(),
        })
    }
}

impl Blob for Window {
    fn id(&self) -> &str {
        &self.id
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, dst: &mut [u8]) -> Result<()> {
        (self as &dyn Blob).check(offset, dst.len() as u64)?;
        self.inner
            .read_at(self.start + offset, dst)
            .map_err(|e| e.with_path(&self.id))
    }

    fn read_ranges(&self, mut reads: Vec<RangeRead<'_>>) -> Result<Vec<Option<u32>>> {
        for r in &mut reads {
            (self as &dyn Blob).check(r.offset, r.dst.len() as u64)?;
            r.offset += self.start;
        }
        self.inner.read_ranges(reads)
    }

    fn mapped(&self) -> Option<Bytes> {
        let all = self.inner.mapped()?;
        // In range: checked against the inner blob when made.
        let (a, b) = (self.start as usize, (self.start + self.len) as usize);
        Some(all.slice(a..b))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_past_the_end_are_data_loss_with_the_offset() {
        let blob: Arc<dyn Blob> = Arc::new(BytesBlob::new("m", &b"0123456789"[..]));
        let err = blob.read_bytes(8..12).unwrap_err();
        assert!(matches!(err, Error::DataLoss { .. }), "{err:?}");
        assert_eq!(err.location().and_then(|at| at.offset), Some(8));
        let w: Arc<dyn Blob> = Arc::new(Window::new(blob.clone(), 2, 5, "m#w").unwrap());
        assert_eq!(w.read_bytes(1..4).unwrap(), &b"345"[..]);
        assert!(w.read_bytes(3..6).is_err());
        let mut r = w.reader();
        let mut all = Vec::new();
        r.read_to_end(&mut all).unwrap();
        assert_eq!(all, b"23456");
        r.seek(SeekFrom::End(-2)).unwrap();
        let mut two = [0u8; 2];
        r.read_exact(&mut two).unwrap();
        assert_eq!(&two, b"56");
    }

    #[test]
    fn a_local_file_reads_ranges_with_their_sums() {
        let tmp = tempfile::tempdir().unwrap();
        let p = tmp.path().join("f");
        let data: Vec<u8> = (0..50_000u32).map(|i| (i * 7) as u8).collect();
        std::fs::write(&p, &data).unwrap();
        let blob: Arc<dyn Blob> = Arc::new(LocalFile::open(&p).unwrap());
        let (bytes, sum) = blob
            .read_bytes_summed(100..40_100, Some(Checksum::Crc32c))
            .unwrap();
        assert_eq!(&bytes[..], &data[100..40_100]);
        assert_eq!(sum, Some(Checksum::Crc32c.of(&data[100..40_100])));
        let err = blob.read_bytes(49_999..50_001).unwrap_err();
        assert_eq!(
            err.location().and_then(|at| at.path.as_deref()),
            Some(&*p.display().to_string())
        );
    }
}
