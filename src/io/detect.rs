//! Which format a path holds: from the directory layout, the name and the
//! file's first bytes. [`Format`]'s rows hold the names and magic bytes.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use super::format::Format;
#[cfg(feature = "tfrecord")]
use super::format::strip_compression_ext;
use crate::error::{Error, Result};
#[cfg(feature = "tfrecord")]
use crate::tfrecord::Compression;

/// A path with its format, resolved for reading or writing: what
/// [`open`](crate::io::open) and [`create`](crate::io::create) act on.
///
/// ```
/// let at = tftensor::io::detect("tests/data/npy/float32.npy".as_ref())?;
/// assert_eq!(at.format, tftensor::io::Format::Npy);
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Located {
    /// The format.
    pub format: Format,
    /// The path the format's reader or writer takes (for a checkpoint, its
    /// prefix).
    pub path: PathBuf,
    /// TFRecord compression (`None` for other formats).
    #[cfg(feature = "tfrecord")]
    pub compression: Compression,
    /// Something the user should hear about how the path was resolved (a
    /// fallback taken); fronts print it as a warning.
    pub note: Option<String>,
}

impl Located {
    /// `path` as `format`, with nothing resolved.
    ///
    /// ```
    /// use tftensor::io::{Format, Located};
    /// let at = Located::new(Format::Npz, "w.npz");
    /// assert_eq!(at.path, std::path::Path::new("w.npz"));
    /// ```
    pub fn new(format: Format, path: impl Into<PathBuf>) -> Located {
        Located {
            format,
            path: path.into(),
            #[cfg(feature = "tfrecord")]
            compression: Compression::None,
            note: None,
        }
    }
}

/// Detects the format of the input at `path`.
///
/// - A directory: a SavedModel or checkpoint directory (a `checkpoint`
///   state file, or exactly one `*.index`); else a directory of `.npy`
///   files (read as one source, like an `.npz`); else a directory of
///   TensorProto `.pb` files. Anything else is an error saying what was
///   looked for.
/// - A file: by its magic bytes, then its name.
/// - A path that does not exist but is a checkpoint prefix (`PREFIX.index`
///   exists): a checkpoint.
///
/// # Errors
/// [`Error::NotFound`] when nothing readable is there; [`Error::Io`].
///
/// ```
/// use tftensor::io::{detect, Format};
/// let at = detect("tests/data/checkpoints/tf2_keras".as_ref())?;
/// assert_eq!(at.format, Format::Checkpoint);
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let empty = tmp.path().join("detect-doc");
/// std::fs::create_dir_all(&empty)?;
/// let err = detect(&empty).unwrap_err();
/// assert!(err.to_string().contains("looked for a SavedModel"));
/// # std::fs::remove_dir(&empty).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn detect(path: &Path) -> Result<Located> {
    let shown = path.display();
    let meta = match fs::metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            #[cfg(feature = "checkpoint")]
            if crate::checkpoint::find_prefix(path)
                .is_ok_and(|(p, _)| with_suffix(&p, ".index").is_file())
            {
                return located_checkpoint(path);
            }
            return Err(
                Error::not_found("no such file, directory or checkpoint prefix").with_path(shown),
            );
        }
        Err(e) => return Err(Error::io(shown, e)),
    };
    if meta.is_dir() {
        return detect_dir(path);
    }
    // A path with no file name (`..`) names no `.index` or data file.
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if name.ends_with(".index") || is_data_file(&name) {
        return located_checkpoint(path);
    }
    // A `.keras` is a zip (as an `.npz` is), a sharded save's manifest is
    // JSON: their names tell them apart.
    if name.ends_with(".keras") || name.ends_with(".weights.json") {
        return Ok(Located::new(Format::Keras, path));
    }
    if name.contains(".tfevents.") {
        return Ok(Located::new(Format::Events, path));
    }
    let (head, len) = read_head(path)?;
    let by_magic = Format::all().find(|f| f.magic().iter().any(|m| head.starts_with(m)));
    let format = if let Some(f) = by_magic {
        f
    } else if is_tfrecord_head(&head) || head.starts_with(GZIP_MAGIC) {
        Format::TfRecord
    } else if is_safetensors_head(&head, len) {
        Format::Safetensors
    } else if head.first() == Some(&0x0a)
        && Format::from_extension(path) == Some(Format::TensorProto)
    {
        // A `.pb` opening with field 1 as a message is a GraphDef (its
        // `node`); a TensorProto opens with its dtype, a varint.
        Format::GraphDef
    } else {
        // Anything else is tried as a TensorProto, whose decoding error
        // then says what is wrong with it.
        Format::from_extension(path)
            .filter(|f| *f != Format::Checkpoint)
            .unwrap_or(Format::TensorProto)
    };
    #[allow(unused_mut)] // set only with the `tfrecord` feature
    let mut at = Located::new(format, path);
    #[cfg(feature = "tfrecord")]
    if format == Format::TfRecord {
        at.compression = compression_of(path, &head);
    }
    Ok(at)
}

