//! TFRecord files whose records are serialized TensorProtos
//! (`tf.io.serialize_tensor`), on `tftensor::tfrecord`. Records have no
//! names: tensors are named by record index (`0`, `1`, ...), and names
//! are dropped when writing.

use std::fs::File;
use std::path::Path;

use anyhow::Result;
use tftensor::tfrecord::{read_tensors, serialize_tensor, Compression, RecordWriter};
use tftensor::Tensor;

use crate::error::{at, at_tensor};
use crate::sink::Sink;
use crate::source::InMemory;
use crate::staged::StagedFile;

/// A TFRecord file, read whole: every record as a tensor, named by index.
pub fn open(path: &Path, compression: Compression) -> Result<InMemory> {
    let tensors = read_tensors(path, compression).map_err(|e| at(path, e))?;
    Ok(InMemory::new(
        tensors
            .into_iter()
            .enumerate()
            .map(|(i, t)| (i.to_string(), t)),
    ))
}

/// Writes one record per tensor.
pub struct RecordsSink {
    writer: RecordWriter<File>,
    staged: StagedFile,
}

impl RecordsSink {
    /// Starts the output file, compressed as `compression` says.
    pub fn create(path: &Path, compression: Compression) -> Result<RecordsSink> {
        let mut staged = StagedFile::new(path)?;
        let file = staged.file().try_clone().map_err(|e| at(path, e))?;
        let writer = RecordWriter::new(file, compression).with_name(path.display().to_string());
        Ok(RecordsSink { writer, staged })
    }
}

impl Sink for RecordsSink {
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let dest = self.staged.dest();
        let record = serialize_tensor(tensor).map_err(|e| at_tensor(dest, name, e))?;
        self.writer
            .write_record(&record)
            .map_err(|e| at_tensor(dest, name, e))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        self.writer
            .finish()
            .map_err(|e| at(self.staged.dest(), e))?;
        self.staged.commit()
    }
}
