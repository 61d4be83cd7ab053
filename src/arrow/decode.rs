//! Schema-less decoding of serialized `tf.train.Example` and
//! `SequenceExample` records into one Arrow `RecordBatch`, with tfx-bsl's
//! `ExamplesToRecordBatchDecoder` / `SequenceExamplesToRecordBatchDecoder`
//! contract: columns sorted by name, `bytes_list` → `large_list<large_binary>`,
//! `int64_list` → `large_list<int64>`, `float_list` → `large_list<float32>`,
//! an absent feature or unset kind → null, a kind no record sets → a `null`
//! column, and sequence features in a last `##SEQUENCE##` struct column.
//!
//! Records are walked at the wire level straight into Arrow buffers; no
//! `Example` message is built.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use arrow_array::{Array, ArrayRef, LargeListArray, RecordBatch, RecordBatchOptions, StructArray};
use arrow_buffer::{OffsetBuffer, ScalarBuffer};
use arrow_schema::{Field, Fields as ArrowFields, Schema};

use super::list_column::{Conflict, ListColumn, item_field, nulls};
use super::wire::{Fields, Malformed, Value};
use super::{conflict_error, internal, parse_error};
use crate::Result;

/// The name tfx-bsl gives the struct column of sequence features.
pub const SEQUENCE_COLUMN: &str = "##SEQUENCE##";

/// A context (or plain `Example`) feature column.
#[derive(Debug)]
struct Column {
    name: String,
    list: ListColumn,
    touched: bool,
}

/// A sequence feature column: per record a list of steps, each step a
/// `Feature` (a row of `steps`).
#[derive(Debug)]
struct SequenceColumn {
    name: String,
    steps: ListColumn,
    offsets: Vec<i64>,
    valid: Vec<bool>,
    touched: bool,
    /// `steps.rows()` when the record began (a repeated key restarts there).
    row_start: usize,
}

impl SequenceColumn {
    /// Null rows up to `rows` (records that lacked this feature).
    fn pad_to(&mut self, rows: usize) {
        let last = self.offsets.last().copied().unwrap_or(0); // never empty: starts [0]
        while self.valid.len() < rows {
            self.offsets.push(last);
            self.valid.push(false);
        }
    }
}

/// Columns by name, with a guess of the next column from the previous
/// record's order (records usually list their features alike).
#[derive(Debug, Default)]
struct Index {
    by_name: HashMap<Vec<u8>, usize>,
    names: Vec<Vec<u8>>,
    predicted: Vec<usize>,
}

impl Index {
    /// The column of `key`, the `position`-th entry of its record, or
    /// `None` for a new name.
    #[inline]
    fn find(&mut self, position: usize, key: &[u8]) -> Option<usize> {
        if let Some(&i) = self.predicted.get(position) {
            if self.names.get(i).is_some_and(|n| n.as_slice() == key) {
                return Some(i);
            }
        }
        let i = *self.by_name.get(key)?;
        self.predict(position, i);
        Some(i)
    }

    fn add(&mut self, position: usize, key: &[u8]) -> usize {
        let i = self.names.len();
        self.names.push(key.to_vec());
        self.by_name.insert(key.to_vec(), i);
        self.predict(position, i);
        i
    }

    fn predict(&mut self, position: usize, i: usize) {
        match self.predicted.get_mut(position) {
            Some(p) => *p = i,
            None => self.predicted.push(i),
        }
    }
}

