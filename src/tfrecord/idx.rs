//! Random access to TFRecord files: the index pass ([`index_records`],
//! each record's offset and framed length, both CRCs checked, read in
//! large ranges), DALI's `.idx` text files ([`format_index`],
//! [`parse_index`]: one `offset length` line per record, the length
//! counting the 16 framing bytes, as `tfrecord2idx` writes them), and
//! [`RecordFile`], a file's records by number, local or remote.
//!
//! A GZIP or ZLIB file has no byte offsets for its records: it is refused
//! with an error saying so.
//!
//! ```
//! use tftensor::tfrecord::{index_records, RecordFile, RecordWriter, Compression};
//! let tmp = tempfile::tempdir().unwrap();
//! let path = tmp.path().join("r.tfrecord");
//! let mut w = RecordWriter::create(&path, Compression::None)?;
//! for r in [&b"first"[..], b"", b"third record"] {
//!     w.write_record(r)?;
//! }
//! w.finish()?;
//! let index = index_records(&path)?;
//! assert_eq!(index, [(0, 21), (21, 16), (37, 28)]);
//! let file = RecordFile::open(&path)?;
//! assert_eq!((file.len(), &file.get(2)?[..]), (3, &b"third record"[..]));
//! # Ok::<(), tftensor::Error>(())
//! ```

use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;

use crate::crc32c;
use crate::io::{Blob, Compression, RangeRead, RemoteOptions};
use crate::{Error, Result};

/// The framing around a record's data: length, its CRC, and the data's CRC.
const FRAMING: u64 = 16;
/// How much the index pass reads at a time.
const CHUNK: u64 = 16 << 20;

/// The error for a compressed file.
fn compressed(id: &str, c: Compression) -> Error {
    Error::InvalidArgument(format!(
        "{c:?}-compressed TFRecord files have no random access (records have no byte offsets): \
         index or read the uncompressed file"
    ))
    .with_path(id)
}

/// Refuses a compressed file: one whose first 12 bytes are not a
/// record header with its CRC, and whose name or first bytes say GZIP or
/// ZLIB.
fn check_uncompressed(blob: &dyn Blob) -> Result<()> {
    let head = blob.read_upto(0, 12)?;
    if let (Some(l), Some(c)) = (head.get(..8), head.get(8..12)) {
        if c.try_into().ok().map(u32::from_le_bytes) == Some(crc32c::masked(l)) {
            return Ok(());
        }
    }
    // `rsplit` yields at least one piece, the whole id when it has no '/'.
    let name = blob.id().rsplit('/').next().unwrap_or_default();
    for c in [Compression::of_name(name).1, Compression::of_head(&head)] {
        if c != Compression::None {
            return Err(compressed(blob.id(), c));
        }
    }
    Ok(())
}

