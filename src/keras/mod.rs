//! Keras weight files: Keras 3 `.weights.h5`, `.keras` archives, sharded
//! weights (`*.weights.json` + `*_00000.weights.h5`, …) and legacy Keras 2
//! `.h5`, read and written without TensorFlow or libhdf5 (see
//! [`crate::hdf5`] for the HDF5 subset).
//!
//! Entries are named by their HDF5 dataset paths, as h5py names them:
//! `layers/dense/vars/0`, `optimizer/vars/3`, legacy
//! `model_weights/d1/d1/kernel:0`. Keras 3 stores no variable names; they
//! live in `config.json` (see [`KerasFile::metadata`]).
//!
//! ```no_run
//! use tftensor::keras::{KerasFile, WeightsWriter};
//! let f = KerasFile::open("model.keras")?;
//! for e in f.entries() {
//!     println!("{} {} {}", e.name, e.dtype, e.shape);
//! }
//! let kernel = f.read("layers/dense/vars/0")?;
//! let mut w = WeightsWriter::create("copy.weights.h5")?;
//! w.add("layers/dense/vars/0", &kernel)?;
//! w.finish()?;
//! # Ok::<(), tftensor::Error>(())
//! ```

mod archive;
mod legacy;
mod sharded;
mod writer;

use std::collections::HashMap;
use std::path::Path;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::hdf5::Hdf5File;
use crate::io::{Located, OpenOptions, Stat};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

pub use writer::WeightsWriter;

/// Whether a Keras weights file can hold `dtype`: the dtypes
/// [`WeightsWriter`] stores as h5py does.
///
/// ```
/// assert!(tftensor::keras::can_hold(tftensor::DataType::BFloat16));
/// assert!(!tftensor::keras::can_hold(tftensor::DataType::String));
/// ```
pub fn can_hold(dtype: crate::DataType) -> bool {
    crate::hdf5::writer_can_hold(dtype)
}

/// One tensor of a Keras file, described from headers alone.
#[derive(Clone, Debug, PartialEq)]
pub struct KerasEntry {
    /// The HDF5 dataset path (`layers/dense/vars/0`).
    pub name: String,
    /// Its dtype (bf16 from Keras' `dtype` attribute, bool from h5py's enum).
    pub dtype: DataType,
    /// Its shape.
    pub shape: TensorShape,
    /// Bytes of its data in memory.
    pub byte_len: u64,
}

/// An open Keras weights file of any supported kind.
#[derive(Debug)]
pub struct KerasFile {
    parts: Vec<Hdf5File>,
    /// (part, dataset index) of each entry.
    index: Vec<(usize, usize)>,
    entries: Vec<KerasEntry>,
    /// Entry index by name (the first, should shards repeat a name).
    by_name: HashMap<String, usize>,
    metadata: Vec<(String, String)>,
}

/// The module's format error, for the file `name`.
fn invalid(name: &str, message: impl std::fmt::Display) -> Error {
    Error::invalid_format("keras", message.to_string()).with_path(name)
}

impl KerasFile {
    /// Opens a local `.weights.h5`, `.keras`, sharded `.weights.json` or
    /// legacy `.h5` file, by its content (zip, JSON manifest, or HDF5).
    ///
    /// # Errors
    /// I/O errors; anything that is not one of these kinds; the npz
    /// variant of `.keras`; HDF5 features outside [`crate::hdf5`]'s subset.
    pub fn open(path: impl AsRef<Path>) -> Result<KerasFile> {
        KerasFile::open_at(
            &Located::new(crate::io::Format::KERAS, path),
            &OpenOptions::default(),
        )
    }

    /// [`KerasFile::open`] of a located file in any store: the file is
    /// read by range through its byte source (mapped when `options` say
    /// so), a `.keras` archive's members as windows of it, a sharded
    /// save's shards through the same store.
    ///
    /// # Errors
    /// As [`KerasFile::open`].
    ///
    /// ```
    /// use tftensor::io::{Format, Located, OpenOptions};
    /// use tftensor::keras::KerasFile;
    /// let at = Located::new(Format::KERAS, "tests/data/keras/seq.keras");
    /// let f = KerasFile::open_at(&at, &OpenOptions::default())?;
    /// assert!(!f.entries().is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn open_at(at: &Located, options: &OpenOptions) -> Result<KerasFile> {
        let blob = at.blob(options)?;
        let head = blob.read_upto(0, 8)?;
        let (parts, metadata) = if head.starts_with(b"PK\x03\x04") {
            let (weights, metadata) = archive::open(&blob)?;
            (vec![Hdf5File::open(weights)?], metadata)
        } else if head.first() == Some(&b'{') {
            let (dir, _) = at.store.split(&at.key);
            let shard = |name: &str| {
                let key = at.store.join(&dir, name);
                if at.store.stat(&key)? == Stat::Missing {
                    return Err(Error::not_found("keras: the shard is missing")
                        .with_path(blob.id())
                        .with_key(name));
                }
                at.open_key(&key, options)
            };
            (sharded::open(&*blob, shard)?, Vec::new())
        } else {
            let f = Hdf5File::open(blob)?;
            let metadata = legacy::metadata(&f);
            (vec![f], metadata)
        };
        Ok(Self::from_parts(parts, metadata))
    }

    fn from_parts(parts: Vec<Hdf5File>, metadata: Vec<(String, String)>) -> KerasFile {
        let mut index = Vec::new();
        let mut entries = Vec::new();
        for (p, f) in parts.iter().enumerate() {
            for (d, ds) in f.datasets().iter().enumerate() {
                index.push((p, d));
                entries.push(KerasEntry {
                    name: ds.path.clone(),
                    dtype: ds.dtype,
                    shape: ds.shape.clone(),
                    byte_len: ds.byte_len(),
                });
            }
        }
        let mut by_name = HashMap::with_capacity(entries.len());
        for (i, e) in entries.iter().enumerate() {
            by_name.entry(e.name.clone()).or_insert(i);
        }
        KerasFile {
            parts,
            index,
            entries,
            by_name,
            metadata,
        }
    }

    /// Every tensor, in h5py `visititems` order (for shards: shard by shard).
    pub fn entries(&self) -> &[KerasEntry] {
        &self.entries
    }

    /// Reads the tensor named `name`.
    ///
    /// # Errors
    /// [`Error::NotFound`] for an unknown name; corrupt or unsupported data.
    pub fn read(&self, name: &str) -> Result<Tensor> {
        let i = *self
            .by_name
            .get(name)
            .ok_or_else(|| Error::not_found("keras: no tensor of this name").with_key(name))?;
        self.read_index(i)
    }

    /// Reads the `i`-th entry of [`entries`](Self::entries).
    ///
    /// # Errors
    /// [`Error::NotFound`] when `i` is out of range; corrupt or unsupported data.
    pub fn read_index(&self, i: usize) -> Result<Tensor> {
        let (p, d) = *self
            .index
            .get(i)
            .ok_or_else(|| Error::not_found(format!("keras: no entry {i}")))?;
        let part = self
            .parts
            .get(p)
            .ok_or_else(|| Error::not_found(format!("keras: no entry {i}")))?;
        let ds = part
            .datasets()
            .get(d)
            .ok_or_else(|| Error::not_found(format!("keras: no entry {i}")))?;
        part.read(ds)
    }

    /// Text metadata: `config.json` and `metadata.json` of a `.keras`
    /// archive; for legacy `.h5` files the string attributes of the root
    /// and `model_weights` (`keras_version`, `backend`, `model_config`, …).
    pub fn metadata(&self) -> Vec<(String, String)> {
        self.metadata.clone()
    }
}
