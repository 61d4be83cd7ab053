//! TFRecord framing: [`RecordReader`] and [`RecordWriter`] (TF's
//! `tsl/lib/io/record_reader.cc` and `record_writer.cc`).
//!
//! Each record is `u64 length (LE) | u32 masked crc32c(length bytes) |
//! data | u32 masked crc32c(data)`; records are concatenated. With
//! [`Compression::Zlib`] or [`Compression::Gzip`] the whole stream of records
//! is compressed, as `tf.io.TFRecordOptions` does.

use std::fs::File;
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::path::Path;
use std::sync::Arc;

use flate2::bufread::{MultiGzDecoder, ZlibDecoder};
use flate2::write::{GzEncoder, ZlibEncoder};

use super::Compression;
use crate::io::SharedBlobReader;

#[path = "skim.rs"]
mod skim;
use crate::buffer::read_policy::{READ_CHUNK, ReadBuf, align_pos, fill_chunked};
use crate::crc32c;
use crate::io::Blob;
use crate::{Error, Result};

/// Bytes before a record's data: the length and its masked CRC.
pub(super) const HEADER_LEN: usize = 12;
/// Bytes after a record's data: its masked CRC.
pub(super) const FOOTER_LEN: usize = 4;
/// The most a reader reserves for a record's data before the data arrives,
/// when it cannot check the declared length against the file's length
/// (any `Read`, or a compressed stream). Longer records grow as they are
/// read, so a lying length costs at most this much.
///
/// ```
/// use tftensor::tfrecord::{Compression, RecordReader, MAX_PREALLOCATION};
/// // A header claiming 2^60 bytes, with a valid length CRC, then 3 bytes.
/// let len = (1u64 << 60).to_le_bytes();
/// let mut stream = len.to_vec();
/// stream.extend(tftensor::crc32c::masked(&len).to_le_bytes());
/// stream.extend([1, 2, 3]);
/// let err = RecordReader::new(stream.as_slice(), Compression::None).next().unwrap().unwrap_err();
/// assert_eq!((err.key(), err.location().unwrap().offset), (Some("record 0"), Some(0)));
/// assert!(err.to_string().contains("truncated record: "), "{err}");
/// assert_eq!(MAX_PREALLOCATION, 1 << 20);
/// ```
pub const MAX_PREALLOCATION: usize = 1 << 20;
/// The name errors use for a stream that was not opened from a path.
const STREAM_NAME: &str = "TFRecord stream";
/// Records at least this long are placed so their payload is aligned
/// ([`RecordReader::read_record_placed`]); shorter ones are packed.
pub(super) const PLACE_MIN: usize = 4096;
/// Buffer of the reader and writer (TF's default is 256 KiB too).
const BUFFER_LEN: usize = 256 << 10;
/// Buffer of a reader that places records ([`RecordReader::for_placing`]):
/// enough to see where a record's `tensor_content` starts.
const PLACE_BUFFER_LEN: usize = 4 << 10;

/// The decompressing layer under a [`RecordReader`].
enum Input<R: Read> {
    Plain(BufReader<R>),
    Zlib(BufReader<ZlibDecoder<BufReader<R>>>),
    Gzip(BufReader<MultiGzDecoder<BufReader<R>>>),
}

impl<R: Read> Input<R> {
    fn get(&mut self) -> &mut dyn BufRead {
        match self {
            Input::Plain(r) => r,
            Input::Zlib(r) => r,
            Input::Gzip(r) => r,
        }
    }
}

