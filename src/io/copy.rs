//! [`copy`]: every (or some) tensor of a source into a sink, with progress
//! reported in bytes.

use super::quantization::{widen, widened};
use super::sink::TensorSink;
use super::source::{Entry, TensorSource};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// Reads entry `index` of `source` as real values: float32 through its
/// [`Quantization`](super::Quantization) (reading blockwise scales from their entries), or as
/// stored when it has none.
///
/// # Errors
/// As [`TensorSource::read`]; as [`Quantization::apply`](super::Quantization::apply), with the path
/// and the entry's name.
///
/// ```
/// use tftensor::io::{self, TensorSource};
/// let mut src = io::open("tests/data/npy/float32.npy")?;
/// let t = io::dequantize(src.as_mut(), 0)?; // not quantized: as stored
/// assert_eq!(t, src.read(0)?);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn dequantize(source: &mut dyn TensorSource, index: usize) -> Result<Tensor> {
    let entry: Option<Entry> = source.entries().get(index).cloned();
    let q = source.read(index)?;
    let Some((name, quant)) = entry.and_then(|e| Some((e.name, e.quantization?))) else {
        return Ok(q);
    };
    let (scales, zero_points) = match &quant.blockwise {
        Some(b) => (
            Some(source.read_named(&b.scales)?),
            b.zero_points
                .as_deref()
                .map(|z| source.read_named(z))
                .transpose()?,
        ),
        None => (None, None),
    };
    quant
        .apply(&q, scales.as_ref(), zero_points.as_ref())
        .map_err(|e| e.with_path(source.path().display()).with_key(name))
}

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
    /// A 4- or 2-bit integer tensor goes out as int8 or uint8 (exactly,
    /// one value per element) because the output cannot hold its dtype.
    Widened {
        /// The tensor.
        name: &'a str,
        /// Its dtype.
        dtype: DataType,
        /// The dtype written.
        to: DataType,
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
            CopyEvent::Skipped { .. } | CopyEvent::Widened { .. } => {}
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
    /// Write quantized tensors' real values (float32, through
    /// [`dequantize`](super::dequantize)) instead of the stored ones with
    /// their parameters as sidecar tensors (`NAME.scale`,
    /// `NAME.zero_point`).
    pub dequantize: bool,
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

    /// Writes quantized tensors' real values.
    ///
    /// ```
    /// assert!(tftensor::io::CopyOptions::default().dequantize(true).dequantize);
    /// ```
    pub fn dequantize(mut self, dequantize: bool) -> Self {
        self.dequantize = dequantize;
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
    let mut sidecars = Vec::new();
    for (i, mut e) in picked(source, &options.only)? {
        let mut real = false;
        if let Some(q) = e.quantization.take() {
            real = options.dequantize;
            if real {
                let dtype = q.real_dtype.unwrap_or(DataType::Float);
                e = Entry::new(e.name, dtype, e.shape);
            } else {
                sidecars.extend(q.sidecars(&e.name));
            }
        }
        let wide = widened(e.dtype).filter(|&w| !to.can_hold(e.dtype) && to.can_hold(w));
        if let Some(w) = wide {
            if let Some(on) = options.progress.as_mut() {
                on(&CopyEvent::Widened {
                    name: &e.name,
                    dtype: e.dtype,
                    to: w,
                });
            }
            e = Entry::new(e.name, w, e.shape);
        }
        if to.can_hold(e.dtype) {
            copied.push((i, e, real));
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
    let sidecars: Vec<(String, Tensor)> = sidecars
        .into_iter()
        .filter(|(_, t)| to.can_hold(t.dtype()))
        .collect();
    if to.holds_one_tensor() && copied.len() + sidecars.len() != 1 {
        return Err(Error::InvalidArgument(format!(
            "a {to} file holds one tensor, and {} are selected",
            copied.len() + sidecars.len()
        ))
        .with_path(sink.path().display()));
    }
    // A tensor of unknown size (strings) counts nothing, in the total and
    // in the progress.
    let total_bytes = copied.iter().filter_map(|(_, e, _)| e.byte_len).sum();
    sink.set_metadata(&source.metadata());
    let planned: Vec<Entry> = copied
        .iter()
        .map(|(_, e, _)| e.clone())
        .chain(sidecars.iter().map(|(n, t)| Entry::of(n, t)))
        .collect();
    sink.plan(&planned)?;
    if let Some(on) = options.progress.as_mut() {
        on(&CopyEvent::Start { total_bytes });
    }
    for (i, e, real) in copied {
        let (before, mut read) = (report.bytes, 0u64);
        // A tensor of unknown size (strings) moves no progress.
        let at_most = |n: u64| e.byte_len.map_or(before, |len| before + n.min(len));
        let progress = &mut options.progress;
        let mut on_read = |n: u64| {
            read = read.saturating_add(n);
            if let Some(on) = progress.as_mut() {
                // The file's bytes include a header: at most the tensor's.
                on(&CopyEvent::Reading {
                    name: &e.name,
                    done_bytes: at_most(read),
                });
            }
        };
        let mut tensor = if real {
            dequantize(&mut *source, i)?
        } else {
            source.read_with_progress(i, &mut on_read)?
        };
        if tensor.dtype() != e.dtype {
            if let Some(wide) = widen(&tensor) {
                tensor = wide.map_err(|err| err.with_key(&e.name))?;
            }
        }
        let (progress, mut written) = (&mut options.progress, 0u64);
        sink.add_with_progress(&e.name, &tensor, &mut |n| {
            written = written.saturating_add(n);
            if let Some(on) = progress.as_mut() {
                // The record's framing is counted too: at most the tensor's.
                on(&CopyEvent::Writing {
                    name: &e.name,
                    done_bytes: at_most(written),
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
    for (name, t) in &sidecars {
        sink.add(name, t)?;
        report.copied += 1;
    }
    sink.finish()?;
    Ok(report)
}
