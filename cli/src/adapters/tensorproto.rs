//! Binary TensorProto files: one file holding one tensor (what
//! `tf.io.serialize_tensor` writes), and a directory of them where tensor
//! `a/b` is the file `a/b.pb`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
use prost::Message;
use tftensor::bytes::Bytes;
use tftensor::tfrecord::serialize_tensor as serialize;
use tftensor::{DataType, Tensor, TensorShape};

use crate::error::{at, at_tensor};
use crate::sink::Sink;
use crate::source::{Entry, Source};
use crate::staged::{StagedDir, StagedFile};

/// The ending of a tensor's file in a TensorProto directory.
const EXT: &str = ".pb";

/// The two leading fields of a TensorProto, to list a file without
/// building its tensor.
#[derive(Clone, PartialEq, Message)]
struct ProtoHeader {
    #[prost(int32, tag = "1")]
    dtype: i32,
    #[prost(message, optional, tag = "2")]
    tensor_shape: Option<tftensor::pb::TensorShapeProto>,
}

fn read_file(path: &Path) -> Result<Bytes> {
    Ok(Bytes::from(fs::read(path).map_err(|e| at(path, e))?))
}

fn decode(path: &Path, bytes: Bytes) -> Result<Tensor> {
    Tensor::decode(bytes).map_err(|e| at(path, format!("not a valid TensorProto: {e}")))
}

/// Dtype and shape of a serialized TensorProto, as its decoding would give.
fn header(path: &Path, bytes: Bytes) -> Result<(DataType, TensorShape)> {
    let h = ProtoHeader::decode(bytes)
        .map_err(|e| at(path, format!("not a valid TensorProto: {e}")))?;
    let dtype = DataType::from_i32(h.dtype);
    if !dtype.is_valid_tensor_dtype() {
        bail!(
            "{}: not a valid TensorProto: dtype {}",
            path.display(),
            dtype.name()
        );
    }
    let shape = TensorShape::from_proto(&h.tensor_shape.unwrap_or_default())
        .map_err(|e| at(path, format!("not a valid TensorProto: {e}")))?;
    Ok((dtype, shape))
}

/// A file holding one TensorProto; its tensor is named by the file's stem.
pub struct ProtoFile {
    entries: Vec<Entry>,
    tensor: Tensor,
}

impl ProtoFile {
    /// Reads and decodes the file.
    pub fn open(path: &Path) -> Result<ProtoFile> {
        let tensor = decode(path, read_file(path)?)?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let entries = vec![Entry {
            name,
            dtype: tensor.dtype(),
            shape: tensor.shape().clone(),
        }];
        Ok(ProtoFile { entries, tensor })
    }
}

impl Source for ProtoFile {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, _index: usize) -> Result<Tensor> {
        Ok(self.tensor.clone())
    }
}

/// A directory of TensorProto files, listed in name order.
pub struct ProtoDir {
    entries: Vec<Entry>,
    files: Vec<PathBuf>,
}

impl ProtoDir {
    /// Lists every `*.pb` file under `dir` (not following directory
    /// symlinks) and reads each one's dtype and shape.
    pub fn open(dir: &Path) -> Result<ProtoDir> {
        let mut found = Vec::new();
        walk(dir, dir, &mut found)?;
        found.sort();
        let mut entries = Vec::with_capacity(found.len());
        let mut files = Vec::with_capacity(found.len());
        for (name, file) in found {
            let (dtype, shape) = header(&file, read_file(&file)?)?;
            entries.push(Entry { name, dtype, shape });
            files.push(file);
        }
        Ok(ProtoDir { entries, files })
    }
}

fn walk(root: &Path, dir: &Path, found: &mut Vec<(String, PathBuf)>) -> Result<()> {
    for item in fs::read_dir(dir).map_err(|e| at(dir, e))? {
        let item = item.map_err(|e| at(dir, e))?;
        let path = item.path();
        let kind = item.file_type().map_err(|e| at(&path, e))?;
        if kind.is_dir() {
            walk(root, &path, found)?;
            continue;
        }
        let Ok(rel) = path.strip_prefix(root) else {
            continue;
        };
        let mut parts = Vec::new();
        for part in rel.iter() {
            match part.to_str() {
                Some(s) => parts.push(s),
                None => bail!("{}: the file name is not UTF-8", path.display()),
            }
        }
        let joined = parts.join("/");
        if let Some(name) = joined.strip_suffix(EXT) {
            found.push((name.to_string(), path.clone()));
        }
    }
    Ok(())
}