/// Reads the records of a TFRecord stream, checking both CRCs of each.
///
/// An iterator of `Result<Vec<u8>>`, one item per record; it ends at the
/// end of the stream, or after the first error (a corrupt or truncated
/// record, or an I/O error). Errors are [`Error::DataLoss`] with TF's words
/// (`"corrupted record"`, `"truncated record"`) and what is wrong; the
/// record (key `record N`) and the offset of its first byte in the
/// (decompressed) stream are fields. A record's declared length is
/// never allocated up front beyond what the input can back (see
/// [`MAX_PREALLOCATION`]).
///
/// ```
/// use tftensor::tfrecord::{Compression, RecordReader, RecordWriter};
///
/// let mut w = RecordWriter::new(Vec::new(), Compression::Gzip);
/// w.write_record(b"first")?;
/// w.write_record(b"")?;
/// let file = w.finish()?;
///
/// let records: Vec<Vec<u8>> =
///     RecordReader::new(file.as_slice(), Compression::Gzip).collect::<Result<_, _>>()?;
/// assert_eq!(records, [b"first".to_vec(), Vec::new()]);
///
/// // One flipped bit is caught by the CRC.
/// let mut bad = RecordWriter::new(Vec::new(), Compression::None);
/// bad.write_record(b"data")?;
/// let mut bytes = bad.finish()?;
/// bytes[13] ^= 1;
/// let err = RecordReader::new(bytes.as_slice(), Compression::None).next().unwrap().unwrap_err();
/// assert_eq!(err.kind(), tftensor::ErrorKind::DataLoss);
/// assert_eq!((err.key(), err.location().unwrap().offset), (Some("record 0"), Some(0)));
/// assert!(err.to_string().contains("corrupted record: data checksum mismatch"), "{err}");
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct RecordReader<R: Read> {
    input: Input<R>,
    compression: Compression,
    name: String,
    /// Index of the next record.
    index: u64,
    /// Offset of the next record in the decompressed stream.
    offset: u64,
    /// Bytes left in the (uncompressed) file, when known: bounds what a
    /// record's declared length may reserve.
    remaining: Option<u64>,
    done: bool,
}

impl<R: Read> RecordReader<R> {
    /// A reader of the records in `input`, decompressing it as
    /// `compression` says. `input` is buffered internally.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordReader};
    /// let empty: &[u8] = &[];
    /// assert_eq!(RecordReader::new(empty, Compression::None).count(), 0);
    /// ```
    pub fn new(input: R, compression: Compression) -> Self {
        let buffered = BufReader::with_capacity(BUFFER_LEN, input);
        let input = match compression {
            Compression::None => Input::Plain(buffered),
            Compression::Zlib => Input::Zlib(BufReader::with_capacity(
                BUFFER_LEN,
                ZlibDecoder::new(buffered),
            )),
            Compression::Gzip => Input::Gzip(BufReader::with_capacity(
                BUFFER_LEN,
                MultiGzDecoder::new(buffered),
            )),
        };
        RecordReader {
            input,
            compression,
            name: STREAM_NAME.to_owned(),
            index: 0,
            offset: 0,
            remaining: None,
            done: false,
        }
    }

    /// For reads into a caller's buffer ([`read_record_placed`](Self::read_record_placed)):
    /// a plain stream's buffer shrinks to [`PLACE_BUFFER_LEN`], because the
    /// data a record read finds already buffered is copied twice (into the
    /// buffer, then out of it) while the rest is read straight into place.
    /// Only before anything is buffered; a no-op otherwise.
    pub(super) fn for_placing(mut self) -> Self {
        if let Input::Plain(buffered) = self.input {
            self.input = Input::Plain(if buffered.buffer().is_empty() {
                BufReader::with_capacity(PLACE_BUFFER_LEN, buffered.into_inner())
            } else {
                buffered
            });
        }
        self
    }

