//! TFRecord files as a source: records of serialized TensorProtos named by
//! index (`0`, `1`, ...), or of `tf.train.Example`s whose features are
//! named `RECORD/FEATURE`; and a sink writing one tensor record each.
//!
//! A file of tensors is listed by a framing-only pass and read one record
//! at a time; a file of Examples is decoded whole when opened.

use std::fs::File;
use std::path::{Path, PathBuf};

use bytes::Bytes;

use crate::error::{Error, Result};
use crate::io::format::Format;
use crate::io::sink::TensorSink;
use crate::io::source::{Entry, InMemory, Listed, ReadEntry, TensorSource};
use crate::io::staged::StagedFile;
use crate::tensor::Tensor;
use crate::tfrecord::{
    Compression, RecordReader, RecordWriter, TensorRecords, parse_example, serialize_tensor,
};

/// What the records of a file hold, told from its first record.
enum Kind {
    Tensors,
    Examples,
}

/// Opens the file: lazily when it holds tensors, else as [`read_all`]
/// does.
pub(crate) fn open(path: &Path, compression: Compression) -> Result<Box<dyn TensorSource>> {
    let Some(records) = TensorRecords::list(path, compression)? else {
        return Ok(Box::new(read_all(path, compression)?));
    };
    let entries = records
        .headers()
        .iter()
        .enumerate()
        .map(|(i, (dtype, shape))| Entry::new(i.to_string(), *dtype, shape.clone()))
        .collect();
    Ok(Box::new(Listed {
        format: Format::TfRecord,
        path: path.to_path_buf(),
        entries,
        reader: records,
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

/// Reads the file's records. The first record says whether they are
/// tensors or `tf.train.Example`s; a `SequenceExample` (whose
/// `feature_lists` an Example reader would drop) is refused.
fn read_all(path: &Path, compression: Compression) -> Result<InMemory> {
    let shown = path.display().to_string();
    let mut named = Vec::new();
    let mut kind = None;
    for (index, record) in RecordReader::open(path, compression)?.enumerate() {
        let record = Bytes::from(record?);
        let kind = match kind {
            Some(ref k) => k,
            None => kind.insert(kind_of(&record, &shown)?),
        };
        match kind {
            Kind::Tensors => {
                let t = Tensor::decode(record).map_err(|e| {
                    Error::invalid_format("tfrecord", format!("not a serialized TensorProto: {e}"))
                        .with_path(&shown)
                        .with_key(format!("record {index}"))
                })?;
                named.push((index.to_string(), t));
            }
            Kind::Examples => {
                let features = parse_example(record).map_err(|e| {
                    let e = match e {
                        // A located error, so the record is a field.
                        Error::InvalidProto { message, .. } => {
                            Error::invalid_format("tfrecord", message)
                        }
                        other => other,
                    };
                    e.with_path(&shown).with_key(format!("record {index}"))
                })?;
                named.extend(
                    features
                        .into_iter()
                        .map(|(name, t)| (format!("{index}/{name}"), t)),
                );
            }
        }
    }
    Ok(InMemory::new(Format::TfRecord, path, named))
}

/// Tensors or Examples: a TensorProto has a valid dtype in field 1; an
/// Example has only field 1 as a message (`features`); a SequenceExample
/// has field 2 (`feature_lists`).
fn kind_of(record: &[u8], shown: &str) -> Result<Kind> {
    use prost::Message;
    if Tensor::decode(Bytes::copy_from_slice(record)).is_ok() {
        return Ok(Kind::Tensors);
    }
    if let Ok(seq) = crate::pb::SequenceExample::decode(record) {
        if seq
            .feature_lists
            .is_some_and(|l| !l.feature_list.is_empty())
        {
            return Err(Error::invalid_format(
                "tfrecord",
                "the records are tf.train.SequenceExamples, which are not read yet (their \
                 feature_lists would be lost)",
            )
            .with_path(shown));
        }
    }
    if crate::pb::Example::decode(record).is_ok() {
        return Ok(Kind::Examples);
    }
    Err(Error::invalid_format(
        "tfrecord",
        "the first record is neither a serialized TensorProto nor a tf.train.Example",
    )
    .with_path(shown)
    .with_key("record 0"))
}

/// Writes one record per tensor (names are not kept: TFRecords of tensors
/// have none).
pub(crate) struct RecordsSink {
    writer: RecordWriter<File>,
    staged: StagedFile,
    dest: PathBuf,
}

impl RecordsSink {
    pub(crate) fn create(path: &Path, compression: Compression) -> Result<RecordsSink> {
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
        Format::TfRecord
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let record = serialize_tensor(tensor)?;
        self.writer
            .write_record(&record)
            .map_err(|e| e.with_path(self.dest.display()).with_key(name))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        self.writer.finish()?;
        self.staged.commit()
    }
}
