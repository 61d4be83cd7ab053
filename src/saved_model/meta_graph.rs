//! One `MetaGraphDef` of a SavedModel.

use super::ops::ops_used_by_graph_def;
use super::scan::{Span, Stop, scan_meta_graph};
use super::signature::Signature;
use super::slim::SlimMetaGraph;
use super::{invalid, invalid_here, not_found};
use crate::error::Result;
use crate::io::Blob;
use crate::pb;
use bytes::Bytes;
use prost::Message;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// Where a meta graph's `GraphDef` bytes are: slices of bytes in memory,
/// or spans of the file, read by range when asked for.
#[derive(Debug, Clone)]
pub(super) enum GraphSource {
    Bytes(Vec<Bytes>),
    Blob {
        blob: Arc<dyn Blob>,
        spans: Vec<Span>,
    },
}

/// One `MetaGraphDef`: tag set, signatures, object graph; its `GraphDef`
/// is decoded only when asked for.
#[derive(Debug, Clone)]
pub struct MetaGraph {
    tags: Vec<String>,
    meta_info: Option<pb::meta_graph_def::MetaInfoDef>,
    signatures: BTreeMap<String, Signature>,
    object_graph: Option<pb::SavedObjectGraph>,
    collection_names: Vec<String>,
    graph_def: GraphSource,
}

