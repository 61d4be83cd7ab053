//! The file formats the tool reads and writes, and how it tells which one a
//! path holds: from the path (directory layout, name) and the file's first
//! bytes. `--format` (input) and `--to` (output) override the detection.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Result};
pub use tftensor::tfrecord::Compression;
use tftensor::DataType;

use crate::error::at;

/// A file format, as named on the command line (`--format`, `--to`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// A TensorFlow checkpoint (tensor bundle): a prefix such as
    /// `dir/ckpt-3`, a checkpoint directory, or a SavedModel directory.
    Checkpoint,
    /// One binary TensorProto (what `tf.io.serialize_tensor` writes).
    Tensorproto,
    /// A directory of binary TensorProto files, one per tensor: tensor
    /// `a/b` is the file `a/b.pb`.
    TensorprotoDir,
    /// A TFRecord file whose records are serialized TensorProtos
    /// (uncompressed, GZIP or ZLIB). Tensors are named by record index.
    Tfrecord,
    /// A NumPy `.npy` file (one tensor).
    Npy,
    /// A NumPy `.npz` archive.
    Npz,
    /// A `.safetensors` file.
    Safetensors,
}

/// A path with its format: what a command opens or creates.
#[derive(Clone, Debug)]
pub struct Located {
    /// The format.
    pub format: Format,
    /// The path to hand to the format's reader or writer (for a checkpoint
    /// named by its `.index` or `.data-*` file, the prefix).
    pub path: PathBuf,
    /// TFRecord compression; `None` for the other formats.
    pub compression: Compression,
}

impl Format {
    /// The format's name in messages and in `inspect --json`.
    pub fn name(self) -> &'static str {
        match self {
            Format::Checkpoint => "checkpoint",
            Format::Tensorproto => "tensorproto",
            Format::TensorprotoDir => "tensorproto-dir",
            Format::Tfrecord => "tfrecord",
            Format::Npy => "npy",
            Format::Npz => "npz",
            Format::Safetensors => "safetensors",
        }
    }

    /// Whether the format holds names (TFRecord records and a lone `.npy`
    /// or TensorProto file do not).
    pub fn holds_one_tensor(self) -> bool {
        matches!(self, Format::Tensorproto | Format::Npy)
    }

    /// Whether a file of this format can hold a tensor of `dtype`.
    pub fn can_hold(self, dtype: DataType) -> bool {
        match self {
            // TensorProtos (and so TFRecords of them) and bundles hold every
            // dtype a tensor can have.
            Format::Checkpoint
            | Format::Tensorproto
            | Format::TensorprotoDir
            | Format::Tfrecord => dtype.is_valid_tensor_dtype(),
            Format::Npy | Format::Npz => crate::adapters::npy::can_hold(dtype),
            Format::Safetensors => crate::adapters::safetensors::can_hold(dtype),
        }
    }
}

/// TFRecord file name endings (before any `.gz`/`.zz`/`.zlib`).
const TFRECORD_EXTS: [&str; 3] = ["tfrecord", "tfrecords", "tfr"];

/// Where to read: `path` with its format, detected unless `forced`.
pub fn locate_input(path: &Path, forced: Option<Format>) -> Result<Located> {
    let meta = fs::metadata(path);
    let is_dir = meta.as_ref().is_ok_and(|m| m.is_dir());
    let format = match forced {
        Some(f) => f,
        None if is_dir => detect_dir(path),
        None => match meta {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if checkpoint_index_exists(path) {
                    Format::Checkpoint
                } else {
                    return Err(at(path, "no such file, directory or checkpoint prefix"));
                }
            }
            Err(e) => return Err(at(path, e)),
            Ok(_) => detect_file(path)?,
        },
    };
    let path = if format == Format::Checkpoint && !is_dir {
        checkpoint_prefix(path)
    } else {
        path.to_path_buf()
    };
    let compression = if format == Format::Tfrecord {
        detect_compression(&path)?
    } else {
        Compression::None
    };
    Ok(Located {
        format,
        path,
        compression,
    })
}

