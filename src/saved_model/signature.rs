//! Signatures (`SignatureDef`) and their tensors (`TensorInfo`).

use crate::dtype::DataType;
use crate::pb;
use crate::pb::tensor_info::Encoding;
use std::collections::BTreeMap;

/// One `SignatureDef`: a method name and named input and output tensors,
/// keys in code-point order (as `saved_model_cli` sorts them).
#[derive(Debug, Clone, PartialEq)]
pub struct Signature {
    method_name: String,
    inputs: BTreeMap<String, TensorInfo>,
    outputs: BTreeMap<String, TensorInfo>,
    defaults: BTreeMap<String, pb::TensorProto>,
}

impl Signature {
    pub(super) fn from_proto(proto: pb::SignatureDef) -> Signature {
        let conv = |m: BTreeMap<String, pb::TensorInfo>| {
            m.into_iter()
                .map(|(k, v)| (k, TensorInfo::from_proto(v)))
                .collect()
        };
        Signature {
            method_name: proto.method_name,
            inputs: conv(proto.inputs),
            outputs: conv(proto.outputs),
            defaults: proto.defaults,
        }
    }

    /// The method name, e.g. `tensorflow/serving/predict`; empty for TF2's
    /// `__saved_model_init_op`.
    pub fn method_name(&self) -> &str {
        &self.method_name
    }

    /// The inputs by key.
    pub fn inputs(&self) -> &BTreeMap<String, TensorInfo> {
        &self.inputs
    }

    /// The outputs by key.
    pub fn outputs(&self) -> &BTreeMap<String, TensorInfo> {
        &self.outputs
    }

    /// `SignatureDef.defaults`: default values of optional inputs, as
    /// stored (decode one with [`Tensor::from_proto`](crate::Tensor::from_proto)).
    pub fn defaults(&self) -> &BTreeMap<String, pb::TensorProto> {
        &self.defaults
    }
}

/// How a [`TensorInfo`] names its graph tensor(s).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum TensorEncoding {
    /// A dense tensor, `"op:output"` (e.g. `serving_default_x:0`).
    Name(String),
    /// A `SparseTensor` as its three component tensors.
    CooSparse {
        /// The values tensor.
        values_tensor_name: String,
        /// The indices tensor.
        indices_tensor_name: String,
        /// The dense-shape tensor.
        dense_shape_tensor_name: String,
    },
    /// A composite tensor (e.g. a `RaggedTensor`): its `TypeSpec` class
    /// and component tensors.
    Composite {
        /// `type_spec.type_spec_class_name`, e.g. `RaggedTensorSpec`.
        type_spec_class_name: String,
        /// `type_spec.type_spec_class` (`TypeSpecProto.TypeSpecClass`
        /// number, 3 = `RAGGED_TENSOR_SPEC`).
        type_spec_class: i32,
        /// The full `TypeSpecProto`, when present.
        type_spec: Option<Box<pb::TypeSpecProto>>,
        /// The component tensors (ragged: flat values, then row splits).
        components: Vec<TensorInfo>,
    },
    /// No encoding set.
    None,
}

/// One signature tensor: encoding, dtype and (possibly partial) shape.
#[derive(Debug, Clone, PartialEq)]
pub struct TensorInfo {
    encoding: TensorEncoding,
    dtype: DataType,
    dims: Option<Vec<i64>>,
    has_shape: bool,
}

impl TensorInfo {
    pub(super) fn from_proto(p: pb::TensorInfo) -> TensorInfo {
        let encoding = match p.encoding {
            Some(Encoding::Name(n)) => TensorEncoding::Name(n),
            Some(Encoding::CooSparse(c)) => TensorEncoding::CooSparse {
                values_tensor_name: c.values_tensor_name,
                indices_tensor_name: c.indices_tensor_name,
                dense_shape_tensor_name: c.dense_shape_tensor_name,
            },
            Some(Encoding::CompositeTensor(c)) => {
                let (class_name, class) = match &c.type_spec {
                    Some(t) => (t.type_spec_class_name.clone(), t.type_spec_class),
                    None => (String::new(), 0),
                };
                TensorEncoding::Composite {
                    type_spec_class_name: class_name,
                    type_spec_class: class,
                    type_spec: c.type_spec.map(Box::new),
                    // Depth is bounded by prost's decode recursion limit.
                    components: c
                        .components
                        .into_iter()
                        .map(TensorInfo::from_proto)
                        .collect(),
                }
            }
            None => TensorEncoding::None,
        };
        let has_shape = p.tensor_shape.is_some();
        let dims = match p.tensor_shape {
            Some(s) if s.unknown_rank => None,
            Some(s) => Some(s.dim.iter().map(|d| d.size).collect()),
            // An absent TensorShapeProto reads as the default: rank 0.
            None => Some(Vec::new()),
        };
        TensorInfo {
            encoding,
            dtype: DataType::from_i32(p.dtype),
            dims,
            has_shape,
        }
    }

    /// How the tensor is named in the graph.
    pub fn encoding(&self) -> &TensorEncoding {
        &self.encoding
    }

    /// The dense tensor name (`TensorInfo.name`); empty for sparse and
    /// composite tensors, as in TF.
    pub fn name(&self) -> &str {
        match &self.encoding {
            TensorEncoding::Name(n) => n,
            _ => "",
        }
    }

    /// The dtype as stored (`DT_INVALID`, number 0, for composite tensors
    /// and TF2's `__saved_model_init_op`).
    pub fn dtype(&self) -> DataType {
        self.dtype
    }

    /// The dimension sizes, `-1` where unknown; `None` for unknown rank.
    /// A TensorInfo without `tensor_shape` (composite tensors) gives
    /// `Some(vec![])`, as TF reads an absent shape (see [`Self::has_shape`]).
    pub fn dims(&self) -> Option<&[i64]> {
        self.dims.as_deref()
    }

    /// Whether `tensor_shape` was present at all.
    pub fn has_shape(&self) -> bool {
        self.has_shape
    }
}
