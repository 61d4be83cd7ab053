//! The message-valued elements: `ResourceHandleProto` ↔ [`ResourceHandle`]
//! and `VariantTensorDataProto` ↔ [`Variant`].

use crate::dtype::DataType;
use crate::element::{ResourceHandle, Variant};
use crate::error::{Error, Result};
use crate::pb;
use crate::shape::PartialTensorShape;

use super::{decode_tensor, DecodeCtx};

/// TF's `PartialTensorShape::BuildPartialTensorShape(proto)`: a missing
/// shape is a scalar; `unknown_rank` with dims is an error.
fn partial_shape_from_proto(proto: Option<&pb::TensorShapeProto>) -> Result<PartialTensorShape> {
    let Some(proto) = proto else {
        return PartialTensorShape::new(&[]);
    };
    if proto.unknown_rank {
        if proto.dim.is_empty() {
            return Ok(PartialTensorShape::unknown());
        }
        return Err(Error::invalid_proto(
            "An unknown shape must not have any dimensions set.".to_owned(),
        ));
    }
    let dims: Vec<i64> = proto.dim.iter().map(|d| d.size).collect();
    PartialTensorShape::new(&dims).map_err(|e| Error::invalid_proto(e.to_string()))
}

/// TF's `PartialTensorShape::AsProto`: `unknown_rank` or one dim per
/// dimension (-1 for unknown).
fn partial_shape_to_proto(shape: &PartialTensorShape) -> pb::TensorShapeProto {
    pb::TensorShapeProto {
        dim: shape
            .dim_sizes()
            .into_iter()
            .map(|size| pb::tensor_shape_proto::Dim {
                size,
                name: String::new(),
            })
            .collect(),
        unknown_rank: shape.unknown_rank(),
    }
}

/// TF's `ResourceHandle::FromProto`; fails on an invalid shape in
/// `dtypes_and_shapes` (TF: "Could not decode resource handle from proto").
pub(crate) fn handle_from_proto(proto: &pb::ResourceHandleProto) -> Result<ResourceHandle> {
    let dtypes_and_shapes = proto
        .dtypes_and_shapes
        .iter()
        .map(|ds| {
            Ok((
                DataType::from_i32(ds.dtype),
                partial_shape_from_proto(ds.shape.as_ref())?,
            ))
        })
        .collect::<Result<Vec<_>>>()
        .map_err(|e| {
            Error::invalid_proto(format!("Could not decode resource handle from proto: {e}"))
        })?;
    Ok(ResourceHandle {
        device: proto.device.clone(),
        container: proto.container.clone(),
        name: proto.name.clone(),
        hash_code: proto.hash_code,
        maybe_type_name: proto.maybe_type_name.clone(),
        dtypes_and_shapes,
    })
}

/// TF's `ResourceHandle::AsProto`.
pub(crate) fn handle_to_proto(handle: &ResourceHandle) -> pb::ResourceHandleProto {
    pb::ResourceHandleProto {
        device: handle.device.clone(),
        container: handle.container.clone(),
        name: handle.name.clone(),
        hash_code: handle.hash_code,
        maybe_type_name: handle.maybe_type_name.clone(),
        dtypes_and_shapes: handle
            .dtypes_and_shapes
            .iter()
            .map(|(dtype, shape)| pb::resource_handle_proto::DtypeAndShape {
                dtype: dtype.as_i32(),
                shape: Some(partial_shape_to_proto(shape)),
            })
            .collect(),
    }
}

/// A variant element from its `VariantTensorDataProto`, nested tensors
/// decoded with FromProto one nesting level deeper.
///
/// TF accepts an empty type name only with no metadata and no tensors (the
/// empty variant). For other type names TF needs a registered C++ decoder;
/// tftensor keeps the data of any type name as is, so it round-trips.
pub(crate) fn variant_from_proto(
    proto: &pb::VariantTensorDataProto,
    ctx: &mut DecodeCtx,
) -> Result<Variant> {
    if proto.type_name.is_empty() {
        if proto.metadata.is_empty() && proto.tensors.is_empty() {
            return Ok(Variant::default());
        }
        return Err(Error::invalid_proto(
            "malformed variant: empty type name with metadata or tensors".to_owned(),
        ));
    }
    let tensors = ctx.nested(|ctx| {
        proto
            .tensors
            .iter()
            .map(|t| decode_tensor(t, ctx))
            .collect::<Result<Vec<_>>>()
    })?;
    Ok(Variant {
        type_name: proto.type_name.clone(),
        metadata: proto.metadata.clone(),
        tensors,
    })
}

/// TF's `VariantTensorData::ToProto`: nested tensors go through
/// `AsProtoField`, as in TF.
pub(crate) fn variant_to_proto(variant: &Variant) -> Result<pb::VariantTensorDataProto> {
    Ok(pb::VariantTensorDataProto {
        type_name: variant.type_name.clone(),
        metadata: variant.metadata.clone(),
        tensors: variant
            .tensors
            .iter()
            .map(crate::tensor::Tensor::as_proto_field)
            .collect::<Result<Vec<_>>>()?,
    })
}
