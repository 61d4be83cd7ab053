//! `TensorShapeProto` ↔ [`TensorShape`]: TF's `TensorShape::IsValid(proto)`
//! and `AsProto`.

use crate::error::{Error, Result};
use crate::pb;
use crate::shape::{MAX_DIMENSIONS, TensorShape};

/// An [`Error::InvalidProto`] with `msg`.
pub(super) fn invalid(msg: impl Into<String>) -> Error {
    Error::invalid_proto(msg)
}

/// `[2,-1]`, for messages about dims that are not a valid shape.
fn dims_string(dims: &[i64]) -> String {
    let inner: Vec<String> = dims.iter().map(i64::to_string).collect();
    format!("[{}]", inner.join(","))
}

/// TF's `TensorShape::IsValid(proto)` followed by building the shape.
///
/// A missing shape and `unknown_rank` (TF ignores it here) mean a scalar
/// when there are no dims. `[0, 2^62, 2^62]` passes TF's `IsValid` (the
/// running product is 0) but cannot be a [`TensorShape`]; it is an error
/// here, where TF would build a tensor of zero elements.
pub(crate) fn shape_from_proto(proto: Option<&pb::TensorShapeProto>) -> Result<TensorShape> {
    let Some(proto) = proto else {
        return Ok(TensorShape::scalar());
    };
    if proto.dim.len() > MAX_DIMENSIONS {
        return Err(invalid(format!(
            "Shape has too many dimensions: {} > {MAX_DIMENSIONS}",
            proto.dim.len()
        )));
    }
    let dims: Vec<i64> = proto.dim.iter().map(|d| d.size).collect();
    if dims.iter().any(|&d| d < 0) {
        return Err(invalid(format!(
            "Shape {} is not fully defined: a tensor needs every dimension >= 0",
            dims_string(&dims)
        )));
    }
    if !TensorShape::is_valid_dims(&dims) {
        return Err(invalid(format!(
            "Shape {} is too large (more than 2**63 - 1 entries)",
            dims_string(&dims)
        )));
    }
    TensorShape::new(&dims).map_err(|e| invalid(format!("Shape {}: {e}", dims_string(&dims))))
}

/// TF's `TensorShape::AsProto`: one `Dim` per dimension, sizes only.
pub(crate) fn shape_to_proto(shape: &TensorShape) -> pb::TensorShapeProto {
    pb::TensorShapeProto {
        dim: shape
            .iter()
            .map(|size| pb::tensor_shape_proto::Dim {
                size,
                name: String::new(),
            })
            .collect(),
        unknown_rank: false,
    }
}