impl Source for ProtoDir {
    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        let (Some(entry), Some(file)) = (self.entries.get(index), self.files.get(index)) else {
            bail!("no tensor number {index}");
        };
        let tensor = decode(file, read_file(file)?)?;
        if tensor.dtype() != entry.dtype || tensor.shape() != &entry.shape {
            bail!("{}: changed while being read", file.display());
        }
        Ok(tensor)
    }
}

/// Writes the one tensor of a TensorProto file.
pub struct ProtoFileSink {
    staged: StagedFile,
    tensor: Option<Vec<u8>>,
}

impl ProtoFileSink {
    /// Starts the output file `path`.
    pub fn create(path: &Path) -> Result<ProtoFileSink> {
        Ok(ProtoFileSink {
            staged: StagedFile::new(path)?,
            tensor: None,
        })
    }
}

impl Sink for ProtoFileSink {
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let dest = self.staged.dest();
        if self.tensor.is_some() {
            bail!(
                "{}: a TensorProto file holds one tensor, and '{name}' is a second one \
                 (write a directory, .npz, .safetensors or a checkpoint instead, or pick one with --only)",
                dest.display()
            );
        }
        self.tensor = Some(serialize(tensor).map_err(|e| at_tensor(dest, name, e))?);
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<()> {
        let dest = self.staged.dest().to_path_buf();
        let Some(bytes) = self.tensor.take() else {
            bail!("{}: no tensor to write", dest.display());
        };
        self.staged
            .file()
            .write_all(&bytes)
            .map_err(|e| at(&dest, e))?;
        self.staged.commit()
    }
}

/// Fills a TensorProto directory.
pub struct ProtoDirSink {
    staged: StagedDir,
    dest: PathBuf,
}

impl ProtoDirSink {
    /// Starts the output directory `path`, which must be new or empty.
    pub fn create(path: &Path) -> Result<ProtoDirSink> {
        Ok(ProtoDirSink {
            staged: StagedDir::new(path)?,
            dest: path.to_path_buf(),
        })
    }
}

/// The relative file of tensor `name`: `a/b` is `a/b.pb`. Names whose
/// parts are empty, `.` or `..` have no file.
fn file_of(name: &str) -> Option<PathBuf> {
    let ok = name
        .split('/')
        .all(|part| !part.is_empty() && part != "." && part != ".." && !part.contains('\0'));
    ok.then(|| PathBuf::from(format!("{name}{EXT}")))
}

impl Sink for ProtoDirSink {
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let Some(rel) = file_of(name) else {
            return Err(at_tensor(
                &self.dest,
                name,
                "the name cannot be a file name (empty, `.` or `..` parts)",
            ));
        };
        let bytes = serialize(tensor).map_err(|e| at_tensor(&self.dest, name, e))?;
        let file = self.staged.path().join(rel);
        if let Some(dir) = file.parent() {
            fs::create_dir_all(dir).map_err(|e| at_tensor(&self.dest, name, e))?;
        }
        let mut out = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&file)
            .map_err(|e| at_tensor(&self.dest, name, e))?;
        out.write_all(&bytes)
            .map_err(|e| at_tensor(&self.dest, name, e))?;
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        self.staged.commit()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_of_tensors() {
        assert_eq!(file_of("a/b"), Some(PathBuf::from("a/b.pb")));
        assert_eq!(
            file_of("m/.ATTRIBUTES/VARIABLE_VALUE"),
            Some(PathBuf::from("m/.ATTRIBUTES/VARIABLE_VALUE.pb"))
        );
        for bad in ["", "/a", "a/", "a//b", "../a", "a/./b"] {
            assert_eq!(file_of(bad), None, "{bad:?}");
        }
    }
}