    /// Names the stream in error messages (the default is
    /// `"TFRecord stream"`; [`RecordReader::open`] uses the path).
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordReader};
    /// let truncated: &[u8] = &[1, 0, 0];
    /// let mut r = RecordReader::new(truncated, Compression::None).with_name("train.tfrecord");
    /// assert!(r.next().unwrap().unwrap_err().to_string().starts_with("train.tfrecord: "));
    /// ```
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// The index of the next record (the number of records read so far).
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordReader};
    /// let r = RecordReader::new(&[][..], Compression::None);
    /// assert_eq!(r.index(), 0);
    /// ```
    #[must_use]
    pub fn index(&self) -> u64 {
        self.index
    }

    /// The stream's name in errors.
    pub(super) fn name(&self) -> &str {
        &self.name
    }

    /// The offset of the next record in the (decompressed) stream.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordReader, RecordWriter};
    /// let mut w = RecordWriter::new(Vec::new(), Compression::None);
    /// w.write_record(b"abc")?;
    /// let bytes = w.finish()?;
    /// let mut r = RecordReader::new(bytes.as_slice(), Compression::None);
    /// r.next();
    /// assert_eq!(r.offset(), 12 + 3 + 4);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[must_use]
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Reads the next record into `data` (cleared first, its allocation
    /// reused), as TF's `RecordReader::ReadRecord` does. `Ok(false)` at the
    /// end of the stream.
    ///
    /// # Errors
    /// [`Error::DataLoss`] for a CRC mismatch, a truncated record or a
    /// corrupt compressed stream; [`Error::Io`] when reading fails;
    /// [`Error::AllocationFailed`] when the record does not fit in memory.
    /// After an error the reader returns `Ok(false)`.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordReader, RecordWriter};
    /// let mut w = RecordWriter::new(Vec::new(), Compression::Zlib);
    /// for r in [&b"a"[..], b"bc"] {
    ///     w.write_record(r)?;
    /// }
    /// let bytes = w.finish()?;
    /// let mut reader = RecordReader::new(bytes.as_slice(), Compression::Zlib);
    /// let mut buf = Vec::new();
    /// let mut total = 0;
    /// while reader.read_record(&mut buf)? {
    ///     total += buf.len();
    /// }
    /// assert_eq!(total, 3);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn read_record(&mut self, data: &mut Vec<u8>) -> Result<bool> {
        data.clear();
        if self.done {
            return Ok(false);
        }
        let result = self.read_record_inner(data);
        match result {
            Ok(true) => {
                self.index += 1;
            }
            Ok(false) | Err(_) => self.done = true,
        }
        result
    }

    fn read_record_inner(&mut self, data: &mut Vec<u8>) -> Result<bool> {
        let Some((len, record_end)) = self.read_header()? else {
            return Ok(false);
        };

        // Reserve what the input can back, then let the buffer grow as
        // bytes actually arrive.
        let backed = match self.remaining {
            Some(rem) => rem.saturating_sub(HEADER_LEN as u64),
            None => MAX_PREALLOCATION as u64,
        };
        // Beyond usize, reserve the cap; the buffer grows as bytes arrive.
        let reserve = usize::try_from(len.min(backed)).unwrap_or(MAX_PREALLOCATION);
        data.try_reserve_exact(reserve)
            .map_err(|_| Error::AllocationFailed { bytes: reserve })?;
        let read = self
            .input
            .get()
            .take(len)
            .read_to_end(data)
            .map_err(|e| self.read_error(&e))?;
        if (read as u64) < len {
            return Err(self.truncated(&format!(
                "the header declares {len} bytes of data, the stream ends after {read}"
            )));
        }
        self.read_footer(crc32c::masked(data), record_end)?;
        Ok(true)
    }

    /// Reads the next record's data into `buf` from `*pos` on (advanced
    /// past it), as [`read_record`](Self::read_record) does into a `Vec`:
    /// same checks, same errors. The data's CRC is computed chunk by chunk
    /// right after each chunk is read. A record of at least [`PLACE_MIN`]
    /// bytes starts where `skew` (given the first buffered bytes of the
    /// data) says its payload lands 64-byte aligned. `Ok(None)` at the end.
    pub(super) fn read_record_placed(
        &mut self,
        buf: &mut ReadBuf,
        pos: &mut usize,
        skew: &dyn Fn(&[u8]) -> Option<usize>,
    ) -> Result<Option<Range<usize>>> {
        if self.done {
            return Ok(None);
        }
        let result = self.read_placed_inner(buf, pos, skew);
        match result {
            Ok(Some(_)) => self.index += 1,
            Ok(None) | Err(_) => self.done = true,
        }
        result
    }

    fn read_placed_inner(
        &mut self,
        buf: &mut ReadBuf,
        pos: &mut usize,
        skew: &dyn Fn(&[u8]) -> Option<usize>,
    ) -> Result<Option<Range<usize>>> {
        let Some((len, record_end)) = self.read_header()? else {
            return Ok(None);
        };
        let mut start = *pos;
        if len >= PLACE_MIN as u64 {
            let k = match self.input.get().fill_buf() {
                Ok(peek) => skew(peek),
                Err(e) => return Err(self.read_error(&e)),
            };
            if let Some(k) = k {
                start = align_pos(buf.addr(), start, k, crate::ALIGNMENT);
            }
        }
        // The buffer holds the whole file: a record longer than the room
        // left is truncated, and reading the room finds where it ends.
        let room = buf.as_mut_slice().len().saturating_sub(start);
        let want = usize::try_from(len).map_or(room, |l| l.min(room));
        let mut crc = 0u32;
        // The room after `start` bounds `want`; a start past the buffer
        // (aligned beyond it) leaves no room.
        let Some(dst) = buf.as_mut_slice().get_mut(start..start + want) else {
            return Err(self.truncated(&format!(
                "the header declares {len} bytes of data, more than the file holds"
            )));
        };
        let read = fill_chunked(self.input.get(), dst, READ_CHUNK, &mut |c| {
            crc = crc32c::extend(crc, c);
        })
        .map_err(|e| self.read_error(&e))?;
        if (read as u64) < len {
            return Err(self.truncated(&format!(
                "the header declares {len} bytes of data, the stream ends after {read}"
            )));
        }
        self.read_footer(crc32c::mask(crc), record_end)?;
        *pos = start + read;
        Ok(Some(start..start + read))
    }

    /// Reads and checks a record header: `(data length, offset past the
    /// record)`, or `None` at the end of the stream.
    fn read_header(&mut self) -> Result<Option<(u64, u64)>> {
        let mut header = [0u8; HEADER_LEN];
        let got = read_full(self.input.get(), &mut header).map_err(|e| self.read_error(&e))?;
        if got == 0 {
            return Ok(None);
        }
        if got < HEADER_LEN {
            return Err(self.truncated(&format!(
                "the header needs {HEADER_LEN} bytes, the stream ends after {got}"
            )));
        }
        let (len_bytes, len_crc) = header.split_at(8);
        let stored = le_u32(len_crc);
        let computed = crc32c::masked(len_bytes);
        if stored != computed {
            return Err(self.corrupted(&format!(
                "length checksum mismatch (stored {stored:#010x}, computed {computed:#010x})"
            )));
        }
        let len = u64::from_le_bytes(header_len(len_bytes));
        let record_end = self
            .offset
            .checked_add(len)
            .and_then(|end| end.checked_add((HEADER_LEN + FOOTER_LEN) as u64))
            .ok_or_else(|| self.truncated(&format!("the length {len} runs past 2^64 bytes")))?;
        Ok(Some((len, record_end)))
    }

    /// Reads the data checksum and compares it with `computed` (masked);
    /// then moves past the record.
    fn read_footer(&mut self, computed: u32, record_end: u64) -> Result<()> {
        let mut footer = [0u8; FOOTER_LEN];
        let got = read_full(self.input.get(), &mut footer).map_err(|e| self.read_error(&e))?;
        if got < FOOTER_LEN {
            return Err(self.truncated(&format!(
                "the data checksum needs {FOOTER_LEN} bytes, the stream ends after {got}"
            )));
        }
        let stored = u32::from_le_bytes(footer);
        if stored != computed {
            return Err(self.corrupted(&format!(
                "data checksum mismatch (stored {stored:#010x}, computed {computed:#010x})"
            )));
        }
        if let Some(rem) = self.remaining.as_mut() {
            *rem = rem.saturating_sub(record_end - self.offset);
        }
        self.offset = record_end;
        Ok(())
    }

    /// `err` located at the current record: the stream, the record (as
    /// its key) and its offset, as fields.
    fn at_record(&self, err: Error) -> Error {
        located(err, &self.name, self.index, self.offset)
    }

    fn truncated(&self, what: &str) -> Error {
        self.at_record(Error::data_loss(format!("truncated record: {what}")))
    }

    fn corrupted(&self, what: &str) -> Error {
        self.at_record(Error::data_loss(format!("corrupted record: {what}")))
    }

    /// A failed read: corrupt compressed data is data loss, anything else
    /// an I/O error.
    fn read_error(&self, e: &io::Error) -> Error {
        let decoding = !matches!(self.compression, Compression::None)
            && matches!(
                e.kind(),
                io::ErrorKind::InvalidInput
                    | io::ErrorKind::InvalidData
                    | io::ErrorKind::UnexpectedEof
            );
        if decoding {
            self.at_record(Error::data_loss(format!(
                "corrupt {} stream in the record: {e}",
                self.compression.as_str(),
            )))
        } else {
            self.at_record(Error::io(&self.name, e))
        }
    }
}

