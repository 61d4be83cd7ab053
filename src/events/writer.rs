//! [`SummaryWriter`]: event files as TF 2.21's `tf.summary` writes them.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use bytes::Bytes;
use prost::Message;

use super::encode::{float_scalar, summary_event};
use super::{PLUGIN_HISTOGRAMS, PLUGIN_IMAGES, PLUGIN_SCALARS, PLUGIN_TEXT};
use crate::pb;
use crate::tfrecord::{Compression, RecordWriter};
use crate::{DataType, Error, Result, Tensor};

/// TensorBoard's default number of histogram buckets
/// (`summary_v2.DEFAULT_BUCKET_COUNT`).
pub const DEFAULT_BUCKET_COUNT: usize = 30;

/// The file version every event file starts with.
const FILE_VERSION: &str = "brain.Event:2";
/// What the first record names as the writer.
const WRITER_NAME: &str = "tftensor";

/// Numbers the writers of this process, as TF's global counter does, so
/// two writers created in the same second get different files.
static WRITER_COUNT: AtomicU64 = AtomicU64::new(0);

/// Writes one event file in a log directory, as `tf.summary` does: the
/// file `events.out.tfevents.<secs>.<host>.<pid>.<n>.v2`, starting with
/// `file_version: "brain.Event:2"`, then one summary `Event` per value,
/// with the plugin's metadata on the first value of each tag only.
///
/// Records are buffered; [`SummaryWriter::flush`] writes them out (the
/// file then ends on a whole record), and so do [`SummaryWriter::close`]
/// and dropping the writer (which loses any error).
///
/// ```
/// use tftensor::events::SummaryWriter;
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("writer");
/// let mut w = SummaryWriter::create(&dir)?;
/// w.add_scalar("loss", 0, 0.5)?;
/// w.add_histogram("weights", 0, &[0.0, 0.5, 1.0, 1.0, 2.0], 3)?;
/// w.add_text("note", 0, "**markdown**")?;
/// let name = w.path().file_name().unwrap().to_string_lossy().into_owned();
/// assert!(name.starts_with("events.out.tfevents.") && name.ends_with(".v2"));
/// w.close()?;
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct SummaryWriter {
    records: RecordWriter<File>,
    path: PathBuf,
    /// Tags written so far (metadata goes on the first value only).
    seen: HashSet<String>,
    /// The record being encoded, reused.
    scratch: Vec<u8>,
    scalar_metadata: Vec<u8>,
}

