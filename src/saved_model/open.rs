//! `SavedModel::open`: the directory, `saved_model.pb` and `fingerprint.pb`.

use super::meta_graph::{GraphSource, MetaGraph};
use super::scan::{Scanned, Stop, scan};
use super::slim::SlimSavedModel;
use super::{
    FINGERPRINT_FILENAME, SAVED_MODEL_FILENAME_CPB, SAVED_MODEL_FILENAME_PB,
    SAVED_MODEL_FILENAME_PBTXT, invalid, not_found,
};
use crate::error::Result;
use crate::io::{Blob, LocalFs, Stat, Store};
use crate::pb;
use bytes::Bytes;
use prost::Message;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A SavedModel's `saved_model.pb` (and `fingerprint.pb`), decoded for
/// listing: tag sets, signatures, fingerprint, object graph. Each meta
/// graph's `GraphDef` is kept as bytes and decoded on demand.
///
/// ```
/// use tftensor::saved_model::SavedModel;
/// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/saved_model/module");
/// let model = SavedModel::open(dir)?;
/// let serve = model.meta_graph("serve")?;
/// let sig = serve.signature("serving_default")?;
/// let x = &sig.inputs()["x"];
/// assert_eq!((x.name(), x.dims()), ("serving_default_x:0", Some(&[-1, 3][..])));
/// assert!(model.show_all()?.contains("Method name is: tensorflow/serving/predict\n"));
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct SavedModel {
    path: PathBuf,
    schema_version: i64,
    meta_graphs: Vec<MetaGraph>,
    fingerprint: Option<pb::FingerprintDef>,
}