/// `err` located at record `index`, starting at `offset`, of the stream
/// `name`: each a field.
pub(super) fn located(err: Error, name: &str, index: u64, offset: u64) -> Error {
    err.with_path(name)
        .with_key(format_args!("record {index}"))
        .with_offset(offset)
}

impl RecordReader<SharedBlobReader> {
    /// Opens the TFRecord file at `path`, a local path or a URL (`s3://`,
    /// ...; feature `remote`); errors name the path. For
    /// an uncompressed file, declared record lengths are checked against
    /// the file's length before anything is reserved.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be opened.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordReader};
    /// let err = RecordReader::open("/no/such.tfrecord", Compression::None).err().unwrap();
    /// assert!(err.to_string().starts_with("/no/such.tfrecord: "));
    /// ```
    pub fn open(path: impl AsRef<Path>, compression: Compression) -> Result<Self> {
        let blob = crate::io::open_blob(path.as_ref(), &crate::io::RemoteOptions::default())?;
        Ok(Self::from_blob(blob, compression))
    }

    /// A reader of the records of `blob` (a local file, a map, a zip
    /// member, an object in a store), named by the blob's id in errors.
    /// As for [`RecordReader::open`], an uncompressed blob's length bounds
    /// what a record's declared length may reserve.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tftensor::io::BytesBlob;
    /// use tftensor::tfrecord::{Compression, RecordReader, RecordWriter};
    /// let mut w = RecordWriter::new(Vec::new(), Compression::None);
    /// w.write_record(b"abc")?;
    /// let blob = Arc::new(BytesBlob::new("mem.tfrecord", w.finish()?));
    /// let records: Vec<Vec<u8>> = RecordReader::from_blob(blob, Compression::None).collect::<Result<_, _>>()?;
    /// assert_eq!(records, [b"abc".to_vec()]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_blob(blob: Arc<dyn Blob>, compression: Compression) -> Self {
        let name = blob.id().to_owned();
        let len = blob.len();
        let mut reader =
            RecordReader::new(SharedBlobReader::new(blob), compression).with_name(name);
        if compression == Compression::None {
            reader.remaining = Some(len);
        }
        reader
    }
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Self::Item> {
        let mut data = Vec::new();
        match self.read_record(&mut data) {
            Ok(true) => Some(Ok(data)),
            Ok(false) => None,
            Err(e) => Some(Err(e)),
        }
    }
}

