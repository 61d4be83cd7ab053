//! TFRecord files: TensorFlow's record stream (`tf.io.TFRecordWriter`,
//! `tf.data.TFRecordDataset`).
//!
//! * [`RecordReader`] and [`RecordWriter`]: the framing over any `Read` /
//!   `Write`, with both CRCs checked, and GZIP or ZLIB compression of the
//!   whole stream ([`Compression`], TF's `TFRecordOptions`).
//! * Records as tensors: [`read_tensors`], [`write_tensors`],
//!   [`serialize_tensor`] and [`parse_tensor`] (`tf.io.serialize_tensor` /
//!   `tf.io.parse_tensor` payloads).
//! * `tf.train.Example` records as named tensors: [`example_to_tensors`],
//!   [`tensors_to_example`], [`read_examples`], [`write_examples`].
//!
//! ```
//! use tftensor::tfrecord::{read_tensors, write_tensors, Compression};
//! use tftensor::Tensor;
//!
//! let tmp = tempfile::tempdir().unwrap(); // removed when dropped
//! let dir = tmp.path().join("tfrecord");
//! std::fs::create_dir_all(&dir).unwrap();
//! let path = dir.join("t.tfrecord.gz");
//! let tensors = [Tensor::from_vec([2], vec![1.0f32, 2.0])?, Tensor::from("text")];
//! write_tensors(&path, Compression::Gzip, &tensors)?;
//! assert_eq!(read_tensors(&path, Compression::Gzip)?, tensors);
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), tftensor::Error>(())
//! ```

mod example;
mod indexed;
mod record;
mod tensors;

pub use example::{
    example_to_tensors, parse_example, read_examples, tensors_to_example, write_examples,
};
pub(crate) use indexed::TensorRecords;
pub use record::{MAX_PREALLOCATION, RecordReader, RecordWriter};
pub use tensors::{parse_tensor, read_tensors, serialize_tensor, write_tensors};

use crate::{Error, Result};

/// How the whole stream of records is compressed (TF's
/// `TFRecordCompressionType`; `tf.io.TFRecordOptions(compression_type=...)`).
///
/// ```
/// use tftensor::tfrecord::Compression;
/// assert_eq!("GZIP".parse::<Compression>()?, Compression::Gzip);
/// assert_eq!("".parse::<Compression>()?, Compression::None);
/// assert_eq!(Compression::Zlib.as_str(), "ZLIB");
/// assert!("SNAPPY".parse::<Compression>().is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Compression {
    /// Records as they are (TF's `""` / `"NONE"`).
    #[default]
    None,
    /// A zlib stream (RFC 1950), TF's `"ZLIB"`.
    Zlib,
    /// A gzip stream (RFC 1952), TF's `"GZIP"`. Concatenated gzip members
    /// are read as one stream.
    Gzip,
}

impl Compression {
    /// TF's name for the compression type: `""`, `"ZLIB"` or `"GZIP"`.
    ///
    /// ```
    /// assert_eq!(tftensor::tfrecord::Compression::None.as_str(), "");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Zlib => "ZLIB",
            Compression::Gzip => "GZIP",
        }
    }
}

impl std::fmt::Display for Compression {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Compression::None => "NONE",
            other => other.as_str(),
        })
    }
}

impl std::str::FromStr for Compression {
    type Err = Error;

    /// TF's names, as `tf.io.TFRecordOptions` accepts them: `""`, `"NONE"`,
    /// `"ZLIB"`, `"GZIP"` (case-insensitive here).
    fn from_str(s: &str) -> Result<Self> {
        match s.to_ascii_uppercase().as_str() {
            "" | "NONE" => Ok(Compression::None),
            "ZLIB" => Ok(Compression::Zlib),
            "GZIP" => Ok(Compression::Gzip),
            _ => Err(Error::InvalidArgument(format!(
                "unsupported TFRecord compression type {s:?} (expected \"\", \"ZLIB\" or \"GZIP\")"
            ))),
        }
    }
}
