//! TFRecord files: TensorFlow's record stream (`tf.io.TFRecordWriter`,
//! `tf.data.TFRecordDataset`).
//!
//! * [`RecordReader`] and [`RecordWriter`]: the framing over any `Read` /
//!   `Write` (a local file, or any [`Blob`](crate::io::Blob) through
//!   [`RecordReader::from_blob`]), with both CRCs checked, and GZIP or ZLIB
//!   compression of the whole stream ([`Compression`], TF's
//!   `TFRecordOptions`).
//! * Records as tensors: [`read_tensors`], [`write_tensors`],
//!   [`serialize_tensor`] and [`parse_tensor`] (`tf.io.serialize_tensor` /
//!   `tf.io.parse_tensor` payloads).
//! * Random access: [`index_records`] (DALI's `.idx`: [`format_index`],
//!   [`parse_index`]) and [`RecordFile`], records by number.
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
mod frames;
mod idx;
mod indexed;
mod listed_examples;
mod record;
mod tensors;

pub use example::{
    example_to_tensors, parse_example, read_examples, tensors_to_example, write_examples,
};
pub use idx::{RecordFile, format_index, index_blob, index_records, parse_index, write_index};
pub(crate) use indexed::TensorRecords;
pub(crate) use listed_examples::ExampleRecords;
pub use record::{MAX_PREALLOCATION, RecordReader, RecordWriter};
pub use tensors::{parse_tensor, read_tensors, serialize_tensor, write_tensors};

pub use crate::io::Compression;