impl<R: Read> std::iter::FusedIterator for RecordReader<R> {}

impl<R: Read> std::fmt::Debug for RecordReader<R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordReader")
            .field("name", &self.name)
            .field("compression", &self.compression)
            .field("index", &self.index)
            .field("offset", &self.offset)
            .finish_non_exhaustive()
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(r: &mut dyn BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while let Some(rest) = buf.get_mut(got..) {
        if rest.is_empty() {
            break;
        }
        match r.read(rest) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Callers pass the bytes of a record header they read in full (4 here,
/// 8 for `header_len`); a shorter slice cannot reach either.
fn le_u32(b: &[u8]) -> u32 {
    debug_assert!(b.len() >= 4);
    let mut a = [0u8; 4];
    a.copy_from_slice(b.get(..4).unwrap_or(&[0; 4]));
    u32::from_le_bytes(a)
}

fn header_len(b: &[u8]) -> [u8; 8] {
    debug_assert!(b.len() >= 8);
    let mut a = [0u8; 8];
    a.copy_from_slice(b.get(..8).unwrap_or(&[0; 8]));
    a
}

/// The compressing layer under a [`RecordWriter`].
enum Output<W: Write> {
    Plain(BufWriter<W>),
    Zlib(ZlibEncoder<BufWriter<W>>),
    Gzip(GzEncoder<BufWriter<W>>),
}

impl<W: Write> Output<W> {
    fn get(&mut self) -> &mut dyn Write {
        match self {
            Output::Plain(w) => w,
            Output::Zlib(w) => w,
            Output::Gzip(w) => w,
        }
    }
}

/// Writes records in TFRecord framing, as `tf.io.TFRecordWriter` does: the
/// uncompressed output is byte-identical to TF's for the same records.
///
/// Call [`RecordWriter::finish`] at the end: it ends the compressed stream
/// and flushes. (Dropping the writer flushes too, but drops any error.)
///
/// ```
/// use tftensor::tfrecord::{Compression, RecordWriter};
/// let mut w = RecordWriter::new(Vec::new(), Compression::None);
/// w.write_record(b"")?;
/// // An empty record: the length 0, its masked CRC, and the masked CRC of nothing.
/// assert_eq!(
///     w.finish()?,
///     [0, 0, 0, 0, 0, 0, 0, 0, 0x29, 0x03, 0x98, 0x07, 0xd8, 0xea, 0x82, 0xa2]
/// );
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct RecordWriter<W: Write> {
    output: Output<W>,
    name: String,
    index: u64,
}

impl<W: Write> RecordWriter<W> {
    /// A writer of records to `output`, compressed as `compression` says
    /// (at zlib's default level, as TF). Output is buffered internally.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordWriter};
    /// let w = RecordWriter::new(Vec::new(), Compression::Gzip);
    /// assert_eq!(&w.finish()?[..2], &[0x1f, 0x8b]); // the gzip magic
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn new(output: W, compression: Compression) -> Self {
        let buffered = BufWriter::with_capacity(BUFFER_LEN, output);
        let level = flate2::Compression::default();
        let output = match compression {
            Compression::None => Output::Plain(buffered),
            Compression::Zlib => Output::Zlib(ZlibEncoder::new(buffered, level)),
            Compression::Gzip => Output::Gzip(GzEncoder::new(buffered, level)),
        };
        RecordWriter {
            output,
            name: STREAM_NAME.to_owned(),
            index: 0,
        }
    }

    /// Names the stream in error messages (the default is
    /// `"TFRecord stream"`; [`RecordWriter::create`] uses the path).
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordWriter};
    /// let w = RecordWriter::new(Vec::new(), Compression::None).with_name("out.tfrecord");
    /// assert!(w.finish()?.is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[must_use]
    pub fn with_name(mut self, name: impl Into<String>) -> Self {
        self.name = name.into();
        self
    }

    /// Appends one record.
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordWriter};
    /// let mut w = RecordWriter::new(Vec::new(), Compression::None);
    /// w.write_record(b"abc")?;
    /// assert_eq!(w.finish()?.len(), 12 + 3 + 4);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn write_record(&mut self, data: &[u8]) -> Result<()> {
        let len = (data.len() as u64).to_le_bytes();
        let mut header = [0u8; HEADER_LEN];
        let (len_part, crc_part) = header.split_at_mut(8);
        len_part.copy_from_slice(&len);
        crc_part.copy_from_slice(&crc32c::masked(&len).to_le_bytes());
        let footer = crc32c::masked(data).to_le_bytes();
        let out = self.output.get();
        let result = out
            .write_all(&header)
            .and_then(|()| out.write_all(data))
            .and_then(|()| out.write_all(&footer));
        result.map_err(|e| {
            Error::io(&self.name, &e).with_key(format_args!("record {}", self.index))
        })?;
        self.index += 1;
        Ok(())
    }

    /// Flushes buffered records to the underlying writer (a compressed
    /// stream is flushed with a sync flush, so what was written so far can
    /// be decompressed).
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordWriter};
    /// let mut w = RecordWriter::new(Vec::new(), Compression::None);
    /// w.write_record(b"x")?;
    /// w.flush()?;
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn flush(&mut self) -> Result<()> {
        self.output
            .get()
            .flush()
            .map_err(|e| Error::io(&self.name, &e))
    }

    /// Ends the stream (writing a compressed stream's trailer), flushes,
    /// and returns the underlying writer.
    ///
    /// # Errors
    /// [`Error::Io`] when writing fails.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordWriter};
    /// let bytes: Vec<u8> = RecordWriter::new(Vec::new(), Compression::Zlib).finish()?;
    /// assert_eq!(bytes[0], 0x78); // the zlib header
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn finish(self) -> Result<W> {
        let name = self.name;
        let io = |e: io::Error| Error::io(&name, &e);
        let buffered = match self.output {
            Output::Plain(w) => w,
            Output::Zlib(w) => w.finish().map_err(io)?,
            Output::Gzip(w) => w.finish().map_err(io)?,
        };
        buffered.into_inner().map_err(|e| io(e.into_error()))
    }
}

impl RecordWriter<File> {
    /// Creates (or truncates) the file at `path` and returns a writer of
    /// records to it; errors name the path.
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be created.
    ///
    /// ```
    /// use tftensor::tfrecord::{Compression, RecordWriter};
    /// let err = RecordWriter::create("/no/such/dir/x.tfrecord", Compression::None).err().unwrap();
    /// assert!(err.to_string().starts_with("/no/such/dir/x.tfrecord: "));
    /// ```
    pub fn create(path: impl AsRef<Path>, compression: Compression) -> Result<Self> {
        let path = path.as_ref();
        let name = path.display().to_string();
        let file = File::create(path).map_err(|e| Error::io(&name, &e))?;
        Ok(RecordWriter::new(file, compression).with_name(name))
    }
}

impl<W: Write> std::fmt::Debug for RecordWriter<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RecordWriter")
            .field("name", &self.name)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}
