//! [`copy`]: every (or some) tensor of a source into a sink, with progress
//! reported in bytes.

use super::sink::TensorSink;
use super::source::{Entry, TensorSource};
use crate::dtype::DataType;
use crate::error::{Error, Result};

/// What [`copy`] reports as it goes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CopyEvent<'a> {
    /// Before the first tensor: the bytes to copy (tensors whose size is
    /// known from dtype and shape).
    Start {
        /// The total.
        total_bytes: u64,
    },
    /// A tensor left out because the output cannot hold its dtype.
    Skipped {
        /// The tensor.
        name: &'a str,
        /// Its dtype.
        dtype: DataType,
    },
    /// Part of a tensor was read (formats that report inside one tensor:
    /// `.npy` and TensorProto files, in steps of up to 64 MiB).
    Reading {
        /// The tensor.
        name: &'a str,
        /// Bytes copied so far, this tensor's read part included.
        done_bytes: u64,
    },
    /// Part of a tensor was written (sinks that report inside one tensor:
    /// TFRecord files, compressed or not, in steps of 1 MiB).
    Writing {
        /// The tensor.
        name: &'a str,
        /// Bytes copied so far, this tensor's written part included.
        done_bytes: u64,
    },
    /// A tensor was written.
    Copied {
        /// The tensor.
        name: &'a str,
        /// Bytes copied so far.
        done_bytes: u64,
    },
}

/// A copy's progress as one count of bytes out of a total, for a bar:
/// each tensor's bytes count half as they are read and half as they are
/// written (where the source and the sink report inside one tensor, the
/// bar then moves during both), and whole once the tensor is copied.
///
/// ```
/// use tftensor::io::{CopyEvent, CopyProgress};
/// let mut p = CopyProgress::default();
/// assert_eq!(p.update(&CopyEvent::Start { total_bytes: 100 }), (0, 100));
/// assert_eq!(p.update(&CopyEvent::Reading { name: "w", done_bytes: 100 }), (50, 100));
/// assert_eq!(p.update(&CopyEvent::Writing { name: "w", done_bytes: 40 }), (70, 100));
/// assert_eq!(p.update(&CopyEvent::Copied { name: "w", done_bytes: 100 }), (100, 100));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CopyProgress {
    total: u64,
    read: u64,
    written: u64,
}

impl CopyProgress {
    /// Takes one event; returns `(done_bytes, total_bytes)` after it.
    ///
    /// ```
    /// use tftensor::io::{CopyEvent, CopyProgress};
    /// let mut p = CopyProgress::default();
    /// p.update(&CopyEvent::Start { total_bytes: 8 });
    /// // A sink that reports while it writes moves the count too.
    /// assert_eq!(p.update(&CopyEvent::Writing { name: "w", done_bytes: 8 }), (4, 8));
    /// ```
    pub fn update(&mut self, event: &CopyEvent<'_>) -> (u64, u64) {
        match *event {
            CopyEvent::Start { total_bytes } => self.total = total_bytes,
            CopyEvent::Reading { done_bytes, .. } => self.read = done_bytes,
            CopyEvent::Writing { done_bytes, .. } => self.written = done_bytes,
            CopyEvent::Copied { done_bytes, .. } => {
                (self.read, self.written) = (done_bytes, done_bytes)
            }
            CopyEvent::Skipped { .. } => {}
        }
        (
            self.read / 2 + self.written / 2 + (self.read % 2 + self.written % 2) / 2,
            self.total,
        )
    }
}

/// How [`copy`] selects tensors and reports progress.
///
/// ```
/// let mut seen = 0;
/// let mut on = |_: &tftensor::io::CopyEvent<'_>| seen += 1;
/// let opts = tftensor::io::CopyOptions::default().only(["a"]).progress(&mut on);
/// assert_eq!(opts.only, ["a"]);
/// ```
#[derive(Default)]
#[non_exhaustive]
pub struct CopyOptions<'a> {
    /// Copy only these tensors, in this order (all when empty). Each must
    /// exist.
    pub only: Vec<String>,
    /// Leave out tensors the output cannot hold (reported as
    /// [`CopyEvent::Skipped`]) instead of failing.
    pub skip_unsupported: bool,
    /// Called with each [`CopyEvent`].
    pub progress: Option<&'a mut dyn FnMut(&CopyEvent<'_>)>,
}

impl<'a> CopyOptions<'a> {
    /// Selects tensors by name.
    ///
    /// ```
    /// let opts = tftensor::io::CopyOptions::default().only(["w", "b"]);
    /// assert_eq!(opts.only, ["w", "b"]);
    /// ```
    pub fn only<S: Into<String>>(mut self, names: impl IntoIterator<Item = S>) -> Self {
        self.only = names.into_iter().map(Into::into).collect();
        self
    }

    /// Skips tensors the output cannot hold.
    ///
    /// ```
    /// assert!(tftensor::io::CopyOptions::default().skip_unsupported(true).skip_unsupported);
    /// ```
    pub fn skip_unsupported(mut self, skip: bool) -> Self {
        self.skip_unsupported = skip;
        self
    }

    /// Reports progress to `on`.
    ///
    /// ```
    /// let mut events = 0;
    /// let mut on = |_: &tftensor::io::CopyEvent<'_>| events += 1;
    /// let opts = tftensor::io::CopyOptions::default().progress(&mut on);
    /// assert!(opts.progress.is_some());
    /// ```
    pub fn progress(mut self, on: &'a mut dyn FnMut(&CopyEvent<'_>)) -> Self {
        self.progress = Some(on);
        self
    }
}

