//! A schema-less batch in a stream's one schema: a column the batch lacks,
//! or has only as `null` (no record of the batch set its kind), becomes an
//! all-null column of the schema's type, inside lists and the
//! `##SEQUENCE##` struct too; a column the schema does not have is left
//! out (tfx-bsl's schema-ful decoder ignores features outside its schema);
//! a kind other than the schema's is tfx-bsl's `Feature had wrong type`.

use std::sync::Arc;

use arrow_array::cast::AsArray;
use arrow_array::{
    Array, ArrayRef, LargeListArray, RecordBatch, RecordBatchOptions, StructArray, new_null_array,
};
use arrow_schema::{DataType as ArrowType, Field, FieldRef, Fields, SchemaRef};

use super::internal;
use super::schema::kind_text;
use crate::{Error, Result};

/// `batch` with exactly `schema`'s columns, in its order.
///
/// # Errors
/// [`Error::InvalidArgument`] (tfx-bsl's text) for a column whose type
/// differs from the schema's other than by `null`.
pub(crate) fn conform(batch: &RecordBatch, schema: &SchemaRef) -> Result<RecordBatch> {
    if batch.schema() == *schema {
        return Ok(batch.clone());
    }
    let rows = batch.num_rows();
    let columns = schema
        .fields()
        .iter()
        .map(|f| match batch.column_by_name(f.name()) {
            Some(c) => column(c, f),
            None => Ok(new_null_array(f.data_type(), rows)),
        })
        .collect::<Result<Vec<_>>>()?;
    let options = RecordBatchOptions::new().with_row_count(Some(rows));
    RecordBatch::try_new_with_options(schema.clone(), columns, &options)
        .map_err(|e| internal(format!("conforming a batch: {e}")))
}

/// One column as `field`'s type; a kind other than the schema's is
/// tfx-bsl's error, naming the feature (a sequence feature by its own
/// name).
fn column(array: &ArrayRef, field: &Field) -> Result<ArrayRef> {
    if let (ArrowType::Struct(_), ArrowType::Struct(children)) =
        (array.data_type(), field.data_type())
    {
        return Ok(Arc::new(structure(array.as_struct(), children, field)?));
    }
    fit(array, field)?.ok_or_else(|| {
        Error::InvalidArgument(format!(
            "Feature had wrong type, expected {}, found {} for feature \"{}\"",
            kind(field.data_type()),
            kind(array.data_type()),
            field.name()
        ))
    })
}

/// `array` as `field`'s type, `None` when the kinds differ.
fn fit(array: &ArrayRef, field: &Field) -> Result<Option<ArrayRef>> {
    let want = field.data_type();
    let got = array.data_type();
    if got == want {
        return Ok(Some(array.clone()));
    }
    match (got, want) {
        (ArrowType::Null, _) => Ok(Some(new_null_array(want, array.len()))),
        (ArrowType::LargeList(_), ArrowType::LargeList(item)) => {
            let list = array.as_list::<i64>();
            let Some(values) = fit(list.values(), item)? else {
                return Ok(None);
            };
            let list = LargeListArray::try_new(
                item.clone(),
                list.offsets().clone(),
                values,
                list.nulls().cloned(),
            )
            .map_err(|e| internal(format!("feature {:?}: {e}", field.name())))?;
            Ok(Some(Arc::new(list)))
        }
        _ => Ok(None),
    }
}

/// The `Feature` kind a (nested) list column holds, in tfx-bsl's words.
fn kind(t: &ArrowType) -> String {
    match t {
        ArrowType::LargeList(f) if matches!(f.data_type(), ArrowType::LargeList(_)) => {
            kind(f.data_type())
        }
        other => kind_text(other),
    }
}

/// The `##SEQUENCE##` struct with `children` (the schema's), in order.
fn structure(s: &StructArray, children: &Fields, field: &Field) -> Result<StructArray> {
    let len = s.len();
    let arrays = children
        .iter()
        .map(|c: &FieldRef| match s.column_by_name(c.name()) {
            Some(a) => column(a, c),
            None => Ok(new_null_array(c.data_type(), len)),
        })
        .collect::<Result<Vec<_>>>()?;
    StructArray::try_new_with_length(children.clone(), arrays, s.nulls().cloned(), len)
        .map_err(|e| internal(format!("feature {:?}: {e}", field.name())))
}
