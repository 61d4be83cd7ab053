//! TFRecord files as a source: records of serialized TensorProtos named by
//! index (`0`, `1`, ...), or of `tf.train.Example`s whose features are
//! named `RECORD/FEATURE`; and a sink writing one tensor record each.
//!
//! Both are read through the location's byte source (a local file, a map,
//! a zip member, an object in a store): a file of tensors is listed by a
//! framing-only pass and read one record at a time; a file of Examples is
//! listed by a pass over its records' framing (see
//! `tfrecord::listed_examples`) and each record read by range when one of
//! its features is asked for.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use flate2::write::{GzEncoder, ZlibEncoder};

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::TensorSink;
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::staged::StagedFile;
use crate::io::{Blob, Compression, CreateOptions, Format, Located, OpenOptions};
use crate::shape::TensorShape;
use crate::tensor::Tensor;
use crate::tfrecord::{ExampleRecords, RecordWriter, TensorRecords, serialize_tensor};

impl Format {
    /// A TFRecord file (plain, GZIP or ZLIB) of serialized TensorProtos or
    /// `tf.train.Example`s.
    pub const TFRECORD: Format = Format::named("tfrecord");
}

pub(crate) const ROW: Row = Row {
    extensions: &["tfrecord", "tfrecords", "tfr"],
    sniff,
    resolve,
    create: Some(create),
    output,
    // Records of TensorProtos hold every dtype a tensor can have.
    can_hold: DataType::is_valid_tensor_dtype,
    ..Row::base(Format::TFRECORD, open_at)
};

/// A first record whose length's masked CRC-32C checks (a 1 in 2^32
/// coincidence for anything else), or a GZIP stream.
fn sniff(p: &Probe<'_>) -> Option<Certainty> {
    if !p.is_file() {
        return None;
    }
    if is_record_head(&p.head) {
        Some(Certainty::Magic)
    } else if Compression::of_head(&p.head) == Compression::Gzip {
        Some(Certainty::Content)
    } else {
        None
    }
}

/// A TFRecord starts with a u64 length and the masked CRC-32C of those 8
/// bytes.
fn is_record_head(head: &[u8]) -> bool {
    let crc = head.get(8..12).and_then(|c| <[u8; 4]>::try_from(c).ok());
    match (head.get(..8), crc) {
        (Some(len), Some(crc)) => crate::crc32c::masked(len) == u32::from_le_bytes(crc),
        _ => false,
    }
}

/// The compression the content says: GZIP by its magic bytes, none for
/// plain records (or an empty file), ZLIB by its header or a `.zz`/`.zlib`
/// name.
fn resolve(at: &mut Located) -> Result<()> {
    let blob = at.blob(&OpenOptions::default())?;
    let head = blob.read_upto(0, 16)?;
    at.compression = if is_record_head(&head) || head.is_empty() {
        Compression::None
    } else {
        match Compression::of_head(&head) {
            Compression::None => Compression::of_name(&at.key).1,
            by_content => by_content,
        }
    };
    Ok(())
}

/// A `.gz`, `.zz` or `.zlib` ending compresses the output.
fn output(at: &mut Located, _: &CreateOptions) {
    at.compression = Compression::of_name(&at.key).1;
}

fn open_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    open(at.blob(options)?, at.compression, at.path())
}

fn create(at: &Located, _: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    Ok(Box::new(RecordsSink::create(
        &at.local_only()?,
        at.compression,
    )?))
}

/// Lists the records: as tensors when the first record is one, else as
/// `tf.train.Example`s (a `SequenceExample`, whose `feature_lists` an
/// Example reader would drop, is refused).
fn open(
    blob: Arc<dyn Blob>,
    compression: Compression,
    path: PathBuf,
) -> Result<Box<dyn TensorSource>> {
    if let Some(records) = TensorRecords::list(blob.clone(), compression)? {
        let entries = records
            .headers()
            .iter()
            .enumerate()
            .map(|(i, (dtype, shape))| Entry::new(i.to_string(), *dtype, shape.clone()))
            .collect();
        return Ok(Box::new(Listed {
            format: Format::TFRECORD,
            path,
            entries,
            reader: records,
        }));
    }
    let (reader, features) = ExampleRecords::list(blob, compression)?;
    let mut entries = Vec::with_capacity(features.len());
    let mut records = Vec::with_capacity(features.len());
    for f in features {
        let len = i64::try_from(f.len).map_err(|_| {
            Error::Overflow(crate::OverflowError::Size {
                what: "feature list length",
            })
        })?;
        let name = format!("{}/{}", f.record, f.name);
        entries.push(Entry::new(name, f.dtype, TensorShape::new(&[len])?));
        records.push(f.record);
    }
    Ok(Box::new(Listed {
        format: Format::TFRECORD,
        path,
        entries,
        reader: Examples { reader, records },
    }))
}

