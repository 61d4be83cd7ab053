//! Binary TensorProto files: one file holding one tensor (what
//! `tf.io.serialize_tensor` writes), and a directory of them where tensor
//! `a/b` is the file `a/b.pb`.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use bytes::Bytes;
use prost::Message;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::TensorSink;
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::staged::{StagedDir, StagedFile};
use crate::io::{CreateOptions, Format, Located, OpenOptions};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

impl Format {
    /// One binary TensorProto (what `tf.io.serialize_tensor` writes).
    pub const TENSORPROTO: Format = Format::named("tensorproto");
    /// A directory of binary TensorProto files: tensor `a/b` is `a/b.pb`.
    pub const TENSORPROTO_DIR: Format = Format::named("tensorproto-dir");
}

pub(crate) const FILE_ROW: Row = Row {
    extensions: &["pb"],
    one_tensor: true,
    sniff: sniff_file,
    create: Some(create_file),
    can_hold: DataType::is_valid_tensor_dtype,
    ..Row::base(Format::TENSORPROTO, open_file_at)
};

pub(crate) const DIR_ROW: Row = Row {
    sniff: sniff_dir,
    create: Some(create_dir),
    names_output: |key| key.ends_with('/'),
    can_hold: DataType::is_valid_tensor_dtype,
    ..Row::base(Format::TENSORPROTO_DIR, open_dir_at)
};

fn open_file_at(at: &Located, _: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    Ok(Box::new(open_file(&at.local_only()?)?))
}

fn open_dir_at(at: &Located, _: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    Ok(Box::new(open_dir(&at.local_only()?)?))
}

fn create_file(at: &Located, _: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    Ok(Box::new(FileSink::create(&at.local_only()?)?))
}

fn create_dir(at: &Located, _: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    Ok(Box::new(DirSink::create(&at.local_only()?)?))
}

/// A file whose first bytes are a TensorProto's header as TF writes it:
/// its dtype first (field 1, a tensor's dtype), then its shape.
fn sniff_file(p: &Probe<'_>) -> Option<Certainty> {
    let dtype_first = p.head.first() == Some(&0x08);
    let whole = p.len() <= p.head.len() as u64;
    let header = crate::proto::peek_header(&p.head, whole);
    let fits = match header {
        Some(h) => h.is_ok(),
        // Cut before the header ended: its dtype is checked.
        None => p
            .head
            .get(1)
            .is_some_and(|&d| DataType::from_i32(i32::from(d)).is_valid_tensor_dtype()),
    };
    (p.is_file() && dtype_first && fits).then_some(Certainty::Content)
}

/// A folder with `.pb` files below it.
fn sniff_dir(p: &Probe<'_>) -> Option<Certainty> {
    let has_pb = p
        .tree()
        .is_ok_and(|files| files.iter().any(|(name, _)| name.ends_with(EXT)));
    (p.is_dir() && has_pb).then_some(Certainty::Content)
}

/// `tf.io.serialize_tensor`: strings in `string_val`, everything else in
/// `tensor_content`, as TF's `SerializeTensor` op writes them.
fn serialize(tensor: &Tensor) -> Result<Vec<u8>> {
    let proto = if tensor.dtype() == DataType::String {
        tensor.as_proto_field()?
    } else {
        tensor.as_proto_tensor_content()?
    };
    Ok(proto.encode_to_vec())
}

fn invalid(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::invalid_format("tensorproto", format!("not a valid TensorProto: {e}"))
        .with_path(path.display())
}

/// The ending of a tensor's file in a TensorProto directory.
const EXT: &str = ".pb";

/// Reads a whole file, telling `on` the bytes read as it goes.
fn read_file(path: &Path, on: &mut dyn FnMut(u64)) -> Result<Bytes> {
    let io = |e: std::io::Error| Error::io(path.display(), e);
    let file = fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    // The file's own length, read below: what the input justifies.
    let mut data = crate::buffer::try_vec(usize::try_from(len).unwrap_or(usize::MAX))?;
    crate::reporting::Reporting::new(file, on)
        .read_to_end(&mut data)
        .map_err(io)?;
    Ok(Bytes::from(data))
}

fn decode(path: &Path, bytes: Bytes) -> Result<Tensor> {
    Tensor::decode(bytes).map_err(|e| invalid(path, e))
}

/// The dtype and shape of the TensorProto in `path`, from its first
/// [`PEEK`](crate::proto::PEEK) bytes (the whole file only when its fields
/// are not in TF's order), as its decoding would give.
fn header(path: &Path) -> Result<(DataType, TensorShape)> {
    let io = |e: std::io::Error| Error::io(path.display(), e);
    let mut prefix = Vec::new();
    let file = fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    file.take(crate::proto::PEEK as u64)
        .read_to_end(&mut prefix)
        .map_err(io)?;
    let whole = prefix.len() as u64 == len;
    match crate::proto::peek_header(&prefix, whole) {
        Some(h) => h.map_err(|e| invalid(path, e)),
        None => {
            let t = decode(path, read_file(path, &mut |_| {})?)?;
            Ok((t.dtype(), t.shape().clone()))
        }
    }
}

