//! Records that hold tensors: `tf.io.serialize_tensor` /
//! `tf.io.parse_tensor` payloads.

use std::path::Path;

use bytes::Bytes;
use prost::Message;

use super::{Compression, RecordReader, RecordWriter};
use crate::{DataType, Error, Result, Tensor};

/// The bytes `tf.io.serialize_tensor` writes for `tensor`: TF's
/// `SerializeTensorOp` encodes strings with `AsProtoField` and every other
/// dtype with `AsProtoTensorContent`.
///
/// # Errors
/// As [`Tensor::as_proto_field`] / [`Tensor::as_proto_tensor_content`].
///
/// ```
/// use tftensor::tfrecord::serialize_tensor;
/// use tftensor::Tensor;
/// // tf.io.serialize_tensor(tf.constant(1.0)).numpy()
/// assert_eq!(serialize_tensor(&Tensor::from(1.0f32))?, b"\x08\x01\x12\x00\x22\x04\x00\x00\x80\x3f");
/// // tf.io.serialize_tensor(tf.constant(b"ab")).numpy()
/// assert_eq!(serialize_tensor(&Tensor::from("ab"))?, b"\x08\x07\x12\x00\x42\x02ab");
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn serialize_tensor(tensor: &Tensor) -> Result<Vec<u8>> {
    let proto = if tensor.dtype() == DataType::String {
        tensor.as_proto_field()?
    } else {
        tensor.as_proto_tensor_content()?
    };
    Ok(proto.encode_to_vec())
}

/// Parses a record as `tf.io.parse_tensor` does (with
/// [`Tensor::decode`]'s limits); the tensor adopts the record's bytes
/// without a copy where it can.
///
/// # Errors
/// [`Error::InvalidProto`] when the record is not a valid serialized
/// `TensorProto`, as [`Tensor::decode`].
///
/// ```
/// use tftensor::tfrecord::{parse_tensor, serialize_tensor};
/// use tftensor::Tensor;
/// let t = Tensor::from_vec([2, 2], vec![1i64, 2, 3, 4])?;
/// assert_eq!(parse_tensor(serialize_tensor(&t)?)?, t);
/// assert!(parse_tensor(Vec::new()).is_err()); // DT_INVALID
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn parse_tensor(record: impl Into<Bytes>) -> Result<Tensor> {
    Tensor::decode(record.into())
}

/// Reads every record of the TFRecord file at `path` as a serialized
/// tensor (`tf.data.TFRecordDataset(path, compression).map(parse_tensor)`).
///
/// # Errors
/// As [`RecordReader`] for the framing; a record that does not parse is an
/// [`Error::InvalidProto`] naming the file and the record's index.
///
/// ```
/// use tftensor::tfrecord::{read_tensors, Compression};
/// assert!(read_tensors("/no/such.tfrecord", Compression::None).is_err());
/// ```
pub fn read_tensors(path: impl AsRef<Path>, compression: Compression) -> Result<Vec<Tensor>> {
    let path = path.as_ref();
    let mut out = Vec::new();
    for (index, record) in RecordReader::open(path, compression)?.enumerate() {
        let tensor = parse_tensor(record?).map_err(|e| match e {
            Error::InvalidProto { message: m, source } => Error::InvalidProto {
                message: format!(
                    "{}: record {index} is not a serialized TensorProto: {m}",
                    path.display()
                ),
                source,
            },
            other => other,
        })?;
        out.push(tensor);
    }
    Ok(out)
}

/// Writes each tensor as one record of [`serialize_tensor`] bytes to a new
/// TFRecord file at `path` (what `tf.io.TFRecordWriter` writes for
/// `tf.io.serialize_tensor(t).numpy()`; byte-identical when uncompressed).
///
/// # Errors
/// [`Error::Io`] when the file cannot be written; as [`serialize_tensor`].
///
/// ```
/// use tftensor::tfrecord::{write_tensors, Compression};
/// use tftensor::Tensor;
/// assert!(write_tensors("/no/such/dir/t.tfrecord", Compression::None, &[Tensor::from(1i32)]).is_err());
/// ```
pub fn write_tensors(
    path: impl AsRef<Path>,
    compression: Compression,
    tensors: &[Tensor],
) -> Result<()> {
    let mut writer = RecordWriter::create(path, compression)?;
    for tensor in tensors {
        writer.write_record(&serialize_tensor(tensor)?)?;
    }
    writer.finish()?;
    Ok(())
}
