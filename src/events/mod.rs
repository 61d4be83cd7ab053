//! TensorBoard event files (`events.out.tfevents.*`): read a log directory
//! as TensorBoard does, write one that TensorBoard shows.
//!
//! An event file is a TFRecord stream (read and written with
//! [`crate::tfrecord`]) of [`pb::Event`] protos. The pieces:
//!
//! * [`EventReader`]: every value of a file or of a log directory with its
//!   runs, as [`EventValue`]s `{run, tag, step, wall_time, kind, value}`.
//!   Old (TF1) values are migrated to tensors exactly as TensorBoard's
//!   Python loader does (`data_compat.py`, `dataclass_compat.py`): a
//!   `simple_value` becomes a float32 scalar, a `HistogramProto` a float32
//!   `[k, 3]` tensor of `(left, right, count)` with empty end buckets dropped,
//!   an image a string `[3]` tensor `[width, height, png]`. Where
//!   TensorBoard's two readers disagree (TF1 histograms: RustBoard keeps every
//!   bucket, as float64), the Python `EventAccumulator` is the reference.
//! * [`SummaryWriter`]: writes scalars, tensors, histograms, text and images
//!   as TF 2.21's `tf.summary` does.
//! * [`series`] and [`list`]: a log directory grouped into time series.
//!
//! ```
//! use tftensor::events::{EventReader, Kind, SummaryWriter};
//!
//! let tmp = tempfile::tempdir().unwrap(); // removed when dropped
//! let dir = tmp.path().join("events");
//! let mut w = SummaryWriter::create(dir.join("train"))?;
//! for step in 0..3 {
//!     w.add_scalar("loss", step, 1.0 / (step as f32 + 1.0))?;
//! }
//! w.close()?;
//!
//! let scalars: Vec<(String, i64, f32)> = EventReader::open(&dir)?
//!     .filter(|v| v.as_ref().map_or(true, |v| v.kind == Kind::Scalar))
//!     .map(|v| {
//!         let v = v?;
//!         Ok((v.run.to_string(), v.step, v.value.scalar::<f32>()?[()]))
//!     })
//!     .collect::<tftensor::Result<_>>()?;
//! assert_eq!(scalars[2], ("train".to_string(), 2, 1.0 / 3.0));
//! # std::fs::remove_dir_all(&dir).unwrap();
//! # Ok::<(), tftensor::Error>(())
//! ```
//!
//! Not done here: TensorBoard's purge of data after a `SessionLog START` or
//! a step going backwards, and its reservoir sampling; every value is kept.
//! The first metadata of a tag is kept per run (as RustBoard and
//! `EventAccumulator.summary_metadata` do; Python's loader migrates per
//! file, which differs only when a run's files disagree on a tag's first
//! metadata).

mod columns;
mod discover;
mod encode;
mod fast;
mod migrate;
mod reader;
mod series;
mod writer;

pub use discover::{RunFiles, discover};
pub(crate) use discover::{discover_in, is_summary_events_file};
pub use reader::EventReader;
pub(crate) use series::series_in;
pub use series::{Series, SeriesInfo, SeriesValues, list, series};
pub use writer::{DEFAULT_BUCKET_COUNT, SummaryWriter, histogram_buckets};

use std::fmt::Display;
use std::sync::Arc;

use crate::{Error, Tensor, pb};

/// What a value is, from the plugin named in the first metadata of its tag
/// in its run (as TensorBoard decides), or from the kind of event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Kind {
    /// Plugin `scalars`: a rank-0 tensor (float32 from TF and from TF1's
    /// `simple_value`).
    Scalar,
    /// Plugin `histograms`: a `[k, 3]` tensor of `(left, right, count)`
    /// (float64 from TF2, float32 when migrated from a TF1 `HistogramProto`).
    Histogram,
    /// Plugin `text`: a string tensor of any shape.
    Text,
    /// Plugin `images`: a string `[2 + n]` tensor: width, height (ASCII
    /// decimal), then n encoded images.
    Image,
    /// Plugin `audio`: a string `[n]` tensor of encoded clips.
    Audio,
    /// The graph of a run (tag `__run_graph__`, plugin `graphs`): a string
    /// `[1]` tensor holding a serialized `GraphDef`.
    Graph,
    /// A serialized `RunMetadata` (a `tagged_run_metadata` event, plugin
    /// `graph_tagged_run_metadata`, or plugin `graph_run_metadata` /
    /// `graph_run_metadata_graph`): a string `[1]` tensor.
    RunMetadata,
    /// Another blob sequence (data class `DATA_CLASS_BLOB_SEQUENCE`, e.g.
    /// plugin `graph_keras_model`).
    Blob,
    /// Any other tensor summary: another plugin, or no metadata (TensorBoard's
    /// dashboards do not show those).
    Tensor,
    /// A `meta_graph_def` event: a string scalar holding a serialized
    /// `MetaGraphDef`. Its tag is empty.
    MetaGraph,
    /// A `file_version` event (`"brain.Event:2"`): a string scalar. Its tag
    /// is empty.
    FileVersion,
    /// A `session_log` event: a string scalar holding the serialized
    /// [`pb::SessionLog`]. Its tag is empty.
    SessionLog,
    /// A `log_message` event: a string scalar holding the serialized
    /// [`pb::LogMessage`]. Its tag is empty.
    LogMessage,
}