/// Decodes serialized records into one `RecordBatch`, a record at a time.
///
/// ```
/// use tftensor::arrow::ExamplesDecoder;
/// use tftensor::pb::{feature::Kind, Example, Feature, Features, Int64List};
/// use tftensor::prost::Message;
///
/// let mut features = Features::default();
/// features.feature.insert(
///     "label".into(),
///     Feature { kind: Some(Kind::Int64List(Int64List { value: vec![3, 1] })) },
/// );
/// let record = Example { features: Some(features) }.encode_to_vec();
/// let mut decoder = ExamplesDecoder::new();
/// decoder.push(&record)?;
/// decoder.push(&[])?; // an empty Example: every feature null
/// let batch = decoder.finish()?;
/// assert_eq!(batch.num_rows(), 2);
/// assert_eq!(batch.schema().field(0).name(), "label");
/// assert_eq!(batch.column(0).null_count(), 1);
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct ExamplesDecoder {
    sequence: bool,
    rows: usize,
    columns: Vec<Column>,
    index: Index,
    sequences: Vec<SequenceColumn>,
    sequence_index: Index,
    has_sequence: bool,
    /// Columns the open record set; only they are closed per record, the
    /// others get their null rows lazily (so sparse wide data costs per
    /// feature present, not per column).
    touched_columns: Vec<usize>,
    touched_sequences: Vec<usize>,
    /// When set, the only context features decoded (a feature spec's).
    only: Option<HashSet<Vec<u8>>>,
}

impl ExamplesDecoder {
    /// A decoder of `tf.train.Example` records (field 2 of the record, if
    /// any, is an unknown field and skipped).
    #[must_use]
    pub fn new() -> Self {
        ExamplesDecoder::default()
    }

    /// A decoder of `tf.train.SequenceExample` records: the context
    /// features as columns, the feature lists in a last `##SEQUENCE##`
    /// struct column (present when a record of the batch has
    /// `feature_lists`).
    #[must_use]
    pub fn sequence() -> Self {
        ExamplesDecoder {
            sequence: true,
            ..ExamplesDecoder::default()
        }
    }

