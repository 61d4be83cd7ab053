//! The entry points: [`open`], [`open_as`], [`create`], [`create_as`].
//! Each dispatches on the [`Format`] row to that format's source or sink.

use std::path::Path;

use super::detect::{Located, detect, output_format};
use super::format::Format;
use super::sink::TensorSink;
use super::source::{OpenOptions, TensorSource};
use crate::error::{Error, Result};

/// Opens the tensor file, directory or checkpoint at `path`, detecting its
/// format ([`detect`]).
///
/// # Errors
/// [`Error::NotFound`] when nothing readable is there (the message says
/// what was looked for); the format's errors, with the path as a field.
///
/// ```
/// use tftensor::io::{open, Format, TensorSource};
/// let src = open("tests/data/checkpoints/tf2_keras")?;
/// assert_eq!(src.format(), Format::Checkpoint);
/// assert!(src.entries().iter().any(|e| e.name == "step/.ATTRIBUTES/VARIABLE_VALUE"));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn open(path: impl AsRef<Path>) -> Result<Box<dyn TensorSource>> {
    open_located(&detect(path.as_ref())?, &OpenOptions::default())
}

/// Opens `path` as `format` (or as the detected format when `None`), with
/// `options`.
///
/// # Errors
/// As [`open`]; [`Error::InvalidArgument`] when this build cannot read
/// `format` (its cargo feature is off).
///
/// ```
/// use tftensor::io::{open_as, Format, OpenOptions, TensorSource};
/// let src = open_as("tests/data/checkpoints/tf2_keras", Some(Format::Checkpoint), &OpenOptions::default())?;
/// assert!(!src.entries().is_empty());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn open_as(
    path: impl AsRef<Path>,
    format: Option<Format>,
    options: &OpenOptions,
) -> Result<Box<dyn TensorSource>> {
    open_located(&locate(path.as_ref(), format)?, options)
}

/// Where `path` is read from and as what: [`detect`]'s answer, or `format`
/// when given (with the path resolved as that format resolves it). Fronts
/// call this to show [`Located::note`] before opening.
///
/// # Errors
/// As [`detect`], when no format is given.
///
/// ```
/// use tftensor::io::{locate, Format};
/// let at = locate("tests/data/tfrecord/tensors.gzip.tfrecord".as_ref(), Some(Format::TfRecord))?;
/// assert_eq!(at.compression, tftensor::tfrecord::Compression::Gzip);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn locate(path: &Path, format: Option<Format>) -> Result<Located> {
    Ok(match format {
        None => detect(path)?,
        Some(f) => {
            let detected = detect(path).ok().filter(|d| d.format == f);
            // Detection resolves paths (checkpoint prefixes); when it
            // disagrees with the user's format, the user's word wins.
            detected.unwrap_or_else(|| forced(path, f))
        }
    })
}

/// `path` read as `format` by the user's word.
fn forced(path: &Path, format: Format) -> Located {
    #[allow(unused_mut)] // set only with the `checkpoint` and `tfrecord` features
    let mut at = Located::new(format, path);
    #[cfg(feature = "tfrecord")]
    if format == Format::TfRecord {
        // A file that cannot be read here fails again, with its I/O
        // error, when the reader opens it.
        at.compression = super::detect::tfrecord_compression(path).unwrap_or_default();
    }
    #[cfg(feature = "checkpoint")]
    if format == Format::Checkpoint {
        if let Ok((prefix, note)) = crate::checkpoint::find_prefix(path) {
            at.path = prefix;
            at.note = note;
        }
    }
    at
}

fn unsupported(format: Format) -> Error {
    Error::InvalidArgument(format!(
        "this build of tftensor has no {format} support (its cargo feature is off)"
    ))
}

