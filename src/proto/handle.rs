//! The message-valued elements: `ResourceHandleProto` ↔ [`ResourceHandle`]
//! and `VariantTensorDataProto` ↔ [`Variant`], and their [`ProtoElement`]
//! implementations (a variant's nested tensors recurse into the decoder).

use bytes::Bytes;
use prost::Message;

use crate::buffer::try_vec;
use crate::dtype::DataType;
use crate::element::{Element, ResourceHandle, Variant};
use crate::error::{Error, Result};
use crate::pb::{self, TensorProto};
use crate::shape::{PartialTensorShape, TensorShape};
use crate::tensor::Tensor;

use super::decode::decode_tensor;
use super::field::{ProtoElement, element_count, sub_bytes};
use super::lenient::{Schema, resource_handle_proto, strip_mistyped, variant_tensor_data_proto};
use super::list::{decode_list, encode_list, encoded_list_len};
use super::options::DecodeCtx;

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

/// List-codes serialized element messages as `tensor_content`.
fn encode_messages(encoded: &[Vec<u8>], check: &dyn Fn(u64) -> Result<()>) -> Result<Bytes> {
    let items = || encoded.iter().map(Vec::as_slice);
    check(encoded_list_len(items())?)?;
    Ok(Bytes::from(encode_list(items())?))
}

/// Decodes list-coded element messages of `tensor_content`, one per element.
/// Fields with a wire type `schema` does not allow are skipped, as C++
/// protobuf skips them.
fn decode_messages<T: Element, M: Message + Default>(
    content: &Bytes,
    shape: TensorShape,
    schema: Schema,
    mut convert: impl FnMut(M) -> Result<T>,
) -> Result<Tensor> {
    let ranges = decode_list(content, element_count(&shape)?)?;
    let mut values = try_vec(ranges.len())?;
    for (i, r) in ranges.into_iter().enumerate() {
        let raw = sub_bytes(content, r)?;
        let raw = strip_mistyped(&raw, schema).map_or(raw, Bytes::from);
        let msg = M::decode(raw)
            .map_err(|e| Error::proto_decode(format!("element {i} of tensor_content: {e}"), e))?;
        values.push(convert(msg)?);
    }
    Tensor::from_vec(shape, values)
}

impl ProtoElement for ResourceHandle {
    const FILL_WITH_LAST: bool = false;

    fn field_len(proto: &TensorProto) -> usize {
        proto.resource_handle_val.len()
    }

    fn read_field(proto: &TensorProto, out: &mut [Self], _: &mut DecodeCtx) -> Result<usize> {
        for (o, h) in out.iter_mut().zip(&proto.resource_handle_val) {
            *o = handle_from_proto(h)?;
        }
        Ok(out.len().min(proto.resource_handle_val.len()))
    }

    fn field_encoded_len(_: &[Self]) -> Option<u64> {
        None
    }

    fn write_field(values: &[Self], proto: &mut TensorProto) -> Result<()> {
        let mut f = try_vec(values.len())?;
        f.extend(values.iter().map(handle_to_proto));
        proto.resource_handle_val = f;
        Ok(())
    }

    fn truncate_field(proto: &mut TensorProto, n: usize) {
        proto.resource_handle_val.truncate(n);
    }

    fn decode_content(content: &Bytes, shape: TensorShape, _: &mut DecodeCtx) -> Result<Tensor> {
        decode_messages(
            content,
            shape,
            resource_handle_proto,
            |m: pb::ResourceHandleProto| handle_from_proto(&m),
        )
    }

    fn encode_content(t: &Tensor, check: &dyn Fn(u64) -> Result<()>) -> Result<Bytes> {
        let values = t.as_slice::<ResourceHandle>()?;
        let mut encoded = try_vec(values.len())?;
        encoded.extend(values.iter().map(|h| handle_to_proto(h).encode_to_vec()));
        encode_messages(&encoded, check)
    }
}

impl ProtoElement for Variant {
    const FILL_WITH_LAST: bool = false;

    fn field_len(proto: &TensorProto) -> usize {
        proto.variant_val.len()
    }

    fn read_field(proto: &TensorProto, out: &mut [Self], ctx: &mut DecodeCtx) -> Result<usize> {
        for (o, v) in out.iter_mut().zip(&proto.variant_val) {
            *o = variant_from_proto(v, ctx)?;
        }
        Ok(out.len().min(proto.variant_val.len()))
    }

    fn field_encoded_len(_: &[Self]) -> Option<u64> {
        None
    }

    fn write_field(values: &[Self], proto: &mut TensorProto) -> Result<()> {
        let mut f = try_vec(values.len())?;
        for v in values {
            f.push(variant_to_proto(v)?);
        }
        proto.variant_val = f;
        Ok(())
    }

    fn truncate_field(proto: &mut TensorProto, n: usize) {
        proto.variant_val.truncate(n);
    }

    fn decode_content(content: &Bytes, shape: TensorShape, ctx: &mut DecodeCtx) -> Result<Tensor> {
        decode_messages(
            content,
            shape,
            variant_tensor_data_proto,
            |m: pb::VariantTensorDataProto| variant_from_proto(&m, ctx),
        )
    }

    fn encode_content(t: &Tensor, check: &dyn Fn(u64) -> Result<()>) -> Result<Bytes> {
        let values = t.as_slice::<Variant>()?;
        let mut encoded = try_vec(values.len())?;
        for v in values {
            encoded.push(variant_to_proto(v)?.encode_to_vec());
        }
        encode_messages(&encoded, check)
    }
}
