//! Keras weight files (`.weights.h5`, `.keras`, sharded `.weights.json`,
//! legacy `.h5`) as a source, and `.weights.h5` as a sink.

use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::io::format::Format;
use crate::io::sink::TensorSink;
use crate::io::source::{no_index, Entry, TensorSource};
use crate::keras::{KerasFile, WeightsWriter};
use crate::tensor::Tensor;

/// A Keras file, listed from its HDF5 headers.
pub(crate) struct Keras {
    path: PathBuf,
    file: KerasFile,
    entries: Vec<Entry>,
}

pub(crate) fn open(path: &Path) -> Result<Keras> {
    let file = KerasFile::open(path)?;
    let entries = file
        .entries()
        .iter()
        .map(|e| {
            let mut entry = Entry::new(e.name.clone(), e.dtype, e.shape.clone());
            entry.byte_len = Some(e.byte_len);
            entry
        })
        .collect();
    Ok(Keras {
        path: path.to_path_buf(),
        file,
        entries,
    })
}

impl TensorSource for Keras {
    fn format(&self) -> Format {
        Format::Keras
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
        self.file
            .read_index(index)
            .map_err(|err| err.with_path(self.path.display()).with_key(&e.name))
    }

    fn metadata(&self) -> Vec<(String, String)> {
        self.file.metadata()
    }
}

/// Writes a `.weights.h5` in the layout h5py writes (names such as
/// `layers/dense/vars/0` become groups and datasets).
pub(crate) struct KerasSink {
    path: PathBuf,
    writer: WeightsWriter,
}

impl KerasSink {
    pub(crate) fn create(path: &Path) -> Result<KerasSink> {
        if path.extension().is_some_and(|e| e == "keras") {
            return Err(crate::Error::InvalidArgument(format!(
                "{}: a .keras archive needs the model's config.json; write a .weights.h5 \
                 (or use keras::WeightsWriter::create_keras with a config)",
                path.display()
            )));
        }
        Ok(KerasSink {
            path: path.to_path_buf(),
            writer: WeightsWriter::create(path)?,
        })
    }
}

impl TensorSink for KerasSink {
    fn format(&self) -> Format {
        Format::Keras
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