/// Where to write: `path` with the format `to`, or the one its name says.
pub fn locate_output(path: &Path, to: Option<Format>) -> Result<Located> {
    let text = path.to_string_lossy();
    let (name, compression) = strip_compression_ext(&text);
    let format = match to {
        Some(f) => f,
        None => {
            let ext = Path::new(name)
                .extension()
                .map(|e| e.to_string_lossy().to_ascii_lowercase());
            match ext.as_deref() {
                _ if text.ends_with('/') => Format::TensorprotoDir,
                Some("safetensors") => Format::Safetensors,
                Some("npz") => Format::Npz,
                Some("npy") => Format::Npy,
                Some("pb") => Format::Tensorproto,
                Some("index") => Format::Checkpoint,
                Some(e) if TFRECORD_EXTS.contains(&e) => Format::Tfrecord,
                Some(e) if e.starts_with("ckpt") => Format::Checkpoint,
                None => Format::Checkpoint,
                Some(e) => bail!(
                    "{}: cannot tell the output format from the ending `.{e}`; pass --to",
                    path.display()
                ),
            }
        }
    };
    let (path, compression) = match format {
        Format::Checkpoint => (checkpoint_prefix(path), Compression::None),
        Format::Tfrecord => (path.to_path_buf(), compression),
        _ => (path.to_path_buf(), Compression::None),
    };
    Ok(Located {
        format,
        path,
        compression,
    })
}

/// A directory is a checkpoint (a `checkpoint` state file, or a SavedModel)
/// or else a directory of TensorProto files.
fn detect_dir(dir: &Path) -> Format {
    let is_checkpoint = dir.join("checkpoint").is_file()
        || dir.join("saved_model.pb").is_file()
        || dir.join("saved_model.pbtxt").is_file()
        || dir.join("variables").join("variables.index").is_file();
    if is_checkpoint {
        Format::Checkpoint
    } else {
        Format::TensorprotoDir
    }
}

/// A regular file: by its magic bytes, then by its name, then as a
/// TensorProto (whose decoding error then says what is wrong).
fn detect_file(path: &Path) -> Result<Format> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.ends_with(".index") || data_file_prefix(&name).is_some() {
        return Ok(Format::Checkpoint);
    }
    let (head, len) = read_head(path)?;
    if head.starts_with(b"\x93NUMPY") {
        return Ok(Format::Npy);
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Ok(Format::Npz);
    }
    if is_tfrecord_head(&head) || head.starts_with(GZIP_MAGIC) {
        return Ok(Format::Tfrecord);
    }
    if is_safetensors_head(&head, len) {
        return Ok(Format::Safetensors);
    }
    let (stem, _) = strip_compression_ext(&name);
    let ext = Path::new(stem)
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    Ok(match ext.as_deref() {
        Some("npy") => Format::Npy,
        Some("npz") => Format::Npz,
        Some("safetensors") => Format::Safetensors,
        Some(e) if TFRECORD_EXTS.contains(&e) => Format::Tfrecord,
        _ => Format::Tensorproto,
    })
}

const GZIP_MAGIC: &[u8] = b"\x1f\x8b";

/// The first 16 bytes of the file (fewer if it is shorter) and its length.
fn read_head(path: &Path) -> Result<(Vec<u8>, u64)> {
    let mut file = fs::File::open(path).map_err(|e| at(path, e))?;
    let len = file.metadata().map_err(|e| at(path, e))?.len();
    let mut head = Vec::with_capacity(16);
    file.by_ref()
        .take(16)
        .read_to_end(&mut head)
        .map_err(|e| at(path, e))?;
    Ok((head, len))
}

/// A TFRecord starts with a u64 length and the masked CRC32C of those 8
/// bytes: a 1 in 2^32 coincidence for anything else.
fn is_tfrecord_head(head: &[u8]) -> bool {
    match (head.get(..8), head.get(8..12)) {
        (Some(len), Some(crc)) => {
            let stored = u32::from_le_bytes([crc[0], crc[1], crc[2], crc[3]]);
            tftensor::crc32c::masked(len) == stored
        }
        _ => false,
    }
}

/// A safetensors file starts with a u64 header length that fits in the
/// file, and the JSON header's `{`.
fn is_safetensors_head(head: &[u8], file_len: u64) -> bool {
    let Some(n) = head.get(..8) else {
        return false;
    };
    let mut le = [0u8; 8];
    le.copy_from_slice(n);
    let header_len = u64::from_le_bytes(le);
    head.get(8) == Some(&b'{') && header_len.checked_add(8).is_some_and(|end| end <= file_len)
}

