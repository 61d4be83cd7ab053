//! The entry points. Reading: [`open`] (the format detected), [`open_as`]
//! (a format given), [`open_with`] (options). Writing: [`create`] (the
//! format the name says), [`create_as`] (a format given), [`create_with`]
//! (options). `_as` means "as this format" on both sides. Each dispatches
//! through the format's row.

use std::path::Path;

use super::Format;
use super::detect::{locate, locate_output};
use super::located::Located;
use super::options::{CreateOptions, OpenOptions};
use super::sink::TensorSink;
use super::source::TensorSource;
use crate::error::Result;

/// Opens the tensor file, directory, checkpoint or URL at `path`,
/// detecting its format ([`detect`](super::detect)).
///
/// # Errors
/// [`Error::NotFound`](crate::Error::NotFound) when nothing is there;
/// [`Error::UnknownFormat`](crate::Error::UnknownFormat) when no format
/// claims it; the format's errors, with the path as a field.
///
/// ```
/// use tftensor::io::{open, Format, TensorSource};
/// let src = open("tests/data/checkpoints/tf2_keras")?;
/// assert_eq!(src.format(), Format::CHECKPOINT);
/// assert!(src.entries().iter().any(|e| e.name == "step/.ATTRIBUTES/VARIABLE_VALUE"));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn open(path: impl AsRef<Path>) -> Result<Box<dyn TensorSource>> {
    open_with(path, &OpenOptions::default())
}

/// Opens `path` as `format`.
///
/// # Errors
/// As [`open`]; [`Error::InvalidArgument`](crate::Error::InvalidArgument)
/// when this build cannot read `format` (its cargo feature is off).
///
/// ```
/// use tftensor::io::{open_as, Format, TensorSource};
/// let src = open_as("tests/data/checkpoints/tf2_keras", Format::CHECKPOINT)?;
/// assert!(!src.entries().is_empty());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn open_as(path: impl AsRef<Path>, format: Format) -> Result<Box<dyn TensorSource>> {
    open_with(path, &OpenOptions::default().with_format(format))
}

/// Opens `path` with `options` (a format, an npy dtype, a compression,
/// memory maps).
///
/// # Errors
/// As [`open_as`].
///
/// ```
/// use tftensor::{io::{open_with, OpenOptions}, DataType};
/// let src = open_with("tests/data/npy/arrays.npz", &OpenOptions::default().with_npy_dtype(DataType::BFloat16))?;
/// assert!(src.entries().iter().any(|e| e.dtype == DataType::BFloat16));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn open_with(path: impl AsRef<Path>, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    open_located(&locate(path, options)?, options)
}

/// Opens an input whose format is known.
///
/// # Errors
/// As [`open`].
///
/// ```
/// use tftensor::io::{detect, open_located, OpenOptions};
/// let at = detect("tests/data/npy/float32.npy")?;
/// assert_eq!(open_located(&at, &OpenOptions::default())?.entries().len(), 1);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn open_located(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    (at.format.row().open)(at, options).map_err(|e| e.with_path(at.id()))
}

/// Starts writing `path` in the format its name says
/// ([`locate_output`](super::locate_output)). The output appears under
/// `path` only when the sink's [`finish`](TensorSink::finish) succeeds: it
/// is written under a temporary name beside it, flushed, then renamed.
///
/// # Errors
/// [`Error::InvalidArgument`](crate::Error::InvalidArgument) when the name
/// says no format; [`Error::Io`](crate::Error::Io) when the temporary
/// cannot be created.
///
/// ```
/// let tmp = tempfile::tempdir().unwrap();
/// let p = tmp.path().join("x.npy");
/// let mut sink = tftensor::io::create(&p)?;
/// sink.add("x", &tftensor::Tensor::from(3i64))?;
/// sink.finish()?;
/// assert_eq!(tftensor::io::open(&p)?.read(0)?.as_slice::<i64>()?, [3]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn create(path: impl AsRef<Path>) -> Result<Box<dyn TensorSink>> {
    create_with(path, &CreateOptions::default())
}

/// Starts writing `path` as `format`.
///
/// # Errors
/// As [`create`]; [`Error::InvalidArgument`](crate::Error::InvalidArgument)
/// for a format this build cannot write.
///
/// ```
/// use tftensor::io::{create_as, Format, TensorSink};
/// let tmp = tempfile::tempdir().unwrap();
/// let p = tmp.path().join("weights");
/// let mut sink = create_as(&p, Format::SAFETENSORS)?;
/// sink.add("w", &tftensor::Tensor::from_vec([2], vec![1.0f32, 2.0])?)?;
/// drop(sink); // not finished: nothing written
/// assert!(!p.exists());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn create_as(path: impl AsRef<Path>, format: Format) -> Result<Box<dyn TensorSink>> {
    create_with(path, &CreateOptions::default().with_format(format))
}

/// Starts writing `path` with `options` (a format, a compression,
/// metadata).
///
/// # Errors
/// As [`create_as`].
///
/// ```
/// use tftensor::io::{create_with, Compression, CreateOptions};
/// let tmp = tempfile::tempdir().unwrap();
/// let p = tmp.path().join("t.tfrecord");
/// let mut sink = create_with(&p, &CreateOptions::default().with_compression(Compression::Gzip))?;
/// sink.add("0", &tftensor::Tensor::from(1.5f32))?;
/// sink.finish()?;
/// assert!(std::fs::read(&p)?.starts_with(b"\x1f\x8b"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn create_with(path: impl AsRef<Path>, options: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    create_located(&locate_output(path, options)?, options)
}

/// Starts writing an output whose format is resolved.
///
/// # Errors
/// As [`create`].
///
/// ```
/// use tftensor::io::{create_located, locate_output, CreateOptions};
/// let at = locate_output("/nonexistent-dir/x.npz", &CreateOptions::default())?;
/// assert!(create_located(&at, &CreateOptions::default()).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn create_located(at: &Located, options: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    let create = at.format.row().create.ok_or_else(|| {
        crate::Error::InvalidArgument(format!(
            "{} is read only: tftensor does not write it",
            at.format
        ))
    })?;
    let sink = create(at, options).map_err(|e| e.with_path(at.id()))?;
    Ok(Box::new(super::sink::Output(sink)))
}
