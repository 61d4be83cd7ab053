//! TensorFlow checkpoints (tensor bundles) as a source and a sink.

use std::path::{Path, PathBuf};

use crate::checkpoint::{BundleReader, BundleWriter};
use crate::error::Result;
use crate::io::format::Format;
use crate::io::sink::TensorSink;
use crate::io::source::{no_index, Entry, TensorSource};
use crate::tensor::Tensor;

/// A checkpoint's full tensors, in TF's key order (partitioned variables
/// assembled; slice entries not listed, as `tf.train.list_variables`).
pub(crate) struct Checkpoint {
    path: PathBuf,
    reader: BundleReader,
    entries: Vec<Entry>,
}

/// Opens the bundle at `prefix` and lists it from its index.
pub(crate) fn open(prefix: &Path, mmap: bool) -> Result<Checkpoint> {
    let shown = prefix.display();
    let reader = if mmap {
        // SAFETY: `OpenOptions::with_mmap` (an unsafe fn) is the caller's
        // promise that the files are not changed while mapped.
        unsafe { BundleReader::open_mmap(prefix) }
    } else {
        BundleReader::open(prefix)
    }
    .map_err(|e| e.with_path(&shown))?;
    let entries = reader
        .keys()
        .map(|key| {
            let (dtype, shape) = reader
                .dtype_and_shape(key)
                .map_err(|e| e.with_path(&shown).with_key(key))?;
            Ok(Entry::new(key, dtype, shape))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Checkpoint {
        path: prefix.to_path_buf(),
        reader,
        entries,
    })
}

impl TensorSource for Checkpoint {
    fn format(&self) -> Format {
        Format::Checkpoint
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        let e = self
            .entries
            .get(index)
            .ok_or_else(|| no_index(index, &self.path))?;
        self.reader
            .get(&e.name)
            .map_err(|err| err.with_path(self.path.display()).with_key(&e.name))
    }
}

/// Writes a bundle. `BundleWriter` itself writes the data under a
/// temporary name and the `.index` last, so the checkpoint exists under
/// its prefix only once complete.
pub(crate) struct CheckpointSink {
    path: PathBuf,
    writer: BundleWriter,
}

impl CheckpointSink {
    pub(crate) fn create(prefix: &Path) -> Result<CheckpointSink> {
        Ok(CheckpointSink {
            path: prefix.to_path_buf(),
            writer: BundleWriter::new(prefix)?,
        })
    }
}

impl TensorSink for CheckpointSink {
    fn format(&self) -> Format {
        Format::Checkpoint
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        self.writer
            .add(name, tensor)
            .map_err(|e| e.with_path(self.path.display()).with_key(name))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let shown = self.path.display().to_string();
        self.writer.finish().map_err(|e| e.with_path(shown))
    }
}
