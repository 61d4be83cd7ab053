//! The `TensorProto` codec: TF's `Tensor::FromProto`, `AsProtoField`,
//! `AsProtoTensorContent` and `FillDescription`, plus `tensor_util`'s
//! `CompressTensorProtoInPlace`.
//!
//! Per-dtype behaviour (which typed field, how values widen and narrow) lives
//! in one trait, [`field::ProtoElement`], implemented once per element type;
//! every operation here reaches it through `dispatch_dtype!`.
//!
//! Where tftensor deviates from TF, the item's docs say so.

mod compress;
mod encode;
mod field;
pub(crate) mod handle;
pub(crate) mod lenient;

use std::sync::Arc;

use bytes::Bytes;
use prost::encoding::{encoded_len_varint, key_len};
use prost::Message;

use crate::buffer::Allocator;
use crate::dtype::DataType;
use crate::element::dispatch_dtype;
use crate::error::{Error, Result};
use crate::pb;
use crate::shape::{TensorShape, MAX_DIMENSIONS};
use crate::tensor::Tensor;

pub use self::compress::compress_tensor_proto_in_place;
use self::field::ProtoElement;

/// The largest encoded message C++ and Python protobuf accept
/// (`INT_MAX` bytes): building a bigger `TensorProto` is refused.
pub(crate) const MAX_PROTO_BYTES: u64 = i32::MAX as u64;

/// `TensorProto.tensor_content`'s field number.
const TENSOR_CONTENT_TAG: u32 = 4;

/// Limits for decoding untrusted `TensorProto`s, used by
/// [`Tensor::from_proto_with`] and [`Tensor::decode_with`].
///
/// A proto can declare a huge shape and carry one value (or none): TF would
/// then allocate the whole tensor. tftensor first checks the memory the
/// decoded elements need — element count × in-memory element size, summed
/// over the tensors nested in variants — against `max_bytes`, and fails with
/// [`Error::LimitExceeded`] before allocating anything past it.
///
/// ```
/// use tftensor::{DataType, Error, FromProtoOptions, Tensor};
/// use tftensor::pb::{TensorProto, TensorShapeProto, tensor_shape_proto::Dim};
///
/// // 2^40 floats from a 20-byte proto.
/// let proto = TensorProto {
///     dtype: DataType::Float.as_i32(),
///     tensor_shape: Some(TensorShapeProto {
///         dim: vec![Dim { size: 1 << 40, name: String::new() }],
///         unknown_rank: false,
///     }),
///     float_val: vec![1.0],
///     ..Default::default()
/// };
/// let err = Tensor::from_proto(&proto).unwrap_err();
/// assert!(matches!(err, Error::LimitExceeded { limit: 1073741824, .. }));
///
/// let mut opts = FromProtoOptions::default();
/// opts.max_bytes = 16;
/// assert!(Tensor::from_proto_with(&proto, &opts).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FromProtoOptions {
    /// Most bytes the decoded elements may occupy (default 1 GiB,
    /// [`FromProtoOptions::DEFAULT_MAX_BYTES`]).
    pub max_bytes: u64,
    /// Most levels of tensors nested inside variants (default 64,
    /// [`FromProtoOptions::DEFAULT_MAX_DEPTH`]).
    pub max_depth: usize,
}

impl FromProtoOptions {
    /// The default `max_bytes`: 1 GiB.
    ///
    /// ```
    /// assert_eq!(tftensor::FromProtoOptions::DEFAULT_MAX_BYTES, 1 << 30);
    /// ```
    pub const DEFAULT_MAX_BYTES: u64 = 1 << 30;

    /// The default `max_depth`: 64 levels of variant nesting.
    ///
    /// ```
    /// assert_eq!(tftensor::FromProtoOptions::DEFAULT_MAX_DEPTH, 64);
    /// ```
    pub const DEFAULT_MAX_DEPTH: usize = 64;

    /// These options with `max_bytes` set.
    ///
    /// ```
    /// let o = tftensor::FromProtoOptions::default().with_max_bytes(1 << 20);
    /// assert_eq!(o.max_bytes, 1 << 20);
    /// ```
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// These options with `max_depth` set.
    ///
    /// ```
    /// let o = tftensor::FromProtoOptions::default().with_max_depth(2);
    /// assert_eq!(o.max_depth, 2);
    /// ```
    #[must_use]
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }
}