/// Opens an input whose format is known.
///
/// # Errors
/// As [`open`].
///
/// ```
/// use tftensor::io::{detect, open_located, OpenOptions};
/// let at = detect("tests/data/npy/float32.npy".as_ref())?;
/// assert_eq!(open_located(&at, &OpenOptions::default())?.entries().len(), 1);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn open_located(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let path = at.path.as_path();
    let _ = options;
    Ok(match at.format {
        #[cfg(feature = "checkpoint")]
        Format::Checkpoint => Box::new(super::formats::checkpoint::open(path, options.mmap)?),
        Format::TensorProto => Box::new(super::formats::tensorproto::open_file(path)?),
        Format::TensorProtoDir => Box::new(super::formats::tensorproto::open_dir(path)?),
        #[cfg(feature = "tfrecord")]
        Format::TfRecord => super::formats::tfrecord::open(path, at.compression)?,
        #[cfg(feature = "npy")]
        Format::Npy => Box::new(super::formats::npy::open_npy(path, options.npy_dtype)?),
        #[cfg(feature = "npy")]
        Format::Npz => super::formats::npy::open_npz(path, options.npy_dtype)?,
        #[cfg(feature = "safetensors")]
        Format::Safetensors => Box::new(super::formats::safetensors::open(path, options.mmap)?),
        #[cfg(feature = "keras")]
        Format::Keras => Box::new(super::formats::keras::open(path)?),
        #[cfg(feature = "saved_model")]
        Format::GraphDef => Box::new(super::formats::graph_def::open(path)?),
        #[cfg(feature = "events")]
        Format::Events => Box::new(super::formats::events::open(path)?),
        #[allow(unreachable_patterns)]
        other => return Err(unsupported(other)),
    })
}

/// Starts writing `path` as `format`. The output appears under `path` only
/// when the sink's [`finish`](TensorSink::finish) succeeds: it is written
/// under a temporary name beside it, flushed to disk, then renamed.
///
/// # Errors
/// [`Error::Io`] when the temporary cannot be created;
/// [`Error::InvalidArgument`] for a format this build cannot write.
///
/// ```
/// use tftensor::io::{create, Format, TensorSink};
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let p = tmp.path().join("create-doc.safetensors");
/// let mut sink = create(&p, Format::Safetensors)?;
/// sink.add("w", &tftensor::Tensor::from_vec([2], vec![1.0f32, 2.0])?)?;
/// drop(sink); // not finished: nothing written
/// assert!(!p.exists());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn create(path: impl AsRef<Path>, format: Format) -> Result<Box<dyn TensorSink>> {
    create_located(&output_format(path.as_ref(), Some(format))?)
}

/// Starts writing `path` in the format its name says
/// ([`output_format`]).
///
/// # Errors
/// As [`create`]; [`Error::InvalidArgument`] when the name says no format.
///
/// ```
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let p = tmp.path().join("create-as.npy");
/// let mut sink = tftensor::io::create_as(&p)?;
/// sink.add("x", &tftensor::Tensor::from(3i64))?;
/// sink.finish()?;
/// assert_eq!(tftensor::io::open(&p)?.read(0)?.as_slice::<i64>()?, [3]);
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn create_as(path: impl AsRef<Path>) -> Result<Box<dyn TensorSink>> {
    create_located(&output_format(path.as_ref(), None)?)
}

/// Starts writing an output whose format is resolved.
///
/// # Errors
/// As [`create`].
///
/// ```
/// let at = tftensor::io::output_format("/nonexistent-dir/x.npz".as_ref(), None)?;
/// assert!(tftensor::io::create_located(&at).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn create_located(at: &Located) -> Result<Box<dyn TensorSink>> {
    let path = at.path.as_path();
    Ok(match at.format {
        #[cfg(feature = "checkpoint")]
        Format::Checkpoint => Box::new(super::formats::checkpoint::create(path)?),
        Format::TensorProto => Box::new(super::formats::tensorproto::FileSink::create(path)?),
        Format::TensorProtoDir => Box::new(super::formats::tensorproto::DirSink::create(path)?),
        #[cfg(feature = "tfrecord")]
        Format::TfRecord => Box::new(super::formats::tfrecord::RecordsSink::create(
            path,
            at.compression,
        )?),
        #[cfg(feature = "npy")]
        Format::Npy => Box::new(super::formats::npy::NpySink::create(path)?),
        #[cfg(feature = "npy")]
        Format::Npz => Box::new(super::formats::npy::NpzSink::create(path)?),
        #[cfg(feature = "safetensors")]
        Format::Safetensors => {
            Box::new(super::formats::safetensors::SafetensorsSink::create(path)?)
        }
        #[cfg(feature = "keras")]
        Format::Keras => Box::new(super::formats::keras::create(path)?),
        #[allow(unreachable_patterns)]
        other => return Err(unsupported(other)),
    })
}
