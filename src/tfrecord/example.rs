//! `tf.train.Example` records as named tensors.
//!
//! Each feature is a list, so each becomes a 1-D tensor: `bytes_list` →
//! `DT_STRING`, `float_list` → `DT_FLOAT`, `int64_list` → `DT_INT64`.

use std::collections::BTreeMap;
use std::path::Path;

use bytes::Bytes;
use prost::Message;

use super::{Compression, RecordReader, RecordWriter};
use crate::pb::{BytesList, Example, Feature, Features, FloatList, Int64List, feature::Kind};
use crate::{DataType, Error, Result, Tensor};

/// The features of `example` as 1-D tensors, by name: a `bytes_list` of
/// `n` values becomes a `DT_STRING` tensor of shape `[n]` (its elements
/// share the example's bytes), a `float_list` a `DT_FLOAT` one, an
/// `int64_list` a `DT_INT64` one.
///
/// # Errors
/// [`Error::InvalidFormat`] for a feature with no list set
/// (`tf.train.Feature()`): its dtype is unknown, and tftensor does not
/// guess one.
///
/// ```
/// use tftensor::pb::{feature::Kind, Example, Feature, Features, Int64List};
/// use tftensor::tfrecord::example_to_tensors;
///
/// let mut features = Features::default();
/// features.feature.insert(
///     "label".into(),
///     Feature { kind: Some(Kind::Int64List(Int64List { value: vec![3, 1] })) },
/// );
/// let named = example_to_tensors(&Example { features: Some(features) })?;
/// assert_eq!(named["label"].as_slice::<i64>()?, &[3, 1]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn example_to_tensors(example: &Example) -> Result<BTreeMap<String, Tensor>> {
    into_tensors(example.clone())
}

/// [`example_to_tensors`] of an owned example, moving its lists.
fn into_tensors(example: Example) -> Result<BTreeMap<String, Tensor>> {
    let mut out = BTreeMap::new();
    let Some(features) = example.features else {
        return Ok(out);
    };
    for (name, feature) in features.feature {
        let tensor = match feature.kind {
            Some(Kind::BytesList(l)) => list_tensor(l.value),
            Some(Kind::FloatList(l)) => list_tensor(l.value),
            Some(Kind::Int64List(l)) => list_tensor(l.value),
            None => Err(Error::invalid_format(
                "tf.train.Example",
                format!("feature {name:?} has no value list set, so its dtype is unknown"),
            )),
        }?;
        out.insert(name, tensor);
    }
    Ok(out)
}

fn list_tensor<T: crate::Element>(values: Vec<T>) -> Result<Tensor> {
    let n = i64::try_from(values.len()).map_err(|_| {
        Error::Overflow(crate::OverflowError::Size {
            what: "feature list length",
        })
    })?;
    Tensor::from_vec([n], values)
}

/// A `tf.train.Example` with one feature per named tensor: `DT_STRING` →
/// `bytes_list`, `DT_FLOAT` → `float_list`, `DT_INT64` → `int64_list`.
/// Tensors must be 1-D or scalars (a scalar is a one-value list, read
/// back with shape `[1]`), as `tf.io.parse_example` reads them.
///
/// # Errors
/// [`Error::UnsupportedDataType`] for any other dtype and
/// [`Error::InvalidShape`] for a rank above 1, naming the feature; a name
/// given twice is an [`Error::InvalidArgument`].
///
/// ```
/// use tftensor::tfrecord::{example_to_tensors, tensors_to_example};
/// use tftensor::Tensor;
///
/// let label = Tensor::from(7i64);
/// let weights = Tensor::from_vec([2], vec![0.5f32, 1.5])?;
/// let example = tensors_to_example([("label", &label), ("weights", &weights)])?;
/// let back = example_to_tensors(&example)?;
/// assert_eq!(back["label"].as_slice::<i64>()?, &[7]);
/// assert_eq!(back["weights"], weights);
///
/// let wrong = Tensor::from(1.0f64);
/// assert!(tensors_to_example([("x", &wrong)]).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn tensors_to_example<'a>(
    tensors: impl IntoIterator<Item = (&'a str, &'a Tensor)>,
) -> Result<Example> {
    let mut features = Features::default();
    for (name, tensor) in tensors {
        if tensor.dims() > 1 {
            return Err(Error::InvalidShape(crate::ShapeError::Other(format!(
                "tf.train.Example feature {name:?}: a feature is a list, so the tensor must be 1-D \
                 or a scalar, not of shape {}",
                tensor.shape()
            ))));
        }
        let kind = match tensor.dtype() {
            DataType::String => Kind::BytesList(BytesList {
                value: tensor.as_slice::<Bytes>()?.to_vec(),
            }),
            DataType::Float => Kind::FloatList(FloatList {
                value: tensor.as_slice::<f32>()?.to_vec(),
            }),
            DataType::Int64 => Kind::Int64List(Int64List {
                value: tensor.as_slice::<i64>()?.to_vec(),
            }),
            other => {
                return Err(Error::unsupported(
                    other,
                    format!(
                        "tf.train.Example feature {name:?}: dtype {other} has no feature list \
                     (string, float and int64 do)"
                    ),
                ));
            }
        };
        let previous = features
            .feature
            .insert(name.to_owned(), Feature { kind: Some(kind) });
        if previous.is_some() {
            return Err(Error::InvalidArgument(format!(
                "tf.train.Example feature {name:?} given twice"
            )));
        }
    }
    Ok(Example {
        features: Some(features),
    })
}

