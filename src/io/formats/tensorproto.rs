//! Binary TensorProto files: one file holding one tensor (what
//! `tf.io.serialize_tensor` writes), and a directory of them where tensor
//! `a/b` is the file `a/b.pb`.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use prost::Message;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::Store;
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::TensorSink;
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::staged::{StagedDir, StagedFile};
use crate::io::{Blob, CreateOptions, Format, Located, OpenOptions, Stat};
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

fn open_file_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    Ok(Box::new(open_file(at, options)?))
}

fn open_dir_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    Ok(Box::new(open_dir(at, options)?))
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

fn invalid(e: impl std::fmt::Display) -> Error {
    Error::invalid_format("tensorproto", format!("not a valid TensorProto: {e}"))
}

/// The ending of a tensor's file in a TensorProto directory.
const EXT: &str = ".pb";

/// How deep a TensorProto directory's tensors may lie (a name's parts).
const MAX_DEPTH: usize = 64;

fn decode(blob: &dyn Blob, bytes: Bytes) -> Result<Tensor> {
    Tensor::decode(bytes).map_err(|e| invalid(e).with_path(blob.id()))
}

/// The dtype and shape of the TensorProto in `blob`, from its first
/// [`PEEK`](crate::proto::PEEK) bytes (the whole file only when its fields
/// are not in TF's order), as its decoding would give.
fn header(blob: &dyn Blob) -> Result<(DataType, TensorShape)> {
    let prefix = blob.read_upto(0, crate::proto::PEEK as u64)?;
    let whole = prefix.len() as u64 == blob.len();
    match crate::proto::peek_header(&prefix, whole) {
        Some(h) => h.map_err(|e| invalid(e).with_path(blob.id())),
        None => {
            let t = decode(blob, blob.read_all()?)?;
            Ok((t.dtype(), t.shape().clone()))
        }
    }
}

/// A file holding one TensorProto; its tensor is named by the file's stem.
pub(crate) fn open_file(at: &Located, options: &OpenOptions) -> Result<Listed<ProtoFiles>> {
    let blob = at.blob(options)?;
    let (dtype, shape) = header(&*blob)?;
    let name = stem(&at.store.split(&at.key).1);
    Ok(Listed {
        format: Format::TENSORPROTO,
        path: at.path(),
        entries: vec![Entry::new(name, dtype, shape)],
        reader: ProtoFiles {
            at: at.clone(),
            options: options.clone(),
            files: vec![(at.key.clone(), Some(blob))],
        },
    })
}

/// A file's name without its ending: the name of its one tensor.
pub(crate) fn stem(name: &str) -> String {
    Path::new(name)
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned())
}

/// TensorProto files, each decoded when read: a file's blob is kept
/// open, a directory's files are opened when read.
pub(crate) struct ProtoFiles {
    at: Located,
    options: OpenOptions,
    files: Vec<(String, Option<Arc<dyn Blob>>)>,
}

impl ReadEntry for ProtoFiles {
    /// Reports the bytes of the file as they are read.
    fn read_entry(
        &mut self,
        index: usize,
        _entry: &Entry,
        on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        let (key, blob) = self
            .files
            .get(index)
            .ok_or_else(|| Error::not_found(format!("no tensor number {index}")))?;
        let blob = match blob {
            Some(blob) => Arc::clone(blob),
            None => self.at.open_key(key, &self.options)?,
        };
        let bytes = blob.read_bytes_reporting(0..blob.len(), on)?;
        decode(&*blob, bytes)
    }
}

/// Lists every `*.pb` file under the directory (through `Store::list`:
/// symbolic links to folders not followed, at most [`MAX_DEPTH`] levels)
/// and reads each one's dtype and shape, in name order.
pub(crate) fn open_dir(at: &Located, options: &OpenOptions) -> Result<Listed<ProtoFiles>> {
    let mut found = Vec::new();
    walk(&*at.store, &at.key, "", 0, &mut found)?;
    found.sort();
    let mut entries = Vec::with_capacity(found.len());
    let mut files = Vec::with_capacity(found.len());
    for (name, key) in found {
        let (dtype, shape) = header(&*at.open_key(&key, options)?)?;
        entries.push(Entry::new(name, dtype, shape));
        files.push((key, None));
    }
    Ok(Listed {
        format: Format::TENSORPROTO_DIR,
        path: at.path(),
        entries,
        reader: ProtoFiles {
            at: at.clone(),
            options: options.clone(),
            files,
        },
    })
}

/// Adds the `(tensor name, key)` of every `.pb` file below the folder
/// `dir`, whose tensors' names start with `rel`.
fn walk(
    store: &dyn Store,
    dir: &str,
    rel: &str,
    depth: usize,
    found: &mut Vec<(String, String)>,
) -> Result<()> {
    if depth >= MAX_DEPTH {
        return Err(Error::invalid_format(
            "tensorproto-dir",
            format!("folders nested more than {MAX_DEPTH} deep"),
        )
        .with_path(store.id(dir)));
    }
    for item in store.list(dir)? {
        let key = store.join(dir, &item.name);
        let name = if rel.is_empty() {
            item.name.clone()
        } else {
            format!("{rel}/{}", item.name)
        };
        match item.stat {
            Stat::Dir => walk(store, &key, &name, depth + 1, found)?,
            Stat::File { .. } => {
                if let Some(tensor) = name.strip_suffix(EXT) {
                    found.push((tensor.to_owned(), key));
                }
            }
            _ => {}
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
