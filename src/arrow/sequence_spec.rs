//! Decoding `tf.train.SequenceExample`s with a spec, in
//! `tf.io.parse_sequence_example` terms: context features as
//! [`parse_examples`](super::parse_examples) reads features, and sequence
//! features in the last `##SEQUENCE##` struct column, one child each, a
//! list of steps per record. `FixedLenSequenceFeature` steps are values
//! (`large_list<T>`) or fixed-size lists of them (`large_list<fixed_size_list<T>>`,
//! shape in the item's `arrow.fixed_shape_tensor` metadata); `VarLenFeature`
//! and `RaggedFeature` steps are lists (`large_list<large_list<T>>`). TF pads
//! its dense output to the longest record and returns the lengths; here
//! each record's list has its own length. TF's checks and error texts.

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, FixedSizeListArray, LargeListArray, RecordBatch, RecordBatchOptions,
    StructArray, new_empty_array,
};
use arrow_buffer::OffsetBuffer;
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};

use super::decode::{ExamplesDecoder, SEQUENCE_COLUMN};
use super::fixed_shape_tensor::{EXTENSION_METADATA_KEY, EXTENSION_NAME_KEY, FIXED_SHAPE_TENSOR};
use super::internal;
use super::list_column::item_field;
use super::spec::{FeatureSpec, apply_spec, tf_dtype, value_type};
use super::tensor_metadata::FixedShapeTensorMetadata;
use crate::{DataType, Error, Result};

/// A `tf.io.parse_sequence_example` spec: `context_features` (as
/// [`parse_examples`](super::parse_examples) takes them) and
/// `sequence_features` ([`FeatureSpec::FixedLenSequence`],
/// [`FeatureSpec::VarLen`], [`FeatureSpec::Ragged`]), each in its order.
///
/// ```
/// use tftensor::arrow::{FeatureSpec, SequenceSpec};
/// use tftensor::DataType;
/// let spec = SequenceSpec {
///     context: vec![("id".into(), FeatureSpec::VarLen { dtype: DataType::Int64 })],
///     sequence: vec![(
///         "tok".into(),
///         FeatureSpec::FixedLenSequence { dtype: DataType::Int64, shape: vec![], allow_missing: true },
///     )],
/// };
/// assert_eq!(spec.sequence.len(), 1);
/// ```
#[derive(Debug, Clone, Default)]
pub struct SequenceSpec {
    /// The context features.
    pub context: Vec<(String, FeatureSpec)>,
    /// The sequence features (feature lists).
    pub sequence: Vec<(String, FeatureSpec)>,
}

/// Decodes serialized `tf.train.SequenceExample` records with a spec, like
/// `tf.io.parse_sequence_example(records, context_features,
/// sequence_features)`: the context columns in spec order, then a
/// `##SEQUENCE##` struct with one child per sequence feature.
///
/// # Errors
/// TF's `InvalidArgument` texts (a required feature list missing, a step
/// with the wrong number of values, another kind than the spec's dtype),
/// those of [`parse_examples`](super::parse_examples) for the context, and
/// the decoder's.
///
/// ```
/// use tftensor::arrow::{parse_sequence_examples, FeatureSpec, SequenceSpec};
/// use tftensor::pb::{feature::Kind, Feature, FeatureList, FeatureLists, Int64List, SequenceExample};
/// use tftensor::prost::Message;
/// use tftensor::DataType;
///
/// let step = |v: i64| Feature { kind: Some(Kind::Int64List(Int64List { value: vec![v] })) };
/// let mut lists = FeatureLists::default();
/// lists.feature_list.insert("tok".into(), FeatureList { feature: vec![step(4), step(2)] });
/// let record = SequenceExample { context: None, feature_lists: Some(lists) }.encode_to_vec();
/// let tok = FeatureSpec::FixedLenSequence { dtype: DataType::Int64, shape: vec![], allow_missing: false };
/// let spec = SequenceSpec { context: vec![], sequence: vec![("tok".into(), tok)] };
/// let batch = parse_sequence_examples([&record], &spec)?;
/// assert_eq!(batch.schema().field(0).name(), "##SEQUENCE##");
/// assert!(parse_sequence_examples([&Vec::new()], &spec).is_err()); // tok is required
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn parse_sequence_examples<R: AsRef<[u8]>>(
    records: impl IntoIterator<Item = R>,
    spec: &SequenceSpec,
) -> Result<RecordBatch> {
    for (_, s) in spec.context.iter().chain(&spec.sequence) {
        value_type(s.dtype())?;
    }
    let decoder = ExamplesDecoder::sequence().only(spec.context.iter().map(|(n, _)| n.as_str()));
    let batch = decoder.decode_all(records)?;
    apply_sequence_spec(&batch, spec)
}