/// What [`copy`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct CopyReport {
    /// Tensors written.
    pub copied: usize,
    /// Tensors left out, by name.
    pub skipped: Vec<String>,
    /// Element bytes written (tensors of known size).
    pub bytes: u64,
}

/// The indices of `names` in `source`'s entries, in the order given; none
/// selects everything.
///
/// # Errors
/// [`Error::NotFound`] for a name the source lacks, the name as its key
/// ([`Error::key`]).
///
/// ```
/// let src = tftensor::io::open("tests/data/checkpoints/tf2_keras")?;
/// assert!(tftensor::io::select(src.as_ref(), &["nope".to_string()]).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn select(source: &dyn TensorSource, names: &[String]) -> Result<Vec<usize>> {
    Ok(picked(source, names)?.into_iter().map(|(i, _)| i).collect())
}

/// The selected entries with their indices: every entry, or those named,
/// in the order given.
fn picked(source: &dyn TensorSource, names: &[String]) -> Result<Vec<(usize, Entry)>> {
    let entries = source.entries();
    if names.is_empty() {
        return Ok(entries.iter().cloned().enumerate().collect());
    }
    names
        .iter()
        .map(|name| {
            entries
                .iter()
                .enumerate()
                .find(|(_, e)| e.name == *name)
                .map(|(i, e)| (i, e.clone()))
                .ok_or_else(|| {
                    Error::not_found("no such tensor")
                        .with_path(source.path().display())
                        .with_key(name)
                })
        })
        .collect()
}

/// Copies tensors from `source` into `sink` and finishes it. Tensors the
/// sink's format cannot hold fail the copy (naming the tensor), or are
/// skipped with [`CopyOptions::skip_unsupported`]. A format that holds one
/// tensor needs exactly one selected.
///
/// # Errors
/// The source's and sink's errors; [`Error::UnsupportedDataType`] for a
/// dtype the output cannot hold; [`Error::InvalidArgument`] for a
/// one-tensor output given several.
///
/// ```
/// use tftensor::io::{copy, create, open, CopyOptions, TensorSource};
/// let tmp = tempfile::tempdir().unwrap();
/// let out = tmp.path().join("copy.safetensors");
/// let mut src = open("tests/data/checkpoints/tf2_keras")?;
/// let report = copy(src.as_mut(), create(&out)?, CopyOptions::default().skip_unsupported(true))?;
/// assert_eq!(report.skipped, ["_CHECKPOINTABLE_OBJECT_GRAPH"]);
/// assert_eq!(open(&out)?.entries().len(), report.copied);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn copy(
    source: &mut dyn TensorSource,
    mut sink: Box<dyn TensorSink>,
    mut options: CopyOptions<'_>,
) -> Result<CopyReport> {
    let to = sink.format();
    let mut report = CopyReport::default();
    let mut copied = Vec::new();
    for (i, e) in picked(source, &options.only)? {
        if to.can_hold(e.dtype) {
            copied.push((i, e));
        } else if options.skip_unsupported {
            if let Some(on) = options.progress.as_mut() {
                on(&CopyEvent::Skipped {
                    name: &e.name,
                    dtype: e.dtype,
                });
            }
            report.skipped.push(e.name);
        } else {
            return Err(Error::UnsupportedDataType {
                dtype: Some(e.dtype),
                message: format!("dtype {}, which {to} cannot hold", e.dtype.name()),
            }
            .with_path(source.path().display())
            .with_key(&e.name));
        }
    }
    if to.holds_one_tensor() && copied.len() != 1 {
        return Err(Error::InvalidArgument(format!(
            "a {to} file holds one tensor, and {} are selected",
            copied.len()
        ))
        .with_path(sink.path().display()));
    }
    // A tensor of unknown size (strings) counts nothing, in the total and
    // in the progress.
    let total_bytes = copied.iter().filter_map(|(_, e)| e.byte_len).sum();
    sink.set_metadata(&source.metadata());
    let planned: Vec<Entry> = copied.iter().map(|(_, e)| e.clone()).collect();
    sink.plan(&planned)?;
    if let Some(on) = options.progress.as_mut() {
        on(&CopyEvent::Start { total_bytes });
    }
    for (i, e) in copied {
        let (before, mut read) = (report.bytes, 0u64);
        let progress = &mut options.progress;
        let tensor = source.read_with_progress(i, &mut |n| {
            read = read.saturating_add(n);
            if let Some(on) = progress.as_mut() {
                // The file's bytes include a header: at most the tensor's.
                on(&CopyEvent::Reading {
                    name: &e.name,
                    // A tensor of unknown size moves no progress.
                    done_bytes: e.byte_len.map_or(before, |len| before + read.min(len)),
                });
            }
        })?;
        let (progress, mut written) = (&mut options.progress, 0u64);
        sink.add_with_progress(&e.name, &tensor, &mut |n| {
            written = written.saturating_add(n);
            if let Some(on) = progress.as_mut() {
                // The record's framing is counted too: at most the tensor's.
                on(&CopyEvent::Writing {
                    name: &e.name,
                    done_bytes: before + written.min(len),
                });
            }
        })?;
        report.copied += 1;
        // A tensor of unknown size (strings) counts nothing, as in the total.
        if let Some(len) = e.byte_len {
            report.bytes += len;
        }
        if let Some(on) = options.progress.as_mut() {
            on(&CopyEvent::Copied {
                name: &e.name,
                done_bytes: report.bytes,
            });
        }
    }
    sink.finish()?;
    Ok(report)
}
