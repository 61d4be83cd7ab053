//! Streaming: `RecordBatch`es of at most `batch_size` records from many
//! TFRecord files, read one record at a time, so memory is bounded by the
//! batch, not the files.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};

use arrow_array::RecordBatch;

use super::decode::ExamplesDecoder;
use super::spec::{FeatureSpec, apply_spec};
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
    /// A feature spec, as [`parse_examples`](super::parse_examples).
    pub spec: Option<Vec<(String, FeatureSpec)>>,
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
}

/// An iterator of `RecordBatch`es over the records of many files, in
/// order (see [`read_examples_arrow`]). Each batch is decoded on its own
/// (schema-less batches may differ in columns). Errors name the file and
/// the record's index in it. After an error it ends.
#[derive(Debug)]
pub struct ExampleBatches {
    files: VecDeque<PathBuf>,
    reader: Option<RecordReader<crate::io::SharedReader>>,
    /// The open file's path and the index of its next record.
    path: String,
    index: u64,
    options: StreamOptions,
    record: Vec<u8>,
    done: bool,
}

/// Batches of the `tf.train.Example` records in `paths`, in order; a path
/// whose file name has `*` or `?` is a glob over its directory (matches
/// sorted by name).
///
/// # Errors
/// `batch_size` 0, an unreadable directory for a glob, or a glob that
/// matches nothing ([`Error::NotFound`]). Errors reading records come from
/// the iterator, with the file as a field ([`Error::path`]): a record that
/// does not parse is [`Error::DataLoss`], a feature whose kind changes
/// between records [`Error::InvalidFormat`] (tfx-bsl's `INVALID_ARGUMENT`).
///
/// ```
/// use tftensor::arrow::{read_examples_arrow, StreamOptions};
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("arrow");
/// std::fs::create_dir_all(&dir).unwrap();
/// let path = dir.join("a.tfrecord");
/// let empty = std::collections::BTreeMap::new();
/// tftensor::tfrecord::write_examples(&path, Default::default(), &vec![empty; 5])?;
/// let batches = read_examples_arrow([dir.join("*.tfrecord")], StreamOptions::new(2))?;
/// let rows: Vec<usize> = batches.map(|b| b.map(|b| b.num_rows())).collect::<Result<_, _>>()?;
/// assert_eq!(rows, [2, 2, 1]);
/// # std::fs::remove_dir_all(&dir).unwrap();
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
        files.extend(crate::io::expand(p.as_ref())?);
    }
    Ok(ExampleBatches {
        files,
        reader: None,
        path: String::new(),
        index: 0,
        options,
        record: Vec::new(),
        done: false,
    })
}

impl ExampleBatches {
    fn next_batch(&mut self) -> Result<Option<RecordBatch>> {
        let mut decoder = if self.options.sequence {
            ExamplesDecoder::sequence()
        } else {
            ExamplesDecoder::new()
        };
        if let Some(spec) = &self.options.spec {
            decoder = decoder.only(spec.iter().map(|(n, _)| n.as_str()));
        }
        while decoder.rows() < self.options.batch_size {
            let reader = match &mut self.reader {
                Some(r) => r,
                None => match self.files.pop_front() {
                    Some(path) => {
                        self.path = path.display().to_string();
                        self.index = 0;
                        self.reader
                            .insert(RecordReader::open_any(&path, self.options.compression)?)
                    }
                    None => break,
                },
            };
            if reader.read_record(&mut self.record)? {
                let (path, index) = (&self.path, self.index);
                // The file as a field: a record that does not parse is
                // data loss; a feature whose kind changes, tfx-bsl's
                // INVALID_ARGUMENT, is a format error of this file.
                decoder
                    .push_at(&self.record, || format!("record {index}"))
                    .map_err(|e| {
                        match e {
                            Error::InvalidArgument(m) => Error::invalid_format("tfrecord", m),
                            other => other,
                        }
                        .with_path(path)
                    })?;
                self.index += 1;
            } else {
                self.reader = None;
            }
        }
        if decoder.rows() == 0 {
            return Ok(None);
        }
        let batch = decoder.finish()?;
        match &self.options.spec {
            Some(spec) => {
                let spec: Vec<(&str, FeatureSpec)> =
                    spec.iter().map(|(n, s)| (n.as_str(), s.clone())).collect();
                apply_spec(&batch, &spec).map(Some)
            }
            None => Ok(Some(batch)),
        }
    }
}

impl Iterator for ExampleBatches {
    type Item = Result<RecordBatch>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let out = self.next_batch().transpose();
        if !matches!(out, Some(Ok(_))) {
            self.done = true;
        }
        out
    }
}
