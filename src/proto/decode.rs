//! Decoding: TF's `Tensor::FromProto` ([`decode_tensor`]) and the parse of
//! serialized bytes in front of it ([`decode_bytes`]).

use bytes::Bytes;

use crate::dtype::DataType;
use crate::element::dispatch_dtype;
use crate::error::{Error, Result};
use crate::pb;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

use super::field::ProtoElement;
use super::options::DecodeCtx;
use super::shape::{invalid, shape_from_proto};
use super::wire;

/// FromProto with a shared budget: the whole of TF's `Tensor::FromProto`.
pub(crate) fn decode_tensor(proto: &pb::TensorProto, ctx: &mut DecodeCtx) -> Result<Tensor> {
    let shape = shape_from_proto(proto.tensor_shape.as_ref())?;
    decode_shaped(proto, shape, ctx)
}

/// [`decode_tensor`] of a proto whose shape is already parsed and valid.
fn decode_shaped(
    proto: &pb::TensorProto,
    shape: TensorShape,
    ctx: &mut DecodeCtx,
) -> Result<Tensor> {
    let dtype = DataType::from_i32(proto.dtype);
    dtype
        .check_tensor_dtype()
        .map_err(|e| invalid(e.to_string()))?;
    if shape.num_elements() == 0 {
        // Nothing to hold: content and values are ignored, as in TF.
        return Tensor::new(dtype, shape);
    }
    dispatch_dtype!(dtype, T => decode_typed::<T>(proto, shape, ctx), _ => Err(invalid(format!("unsupported dtype {dtype}"))))
}

fn decode_typed<T: ProtoElement>(
    proto: &pb::TensorProto,
    shape: TensorShape,
    ctx: &mut DecodeCtx,
) -> Result<Tensor> {
    ctx.charge::<T>(shape.num_elements())?;
    if !proto.tensor_content.is_empty() {
        return T::decode_content(&proto.tensor_content, shape, ctx);
    }
    let mut t = match ctx.allocator() {
        Some(a) => Tensor::new_in(a, T::DTYPE, shape)?,
        None => Tensor::new(T::DTYPE, shape)?,
    };
    let out = t.as_mut_slice::<T>()?;
    let k = T::read_field(proto, out, ctx)?;
    // The buffer starts as defaults, so only a short field padded with its
    // last value needs writing.
    if T::FILL_WITH_LAST && k < out.len() {
        if let Some((last, rest)) = k
            .checked_sub(1)
            .and_then(|i| out.get_mut(i..))
            .and_then(|s| s.split_first_mut())
        {
            rest.fill(last.clone());
        }
    }
    Ok(t)
}

/// An int32 tensor whose `int_val` holds exactly its elements (what
/// AsProtoField writes) takes the parsed vector as its buffer, where
/// `from_proto` would allocate and copy: the same tensor, one 4-bytes-per-
/// element allocation and copy fewer. `None` for every other proto.
fn adopt_int_val(
    proto: &mut pb::TensorProto,
    shape: &TensorShape,
    ctx: &mut DecodeCtx,
) -> Result<Option<Tensor>> {
    if proto.dtype != DataType::Int32.as_i32()
        || !proto.tensor_content.is_empty()
        || proto.int_val.is_empty()
    {
        return Ok(None);
    }
    if usize::try_from(shape.num_elements()).ok() != Some(proto.int_val.len()) {
        return Ok(None);
    }
    // The same budget from_proto applies.
    ctx.charge::<i32>(shape.num_elements())?;
    Tensor::from_vec(shape.clone(), std::mem::take(&mut proto.int_val)).map(Some)
}

/// Parses a serialized `TensorProto` and decodes it with `ctx`, the shape
/// parsed and validated once. POD content and an exact packed `float_val`
/// are adopted without a copy, and an exact `int_val` becomes the buffer,
/// unless `ctx` has an allocator.
pub(crate) fn decode_bytes(bytes: Bytes, ctx: &mut DecodeCtx) -> Result<Tensor> {
    let parse_error =
        |e| Error::proto_decode(format!("Could not parse bytes as TensorProto: {e}"), e);
    let scanned = wire::scan_tensor_proto(bytes).map_err(parse_error)?;
    let shape = shape_from_proto(scanned.proto().tensor_shape.as_ref());
    let num_elements = shape.as_ref().ok().map(TensorShape::num_elements);
    let mut proto = scanned.finish(num_elements).map_err(parse_error)?;
    let shape = shape?;
    if ctx.allocator().is_none() {
        if let Some(t) = adopt_int_val(&mut proto, &shape, ctx)? {
            return Ok(t);
        }
    }
    decode_shaped(&proto, shape, ctx)
}
