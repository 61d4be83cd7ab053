//! TFRecord files whose records are serialized TensorProtos
//! (`tf.io.serialize_tensor`), on `tftensor::tfrecord`. Records have no
//! names: tensors are named by record index (`0`, `1`, ...), and names
//! are dropped when writing.

use std::fs::File;
use std::path::Path;

use anyhow::{bail, Result};
use tftensor::tfrecord::{read_tensors, serialize_tensor, Compression, RecordWriter};
use tftensor::Tensor;

use crate::error::{at, at_tensor};
use crate::sink::Sink;
use crate::source::{Entry, Source};
use crate::staged::StagedFile;

/// A TFRecord file, read whole.
pub struct Records {
    entries: Vec<Entry>,
    tensors: Vec<Tensor>,
}

impl Records {
    /// Reads every record as a tensor.
    pub fn open(path: &Path, compression: Compression) -> Result<Records> {
        let tensors = read_tensors(path, compression).map_err(|e| at(path, e))?;
        let entries = tensors
            .iter()
            .enumerate()
            .map(|(i, t)| Entry {
                name: i.to_string(),
                dtype: t.dtype(),
                shape: t.shape().clone(),
            })
            .collect();
        Ok(Records { entries, tensors })
    }
}

impl Source for Records {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        match self.tensors.get(index) {
            Some(t) => Ok(t.clone()),
            None => bail!("no tensor number {index}"),
        }
    }
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
