//! Which format a path holds: every row is asked how sure it is of a
//! [`Probe`] (the path's name, its first bytes and length, or its folder's
//! items), and the surest claim wins. A path no row claims is an error
//! naming the formats tried: nothing is guessed.

use std::path::Path;
use std::sync::Arc;

use super::Format;
use super::formats::by_extension;
use super::located::Located;
use super::options::{CreateOptions, OpenOptions};
use super::probe::Probe;
use super::row::Certainty;
use super::store::{Stat, Store};
use super::url::store_of;
use crate::error::{Error, Result};

/// Detects the format of the input at `path` (a local path or a URL).
///
/// Every format's row says how sure it is of the path: its layout or name
/// (a checkpoint's `.index`, a log directory's event files), its magic
/// bytes or checksummed first bytes, its header, its extension. The surest
/// wins. A checkpoint prefix that is not a file itself (`dir/ckpt-3`) is
/// found by its `.index`.
///
/// # Errors
/// [`Error::NotFound`] when nothing is there; [`Error::UnknownFormat`]
/// when no format claims what is there; [`Error::Io`].
///
/// ```
/// use tftensor::io::{detect, Format};
/// let at = detect("tests/data/checkpoints/tf2_keras")?;
/// assert_eq!(at.format, Format::CHECKPOINT);
/// let tmp = tempfile::tempdir().unwrap();
/// std::fs::write(tmp.path().join("model.onnx"), b"\xff\xfe not a tensor file")?;
/// let err = detect(tmp.path().join("model.onnx")).unwrap_err();
/// assert!(matches!(err, tftensor::Error::UnknownFormat { .. }), "{err}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn detect(path: impl AsRef<Path>) -> Result<Located> {
    let (store, key) = store_of(path.as_ref(), &super::options::RemoteOptions::default())?;
    detect_in(store, key)
}

/// [`detect`] for `key` of `store`.
///
/// # Errors
/// As [`detect`].
///
/// ```
/// use std::sync::Arc;
/// use tftensor::io::{detect_in, Format, LocalFs};
/// let at = detect_in(Arc::new(LocalFs::new()), "tests/data/npy/float32.npy".into())?;
/// assert_eq!(at.format, Format::NPY);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn detect_in(store: Arc<dyn Store>, key: String) -> Result<Located> {
    let probe = Probe::new(&*store, &key)?;
    let mut best: Option<(Certainty, Format)> = None;
    for format in Format::all() {
        let row = format.row();
        let mut claim = (row.sniff)(&probe);
        if probe.is_file() {
            if row.magic.iter().any(|m| probe.head.starts_with(m)) {
                claim = claim.max(Some(Certainty::Magic));
            }
            if by_extension(&probe.name) == Some(format) {
                claim = claim.max(Some(Certainty::Extension));
            }
        }
        // Strictly surer: among equals, the row listed first.
        if claim > best.map(|(c, _)| c) {
            best = claim.map(|c| (c, format));
        }
    }
    let Some((_, format)) = best else {
        let id = store.id(&key);
        return Err(match probe.stat {
            Stat::Missing => {
                Error::not_found("no such file, directory or checkpoint prefix").with_path(id)
            }
            _ => Error::UnknownFormat {
                tried: Format::all().map(Format::name).collect(),
                at: crate::Location::default(),
            }
            .with_path(id),
        });
    };
    drop(probe);
    let mut at = Located::in_store(format, store, key);
    resolve(&mut at)?;
    Ok(at)
}

/// Fills in what reading needs once the format is known ([`Row`]'s
/// `resolve`).
fn resolve(at: &mut Located) -> Result<()> {
    (at.format.row().resolve)(at)
}

/// Where `path` is read from and as what: [`detect`]'s answer, or the
/// format of `options` when set (with the path resolved as that format
/// resolves it). Fronts call this to show [`Located::note`] before opening.
///
/// # Errors
/// As [`detect`], when no format is given.
///
/// ```
/// use tftensor::io::{locate, Compression, Format, OpenOptions};
/// let at = locate("tests/data/tfrecord/tensors.gzip.tfrecord", &OpenOptions::default().with_format(Format::TFRECORD))?;
/// assert_eq!(at.compression, Compression::Gzip);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn locate(path: impl AsRef<Path>, options: &OpenOptions) -> Result<Located> {
    let (store, key) = store_of(path.as_ref(), &options.remote)?;
    let mut at = match options.format {
        None => detect_in(store, key)?,
        Some(format) => {
            let detected = detect_in(store.clone(), key.clone())
                .ok()
                .filter(|d| d.format == format);
            // Detection resolves paths (checkpoint prefixes); when it
            // disagrees with the user's format, the user's word wins.
            match detected {
                Some(at) => at,
                None => {
                    let mut at = Located::in_store(format, store, key);
                    resolve(&mut at)?;
                    at
                }
            }
        }
    };
    if let Some(c) = options.compression {
        at.compression = c;
    }
    Ok(at)
}

/// Where to write `path`: the format of `options`, or the one its name
/// says (an extension; a trailing `/` is a TensorProto directory, a name
/// without an ending or with a `.ckpt-N` one a checkpoint prefix);
/// `.gz`/`.zz`/`.zlib` compress a TFRecord.
///
/// # Errors
/// [`Error::InvalidArgument`] when the name says no format, or the format
/// is one this build cannot write.
///
/// ```
/// use tftensor::io::{locate_output, CreateOptions, Format};
/// let o = CreateOptions::default();
/// assert_eq!(locate_output("m.safetensors", &o)?.format, Format::SAFETENSORS);
/// assert_eq!(locate_output("ckpt/model", &o)?.format, Format::CHECKPOINT);
/// assert!(locate_output("a.txt", &o).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn locate_output(path: impl AsRef<Path>, options: &CreateOptions) -> Result<Located> {
    let (store, key) = store_of(path.as_ref(), &options.remote)?;
    let name = store.split(&key).1;
    let format = match options.format {
        Some(f) => f,
        None => by_extension(&name)
            .filter(|f| f.can_write())
            .or_else(|| Format::all().find(|f| f.can_write() && (f.row().names_output)(&key)))
            .ok_or_else(|| {
                let why = match Path::new(&name).extension() {
                    Some(ext) => format!("the ending `.{}`", ext.to_string_lossy()),
                    None => "a name without an ending".to_owned(),
                };
                Error::InvalidArgument(format!("cannot tell the output format from {why}"))
                    .with_path(store.id(&key))
            })?,
    };
    let mut at = Located::in_store(format, store, key);
    (format.row().output)(&mut at, options);
    if let Some(c) = options.compression {
        at.compression = c;
    }
    Ok(at)
}
