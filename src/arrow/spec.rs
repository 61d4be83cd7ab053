//! Decoding with a feature spec, in `tf.io.parse_example` terms:
//! `FixedLenFeature` → a dense column (`arrow.fixed_shape_tensor` for a
//! non-scalar shape), `VarLenFeature` and `RaggedFeature` → `large_list`
//! columns (the ragged view: `row_splits` = offsets). TF's checks and
//! error texts: a wrong value count, a missing feature without default,
//! a kind other than the spec's dtype.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::types::{Float32Type, Int64Type};
use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, Float32Array, Int64Array, LargeBinaryArray,
    LargeListArray, RecordBatch,
};
use arrow_schema::{DataType as ArrowType, Field, Schema};
use bytes::Bytes;

use super::decode::ExamplesDecoder;
use super::fixed_shape_tensor::{EXTENSION_METADATA_KEY, EXTENSION_NAME_KEY, FIXED_SHAPE_TENSOR};
use super::list_column::item_field;
use super::tensor_metadata::FixedShapeTensorMetadata;
use super::{internal, invalid};
use crate::{DataType, Error, Result, Tensor};

/// One feature of a spec (`tf.io.*Feature`). Dtypes: `DT_INT64`,
/// `DT_FLOAT`, `DT_STRING`.
#[derive(Debug, Clone)]
pub enum FeatureSpec {
    /// `tf.io.FixedLenFeature(shape, dtype, default_value)`: every record
    /// has exactly `prod(shape)` values, or none and then `default`
    /// (`num_elements` = `prod(shape)`, same dtype) is used.
    FixedLen {
        /// The dtype.
        dtype: DataType,
        /// One record's shape.
        shape: Vec<usize>,
        /// The value for a record without the feature.
        default: Option<Tensor>,
    },
    /// `tf.io.VarLenFeature(dtype)`: any number of values; missing → `[]`.
    VarLen {
        /// The dtype.
        dtype: DataType,
    },
    /// `tf.io.RaggedFeature(dtype)` without partitions: as `VarLen`, read
    /// as a ragged tensor (`row_splits` = the list offsets).
    Ragged {
        /// The dtype.
        dtype: DataType,
    },
    /// `tf.io.FixedLenSequenceFeature(shape, dtype, allow_missing)`, a
    /// sequence feature of a [`SequenceSpec`](super::SequenceSpec): every
    /// step has exactly `prod(shape)` values; a record without the feature
    /// list is an error unless `allow_missing` (then it has no steps).
    /// TF's `default_value` only pads a dense batch; Arrow's lists need no
    /// padding.
    FixedLenSequence {
        /// The dtype.
        dtype: DataType,
        /// One step's shape.
        shape: Vec<usize>,
        /// Whether a record may lack the feature list.
        allow_missing: bool,
    },
}

impl FeatureSpec {
    pub(super) fn dtype(&self) -> DataType {
        match self {
            FeatureSpec::FixedLen { dtype, .. }
            | FeatureSpec::VarLen { dtype }
            | FeatureSpec::Ragged { dtype }
            | FeatureSpec::FixedLenSequence { dtype, .. } => *dtype,
        }
    }
}

/// TF's dtype of a decoded list's values.
pub(super) fn tf_dtype(t: &ArrowType) -> Option<DataType> {
    match t {
        ArrowType::Int64 => Some(DataType::Int64),
        ArrowType::Float32 => Some(DataType::Float),
        ArrowType::LargeBinary => Some(DataType::String),
        _ => None,
    }
}

pub(super) fn value_type(dtype: DataType) -> Result<ArrowType> {
    match dtype {
        DataType::Int64 => Ok(ArrowType::Int64),
        DataType::Float => Ok(ArrowType::Float32),
        DataType::String => Ok(ArrowType::LargeBinary),
        other => Err(Error::InvalidArgument(format!(
            "feature spec dtype must be int64, float or string, got {other}"
        ))),
    }
}