impl MetaGraph {
    /// Reads a TF1 `.meta` file (one `MetaGraphDef`, as
    /// `tf.compat.v1.train.Saver` writes beside a checkpoint).
    ///
    /// # Errors
    /// As [`MetaGraph::from_blob`].
    ///
    /// ```
    /// use tftensor::saved_model::MetaGraph;
    /// let mg = MetaGraph::open("tests/data/saved_model/tf1_saver/model.ckpt-5.meta")?;
    /// assert!(mg.collection_names().iter().any(|c| c == "variables"));
    /// assert!(mg.constants()?.entries().iter().any(|e| e.name == "scale"));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<MetaGraph> {
        use crate::io::Store;
        MetaGraph::from_blob(crate::io::LocalFs::new().open(&path.as_ref().to_string_lossy())?)
    }

    /// Reads one serialized `MetaGraphDef` (a `.meta` file) from `blob`:
    /// every field but the graph decoded now, the graph read by range when
    /// asked for ([`MetaGraph::graph_def`]).
    ///
    /// # Errors
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat) when the bytes
    /// are not a `MetaGraphDef`; the blob's errors.
    pub fn from_blob(blob: Arc<dyn Blob>) -> Result<MetaGraph> {
        match scan_meta_graph(&*blob) {
            Ok((slim, spans)) => Ok(MetaGraph::from_slim(
                slim,
                GraphSource::Blob { blob, spans },
            )),
            Err(Stop::Err(e)) => Err(e),
            // Framing the scan leaves to prost: decode the whole file.
            Err(Stop::Fallback) => {
                let mut slim = SlimMetaGraph::decode(blob.read_all()?)
                    .map_err(|e| invalid(blob.id(), format!("not a MetaGraphDef: {e}")))?;
                let chunks = std::mem::take(&mut slim.graph_def);
                Ok(MetaGraph::from_slim(slim, GraphSource::Bytes(chunks)))
            }
        }
    }

    pub(super) fn from_slim(s: SlimMetaGraph, graph_def: GraphSource) -> MetaGraph {
        MetaGraph {
            tags: s
                .meta_info_def
                .as_ref()
                .map(|m| m.tags.clone())
                // Python reads an absent meta_info_def's tags as [].
                .unwrap_or_default(),
            meta_info: s.meta_info_def,
            signatures: s
                .signature_def
                .into_iter()
                .map(|(k, v)| (k, Signature::from_proto(v)))
                .collect(),
            object_graph: s.object_graph_def,
            collection_names: s.collection_def.into_keys().collect(),
            graph_def,
        }
    }

    /// The tags, in stored order (e.g. `["serve"]`, `["serve", "gpu"]`).
    pub fn tags(&self) -> &[String] {
        &self.tags
    }

    /// Whether this meta graph's tag set equals `tag_set`, a comma-separated
    /// list as `saved_model_cli --tag_set` takes it (order-free; empty
    /// items ignored, so `""` is the empty set).
    pub fn matches_tag_set(&self, tag_set: &str) -> bool {
        let want: BTreeSet<&str> = tag_set.split(',').filter(|t| !t.is_empty()).collect();
        let have: BTreeSet<&str> = self.tags.iter().map(String::as_str).collect();
        want == have
    }

    /// `meta_info_def`, if stored (TF version, stripped op list, ...).
    pub fn meta_info(&self) -> Option<&pb::meta_graph_def::MetaInfoDef> {
        self.meta_info.as_ref()
    }

    /// `meta_info_def.tensorflow_version` (e.g. `2.21.0`); empty if absent.
    pub fn tensorflow_version(&self) -> &str {
        self.meta_info
            .as_ref()
            .map_or("", |m| m.tensorflow_version.as_str())
    }

    /// The signatures by key, in code-point order.
    pub fn signatures(&self) -> &BTreeMap<String, Signature> {
        &self.signatures
    }

    /// One signature.
    ///
    /// # Errors
    /// [`Error::NotFound`](crate::Error::NotFound) with TF's message
    /// (`Could not find signature "K". Please choose from: a, b`).
    pub fn signature(&self, key: &str) -> Result<&Signature> {
        self.signatures.get(key).ok_or_else(|| {
            let keys: Vec<&str> = self.signatures.keys().map(String::as_str).collect();
            not_found(format!(
                "Could not find signature \"{key}\". Please choose from: {}",
                keys.join(", ")
            ))
        })
    }

    /// The `SavedObjectGraph` (TF2 SavedModels only).
    pub fn object_graph(&self) -> Option<&pb::SavedObjectGraph> {
        self.object_graph.as_ref()
    }

    /// The names of the `collection_def`s (TF1's graph collections:
    /// `variables`, `trainable_variables`, `train_op` ...), sorted.
    pub fn collection_names(&self) -> &[String] {
        &self.collection_names
    }

    /// The object graph's concrete function names (sorted); empty without
    /// an object graph.
    pub fn concrete_function_names(&self) -> Vec<&str> {
        // No object graph (a TF1 SavedModel): no concrete functions.
        self.object_graph
            .as_ref()
            .map(|g| g.concrete_functions.keys().map(String::as_str).collect())
            // A MetaGraph without an object graph (TF1) has no functions.
            .unwrap_or_default()
    }

    /// Decodes the `GraphDef`. After [`SavedModel::open`](super::SavedModel::open)
    /// its bytes are read from `saved_model.pb` now (one read by range;
    /// large tensors are slices of it, not copies).
    ///
    /// # Errors
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat) when the
    /// graph's bytes are not a `GraphDef`; [`Error::Io`](crate::Error::Io)
    /// when the file cannot be read again.
    pub fn graph_def(&self) -> Result<pb::GraphDef> {
        let mut g = pb::GraphDef::default();
        let merge = |g: &mut pb::GraphDef, chunk: Bytes| {
            g.merge(chunk)
                .map_err(|e| invalid_here(format!("not a GraphDef: {e}")))
        };
        match &self.graph_def {
            GraphSource::Bytes(chunks) => {
                for chunk in chunks {
                    merge(&mut g, chunk.clone())?;
                }
            }
            GraphSource::Blob { blob, spans } => {
                for &(offset, len) in spans {
                    // The span was checked against the file's length when
                    // scanned; one that shrank since is data loss.
                    let end = offset.checked_add(len).ok_or_else(|| {
                        invalid(blob.id(), "graph_def too long").with_offset(offset)
                    })?;
                    merge(&mut g, blob.read_bytes(offset..end)?)?;
                }
            }
        }
        Ok(g)
    }

    /// The ops the graph uses, as TF's `ops_used_by_graph_def`: the ops of
    /// the graph's nodes and of every library function they reach
    /// (directly, or through `f` of `PartitionedCall` /
    /// `StatefulPartitionedCall`), without the function names.
    ///
    /// # Errors
    /// As [`MetaGraph::graph_def`].
    pub fn ops(&self) -> Result<BTreeSet<String>> {
        Ok(ops_used_by_graph_def(&self.graph_def()?))
    }
}