impl SummaryWriter {
    /// Creates `logdir` (and its parents) if needed, and a new event file
    /// in it; writes the `file_version` record.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when the directory or the file cannot be
    /// created (an existing file is never overwritten).
    ///
    /// ```
    /// assert!(tftensor::events::SummaryWriter::create("/proc/no/such").is_err());
    /// ```
    pub fn create(logdir: impl AsRef<Path>) -> Result<SummaryWriter> {
        let logdir = logdir.as_ref();
        std::fs::create_dir_all(logdir).map_err(|e| Error::io(logdir.display(), e))?;
        let now = now();
        let name = format!(
            "events.out.tfevents.{:010}.{}.{}.{}.v2",
            now.floor() as i64,
            hostname(),
            std::process::id(),
            WRITER_COUNT.fetch_add(1, Ordering::Relaxed)
        );
        let path = logdir.join(name);
        let file = OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|e| Error::io(path.display(), e))?;
        let records =
            RecordWriter::new(file, Compression::None).with_name(path.display().to_string());
        let scalar_metadata = plugin_metadata(PLUGIN_SCALARS, Bytes::new()).encode_to_vec();
        let mut w = SummaryWriter {
            records,
            path,
            seen: HashSet::new(),
            scratch: Vec::with_capacity(256),
            scalar_metadata,
        };
        // TF writes whole seconds here.
        w.write_event(&pb::Event {
            wall_time: now.floor(),
            step: 0,
            what: Some(pb::event::What::FileVersion(FILE_VERSION.to_owned())),
            source_metadata: Some(pb::SourceMetadata {
                writer: WRITER_NAME.to_owned(),
            }),
        })?;
        Ok(w)
    }

    /// The event file's path.
    #[must_use]
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes a scalar as `tf.summary.scalar` does: a float32 rank-0
    /// tensor (the only scalar RustBoard reads), plugin `scalars`.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when writing fails.
    pub fn add_scalar(&mut self, tag: &str, step: i64, value: f32) -> Result<()> {
        let first = self.first(tag);
        self.scratch.clear();
        let metadata: &[u8] = if first { &self.scalar_metadata } else { &[] };
        summary_event(
            &mut self.scratch,
            now(),
            step,
            tag,
            &float_scalar(value),
            metadata,
        );
        self.records.write_record(&self.scratch)
    }

    /// Writes any tensor as `tf.summary.write` does, with `metadata` (if
    /// any) on the first value of the tag. Without plugin metadata,
    /// TensorBoard's dashboards do not show the tag.
    ///
    /// # Errors
    /// A tensor with no `TensorProto` form; [`crate::Error::Io`] when
    /// writing fails.
    pub fn add_tensor(
        &mut self,
        tag: &str,
        step: i64,
        value: &Tensor,
        metadata: Option<&pb::SummaryMetadata>,
    ) -> Result<()> {
        // As TF: numbers in tensor_content, strings in string_val (which
        // TensorBoard's Python reader needs; it cannot read encoded string lists).
        let proto = if value.dtype() == DataType::String {
            value.as_proto_field()?
        } else {
            value.as_proto_tensor_content()?
        };
        let tensor = proto.encode_to_vec();
        let first = self.first(tag);
        let metadata = match metadata {
            Some(m) if first => m.encode_to_vec(),
            _ => Vec::new(),
        };
        self.scratch.clear();
        summary_event(&mut self.scratch, now(), step, tag, &tensor, &metadata);
        self.records.write_record(&self.scratch)
    }

    /// Writes a histogram of `data` in `buckets` buckets as
    /// `tf.summary.histogram` does (see [`histogram_buckets`]): a float64
    /// `[buckets, 3]` tensor of `(left, right, count)`, plugin `histograms`.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when writing fails.
    pub fn add_histogram(
        &mut self,
        tag: &str,
        step: i64,
        data: &[f64],
        buckets: usize,
    ) -> Result<()> {
        let tensor = histogram_buckets(data, buckets)?;
        self.add_tensor(
            tag,
            step,
            &tensor,
            Some(&plugin_metadata(PLUGIN_HISTOGRAMS, Bytes::new())),
        )
    }

    /// Writes markdown text as `tf.summary.text` does: a string scalar,
    /// plugin `text`.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when writing fails.
    pub fn add_text(&mut self, tag: &str, step: i64, text: &str) -> Result<()> {
        self.add_tensor(
            tag,
            step,
            &Tensor::from(text),
            Some(&plugin_metadata(PLUGIN_TEXT, Bytes::new())),
        )
    }

    /// Writes one encoded (PNG, JPEG, GIF) image as `tf.summary.image`
    /// does: a string `[3]` tensor `[width, height, image]` (ASCII
    /// decimal sizes), plugin `images`. The bytes are not checked.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when writing fails.
    pub fn add_image(
        &mut self,
        tag: &str,
        step: i64,
        encoded: &[u8],
        width: u32,
        height: u32,
    ) -> Result<()> {
        let blobs = vec![
            Bytes::from(width.to_string()),
            Bytes::from(height.to_string()),
            Bytes::copy_from_slice(encoded),
        ];
        let tensor = Tensor::from_vec([3], blobs)?;
        self.add_tensor(
            tag,
            step,
            &tensor,
            Some(&plugin_metadata(PLUGIN_IMAGES, Bytes::new())),
        )
    }

    /// Writes any `Event` as it is (a graph, a session log, a TF1 value).
    ///
    /// # Errors
    /// [`crate::Error::Io`] when writing fails.
    pub fn write_event(&mut self, event: &pb::Event) -> Result<()> {
        self.scratch.clear();
        event.encode(&mut self.scratch).map_err(|e| {
            Error::invalid_format("TensorBoard event file", e.to_string())
                .with_path(self.path.display())
        })?;
        self.records.write_record(&self.scratch)
    }

    /// Writes buffered records to the file.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when writing fails.
    pub fn flush(&mut self) -> Result<()> {
        self.records.flush()
    }

    /// Flushes and closes the file.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when writing fails.
    pub fn close(mut self) -> Result<()> {
        self.flush()
    }

    /// Records `tag` as written; true the first time.
    fn first(&mut self, tag: &str) -> bool {
        !self.seen.contains(tag) && self.seen.insert(tag.to_owned())
    }
}

