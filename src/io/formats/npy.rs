//! NumPy files as sources and sinks: a `.npy` (one tensor, named by the
//! file's stem), an `.npz` archive (members named as `np.load` names
//! them), and a directory of `.npy` files read as one source.

use std::fs::File;
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use bytes::Bytes;

use super::tensorproto::stem;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::TensorSink;
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::staged::StagedFile;
use crate::io::{Compression, CreateOptions, Format, Located, OpenOptions, Stat};
use crate::npy::{NpzReader, NpzWriter, read_npy_header, read_path_reporting, write_npy_to};
use crate::tensor::Tensor;

impl Format {
    /// A NumPy `.npy` file (one tensor).
    pub const NPY: Format = Format::named("npy");
    /// A NumPy `.npz` archive, or a directory of `.npy` files.
    pub const NPZ: Format = Format::named("npz");
}

pub(crate) const NPY_ROW: Row = Row {
    extensions: &["npy"],
    magic: &[crate::npy::MAGIC],
    one_tensor: true,
    create: Some(create_npy),
    can_hold: crate::npy::can_hold,
    ..Row::base(Format::NPY, open_npy_at)
};

pub(crate) const NPZ_ROW: Row = Row {
    extensions: &["npz"],
    magic: &[b"PK\x03\x04", b"PK\x05\x06"],
    sniff: sniff_npz,
    create: Some(create_npz),
    can_hold: crate::npy::can_hold,
    ..Row::base(Format::NPZ, open_npz_at)
};

/// A folder of `.npy` files (and no `.pb` files below it, which make it a
/// TensorProto directory), read as one archive.
fn sniff_npz(p: &Probe<'_>) -> Option<Certainty> {
    let npy = p.items().is_ok_and(|items| {
        items
            .iter()
            .any(|i| i.name.ends_with(".npy") && i.stat != Stat::Dir)
    });
    let pb = p
        .tree()
        .is_ok_and(|files| files.iter().any(|(name, _)| name.ends_with(".pb")));
    (p.is_dir() && npy && !pb).then_some(Certainty::Content)
}

fn open_npy_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    Ok(Box::new(open_npy(&at.local_only()?, options.npy_dtype)?))
}

fn open_npz_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    open_npz(&at.local_only()?, options.npy_dtype)
}

fn create_npy(at: &Located, _: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    Ok(Box::new(NpySink::create(&at.local_only()?)?))
}

/// Members deflated when a compression is asked for
/// (`np.savez_compressed`), stored otherwise (`np.savez`).
fn create_npz(at: &Located, options: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    let deflate = options.compression.is_some_and(|c| c != Compression::None);
    Ok(Box::new(NpzSink::create(&at.local_only()?, deflate)?))
}

/// `.npy` files: one, or every one of a directory, each read whole.
pub(crate) struct NpyFiles {
    as_dtype: Option<DataType>,
    files: Vec<PathBuf>,
}

impl ReadEntry for NpyFiles {
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
        match self.as_dtype {
            Some(dt) => read_path_reporting(file, None, on)
                .or_else(|_| read_path_reporting(file, Some(dt), on)),
            None => read_path_reporting(file, None, on),
        }
    }
}

/// The files' entries, from their headers.
fn listed(
    path: &Path,
    format: Format,
    files: Vec<PathBuf>,
    as_dtype: Option<DataType>,
) -> Result<Listed<NpyFiles>> {
    let entries = files
        .iter()
        .map(|f| {
            let (dtype, shape) = read_npy_header(f, None).or_else(|e| match as_dtype {
                Some(dt) => read_npy_header(f, Some(dt)),
                None => Err(e),
            })?;
            Ok(Entry::new(stem(f), dtype, shape))
        })
        .collect::<Result<Vec<_>>>()?;
    Ok(Listed {
        format,
        path: path.to_path_buf(),
        entries,
        reader: NpyFiles { as_dtype, files },
    })
}

/// One `.npy` file.
fn open_npy(path: &Path, as_dtype: Option<DataType>) -> Result<Listed<NpyFiles>> {
    listed(path, Format::NPY, vec![path.to_path_buf()], as_dtype)
}

