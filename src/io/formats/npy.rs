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
use crate::io::format::Format;
use crate::io::sink::TensorSink;
use crate::io::source::{no_index, Entry, TensorSource};
use crate::io::staged::StagedFile;
use crate::npy::{read_npy, read_npy_as, read_npy_header, write_npy_to, NpzReader, NpzWriter};
use crate::tensor::Tensor;

/// `.npy` files: one, or every one of a directory, listed from their headers.
pub(crate) struct NpyFiles {
    path: PathBuf,
    format: Format,
    as_dtype: Option<DataType>,
    entries: Vec<Entry>,
    files: Vec<PathBuf>,
}

fn read_one(file: &Path, as_dtype: Option<DataType>) -> Result<Tensor> {
    match as_dtype {
        Some(dt) => read_npy(file).or_else(|_| read_npy_as(file, dt)),
        None => read_npy(file),
    }
}

fn list(files: &[PathBuf], as_dtype: Option<DataType>) -> Result<Vec<Entry>> {
    files
        .iter()
        .map(|f| {
            let (dtype, shape) = read_npy_header(f, None).or_else(|e| match as_dtype {
                Some(dt) => read_npy_header(f, Some(dt)),
                None => Err(e),
            })?;
            Ok(Entry::new(stem(f), dtype, shape))
        })
        .collect()
}

/// One `.npy` file.
pub(crate) fn open_npy(path: &Path, as_dtype: Option<DataType>) -> Result<NpyFiles> {
    let files = vec![path.to_path_buf()];
    Ok(NpyFiles {
        path: path.to_path_buf(),
        format: Format::Npy,
        as_dtype,
        entries: list(&files, as_dtype)?,
        files,
    })
}

/// An `.npz` archive, or a directory of `.npy` files.
pub(crate) fn open_npz(path: &Path, as_dtype: Option<DataType>) -> Result<Box<dyn TensorSource>> {
    if !path.is_dir() {
        return Ok(Box::new(Npz::open(path, as_dtype)?));
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
    Ok(Box::new(NpyFiles {
        path: path.to_path_buf(),
        format: Format::Npz,
        as_dtype,
        entries: list(&files, as_dtype)?,
        files,
    }))
}

impl TensorSource for NpyFiles {
    fn format(&self) -> Format {
        self.format
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        let file = self
            .files
            .get(index)
            .ok_or_else(|| no_index(index, &self.path))?;
        read_one(file, self.as_dtype)
    }
}

/// A `.npz` archive, listed from the zip directory and each member's
/// `.npy` header.
pub(crate) struct Npz {
    path: PathBuf,
    reader: NpzReader,
    as_dtype: Option<DataType>,
    entries: Vec<Entry>,
}

impl Npz {
    fn open(path: &Path, as_dtype: Option<DataType>) -> Result<Npz> {
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
        Ok(Npz {
            path: path.to_path_buf(),
            reader,
            as_dtype,
            entries,
        })
    }
}

impl TensorSource for Npz {
    fn format(&self) -> Format {
        Format::Npz
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        let e = self
            .entries
            .get(index)
            .ok_or_else(|| no_index(index, &self.path))?;
        match self.as_dtype {
            Some(dt) => self
                .reader
                .get(&e.name)
                .or_else(|_| self.reader.get_as(&e.name, dt)),
            None => self.reader.get(&e.name),
        }
        .map_err(|err| err.with_key(&e.name))
    }
}

/// NumPy drops trailing NUL bytes of `S` strings: refuse what would lose
/// them rather than write a different value.
fn check_strings(dest: &Path, name: &str, tensor: &Tensor) -> Result<()> {
    if tensor.dtype() == DataType::String {
        let strings = tensor.as_slice::<Bytes>()?;
        if strings.iter().any(|s| s.last() == Some(&0)) {
            return Err(Error::InvalidArgument(format!(
                "{}: tensor '{name}': a string ends in a NUL byte, which NumPy's `S` dtype drops",
                dest.display()
            )));
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
    pub(crate) fn create(path: &Path) -> Result<NpySink> {
        Ok(NpySink {
            staged: StagedFile::new(path)?,
            written: false,
        })
    }
}

impl TensorSink for NpySink {
    fn format(&self) -> Format {
        Format::Npy
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let dest = self.staged.dest().to_path_buf();
        if self.written {
            return Err(Error::InvalidArgument(format!(
                "{}: a .npy file holds one tensor, and '{name}' is a second one",
                dest.display()
            )));
        }
        check_strings(&dest, name, tensor)?;
        write_npy_to(BufWriter::new(self.staged.file()), tensor)?;
        self.written = true;
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        if !self.written {
            return Err(Error::InvalidArgument(format!(
                "{}: no tensor to write",
                self.staged.dest().display()
            )));
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
    pub(crate) fn create(path: &Path) -> Result<NpzSink> {
        let mut staged = StagedFile::new(path)?;
        let file = staged
            .file()
            .try_clone()
            .map_err(|e| Error::io(path.display(), e))?;
        Ok(NpzSink {
            writer: NpzWriter::new(BufWriter::with_capacity(1 << 20, file), false),
            staged,
        })
    }
}

impl TensorSink for NpzSink {
    fn format(&self) -> Format {
        Format::Npz
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        check_strings(self.staged.dest(), name, tensor)?;
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
