//! `.safetensors` files.
//!
//! Waiting for `tftensor::safetensors`: until it is merged, opening or writing
//! this format is an error that says so.

use std::path::Path;

use anyhow::{bail, Result};
use tftensor::{DataType, Tensor};

use crate::sink::Sink;
use crate::source::{Entry, Source};

fn missing<T>(path: &Path) -> Result<T> {
    bail!(
        "{}: safetensors files are not supported by this build",
        path.display()
    )
}

/// Whether `.safetensors` can hold `dtype`.
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
        DataType::BFloat16,
        DataType::Float,
        DataType::Double,
        DataType::Float8E5M2,
        DataType::Float8E4M3FN,
    ]
    .contains(&dtype)
}

/// Safetensors source.
pub struct Safetensors {
    entries: Vec<Entry>,
}

impl Safetensors {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Safetensors> {
        missing(path)
    }
}

impl Source for Safetensors {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, _index: usize) -> Result<Tensor> {
        bail!("unsupported")
    }
}

/// SafetensorsSink sink.
pub struct SafetensorsSink;

impl SafetensorsSink {
    /// Starts `path`.
    pub fn create(path: &Path) -> Result<SafetensorsSink> {
        missing(path)
    }
}

impl Sink for SafetensorsSink {
    fn add(&mut self, _name: &str, _tensor: &Tensor) -> Result<()> {
        bail!("unsupported")
    }

    fn finish(self: Box<Self>) -> Result<()> {
        bail!("unsupported")
    }
}
