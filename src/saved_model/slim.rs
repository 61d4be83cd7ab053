//! A slim view of `SavedModel`/`MetaGraphDef` for listing signatures fast.
//!
//! Same field numbers as TF's protos, but `graph_def` is kept as the raw
//! bytes of the embedded message (a length-delimited field reads as `bytes`
//! on the wire), and the fields signatures do not need (`saver_def`,
//! `collection_def`, `asset_file_def`) are skipped as unknown fields. With a
//! `Bytes` input the kept bytes are slices of it, not copies.

use crate::pb;
use bytes::Bytes;
use std::collections::BTreeMap;

/// `tensorflow.SavedModel`, with slim meta graphs.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct SlimSavedModel {
    /// `saved_model_schema_version = 1`.
    #[prost(int64, tag = "1")]
    pub saved_model_schema_version: i64,
    /// `meta_graphs = 2`.
    #[prost(message, repeated, tag = "2")]
    pub meta_graphs: Vec<SlimMetaGraph>,
}

/// `tensorflow.MetaGraphDef` without its graph decoded.
#[derive(Clone, PartialEq, prost::Message)]
pub(super) struct SlimMetaGraph {
    /// `meta_info_def = 1`.
    #[prost(message, optional, tag = "1")]
    pub meta_info_def: Option<pb::meta_graph_def::MetaInfoDef>,
    /// `graph_def = 2`: every occurrence, in order; protobuf merges repeated
    /// occurrences of a message field, so the graph is their merge.
    #[prost(bytes = "bytes", repeated, tag = "2")]
    pub graph_def: Vec<Bytes>,
    /// `collection_def = 4`, each `CollectionDef` kept as its bytes.
    #[prost(btree_map = "string, bytes", tag = "4")]
    pub collection_def: BTreeMap<String, Vec<u8>>,
    /// `signature_def = 5`.
    #[prost(btree_map = "string, message", tag = "5")]
    pub signature_def: BTreeMap<String, pb::SignatureDef>,
    /// `object_graph_def = 7`.
    #[prost(message, optional, tag = "7")]
    pub object_graph_def: Option<pb::SavedObjectGraph>,
}
