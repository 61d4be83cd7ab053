//! The `TensorProto` codec: TF's `Tensor::FromProto`, `AsProtoField`,
//! `AsProtoTensorContent` and `FillDescription`, plus `tensor_util`'s
//! `CompressTensorProtoInPlace`.
//!
//! Per-dtype behaviour (which typed field, how values widen and narrow) lives
//! in one trait, [`field::ProtoElement`], implemented once per element type;
//! every operation reaches it through `dispatch_dtype!`.
//!
//! This file holds the public API; the work is done in:
//! * `options.rs`: [`FromProtoOptions`] and the decode context (budget,
//!   nesting depth, allocator) one decode draws on;
//! * `shape.rs`: `TensorShapeProto` ↔ [`TensorShape`] with FromProto's rules;
//! * `decode.rs`: FromProto, and the parse of serialized bytes in front of it
//!   (the shape parsed and validated once);
//! * `wire.rs`: the packed-field scanner, which takes packed `float_val` and
//!   `int_val` out of the wire bytes without prost's per-element decode;
//! * `lenient.rs`: C++ protobuf's skipping of mistyped fields, which prost
//!   lacks;
//! * `encode.rs`: AsProtoField, AsProtoTensorContent, and AsProtoField
//!   straight to the wire, with protobuf's 2 GiB limit checked first;
//! * `field.rs`: [`field::ProtoElement`] for the POD and string element
//!   types, and the packed-field writers;
//! * `handle.rs`: resource handles and variants, their messages and their
//!   `ProtoElement` implementations;
//! * `list.rs`: TF's list coding of string, resource and variant
//!   `tensor_content`;
//! * `compress.rs`: `CompressTensorProtoInPlace`.
//!
//! Where tftensor deviates from TF, the item's docs say so.

mod compress;
mod decode;
mod encode;
mod field;
pub(crate) mod handle;
mod lenient;
mod list;
mod options;
mod peek;
mod shape;
mod wire;

use std::sync::Arc;

use bytes::Bytes;

use crate::buffer::Allocator;
use crate::error::Result;
use crate::pb;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

pub use self::compress::compress_tensor_proto_in_place;
pub(crate) use self::options::DecodeCtx;
pub use self::options::FromProtoOptions;
pub(crate) use self::peek::{PEEK, peek_header};

impl TensorShape {
    /// TF's `TensorShape::AsProto`: one `Dim` per dimension, sizes only.
    ///
    /// ```
    /// let p = tftensor::TensorShape::new(&[2, 3]).unwrap().as_proto();
    /// assert_eq!(p.dim.iter().map(|d| d.size).collect::<Vec<_>>(), vec![2, 3]);
    /// ```
    pub fn as_proto(&self) -> pb::TensorShapeProto {
        shape::shape_to_proto(self)
    }

    /// A shape from a `TensorShapeProto` with FromProto's rules: no dims
    /// (with or without `unknown_rank`) is a scalar; a dim below 0, more than
    /// 254 dims, or an element count past `i64` is an
    /// [`Error::InvalidProto`](crate::Error::InvalidProto).
    ///
    /// ```
    /// use tftensor::{pb, TensorShape};
    /// let dim = |size| pb::tensor_shape_proto::Dim { size, name: String::new() };
    /// let p = pb::TensorShapeProto { dim: vec![dim(4), dim(5)], unknown_rank: false };
    /// assert_eq!(TensorShape::from_proto(&p).unwrap().to_string(), "[4,5]");
    /// let bad = pb::TensorShapeProto { dim: vec![dim(-1)], unknown_rank: false };
    /// assert!(TensorShape::from_proto(&bad).is_err());
    /// ```
    pub fn from_proto(proto: &pb::TensorShapeProto) -> Result<TensorShape> {
        shape::shape_from_proto(Some(proto))
    }
}

