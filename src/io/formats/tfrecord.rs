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
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
/// have none).
pub(crate) struct RecordsSink {
    writer: RecordWriter<File>,
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
        let writer = RecordWriter::new(file, compression).with_name(path.display().to_string());
        Ok(RecordsSink {
            writer,
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

    fn add(&mut self, _name: &str, tensor: &Tensor) -> Result<()> {
        let record = serialize_tensor(tensor)?;
        self.writer.write_record(&record)
    }

    fn finish(self: Box<Self>) -> Result<()> {
        self.writer.finish()?;
        self.staged.commit()
    }
}