/// Applies `spec` to a schema-less `SequenceExample` batch (see
/// [`parse_sequence_examples`]).
///
/// # Errors
/// As [`parse_sequence_examples`].
///
/// ```
/// use tftensor::arrow::{apply_sequence_spec, decode_sequence_examples, SequenceSpec};
/// let batch = decode_sequence_examples([Vec::<u8>::new()])?;
/// let parsed = apply_sequence_spec(&batch, &SequenceSpec::default())?;
/// assert_eq!(parsed.num_columns(), 1); // the ##SEQUENCE## struct, with no children
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn apply_sequence_spec(batch: &RecordBatch, spec: &SequenceSpec) -> Result<RecordBatch> {
    let rows = batch.num_rows();
    let context: Vec<(&str, FeatureSpec)> = spec
        .context
        .iter()
        .map(|(n, s)| (n.as_str(), s.clone()))
        .collect();
    let context = apply_spec(batch, &context)?;
    let lists = batch
        .column_by_name(SEQUENCE_COLUMN)
        .and_then(|c| c.as_struct_opt());
    let mut fields = Vec::with_capacity(spec.sequence.len());
    let mut arrays = Vec::with_capacity(spec.sequence.len());
    for (name, s) in &spec.sequence {
        let child = lists.and_then(|l| l.column_by_name(name));
        let (field, array) = sequence_column(name, s, child, rows)?;
        fields.push(field);
        arrays.push(array);
    }
    let fields = Fields::from(fields);
    let lists = StructArray::try_new_with_length(fields, arrays, None, rows)
        .map_err(|e| internal(format!("sequence struct: {e}")))?;
    let mut schema: Vec<Field> = context
        .schema()
        .fields()
        .iter()
        .map(|f| f.as_ref().clone())
        .collect();
    schema.push(Field::new(
        SEQUENCE_COLUMN,
        lists.data_type().clone(),
        false,
    ));
    let mut columns = context.columns().to_vec();
    columns.push(Arc::new(lists));
    let options = RecordBatchOptions::new().with_row_count(Some(rows));
    RecordBatch::try_new_with_options(Arc::new(Schema::new(schema)), columns, &options)
        .map_err(|e| internal(format!("building the batch: {e}")))
}

/// One sequence feature's child: a list of steps per record.
fn sequence_column(
    name: &str,
    spec: &FeatureSpec,
    child: Option<&ArrayRef>,
    rows: usize,
) -> Result<(Field, ArrayRef)> {
    let dtype = spec.dtype();
    let value = value_type(dtype)?;
    let (outer, steps) = steps_of(name, dtype, &value, child, rows)?;
    let step_offsets = steps.value_offsets();
    let (item, values): (Field, ArrayRef) = match spec {
        FeatureSpec::VarLen { .. } | FeatureSpec::Ragged { .. } => {
            // Null steps (kind unset) are empty, so dropping the validity
            // makes them `[]`, as TF does.
            let (f, offsets, values, _) = steps.clone().into_parts();
            let list = LargeListArray::new(f, offsets, values, None);
            (
                Field::new("item", list.data_type().clone(), false),
                Arc::new(list),
            )
        }
        FeatureSpec::FixedLenSequence {
            shape,
            allow_missing,
            ..
        } => {
            let k = shape
                .iter()
                .try_fold(1usize, |a, &d| a.checked_mul(d))
                .ok_or_else(|| {
                    Error::InvalidArgument(format!("feature {name:?}: shape too large"))
                })?;
            check_fixed_steps(name, shape, k, *allow_missing, &outer, step_offsets)?;
            // Every step has k values, one after another.
            let range = step_offsets
                .first()
                .zip(step_offsets.last())
                .and_then(|(&first, &last)| {
                    Some((
                        usize::try_from(first).ok()?,
                        usize::try_from(last - first).ok()?,
                    ))
                })
                .ok_or_else(|| internal(format!("feature {name:?}: step offsets")))?;
            let values = steps.values().slice(range.0, range.1);
            if shape.is_empty() {
                (Field::new("item", value, false), values)
            } else {
                fixed_steps(name, dtype, shape, k, values, steps.len())?
            }
        }
        FeatureSpec::FixedLen { .. } => {
            return Err(Error::InvalidArgument(format!(
                "feature {name:?}: a sequence feature is a FixedLenSequenceFeature, \
                 VarLenFeature or RaggedFeature, not a FixedLenFeature"
            )));
        }
    };
    let list = LargeListArray::try_new(Arc::new(item), outer.offsets().clone(), values, None)
        .map_err(|e| internal(format!("sequence feature {name:?}: {e}")))?;
    Ok((
        Field::new(name, list.data_type().clone(), false),
        Arc::new(list),
    ))
}