    /// Decodes only the context features named (others are skipped, as
    /// `tf.io.parse_example` skips features outside its spec).
    #[must_use]
    pub fn only<'a>(mut self, names: impl IntoIterator<Item = &'a str>) -> Self {
        self.only = Some(names.into_iter().map(|n| n.as_bytes().to_vec()).collect());
        self
    }

    /// Records pushed so far.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Adds one serialized record.
    ///
    /// # Errors
    /// [`Error::DataLoss`](crate::Error::DataLoss) for bytes that are not a
    /// valid message (tfx-bsl's `Unable to parse example.`), and
    /// [`Error::InvalidArgument`](crate::Error::InvalidArgument) for a
    /// feature whose kind differs from the batch's (`Feature had wrong
    /// type, expected int64_list, found float_list for feature "a"`). The
    /// decoder is unusable after an error.
    pub fn push(&mut self, record: &[u8]) -> Result<()> {
        let row = self.rows;
        self.push_at(record, || format!("record {row}"))
    }

    /// [`ExamplesDecoder::push`], with errors naming the record `at()`
    /// (e.g. its file and index there).
    pub(crate) fn push_at(&mut self, record: &[u8], at: impl Fn() -> String) -> Result<()> {
        if let Err(e) = self.merge_record(record) {
            return Err(record_error(self, &at(), e));
        }
        let row = self.rows;
        for i in std::mem::take(&mut self.touched_columns) {
            let c = self.columns.get_mut(i).ok_or_else(|| internal(at()))?;
            c.touched = false;
            c.list.pad_to(row);
            c.list
                .close_row(true)
                .map_err(|Conflict(e, f)| conflict_error(&at(), &c.name, e, f))?;
        }
        for i in std::mem::take(&mut self.touched_sequences) {
            let s = self.sequences.get_mut(i).ok_or_else(|| internal(at()))?;
            s.touched = false;
            s.pad_to(row);
            s.offsets.push(s.steps.rows() as i64);
            s.valid.push(true);
            s.row_start = s.steps.rows();
        }
        self.rows += 1;
        Ok(())
    }

    fn merge_record(&mut self, record: &[u8]) -> std::result::Result<(), RecordError> {
        let mut fields = Fields::new(record);
        while let Some((number, value)) = fields.next_field()? {
            match (number, value) {
                (1, Value::Len(features)) => self.merge_features(features)?,
                (2, Value::Len(lists)) if self.sequence => {
                    self.has_sequence = true;
                    self.merge_feature_lists(lists)?;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `Features { map<string, Feature> feature = 1; }`.
    fn merge_features(&mut self, features: &[u8]) -> std::result::Result<(), RecordError> {
        let mut fields = Fields::new(features);
        let mut position = 0;
        while let Some((number, value)) = fields.next_field()? {
            let (1, Value::Len(entry)) = (number, value) else {
                continue;
            };
            let (key, value) = map_entry(entry)?;
            let i = match self.index.find(position, key) {
                Some(i) => i,
                None if self.only.as_ref().is_some_and(|o| !o.contains(key)) => continue,
                None => {
                    let name = std::str::from_utf8(key).map_err(|_| Malformed)?;
                    self.columns.push(Column {
                        name: name.to_owned(),
                        list: ListColumn::with_null_rows(0),
                        touched: false,
                    });
                    self.index.add(position, key)
                }
            };
            position += 1;
            let column = self.columns.get_mut(i).ok_or(RecordError::Internal)?;
            if column.touched {
                // A repeated key: the last entry wins.
                column.list.open_row();
            } else {
                self.touched_columns.push(i);
            }
            column.touched = true;
            match value {
                EntryValue::None => {}
                EntryValue::One(feature) => column.list.merge_feature(feature)?,
                EntryValue::Many => {
                    // Several value fields: merged in order (protobuf).
                    let mut entry_fields = Fields::new(entry);
                    while let Some((number, value)) = entry_fields.next_field()? {
                        if let (2, Value::Len(feature)) = (number, value) {
                            column.list.merge_feature(feature)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// `FeatureLists { map<string, FeatureList> feature_list = 1; }`,
    /// `FeatureList { repeated Feature feature = 1; }`.
    fn merge_feature_lists(&mut self, lists: &[u8]) -> std::result::Result<(), RecordError> {
        let mut fields = Fields::new(lists);
        let mut position = 0;
        while let Some((number, value)) = fields.next_field()? {
            let (1, Value::Len(entry)) = (number, value) else {
                continue;
            };
            let key = map_key(entry)?;
            let i = match self.sequence_index.find(position, key) {
                Some(i) => i,
                None => {
                    let name = std::str::from_utf8(key).map_err(|_| Malformed)?;
                    self.sequences.push(SequenceColumn {
                        name: name.to_owned(),
                        steps: ListColumn::with_null_rows(0),
                        offsets: vec![0],
                        valid: Vec::new(),
                        touched: false,
                        row_start: 0,
                    });
                    self.sequence_index.add(position, key)
                }
            };
            position += 1;
            let s = self.sequences.get_mut(i).ok_or(RecordError::Internal)?;
            // A repeated key: the last entry wins.
            s.steps.truncate_rows(s.row_start);
            if !s.touched {
                self.touched_sequences.push(i);
            }
            s.touched = true;
            let mut entry_fields = Fields::new(entry);
            while let Some((number, value)) = entry_fields.next_field()? {
                let (2, Value::Len(list)) = (number, value) else {
                    continue;
                };
                let mut steps = Fields::new(list);
                while let Some((number, value)) = steps.next_field()? {
                    if let (1, Value::Len(feature)) = (number, value) {
                        s.steps.open_row();
                        s.steps.merge_feature(feature)?;
                        s.steps
                            .close_row(true)
                            .map_err(|c| RecordError::Conflict(i, c))?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The batch: context columns sorted by name, then `##SEQUENCE##`.
    ///
    /// # Errors
    /// Only on an internal inconsistency (never expected).
    pub fn finish(self) -> Result<RecordBatch> {
        let rows = self.rows;
        let mut columns = self.columns;
        columns.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        let mut fields = Vec::with_capacity(columns.len() + 1);
        let mut arrays = Vec::with_capacity(columns.len() + 1);
        for mut c in columns {
            c.list.pad_to(rows);
            let array = c.list.finish();
            fields.push(Field::new(c.name, array.data_type().clone(), true));
            arrays.push(array);
        }
        if self.has_sequence {
            let (field, array) = finish_sequences(self.sequences, rows)?;
            fields.push(field);
            arrays.push(array);
        }
        let options = RecordBatchOptions::new().with_row_count(Some(rows));
        RecordBatch::try_new_with_options(Arc::new(Schema::new(fields)), arrays, &options)
            .map_err(|e| internal(format!("building the batch: {e}")))
    }
}

/// Sequence columns as the `##SEQUENCE##` struct (never null itself).
fn finish_sequences(mut sequences: Vec<SequenceColumn>, rows: usize) -> Result<(Field, ArrayRef)> {
    sequences.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    let mut fields = Vec::with_capacity(sequences.len());
    let mut arrays = Vec::with_capacity(sequences.len());
    for mut s in sequences {
        s.pad_to(rows);
        let steps = s.steps.finish();
        let list = LargeListArray::try_new(
            item_field(steps.data_type().clone()),
            OffsetBuffer::new(ScalarBuffer::from(s.offsets)),
            steps,
            nulls(&s.valid),
        )
        .map_err(|e| internal(format!("sequence feature {:?}: {e}", s.name)))?;
        fields.push(Field::new(s.name, list.data_type().clone(), true));
        arrays.push(Arc::new(list) as ArrayRef);
    }
    let fields = ArrowFields::from(fields);
    let array = StructArray::try_new_with_length(fields, arrays, None, rows)
        .map_err(|e| internal(format!("sequence struct: {e}")))?;
    let field = Field::new(SEQUENCE_COLUMN, array.data_type().clone(), true);
    Ok((field, Arc::new(array)))
}

/// The value fields of a map entry.
enum EntryValue<'a> {
    None,
    One(&'a [u8]),
    Many,
}

/// A map entry's key (field 1; the last one wins, `""` when absent) and
/// its value (field 2), in one pass.
fn map_entry(entry: &[u8]) -> std::result::Result<(&[u8], EntryValue<'_>), Malformed> {
    let mut key: &[u8] = b"";
    let mut value = EntryValue::None;
    let mut fields = Fields::new(entry);
    while let Some((number, v)) = fields.next_field()? {
        match (number, v) {
            (1, Value::Len(k)) => key = k,
            (2, Value::Len(f)) => {
                value = match value {
                    EntryValue::None => EntryValue::One(f),
                    _ => EntryValue::Many,
                }
            }
            _ => {}
        }
    }
    Ok((key, value))
}

/// A map entry's key (field 1; the last one wins, `""` when absent).
fn map_key(entry: &[u8]) -> std::result::Result<&[u8], Malformed> {
    let mut key: &[u8] = b"";
    let mut fields = Fields::new(entry);
    while let Some((number, value)) = fields.next_field()? {
        if let (1, Value::Len(k)) = (number, value) {
            key = k;
        }
    }
    Ok(key)
}

/// Why a record failed inside the walk.
#[derive(Debug)]
enum RecordError {
    Malformed,
    /// A sequence column (index) got a second kind.
    Conflict(usize, Conflict),
    Internal,
}

impl From<Malformed> for RecordError {
    fn from(_: Malformed) -> Self {
        RecordError::Malformed
    }
}

impl ExamplesDecoder {
    /// Decodes `records` into one batch (see [`ExamplesDecoder::push`]).
    ///
    /// # Errors
    /// As [`ExamplesDecoder::push`].
    pub fn decode_all<R: AsRef<[u8]>>(
        mut self,
        records: impl IntoIterator<Item = R>,
    ) -> Result<RecordBatch> {
        for r in records {
            self.push(r.as_ref())?;
        }
        self.finish()
    }
}

/// Maps a walk error of record `row` to the crate's error.
fn record_error(d: &ExamplesDecoder, at: &str, e: RecordError) -> crate::Error {
    match e {
        RecordError::Malformed => parse_error(at),
        RecordError::Conflict(i, Conflict(expected, found)) => {
            let name = d.sequences.get(i).map_or("", |s| s.name.as_str());
            conflict_error(at, name, expected, found)
        }
        RecordError::Internal => internal(format!("{at}: column index out of range")),
    }
}