impl Default for FromProtoOptions {
    /// 1 GiB of elements, 64 levels of variant nesting.
    ///
    /// ```
    /// let o = tftensor::FromProtoOptions::default();
    /// assert_eq!((o.max_bytes, o.max_depth), (1 << 30, 64));
    /// ```
    fn default() -> Self {
        FromProtoOptions {
            max_bytes: Self::DEFAULT_MAX_BYTES,
            max_depth: Self::DEFAULT_MAX_DEPTH,
        }
    }
}

/// The budget one decode (a tensor and everything nested in it) draws on,
/// and the allocator its element buffers come from.
pub(crate) struct DecodeCtx {
    limit: u64,
    used: u64,
    max_depth: usize,
    depth_left: usize,
    /// The caller's allocator (`from_proto_in`): every POD buffer is
    /// allocated from it, and input bytes are never adopted.
    allocator: Option<Arc<dyn Allocator>>,
}

impl DecodeCtx {
    pub(crate) fn new(opts: &FromProtoOptions) -> Self {
        DecodeCtx {
            limit: opts.max_bytes,
            used: 0,
            max_depth: opts.max_depth,
            depth_left: opts.max_depth,
            allocator: None,
        }
    }

    fn with_allocator(opts: &FromProtoOptions, allocator: Arc<dyn Allocator>) -> Self {
        DecodeCtx {
            allocator: Some(allocator),
            ..Self::new(opts)
        }
    }

    /// The caller's allocator, if one was given.
    pub(crate) fn allocator(&self) -> Option<&Arc<dyn Allocator>> {
        self.allocator.as_ref()
    }

    /// A context without limits, for re-reading fields whose size the proto
    /// itself bounds (compression).
    pub(crate) fn unlimited() -> Self {
        DecodeCtx {
            limit: u64::MAX,
            used: 0,
            max_depth: usize::MAX,
            depth_left: usize::MAX,
            allocator: None,
        }
    }

    /// Reserves `n` elements of `T` from the byte budget.
    fn charge<T>(&mut self, n: i64) -> Result<()> {
        let bytes = u64::try_from(n)
            .unwrap_or(u64::MAX)
            .saturating_mul(size_of::<T>() as u64);
        let used = self.used.saturating_add(bytes);
        if used > self.limit {
            return Err(Error::LimitExceeded {
                what: "decoded tensor bytes (FromProtoOptions::max_bytes)",
                limit: self.limit,
                requested: used,
            });
        }
        self.used = used;
        Ok(())
    }

    /// Runs `f` one variant-nesting level deeper.
    fn nested<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        let Some(left) = self.depth_left.checked_sub(1) else {
            return Err(Error::LimitExceeded {
                what: "variant nesting depth (FromProtoOptions::max_depth)",
                limit: self.max_depth as u64,
                requested: (self.max_depth as u64).saturating_add(1),
            });
        };
        let saved = self.depth_left;
        self.depth_left = left;
        let r = f(self);
        self.depth_left = saved;
        r
    }
}

fn invalid(msg: impl Into<String>) -> Error {
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

impl TensorShape {
    /// TF's `TensorShape::AsProto`: one `Dim` per dimension, sizes only.
    ///
    /// ```
    /// let p = tftensor::TensorShape::new(&[2, 3]).unwrap().as_proto();
    /// assert_eq!(p.dim.iter().map(|d| d.size).collect::<Vec<_>>(), vec![2, 3]);
    /// ```
    pub fn as_proto(&self) -> pb::TensorShapeProto {
        shape_to_proto(self)
    }

    /// A shape from a `TensorShapeProto` with FromProto's rules: no dims
    /// (with or without `unknown_rank`) is a scalar; a dim below 0, more than
    /// 254 dims, or an element count past `i64` is an
    /// [`Error::InvalidProto`].
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
        shape_from_proto(Some(proto))
    }
}

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

/// Encoded size of a length-delimited field of `len` payload bytes; 0 when
/// empty, since proto3 omits empty fields.
pub(crate) fn bytes_field_len(tag: u32, len: u64) -> u64 {
    if len == 0 {
        0
    } else {
        (key_len(tag) + encoded_len_varint(len)) as u64 + len
    }
}

