//! One feature's values across a batch: each row a `tf.train.Feature`
//! (or null), decoded from its wire bytes straight into Arrow-shaped
//! buffers, then finished as a `large_list<T>` (or `null`) array.

use std::sync::Arc;

use arrow_array::{
    ArrayRef, LargeBinaryArray, LargeListArray, NullArray, PrimitiveArray,
    types::{Float32Type, Int64Type},
};
use arrow_buffer::{BooleanBufferBuilder, NullBuffer, OffsetBuffer, ScalarBuffer};
use arrow_schema::{DataType as ArrowType, Field};

use super::wire::{Fields, Malformed, Value};

/// A `tf.train.Feature` kind, named as TF's error messages name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// `bytes_list` → `large_binary` values.
    Bytes,
    /// `float_list` → `float32` values.
    Float,
    /// `int64_list` → `int64` values.
    Int64,
}

impl Kind {
    /// The oneof field number in `Feature`.
    fn from_field(number: u32) -> Option<Kind> {
        match number {
            1 => Some(Kind::Bytes),
            2 => Some(Kind::Float),
            3 => Some(Kind::Int64),
            _ => None,
        }
    }

    /// TF's name: `bytes_list`, `float_list`, `int64_list`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Bytes => "bytes_list",
            Kind::Float => "float_list",
            Kind::Int64 => "int64_list",
        }
    }

    /// The Arrow value type (tfx-bsl's choice).
    pub(crate) fn arrow_type(self) -> ArrowType {
        match self {
            Kind::Bytes => ArrowType::LargeBinary,
            Kind::Float => ArrowType::Float32,
            Kind::Int64 => ArrowType::Int64,
        }
    }
}

/// Two kinds in one column: `(expected, found)`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Conflict(pub(crate) Kind, pub(crate) Kind);

/// Store lengths at the start of the open row, to drop what it wrote.
#[derive(Debug, Clone, Copy, Default)]
struct Mark {
    ints: usize,
    floats: usize,
    bins: usize,
    data: usize,
}

/// The rows of one list column.
#[derive(Debug, Default)]
pub(crate) struct ListColumn {
    /// The batch's kind: the first one a committed row had.
    kind: Option<Kind>,
    /// The row count when `kind` was set (to undo it on truncation).
    kind_row: usize,
    /// Row offsets into the store of `kind`; one more than the rows.
    offsets: Vec<i64>,
    valid: Vec<bool>,
    ints: Vec<i64>,
    floats: Vec<f32>,
    /// `large_binary` offsets (starting at 0) and bytes.
    bin_offsets: Vec<i64>,
    data: Vec<u8>,
    /// The open row's kind (`None`: unset so far), and where it started.
    row_kind: Option<Kind>,
    mark: Mark,
}

impl ListColumn {
    /// A column with `rows` null rows already.
    pub(crate) fn with_null_rows(rows: usize) -> Self {
        ListColumn {
            offsets: vec![0; rows + 1],
            valid: vec![false; rows],
            bin_offsets: vec![0],
            ..ListColumn::default()
        }
    }

    /// Null rows up to `rows` (records that lacked this feature); the open
    /// row, if any, is unaffected (it writes past the committed values).
    pub(crate) fn pad_to(&mut self, rows: usize) {
        let end = self.committed() as i64;
        while self.valid.len() < rows {
            self.offsets.push(end);
            self.valid.push(false);
        }
    }

    /// Committed rows.
    pub(crate) fn rows(&self) -> usize {
        self.valid.len()
    }

    /// Opens a row (or, for a repeated map key, reopens it empty: the last
    /// entry wins).
    pub(crate) fn open_row(&mut self) {
        self.truncate_stores(self.mark_now());
        self.row_kind = None;
    }

    fn mark_now(&self) -> Mark {
        // Only the open row writes past the committed lengths.
        Mark {
            ints: if self.kind == Some(Kind::Int64) {
                self.committed()
            } else {
                0
            },
            floats: if self.kind == Some(Kind::Float) {
                self.committed()
            } else {
                0
            },
            bins: if self.kind == Some(Kind::Bytes) {
                self.committed()
            } else {
                0
            },
            data: if self.kind == Some(Kind::Bytes) {
                // Offsets are built here from lengths, so never negative.
                self.bin_offsets
                    .get(self.committed())
                    .map_or(0, |&o| usize::try_from(o).unwrap_or(0))
            } else {
                0
            },
        }
    }

    /// Values committed so far, in the batch kind's store.
    fn committed(&self) -> usize {
        // Offsets are non-negative lengths we pushed ourselves.
        self.offsets
            .last()
            .map_or(0, |&o| usize::try_from(o).unwrap_or(0))
    }

    fn truncate_stores(&mut self, m: Mark) {
        self.mark = m;
        self.ints.truncate(m.ints);
        self.floats.truncate(m.floats);
        self.bin_offsets.truncate(m.bins + 1);
        self.data.truncate(m.data);
    }