/// Decodes serialized `tf.train.Example` records with a feature spec,
/// like `tf.io.parse_example(records, spec)`: one column per spec entry,
/// in spec order; features not in the spec are skipped.
///
/// # Errors
/// TF's `InvalidArgument` texts, naming the record by index:
/// `Name: <unknown>, Key: fi, Index: 0.  Number of int64 values !=
/// expected.  Values size: 2 but output shape: [3]`, `Name: <unknown>,
/// Feature: ff (data type: float) is required but could not be found.`,
/// `... Data types don't match. Data type: int64 but expected type:
/// float`; and the errors of [`ExamplesDecoder::push`].
///
/// ```
/// use tftensor::arrow::{parse_examples, FeatureSpec};
/// use tftensor::pb::{feature::Kind, Example, Feature, Features, FloatList};
/// use tftensor::prost::Message;
/// use tftensor::DataType;
///
/// let mut features = Features::default();
/// features.feature.insert(
///     "xy".into(),
///     Feature { kind: Some(Kind::FloatList(FloatList { value: vec![1.0, 2.0] })) },
/// );
/// let record = Example { features: Some(features) }.encode_to_vec();
/// let spec = [("xy", FeatureSpec::FixedLen { dtype: DataType::Float, shape: vec![2], default: None })];
/// let batch = parse_examples([&record, &record], &spec)?;
/// assert_eq!(batch.num_rows(), 2);
/// assert!(parse_examples([&record, &Vec::new()], &spec).is_err()); // missing, no default
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn parse_examples<R: AsRef<[u8]>>(
    records: impl IntoIterator<Item = R>,
    spec: &[(&str, FeatureSpec)],
) -> Result<RecordBatch> {
    for (_, s) in spec {
        value_type(s.dtype())?;
    }
    let decoder = ExamplesDecoder::new().only(spec.iter().map(|(n, _)| *n));
    let batch = decoder.decode_all(records)?;
    apply_spec(&batch, spec)
}

/// Applies `spec` to a schema-less batch (see [`parse_examples`]).
///
/// # Errors
/// As [`parse_examples`].
pub fn apply_spec(batch: &RecordBatch, spec: &[(&str, FeatureSpec)]) -> Result<RecordBatch> {
    let rows = batch.num_rows();
    let mut fields = Vec::with_capacity(spec.len());
    let mut columns = Vec::with_capacity(spec.len());
    for (name, s) in spec {
        let list = lists(batch.column_by_name(name), name, s.dtype(), rows)?;
        let (field, column) = match s {
            FeatureSpec::VarLen { .. } | FeatureSpec::Ragged { .. } => {
                // Null slots are empty, so dropping the validity makes
                // missing features `[]`, as TF does.
                let (f, offsets, values, _) = list.into_parts();
                let a = LargeListArray::new(f, offsets, values, None);
                (
                    Field::new(*name, a.data_type().clone(), false),
                    Arc::new(a) as ArrayRef,
                )
            }
            FeatureSpec::FixedLen {
                dtype,
                shape,
                default,
            } => fixed_len(name, *dtype, shape, default.as_ref(), &list)?,
            FeatureSpec::FixedLenSequence { .. } => {
                return Err(Error::InvalidArgument(format!(
                    "feature {name:?}: a FixedLenSequenceFeature is a sequence feature \
                     (a SequenceSpec's sequence features)"
                )));
            }
        };
        fields.push(field);
        columns.push(column);
    }
    let options = arrow_array::RecordBatchOptions::new().with_row_count(Some(rows));
    RecordBatch::try_new_with_options(Arc::new(Schema::new(fields)), columns, &options)
        .map_err(|e| internal(format!("building the batch: {e}")))
}

/// The column of `name` as `large_list<T>` of `dtype`, nulls where the
/// feature is missing or its kind unset.
fn lists(
    column: Option<&ArrayRef>,
    name: &str,
    dtype: DataType,
    rows: usize,
) -> Result<LargeListArray> {
    let value = value_type(dtype)?;
    let Some(column) = column.filter(|c| c.data_type() != &ArrowType::Null) else {
        return Ok(LargeListArray::new_null(item_field(value), rows));
    };
    let list = column
        .as_list_opt::<i64>()
        .ok_or_else(|| invalid(format!("feature {name:?} is not a list column")))?;
    let found = tf_dtype(list.values().data_type())
        .ok_or_else(|| invalid(format!("feature {name:?} has an unexpected value type")))?;
    if found != dtype {
        // A kind is only known from a valid row, so one exists.
        let index = (0..list.len()).find(|&i| list.is_valid(i)).unwrap_or(0);
        return Err(Error::InvalidArgument(format!(
            "Name: <unknown>, Key: {name}, Index: {index}.  Data types don't match. Data type: {} but expected type: {}",
            found.name(),
            dtype.name()
        )));
    }
    Ok(list.clone())
}