impl Tensor {
    /// TF's `Tensor::FromProto`, with the default [`FromProtoOptions`]
    /// (2 GiB of elements at most).
    ///
    /// * Values come from `tensor_content` when it is non-empty, otherwise
    ///   from the dtype's typed field (`float_val`, `int_val`, ...). Fewer
    ///   values than elements: the rest repeat the last value (resource and
    ///   variant: the rest are defaults); no values: all zero; extra values
    ///   are ignored.
    /// * No shape, or `unknown_rank`, means a scalar; a negative dim,
    ///   more than 254 dims or an element-count overflow are errors.
    /// * With zero elements, content and values are ignored.
    /// * POD `tensor_content` is adopted without a copy when its address
    ///   suits the element type (see [`Tensor::from_buffer`]); string
    ///   elements are slices of it.
    ///
    /// # Errors
    /// [`Error::InvalidProto`](crate::Error::InvalidProto) when the proto is not a valid tensor (TF's
    /// FromProto returns false), [`Error::LimitExceeded`](crate::Error::LimitExceeded) past
    /// [`FromProtoOptions::max_bytes`].
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// use tftensor::pb::{TensorProto, TensorShapeProto, tensor_shape_proto::Dim};
    ///
    /// let proto = TensorProto {
    ///     dtype: DataType::Int32.as_i32(),
    ///     tensor_shape: Some(TensorShapeProto {
    ///         dim: vec![Dim { size: 4, name: String::new() }],
    ///         unknown_rank: false,
    ///     }),
    ///     int_val: vec![1, 2],
    ///     ..Default::default()
    /// };
    /// let t = Tensor::from_proto(&proto)?;
    /// assert_eq!(t.as_slice::<i32>()?, &[1, 2, 2, 2]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_proto(proto: &pb::TensorProto) -> Result<Tensor> {
        Self::from_proto_with(proto, &FromProtoOptions::default())
    }

    /// [`Tensor::from_proto`] with explicit limits.
    ///
    /// # Errors
    /// As [`Tensor::from_proto`].
    ///
    /// ```
    /// use tftensor::{DataType, FromProtoOptions, Tensor};
    /// let proto = Tensor::from(7u8).as_proto_field()?;
    /// let small = FromProtoOptions::default().with_max_bytes(1);
    /// assert_eq!(Tensor::from_proto_with(&proto, &small)?.as_slice::<u8>()?, &[7]);
    /// assert!(Tensor::from_proto_with(&proto, &small.with_max_bytes(0)).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_proto_with(proto: &pb::TensorProto, opts: &FromProtoOptions) -> Result<Tensor> {
        decode::decode_tensor(proto, &mut DecodeCtx::new(opts))
    }

    /// TF's `FromProto(Allocator*, const TensorProto&)`: as
    /// [`Tensor::from_proto_with`], with every element buffer of the result
    /// (and of the tensors nested in its variants) allocated from
    /// `allocator`, and `tensor_content` copied into it rather than
    /// adopted.
    ///
    /// String, resource and variant elements are Rust values (`Bytes`,
    /// `String`, `Vec`) on the global heap, as TF's `tstring` payloads are
    /// on the C++ heap; decoded string elements share the proto's bytes.
    ///
    /// # Errors
    /// As [`Tensor::from_proto`]; [`Error::AllocationFailed`](crate::Error::AllocationFailed) when the
    /// allocator refuses.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tftensor::{Tensor, TrackingAllocator, FromProtoOptions};
    /// let proto = Tensor::from_vec([4], vec![1.0f64, 2.0, 3.0, 4.0])?.as_proto_tensor_content()?;
    /// let a = Arc::new(TrackingAllocator::new());
    /// let t = Tensor::from_proto_in(&a, &proto, &FromProtoOptions::default())?;
    /// assert_eq!(t.as_slice::<f64>()?, &[1.0, 2.0, 3.0, 4.0]);
    /// assert_eq!(a.live_bytes(), 32);
    /// assert_eq!(t.allocation_description().unwrap().allocator_name, "tracking");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_proto_in<A: Allocator + 'static>(
        allocator: &Arc<A>,
        proto: &pb::TensorProto,
        opts: &FromProtoOptions,
    ) -> Result<Tensor> {
        let allocator: Arc<dyn Allocator> = allocator.clone();
        decode::decode_tensor(proto, &mut DecodeCtx::with_allocator(opts, allocator))
    }

    /// [`Tensor::decode_with`] into `allocator`, as
    /// [`Tensor::from_proto_in`]: no zero-copy adoption of `bytes`.
    ///
    /// # Errors
    /// As [`Tensor::decode`]; [`Error::AllocationFailed`](crate::Error::AllocationFailed) when the
    /// allocator refuses.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use prost::Message;
    /// use tftensor::{Tensor, TrackingAllocator, FromProtoOptions};
    /// let wire = Tensor::from_vec([2], vec![7u16, 8])?.as_proto_tensor_content()?.encode_to_vec();
    /// let a = Arc::new(TrackingAllocator::new());
    /// let t = Tensor::decode_in(&a, wire.into(), &FromProtoOptions::default())?;
    /// assert_eq!((t.as_slice::<u16>()?, a.live_bytes()), (&[7u16, 8][..], 4));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn decode_in<A: Allocator + 'static>(
        allocator: &Arc<A>,
        bytes: Bytes,
        opts: &FromProtoOptions,
    ) -> Result<Tensor> {
        let allocator: Arc<dyn Allocator> = allocator.clone();
        decode::decode_bytes(bytes, &mut DecodeCtx::with_allocator(opts, allocator))
    }

    /// Parses a serialized `TensorProto` (what `tf.io.serialize_tensor`
    /// writes) and decodes it as [`Tensor::from_proto`] does.
    ///
    /// Zero-copy: `tensor_content` is parsed as a slice of `bytes`, and a
    /// POD tensor adopts it when its address is aligned for the element
    /// type; otherwise it is copied once into an aligned buffer. String
    /// elements are slices of `bytes` too. Adopted content and string
    /// elements keep the whole `bytes` allocation alive.
    ///
    /// # Errors
    /// [`Error::InvalidProto`](crate::Error::InvalidProto) for bytes that are not a `TensorProto`,
    /// otherwise as [`Tensor::from_proto`].
    ///
    /// ```
    /// use bytes::Bytes;
    /// use prost::Message;
    /// use tftensor::Tensor;
    /// let wire = Tensor::from_vec([2], vec![1.5f32, -2.0])?.as_proto_tensor_content()?.encode_to_vec();
    /// let t = Tensor::decode(Bytes::from(wire))?;
    /// assert_eq!(t.as_slice::<f32>()?, &[1.5, -2.0]);
    /// assert!(Tensor::decode(Bytes::from_static(&[0xff, 0xff])).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn decode(bytes: Bytes) -> Result<Tensor> {
        Self::decode_with(bytes, &FromProtoOptions::default())
    }

    /// [`Tensor::decode`] with explicit limits.
    ///
    /// # Errors
    /// As [`Tensor::decode`].
    ///
    /// ```
    /// use prost::Message;
    /// use tftensor::{FromProtoOptions, Tensor};
    /// let wire = Tensor::from(1.0f64).as_proto_tensor_content()?.encode_to_vec();
    /// let opts = FromProtoOptions::default().with_max_bytes(8);
    /// assert_eq!(Tensor::decode_with(wire.into(), &opts)?.scalar::<f64>()?[()], 1.0);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn decode_with(bytes: Bytes, opts: &FromProtoOptions) -> Result<Tensor> {
        decode::decode_bytes(bytes, &mut DecodeCtx::new(opts))
    }

    /// TF's `AsProtoField`: dtype, shape, and every element in the dtype's
    /// typed field (`float_val`, `int_val` widened, `half_val` bit
    /// patterns, complex values as interleaved pairs, `float8_val` bytes,
    /// `string_val`, `resource_handle_val`, `variant_val`). A tensor
    /// without a buffer writes dtype and shape only, as in TF.
    ///
    /// For strings this is what `tf.io.serialize_tensor` encodes.
    ///
    /// # Errors
    /// [`Error::LimitExceeded`](crate::Error::LimitExceeded) if the encoded proto would reach 2 GiB
    /// (checked before the field is built, except for resource and variant
    /// tensors whose element messages are built first); errors of
    /// unreadable elements (a bool byte other than 0/1 after a bitcast).
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let p = Tensor::from_vec([3], vec![1i8, -2, 3])?.as_proto_field()?;
    /// assert_eq!(p.int_val, [1, -2, 3]);
    /// assert_eq!(Tensor::from_proto(&p)?.as_slice::<i8>()?, &[1, -2, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn as_proto_field(&self) -> Result<pb::TensorProto> {
        encode::as_proto_field(self)
    }

    /// TF's `AsProtoTensorContent`: dtype, shape, and all elements in
    /// `tensor_content`: the raw little-endian bytes for POD dtypes (no copy
    /// when the tensor adopted external bytes, e.g. from
    /// [`Tensor::decode`]); TF's list coding (all varint32 lengths, then
    /// the payloads) of the strings, or of each serialized
    /// `ResourceHandleProto` / `VariantTensorDataProto`.
    ///
    /// Encoding the result gives the bytes of `tf.io.serialize_tensor`
    /// (which uses [`Tensor::as_proto_field`] for strings).
    ///
    /// # Errors
    /// [`Error::LimitExceeded`](crate::Error::LimitExceeded) if the encoded proto would reach 2 GiB
    /// (checked before the content is built).
    ///
    /// ```
    /// use prost::Message;
    /// use tftensor::Tensor;
    /// let p = Tensor::from(1.0f32).as_proto_tensor_content()?;
    /// assert_eq!(p.encode_to_vec(), [0x08, 0x01, 0x12, 0x00, 0x22, 0x04, 0, 0, 0x80, 0x3f]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn as_proto_tensor_content(&self) -> Result<pb::TensorProto> {
        encode::as_proto_tensor_content(self)
    }

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
    /// As [`Tensor::as_proto_field`]; [`Error::AllocationFailed`](crate::Error::AllocationFailed) if the
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
        encode::encode_field_to(self, out)
    }

    /// TF's `FillDescription`: dtype, shape, and (when there is a buffer)
    /// the [`Tensor::allocation_description`] of its root buffer.
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let d = Tensor::new(DataType::Float, [10, 20])?.fill_description();
    /// assert_eq!(d.dtype, DataType::Float.as_i32());
    /// assert_eq!(d.shape.unwrap().dim.len(), 2);
    /// assert_eq!(d.allocation_description.unwrap().requested_bytes, 800);
    /// assert!(Tensor::default().fill_description().allocation_description.is_none());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn fill_description(&self) -> pb::TensorDescription {
        pb::TensorDescription {
            dtype: self.dtype().as_i32(),
            shape: Some(shape::shape_to_proto(self.shape())),
            allocation_description: self.allocation_description().map(|d| {
                pb::AllocationDescription {
                    requested_bytes: d.requested_bytes,
                    allocated_bytes: d.allocated_bytes,
                    allocator_name: d.allocator_name,
                    allocation_id: d.allocation_id,
                    has_single_reference: d.has_single_reference,
                    ptr: d.ptr,
                }
            }),
        }
    }
}

#[cfg(test)]
mod tests;