    /// Merges one serialized `Feature` into the open row (protobuf merge:
    /// the same kind appends, another kind replaces).
    pub(crate) fn merge_feature(&mut self, feature: &[u8]) -> Result<(), Malformed> {
        let mut fields = Fields::new(feature);
        while let Some((number, value)) = fields.next_field()? {
            let (Some(kind), Value::Len(list)) = (Kind::from_field(number), value) else {
                continue; // unknown field, or a known one with the wrong wire type
            };
            if self.row_kind != Some(kind) {
                let m = self.mark;
                self.truncate_stores(m);
                self.row_kind = Some(kind);
            }
            self.merge_list(kind, list)?;
        }
        Ok(())
    }

    fn merge_list(&mut self, kind: Kind, list: &[u8]) -> Result<(), Malformed> {
        let mut fields = Fields::new(list);
        while let Some((number, value)) = fields.next_field()? {
            if number != 1 {
                continue;
            }
            match (kind, value) {
                (Kind::Int64, Value::Len(mut packed)) => {
                    self.ints.reserve(packed.len().min(1 << 16));
                    while !packed.is_empty() {
                        // int64 from a varint: two's complement truncation.
                        self.ints.push(super::wire::varint(&mut packed)? as i64);
                    }
                }
                (Kind::Int64, Value::Varint(v)) => self.ints.push(v as i64),
                (Kind::Float, Value::Len(packed)) => {
                    if packed.len() % 4 != 0 {
                        return Err(Malformed);
                    }
                    self.floats.extend(packed.chunks_exact(4).map(|c| {
                        let mut le = [0u8; 4];
                        le.copy_from_slice(c);
                        f32::from_le_bytes(le)
                    }));
                }
                (Kind::Float, Value::Fixed32(bits)) => self.floats.push(f32::from_bits(bits)),
                (Kind::Bytes, Value::Len(bytes)) => {
                    self.data.extend_from_slice(bytes);
                    self.bin_offsets.push(self.data.len() as i64);
                }
                _ => {} // wrong wire type: an unknown field
            }
        }
        Ok(())
    }

    /// Closes the open row: a list of its kind, or null when no kind was
    /// set (`present` false: the feature is absent from this record).
    pub(crate) fn close_row(&mut self, present: bool) -> Result<(), Conflict> {
        let kind = if present { self.row_kind } else { None };
        let end = match (kind, self.kind) {
            (None, _) => {
                self.open_row();
                self.offsets.push(self.committed() as i64);
                self.valid.push(false);
                return Ok(());
            }
            (Some(k), Some(expected)) if k != expected => return Err(Conflict(expected, k)),
            (Some(k), _) => {
                if self.kind.is_none() {
                    self.kind = Some(k);
                    self.kind_row = self.rows();
                }
                match k {
                    Kind::Int64 => self.ints.len(),
                    Kind::Float => self.floats.len(),
                    Kind::Bytes => self.bin_offsets.len() - 1,
                }
            }
        };
        self.offsets.push(end as i64);
        self.valid.push(true);
        self.row_kind = None;
        self.mark = self.mark_now();
        Ok(())
    }

    /// Drops committed rows past `rows` (a repeated `feature_lists` key).
    pub(crate) fn truncate_rows(&mut self, rows: usize) {
        if rows >= self.rows() {
            return;
        }
        self.offsets.truncate(rows + 1);
        self.valid.truncate(rows);
        if self.kind_row >= rows {
            self.kind = None;
        }
        let m = self.mark_now();
        self.truncate_stores(m);
        self.row_kind = None;
    }

    /// The finished array: `large_list<T>`, or `null` when no row set a
    /// kind.
    pub(crate) fn finish(self) -> ArrayRef {
        let Some(kind) = self.kind else {
            return Arc::new(NullArray::new(self.rows()));
        };
        let nulls = nulls(&self.valid);
        let values: ArrayRef = match kind {
            Kind::Int64 => Arc::new(PrimitiveArray::<Int64Type>::new(
                ScalarBuffer::from(self.ints),
                None,
            )),
            Kind::Float => Arc::new(PrimitiveArray::<Float32Type>::new(
                ScalarBuffer::from(self.floats),
                None,
            )),
            Kind::Bytes => Arc::new(LargeBinaryArray::new(
                // Pushed in order from 0, so monotonic.
                OffsetBuffer::new(ScalarBuffer::from(self.bin_offsets)),
                self.data.into(),
                None,
            )),
        };
        Arc::new(LargeListArray::new(
            item_field(kind.arrow_type()),
            OffsetBuffer::new(ScalarBuffer::from(self.offsets)),
            values,
            nulls,
        ))
    }
}

/// tfx-bsl's list child: named `item`, nullable.
pub(crate) fn item_field(value: ArrowType) -> Arc<Field> {
    Arc::new(Field::new("item", value, true))
}

/// A validity buffer, or `None` when every row is valid (as pyarrow).
pub(crate) fn nulls(valid: &[bool]) -> Option<NullBuffer> {
    if valid.iter().all(|&v| v) {
        return None;
    }
    let mut b = BooleanBufferBuilder::new(valid.len());
    b.append_slice(valid);
    Some(NullBuffer::new(b.finish()))
}
