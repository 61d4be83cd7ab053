//! The schema of whole files ([`ExamplesSchema`]): what the schema-less
//! decoder would give all their records as one batch, merged batch by
//! batch in bounded memory, and Arrow types in pyarrow's notation.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use arrow_array::RecordBatch;
use arrow_schema::{DataType as ArrowType, Field, Fields, Schema};

use super::decode::SEQUENCE_COLUMN;
use crate::{Error, Result};

/// Records decoded per batch while a schema is gathered.
pub(super) const SCHEMA_BATCH: usize = 4096;

/// The schema of the records of some files ([`examples_schema`](super::examples_schema)), and how
/// many records there are. Its `Display` is one line per column,
/// `name: type`, the type in pyarrow's notation ([`type_text`]).
///
/// ```
/// let s = tftensor::arrow::examples_schema(["tests/data/arrow/kinds.tfrecord"], false)?;
/// assert_eq!(s.records, 4);
/// assert_eq!(s.to_string().lines().next(), Some("B: large_list<item: int64>"));
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ExamplesSchema {
    /// The columns, as one batch of every record would have them.
    pub schema: Schema,
    /// The number of records.
    pub records: u64,
}

impl fmt::Display for ExamplesSchema {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for field in self.schema.fields() {
            writeln!(f, "{}: {}", field.name(), type_text(field.data_type()))?;
        }
        Ok(())
    }
}

/// Columns by name, merged over batches.
#[derive(Debug, Default)]
pub(super) struct Merged {
    columns: BTreeMap<String, Field>,
    sequence: Option<Field>,
    pub(super) records: u64,
}

impl Merged {
    pub(super) fn add(&mut self, batch: &RecordBatch) -> Result<()> {
        self.records += batch.num_rows() as u64;
        self.add_schema(&batch.schema())
    }

    pub(super) fn add_schema(&mut self, schema: &Schema) -> Result<()> {
        for field in schema.fields() {
            let slot = if field.name() == SEQUENCE_COLUMN {
                &mut self.sequence
            } else {
                match self.columns.get_mut(field.name()) {
                    Some(known) => {
                        *known = merge_field(known, field)?;
                        continue;
                    }
                    None => {
                        self.columns
                            .insert(field.name().clone(), field.as_ref().clone());
                        continue;
                    }
                }
            };
            *slot = Some(match slot {
                Some(known) => merge_field(known, field)?,
                None => field.as_ref().clone(),
            });
        }
        Ok(())
    }

    /// Columns sorted by name, the sequence struct last (tfx-bsl's order).
    pub(super) fn finish(self) -> ExamplesSchema {
        let mut fields: Vec<Field> = self.columns.into_values().collect();
        fields.extend(self.sequence);
        ExamplesSchema {
            schema: Schema::new(fields),
            records: self.records,
        }
    }
}

/// Two batches' fields of one name as one: `null` gives way to a type,
/// lists and structs merge inside.
fn merge_field(a: &Field, b: &Field) -> Result<Field> {
    let t = merge_type(a.data_type(), b.data_type()).ok_or_else(|| {
        Error::InvalidArgument(format!(
            "Feature had wrong type, expected {}, found {} for feature \"{}\"",
            kind_text(a.data_type()),
            kind_text(b.data_type()),
            a.name()
        ))
    })?;
    Ok(Field::new(a.name(), t, a.is_nullable() || b.is_nullable()))
}

fn merge_type(a: &ArrowType, b: &ArrowType) -> Option<ArrowType> {
    Some(match (a, b) {
        _ if a == b => a.clone(),
        (ArrowType::Null, t) | (t, ArrowType::Null) => t.clone(),
        (ArrowType::LargeList(x), ArrowType::LargeList(y)) => {
            ArrowType::LargeList(Arc::new(merge_field(x, y).ok()?))
        }
        (ArrowType::Struct(x), ArrowType::Struct(y)) => {
            let mut by_name: BTreeMap<&str, Field> = BTreeMap::new();
            for f in x.iter().chain(y.iter()) {
                let merged = match by_name.get(f.name().as_str()) {
                    Some(known) => merge_field(known, f).ok()?,
                    None => f.as_ref().clone(),
                };
                by_name.insert(f.name(), merged);
            }
            ArrowType::Struct(Fields::from(by_name.into_values().collect::<Vec<_>>()))
        }
        _ => return None,
    })
}

