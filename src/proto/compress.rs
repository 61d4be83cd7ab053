//! TF's `tensor::CompressTensorProtoInPlace` (in TF's `tensor_util`).

use bytes::Bytes;

use crate::dtype::DataType;
use crate::element::dispatch_dtype;
use crate::pb::TensorProto;
use crate::shape::i64_of_usize;
use crate::tensor::Tensor;

use super::decode::decode_tensor;
use super::field::{ProtoElement, sub_bytes};
use super::options::DecodeCtx;
use super::shape::shape_from_proto;

/// TF's `tensor::CompressTensorProtoInPlace`: shrinks `proto` in place
/// when its values end in a run of one repeated value, relying on
/// FromProto's rule that a short typed field repeats its last value.
/// Returns whether it changed `proto`. TF's defaults are
/// `min_num_elements = 64`, `min_compression_ratio = 2.0`.
///
/// Only float, double, complex64/128, the 8/16/32/64-bit integers, bool,
/// the quantized types, half and bfloat16 are compressed, and only with at
/// least `min_num_elements` elements:
/// * typed-field input: an all-`+0` field is cleared; otherwise the field is
///   cut after the first value of its trailing run, or turned into
///   `tensor_content` if that is smaller, when the smaller form is at most
///   `original field bytes / min_compression_ratio`;
/// * `tensor_content` input: an all-zero-bytes splat is cleared; otherwise
///   the values up to the trailing run move into the typed field when that
///   takes at most `content bytes / min_compression_ratio`.
///
/// [`Tensor::from_proto`] of the result always equals that of the input.
/// Deviations from TF, each of which would break that: values are compared
/// bit for bit for every dtype (TF compares half/bfloat16 as floats, so a
/// run mixing `-0.0` and `+0.0` lost the sign); a content splat is cleared
/// only when its bytes are zero (TF also clears a `-0.0` splat); a field
/// turned into content keeps FromProto's fill rule for the tail (TF
/// zero-fills it); content whose length is not exactly elements × size is
/// left alone; the typed field is replaced, not appended to.
///
/// ```
/// use tftensor::{compress_tensor_proto_in_place, Tensor};
///
/// let t = Tensor::from_vec([100], vec![42.0f32; 100])?;
/// let mut proto = t.as_proto_field()?;
/// assert!(compress_tensor_proto_in_place(&mut proto, 64, 2.0));
/// assert_eq!(proto.float_val, [42.0]);
/// assert_eq!(Tensor::from_proto(&proto)?, t);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn compress_tensor_proto_in_place(
    proto: &mut TensorProto,
    min_num_elements: i64,
    min_compression_ratio: f32,
) -> bool {
    let Ok(shape) = shape_from_proto(proto.tensor_shape.as_ref()) else {
        return false;
    };
    let n = shape.num_elements();
    if n < min_num_elements {
        return false;
    }
    let dtype = DataType::from_i32(proto.dtype);
    dispatch_dtype!(dtype, T => compress::<T>(proto, n, min_compression_ratio), _ => false)
}

fn compress<T: ProtoElement>(proto: &mut TensorProto, n: i64, ratio: f32) -> bool {
    let Some(field_bytes) = T::COMPRESS_FIELD_BYTES else {
        return false;
    };
    if proto.tensor_content.is_empty() {
        compress_field::<T>(proto, n, ratio, field_bytes)
    } else {
        compress_content::<T>(proto, n, ratio, field_bytes)
    }
}

/// An element's bytes, for bitwise comparison (all compressed dtypes are POD).
fn bits<T: ProtoElement>(v: &T) -> &[u8] {
    crate::buffer::as_bytes(std::slice::from_ref(v))
}

/// TF's `static_cast<int64_t>(bytes / min_compression_ratio)`: a float
/// division, truncated (Rust's `as` saturates where C++ is undefined).
fn budget(bytes: i64, ratio: f32) -> i64 {
    (bytes as f32 / ratio) as i64
}

/// A count of elements or bytes in memory as `i64`: exact (see
/// [`i64_of_usize`]).
fn as_i64(n: usize) -> i64 {
    i64_of_usize(n)
}

/// TF's `CompressRepeatedField`, with its size arithmetic (which counts a
/// complex value as one field value).
fn compress_field<T: ProtoElement>(
    proto: &mut TensorProto,
    n: i64,
    ratio: f32,
    field_bytes: usize,
) -> bool {
    let k = T::field_len(proto);
    // The field is in memory already, so a copy of it is bounded.
    let mut values = vec![T::default(); k];
    if T::read_field(proto, &mut values, &mut DecodeCtx::unlimited()).is_err() {
        return false;
    }
    let Some(last) = values.last() else {
        return false;
    };
    // One past the last value that differs from the final one.
    let last_index = values
        .iter()
        .rposition(|v| bits(v) != bits(last))
        .map_or(0, |i| i + 1);
    if last_index == 0 && bits(last).iter().all(|&b| b == 0) {
        // All +0: FromProto zero-fills an empty field.
        T::truncate_field(proto, 0);
        return true;
    }
    let truncated = last_index + 1;
    let as_field = as_i64(truncated).saturating_mul(as_i64(field_bytes));
    let as_content = n.saturating_mul(as_i64(size_of::<T>()));
    let before = as_i64(k).saturating_mul(as_i64(field_bytes));
    if as_field.min(as_content) > budget(before, ratio) {
        return false;
    }
    if as_field <= as_content {
        T::truncate_field(proto, truncated);
        return true;
    }
    // Content is smaller than the field here, so decoding is bounded.
    let Ok(t) = decode_tensor(proto, &mut DecodeCtx::unlimited()) else {
        return false;
    };
    let Ok(raw) = t.tensor_data() else {
        return false;
    };
    proto.tensor_content = Bytes::copy_from_slice(raw);
    T::truncate_field(proto, 0);
    true
}

/// TF's `CompressTensorContent`.
fn compress_content<T: ProtoElement>(
    proto: &mut TensorProto,
    n: i64,
    ratio: f32,
    field_bytes: usize,
) -> bool {
    let size = size_of::<T>();
    let content = &proto.tensor_content;
    let len = content.len();
    if usize::try_from(n).ok().and_then(|n| n.checked_mul(size)) != Some(len) {
        return false;
    }
    // Walk back while each byte equals the one `size` bytes earlier: every
    // element after the one holding `last` equals that element.
    let Some(mut last) = len.checked_sub(1) else {
        return false;
    };
    while let Some(prev) = last.checked_sub(size) {
        if content.get(prev) != content.get(last) {
            break;
        }
        last -= 1;
    }
    if last < size
        && content
            .get(..size)
            .is_some_and(|s| s.iter().all(|&b| b == 0))
    {
        // A splat of zero bytes: FromProto zero-fills an empty proto.
        proto.tensor_content = Bytes::new();
        return true;
    }
    let kept = last / size + 1;
    let kept_bytes = kept
        .saturating_mul(T::VALUES_PER_ELEMENT)
        .saturating_mul(field_bytes);
    if as_i64(kept_bytes) > budget(as_i64(len), ratio) {
        return false;
    }
    let Ok(prefix) = sub_bytes(content, 0..kept.saturating_mul(size)) else {
        return false;
    };
    // Also rejects bool bytes other than 0 and 1.
    let Ok(t) = Tensor::from_buffer(T::DTYPE, [as_i64(kept)], prefix) else {
        return false;
    };
    let Ok(values) = t.as_slice::<T>() else {
        return false;
    };
    if T::write_field(values, proto).is_err() {
        return false;
    }
    proto.tensor_content = Bytes::new();
    true
}
