//! `GraphConstants`: the `Const` tensors of a GraphDef, listed from the
//! NodeDef attrs and decoded on demand.

use super::meta_graph::MetaGraph;
use super::open::SavedModel;
use super::{invalid, invalid_here, not_found};
use crate::dtype::DataType;
use crate::error::Result;
use crate::io::{LocalFs, Store};
use crate::pb;
use crate::proto::FromProtoOptions;
use crate::shape::TensorShape;
use crate::tensor::Tensor;
use bytes::Bytes;
use prost::Message;
use std::collections::HashMap;
use std::path::Path;

/// One constant: its name, dtype and shape from the `TensorProto` header.
#[derive(Debug, Clone, PartialEq)]
pub struct ConstEntry {
    /// The node name; `function_name/node_name` for a node of a library
    /// function (`FunctionDef.signature.name`, then `NodeDef.name`).
    pub name: String,
    /// The tensor's dtype (`TensorProto.dtype`).
    pub dtype: DataType,
    /// The tensor's shape (`TensorProto.tensor_shape`; absent is a scalar).
    pub shape: TensorShape,
    /// The decoded tensor's byte length, for fixed-size dtypes
    /// (elements × element size); `None` for strings, resources, variants.
    pub byte_len: Option<u64>,
}

/// The `Const` (and `HostConst`) tensors of a frozen `GraphDef`, or of a
/// SavedModel meta graph's graph and function library.
///
/// Top-level nodes keep their names; nodes inside library functions are
/// named `function_name/node_name`. [`GraphConstants::entries`] comes from
/// the protos' headers; [`GraphConstants::read`] decodes one tensor with
/// TF's `Tensor::FromProto` rules, equal to `tf.make_ndarray`.
///
/// ```
/// use tftensor::saved_model::GraphConstants;
/// use tftensor::DataType;
/// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/saved_model/frozen_tf1.pb");
/// let consts = GraphConstants::open(path)?;
/// let w = consts.entries().iter().find(|e| e.name == "W").unwrap();
/// assert_eq!((w.dtype, w.shape.dim_sizes(), w.byte_len), (DataType::Float, vec![4, 2], Some(32)));
/// assert_eq!(consts.read("n")?.as_slice::<i32>()?, &[7]);
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct GraphConstants {
    entries: Vec<ConstEntry>,
    protos: Vec<pb::TensorProto>,
    index: HashMap<String, usize>,
}

impl GraphConstants {
    /// Opens a frozen `GraphDef` file (a bare binary `GraphDef`), or a
    /// SavedModel directory (its first meta graph, in stored order; use
    /// [`MetaGraph::constants`] for another).
    ///
    /// # Errors
    /// [`Error::Io`](crate::Error::Io) on read errors;
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat) when the bytes
    /// are not a `GraphDef`, a constant has no tensor or an invalid shape,
    /// or two constants share a name; as [`SavedModel::open`] for a directory.
    pub fn open<P: AsRef<Path>>(path: P) -> Result<GraphConstants> {
        let path = path.as_ref();
        if path.is_dir() {
            let model = SavedModel::open(path)?;
            return match model.meta_graphs().first() {
                Some(mg) => mg.constants(),
                None => Err(invalid(
                    path.display(),
                    "the SavedModel holds no MetaGraphDef",
                )),
            };
        }
        let blob = LocalFs::new().open(&path.to_string_lossy())?;
        Self::from_bytes(blob.read_all()?).map_err(|e| e.with_path(blob.id()))
    }

    /// Decodes a binary `GraphDef`.
    ///
    /// # Errors
    /// As [`GraphConstants::open`].
    pub fn from_bytes(bytes: Bytes) -> Result<GraphConstants> {
        let graph = pb::GraphDef::decode(bytes)
            .map_err(|e| invalid_here(format!("not a GraphDef: {e}")))?;
        Self::from_graph_def(graph)
    }

    /// Takes the constants out of a decoded `GraphDef`.
    ///
    /// # Errors
    /// As [`GraphConstants::open`].
    pub fn from_graph_def(graph: pb::GraphDef) -> Result<GraphConstants> {
        let mut out = GraphConstants {
            entries: Vec::new(),
            protos: Vec::new(),
            index: HashMap::new(),
        };
        for node in graph.node {
            out.add(None, node)?;
        }
        for f in graph.library.into_iter().flat_map(|l| l.function) {
            // A function without signature has name "" in TF too.
            let fname = f.signature.map(|s| s.name).unwrap_or_default();
            for node in f.node_def {
                out.add(Some(&fname), node)?;
            }
        }
        Ok(out)
    }

    fn add(&mut self, function: Option<&str>, mut node: pb::NodeDef) -> Result<()> {
        if node.op != "Const" && node.op != "HostConst" {
            return Ok(());
        }
        let name = match function {
            Some(f) => format!("{f}/{}", node.name),
            None => node.name,
        };
        let proto = match node.attr.remove("value").and_then(|a| a.value) {
            Some(pb::attr_value::Value::Tensor(t)) => t,
            _ => {
                return Err(
                    invalid_here("Const node without a tensor \"value\" attr").with_key(name)
                );
            }
        };
        let dtype = DataType::from_i32(proto.dtype);
        let shape = match &proto.tensor_shape {
            Some(s) => TensorShape::from_proto(s).map_err(|e| invalid_here(e).with_key(&name))?,
            None => TensorShape::scalar(),
        };
        let byte_len = match dtype.size() {
            0 => None,
            size => u64::try_from(shape.num_elements())
                .ok()
                .and_then(|n| n.checked_mul(size as u64)),
        };
        if self
            .index
            .insert(name.clone(), self.entries.len())
            .is_some()
        {
            return Err(invalid_here("two constants have this name").with_key(name));
        }
        self.entries.push(ConstEntry {
            name,
            dtype,
            shape,
            byte_len,
        });
        self.protos.push(proto);
        Ok(())
    }

    /// The constants, top-level nodes first (graph order), then each
    /// library function's nodes.
    pub fn entries(&self) -> &[ConstEntry] {
        &self.entries
    }

    /// The stored `TensorProto` of constant `name`.
    pub fn proto(&self, name: &str) -> Option<&pb::TensorProto> {
        self.index.get(name).and_then(|&i| self.protos.get(i))
    }

    /// Decodes constant `name` (`Tensor::from_proto`).
    ///
    /// # Errors
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown name; the
    /// errors of [`Tensor::from_proto`] for a bad tensor.
    pub fn read(&self, name: &str) -> Result<Tensor> {
        self.read_with(name, &FromProtoOptions::default())
    }

    /// [`GraphConstants::read`] with explicit limits (a `TensorProto` may
    /// declare a large shape filled from one value, as TF allows).
    ///
    /// # Errors
    /// As [`GraphConstants::read`].
    pub fn read_with(&self, name: &str, opts: &FromProtoOptions) -> Result<Tensor> {
        let proto = self
            .proto(name)
            .ok_or_else(|| not_found("no constant of this name").with_key(name))?;
        Tensor::from_proto_with(proto, opts)
    }
}

impl MetaGraph {
    /// The constants of this meta graph's `GraphDef` and function library.
    ///
    /// # Errors
    /// As [`MetaGraph::graph_def`] and [`GraphConstants::open`].
    pub fn constants(&self) -> Result<GraphConstants> {
        GraphConstants::from_graph_def(self.graph_def()?)
    }
}