/// Every record's `(offset, length)` in the TFRecord `blob`, the length
/// counting the 16 framing bytes; both CRCs of each record checked.
///
/// # Errors
/// [`Error::InvalidArgument`] for a GZIP or ZLIB file; [`Error::DataLoss`]
/// with the offset for a CRC mismatch or a record cut short.
///
/// ```
/// use tftensor::io::{Blob, BytesBlob};
/// // One empty record: its 8-byte length, the length's CRC, the data's CRC.
/// let mut rec = 0u64.to_le_bytes().to_vec();
/// rec.extend(tftensor::crc32c::masked(&rec).to_le_bytes());
/// rec.extend(tftensor::crc32c::masked(b"").to_le_bytes());
/// let blob = BytesBlob::new("mem.tfrecord", rec);
/// assert_eq!(tftensor::tfrecord::index_blob(&blob)?, [(0, 16)]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn index_blob(blob: &dyn Blob) -> Result<Vec<(u64, u64)>> {
    check_uncompressed(blob)?;
    let len = blob.len();
    let mut out = Vec::new();
    let mut buf = Bytes::new();
    let mut buf_start = 0u64;
    let mut pos = 0u64;
    // `pos..pos + n` as a slice of the window, reading on as needed.
    let window = |pos: u64, n: u64, buf: &mut Bytes, buf_start: &mut u64| -> Result<Bytes> {
        let end = pos.checked_add(n).filter(|e| *e <= len).ok_or_else(|| {
            Error::data_loss("the file ends inside a record")
                .with_path(blob.id())
                .with_offset(pos)
        })?;
        if pos < *buf_start || end > *buf_start + buf.len() as u64 {
            let stop = end.max(pos.saturating_add(CHUNK)).min(len);
            *buf = blob.read_bytes(pos..stop)?;
            *buf_start = pos;
        }
        let a = (pos - *buf_start) as usize;
        Ok(buf.slice(a..a + n as usize))
    };
    while pos < len {
        let head = window(pos, 12, &mut buf, &mut buf_start)?;
        let (Some(l), Some(c)) = (head.get(..8), head.get(8..12)) else {
            return Err(Error::data_loss("short record header")
                .with_path(blob.id())
                .with_offset(pos));
        };
        let data_len =
            u64::from_le_bytes(l.try_into().map_err(|_| Error::data_loss("short length"))?);
        let want = u32::from_le_bytes(c.try_into().map_err(|_| Error::data_loss("short crc"))?);
        if crc32c::masked(l) != want {
            return Err(Error::data_loss("corrupted record length (CRC mismatch)")
                .with_path(blob.id())
                .with_offset(pos));
        }
        let framed = data_len
            .checked_add(FRAMING)
            .filter(|f| pos + f <= len)
            .ok_or_else(|| {
                Error::data_loss(format!(
                    "a record of {data_len} bytes runs past the end of the file"
                ))
                .with_path(blob.id())
                .with_offset(pos)
            })?;
        let body = window(pos + 12, data_len + 4, &mut buf, &mut buf_start)?;
        let (data, sum) = body.split_at(data_len as usize);
        let want = u32::from_le_bytes(sum.try_into().map_err(|_| Error::data_loss("short crc"))?);
        if crc32c::masked(data) != want {
            return Err(Error::data_loss("corrupted record data (CRC mismatch)")
                .with_path(blob.id())
                .with_offset(pos + 12));
        }
        out.push((pos, framed));
        pos += framed;
    }
    Ok(out)
}

/// [`index_blob`] of the file or object at `path` (a local path or a URL).
///
/// # Errors
/// As [`index_blob`]; the store's errors opening `path`.
///
/// ```
/// let idx = tftensor::tfrecord::index_records("tests/data/tfrecord/idx/records.tfrecord")?;
/// assert_eq!(idx[..2], [(0, 16), (16, 17)]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn index_records(path: impl AsRef<Path>) -> Result<Vec<(u64, u64)>> {
    let blob = crate::io::open_blob(path.as_ref(), &RemoteOptions::default())?;
    index_blob(&*blob)
}

/// An index as DALI's `.idx` text: one `offset length` line per record.
///
/// ```
/// assert_eq!(tftensor::tfrecord::format_index(&[(0, 21), (21, 16)]), "0 21\n21 16\n");
/// ```
pub fn format_index(index: &[(u64, u64)]) -> String {
    let mut s = String::with_capacity(index.len() * 16);
    for (o, l) in index {
        s.push_str(&format!("{o} {l}\n"));
    }
    s
}

/// Writes `index` as a DALI `.idx` file at `path` (a local path or a
/// URL), appearing only once complete.
///
/// # Errors
/// [`Error::Io`] when it cannot be written.
///
/// ```
/// let tmp = tempfile::tempdir().unwrap();
/// let p = tmp.path().join("a.idx");
/// tftensor::tfrecord::write_index(&p, &[(0, 16)], &Default::default())?;
/// assert_eq!(std::fs::read_to_string(&p)?, "0 16\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_index(
    path: impl AsRef<Path>,
    index: &[(u64, u64)],
    remote: &RemoteOptions,
) -> Result<()> {
    crate::io::write_whole(path.as_ref(), format_index(index).as_bytes(), remote)
}

