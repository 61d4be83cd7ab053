//! NumPy `.npy` files (one tensor, named by the file's stem) and `.npz`
//! archives (members named as `np.load` names them), on `tftensor::npy`.

use std::io::BufWriter;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use tftensor::bytes::Bytes;
use tftensor::npy::{
    read_npy, read_npy_as, read_npy_bytes, to_npy_bytes, write_npy_to, NpzReader, NpzWriter,
};
use tftensor::{DataType, Tensor};

use crate::error::{at, at_tensor};
use crate::sink::Sink;
use crate::source::{Entry, Source};
use crate::staged::StagedFile;

/// Whether NumPy files hold `dtype` so that it reads back as the same
/// dtype: what the library writes for an empty tensor of it, read back.
/// (bfloat16, the float8s and int4 are written as opaque `V` arrays and the
/// quantized types as plain integers, so they do not come back.)
pub fn can_hold(dtype: DataType) -> bool {
    let round_trip = || -> tftensor::Result<bool> {
        let bytes = to_npy_bytes(&Tensor::new(dtype, [0])?)?;
        Ok(read_npy_bytes(Bytes::from(bytes))?.dtype() == dtype)
    };
    round_trip().unwrap_or(false)
}

/// NumPy drops trailing NUL bytes of `S` strings: refuse what would lose
/// them rather than write a different value.
fn check_strings(dest: &Path, name: &str, tensor: &Tensor) -> Result<()> {
    if tensor.dtype() == DataType::String {
        let strings = tensor
            .as_slice::<Bytes>()
            .map_err(|e| at_tensor(dest, name, e))?;
        if strings.iter().any(|s| s.last() == Some(&0)) {
            return Err(at_tensor(
                dest,
                name,
                "a string ends in a NUL byte, which NumPy's `S` dtype drops",
            ));
        }
    }
    Ok(())
}

/// One tensor to the shape of an [`Entry`].
fn entry(name: &str, t: &Tensor) -> Entry {
    Entry {
        name: name.to_string(),
        dtype: t.dtype(),
        shape: t.shape().clone(),
    }
}

/// A `.npy` file.
pub struct Npy {
    entries: Vec<Entry>,
    tensor: Tensor,
}

impl Npy {
    /// Reads the file; an opaque (`V`) array as `as_dtype` when given.
    pub fn open(path: &Path, as_dtype: Option<DataType>) -> Result<Npy> {
        let tensor = read_npy(path)
            .or_else(|e| match as_dtype {
                Some(dt) => read_npy_as(path, dt),
                None => Err(e),
            })
            .map_err(|e| at(path, e))?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        Ok(Npy {
            entries: vec![entry(&name, &tensor)],
            tensor,
        })
    }
}

impl Source for Npy {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, _index: usize) -> Result<Tensor> {
        Ok(self.tensor.clone())
    }
}

/// A `.npz` archive. Its members' dtypes and shapes are in their own
/// headers, so opening reads every member once and keeps it until read.
pub struct Npz {
    path: PathBuf,
    reader: NpzReader,
    as_dtype: Option<DataType>,
    entries: Vec<Entry>,
    tensors: Vec<Option<Tensor>>,
}

impl Npz {
    /// Opens the archive and reads its members; opaque (`V`) arrays as
    /// `as_dtype` when given.
    pub fn open(path: &Path, as_dtype: Option<DataType>) -> Result<Npz> {
        let mut reader = NpzReader::open(path).map_err(|e| at(path, e))?;
        let names: Vec<String> = reader.names().map(str::to_string).collect();
        let mut entries = Vec::with_capacity(names.len());
        let mut tensors = Vec::with_capacity(names.len());
        for name in &names {
            let t = reader
                .get(name)
                .or_else(|e| match as_dtype {
                    Some(dt) => reader.get_as(name, dt),
                    None => Err(e),
                })
                .map_err(|e| at_tensor(path, name, e))?;
            entries.push(entry(name, &t));
            tensors.push(Some(t));
        }
        Ok(Npz {
            path: path.to_path_buf(),
            reader,
            as_dtype,
            entries,
            tensors,
        })
    }
}

impl Source for Npz {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        let Some(e) = self.entries.get(index) else {
            bail!("no tensor number {index}");
        };
        match self.tensors.get_mut(index).and_then(Option::take) {
            Some(t) => Ok(t),
            // Read again (a second read of the same member).
            None => match self.as_dtype {
                Some(dt) if dt == e.dtype => self.reader.get_as(&e.name, dt),
                _ => self.reader.get(&e.name),
            }
            .map_err(|err| at_tensor(&self.path, &e.name, err)),
        }
    }
}

/// Writes the one tensor of a `.npy` file.
pub struct NpySink {
    staged: StagedFile,
    written: bool,
}

impl NpySink {
    /// Starts the output file.
    pub fn create(path: &Path) -> Result<NpySink> {
        Ok(NpySink {
            staged: StagedFile::new(path)?,
            written: false,
        })
    }
}

impl Sink for NpySink {
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let dest = self.staged.dest().to_path_buf();
        if self.written {
            bail!(
                "{}: a .npy file holds one tensor, and '{name}' is a second one",
                dest.display()
            );
        }
        check_strings(&dest, name, tensor)?;
        write_npy_to(BufWriter::new(self.staged.file()), tensor)
            .map_err(|e| at_tensor(&dest, name, e))?;
        self.written = true;
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        if !self.written {
            bail!("{}: no tensor to write", self.staged.dest().display());
        }
        self.staged.commit()
    }
}

/// Writes a `.npz` archive (stored members, as `np.savez`).
pub struct NpzSink {
    writer: NpzWriter<BufWriter<std::fs::File>>,
    staged: StagedFile,
}

impl NpzSink {
    /// Starts the output archive.
    pub fn create(path: &Path) -> Result<NpzSink> {
        let mut staged = StagedFile::new(path)?;
        let file = staged.file().try_clone().map_err(|e| at(path, e))?;
        Ok(NpzSink {
            writer: NpzWriter::new(BufWriter::with_capacity(1 << 20, file), false),
            staged,
        })
    }
}

impl Sink for NpzSink {
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let dest = self.staged.dest();
        check_strings(dest, name, tensor)?;
        self.writer
            .add(name, tensor)
            .map_err(|e| at_tensor(dest, name, e))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let dest = self.staged.dest().to_path_buf();
        let buffered = self.writer.finish_into().map_err(|e| at(&dest, e))?;
        buffered.into_inner().map_err(|e| at(&dest, e.error()))?;
        self.staged.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dtypes_numpy_gives_back() {
        for dt in [
            DataType::Float,
            DataType::Complex128,
            DataType::String,
            DataType::Bool,
            DataType::UInt64,
        ] {
            assert!(can_hold(dt), "{dt}");
        }
        for dt in [
            DataType::BFloat16,
            DataType::QInt8,
            DataType::Int4,
            DataType::Variant,
            DataType::Resource,
        ] {
            assert!(!can_hold(dt), "{dt}");
        }
    }
}
