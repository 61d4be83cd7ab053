//! `.safetensors` files, on `tftensor::safetensors`.

use std::path::Path;

use anyhow::Result;
use tftensor::{safetensors, DataType, Tensor};

use crate::error::at;
use crate::sink::Sink;
use crate::source::InMemory;
use crate::staged::StagedFile;

/// The dtypes `tftensor::safetensors` maps to safetensors dtypes (checked
/// against the library by a test, since it does not export the map).
const HELD: [DataType; 18] = [
    DataType::Bool,
    DataType::UInt8,
    DataType::Int8,
    DataType::Int16,
    DataType::UInt16,
    DataType::Int32,
    DataType::UInt32,
    DataType::Int64,
    DataType::UInt64,
    DataType::Half,
    DataType::BFloat16,
    DataType::Float,
    DataType::Double,
    DataType::Complex64,
    DataType::Float8E5M2,
    DataType::Float8E4M3FN,
    DataType::Float8E4M3FNUZ,
    DataType::Float8E5M2FNUZ,
];

/// Whether a `.safetensors` file can hold `dtype`.
pub fn can_hold(dtype: DataType) -> bool {
    HELD.contains(&dtype)
}

/// A `.safetensors` file, read whole (or mapped with `mmap`, see `--mmap`).
pub fn open(path: &Path, mmap: bool) -> Result<InMemory> {
    let loaded = if mmap {
        // SAFETY: `--mmap` is the user's promise that the file is not
        // modified or truncated while this process runs; the process
        // itself only reads it.
        unsafe { safetensors::load_mmap(path) }
    } else {
        safetensors::load(path)
    }
    .map_err(|e| at(path, e))?;
    Ok(InMemory::new(loaded))
}

/// Collects the tensors (shared, not copied) and writes the file at the
/// end: its header lists every tensor first.
pub struct SafetensorsSink {
    staged: StagedFile,
    tensors: Vec<(String, Tensor)>,
}

impl SafetensorsSink {
    /// Starts the output file.
    pub fn create(path: &Path) -> Result<SafetensorsSink> {
        Ok(SafetensorsSink {
            staged: StagedFile::new(path)?,
            tensors: Vec::new(),
        })
    }
}

impl Sink for SafetensorsSink {
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        self.tensors.push((name.to_string(), tensor.clone()));
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let dest = self.staged.dest().to_path_buf();
        safetensors::save(
            self.staged.path(),
            self.tensors.iter().map(|(n, t)| (n.as_str(), t)),
        )
        .map_err(|e| {
            at(
                &dest,
                e.to_string().replace(
                    &self.staged.path().display().to_string(),
                    &dest.display().to_string(),
                ),
            )
        })?;
        self.staged.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_dtypes_are_the_librarys() {
        let dir = tempfile::tempdir().unwrap();
        for &dt in DataType::all() {
            let t = Tensor::new(dt, [0]).unwrap();
            let saved = safetensors::save(dir.path().join("x.safetensors"), [("x", &t)]).is_ok();
            assert_eq!(saved, can_hold(dt), "{dt}");
        }
    }
}