/// A `FixedLenFeature` column: TF's checks, then the dense values.
pub(super) fn fixed_len(
    name: &str,
    dtype: DataType,
    shape: &[usize],
    default: Option<&Tensor>,
    list: &LargeListArray,
) -> Result<(Field, ArrayRef)> {
    let k = shape
        .iter()
        .try_fold(1usize, |a, &d| a.checked_mul(d))
        .ok_or_else(|| Error::InvalidArgument(format!("feature {name:?}: shape too large")))?;
    let shape_text = format!(
        "[{}]",
        shape
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(",")
    );
    if let Some(d) = default {
        if d.dtype() != dtype || usize::try_from(d.num_elements()).ok() != Some(k) {
            return Err(Error::InvalidArgument(format!(
                "feature {name:?}: default_value must be {} with shape {shape_text}, got {} {}",
                dtype.name(),
                d.dtype().name(),
                d.shape()
            )));
        }
    }
    let offsets = list.value_offsets();
    for (row, w) in offsets.windows(2).enumerate() {
        // `windows(2)` yields exactly two offsets.
        let len = w.get(1).zip(w.first()).map_or(0, |(b, a)| b - a);
        if list.is_null(row) {
            if default.is_none() {
                return Err(Error::InvalidArgument(format!(
                    "Name: <unknown>, Feature: {name} (data type: {}) is required but could not be found.",
                    dtype.name()
                )));
            }
        } else if usize::try_from(len).ok() != Some(k) {
            return Err(Error::InvalidArgument(format!(
                "Name: <unknown>, Key: {name}, Index: {row}.  Number of {} values != expected.  Values size: {len} but output shape: {shape_text}",
                dtype.name()
            )));
        }
    }
    // Every row is valid with k values, or null and takes the default
    // (which then exists: checked above; `[]` stands for "none" only when
    // no row needs it).
    let take = |row: usize| list.is_valid(row);
    let values: ArrayRef = match dtype {
        DataType::Int64 => {
            let src = list.values().as_primitive::<Int64Type>().values();
            let d = default.map(|d| d.as_slice::<i64>()).transpose()?;
            Arc::new(Int64Array::from(dense(
                offsets,
                take,
                src,
                d.unwrap_or(&[]), // "none": no row needs it (checked above)
            )))
        }
        DataType::Float => {
            let src = list.values().as_primitive::<Float32Type>().values();
            let d = default.map(|d| d.as_slice::<f32>()).transpose()?;
            Arc::new(Float32Array::from(dense(
                offsets,
                take,
                src,
                d.unwrap_or(&[]), // "none": no row needs it (checked above)
            )))
        }
        _ => {
            let src = list.values().as_binary::<i64>();
            // The decoder's binary children have no nulls.
            let all: Vec<&[u8]> = src.iter().map(|v| v.unwrap_or_default()).collect();
            let d: Vec<&[u8]> = match default {
                Some(t) => t.as_slice::<Bytes>()?.iter().map(|b| b.as_ref()).collect(),
                None => Vec::new(),
            };
            Arc::new(LargeBinaryArray::from_vec(dense(offsets, take, &all, &d)))
        }
    };
    if shape.is_empty() {
        return Ok((Field::new(name, values.data_type().clone(), false), values));
    }
    let size = i32::try_from(k).map_err(|_| invalid("fixed-length feature exceeds i32 values"))?;
    let item = Arc::new(Field::new("item", values.data_type().clone(), false));
    let array = FixedSizeListArray::try_new_with_length(item, size, values, None, list.len())
        .map_err(|e| internal(format!("feature {name:?}: {e}")))?;
    let mut field = Field::new(name, array.data_type().clone(), false);
    if dtype != DataType::String {
        // pyarrow refuses string tensors; those stay plain fixed-size lists.
        let md = FixedShapeTensorMetadata {
            shape: shape.to_vec(),
            ..FixedShapeTensorMetadata::default()
        };
        field = field.with_metadata(HashMap::from([
            (EXTENSION_NAME_KEY.to_owned(), FIXED_SHAPE_TENSOR.to_owned()),
            (EXTENSION_METADATA_KEY.to_owned(), md.to_json()),
        ]));
    }
    Ok((field, Arc::new(array)))
}

/// Each row's values, or the default for a null row.
pub(super) fn dense<T: Copy>(
    offsets: &[i64],
    valid: impl Fn(usize) -> bool,
    src: &[T],
    default: &[T],
) -> Vec<T> {
    let mut out = Vec::with_capacity(src.len());
    for (row, w) in offsets.windows(2).enumerate() {
        if valid(row) {
            let (a, b) = (w.first().copied(), w.get(1).copied());
            let range = a
                .zip(b)
                .and_then(|(a, b)| Some(usize::try_from(a).ok()?..usize::try_from(b).ok()?));
            // Arrow validated the offsets against the values, so the range
            // is always there; `[]` only guards the impossible.
            out.extend_from_slice(range.and_then(|r| src.get(r)).unwrap_or_default());
        } else {
            out.extend_from_slice(default);
        }
    }
    out
}