/// A column type as the `Feature` kind it holds (tfx-bsl's words in its
/// conflict error), else the type.
pub(super) fn kind_text(t: &ArrowType) -> String {
    match t {
        ArrowType::LargeList(f) => match f.data_type() {
            ArrowType::Int64 => "int64_list".into(),
            ArrowType::Float32 => "float_list".into(),
            ArrowType::LargeBinary => "bytes_list".into(),
            _ => type_text(t),
        },
        _ => type_text(t),
    }
}

/// An Arrow type as pyarrow writes it (`str(pa_type)`):
/// `large_list<item: int64>`, `struct<a: float>`, `fixed_size_list<item:
/// float>[3]`; types the decoders never make fall back to arrow-rs's text.
///
/// ```
/// use tftensor::arrow::arrow_schema::{DataType, Field};
/// use std::sync::Arc;
/// let t = DataType::LargeList(Arc::new(Field::new("item", DataType::LargeBinary, true)));
/// assert_eq!(tftensor::arrow::type_text(&t), "large_list<item: large_binary>");
/// ```
#[must_use]
pub fn type_text(t: &ArrowType) -> String {
    let named = |f: &Field| format!("{}: {}", f.name(), type_text(f.data_type()));
    match t {
        ArrowType::Null => "null".into(),
        ArrowType::Boolean => "bool".into(),
        ArrowType::Int8 => "int8".into(),
        ArrowType::Int16 => "int16".into(),
        ArrowType::Int32 => "int32".into(),
        ArrowType::Int64 => "int64".into(),
        ArrowType::UInt8 => "uint8".into(),
        ArrowType::UInt16 => "uint16".into(),
        ArrowType::UInt32 => "uint32".into(),
        ArrowType::UInt64 => "uint64".into(),
        ArrowType::Float16 => "halffloat".into(),
        ArrowType::Float32 => "float".into(),
        ArrowType::Float64 => "double".into(),
        ArrowType::Binary => "binary".into(),
        ArrowType::LargeBinary => "large_binary".into(),
        ArrowType::Utf8 => "string".into(),
        ArrowType::LargeUtf8 => "large_string".into(),
        ArrowType::List(f) => format!("list<{}>", named(f)),
        ArrowType::LargeList(f) => format!("large_list<{}>", named(f)),
        ArrowType::FixedSizeList(f, n) => format!("fixed_size_list<{}>[{n}]", named(f)),
        ArrowType::Struct(fields) => {
            let parts: Vec<String> = fields.iter().map(|f| named(f)).collect();
            format!("struct<{}>", parts.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::arrow::{decode_examples, decode_sequence_examples};
    use crate::tfrecord::{Compression, RecordReader};

    fn records(name: &str) -> Vec<Vec<u8>> {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/arrow")
            .join(name);
        RecordReader::open(path, Compression::None)
            .and_then(|r| r.collect::<Result<Vec<_>>>())
            .unwrap()
    }

    /// Batches of one record each merge to the schema of one batch of all.
    #[test]
    fn merged_batches_give_the_one_batch_schema() -> Result<()> {
        for (name, sequence) in [
            ("corner", false),
            ("kinds", false),
            ("wire", false),
            ("sequence", true),
        ] {
            let recs = records(&format!("{name}.tfrecord"));
            assert!(!recs.is_empty(), "{name}");
            let decode = |r: &[Vec<u8>]| {
                if sequence {
                    decode_sequence_examples(r)
                } else {
                    decode_examples(r)
                }
            };
            let whole = decode(&recs)?;
            let mut merged = Merged::default();
            for r in &recs {
                merged.add(&decode(std::slice::from_ref(r))?)?;
            }
            let got = merged.finish();
            assert_eq!(got.records, recs.len() as u64, "{name}");
            assert_eq!(got.schema, *whole.schema(), "{name}");
        }
        Ok(())
    }

    #[test]
    fn kinds_that_change_between_batches_are_refused() -> Result<()> {
        let recs = records("conflict.tfrecord");
        let mut merged = Merged::default();
        let mut err = None;
        for r in &recs {
            if let Err(e) = merged.add(&decode_examples(std::slice::from_ref(r))?) {
                err = Some(e.to_string());
                break;
            }
        }
        assert_eq!(
            err.as_deref(),
            Some("Feature had wrong type, expected int64_list, found float_list for feature \"a\"")
        );
        Ok(())
    }
}
