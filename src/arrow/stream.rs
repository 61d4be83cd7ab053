//! Streaming: `RecordBatch`es of at most `batch_size` records from many
//! TFRecord files, read one record at a time, so memory is bounded by the
//! batch, not the files; every batch in the stream's one schema, an Arrow
//! [`RecordBatchReader`].

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use arrow_array::{RecordBatch, RecordBatchReader};
use arrow_schema::{ArrowError, Schema, SchemaRef};

use super::conform::conform;
use super::decode::ExamplesDecoder;
use super::schema::{ExamplesSchema, Merged, SCHEMA_BATCH};
use super::sequence_spec::{SequenceSpec, apply_sequence_spec};
use super::spec::{FeatureSpec, apply_spec};
use crate::io::SharedBlobReader;
use crate::io::{Format, OpenOptions, expand, locate};
use crate::tfrecord::{Compression, RecordReader};
use crate::{Error, Result};

/// Options of [`ExampleBatches`].
///
/// ```
/// use tftensor::arrow::StreamOptions;
/// use tftensor::tfrecord::Compression;
/// let o = StreamOptions::new(1024).compression(Compression::Gzip).sequence(true);
/// assert_eq!(o.batch_size, 1024);
/// ```
#[derive(Debug, Clone)]
pub struct StreamOptions {
    /// Records per batch (the last batch may be shorter); at least 1.
    pub batch_size: usize,
    /// The files' compression.
    pub compression: Compression,
    /// Decode `SequenceExample`s (a `##SEQUENCE##` column).
    pub sequence: bool,
    /// A feature spec, as [`parse_examples`](super::parse_examples); it
    /// fixes the stream's schema.
    pub spec: Option<Vec<(String, FeatureSpec)>>,
    /// A `SequenceExample` spec, as
    /// [`parse_sequence_examples`](super::parse_sequence_examples) (then
    /// `sequence` and `spec` are not used); it fixes the stream's schema.
    pub sequence_spec: Option<SequenceSpec>,
    /// The stream's schema, given (features outside it are skipped, as
    /// tfx-bsl's schema-ful decoder skips them), instead of one found by a
    /// pass over the files.
    pub schema: Option<SchemaRef>,
}

impl StreamOptions {
    /// Schema-less `Example` batches of `batch_size`, uncompressed files.
    #[must_use]
    pub fn new(batch_size: usize) -> Self {
        StreamOptions {
            batch_size,
            compression: Compression::None,
            sequence: false,
            spec: None,
            sequence_spec: None,
            schema: None,
        }
    }

    /// Sets the compression.
    #[must_use]
    pub fn compression(mut self, c: Compression) -> Self {
        self.compression = c;
        self
    }

    /// Decodes `SequenceExample`s.
    #[must_use]
    pub fn sequence(mut self, yes: bool) -> Self {
        self.sequence = yes;
        self
    }

    /// Decodes with a feature spec.
    #[must_use]
    pub fn spec(mut self, spec: Vec<(String, FeatureSpec)>) -> Self {
        self.spec = Some(spec);
        self
    }

    /// Decodes `SequenceExample`s with context and sequence feature specs.
    #[must_use]
    pub fn sequence_spec(mut self, spec: SequenceSpec) -> Self {
        self.sequence_spec = Some(spec);
        self
    }

    /// Uses `schema` for the stream (no pass over the files to find it).
    #[must_use]
    pub fn schema(mut self, schema: SchemaRef) -> Self {
        self.schema = Some(schema);
        self
    }
}

/// The `RecordBatch`es of the records of many files, in order (see
/// [`read_examples_arrow`]), all in one schema fixed when the stream is
/// opened: an Arrow [`RecordBatchReader`], so it goes to Arrow's C stream
/// interface, DataFusion or Parquet as it is. A feature a batch lacks is
/// an all-null column there. Errors name the file and the record's index
/// in it; after an error the stream ends.
///
/// As an `Iterator` it yields arrow's `ArrowError`, whose
/// `ArrowError::ExternalError` holds the crate's [`Error`];
/// [`ExampleBatches::next_batch`] gives the crate's error itself.
#[derive(Debug)]
pub struct ExampleBatches {
    decoded: Decoded,
    schema: SchemaRef,
    done: bool,
}

/// Batches as the records give them, each decoded on its own.
#[derive(Debug)]
struct Decoded {
    files: VecDeque<PathBuf>,
    reader: Option<RecordReader<SharedBlobReader>>,
    /// The open file's path and the index of its next record.
    path: String,
    index: u64,
    options: StreamOptions,
    record: Vec<u8>,
}

