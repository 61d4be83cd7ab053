//! [`ProtoElement`]: how each element type maps to `TensorProto` — which
//! typed field holds it, how values widen and narrow, and how
//! `tensor_content` encodes it. One implementation per element type (the
//! message-valued ones are in `handle.rs`); the codec and the compressor
//! are generic over it. Also the direct field writer's packers.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use num_complex::Complex;
use prost::encoding::{WireType, encode_key, encode_varint, encoded_len_varint, key_len};

use crate::buffer::{Allocator, Repr, Root, Stored, as_bytes, try_vec};
use crate::dtype::DataType;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::pb::TensorProto;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

use super::list::{decode_list, encode_list, encoded_list_len};
use super::options::DecodeCtx;

/// The per-dtype half of the codec. `field` means the dtype's typed field
/// of `TensorProto` (`float_val`, `int_val`, ...); counts are in elements (a complex element is two
/// field values).
pub(crate) trait ProtoElement: Element {
    /// A short typed field is padded with its last value; resource and
    /// variant pad with defaults instead (TF).
    const FILL_WITH_LAST: bool = true;
    /// `sizeof(FieldType)` of TF's `tensor_util` compression; `None` for the
    /// dtypes TF does not compress.
    const COMPRESS_FIELD_BYTES: Option<usize> = None;
    /// Field values per element: 2 for complex, else 1.
    const VALUES_PER_ELEMENT: usize = 1;

    /// Whole elements present in the typed field.
    fn field_len(proto: &TensorProto) -> usize;

    /// Reads the first `min(field_len, out.len())` elements into `out` and
    /// returns how many; the caller applies the fill rule.
    fn read_field(proto: &TensorProto, out: &mut [Self], ctx: &mut DecodeCtx) -> Result<usize>;

    /// The encoded size of the typed field holding `values`, when it can be
    /// known without building the field (`None` for message fields).
    fn field_encoded_len(values: &[Self]) -> Option<u64>;

    /// Replaces the typed field with `values`.
    fn write_field(values: &[Self], proto: &mut TensorProto) -> Result<()>;

    /// Appends the typed field holding `values` in its wire form, exactly
    /// the bytes prost writes for [`ProtoElement::write_field`]'s result,
    /// without building the field: packed fixed-width values and raw bytes
    /// as one copy of the elements, varints straight from the elements.
    /// `field_len` is [`ProtoElement::field_encoded_len`]'s answer; the
    /// caller has reserved it plus [`VARINT_SLACK`] bytes. `false` (nothing
    /// written) for message fields.
    fn put_field(_values: &[Self], _field_len: u64, _out: &mut Vec<u8>) -> bool {
        false
    }

    /// Keeps the first `n` elements of the typed field.
    fn truncate_field(proto: &mut TensorProto, n: usize);

    /// Decodes non-empty `tensor_content` for `shape` (already charged to
    /// the budget). POD: the raw bytes, adopted without a copy when aligned.
    fn decode_content(content: &Bytes, shape: TensorShape, ctx: &mut DecodeCtx) -> Result<Tensor> {
        let t = match ctx.allocator() {
            Some(a) => copy_content_in(a, Self::DTYPE, shape, content),
            None => Tensor::from_buffer(Self::DTYPE, shape, content.clone()),
        };
        t.map_err(|e| match e {
            e @ Error::SizeMismatch { .. } => Error::invalid_proto(e.to_string()),
            Error::InvalidArgument(m) => Error::invalid_proto(m),
            other => other,
        })
    }

    /// Encodes the elements of `t` (which has a buffer) as
    /// `tensor_content`, calling `check` with the content length before
    /// building anything large. POD: the raw bytes, shared when the tensor
    /// adopted external bytes.
    fn encode_content(t: &Tensor, check: &dyn Fn(u64) -> Result<()>) -> Result<Bytes> {
        let raw = t.raw_bytes()?;
        check(raw.len() as u64)?;
        // Share the buffer rather than copy it; the tensor's copy-on-write
        // keeps the shared bytes unchanged.
        let shared = t
            .root()
            .and_then(|root| root.share_bytes(t.region().bytes()));
        Ok(shared.unwrap_or_else(|| Bytes::copy_from_slice(raw)))
    }
}

