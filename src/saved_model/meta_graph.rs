//! One `MetaGraphDef` of a SavedModel.

use super::ops::ops_used_by_graph_def;
use super::scan::{Span, read_span};
use super::signature::Signature;
use super::slim::SlimMetaGraph;
use super::{invalid, not_found};
use crate::error::Result;
use crate::pb;
use bytes::Bytes;
use prost::Message;
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

/// Where a meta graph's `GraphDef` bytes are: slices of bytes in memory,
/// or spans of the file, read when asked for.
#[derive(Debug, Clone)]
pub(super) enum GraphSource {
    Bytes(Vec<Bytes>),
    File { path: PathBuf, spans: Vec<Span> },
}

/// One `MetaGraphDef`: tag set, signatures, object graph; its `GraphDef`
/// is decoded only when asked for.
#[derive(Debug, Clone)]
pub struct MetaGraph {
    tags: Vec<String>,
    meta_info: Option<pb::meta_graph_def::MetaInfoDef>,
    signatures: BTreeMap<String, Signature>,
    object_graph: Option<pb::SavedObjectGraph>,
    graph_def: GraphSource,
}

impl MetaGraph {
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

    /// The object graph's concrete function names (sorted); empty without
    /// an object graph.
    pub fn concrete_function_names(&self) -> Vec<&str> {
        // No object graph (a TF1 SavedModel): no concrete functions.
        self.object_graph
            .as_ref()
            .map(|g| g.concrete_functions.keys().map(String::as_str).collect())
            .unwrap_or_default()
    }

    /// Decodes the `GraphDef`. After [`SavedModel::open`](super::SavedModel::open)
    /// its bytes are read from `saved_model.pb` now (one read; large
    /// tensors are slices of it, not copies).
    ///
    /// # Errors
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat) when the
    /// graph's bytes are not a `GraphDef`; [`Error::Io`](crate::Error::Io)
    /// when the file cannot be read again.
    pub fn graph_def(&self) -> Result<pb::GraphDef> {
        let mut g = pb::GraphDef::default();
        let merge = |g: &mut pb::GraphDef, chunk: Bytes| {
            g.merge(chunk)
                .map_err(|e| invalid("graph_def", format!("not a GraphDef: {e}")))
        };
        match &self.graph_def {
            GraphSource::Bytes(chunks) => {
                for chunk in chunks {
                    merge(&mut g, chunk.clone())?;
                }
            }
            GraphSource::File { path, spans } => {
                for &span in spans {
                    merge(&mut g, read_span(path, span)?)?;
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
