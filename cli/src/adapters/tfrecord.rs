//! TFRecord files of serialized TensorProtos; tensors are named by record index.
//!
//! Waiting for `tftensor::tfrecord`: until it is merged, opening or writing
//! this format is an error that says so.

use std::path::Path;

use anyhow::{bail, Result};
use tftensor::Tensor;

use crate::format::Compression;
use crate::sink::Sink;
use crate::source::{Entry, Source};

fn missing<T>(path: &Path) -> Result<T> {
    bail!(
        "{}: TFRecord files are not supported by this build",
        path.display()
    )
}

/// Records source.
pub struct Records {
    entries: Vec<Entry>,
}

impl Records {
    /// Opens `path`.
    pub fn open(path: &Path, compression: Compression) -> Result<Records> {
        let _ = compression;
        missing(path)
    }
}

impl Source for Records {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, _index: usize) -> Result<Tensor> {
        bail!("unsupported")
    }
}

/// RecordsSink sink.
pub struct RecordsSink;

impl RecordsSink {
    /// Starts `path`.
    pub fn create(path: &Path, compression: Compression) -> Result<RecordsSink> {
        let _ = compression;
        missing(path)
    }
}

impl Sink for RecordsSink {
    fn add(&mut self, _name: &str, _tensor: &Tensor) -> Result<()> {
        bail!("unsupported")
    }

    fn finish(self: Box<Self>) -> Result<()> {
        bail!("unsupported")
    }
}
