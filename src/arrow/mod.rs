//! Apache Arrow for tensors and `tf.train.Example` records (feature
//! `arrow`).
//!
//! * Tensors as Arrow's canonical `arrow.fixed_shape_tensor` extension
//!   type, without copying either way: [`tensor_to_arrow`],
//!   [`arrow_to_tensor`], [`FixedShapeTensorMetadata`].
//! * Serialized `tf.train.Example` / `SequenceExample` records as a
//!   `RecordBatch` with tfx-bsl's schema-less decoder contract:
//!   [`ExamplesDecoder`], [`decode_examples`], [`decode_sequence_examples`].
//! * The same with a feature spec, as `tf.io.parse_example`:
//!   [`parse_examples`], [`FeatureSpec`]; and `SequenceExample`s with
//!   context and sequence specs, as `tf.io.parse_sequence_example`:
//!   [`parse_sequence_examples`], [`SequenceSpec`].
//! * Streaming batches from many files (globs, GZIP/ZLIB) in bounded
//!   memory, in one schema for the whole stream (an Arrow
//!   `RecordBatchReader`): [`read_examples_arrow`], [`ExampleBatches`].
//! * The schema of whole files, in bounded memory, and Arrow types in
//!   pyarrow's notation: [`examples_schema`], [`type_text`].
//! * The write direction, batches to `Example` records and TFRecord files:
//!   [`batch_to_examples`], [`write_examples_arrow`].
//!
//! ```
//! use tftensor::arrow::{arrow_to_tensor, tensor_to_arrow};
//! use tftensor::Tensor;
//!
//! let t = Tensor::from_vec([2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
//! let (field, array) = tensor_to_arrow(&t, "images")?;
//! assert_eq!(field.metadata()["ARROW:extension:name"], "arrow.fixed_shape_tensor");
//! let back = arrow_to_tensor(&field, array.as_ref())?;
//! assert_eq!(back.data_ptr(), t.data_ptr()); // zero-copy both ways
//! # Ok::<(), tftensor::Error>(())
//! ```

mod conform;
mod decode;
mod fixed_shape_tensor;
mod list_column;
mod schema;
mod sequence_spec;
mod spec;
mod stream;
mod tensor_metadata;
mod wire;
mod write;

pub use decode::{ExamplesDecoder, SEQUENCE_COLUMN};
pub use fixed_shape_tensor::{
    EXTENSION_METADATA_KEY, EXTENSION_NAME_KEY, FIXED_SHAPE_TENSOR, arrow_to_tensor,
    arrow_value_type, fixed_shape_tensor_metadata, tensor_to_arrow,
};
pub use schema::{ExamplesSchema, type_text};
pub use sequence_spec::{SequenceSpec, apply_sequence_spec, parse_sequence_examples};
pub use spec::{FeatureSpec, apply_spec, parse_examples};
pub use stream::{ExampleBatches, StreamOptions, examples_schema, read_examples_arrow};
pub use tensor_metadata::FixedShapeTensorMetadata;
pub use write::{batch_to_examples, write_examples_arrow};

/// Re-exported so users can name Arrow types without adding arrow-rs.
pub use arrow_array;
/// Re-exported for `Buffer`.
pub use arrow_buffer;
/// Re-exported for `Field`, `Schema` and `DataType`.
pub use arrow_schema;

use arrow_array::RecordBatch;
use list_column::Kind;

use crate::{Error, Result};

/// Decodes serialized `tf.train.Example` records into one batch, like
/// tfx-bsl's schema-less `ExamplesToRecordBatchDecoder().DecodeBatch`.
///
/// # Errors
/// As [`ExamplesDecoder::push`].
///
/// ```
/// let batch = tftensor::arrow::decode_examples(Vec::<Vec<u8>>::new())?;
/// assert_eq!((batch.num_rows(), batch.num_columns()), (0, 0));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn decode_examples<R: AsRef<[u8]>>(
    records: impl IntoIterator<Item = R>,
) -> Result<RecordBatch> {
    ExamplesDecoder::new().decode_all(records)
}

/// Decodes serialized `tf.train.SequenceExample` records into one batch,
/// like tfx-bsl's schema-less `SequenceExamplesToRecordBatchDecoder`.
///
/// # Errors
/// As [`ExamplesDecoder::push`].
pub fn decode_sequence_examples<R: AsRef<[u8]>>(
    records: impl IntoIterator<Item = R>,
) -> Result<RecordBatch> {
    ExamplesDecoder::sequence().decode_all(records)
}

/// The module's format errors: bad Arrow input or metadata.
fn invalid(message: impl Into<String>) -> Error {
    Error::invalid_format("arrow", message)
}

/// tfx-bsl's `DATA_LOSS: Unable to parse example.`, naming the record.
fn parse_error(at: &str) -> Error {
    Error::data_loss(format!("{at}: Unable to parse example."))
}

/// tfx-bsl's `INVALID_ARGUMENT` for a feature whose kind changes.
fn conflict_error(at: &str, name: &str, expected: Kind, found: Kind) -> Error {
    Error::InvalidArgument(format!(
        "{at}: Feature had wrong type, expected {}, found {} for feature \"{name}\"",
        expected.name(),
        found.name()
    ))
}

/// An inconsistency in the decoder itself.
fn internal(message: String) -> Error {
    invalid(message)
}