impl SavedModel {
    /// Reads `dir/saved_model.pb`, and `dir/fingerprint.pb` if present.
    ///
    /// # Errors
    /// [`Error::NotFound`](crate::Error::NotFound) when there is no
    /// `saved_model.pb` (with a note when only the text or chunked form
    /// exists, which this crate does not read);
    /// [`Error::Io`](crate::Error::Io) on read errors;
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat) when the bytes
    /// are not a SavedModel or hold no meta graph, or `fingerprint.pb` is
    /// not a `FingerprintDef`.
    pub fn open<P: AsRef<Path>>(dir: P) -> Result<SavedModel> {
        let dir = dir.as_ref();
        let mut model = SavedModel::open_in(&LocalFs::new(), &dir.to_string_lossy())?;
        model.path = dir.to_path_buf();
        Ok(model)
    }

    /// [`SavedModel::open`] of the directory `dir` of `store`: its files are
    /// read by range through the store (`saved_model.pb` is scanned, each
    /// graph read when asked for).
    ///
    /// # Errors
    /// As [`SavedModel::open`].
    ///
    /// ```
    /// use tftensor::io::LocalFs;
    /// use tftensor::saved_model::SavedModel;
    /// let model = SavedModel::open_in(&LocalFs::new(), "tests/data/saved_model/module")?;
    /// assert!(model.meta_graph("serve").is_ok());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn open_in(store: &dyn Store, dir: &str) -> Result<SavedModel> {
        let pb_key = store.join(dir, SAVED_MODEL_FILENAME_PB);
        if !matches!(store.stat(&pb_key)?, Stat::File { .. }) {
            return Err(missing(store, dir));
        }
        let blob = store.open(&pb_key)?;
        let mut model = match scan(&*blob) {
            Ok(s) => Self::from_scan(s, &blob)?,
            Err(Stop::Err(e)) => return Err(e),
            // Framing the scan leaves to prost: decode the whole file.
            Err(Stop::Fallback) => Self::parse(blob.read_all()?, blob.id())?,
        };
        model.path = PathBuf::from(store.id(dir));
        let fp_key = store.join(dir, FINGERPRINT_FILENAME);
        model.fingerprint = match store.stat(&fp_key)? {
            Stat::File { .. } => {
                let fp = store.open(&fp_key)?;
                let bytes = fp.read_all()?;
                Some(
                    pb::FingerprintDef::decode(bytes)
                        .map_err(|e| invalid(fp.id(), format!("not a FingerprintDef: {e}")))?,
                )
            }
            Stat::Missing | Stat::Dir => None,
        };
        Ok(model)
    }

    /// Decodes the bytes of a `saved_model.pb` (no fingerprint, no path).
    ///
    /// # Errors
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat) as in
    /// [`SavedModel::open`].
    pub fn from_bytes(bytes: Bytes) -> Result<SavedModel> {
        Self::parse(bytes, SAVED_MODEL_FILENAME_PB)
    }

    /// `name` is the file, as errors give it.
    fn parse(bytes: Bytes, name: &str) -> Result<SavedModel> {
        let slim = SlimSavedModel::decode(bytes)
            .map_err(|e| invalid(name, format!("not a SavedModel: {e}")))?;
        let meta_graphs = slim
            .meta_graphs
            .into_iter()
            .map(|mut m| {
                let chunks = std::mem::take(&mut m.graph_def);
                MetaGraph::from_slim(m, GraphSource::Bytes(chunks))
            })
            .collect();
        Self::new(slim.saved_model_schema_version, meta_graphs, name)
    }

    fn from_scan(s: Scanned, blob: &Arc<dyn Blob>) -> Result<SavedModel> {
        let meta_graphs = s
            .meta_graphs
            .into_iter()
            .map(|(m, spans)| {
                let source = GraphSource::Blob {
                    blob: blob.clone(),
                    spans,
                };
                MetaGraph::from_slim(m, source)
            })
            .collect();
        Self::new(s.schema_version, meta_graphs, blob.id())
    }

    fn new(schema_version: i64, meta_graphs: Vec<MetaGraph>, name: &str) -> Result<SavedModel> {
        if meta_graphs.is_empty() {
            return Err(invalid(name, "the SavedModel holds no MetaGraphDef"));
        }
        Ok(SavedModel {
            path: PathBuf::new(),
            schema_version,
            meta_graphs,
            fingerprint: None,
        })
    }

    /// The directory it was opened from (empty for [`SavedModel::from_bytes`]).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `saved_model_schema_version` (1 in every SavedModel TF writes).
    pub fn schema_version(&self) -> i64 {
        self.schema_version
    }

    /// The meta graphs, in stored order.
    pub fn meta_graphs(&self) -> &[MetaGraph] {
        &self.meta_graphs
    }

    /// The tag sets, one per meta graph, in stored order.
    pub fn tag_sets(&self) -> Vec<&[String]> {
        self.meta_graphs.iter().map(MetaGraph::tags).collect()
    }

    /// The meta graph with tag set `tag_set` (comma-separated, order-free,
    /// as `saved_model_cli --tag_set` takes it).
    ///
    /// # Errors
    /// [`Error::NotFound`](crate::Error::NotFound) with TF's message when
    /// no meta graph has that tag set.
    pub fn meta_graph(&self, tag_set: &str) -> Result<&MetaGraph> {
        self.meta_graphs
            .iter()
            .find(|m| m.matches_tag_set(tag_set))
            .ok_or_else(|| {
                // TF joins each tag *set* (Python's set order); stored order here.
                let valid: Vec<String> = self
                    .meta_graphs
                    .iter()
                    .map(|m| m.tags().join(","))
                    .collect();
                not_found(format!(
                    "MetaGraphDef associated with tag-set {tag_set} could not be found in the \
                     SavedModel. Please use one of the following tag-sets: {}",
                    super::py::py_str_list(&valid)
                ))
            })
    }

    /// `fingerprint.pb`, when the directory has one (TF2 `tf.saved_model.save`
    /// and Keras `export` write it; TF1's builder does not).
    pub fn fingerprint(&self) -> Option<&pb::FingerprintDef> {
        self.fingerprint.as_ref()
    }

    /// TF's `Fingerprint.singleprint()`:
    /// `graph_def_program_hash/signature_def_hash/saved_object_graph_hash/checkpoint_hash`.
    pub fn singleprint(&self) -> Option<String> {
        self.fingerprint.as_ref().map(|f| {
            format!(
                "{}/{}/{}/{}",
                f.graph_def_program_hash,
                f.signature_def_hash,
                f.saved_object_graph_hash,
                f.checkpoint_hash
            )
        })
    }
}

/// The error for a directory without `saved_model.pb`.
fn missing(store: &dyn Store, dir: &str) -> crate::error::Error {
    let other = [SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_FILENAME_CPB]
        .into_iter()
        .find(|f| matches!(store.stat(&store.join(dir, f)), Ok(Stat::File { .. })));
    let shown = store.id(dir);
    match other {
        Some(f) => invalid(
            shown,
            format!(
                "only {f} found; text-format and chunked SavedModels are not read, only {SAVED_MODEL_FILENAME_PB}"
            ),
        ),
        None => not_found(format!(
            "SavedModel file does not exist (no {SAVED_MODEL_FILENAME_PB})"
        ))
        .with_path(shown),
    }
}