/// TF's checks of a `FixedLenSequenceFeature`, in its order: a required
/// feature list that a record lacks; a record whose values in all do not
/// fill whole steps (`[?,2]`); then each step of `k` values (`Index` is
/// the step's within its record).
fn check_fixed_steps(
    name: &str,
    shape: &[usize],
    k: usize,
    allow_missing: bool,
    outer: &LargeListArray,
    step_offsets: &[i64],
) -> Result<()> {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    let at = |i: i64| {
        usize::try_from(i)
            .ok()
            .and_then(|i| step_offsets.get(i).copied())
            .ok_or_else(|| internal(format!("sequence feature {name:?}: step offsets")))
    };
    for (row, w) in outer.value_offsets().windows(2).enumerate() {
        let &[first, end] = w else { continue };
        if outer.is_null(row) {
            if allow_missing {
                continue;
            }
            return Err(Error::InvalidArgument(format!(
                "Name: <unknown>, Feature list '{name}' is required but could not be found.  \
                 Did you mean to include it in feature_list_dense_missing_assumed_empty or \
                 feature_list_dense_defaults?"
            )));
        }
        let total = at(end)? - at(first)?;
        if k != 0 && total % k as i64 != 0 {
            return Err(Error::InvalidArgument(format!(
                "Feature list '{name}' has an unexpected number of values.  Total values size: \
                 {total} is not consistent with output shape: [?,{}]",
                dims.join(",")
            )));
        }
        for (index, step) in (first..end).enumerate() {
            let len = at(step + 1)? - at(step)?;
            if usize::try_from(len).ok() != Some(k) {
                return Err(Error::InvalidArgument(format!(
                    "Name: <unknown>, Key: {name}, Index: {index}.  Number of values != \
                     expected.  values size: {len} but output shape: [{}]",
                    dims.join(",")
                )));
            }
        }
    }
    Ok(())
}

/// The records' lists of steps (null where a record lacks the feature
/// list) and the steps as `large_list<T>` (null where a step's kind is
/// unset), checked against `dtype`.
fn steps_of(
    name: &str,
    dtype: DataType,
    value: &ArrowType,
    child: Option<&ArrayRef>,
    rows: usize,
) -> Result<(LargeListArray, LargeListArray)> {
    let outer = match child.filter(|c| c.data_type() != &ArrowType::Null) {
        Some(c) => c
            .as_list_opt::<i64>()
            .ok_or_else(|| internal(format!("sequence feature {name:?} is not a list")))?
            .clone(),
        None => LargeListArray::new_null(item_field(ArrowType::Null), rows),
    };
    let n = outer.values().len();
    let steps = match outer.values().data_type() {
        // No step set a kind: every step is empty.
        ArrowType::Null => LargeListArray::new(
            item_field(value.clone()),
            OffsetBuffer::new_zeroed(n),
            new_empty_array(value),
            outer.values().logical_nulls(),
        ),
        _ => {
            let steps = outer
                .values()
                .as_list_opt::<i64>()
                .ok_or_else(|| internal(format!("sequence feature {name:?}: steps")))?;
            let found = tf_dtype(steps.values().data_type()).ok_or_else(|| {
                internal(format!(
                    "sequence feature {name:?}: an unexpected value type"
                ))
            })?;
            if found != dtype {
                // The first step that set a kind, counted within its record.
                // A kind is known only from a step that set one.
                let step = (0..steps.len())
                    .find(|&i| steps.is_valid(i))
                    .ok_or_else(|| internal(format!("sequence feature {name:?}: no kind")))?
                    as i64;
                let start = outer.value_offsets().partition_point(|&o| o <= step);
                let first = start
                    .checked_sub(1)
                    .and_then(|r| outer.value_offsets().get(r))
                    .copied()
                    .ok_or_else(|| internal(format!("sequence feature {name:?}: offsets")))?;
                return Err(Error::InvalidArgument(format!(
                    "Name: <unknown>, Feature list: {name}, Index: {}.  Data types don't match. \
                     Expected type: {}",
                    step - first,
                    dtype.name()
                )));
            }
            steps.clone()
        }
    };
    Ok((outer, steps))
}

/// Steps of `k` values as `fixed_size_list<T>[k]`, the step's shape in its
/// field's `arrow.fixed_shape_tensor` metadata (not for strings, which
/// pyarrow refuses as tensors).
fn fixed_steps(
    name: &str,
    dtype: DataType,
    shape: &[usize],
    k: usize,
    values: ArrayRef,
    steps: usize,
) -> Result<(Field, ArrayRef)> {
    let size = i32::try_from(k).map_err(|_| {
        Error::InvalidArgument(format!("feature {name:?}: a step exceeds i32 values"))
    })?;
    let item = Arc::new(Field::new("item", values.data_type().clone(), false));
    let array = FixedSizeListArray::try_new_with_length(item, size, values, None, steps)
        .map_err(|e| internal(format!("feature {name:?}: {e}")))?;
    let mut field = Field::new("item", array.data_type().clone(), false);
    if dtype != DataType::String {
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
