//! Keras weight files (`.weights.h5`, `.keras`, sharded `.weights.json`,
//! legacy `.h5`) as a source, and `.weights.h5` as a sink.

use std::path::Path;

use crate::error::Result;
use crate::io::format::Format;
use crate::io::sink::{WriteEntry, Written};
use crate::io::source::{Entry, Listed, ReadEntry};
use crate::keras::{KerasFile, WeightsWriter};
use crate::tensor::Tensor;

impl ReadEntry for KerasFile {
    fn read_entry(
        &mut self,
        index: usize,
        _entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        self.read_index(index)
    }

    fn metadata(&self) -> Vec<(String, String)> {
        KerasFile::metadata(self)
    }
}

/// A Keras file, listed from its HDF5 headers.
pub(crate) fn open(path: &Path) -> Result<Listed<KerasFile>> {
    let reader = KerasFile::open(path)?;
    let entries = reader
        .entries()
        .iter()
        .map(|e| {
            let mut entry = Entry::new(e.name.clone(), e.dtype, e.shape.clone());
            entry.byte_len = Some(e.byte_len);
            entry
        })
        .collect();
    Ok(Listed {
        format: Format::Keras,
        path: path.to_path_buf(),
        entries,
        reader,
    })
}

/// `WeightsWriter` writes a `.weights.h5` in the layout h5py writes (names
/// such as `layers/dense/vars/0` become groups and datasets) under a
/// temporary name, renamed when finished.
impl WriteEntry for WeightsWriter {
    fn write_entry(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        self.add(name, tensor)
    }

    fn finish_all(self) -> Result<()> {
        self.finish()
    }
}

/// Starts a `.weights.h5` at `path`; a `.keras` name is refused (it needs
/// the model's config).
pub(crate) fn create(path: &Path) -> Result<Written<WeightsWriter>> {
    if path.extension().is_some_and(|e| e == "keras") {
        return Err(crate::Error::InvalidArgument(format!(
            "{}: a .keras archive needs the model's config.json; write a .weights.h5 \
             (or use keras::WeightsWriter::create_keras with a config)",
            path.display()
        )));
    }
    Ok(Written {
        format: Format::Keras,
        path: path.to_path_buf(),
        writer: WeightsWriter::create(path)?,
    })
}
