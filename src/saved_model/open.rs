//! `SavedModel::open`: the directory, `saved_model.pb` and `fingerprint.pb`.

use super::meta_graph::{GraphSource, MetaGraph};
use super::scan::{Scanned, Stop, scan};
use super::slim::SlimSavedModel;
use super::{
    FINGERPRINT_FILENAME, SAVED_MODEL_FILENAME_CPB, SAVED_MODEL_FILENAME_PB,
    SAVED_MODEL_FILENAME_PBTXT, invalid, io_error, not_found,
};
use crate::error::Result;
use crate::pb;
use bytes::Bytes;
use prost::Message;
use std::path::{Path, PathBuf};

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
        let pb_path = dir.join(SAVED_MODEL_FILENAME_PB);
        if !pb_path.is_file() {
            return Err(missing(dir));
        }
        let mut model = match scan(&pb_path) {
            Ok(s) => Self::from_scan(s, &pb_path)?,
            Err(Stop::Err(e)) => return Err(e),
            // Framing the scan leaves to prost: decode the whole file.
            Err(Stop::Fallback) => {
                let bytes = std::fs::read(&pb_path).map_err(|e| io_error(pb_path.display(), &e))?;
                Self::parse(Bytes::from(bytes), &pb_path)?
            }
        };
        model.path = dir.to_path_buf();
        let fp_path = dir.join(FINGERPRINT_FILENAME);
        model.fingerprint =
            match std::fs::read(&fp_path) {
                Ok(b) => Some(pb::FingerprintDef::decode(b.as_slice()).map_err(|e| {
                    invalid(fp_path.display(), format!("not a FingerprintDef: {e}"))
                })?),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
                Err(e) => return Err(io_error(fp_path.display(), &e)),
            };
        Ok(model)
    }

    /// Decodes the bytes of a `saved_model.pb` (no fingerprint, no path).
    ///
    /// # Errors
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat) as in
    /// [`SavedModel::open`].
    pub fn from_bytes(bytes: Bytes) -> Result<SavedModel> {
        Self::parse(bytes, Path::new(SAVED_MODEL_FILENAME_PB))
    }

    fn parse(bytes: Bytes, path: &Path) -> Result<SavedModel> {
        let slim = SlimSavedModel::decode(bytes)
            .map_err(|e| invalid(path.display(), format!("not a SavedModel: {e}")))?;
        let meta_graphs = slim
            .meta_graphs
            .into_iter()
            .map(|mut m| {
                let chunks = std::mem::take(&mut m.graph_def);
                MetaGraph::from_slim(m, GraphSource::Bytes(chunks))
            })
            .collect();
        Self::new(slim.saved_model_schema_version, meta_graphs, path)
    }

    fn from_scan(s: Scanned, path: &Path) -> Result<SavedModel> {
        let meta_graphs = s
            .meta_graphs
            .into_iter()
            .map(|(m, spans)| {
                let source = GraphSource::File {
                    path: path.to_path_buf(),
                    spans,
                };
                MetaGraph::from_slim(m, source)
            })
            .collect();
        Self::new(s.schema_version, meta_graphs, path)
    }

    fn new(schema_version: i64, meta_graphs: Vec<MetaGraph>, path: &Path) -> Result<SavedModel> {
        if meta_graphs.is_empty() {
            return Err(invalid(
                path.display(),
                "the SavedModel holds no MetaGraphDef",
            ));
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
                    super::show::py_str_list(&valid)
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
fn missing(dir: &Path) -> crate::error::Error {
    let other = [SAVED_MODEL_FILENAME_PBTXT, SAVED_MODEL_FILENAME_CPB]
        .into_iter()
        .find(|f| dir.join(f).is_file());
    match other {
        Some(f) => invalid(
            dir.display(),
            format!(
                "only {f} found; text-format and chunked SavedModels are not read, only {SAVED_MODEL_FILENAME_PB}"
            ),
        ),
        None => not_found(format!(
            "SavedModel file does not exist at: {}",
            dir.display()
        )),
    }
}
