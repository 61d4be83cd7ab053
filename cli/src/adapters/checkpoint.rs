//! TensorFlow checkpoints (tensor bundles): a prefix, a checkpoint
//! directory or a SavedModel directory, on `tftensor::checkpoint`.

use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use tftensor::checkpoint::{BundleReader, BundleWriter};
use tftensor::Tensor;

use crate::error::{at, at_tensor};
use crate::sink::Sink;
use crate::source::{Entry, Source};

/// A checkpoint's full tensors, in TF's key order (partitioned variables
/// assembled; slice entries not listed, as `tf.train.list_variables`).
pub struct Checkpoint {
    path: PathBuf,
    reader: BundleReader,
    entries: Vec<Entry>,
}

impl Checkpoint {
    /// Opens the bundle and reads its index; with `mmap`, maps its data
    /// files (the user asked for it with `--mmap`, promising that nothing
    /// changes them while the tool runs).
    pub fn open(path: &Path, mmap: bool) -> Result<Checkpoint> {
        let reader = if mmap {
            // SAFETY: `--mmap` is the user's promise that the files are not
            // modified or truncated while this process runs; the process
            // itself only reads them.
            unsafe { BundleReader::open_mmap(path) }
        } else {
            BundleReader::open(path)
        }
        .map_err(|e| at(path, e))?;
        let entries = reader
            .keys()
            .map(|key| {
                let (dtype, shape) = reader
                    .dtype_and_shape(key)
                    .map_err(|e| at_tensor(path, key, e))?;
                Ok(Entry {
                    name: key.to_string(),
                    dtype,
                    shape,
                })
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(Checkpoint {
            path: path.to_path_buf(),
            reader,
            entries,
        })
    }
}

impl Source for Checkpoint {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        let Some(e) = self.entries.get(index) else {
            bail!("no tensor number {index}");
        };
        self.reader
            .get(&e.name)
            .map_err(|err| at_tensor(&self.path, &e.name, err))
    }
}

/// Writes a bundle. `BundleWriter` itself writes the data under a
/// temporary name and the `.index` last, so the checkpoint exists under its
/// prefix only once complete.
pub struct CheckpointSink {
    path: PathBuf,
    writer: BundleWriter,
}

impl CheckpointSink {
    /// Starts a bundle at the prefix `path`.
    pub fn create(path: &Path) -> Result<CheckpointSink> {
        Ok(CheckpointSink {
            path: path.to_path_buf(),
            writer: BundleWriter::new(path).map_err(|e| at(path, e))?,
        })
    }
}

impl Sink for CheckpointSink {
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        self.writer
            .add(name, tensor)
            .map_err(|e| at_tensor(&self.path, name, e))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        self.writer.finish().map_err(|e| at(&self.path, e))
    }
}