/// Where to write `path`: `format`, or the one its name says. A trailing
/// `/` is a TensorProto directory, a name without an ending (or a
/// `.ckpt-N` one) a checkpoint prefix; `.gz`/`.zz`/`.zlib` compress a
/// TFRecord.
///
/// # Errors
/// [`Error::InvalidArgument`] when the name says no format.
///
/// ```
/// use tftensor::io::{output_format, Format};
/// assert_eq!(output_format("m.safetensors".as_ref(), None)?.format, Format::Safetensors);
/// assert_eq!(output_format("ckpt/model".as_ref(), None)?.format, Format::Checkpoint);
/// assert!(output_format("a.txt".as_ref(), None).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn output_format(path: &Path, format: Option<Format>) -> Result<Located> {
    let text = path.to_string_lossy();
    let format = match format {
        Some(f) => f,
        None if text.ends_with('/') => Format::TensorProtoDir,
        None => match Format::from_extension(path) {
            Some(f) => f,
            None => {
                let ext = path
                    .extension()
                    .map(|e| e.to_string_lossy().to_ascii_lowercase());
                match ext {
                    None => Format::Checkpoint,
                    Some(e) if e.starts_with("ckpt") => Format::Checkpoint,
                    Some(e) => {
                        return Err(Error::InvalidArgument(format!(
                            "cannot tell the output format from the ending `.{e}`"
                        )));
                    }
                }
            }
        },
    };
    #[allow(unused_mut)] // set only with the `checkpoint` and `tfrecord` features
    let mut at = Located::new(format, path);
    match format {
        #[cfg(feature = "checkpoint")]
        Format::Checkpoint => {
            if let Some(name) = path.file_name().map(|n| n.to_string_lossy().into_owned()) {
                if let Some(stem) = name.strip_suffix(".index") {
                    at.path = path.with_file_name(stem);
                }
            }
        }
        #[cfg(feature = "tfrecord")]
        Format::TfRecord => at.compression = strip_compression_ext(&text).1,
        _ => {}
    }
    Ok(at)
}

fn located_checkpoint(path: &Path) -> Result<Located> {
    #[cfg(feature = "checkpoint")]
    {
        let (prefix, note) = crate::checkpoint::find_prefix(path)?;
        let mut at = Located::new(Format::Checkpoint, prefix);
        at.note = note;
        Ok(at)
    }
    #[cfg(not(feature = "checkpoint"))]
    Ok(Located::new(Format::Checkpoint, path))
}

/// A directory: a checkpoint, else `.npy` files, else `.pb` files.
fn detect_dir(dir: &Path) -> Result<Located> {
    let has = |name: &str| dir.join(name).is_file();
    if has("checkpoint")
        || has("saved_model.pb")
        || has("saved_model.pbtxt")
        || dir.join("variables").join("variables.index").is_file()
    {
        return located_checkpoint(dir);
    }
    let mut index = 0usize;
    let mut npy = 0usize;
    let mut pb = 0usize;
    let mut events = 0usize;
    count_files(dir, &mut index, &mut npy, &mut pb, &mut events, 0)?;
    if index > 0 {
        return located_checkpoint(dir);
    }
    if events > 0 {
        return Ok(Located::new(Format::Events, dir));
    }
    if npy > 0 && pb == 0 {
        return Ok(Located::new(Format::Npz, dir));
    }
    if pb > 0 {
        return Ok(Located::new(Format::TensorProtoDir, dir));
    }
    Err(Error::not_found(
        "no tensors here: looked for a SavedModel, a checkpoint (a `checkpoint` state file or \
         a `*.index` file), TensorBoard event files, `.npy` files and TensorProto `.pb` files",
    )
    .with_path(dir.display()))
}

