//! AsProtoField straight to the wire: [`Tensor::encode_proto_field`] writes
//! the bytes of `as_proto_field()?.encode_to_vec()` without building the
//! typed field first, and misaligned element data is read through one
//! aligned copy on both AsProto paths.

use std::borrow::Cow;

use prost::Message;

use crate::element::dispatch_dtype;
use crate::error::{Error, Result};
use crate::pb;
use crate::tensor::Tensor;

use super::check_proto_size;
use super::field::{ProtoElement, VARINT_SLACK};

/// `t` if its elements can be read as `&[T]`, else one aligned copy of it
/// (a slice of a byte tensor bitcast to a wider type can start at any
/// address; TF reads such tensors, so do we).
pub(super) fn readable<T: ProtoElement>(t: &Tensor) -> Result<Cow<'_, Tensor>> {
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
    let Some(field_len) = T::field_encoded_len(values) else {
        // Message fields (resource, variant): through the built field.
        let proto = t.as_proto_field()?;
        reserve(out, proto.encoded_len() as u64)?;
        return proto
            .encode(out)
            .map_err(|e| Error::invalid_proto(e.to_string()));
    };
    check_proto_size(base.saturating_add(field_len))?;
    reserve(
        out,
        base.saturating_add(field_len)
            .saturating_add(VARINT_SLACK as u64),
    )?;
    header
        .encode(out)
        .map_err(|e| Error::invalid_proto(e.to_string()))?;
    let start = out.len();
    let written = T::put_field(values, field_len, out);
    debug_assert!(written && (out.len() - start) as u64 == field_len);
    Ok(())
}

impl Tensor {
    /// `as_proto_field()?.encode_to_vec()` in one pass, byte for byte: the
    /// typed field is written straight from the elements. Packed
    /// `float_val`, `double_val`, `scomplex_val`, `dcomplex_val`,
    /// `bool_val` and the `float8_val` bytes are one copy of the tensor's
    /// bytes; varint fields (`int_val`, `int64_val`, `half_val`, ...) are
    /// encoded from the elements with no intermediate vector. The output is
    /// allocated once (its exact size plus 8 bytes of slack).
    ///
    /// Misaligned element data (a slice of a byte tensor bitcast to a wider
    /// type) is read through one aligned copy.
    ///
    /// # Errors
    /// As [`Tensor::as_proto_field`]; [`Error::AllocationFailed`] if the
    /// output cannot be allocated.
    ///
    /// ```
    /// use prost::Message;
    /// use tftensor::Tensor;
    /// let t = Tensor::from_vec([3], vec![1i32, -2, 300])?;
    /// let wire = t.encode_proto_field()?;
    /// assert_eq!(wire, t.as_proto_field()?.encode_to_vec());
    /// assert_eq!(Tensor::decode(wire.into())?, t);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn encode_proto_field(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.encode_proto_field_to(&mut out)?;
        Ok(out)
    }

    /// [`Tensor::encode_proto_field`], appended to `out` (which grows by
    /// exactly the encoded size; a sender can reuse one buffer).
    ///
    /// # Errors
    /// As [`Tensor::encode_proto_field`]; on error `out` may hold a partial
    /// header, never a partial field.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let mut buf = Vec::new();
    /// Tensor::from(1.0f32).encode_proto_field_to(&mut buf)?;
    /// assert_eq!(buf, [0x08, 0x01, 0x12, 0x00, 0x2a, 0x04, 0, 0, 0x80, 0x3f]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn encode_proto_field_to(&self, out: &mut Vec<u8>) -> Result<()> {
        let header = self.proto_header();
        if self.buf().is_none() {
            reserve(out, header.encoded_len() as u64)?;
            return header
                .encode(out)
                .map_err(|e| Error::invalid_proto(e.to_string()));
        }
        let dtype = self.dtype();
        dispatch_dtype!(dtype, T => put_tensor::<T>(self, &header, out), _ => Err(Error::unsupported(dtype, format!("AsProtoField of dtype {dtype}"))))
    }
}