/// Batches of the `tf.train.Example` records in `paths`, in order; a path
/// whose file name has `*` or `?` is a glob over its directory (matches
/// sorted by name).
///
/// The stream's one schema comes from the spec
/// ([`StreamOptions::spec`], [`StreamOptions::sequence_spec`]), from
/// [`StreamOptions::schema`], or else from a first pass over the files
/// (decoded a batch at a time, so in bounded memory): the schema
/// [`examples_schema`](super::examples_schema) gives, what tfx-bsl's
/// schema-less decoder gives all the records as one batch.
///
/// # Errors
/// `batch_size` 0, an unreadable directory for a glob, or a glob that
/// matches nothing ([`Error::NotFound`]); the first pass's errors. Errors
/// reading records come from the stream, with the file as a field
/// ([`Error::path`]): a record that does not parse is [`Error::DataLoss`],
/// a feature whose kind changes between records (or differs from the
/// schema's) [`Error::InvalidFormat`] (tfx-bsl's `INVALID_ARGUMENT`).
///
/// ```
/// use tftensor::arrow::{read_examples_arrow, StreamOptions};
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("arrow");
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("a.tfrecord");
/// let empty = std::collections::BTreeMap::new();
/// tftensor::tfrecord::write_examples(&path, Default::default(), &vec![empty; 5])?;
/// let mut batches = read_examples_arrow([dir.join("*.tfrecord")], StreamOptions::new(2))?;
/// let mut rows = Vec::new();
/// while let Some(b) = batches.next_batch()? {
///     rows.push(b.num_rows());
/// }
/// assert_eq!(rows, [2, 2, 1]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn read_examples_arrow(
    paths: impl IntoIterator<Item = impl AsRef<Path>>,
    options: StreamOptions,
) -> Result<ExampleBatches> {
    if options.batch_size == 0 {
        return Err(Error::InvalidArgument(
            "batch_size must be at least 1".into(),
        ));
    }
    let mut files = VecDeque::new();
    for p in paths {
        files.extend(expand(p.as_ref())?);
    }
    let schema = match (&options.sequence_spec, &options.spec, &options.schema) {
        (Some(spec), _, _) => apply_sequence_spec(&empty(), spec)?.schema(),
        (None, Some(spec), _) => apply_spec(&empty(), &named(spec))?.schema(),
        (None, None, Some(schema)) => schema.clone(),
        (None, None, None) => Arc::new(files_schema(files.clone(), &options)?.schema),
    };
    Ok(ExampleBatches {
        decoded: Decoded::new(files, options),
        schema,
        done: false,
    })
}

/// The first pass: the schema of the records of `files` as one batch,
/// and how many there are, a batch at a time.
fn files_schema(files: VecDeque<PathBuf>, options: &StreamOptions) -> Result<ExamplesSchema> {
    let mut pass = Decoded::new(files, options.clone());
    pass.options.batch_size = SCHEMA_BATCH;
    let mut merged = Merged::default();
    while let Some(batch) = pass.next_batch()? {
        merged
            .add(&batch)
            .map_err(|e| as_format_error(e, &pass.path))?;
    }
    Ok(merged.finish())
}

/// A batch with no rows and no columns: what a spec makes of it is the
/// spec's schema.
fn empty() -> RecordBatch {
    RecordBatch::new_empty(Arc::new(Schema::empty()))
}

fn named(spec: &[(String, FeatureSpec)]) -> Vec<(&str, FeatureSpec)> {
    spec.iter().map(|(n, s)| (n.as_str(), s.clone())).collect()
}

/// A feature whose kind changes (tfx-bsl's `INVALID_ARGUMENT`) is a
/// format error of the file being read.
fn as_format_error(e: Error, path: &str) -> Error {
    match e {
        Error::InvalidArgument(m) => Error::invalid_format("tfrecord", m).with_path(path),
        other => other,
    }
}

impl ExampleBatches {
    /// The next batch, in the stream's schema, with the crate's error.
    ///
    /// # Errors
    /// As [`read_examples_arrow`] says of its batches.
    ///
    /// ```
    /// use tftensor::arrow::{read_examples_arrow, StreamOptions};
    /// let mut s = read_examples_arrow(["tests/data/arrow/kinds.tfrecord"], StreamOptions::new(3))?;
    /// let first = s.next_batch()?.unwrap();
    /// assert_eq!(first.schema(), s.schema());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        if self.done {
            return Ok(None);
        }
        let out = self.decoded.next_batch().and_then(|b| match b {
            Some(b) => conform(&b, &self.schema)
                .map(Some)
                .map_err(|e| as_format_error(e, &self.decoded.path)),
            None => Ok(None),
        });
        if !matches!(out, Ok(Some(_))) {
            self.done = true;
        }
        out
    }

    /// The stream's schema, the same for every batch.
    ///
    /// ```
    /// use tftensor::arrow::{read_examples_arrow, StreamOptions};
    /// let s = read_examples_arrow(["tests/data/arrow/kinds.tfrecord"], StreamOptions::new(1))?;
    /// assert_eq!(s.schema().field(0).name(), "B");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[must_use]
    pub fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