impl Drop for SummaryWriter {
    fn drop(&mut self) {
        // Errors cannot be returned from drop; `close` reports them.
        let _ = self.records.flush();
    }
}

impl std::fmt::Debug for SummaryWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SummaryWriter")
            .field("path", &self.path)
            .field("tags", &self.seen.len())
            .finish_non_exhaustive()
    }
}

/// `SummaryMetadata { plugin_data { plugin_name, content } }`, data class
/// unset, as TF writes it.
pub(super) fn plugin_metadata(plugin: &str, content: Bytes) -> pb::SummaryMetadata {
    pb::SummaryMetadata {
        plugin_data: Some(pb::summary_metadata::PluginData {
            plugin_name: plugin.to_owned(),
            content,
        }),
        ..pb::SummaryMetadata::default()
    }
}

/// TensorBoard's histogram of `data` (`summary_v2._buckets`): a float64
/// `[buckets, 3]` tensor of `(left, right, count)` rows. The edges are
/// `linspace(min, max, buckets + 1)`; a value goes to bucket
/// `min(floor((x - min) / width), buckets - 1)`. All-equal data puts its
/// count in the last of `buckets` `[v, v]` buckets; empty data gives
/// `buckets` zero rows, and `buckets == 0` a `[0, 3]` tensor.
///
/// # Errors
/// None in practice (a size overflow).
///
/// ```
/// let t = tftensor::events::histogram_buckets(&[0.0, 0.5, 1.0, 1.0, 2.0], 2)?;
/// assert_eq!(t.as_slice::<f64>()?, &[0.0, 1.0, 2.0, 1.0, 2.0, 3.0]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn histogram_buckets(data: &[f64], buckets: usize) -> Result<Tensor> {
    let k = buckets;
    let mut rows = vec![0.0f64; k * 3];
    if let (Some(&first), false) = (data.first(), k == 0) {
        let (min, max) = data
            .iter()
            .fold((first, first), |(lo, hi), &x| (lo.min(x), hi.max(x)));
        let range = max - min;
        let mut counts = vec![0.0f64; k];
        if range == 0.0 {
            if let Some(last) = counts.last_mut() {
                *last = data.len() as f64;
            }
            for (row, c) in rows.chunks_exact_mut(3).zip(&counts) {
                row.copy_from_slice(&[max, max, *c]);
            }
        } else {
            let width = range / k as f64;
            for &x in data {
                // As TF: floor to int32, clamped to the last bucket.
                let i = (((x - min) / width).floor() as i64).clamp(0, k as i64 - 1) as usize;
                if let Some(c) = counts.get_mut(i) {
                    *c += 1.0;
                }
            }
            // tf.linspace: start + i * step, the last edge exactly max.
            let step = range / k as f64;
            let edge = |i: usize| if i == k { max } else { min + step * i as f64 };
            for (i, (row, c)) in rows.chunks_exact_mut(3).zip(&counts).enumerate() {
                row.copy_from_slice(&[edge(i), edge(i + 1), *c]);
            }
        }
    }
    Tensor::from_vec([k as i64, 3], rows)
}

/// Unix time in seconds, to the microsecond (TF's `NowMicros() / 1e6`).
fn now() -> f64 {
    // A clock set before 1970 reads as 1970: the time only labels values.
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    since.as_micros() as f64 / 1e6
}

/// The host name, as `gethostname` gives it on Linux; `localhost` where
/// the system does not say (it only names the file).
fn hostname() -> String {
    // Only the file name uses the host, as TF falls back too.
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "localhost".to_owned())
}