/// Reads record `index` when it is asked for.
impl ReadEntry for TensorRecords {
    fn read_entry(
        &mut self,
        index: usize,
        _entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        self.read(index)
    }
}

/// The records of a TFRecord of Examples, and the record of each entry.
struct Examples {
    reader: ExampleRecords,
    records: Vec<usize>,
}

/// Reads an entry's feature from its record (`RECORD/FEATURE`: the
/// feature's name is what follows the first `/`).
impl ReadEntry for Examples {
    fn read_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        let (Some(&record), Some((_, name))) =
            (self.records.get(index), entry.name.split_once('/'))
        else {
            return Err(Error::not_found(format!("no tensor number {index}")));
        };
        self.reader.read(record, name)
    }
}

/// Writes one record per tensor (names are not kept: TFRecords of tensors
/// have none). The records are framed by [`RecordWriter`] and compressed
/// here, so that the sink can tell how far a big tensor's record got while
/// it is compressed and written ([`TensorSink::add_with_progress`]).
pub(crate) struct RecordsSink {
    out: Deflate,
    staged: StagedFile,
    dest: PathBuf,
}

impl RecordsSink {
    fn create(path: &Path, compression: Compression) -> Result<RecordsSink> {
        let mut staged = StagedFile::new(path)?;
        let file = staged
            .file()
            .try_clone()
            .map_err(|e| Error::io(path.display(), e))?;
        Ok(RecordsSink {
            out: Deflate::new(file, compression),
            staged,
            dest: path.to_path_buf(),
        })
    }
}

impl TensorSink for RecordsSink {
    fn format(&self) -> Format {
        Format::TFRECORD
    }

    fn path(&self) -> &Path {
        &self.dest
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        self.add_with_progress(name, tensor, &mut |_| {})
    }

    fn add_with_progress(
        &mut self,
        _name: &str,
        tensor: &Tensor,
        on: &mut dyn FnMut(u64),
    ) -> Result<()> {
        let record = serialize_tensor(tensor)?;
        let metered = Metered {
            out: self.out.get(),
            on,
        };
        // One record's framing, onto the stream that stays open.
        let mut framing = RecordWriter::new(metered, Compression::None);
        framing
            .write_record(&record)
            .and_then(|()| framing.finish().map(drop))
            .map_err(|e| match e.inner() {
                // The writer names its own stream: name the output instead.
                Error::Io { source, .. } => Error::io(self.dest.display(), source.clone()),
                _ => e,
            })
    }

    fn finish(self: Box<Self>) -> Result<()> {
        self.out
            .finish()
            .map_err(|e| Error::io(self.dest.display(), e))?;
        self.staged.commit()
    }
}

/// Bytes passed on at most this many at a time, each step reported.
const WRITE_STEP: usize = 1 << 20;

/// The compressing layer under the records (TF's zlib default level).
enum Deflate {
    Plain(BufWriter<File>),
    Zlib(ZlibEncoder<BufWriter<File>>),
    Gzip(GzEncoder<BufWriter<File>>),
}

impl Deflate {
    fn new(file: File, compression: Compression) -> Deflate {
        let buffered = BufWriter::with_capacity(256 << 10, file);
        let level = flate2::Compression::default();
        match compression {
            Compression::None => Deflate::Plain(buffered),
            Compression::Zlib => Deflate::Zlib(ZlibEncoder::new(buffered, level)),
            Compression::Gzip => Deflate::Gzip(GzEncoder::new(buffered, level)),
        }
    }

    fn get(&mut self) -> &mut dyn Write {
        match self {
            Deflate::Plain(w) => w,
            Deflate::Zlib(w) => w,
            Deflate::Gzip(w) => w,
        }
    }

    /// Ends the compressed stream and flushes it to the file.
    fn finish(self) -> std::io::Result<()> {
        let buffered = match self {
            Deflate::Plain(w) => w,
            Deflate::Zlib(w) => w.finish()?,
            Deflate::Gzip(w) => w.finish()?,
        };
        buffered.into_inner().map_err(|e| e.into_error())?;
        Ok(())
    }
}

/// Passes bytes on to the stream in steps of [`WRITE_STEP`], telling `on`
/// after each.
struct Metered<'a> {
    out: &'a mut dyn Write,
    on: &'a mut dyn FnMut(u64),
}

impl Write for Metered<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let (step, _) = buf.split_at(buf.len().min(WRITE_STEP));
        self.out.write_all(step)?;
        (self.on)(step.len() as u64);
        Ok(step.len())
    }

    /// Nothing of its own to flush; the stream under it is flushed once,
    /// when the sink finishes (a flush there would end a deflate block).
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