/// Parses a DALI `.idx` text (named `id` in errors): one `offset length`
/// line per record (blank lines skipped). Each record must lie within
/// `file_len` bytes and hold its 16 framing bytes.
///
/// # Errors
/// [`Error::InvalidFormat`] naming the line.
///
/// ```
/// let idx = tftensor::tfrecord::parse_index("0 21\n21 16\n", "a.idx", 37)?;
/// assert_eq!(idx, [(0, 21), (21, 16)]);
/// assert!(tftensor::tfrecord::parse_index("0 21\n21 17\n", "a.idx", 37).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn parse_index(text: &str, id: &str, file_len: u64) -> Result<Vec<(u64, u64)>> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let bad = |why: &str| {
            Error::invalid_format("tfrecord index", format!("line {}: {why}: {line:?}", n + 1))
                .with_path(id)
        };
        let mut parts = line.split_whitespace();
        let (Some(o), Some(l), None) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad("not `offset length`"));
        };
        let (Ok(o), Ok(l)) = (o.parse::<u64>(), l.parse::<u64>()) else {
            return Err(bad("not two numbers"));
        };
        if l < FRAMING || o.checked_add(l).is_none_or(|e| e > file_len) {
            return Err(bad(&format!(
                "not a record within the file's {file_len} bytes"
            )));
        }
        out.push((o, l));
    }
    Ok(out)
}

/// A TFRecord file's records by number: its index (from a `.idx` file,
/// or made by [`index_blob`]) and ranged reads of one record at a time,
/// both CRCs checked. A local file or an object in a store alike.
#[derive(Debug, Clone)]
pub struct RecordFile {
    blob: Arc<dyn Blob>,
    index: Arc<[(u64, u64)]>,
}

impl RecordFile {
    /// Opens the TFRecord at `path` and indexes it.
    ///
    /// # Errors
    /// As [`index_blob`].
    ///
    /// ```
    /// let f = tftensor::tfrecord::RecordFile::open("tests/data/tfrecord/idx/records.tfrecord")?;
    /// assert_eq!((f.len(), f.is_empty(), f.get(1)?.len()), (8, false, 1));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<RecordFile> {
        RecordFile::open_with(path, None, &RemoteOptions::default())
    }

    /// Opens the TFRecord at `path` with the DALI `.idx` file at `index`
    /// (indexing the file when `None`), reaching URLs as `remote` says.
    ///
    /// # Errors
    /// As [`index_blob`] and [`parse_index`].
    ///
    /// ```
    /// use std::path::Path;
    /// use tftensor::tfrecord::RecordFile;
    /// let idx = Path::new("tests/data/tfrecord/idx/records.idx");
    /// let f = RecordFile::open_with("tests/data/tfrecord/idx/records.tfrecord", Some(idx), &Default::default())?;
    /// assert_eq!(f.index()[1], (16, 17));
    /// assert!(f.id().ends_with("records.tfrecord"));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn open_with(
        path: impl AsRef<Path>,
        index: Option<&Path>,
        remote: &RemoteOptions,
    ) -> Result<RecordFile> {
        let blob = crate::io::open_blob(path.as_ref(), remote)?;
        let index = match index {
            None => index_blob(&*blob)?,
            Some(p) => {
                check_uncompressed(&*blob)?;
                let idx = crate::io::open_blob(p, remote)?;
                let text = idx.read_all()?;
                let text = std::str::from_utf8(&text).map_err(|_| {
                    Error::invalid_format("tfrecord index", "not text").with_path(idx.id())
                })?;
                parse_index(text, idx.id(), blob.len())?
            }
        };
        Ok(RecordFile {
            blob,
            index: index.into(),
        })
    }

    /// The TFRecord at `path` with a known index (each record's offset
    /// and framed length, as [`index`](Self::index) gives), checked
    /// against the file's length.
    ///
    /// # Errors
    /// As [`parse_index`], for an entry outside the file.
    ///
    /// ```
    /// use tftensor::tfrecord::RecordFile;
    /// let path = "tests/data/tfrecord/idx/records.tfrecord";
    /// let f = RecordFile::with_index(path, vec![(16, 17)], &Default::default())?;
    /// assert_eq!(f.get_many(&[0, 0])?, [&b"x"[..], &b"x"[..]]);
    /// assert!(RecordFile::with_index(path, vec![(16, 1 << 40)], &Default::default()).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn with_index(
        path: impl AsRef<Path>,
        index: Vec<(u64, u64)>,
        remote: &RemoteOptions,
    ) -> Result<RecordFile> {
        let blob = crate::io::open_blob(path.as_ref(), remote)?;
        check_uncompressed(&*blob)?;
        if let Some((o, l)) = index
            .iter()
            .find(|(o, l)| *l < FRAMING || o.checked_add(*l).is_none_or(|e| e > blob.len()))
        {
            return Err(Error::invalid_format(
                "tfrecord index",
                format!(
                    "{o} {l} is not a record within the file's {} bytes",
                    blob.len()
                ),
            )
            .with_path(blob.id()));
        }
        Ok(RecordFile {
            blob,
            index: index.into(),
        })
    }

    /// How many records there are.
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// Each record's `(offset, length)`, framing included.
    pub fn index(&self) -> &[(u64, u64)] {
        &self.index
    }

    /// The path or URL.
    pub fn id(&self) -> &str {
        self.blob.id()
    }

    /// Record `i`'s data.
    ///
    /// # Errors
    /// [`Error::OutOfRange`]-like [`Error::InvalidArgument`] for `i` past
    /// the end; [`Error::DataLoss`] for a CRC mismatch or a length that
    /// disagrees with the index.
    pub fn get(&self, i: usize) -> Result<Bytes> {
        let mut one = self.get_many(&[i])?;
        debug_assert_eq!(one.len(), 1, "get_many gives one record per id");
        one.pop()
            .ok_or_else(|| Error::InvalidArgument("get_many gave no record for one id".into()))
    }

    /// The data of records `ids`, in order, read at once (several ranges
    /// in flight for a remote file).
    ///
    /// # Errors
    /// As [`get`](Self::get).
    pub fn get_many(&self, ids: &[usize]) -> Result<Vec<Bytes>> {
        let mut places = Vec::with_capacity(ids.len());
        for &i in ids {
            let &(offset, len) = self.index.get(i).ok_or_else(|| {
                Error::InvalidArgument(format!("record {i} of {}", self.index.len()))
                    .with_path(self.blob.id())
            })?;
            let n =
                usize::try_from(len).map_err(|_| Error::AllocationFailed { bytes: usize::MAX })?;
            places.push((offset, n));
        }
        let mut bufs: Vec<Vec<u8>> = Vec::with_capacity(places.len());
        for &(_, n) in &places {
            let mut v = crate::buffer::try_vec::<u8>(n)?;
            v.resize(n, 0);
            bufs.push(v);
        }
        let reads = places
            .iter()
            .zip(bufs.iter_mut())
            .map(|(&(offset, _), dst)| RangeRead {
                offset,
                dst,
                sum: None,
            })
            .collect();
        self.blob.read_ranges(reads)?;
        places
            .iter()
            .zip(bufs)
            .map(|(&(offset, _), framed)| unframe(self.blob.id(), offset, framed))
            .collect()
    }
}

