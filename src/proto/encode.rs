//! Encoding: TF's `AsProtoField` and `AsProtoTensorContent`, each refused
//! before it is built when the proto would reach 2 GiB, and AsProtoField
//! straight to the wire ([`encode_field_to`]: the bytes of
//! `as_proto_field()?.encode_to_vec()` without building the typed field).
//! Misaligned element data is read through one aligned copy on every path.

use std::borrow::Cow;

use bytes::Bytes;
use prost::Message;

use crate::element::dispatch_dtype;
use crate::error::{Error, Result};
use crate::pb;
use crate::tensor::Tensor;

use super::field::{ProtoElement, VARINT_SLACK, bytes_field_len};
use super::shape::shape_to_proto;

/// The largest encoded message C++ and Python protobuf accept
/// (`INT_MAX` bytes): building a bigger `TensorProto` is refused.
pub(crate) const MAX_PROTO_BYTES: u64 = i32::MAX as u64;

/// `TensorProto.tensor_content`'s field number.
pub(crate) const TENSOR_CONTENT_TAG: u32 = 4;

/// Fails when an encoded message of `len` bytes would pass protobuf's
/// 2 GiB limit.
pub(crate) fn check_proto_size(len: u64) -> Result<()> {
    if len > MAX_PROTO_BYTES {
        return Err(Error::LimitExceeded {
            what: "encoded TensorProto bytes (protobuf messages must stay under 2 GiB)",
            limit: MAX_PROTO_BYTES,
            requested: len,
        });
    }
    Ok(())
}

/// `t` if its elements can be read as `&[T]`, else one aligned copy of it
/// (a slice of a byte tensor bitcast to a wider type can start at any
/// address; TF reads such tensors, so do we).
fn readable<T: ProtoElement>(t: &Tensor) -> Result<Cow<'_, Tensor>> {
    match t.as_slice::<T>() {
        Err(Error::Misaligned { .. }) => t.deep_copy().map(Cow::Owned),
        Err(e) => Err(e),
        Ok(_) => Ok(Cow::Borrowed(t)),
    }
}

/// Reserves `n` more bytes of `out`, or fails with `AllocationFailed`.
fn reserve(out: &mut Vec<u8>, n: u64) -> Result<()> {
    let n = usize::try_from(n).map_err(|_| {
        Error::Overflow(crate::OverflowError::Size {
            what: "encoded proto size",
        })
    })?;
    out.try_reserve_exact(n)
        .map_err(|_| Error::AllocationFailed { bytes: n })
}

/// The direct encoder's per-dtype part.
fn put_tensor<T: ProtoElement>(
    t: &Tensor,
    header: &pb::TensorProto,
    out: &mut Vec<u8>,
) -> Result<()> {
    let t = readable::<T>(t)?;
    let values = t.as_slice::<T>()?;
    let base = header.encoded_len() as u64;
    // Every value takes at least one byte: a cheap first check that spares
    // scanning varints of a tensor that can never fit.
    check_proto_size(base.saturating_add(values.len() as u64))?;
    // Message fields (resource, variant): through the built field.
    let through_prost = |out: &mut Vec<u8>| -> Result<()> {
        let proto = t.as_proto_field()?;
        reserve(out, proto.encoded_len() as u64)?;
        proto
            .encode(out)
            .map_err(|e| Error::invalid_proto(e.to_string()))
    };
    let Some(field_len) = T::field_encoded_len(values) else {
        return through_prost(out);
    };
    check_proto_size(base.saturating_add(field_len))?;
    reserve(
        out,
        base.saturating_add(field_len)
            .saturating_add(VARINT_SLACK as u64),
    )?;
    let before = out.len();
    header
        .encode(out)
        .map_err(|e| Error::invalid_proto(e.to_string()))?;
    let start = out.len();
    if !T::put_field(values, field_len, out) {
        // The direct writer refused its own length (a bug, asserted in
        // debug builds): nothing was written; the built field is right.
        debug_assert!(false, "put_field refused field_len {field_len}");
        out.truncate(before);
        return through_prost(out);
    }
    debug_assert_eq!((out.len() - start) as u64, field_len);
    Ok(())
}

/// AsProtoField's per-dtype part: refuses a 2 GiB proto before building the
/// field when its size is computable, and after building otherwise.
fn write_field_checked<T: ProtoElement>(t: &Tensor, proto: &mut pb::TensorProto) -> Result<()> {
    let base = proto.encoded_len() as u64;
    let t = readable::<T>(t)?;
    let values = t.as_slice::<T>()?;
    // Every value takes at least one byte: a cheap first check that spares
    // scanning varints of a tensor that can never fit.
    check_proto_size(base.saturating_add(values.len() as u64))?;
    if let Some(len) = T::field_encoded_len(values) {
        check_proto_size(base.saturating_add(len))?;
    }
    T::write_field(values, proto)?;
    check_proto_size(proto.encoded_len() as u64)
}

/// AsProtoTensorContent's per-dtype part: the content, refused before it
/// is built if the proto would reach 2 GiB.
fn content_checked<T: ProtoElement>(t: &Tensor, header: &pb::TensorProto) -> Result<Bytes> {
    let base = header.encoded_len() as u64;
    T::encode_content(t, &|len| {
        check_proto_size(base.saturating_add(bytes_field_len(TENSOR_CONTENT_TAG, len)))
    })
}

/// The proto TF's `AsProto*` start from: dtype and shape only.
pub(crate) fn proto_header(t: &Tensor) -> pb::TensorProto {
    pb::TensorProto {
        dtype: t.dtype().as_i32(),
        tensor_shape: Some(shape_to_proto(t.shape())),
        ..pb::TensorProto::default()
    }
}

/// TF's `AsProtoField`.
pub(crate) fn as_proto_field(t: &Tensor) -> Result<pb::TensorProto> {
    let mut proto = proto_header(t);
    if t.root().is_none() {
        return Ok(proto);
    }
    let dtype = t.dtype();
    // Each arm only calls: one big frame of 30 inlined bodies would
    // cost ~32 KiB of stack per variant nesting level in debug builds.
    dispatch_dtype!(dtype, T => write_field_checked::<T>(t, &mut proto)?, _ => return Err(Error::unsupported(dtype, format!("AsProtoField of dtype {dtype}"))));
    Ok(proto)
}

/// TF's `AsProtoTensorContent`.
pub(crate) fn as_proto_tensor_content(t: &Tensor) -> Result<pb::TensorProto> {
    let mut proto = proto_header(t);
    if t.root().is_none() {
        return Ok(proto);
    }
    let dtype = t.dtype();
    let content = dispatch_dtype!(dtype, T => content_checked::<T>(t, &proto)?, _ => return Err(Error::unsupported(dtype, format!("AsProtoTensorContent of dtype {dtype}"))));
    proto.tensor_content = content;
    Ok(proto)
}

/// AsProtoField appended to `out` in its wire form, in one pass.
pub(crate) fn encode_field_to(t: &Tensor, out: &mut Vec<u8>) -> Result<()> {
    let header = proto_header(t);
    if t.root().is_none() {
        reserve(out, header.encoded_len() as u64)?;
        return header
            .encode(out)
            .map_err(|e| Error::invalid_proto(e.to_string()));
    }
    let dtype = t.dtype();
    dispatch_dtype!(dtype, T => put_tensor::<T>(t, &header, out), _ => Err(Error::unsupported(dtype, format!("AsProtoField of dtype {dtype}"))))
}