/// The compression of a TFRecord file: GZIP by its magic bytes, ZLIB by
/// its header or a `.zz`/`.zlib` name, else none.
fn detect_compression(path: &Path) -> Result<Compression> {
    let meta = fs::metadata(path).map_err(|e| at(path, e))?;
    if meta.is_dir() {
        bail!("{}: is a directory, not a TFRecord file", path.display());
    }
    let (head, _) = read_head(path)?;
    if head.starts_with(GZIP_MAGIC) {
        return Ok(Compression::Gzip);
    }
    if is_tfrecord_head(&head) || head.is_empty() {
        return Ok(Compression::None);
    }
    let (_, by_name) = strip_compression_ext(&path.to_string_lossy());
    // RFC 1950: deflate method 8, and the two header bytes are a multiple
    // of 31 as a big-endian number.
    let zlib_header = match (head.first(), head.get(1)) {
        (Some(&cmf), Some(&flg)) => {
            cmf & 0x0f == 8 && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0
        }
        _ => false,
    };
    Ok(if zlib_header || by_name == Compression::Zlib {
        Compression::Zlib
    } else {
        Compression::None
    })
}

/// Splits a `.gz`, `.zz` or `.zlib` ending off a name.
fn strip_compression_ext(name: &str) -> (&str, Compression) {
    if let Some(stem) = name.strip_suffix(".gz") {
        (stem, Compression::Gzip)
    } else if let Some(stem) = name
        .strip_suffix(".zz")
        .or_else(|| name.strip_suffix(".zlib"))
    {
        (stem, Compression::Zlib)
    } else {
        (name, Compression::None)
    }
}

/// Whether `PREFIX.index` exists for the prefix `path`.
fn checkpoint_index_exists(path: &Path) -> bool {
    let mut index = path.as_os_str().to_owned();
    index.push(".index");
    Path::new(&index).is_file()
}

/// The checkpoint prefix for a path that names the prefix, its `.index`
/// file or one of its `.data-NNNNN-of-MMMMM` files.
fn checkpoint_prefix(path: &Path) -> PathBuf {
    let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) else {
        return path.to_path_buf();
    };
    let stem = name
        .strip_suffix(".index")
        .or_else(|| data_file_prefix(&name));
    match stem {
        Some(stem) => path.with_file_name(stem),
        None => path.to_path_buf(),
    }
}

/// `PREFIX` for a file named `PREFIX.data-NNNNN-of-MMMMM` (TF's
/// `DataFilename`).
fn data_file_prefix(name: &str) -> Option<&str> {
    let (prefix, suffix) = name.rsplit_once(".data-")?;
    let (shard, of) = suffix.split_once("-of-")?;
    let digits = |s: &str| s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit());
    (digits(shard) && digits(of)).then_some(prefix)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoint_prefixes() {
        assert_eq!(
            checkpoint_prefix(Path::new("d/ckpt-3.index")),
            Path::new("d/ckpt-3")
        );
        assert_eq!(
            checkpoint_prefix(Path::new("d/ckpt-3.data-00000-of-00001")),
            Path::new("d/ckpt-3")
        );
        assert_eq!(
            checkpoint_prefix(Path::new("d/ckpt-3")),
            Path::new("d/ckpt-3")
        );
        assert_eq!(data_file_prefix("x.data-0000-of-00001"), None);
    }

    #[test]
    fn output_formats_by_name() {
        let f = |p: &str| locate_output(Path::new(p), None).map(|l| (l.format, l.compression));
        assert_eq!(
            f("a.safetensors").ok(),
            Some((Format::Safetensors, Compression::None))
        );
        assert_eq!(
            f("a.tfrecord.gz").ok(),
            Some((Format::Tfrecord, Compression::Gzip))
        );
        assert_eq!(
            f("a.tfrecords.zz").ok(),
            Some((Format::Tfrecord, Compression::Zlib))
        );
        assert_eq!(
            f("out/").ok(),
            Some((Format::TensorprotoDir, Compression::None))
        );
        assert_eq!(
            f("ckpt/model").ok(),
            Some((Format::Checkpoint, Compression::None))
        );
        assert_eq!(
            f("model.ckpt-100").ok(),
            Some((Format::Checkpoint, Compression::None))
        );
        assert!(f("a.txt").is_err());
    }

    #[test]
    fn magic_bytes() {
        let mut rec = 5u64.to_le_bytes().to_vec();
        rec.extend(tftensor::crc32c::masked(&5u64.to_le_bytes()).to_le_bytes());
        assert!(is_tfrecord_head(&rec));
        rec[0] = 6;
        assert!(!is_tfrecord_head(&rec));
        let mut st = 2u64.to_le_bytes().to_vec();
        st.extend(b"{}");
        assert!(is_safetensors_head(&st, 10));
        assert!(!is_safetensors_head(&st, 9));
    }
}