/// An `.npz` archive, or a directory of `.npy` files.
fn open_npz(path: &Path, as_dtype: Option<DataType>) -> Result<Box<dyn TensorSource>> {
    if !path.is_dir() {
        return Ok(Box::new(open_archive(path, as_dtype)?));
    }
    let mut files = Vec::new();
    let io = |e| Error::io(path.display(), e);
    for item in std::fs::read_dir(path).map_err(io)? {
        let p = item.map_err(io)?.path();
        if p.is_file() && p.extension().is_some_and(|e| e == "npy") {
            files.push(p);
        }
    }
    files.sort();
    Ok(Box::new(listed(path, Format::NPZ, files, as_dtype)?))
}

/// An `.npz` archive's members, read one at a time.
pub(crate) struct Npz {
    reader: NpzReader,
    as_dtype: Option<DataType>,
}

impl ReadEntry for Npz {
    fn read_entry(
        &mut self,
        _index: usize,
        entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        match self.as_dtype {
            Some(dt) => self
                .reader
                .get(&entry.name)
                .or_else(|_| self.reader.get_as(&entry.name, dt)),
            None => self.reader.get(&entry.name),
        }
    }
}

/// An `.npz` archive, listed from the zip directory and each member's
/// `.npy` header.
fn open_archive(path: &Path, as_dtype: Option<DataType>) -> Result<Listed<Npz>> {
    let mut reader = NpzReader::open(path)?;
    let names: Vec<String> = reader.names().map(str::to_string).collect();
    let mut entries = Vec::with_capacity(names.len());
    for name in names {
        let (dtype, shape) = reader
            .dtype_and_shape(&name, None)
            .or_else(|e| match as_dtype {
                Some(dt) => reader.dtype_and_shape(&name, Some(dt)),
                None => Err(e),
            })
            .map_err(|e| e.with_key(&name))?;
        entries.push(Entry::new(name, dtype, shape));
    }
    Ok(Listed {
        format: Format::NPZ,
        path: path.to_path_buf(),
        entries,
        reader: Npz { reader, as_dtype },
    })
}

/// NumPy drops trailing NUL bytes of `S` strings: refuse what would lose
/// them rather than write a different value.
fn check_strings(tensor: &Tensor) -> Result<()> {
    if tensor.dtype() == DataType::String {
        let strings = tensor.as_slice::<Bytes>()?;
        if strings.iter().any(|s| s.last() == Some(&0)) {
            return Err(Error::InvalidArgument(
                "a string ends in a NUL byte, which NumPy's `S` dtype drops".into(),
            ));
        }
    }
    Ok(())
}

/// Writes the one tensor of a `.npy` file.
pub(crate) struct NpySink {
    staged: StagedFile,
    written: bool,
}

impl NpySink {
    fn create(path: &Path) -> Result<NpySink> {
        Ok(NpySink {
            staged: StagedFile::new(path)?,
            written: false,
        })
    }
}

impl TensorSink for NpySink {
    fn format(&self) -> Format {
        Format::NPY
    }

    fn path(&self) -> &Path {
        self.staged.dest()
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        if self.written {
            return Err(Error::InvalidArgument(format!(
                "a .npy file holds one tensor, and '{name}' is a second one"
            )));
        }
        check_strings(tensor)?;
        write_npy_to(BufWriter::new(self.staged.file()), tensor)?;
        self.written = true;
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        if !self.written {
            return Err(Error::InvalidArgument("no tensor to write".into()));
        }
        self.staged.commit()
    }
}

/// Writes a `.npz` archive (stored members, as `np.savez`).
pub(crate) struct NpzSink {
    writer: NpzWriter<BufWriter<File>>,
    staged: StagedFile,
}

impl NpzSink {
    fn create(path: &Path, deflate: bool) -> Result<NpzSink> {
        let mut staged = StagedFile::new(path)?;
        let file = staged
            .file()
            .try_clone()
            .map_err(|e| Error::io(path.display(), e))?;
        Ok(NpzSink {
            writer: NpzWriter::new(BufWriter::with_capacity(1 << 20, file), deflate),
            staged,
        })
    }
}

impl TensorSink for NpzSink {
    fn format(&self) -> Format {
        Format::NPZ
    }

    fn path(&self) -> &Path {
        self.staged.dest()
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        check_strings(tensor)?;
        self.writer.add(name, tensor)
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let dest = self.staged.dest().display().to_string();
        let buffered = self.writer.finish_into()?;
        buffered
            .into_inner()
            .map_err(|e| Error::io(&dest, e.error()))?;
        self.staged.commit()
    }
}
