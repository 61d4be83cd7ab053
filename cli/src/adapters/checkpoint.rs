//! TensorFlow checkpoints (tensor bundles): a prefix, a checkpoint directory or a SavedModel directory.
//!
//! Waiting for `tftensor::checkpoint`: until it is merged, opening or writing
//! this format is an error that says so.

use std::path::Path;

use anyhow::{bail, Result};
use tftensor::Tensor;

use crate::sink::Sink;
use crate::source::{Entry, Source};

fn missing<T>(path: &Path) -> Result<T> {
    bail!(
        "{}: checkpoint files are not supported by this build",
        path.display()
    )
}

/// Checkpoint source.
pub struct Checkpoint {
    entries: Vec<Entry>,
}

impl Checkpoint {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Checkpoint> {
        missing(path)
    }
}

impl Source for Checkpoint {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, _index: usize) -> Result<Tensor> {
        bail!("unsupported")
    }
}

/// CheckpointSink sink.
pub struct CheckpointSink;

impl CheckpointSink {
    /// Starts `path`.
    pub fn create(path: &Path) -> Result<CheckpointSink> {
        missing(path)
    }
}

impl Sink for CheckpointSink {
    fn add(&mut self, _name: &str, _tensor: &Tensor) -> Result<()> {
        bail!("unsupported")
    }

    fn finish(self: Box<Self>) -> Result<()> {
        bail!("unsupported")
    }
}
