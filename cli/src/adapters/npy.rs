//! NumPy `.npy` files and `.npz` archives.
//!
//! Waiting for `tftensor::npy`: until it is merged, opening or writing
//! this format is an error that says so.

use std::path::Path;

use anyhow::{bail, Result};
use tftensor::{DataType, Tensor};

use crate::sink::Sink;
use crate::source::{Entry, Source};

fn missing<T>(path: &Path) -> Result<T> {
    bail!(
        "{}: NumPy files are not supported by this build",
        path.display()
    )
}

/// Whether `.npy`/`.npz` can hold `dtype` so that it reads back as the same
/// dtype.
pub fn can_hold(dtype: DataType) -> bool {
    [
        DataType::Bool,
        DataType::Int8,
        DataType::Int16,
        DataType::Int32,
        DataType::Int64,
        DataType::UInt8,
        DataType::UInt16,
        DataType::UInt32,
        DataType::UInt64,
        DataType::Half,
        DataType::Float,
        DataType::Double,
        DataType::Complex64,
        DataType::Complex128,
        DataType::String,
    ]
    .contains(&dtype)
}

/// Npy source.
pub struct Npy {
    entries: Vec<Entry>,
}

impl Npy {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Npy> {
        missing(path)
    }
}

impl Source for Npy {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, _index: usize) -> Result<Tensor> {
        bail!("unsupported")
    }
}

/// NpySink sink.
pub struct NpySink;

impl NpySink {
    /// Starts `path`.
    pub fn create(path: &Path) -> Result<NpySink> {
        missing(path)
    }
}

impl Sink for NpySink {
    fn add(&mut self, _name: &str, _tensor: &Tensor) -> Result<()> {
        bail!("unsupported")
    }

    fn finish(self: Box<Self>) -> Result<()> {
        bail!("unsupported")
    }
}

/// Npz source.
pub struct Npz {
    entries: Vec<Entry>,
}

impl Npz {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Npz> {
        missing(path)
    }
}

impl Source for Npz {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, _index: usize) -> Result<Tensor> {
        bail!("unsupported")
    }
}

/// NpzSink sink.
pub struct NpzSink;

impl NpzSink {
    /// Starts `path`.
    pub fn create(path: &Path) -> Result<NpzSink> {
        missing(path)
    }
}

impl Sink for NpzSink {
    fn add(&mut self, _name: &str, _tensor: &Tensor) -> Result<()> {
        bail!("unsupported")
    }

    fn finish(self: Box<Self>) -> Result<()> {
        bail!("unsupported")
    }
}
