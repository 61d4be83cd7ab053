//! Keras weight files (`.weights.h5`, `.keras`, sharded `.weights.json`,
//! legacy `.h5`) as a source, and `.weights.h5` as a sink.

use std::path::Path;

use crate::error::Result;
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::{WriteEntry, Written};
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::{CreateOptions, Format, Located, OpenOptions, TensorSink};
use crate::keras::{KerasFile, WeightsWriter};
use crate::tensor::Tensor;

impl Format {
    /// Keras weights: `.weights.h5`, a `.keras` zip, a sharded `.weights.json`,
    /// or a legacy Keras 2 `.h5`.
    pub const KERAS: Format = Format::named("keras");
}

pub(crate) const ROW: Row = Row {
    extensions: &["h5", "keras", "hdf5"],
    magic: &[b"\x89HDF\r\n\x1a\n"],
    sniff,
    create: Some(create_at),
    can_hold: crate::keras::can_hold,
    ..Row::base(Format::KERAS, open_at)
};

/// A `.keras` is a zip (as an `.npz` is), a sharded save's manifest is
/// JSON: their names tell them apart.
fn sniff(p: &Probe<'_>) -> Option<Certainty> {
    let named = p.name.ends_with(".keras") || p.name.ends_with(".weights.json");
    (p.is_file() && named).then_some(Certainty::Name)
}

fn open_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    Ok(Box::new(open(at, options)?))
}

fn create_at(at: &Located, _: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    Ok(Box::new(create(&at.local_only()?)?))
}

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

/// A Keras file, listed from its HDF5 headers (read through the
/// location's byte source).
fn open(at: &Located, options: &OpenOptions) -> Result<Listed<KerasFile>> {
    let reader = KerasFile::open_at(at, options)?;
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
        format: Format::KERAS,
        path: at.path(),
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
fn create(path: &Path) -> Result<Written<WeightsWriter>> {
    if path.extension().is_some_and(|e| e == "keras") {
        return Err(crate::Error::InvalidArgument(
            "a .keras archive needs the model's config.json; write a .weights.h5 (or use \
             keras::WeightsWriter::create_keras with a config)"
                .into(),
        )
        .with_path(path.display()));
    }
    Ok(Written {
        format: Format::KERAS,
        path: path.to_path_buf(),
        writer: WeightsWriter::create(path)?,
    })
}