/// POD `content` copied into a buffer from `allocator`, with
/// [`Tensor::from_buffer`]'s checks (and its messages).
fn copy_content_in(
    allocator: &Arc<dyn Allocator>,
    dtype: DataType,
    shape: TensorShape,
    content: &Bytes,
) -> Result<Tensor> {
    let expected = crate::tensor::byte_len(dtype, shape.num_elements())?;
    if content.len() != expected {
        return Err(Error::SizeMismatch {
            got: content.len() as u64,
            expected: expected as u64,
            check: crate::SizeCheck::Bytes,
        });
    }
    if dtype == DataType::Bool && content.iter().any(|&b| b > 1) {
        return Err(Error::InvalidArgument("bool bytes must be 0 or 1".into()));
    }
    if expected == 0 {
        return Tensor::new(dtype, shape);
    }
    let root = Root::copy_of(allocator, content)?;
    Ok(Tensor::with_root(dtype, shape, root))
}

/// The elements' bytes when they are plain bytes (POD and bool), `None` for
/// typed elements (strings, handles, variants).
fn pod_bytes<T: Stored>(values: &[T]) -> Option<&[u8]> {
    (T::REPR != Repr::Typed).then(|| as_bytes(values))
}

/// `b[r]` as a shared slice, checked (`Bytes::slice` panics out of range).
pub(crate) fn sub_bytes(b: &Bytes, r: Range<usize>) -> Result<Bytes> {
    if r.start <= r.end && r.end <= b.len() {
        Ok(b.slice(r))
    } else {
        Err(Error::invalid_proto(format!(
            "range {}..{} outside {} bytes",
            r.start,
            r.end,
            b.len()
        )))
    }
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

/// A scalar wire type of a packed repeated field.
trait Wire: Copy {
    /// Bytes per value for fixed-width types.
    const FIXED: Option<u64>;
    /// Bytes of one varint value.
    fn varint_len(self) -> u64;
    /// Appends the wire bytes of `values`, `payload` bytes in all.
    fn put_all(values: impl Iterator<Item = Self>, payload: u64, out: &mut Vec<u8>);
}

macro_rules! fixed_wire {
    ($($t:ty => $n:literal;)*) => {$(
        impl Wire for $t {
            const FIXED: Option<u64> = Some($n);
            fn varint_len(self) -> u64 {
                $n
            }
            fn put_all(values: impl Iterator<Item = Self>, _: u64, out: &mut Vec<u8>) {
                values.for_each(|v| out.extend_from_slice(&v.to_le_bytes()));
            }
        }
    )*};
}

fixed_wire! {
    f32 => 4;
    f64 => 8;
}

impl Wire for bool {
    const FIXED: Option<u64> = Some(1);
    fn varint_len(self) -> u64 {
        1
    }
    fn put_all(values: impl Iterator<Item = Self>, _: u64, out: &mut Vec<u8>) {
        out.extend(values.map(u8::from));
    }
}

macro_rules! varint_wire {
    ($($t:ty => |$v:ident| $wire:expr;)*) => {$(
        impl Wire for $t {
            const FIXED: Option<u64> = None;
            fn varint_len(self) -> u64 {
                let $v = self;
                encoded_len_varint($wire) as u64
            }
            fn put_all(values: impl Iterator<Item = Self>, payload: u64, out: &mut Vec<u8>) {
                put_varints(values.map(|$v| $wire), payload, out);
            }
        }
    )*};
}

varint_wire! {
    // Negative int32 values are sign-extended to 10-byte varints.
    i32 => |v| i64::from(v) as u64;
    i64 => |v| v as u64;
    u32 => |v| u64::from(v);
    u64 => |v| v;
}

/// The 7-bit groups of `v` (< 2^56) spread one per byte, little-endian:
/// a varint's bytes before the continuation bits are set.
#[inline]
fn spread7(v: u64) -> u64 {
    (v & 0x7f)
        | ((v << 1) & 0x7f00)
        | ((v << 2) & 0x7f_0000)
        | ((v << 3) & 0x7f00_0000)
        | ((v << 4) & 0x7f_0000_0000)
        | ((v << 5) & 0x7f00_0000_0000)
        | ((v << 6) & 0x7f_0000_0000_0000)
        | ((v << 7) & 0x7f00_0000_0000_0000)
}

/// Appends `values` as varints, `payload` bytes in all, without a
/// capacity check per byte: the output is sized once, and the first eight
/// bytes of each value are one 8-byte store of its spread 7-bit groups (the
/// bytes past its length are overwritten by the next value, or cut off at
/// the end). Needs [`VARINT_SLACK`] bytes of capacity past the payload to
/// stay within the reservation.
fn put_varints(values: impl Iterator<Item = u64>, payload: u64, out: &mut Vec<u8>) {
    let start = out.len();
    let Some(end) = usize::try_from(payload)
        .ok()
        .and_then(|p| start.checked_add(p))
    else {
        return;
    };
    out.resize(end + VARINT_SLACK, 0);
    let mut pos = start;
    for v in values {
        let n = encoded_len_varint(v);
        // Continuation bits on every byte but the last of the first eight.
        let cont = if n > 8 {
            0x8080_8080_8080_8080u64
        } else {
            0x8080_8080_8080_8080u64 & ((1u64 << (8 * (n - 1))) - 1)
        };
        let low = spread7(v & ((1 << 56) - 1)) | cont;
        if let Some(dst) = out.get_mut(pos..pos + 8) {
            dst.copy_from_slice(&low.to_le_bytes());
        }
        if n > 8 {
            // Values of 2^56 and more (negative int32 and int64): one or
            // two bytes more.
            let high = v >> 56;
            let tail = [
                (high as u8 & 0x7f) | if n > 9 { 0x80 } else { 0 },
                (high >> 7) as u8,
            ];
            if let (Some(dst), Some(src)) = (out.get_mut(pos + 8..pos + n), tail.get(..n - 8)) {
                dst.copy_from_slice(src);
            }
        }
        pos += n;
    }
    debug_assert_eq!(pos, end, "varint payload length");
    out.truncate(end);
}

/// Spare capacity [`ProtoElement::put_field`] needs past the field's end.
pub(crate) const VARINT_SLACK: usize = 8;

/// The payload length of a length-delimited field whose whole encoding
/// (key, length prefix, payload) takes `field_len` bytes; `None` when no
/// payload makes that length (a `field_len` not from [`bytes_field_len`]).
fn payload_len(tag: u32, field_len: u64) -> Option<u64> {
    let rest = field_len.saturating_sub(key_len(tag) as u64);
    // `p + encoded_len_varint(p)` grows strictly with `p`, so one prefix
    // length fits.
    let payload = (1..=10u64)
        .map(|n| rest.saturating_sub(n))
        .find(|&p| encoded_len_varint(p) as u64 + p == rest);
    debug_assert!(
        payload.is_some(),
        "no payload fits a field of {field_len} bytes"
    );
    payload
}

/// Appends a non-empty length-delimited field: key, length, then `body`
/// (given the payload length). `false`, with nothing written, when no
/// payload makes `field_len`.
fn put_len_delimited(
    tag: u32,
    field_len: u64,
    out: &mut Vec<u8>,
    body: impl FnOnce(u64, &mut Vec<u8>),
) -> bool {
    if field_len == 0 {
        // proto3 omits an empty packed or bytes field.
        return true;
    }
    let Some(payload) = payload_len(tag, field_len) else {
        return false;
    };
    encode_key(tag, WireType::LengthDelimited, out);
    encode_varint(payload, out);
    body(payload, out);
    true
}

/// The packed field of `values` (`write` gives each one's field value):
/// fixed-width values whose in-memory bytes are their wire bytes (f32,
/// f64, bool) are copied in one piece; the rest are written one by one.
fn put_packed<T: Element, W: Wire>(
    tag: u32,
    values: &[T],
    field_len: u64,
    out: &mut Vec<u8>,
    write: impl Fn(&T) -> W,
) -> bool {
    put_len_delimited(tag, field_len, out, |payload, out| {
        let same_bytes = W::FIXED == Some(size_of::<T>() as u64) && cfg!(target_endian = "little");
        match pod_bytes(values) {
            Some(raw) if same_bytes => out.extend_from_slice(raw),
            _ => W::put_all(values.iter().map(write), payload, out),
        }
    })
}

/// Encoded size of a packed repeated field of `n` wire values.
fn packed_len<W: Wire>(tag: u32, n: usize, values: impl Iterator<Item = W>) -> u64 {
    let payload = match W::FIXED {
        Some(w) => (n as u64).saturating_mul(w),
        None => values.map(W::varint_len).sum(),
    };
    bytes_field_len(tag, payload)
}

/// Element types stored one field value per element, with a conversion.
macro_rules! repeated {
    ($($t:ty => $field:ident = $tag:literal, $compress:expr, |$r:ident| $read:expr, |$w:ident| $write:expr;)*) => {$(
        impl ProtoElement for $t {
            const COMPRESS_FIELD_BYTES: Option<usize> = $compress;

            fn field_len(proto: &TensorProto) -> usize {
                proto.$field.len()
            }

            fn read_field(proto: &TensorProto, out: &mut [Self], _: &mut DecodeCtx) -> Result<usize> {
                for (o, &$r) in out.iter_mut().zip(&proto.$field) {
                    *o = $read;
                }
                Ok(out.len().min(proto.$field.len()))
            }

            fn field_encoded_len(values: &[Self]) -> Option<u64> {
                Some(packed_len($tag, values.len(), values.iter().map(|&$w| $write)))
            }

            fn write_field(values: &[Self], proto: &mut TensorProto) -> Result<()> {
                let mut f = try_vec(values.len())?;
                f.extend(values.iter().map(|&$w| $write));
                proto.$field = f;
                Ok(())
            }

            fn truncate_field(proto: &mut TensorProto, n: usize) {
                proto.$field.truncate(n);
            }

            fn put_field(values: &[Self], field_len: u64, out: &mut Vec<u8>) -> bool {
                put_packed($tag, values, field_len, out, |&$w| $write)
            }
        }
    )*};
}

/// Complex elements: (re, im) pairs in a float or double field; an odd
/// trailing value is ignored.
macro_rules! complex {
    ($($re:ty => $field:ident = $tag:literal;)*) => {$(
        impl ProtoElement for Complex<$re> {
            const COMPRESS_FIELD_BYTES: Option<usize> = Some(size_of::<$re>());
            const VALUES_PER_ELEMENT: usize = 2;

            fn field_len(proto: &TensorProto) -> usize {
                proto.$field.len() / 2
            }

            fn read_field(proto: &TensorProto, out: &mut [Self], _: &mut DecodeCtx) -> Result<usize> {
                for (o, pair) in out.iter_mut().zip(proto.$field.chunks_exact(2)) {
                    if let [re, im] = *pair {
                        *o = Complex::new(re, im);
                    }
                }
                Ok(out.len().min(Self::field_len(proto)))
            }

            fn field_encoded_len(values: &[Self]) -> Option<u64> {
                let n = values.len().saturating_mul(2);
                Some(packed_len::<$re>($tag, n, std::iter::empty()))
            }

            fn write_field(values: &[Self], proto: &mut TensorProto) -> Result<()> {
                let mut f = try_vec(values.len().saturating_mul(2))?;
                f.extend(values.iter().flat_map(|c| [c.re, c.im]));
                proto.$field = f;
                Ok(())
            }

            fn truncate_field(proto: &mut TensorProto, n: usize) {
                proto.$field.truncate(n.saturating_mul(2));
            }

            fn put_field(values: &[Self], field_len: u64, out: &mut Vec<u8>) -> bool {
                put_len_delimited($tag, field_len, out, |payload, out| {
                    // (re, im) pairs are the packed field's values in order.
                    match pod_bytes(values) {
                        Some(raw) if cfg!(target_endian = "little") => out.extend_from_slice(raw),
                        _ => <$re as Wire>::put_all(
                            values.iter().flat_map(|c| [c.re, c.im]),
                            payload,
                            out,
                        ),
                    }
                })
            }
        }
    )*};
}

/// `float8_val`'s field number.
const FLOAT8_TAG: u32 = 18;

/// The float8 types and float4_e2m1fn: one raw byte per element in the
/// `float8_val` bytes.
macro_rules! float8 {
    ($($t:ty),*) => {$(
        impl ProtoElement for $t {
            fn field_len(proto: &TensorProto) -> usize {
                proto.float8_val.len()
            }

            fn read_field(proto: &TensorProto, out: &mut [Self], _: &mut DecodeCtx) -> Result<usize> {
                for (o, &b) in out.iter_mut().zip(proto.float8_val.iter()) {
                    *o = <$t>::from_bits(b);
                }
                Ok(out.len().min(proto.float8_val.len()))
            }

            fn field_encoded_len(values: &[Self]) -> Option<u64> {
                Some(bytes_field_len(FLOAT8_TAG, values.len() as u64))
            }

            fn write_field(values: &[Self], proto: &mut TensorProto) -> Result<()> {
                let mut f = try_vec(values.len())?;
                f.extend(values.iter().map(|v| v.to_bits()));
                proto.float8_val = Bytes::from(f);
                Ok(())
            }

            fn truncate_field(proto: &mut TensorProto, n: usize) {
                proto.float8_val.truncate(n);
            }

            fn put_field(values: &[Self], field_len: u64, out: &mut Vec<u8>) -> bool {
                put_len_delimited(FLOAT8_TAG, field_len, out, |_, out| match pod_bytes(values) {
                    Some(raw) => out.extend_from_slice(raw),
                    None => out.extend(values.iter().map(|v| v.to_bits())),
                })
            }
        }
    )*};
}

/// The impls of the row list's `proto` column; string, resource and variant
/// (`custom`) are written out below.
macro_rules! proto_elements {
    (() $( $konst:ident = $num:literal { name: $name:literal, proto_name: $proto:literal,
        size: $size:literal, kind: $kind:ident, rust: $t:ty, store: $store:ident $(($home:ident))?,
        proto: [$($codec:tt)*], summary: $summary:ident, doc: $doc:literal } )*) => {
        $( proto_element!($t, $($codec)*); )*
    };
}

macro_rules! proto_element {
    ($t:ty, repeated $($field:tt)*) => { repeated! { $t => $($field)*; } };
    ($t:ty, complex $field:ident = $tag:literal, $re:ty) => { complex! { $re => $field = $tag; } };
    ($t:ty, float8) => { float8!($t); };
    ($t:ty, custom) => {};
}

crate::for_each_dtype!(proto_elements);

/// `string_val`'s field number.
const STRING_TAG: u32 = 8;

impl ProtoElement for Bytes {
    fn field_len(proto: &TensorProto) -> usize {
        proto.string_val.len()
    }

    fn read_field(proto: &TensorProto, out: &mut [Self], _: &mut DecodeCtx) -> Result<usize> {
        for (o, s) in out.iter_mut().zip(&proto.string_val) {
            // Shares the proto's bytes (no copy).
            *o = s.clone();
        }
        Ok(out.len().min(proto.string_val.len()))
    }

    fn field_encoded_len(values: &[Self]) -> Option<u64> {
        let per_key = key_len(STRING_TAG) as u64;
        Some(
            values
                .iter()
                .map(|s| per_key + encoded_len_varint(s.len() as u64) as u64 + s.len() as u64)
                .sum(),
        )
    }

    fn write_field(values: &[Self], proto: &mut TensorProto) -> Result<()> {
        let mut f = try_vec(values.len())?;
        f.extend(values.iter().cloned());
        proto.string_val = f;
        Ok(())
    }

    fn truncate_field(proto: &mut TensorProto, n: usize) {
        proto.string_val.truncate(n);
    }

    fn put_field(values: &[Self], _: u64, out: &mut Vec<u8>) -> bool {
        // Unpacked: every string is a field of its own, empty ones included.
        for s in values {
            encode_key(STRING_TAG, WireType::LengthDelimited, out);
            encode_varint(s.len() as u64, out);
            out.extend_from_slice(s);
        }
        true
    }

    fn decode_content(content: &Bytes, shape: TensorShape, _: &mut DecodeCtx) -> Result<Tensor> {
        let ranges = decode_list(content, element_count(&shape)?)?;
        let mut values = try_vec(ranges.len())?;
        for r in ranges {
            values.push(sub_bytes(content, r)?);
        }
        Tensor::from_vec(shape, values)
    }

    fn encode_content(t: &Tensor, check: &dyn Fn(u64) -> Result<()>) -> Result<Bytes> {
        let values = t.as_slice::<Bytes>()?;
        let items = || values.iter().map(|b| &b[..]);
        check(encoded_list_len(items())?)?;
        Ok(Bytes::from(encode_list(items())?))
    }
}

/// `shape`'s element count as a `usize`.
pub(super) fn element_count(shape: &TensorShape) -> Result<usize> {
    usize::try_from(shape.num_elements()).map_err(|_| {
        Error::Overflow(crate::OverflowError::Size {
            what: "element count",
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The 8-byte-store writer gives prost's bytes at every length
    /// boundary, in a buffer with bytes already in it.
    #[test]
    fn put_varints_matches_prost() {
        let mut values = vec![0u64, 1, 127, 128, u64::MAX, u64::MAX - 1, (-1i64) as u64];
        for bits in 1..64 {
            values.extend([(1u64 << bits) - 1, 1u64 << bits, (1u64 << bits) + 1]);
        }
        let mut want = vec![0xAA];
        for &v in &values {
            encode_varint(v, &mut want);
        }
        let payload: u64 = values.iter().map(|&v| encoded_len_varint(v) as u64).sum();
        let mut got = vec![0xAA];
        got.reserve(payload as usize + VARINT_SLACK);
        let cap = got.capacity();
        put_varints(values.iter().copied(), payload, &mut got);
        assert_eq!(got, want);
        assert_eq!(got.capacity(), cap, "no reallocation");
    }
}