/// Parses a record as a serialized `tf.train.Example` and returns its
/// features as [`example_to_tensors`] does; `bytes_list` values are
/// slices of `record`, not copies.
///
/// # Errors
/// [`Error::InvalidProto`] when the bytes are not an `Example`; as
/// [`example_to_tensors`].
///
/// ```
/// use tftensor::prost::Message;
/// use tftensor::tfrecord::{parse_example, tensors_to_example};
/// use tftensor::Tensor;
///
/// let words = Tensor::from_vec([2], vec![tftensor::bytes::Bytes::from("a"), "bc".into()])?;
/// let record = tensors_to_example([("words", &words)])?.encode_to_vec();
/// assert_eq!(parse_example(record)?["words"], words);
/// assert!(parse_example(vec![0xff]).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn parse_example(record: impl Into<Bytes>) -> Result<BTreeMap<String, Tensor>> {
    let example = Example::decode(record.into()).map_err(|e| {
        Error::proto_decode(format!("Could not parse bytes as tf.train.Example: {e}"), e)
    })?;
    into_tensors(example)
}

/// Reads every record of the TFRecord file at `path` as a
/// `tf.train.Example`, returning each one's features as named tensors.
///
/// # Errors
/// As [`RecordReader`] for the framing and [`parse_example`] for each
/// record, with the file and the record (`record N`) as fields.
///
/// ```
/// use tftensor::tfrecord::{read_examples, Compression};
/// assert!(read_examples("/no/such.tfrecord", Compression::None).is_err());
/// ```
pub fn read_examples(
    path: impl AsRef<Path>,
    compression: Compression,
) -> Result<Vec<BTreeMap<String, Tensor>>> {
    let mut out = Vec::new();
    let reader = RecordReader::open(path, compression)?;
    let name = reader.name().to_owned();
    for (index, record) in reader.enumerate() {
        let named = parse_example(record?)
            .map_err(|e| e.with_path(&name).with_key(format_args!("record {index}")))?;
        out.push(named);
    }
    Ok(out)
}

/// Writes each map of named tensors as one serialized `tf.train.Example`
/// record (see [`tensors_to_example`]) to a new TFRecord file at `path`.
///
/// # Errors
/// [`Error::Io`] when the file cannot be written; as
/// [`tensors_to_example`].
///
/// ```
/// use std::collections::BTreeMap;
/// use tftensor::tfrecord::{read_examples, write_examples, Compression};
/// use tftensor::Tensor;
///
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let path = tmp.path().join("examples");
/// let one = BTreeMap::from([("y".to_string(), Tensor::from_vec([1], vec![2i64])?)]);
/// write_examples(&path, Compression::Zlib, &[one.clone(), one.clone()])?;
/// assert_eq!(read_examples(&path, Compression::Zlib)?, [one.clone(), one]);
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn write_examples(
    path: impl AsRef<Path>,
    compression: Compression,
    examples: &[BTreeMap<String, Tensor>],
) -> Result<()> {
    let mut writer = RecordWriter::create(path, compression)?;
    for named in examples {
        let example = tensors_to_example(named.iter().map(|(k, v)| (k.as_str(), v)))?;
        writer.write_record(&example.encode_to_vec())?;
    }
    writer.finish()?;
    Ok(())
}