impl Decoded {
    fn new(files: VecDeque<PathBuf>, options: StreamOptions) -> Decoded {
        Decoded {
            files,
            reader: None,
            path: String::new(),
            index: 0,
            options,
            record: Vec::new(),
        }
    }

    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let sequence = self.options.sequence || self.options.sequence_spec.is_some();
        let mut decoder = if sequence {
            ExamplesDecoder::sequence()
        } else {
            ExamplesDecoder::new()
        };
        if let Some(spec) = &self.options.sequence_spec {
            decoder = decoder.only(spec.context.iter().map(|(n, _)| n.as_str()));
        } else if let Some(spec) = &self.options.spec {
            decoder = decoder.only(spec.iter().map(|(n, _)| n.as_str()));
        } else if let Some(schema) = &self.options.schema {
            decoder = decoder.only(schema.fields().iter().map(|f| f.name().as_str()));
        }
        while decoder.rows() < self.options.batch_size {
            let reader = match &mut self.reader {
                Some(r) => r,
                None => match self.files.pop_front() {
                    Some(path) => {
                        self.path = path.display().to_string();
                        self.index = 0;
                        self.reader
                            .insert(RecordReader::open(&path, self.options.compression)?)
                    }
                    None => break,
                },
            };
            if reader.read_record(&mut self.record)? {
                let (path, index) = (&self.path, self.index);
                // The file as a field: a record that does not parse is
                // data loss; a feature whose kind changes is a format
                // error of this file.
                decoder
                    .push_at(&self.record, || format!("record {index}"))
                    .map_err(|e| as_format_error(e, path).with_path(path))?;
                self.index += 1;
            } else {
                self.reader = None;
            }
        }
        if decoder.rows() == 0 {
            return Ok(None);
        }
        let batch = decoder.finish()?;
        let batch = match (&self.options.sequence_spec, &self.options.spec) {
            (Some(spec), _) => apply_sequence_spec(&batch, spec),
            (None, Some(spec)) => apply_spec(&batch, &named(spec)),
            (None, None) => Ok(batch),
        };
        batch.map(Some).map_err(|e| e.with_path(&self.path))
    }
}

impl Iterator for ExampleBatches {
    type Item = std::result::Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_batch()
            .map_err(|e| ArrowError::ExternalError(Box::new(e)))
            .transpose()
    }
}

impl RecordBatchReader for ExampleBatches {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// The schema tfx-bsl's schema-less decoder gives the records of `paths`
/// (globs allowed, as [`read_examples_arrow`]) decoded as one batch,
/// without holding them: they are decoded a batch at a time and the
/// batches' schemas merged (a column `null` in one batch takes another
/// batch's type). Each file's compression is found from its bytes
/// (as [`crate::io::locate`] finds it). `sequence` reads
/// `SequenceExample`s.
///
/// # Errors
/// As [`read_examples_arrow`] and its batches; a feature whose kind
/// differs between batches is [`Error::InvalidFormat`], as it is between
/// records of a stream. Every error carries the file as a field
/// ([`Error::path`]).
///
/// ```
/// let s = tftensor::arrow::examples_schema(["tests/data/arrow/kinds.gzip.tfrecord"], false)?;
/// assert_eq!(s.schema.fields().len(), 5);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn examples_schema(
    paths: impl IntoIterator<Item = impl AsRef<Path>>,
    sequence: bool,
) -> Result<ExamplesSchema> {
    let mut merged = Merged::default();
    for pattern in paths {
        for file in expand(pattern.as_ref())? {
            let as_tfrecord = OpenOptions::default().with_format(Format::TFRECORD);
            let compression = locate(&file, &as_tfrecord)?.compression;
            let options = StreamOptions::new(SCHEMA_BATCH)
                .compression(compression)
                .sequence(sequence);
            let this = files_schema([file.clone()].into(), &options)?;
            merged.records += this.records;
            // A merge error gets the file here.
            merged.add_schema(&this.schema).map_err(|e| match e {
                Error::InvalidArgument(m) => {
                    Error::invalid_format("tfrecord", m).with_path(file.display())
                }
                other => other,
            })?;
        }
    }
    Ok(merged.finish())
}