impl Kind {
    /// The kind of a tag whose first metadata names `plugin_name` and
    /// `data_class`, as `dataclass_compat.py` infers it.
    ///
    /// ```
    /// use tftensor::events::Kind;
    /// use tftensor::pb::DataClass;
    /// assert_eq!(Kind::from_plugin("scalars", DataClass::Unknown), Kind::Scalar);
    /// assert_eq!(Kind::from_plugin("my_plugin", DataClass::BlobSequence), Kind::Blob);
    /// assert_eq!(Kind::from_plugin("", DataClass::Unknown), Kind::Tensor);
    /// ```
    #[must_use]
    pub fn from_plugin(plugin_name: &str, data_class: pb::DataClass) -> Kind {
        match plugin_name {
            PLUGIN_SCALARS => Kind::Scalar,
            PLUGIN_HISTOGRAMS => Kind::Histogram,
            PLUGIN_TEXT => Kind::Text,
            PLUGIN_IMAGES => Kind::Image,
            PLUGIN_AUDIO => Kind::Audio,
            PLUGIN_GRAPHS => Kind::Graph,
            PLUGIN_RUN_METADATA | PLUGIN_RUN_METADATA_GRAPH | PLUGIN_TAGGED_RUN_METADATA => {
                Kind::RunMetadata
            }
            _ => match data_class {
                pb::DataClass::Scalar => Kind::Scalar,
                pb::DataClass::BlobSequence => Kind::Blob,
                pb::DataClass::Tensor | pb::DataClass::Unknown => Kind::Tensor,
            },
        }
    }

    /// True for the kinds that are summary values (a tag's time series),
    /// false for the other events (file version, meta graph, session and
    /// log messages).
    ///
    /// ```
    /// assert!(tftensor::events::Kind::Graph.is_summary());
    /// assert!(!tftensor::events::Kind::FileVersion.is_summary());
    /// ```
    #[must_use]
    pub fn is_summary(self) -> bool {
        !matches!(
            self,
            Kind::MetaGraph | Kind::FileVersion | Kind::SessionLog | Kind::LogMessage
        )
    }
}

/// One value read from an event file, after TensorBoard's migration.
#[derive(Clone, Debug, PartialEq)]
pub struct EventValue {
    /// The run: the directory of the file relative to the log directory,
    /// `/`-separated, `"."` for the log directory itself (and for a single
    /// file opened directly).
    pub run: Arc<str>,
    /// The tag (TensorBoard's: the value's `node_name` when `tag` is empty);
    /// empty for events that are not summaries. Shared by the values of a
    /// tag.
    pub tag: Arc<str>,
    /// The step.
    pub step: i64,
    /// Unix time in seconds.
    pub wall_time: f64,
    /// What the value is.
    pub kind: Kind,
    /// The plugin named by the first metadata of the tag in the run (`""`
    /// for none).
    pub plugin_name: Arc<str>,
    /// The data class of the tag: the first metadata's, or the one
    /// TensorBoard infers from the plugin name.
    pub data_class: pb::DataClass,
    /// The value as a tensor (see [`Kind`] for each kind's layout).
    pub value: Tensor,
}

// Plugin names, as TensorBoard's plugins' metadata.py spell them.
const PLUGIN_SCALARS: &str = "scalars";
const PLUGIN_HISTOGRAMS: &str = "histograms";
const PLUGIN_TEXT: &str = "text";
const PLUGIN_IMAGES: &str = "images";
const PLUGIN_AUDIO: &str = "audio";
const PLUGIN_GRAPHS: &str = "graphs";
const PLUGIN_RUN_METADATA: &str = "graph_run_metadata";
const PLUGIN_RUN_METADATA_GRAPH: &str = "graph_run_metadata_graph";
/// The plugin TensorBoard files `tagged_run_metadata` events under.
const PLUGIN_TAGGED_RUN_METADATA: &str = "graph_tagged_run_metadata";
const PLUGIN_KERAS_MODEL: &str = "graph_keras_model";
const PLUGIN_HPARAMS: &str = "hparams";
/// The tag TensorBoard files a run's graph under.
const RUN_GRAPH_TAG: &str = "__run_graph__";

/// A record of the event file `name`, at `offset`, that is not what it
/// should be.
fn invalid(name: &str, offset: u64, message: impl Display) -> Error {
    Error::invalid_format("TensorBoard event file", message.to_string())
        .with_path(name)
        .with_offset(offset)
}

/// Damage at a byte offset of the event file `name`.
fn data_loss(name: &str, offset: u64, message: impl Display) -> Error {
    Error::data_loss(message.to_string())
        .with_path(name)
        .with_offset(offset)
}