/// FromProto with a shared budget: the whole of TF's `Tensor::FromProto`.
pub(crate) fn decode_tensor(proto: &pb::TensorProto, ctx: &mut DecodeCtx) -> Result<Tensor> {
    let shape = shape_from_proto(proto.tensor_shape.as_ref())?;
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
fn adopt_int_val(proto: &mut pb::TensorProto, opts: &FromProtoOptions) -> Result<Option<Tensor>> {
    if proto.dtype != DataType::Int32.as_i32()
        || !proto.tensor_content.is_empty()
        || proto.int_val.is_empty()
    {
        return Ok(None);
    }
    let shape = shape_from_proto(proto.tensor_shape.as_ref())?;
    if usize::try_from(shape.num_elements()).ok() != Some(proto.int_val.len()) {
        return Ok(None);
    }
    // The same budget from_proto applies.
    DecodeCtx::new(opts).charge::<i32>(shape.num_elements())?;
    Tensor::from_vec(shape, std::mem::take(&mut proto.int_val)).map(Some)
}

/// AsProtoField's per-dtype part: refuses a 2 GiB proto before building the
/// field when its size is computable, and after building otherwise.
fn write_field_checked<T: ProtoElement>(t: &Tensor, proto: &mut pb::TensorProto) -> Result<()> {
    let base = proto.encoded_len() as u64;
    let t = encode::readable::<T>(t)?;
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

impl Tensor {
    /// TF's `Tensor::FromProto`, with the default [`FromProtoOptions`]
    /// (1 GiB of elements at most).
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
    /// [`Error::InvalidProto`] when the proto is not a valid tensor (TF's
    /// FromProto returns false), [`Error::LimitExceeded`] past
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
        decode_tensor(proto, &mut DecodeCtx::new(opts))
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
    /// As [`Tensor::from_proto`]; [`Error::AllocationFailed`] when the
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
        decode_tensor(proto, &mut DecodeCtx::with_allocator(opts, allocator))
    }

    /// [`Tensor::decode_with`] into `allocator`, as
    /// [`Tensor::from_proto_in`]: no zero-copy adoption of `bytes`.
    ///
    /// # Errors
    /// As [`Tensor::decode`]; [`Error::AllocationFailed`] when the
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
        let proto = crate::proto_fast::decode_tensor_proto(bytes).map_err(|e| {
            Error::proto_decode(format!("Could not parse bytes as TensorProto: {e}"), e)
        })?;
        Self::from_proto_in(allocator, &proto, opts)
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
    /// [`Error::InvalidProto`] for bytes that are not a `TensorProto`,
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
        let mut proto = crate::proto_fast::decode_tensor_proto(bytes).map_err(|e| {
            Error::proto_decode(format!("Could not parse bytes as TensorProto: {e}"), e)
        })?;
        if let Some(t) = adopt_int_val(&mut proto, opts)? {
            return Ok(t);
        }
        Self::from_proto_with(&proto, opts)
    }

    /// The proto TF's `AsProto*` start from: dtype and shape only.
    fn proto_header(&self) -> pb::TensorProto {
        pb::TensorProto {
            dtype: self.dtype().as_i32(),
            tensor_shape: Some(shape_to_proto(self.shape())),
            ..pb::TensorProto::default()
        }
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
    /// [`Error::LimitExceeded`] if the encoded proto would reach 2 GiB
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
        let mut proto = self.proto_header();
        if self.buf().is_none() {
            return Ok(proto);
        }
        let dtype = self.dtype();
        // Each arm only calls: one big frame of 30 inlined bodies would
        // cost ~32 KiB of stack per variant nesting level in debug builds.
        dispatch_dtype!(dtype, T => write_field_checked::<T>(self, &mut proto)?, _ => return Err(Error::unsupported(dtype, format!("AsProtoField of dtype {dtype}"))));
        Ok(proto)
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
    /// [`Error::LimitExceeded`] if the encoded proto would reach 2 GiB
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
        let mut proto = self.proto_header();
        if self.buf().is_none() {
            return Ok(proto);
        }
        let dtype = self.dtype();
        let content = dispatch_dtype!(dtype, T => content_checked::<T>(self, &proto)?, _ => return Err(Error::unsupported(dtype, format!("AsProtoTensorContent of dtype {dtype}"))));
        proto.tensor_content = content;
        Ok(proto)
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
            shape: Some(shape_to_proto(self.shape())),
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