/// Counts `.index` files at the top, and `.npy`/`.pb` files below (a
/// TensorProto directory nests; an npy directory is flat).
fn count_files(
    dir: &Path,
    index: &mut usize,
    npy: &mut usize,
    pb: &mut usize,
    events: &mut usize,
    depth: usize,
) -> Result<()> {
    for item in fs::read_dir(dir).map_err(|e| Error::io(dir.display(), e))? {
        let item = item.map_err(|e| Error::io(dir.display(), e))?;
        let kind = item.file_type().map_err(|e| Error::io(dir.display(), e))?;
        let name = item.file_name();
        let name = name.to_string_lossy();
        if kind.is_dir() {
            // Bounded: a TensorProto directory's names nest, symlinks are
            // not followed (`file_type` does not follow them).
            if depth < 64 {
                count_files(&item.path(), &mut 0, npy, pb, events, depth + 1)?;
            }
        } else if name.contains(".tfevents.") {
            *events += 1;
        } else if name.ends_with(".index") {
            *index += 1;
        } else if name.ends_with(".npy") && depth == 0 {
            *npy += 1;
        } else if name.ends_with(".pb") {
            *pb += 1;
        }
    }
    Ok(())
}

const GZIP_MAGIC: &[u8] = b"\x1f\x8b";

#[cfg(feature = "checkpoint")]
fn with_suffix(p: &Path, suffix: &str) -> PathBuf {
    let mut s = p.as_os_str().to_owned();
    s.push(suffix);
    PathBuf::from(s)
}

fn is_data_file(name: &str) -> bool {
    let Some((_, suffix)) = name.rsplit_once(".data-") else {
        return false;
    };
    let Some((shard, of)) = suffix.split_once("-of-") else {
        return false;
    };
    let digits = |s: &str| s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit());
    digits(shard) && digits(of)
}

/// The first 16 bytes of the file (fewer if it is shorter) and its length.
fn read_head(path: &Path) -> Result<(Vec<u8>, u64)> {
    let io = |e| Error::io(path.display(), e);
    let mut file = fs::File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut head = Vec::with_capacity(16);
    file.by_ref().take(16).read_to_end(&mut head).map_err(io)?;
    Ok((head, len))
}

/// A TFRecord starts with a u64 length and the masked CRC32C of those 8
/// bytes: a 1 in 2^32 coincidence for anything else.
fn is_tfrecord_head(head: &[u8]) -> bool {
    let crc = head.get(8..12).and_then(|c| <[u8; 4]>::try_from(c).ok());
    match (head.get(..8), crc) {
        (Some(len), Some(crc)) => crate::crc32c::masked(len) == u32::from_le_bytes(crc),
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
#[cfg(feature = "tfrecord")]
fn compression_of(path: &Path, head: &[u8]) -> Compression {
    if head.starts_with(GZIP_MAGIC) {
        return Compression::Gzip;
    }
    if is_tfrecord_head(head) || head.is_empty() {
        return Compression::None;
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
    if zlib_header || by_name == Compression::Zlib {
        Compression::Zlib
    } else {
        Compression::None
    }
}

/// The compression a TFRecord file's content says (its magic bytes or
/// zlib header), for readers handed a path: GZIP is told by its magic
/// bytes, ZLIB by its header, so no caller needs a `compression=` guess.
///
/// # Errors
/// [`Error::Io`].
///
/// ```
/// use tftensor::tfrecord::Compression;
/// let c = tftensor::io::tfrecord_compression("tests/data/tfrecord/tensors.gzip.tfrecord".as_ref());
/// assert_eq!(c.ok(), Some(Compression::Gzip));
/// ```
#[cfg(feature = "tfrecord")]
pub fn tfrecord_compression(path: &Path) -> Result<Compression> {
    let (head, _) = read_head(path)?;
    Ok(compression_of(path, &head))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_bytes() {
        let mut rec = 5u64.to_le_bytes().to_vec();
        rec.extend(crate::crc32c::masked(&5u64.to_le_bytes()).to_le_bytes());
        assert!(is_tfrecord_head(&rec));
        rec[0] = 6;
        assert!(!is_tfrecord_head(&rec));
        let mut st = 2u64.to_le_bytes().to_vec();
        st.extend(b"{}");
        assert!(is_safetensors_head(&st, 10));
        assert!(!is_safetensors_head(&st, 9));
        assert!(is_data_file("x.data-00000-of-00001"));
        assert!(!is_data_file("x.data-0000-of-00001"));
    }
}
