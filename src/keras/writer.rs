//! Writing Keras 3 weight files: `.weights.h5` (the HDF5 subset h5py
//! writes) and, given a model config, a `.keras` archive around it.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::hdf5::Hdf5Writer;
use crate::tensor::Tensor;

/// Writes a Keras 3 `.weights.h5` (or `.keras`), atomically.
///
/// ```
/// use tftensor::keras::{KerasFile, WeightsWriter};
/// use tftensor::Tensor;
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let path = tmp.path().join("tftensor-doc.weights.h5");
/// let mut w = WeightsWriter::create(&path)?;
/// w.add("layers/dense/vars/0", &Tensor::from_vec([2, 2], vec![1f32, 2., 3., 4.])?)?;
/// w.add("layers/dense/vars/1", &Tensor::from_vec([2], vec![0f32, 1.])?)?;
/// w.finish()?;
/// let f = KerasFile::open(&path)?;
/// assert_eq!(f.entries().len(), 2);
/// assert_eq!(f.read("layers/dense/vars/1")?.as_slice::<f32>()?, &[0., 1.]);
/// # std::fs::remove_file(&path).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct WeightsWriter {
    h5: Hdf5Writer,
    /// For a `.keras`: the archive path, the HDF5 temp path and config JSON.
    archive: Option<(PathBuf, PathBuf, String)>,
}

impl WeightsWriter {
    /// Starts a `.weights.h5` at `path`.
    ///
    /// # Errors
    /// I/O errors creating the temporary file.
    pub fn create(path: impl AsRef<Path>) -> Result<WeightsWriter> {
        Ok(WeightsWriter {
            h5: Hdf5Writer::create(path)?,
            archive: None,
        })
    }

    /// Starts a `.keras` archive at `path` with `config` as its
    /// `config.json` (the model's `serialize_keras_object` JSON).
    ///
    /// # Errors
    /// I/O errors creating the temporary file.
    pub fn create_keras(path: impl AsRef<Path>, config: &str) -> Result<WeightsWriter> {
        let path = path.as_ref().to_path_buf();
        let h5_path = crate::hdf5::beside(&path, ".weights.h5")?;
        Ok(WeightsWriter {
            h5: Hdf5Writer::create(&h5_path)?,
            archive: Some((path, h5_path, config.to_owned())),
        })
    }

    /// Adds a tensor as dataset `name` (`layers/dense/vars/0`); the groups
    /// on its path are created. bf16 tensors get Keras' `dtype` attribute.
    ///
    /// # Errors
    /// A duplicate or malformed name; a dtype Keras never writes (strings,
    /// variants, quantized, float8, …); I/O errors.
    pub fn add(&mut self, name: &str, t: &Tensor) -> Result<()> {
        self.h5.add(name, t)
    }

    /// Adds an empty group (Keras' `vars` group of a weightless layer).
    ///
    /// # Errors
    /// A path through an existing dataset.
    pub fn add_group(&mut self, name: &str) -> Result<()> {
        self.h5.add_group(name)
    }

    /// Writes the metadata, syncs and renames the file into place.
    ///
    /// # Errors
    /// I/O errors.
    pub fn finish(self) -> Result<()> {
        self.h5.finish()?;
        let Some((path, h5_path, config)) = self.archive else {
            return Ok(());
        };
        let done = write_archive(&path, &h5_path, &config);
        let _ = std::fs::remove_file(&h5_path);
        done
    }
}

fn write_archive(path: &Path, h5_path: &Path, config: &str) -> Result<()> {
    let io = |e: std::io::Error| Error::io(path.display(), &e);
    let zerr = |e: zip::result::ZipError| Error::io(path.display(), std::io::Error::other(e));
    let tmp = crate::hdf5::beside(path, &format!(".tmp{}", std::process::id()))?;
    let result = (|| {
        let file = std::fs::File::create(&tmp).map_err(io)?;
        let mut z = zip::ZipWriter::new(file);
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .large_file(std::fs::metadata(h5_path).map_err(io)?.len() >= 1 << 31);
        let metadata = format!(
            "{{\"keras_version\": \"3.15.1\", \"date_saved\": \"tftensor {}\"}}",
            env!("CARGO_PKG_VERSION")
        );
        z.start_file("metadata.json", opts).map_err(zerr)?;
        z.write_all(metadata.as_bytes()).map_err(io)?;
        z.start_file("config.json", opts).map_err(zerr)?;
        z.write_all(config.as_bytes()).map_err(io)?;
        z.start_file("model.weights.h5", opts).map_err(zerr)?;
        let mut h5 = std::fs::File::open(h5_path).map_err(io)?;
        std::io::copy(&mut h5, &mut z).map_err(io)?;
        let file = z.finish().map_err(zerr)?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