/// A file holding one TensorProto; its tensor is named by the file's stem.
pub(crate) fn open_file(path: &Path) -> Result<Listed<ProtoFiles>> {
    let (dtype, shape) = header(path)?;
    Ok(Listed {
        format: Format::TENSORPROTO,
        path: path.to_path_buf(),
        entries: vec![Entry::new(stem(path), dtype, shape)],
        reader: ProtoFiles {
            files: vec![path.to_path_buf()],
        },
    })
}

/// A file's name without its ending: the name of its one tensor.
pub(crate) fn stem(path: &Path) -> String {
    // A path with no file name (`/`) cannot be a file that was read.
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// TensorProto files, each decoded when read.
pub(crate) struct ProtoFiles {
    files: Vec<PathBuf>,
}

impl ReadEntry for ProtoFiles {
    /// Reports the bytes of the file as they are read.
    fn read_entry(
        &mut self,
        index: usize,
        _entry: &Entry,
        on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        let file = self
            .files
            .get(index)
            .ok_or_else(|| Error::not_found(format!("no tensor number {index}")))?;
        decode(file, read_file(file, on)?)
    }
}

/// Lists every `*.pb` file under `dir` (not following directory symlinks)
/// and reads each one's dtype and shape, in name order.
pub(crate) fn open_dir(dir: &Path) -> Result<Listed<ProtoFiles>> {
    let mut found = Vec::new();
    walk(dir, dir, &mut found)?;
    found.sort();
    let mut entries = Vec::with_capacity(found.len());
    let mut files = Vec::with_capacity(found.len());
    for (name, file) in found {
        let (dtype, shape) = header(&file)?;
        entries.push(Entry::new(name, dtype, shape));
        files.push(file);
    }
    Ok(Listed {
        format: Format::TENSORPROTO_DIR,
        path: dir.to_path_buf(),
        entries,
        reader: ProtoFiles { files },
    })
}

fn walk(root: &Path, dir: &Path, found: &mut Vec<(String, PathBuf)>) -> Result<()> {
    let io = |e| Error::io(dir.display(), e);
    for item in fs::read_dir(dir).map_err(io)? {
        let item = item.map_err(io)?;
        let path = item.path();
        let kind = item.file_type().map_err(io)?;
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
                None => {
                    return Err(Error::invalid_format(
                        "tensorproto-dir",
                        "the file name is not UTF-8",
                    )
                    .with_path(path.display()));
                }
            }
        }
        let joined = parts.join("/");
        if let Some(name) = joined.strip_suffix(EXT) {
            found.push((name.to_string(), path.clone()));
        }
    }
    Ok(())
}

/// Writes the one tensor of a TensorProto file.
pub(crate) struct FileSink {
    staged: StagedFile,
    tensor: Option<Vec<u8>>,
}

impl FileSink {
    pub(crate) fn create(path: &Path) -> Result<FileSink> {
        Ok(FileSink {
            staged: StagedFile::new(path)?,
            tensor: None,
        })
    }
}

impl TensorSink for FileSink {
    fn format(&self) -> Format {
        Format::TENSORPROTO
    }

    fn path(&self) -> &Path {
        self.staged.dest()
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        if self.tensor.is_some() {
            return Err(Error::InvalidArgument(format!(
                "a TensorProto file holds one tensor, and '{name}' is a second one \
                 (write a directory, .npz, .safetensors or a checkpoint instead)"
            )));
        }
        self.tensor = Some(serialize(tensor)?);
        Ok(())
    }

    fn finish(mut self: Box<Self>) -> Result<()> {
        let dest = self.staged.dest().display().to_string();
        let Some(bytes) = self.tensor.take() else {
            return Err(Error::InvalidArgument("no tensor to write".into()));
        };
        self.staged
            .file()
            .write_all(&bytes)
            .map_err(|e| Error::io(&dest, e))?;
        self.staged.commit()
    }
}

/// Fills a TensorProto directory.
pub(crate) struct DirSink {
    staged: StagedDir,
    dest: PathBuf,
}

impl DirSink {
    /// Starts the output directory `path`, which must be new or empty.
    pub(crate) fn create(path: &Path) -> Result<DirSink> {
        Ok(DirSink {
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

impl TensorSink for DirSink {
    fn format(&self) -> Format {
        Format::TENSORPROTO_DIR
    }

    fn path(&self) -> &Path {
        &self.dest
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let Some(rel) = file_of(name) else {
            return Err(Error::InvalidArgument(
                "the name cannot be a file name (empty, `.` or `..` parts)".into(),
            ));
        };
        let bytes = serialize(tensor)?;
        let file = self.staged.path().join(rel);
        let file_id = file.display().to_string();
        let io = |e| Error::io(&file_id, e);
        if let Some(dir) = file.parent() {
            fs::create_dir_all(dir).map_err(io)?;
        }
        let mut out = fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&file)
            .map_err(io)?;
        out.write_all(&bytes).map_err(io)?;
        out.sync_all().map_err(io)?;
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
