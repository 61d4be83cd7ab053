//! NumPy files as sources and sinks: a `.npy` (one tensor, named by the
//! file's stem), an `.npz` archive (members named as `np.load` names
//! them), and a directory of `.npy` files read as one source.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;

use super::tensorproto::stem;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::TensorSink;
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::staged::StagedFile;
use crate::io::{Blob, Compression, CreateOptions, Format, Located, OpenOptions, Stat};
use crate::npy::{NpzReader, NpzWriter, write_npy_to};
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
    sniff: sniff_npz,
    create: Some(create_npz),
    can_hold: crate::npy::can_hold,
    ..Row::base(Format::NPZ, open_npz_at)
};

/// A folder of `.npy` files (and no `.pb` files below it, which make it a
/// TensorProto directory), read as one archive.
fn sniff_npz(p: &Probe<'_>) -> Option<Certainty> {
    // A zip is an `.npz` when its first member is an array (or it has
    // none): other zips (a `.task`, a `.keras`) are other formats.
    if p.is_file() {
        let empty = p.head.starts_with(b"PK\x05\x06");
        let npy = p.first_zip_member().is_some_and(|m| m.ends_with(b".npy"));
        return (empty || npy).then_some(Certainty::Magic);
    }
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

/// One `.npy`, listed from its header (one small read of its first bytes)
/// and read through its blob.
fn open_npy_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let blob = at.blob(options)?;
    let (entry, as_dtype) = npy_entry(&*blob, &at.store.split(&at.key).1, options.npy_dtype)?;
    Ok(Box::new(Listed {
        format: Format::NPY,
        path: at.path(),
        entries: vec![entry],
        reader: NpyFiles {
            at: at.clone(),
            options: options.clone(),
            files: vec![NpyFile {
                key: at.key.clone(),
                blob: Some(blob),
                as_dtype,
            }],
        },
    }))
}

/// An `.npz` archive, or a folder of `.npy` files.
fn open_npz_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    if at.store.stat(&at.key)? == Stat::Dir {
        return Ok(Box::new(open_folder(at, options)?));
    }
    Ok(Box::new(open_archive(at, options)?))
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

/// `.npy` files: one, or every one of a folder, each read whole through
/// its blob.
pub(crate) struct NpyFiles {
    at: Located,
    options: OpenOptions,
    files: Vec<NpyFile>,
}

/// One `.npy` of a source: its key, its blob when kept open (a single
/// file; a folder's files are opened when read), and the dtype its
/// opaque elements are read as.
struct NpyFile {
    key: String,
    blob: Option<Arc<dyn Blob>>,
    as_dtype: Option<DataType>,
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
        let blob = match &file.blob {
            Some(blob) => Arc::clone(blob),
            None => self.at.open_key(&file.key, &self.options)?,
        };
        crate::npy::read_blob(&*blob, file.as_dtype, Some(on))
    }
}

/// The entry of the `.npy` in `blob` (named by the file's stem, from
/// `name`), and the dtype its elements are read as: the file's own, or
/// `as_dtype` when the file's is opaque (or `as_dtype`'s quantized twin).
fn npy_entry(
    blob: &dyn Blob,
    name: &str,
    as_dtype: Option<DataType>,
) -> Result<(Entry, Option<DataType>)> {
    let (dtype, shape, used) = match crate::npy::blob_header(blob, None) {
        Ok((dtype, shape)) => (dtype, shape, None),
        Err(e) => match as_dtype {
            Some(dt) => {
                let (dtype, shape) = crate::npy::blob_header(blob, Some(dt))?;
                (dtype, shape, Some(dt))
            }
            None => return Err(e),
        },
    };
    Ok((Entry::new(stem(name), dtype, shape), used))
}

/// A folder's `.npy` files (`Store::list`: sorted by name, symbolic links
/// to folders not followed), listed from their headers.
fn open_folder(at: &Located, options: &OpenOptions) -> Result<Listed<NpyFiles>> {
    let mut entries = Vec::new();
    let mut files = Vec::new();
    for item in at.store.list(&at.key)? {
        if !matches!(item.stat, Stat::File { .. }) || !item.name.ends_with(".npy") {
            continue;
        }
        let key = at.store.join(&at.key, &item.name);
        let blob = at.open_key(&key, options)?;
        let (entry, as_dtype) = npy_entry(&*blob, &item.name, options.npy_dtype)?;
        entries.push(entry);
        files.push(NpyFile {
            key,
            blob: None,
            as_dtype,
        });
    }
    Ok(Listed {
        format: Format::NPZ,
        path: at.path(),
        entries,
        reader: NpyFiles {
            at: at.clone(),
            options: options.clone(),
            files,
        },
    })
}

/// An `.npz` archive's members, read one at a time, each with the dtype
/// its listing needed.
pub(crate) struct Npz {
    reader: NpzReader,
    as_dtype: Vec<Option<DataType>>,
}

impl ReadEntry for Npz {
    fn read_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        match self.as_dtype.get(index).copied().flatten() {
            Some(dt) => self.reader.get_as(&entry.name, dt),
            None => self.reader.get(&entry.name),
        }
    }
}

/// An `.npz` archive through its blob: listed from the zip directory and
/// each member's `.npy` header.
fn open_archive(at: &Located, options: &OpenOptions) -> Result<Listed<Npz>> {
    let mut reader = NpzReader::from_blob(at.blob(options)?)?;
    let names: Vec<String> = reader.names().map(str::to_string).collect();
    let mut entries = Vec::with_capacity(names.len());
    let mut as_dtype = Vec::with_capacity(names.len());
    for name in names {
        let (dtype, shape, used) = match reader.dtype_and_shape(&name, None) {
            Ok((dtype, shape)) => (dtype, shape, None),
            Err(e) => match options.npy_dtype {
                Some(dt) => {
                    let (dtype, shape) = reader
                        .dtype_and_shape(&name, Some(dt))
                        .map_err(|e| e.with_key(&name))?;
                    (dtype, shape, Some(dt))
                }
                None => return Err(e.with_key(&name)),
            },
        };
        entries.push(Entry::new(name, dtype, shape));
        as_dtype.push(used);
    }
    Ok(Listed {
        format: Format::NPZ,
        path: at.path(),
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