/// A framed record's data, both CRCs and the length checked.
fn unframe(id: &str, offset: u64, framed: Vec<u8>) -> Result<Bytes> {
    let loss = |why: &str, at: u64| {
        Error::data_loss(why.to_owned())
            .with_path(id)
            .with_offset(at)
    };
    let (Some(l), Some(c)) = (framed.get(..8), framed.get(8..12)) else {
        return Err(loss(
            "the index names a range too short for a record",
            offset,
        ));
    };
    let data_len = u64::from_le_bytes(l.try_into().map_err(|_| loss("short length", offset))?);
    let want = u32::from_le_bytes(c.try_into().map_err(|_| loss("short crc", offset))?);
    if crc32c::masked(l) != want {
        return Err(loss("corrupted record length (CRC mismatch)", offset));
    }
    if data_len.checked_add(FRAMING) != Some(framed.len() as u64) {
        return Err(loss("the record's length disagrees with the index", offset));
    }
    let end = framed.len() - 4;
    let (Some(data), Some(sum)) = (framed.get(12..end), framed.get(end..)) else {
        return Err(loss("short record", offset));
    };
    let want = u32::from_le_bytes(sum.try_into().map_err(|_| loss("short crc", offset))?);
    if crc32c::masked(data) != want {
        return Err(loss("corrupted record data (CRC mismatch)", offset + 12));
    }
    Ok(Bytes::from(framed).slice(12..end))
}
