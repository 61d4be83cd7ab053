//! The write direction: `RecordBatch` rows as `tf.train.Example` records,
//! and those as a TFRecord file TF reads.
//!
//! Each column is a feature; a row's null is an absent feature. Lists,
//! fixed-size lists (so `arrow.fixed_shape_tensor`, flattened row-major)
//! and plain values (one per row) of integers and bools become
//! `int64_list`, of floats `float_list` (f64 rounded to f32, as
//! `tf.train.FloatList` does), of binary or string `bytes_list`; a `null`
//! column gives every record a `Feature()` with no kind (what the decoder
//! reads as a `null` column).

use std::path::Path;

use arrow_array::cast::AsArray;
use arrow_array::types::{
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, RecordBatch};
use arrow_schema::DataType as ArrowType;
use prost::Message;

use super::invalid;
use crate::Result;
use crate::pb::{BytesList, Example, Feature, Features, FloatList, Int64List, feature::Kind};
use crate::tfrecord::{Compression, RecordWriter};

/// The rows of `batch` as `tf.train.Example` messages.
///
/// # Errors
/// A column type with no `Feature` kind (struct, map, union, decimal,
/// temporal types), a `uint64` over `i64::MAX`, or a null inside a list.
///
/// ```
/// use tftensor::arrow::{batch_to_examples, decode_examples};
/// use tftensor::prost::Message;
///
/// let empty = tftensor::pb::Example::default().encode_to_vec();
/// let batch = decode_examples([empty])?;
/// assert_eq!(batch_to_examples(&batch)?, vec![tftensor::pb::Example::default()]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn batch_to_examples(batch: &RecordBatch) -> Result<Vec<Example>> {
    let schema = batch.schema();
    let mut out = vec![Features::default(); batch.num_rows()];
    for (field, column) in schema.fields().iter().zip(batch.columns()) {
        if column.data_type() == &ArrowType::Null {
            // No kind known: `Feature()` with no list, as the decoder read it.
            for features in &mut out {
                features
                    .feature
                    .insert(field.name().clone(), Feature::default());
            }
            continue;
        }
        for (row, features) in out.iter_mut().enumerate() {
            if column.is_null(row) {
                continue;
            }
            let values = row_values(column, row)
                .map_err(|m| invalid(format!("column {:?}, row {row}: {m}", field.name())))?;
            features.feature.insert(field.name().clone(), values);
        }
    }
    Ok(out
        .into_iter()
        // No features: `Example()`, as TF writes it (empty bytes).
        .map(|f| Example {
            features: (!f.feature.is_empty()).then_some(f),
        })
        .collect())
}

/// Row `row` of `column` as one `Feature`.
fn row_values(column: &ArrayRef, row: usize) -> std::result::Result<Feature, String> {
    let values = match column.data_type() {
        ArrowType::List(_) => column.as_list::<i32>().value(row),
        ArrowType::LargeList(_) => column.as_list::<i64>().value(row),
        ArrowType::FixedSizeList(..) => column.as_fixed_size_list().value(row),
        _ => column.slice(row, 1),
    };
    if values.null_count() != 0 {
        return Err("a list holds a null; tf.train.Feature lists cannot".into());
    }
    let kind = feature_kind(values.as_ref())?;
    Ok(Feature { kind: Some(kind) })
}

fn feature_kind(a: &dyn Array) -> std::result::Result<Kind, String> {
    macro_rules! ints {
        ($t:ty) => {
            Kind::Int64List(Int64List {
                value: a
                    .as_primitive::<$t>()
                    .values()
                    .iter()
                    .map(|&v| i64::from(v))
                    .collect(),
            })
        };
    }
    macro_rules! floats {
        ($t:ty, $f:expr) => {
            Kind::FloatList(FloatList {
                value: a.as_primitive::<$t>().values().iter().map($f).collect(),
            })
        };
    }
    let bytes = |it: &mut dyn Iterator<Item = Option<&[u8]>>| {
        Kind::BytesList(BytesList {
            // No nulls (checked by the caller).
            value: it
                .map(|v| bytes::Bytes::copy_from_slice(v.unwrap_or_default()))
                .collect(),
        })
    };
    Ok(match a.data_type() {
        ArrowType::Int8 => ints!(Int8Type),
        ArrowType::Int16 => ints!(Int16Type),
        ArrowType::Int32 => ints!(Int32Type),
        ArrowType::Int64 => ints!(Int64Type),
        ArrowType::UInt8 => ints!(UInt8Type),
        ArrowType::UInt16 => ints!(UInt16Type),
        ArrowType::UInt32 => ints!(UInt32Type),
        ArrowType::UInt64 => Kind::Int64List(Int64List {
            value: a
                .as_primitive::<UInt64Type>()
                .values()
                .iter()
                .map(|&v| i64::try_from(v).map_err(|_| format!("uint64 {v} exceeds int64")))
                .collect::<std::result::Result<_, _>>()?,
        }),
        ArrowType::Boolean => Kind::Int64List(Int64List {
            value: a.as_boolean().values().iter().map(i64::from).collect(),
        }),
        ArrowType::Float16 => floats!(Float16Type, |v| v.to_f32()),
        ArrowType::Float32 => floats!(Float32Type, |&v| v),
        // tf.train.FloatList holds f32: f64 rounds, as in Python.
        ArrowType::Float64 => floats!(Float64Type, |&v| v as f32),
        ArrowType::Binary => bytes(&mut a.as_binary::<i32>().iter()),
        ArrowType::LargeBinary => bytes(&mut a.as_binary::<i64>().iter()),
        ArrowType::Utf8 => bytes(&mut a.as_string::<i32>().iter().map(|s| s.map(str::as_bytes))),
        ArrowType::LargeUtf8 => {
            bytes(&mut a.as_string::<i64>().iter().map(|s| s.map(str::as_bytes)))
        }
        other => return Err(format!("Arrow type {other} has no tf.train.Feature kind")),
    })
}

/// Writes the rows of `batches` as `tf.train.Example` records to a
/// TFRecord file (`tf.data.TFRecordDataset` reads it); returns the number
/// of records.
///
/// # Errors
/// As [`batch_to_examples`], and I/O errors.
pub fn write_examples_arrow<'a>(
    path: impl AsRef<Path>,
    compression: Compression,
    batches: impl IntoIterator<Item = &'a RecordBatch>,
) -> Result<u64> {
    let mut writer = RecordWriter::create(path.as_ref(), compression)?;
    let mut n = 0u64;
    for batch in batches {
        for example in batch_to_examples(batch)? {
            writer.write_record(&example.encode_to_vec())?;
            n += 1;
        }
    }
    writer.finish()?;
    Ok(n)
}
