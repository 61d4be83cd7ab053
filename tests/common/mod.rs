//! Shared by the integration tests: a sample value per element type, and
//! macros that run a generic check over every element type.
#![allow(dead_code, unused_macros)]

use tftensor::bytes::Bytes;
use tftensor::half::{bf16, f16};
use tftensor::num_complex::Complex;
use tftensor::{
    Element, Float4E2M1FN, Float8E4M3B11FNUZ, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2,
    Float8E5M2FNUZ, Int2, Int4, QInt8, QInt16, QInt32, QUInt8, QUInt16, ResourceHandle, Tensor,
    TrackingAllocator, UInt2, UInt4, Variant,
};

/// An element type with a deterministic value per index: `sample(i)` and
/// `sample(i + 1)` always differ, and values within 16 indices are all
/// distinct (Int4, UInt4 and Float4E2M1FN have only 16 values, Int2 and
/// UInt2 only 4: within 4 indices).
pub trait Sample: Element + PartialEq {
    fn sample(i: usize) -> Self;
}

macro_rules! sample {
    ($($t:ty => |$i:ident| $e:expr;)*) => {$(
        impl Sample for $t {
            fn sample($i: usize) -> Self {
                $e
            }
        }
    )*};
}

sample! {
    f32 => |i| i as f32 * 0.5 + 1.0;
    f64 => |i| i as f64 * 0.25 - 3.0;
    i8 => |i| (i % 251) as u8 as i8;
    i16 => |i| i as i16 - 100;
    i32 => |i| i as i32 * 3 - 7;
    i64 => |i| ((i as i64) << 33) | 5;
    u8 => |i| (i % 251) as u8;
    u16 => |i| i as u16 * 7;
    u32 => |i| i as u32 * 1000 + 1;
    u64 => |i| ((i as u64) << 40) | 3;
    bool => |i| i % 2 == 1;
    Complex<f32> => |i| Complex::new(i as f32, -(i as f32) - 0.5);
    Complex<f64> => |i| Complex::new(i as f64 + 0.25, i as f64);
    f16 => |i| f16::from_f32((i % 1000) as f32 - 3.0);
    bf16 => |i| bf16::from_f32((i % 200) as f32 - 7.0);
    QInt8 => |i| QInt8((i % 251) as u8 as i8);
    QUInt8 => |i| QUInt8((i % 251) as u8);
    QInt16 => |i| QInt16(i as i16 - 300);
    QUInt16 => |i| QUInt16(i as u16 + 9);
    QInt32 => |i| QInt32(i as i32 - 1_000_000);
    // Bit patterns 1..=100 are finite, non-zero and distinct in all five.
    Float8E5M2 => |i| Float8E5M2::from_bits((i % 100) as u8 + 1);
    Float8E4M3FN => |i| Float8E4M3FN::from_bits((i % 100) as u8 + 1);
    Float8E4M3FNUZ => |i| Float8E4M3FNUZ::from_bits((i % 100) as u8 + 1);
    Float8E4M3B11FNUZ => |i| Float8E4M3B11FNUZ::from_bits((i % 100) as u8 + 1);
    Float8E5M2FNUZ => |i| Float8E5M2FNUZ::from_bits((i % 100) as u8 + 1);
    Int4 => |i| Int4::new((i % 16) as i8 - 8).unwrap();
    UInt4 => |i| UInt4::new((i % 16) as u8).unwrap();
    Int2 => |i| Int2::new((i % 4) as i8 - 2).unwrap();
    UInt2 => |i| UInt2::new((i % 4) as u8).unwrap();
    // Codes 1..=15 skip +0, so neighbours never compare equal (+0 == -0).
    Float4E2M1FN => |i| Float4E2M1FN::from_bits((i % 15) as u8 + 1);
    Bytes => |i| Bytes::from(format!("s{i}"));
    ResourceHandle => |i| ResourceHandle { name: format!("h{i}"), hash_code: i as u64, ..Default::default() };
    Variant => |i| Variant::from_tensor(Tensor::from(i as i32));
}

/// `n` samples starting at index `from`.
pub fn samples<T: Sample>(from: usize, n: usize) -> Vec<T> {
    (from..from + n).map(T::sample).collect()
}

/// A tensor of `shape` holding `samples(0, n)`, in a fresh aligned buffer.
pub fn sample_tensor<T: Sample>(shape: &[i64]) -> Tensor {
    let n = shape.iter().product::<i64>() as usize;
    Tensor::from_slice(shape, &samples::<T>(0, n)).unwrap()
}

/// Runs `f` and returns its result with the bytes this thread allocated
/// meanwhile (through the test binary's global `TrackingAllocator`, if it
/// installs one; 0 otherwise).
pub fn allocated_by<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = TrackingAllocator::thread_allocated_bytes();
    let r = f();
    (r, TrackingAllocator::thread_allocated_bytes() - before)
}

/// The address of element `i` of `t` (for pointer-identity checks).
pub fn elem_ptr<T>(t: &Tensor, i: usize) -> *const u8 {
    t.data_ptr()
        .unwrap()
        .wrapping_add(i * std::mem::size_of::<T>())
}

/// Invokes `$m!(module_name, Type)` for every element type, from the
/// crate's dtype row list (the module is named after the dtype constant).
macro_rules! for_each_element {
    ($m:ident) => {
        tftensor::for_each_dtype!(element_rows, $m, all);
    };
}

/// Invokes `$m!(module_name, Type)` for every POD element type.
macro_rules! for_each_pod {
    ($m:ident) => {
        tftensor::for_each_dtype!(element_rows, $m, pod);
    };
}

macro_rules! element_rows {
    (($m:ident, $which:ident) $( $konst:ident = $num:literal { name: $name:literal,
        proto_name: $proto:literal, size: $size:literal, kind: $kind:ident, rust: $t:ty,
        store: $store:ident $(($home:ident))?, proto: $codec:tt, summary: $summary:ident,
        doc: $doc:literal } )*) => {
        $( element_row!($which, $store, $m, $konst, $t); )*
    };
}

macro_rules! element_row {
    (pod, typed, $($row:tt)*) => {};
    ($which:ident, $store:ident, $m:ident, $konst:ident, $t:ty) => {
        $m!($konst, $t);
    };
}

/// A `TensorShapeProto` with exactly these dims, negative ones included
/// (so tests can build shapes `TensorShape` would refuse).
pub fn shape(d: &[i64]) -> Option<tftensor::pb::TensorShapeProto> {
    use tftensor::pb::tensor_shape_proto::Dim;
    Some(tftensor::pb::TensorShapeProto {
        dim: d
            .iter()
            .map(|&size| Dim {
                size,
                name: String::new(),
            })
            .collect(),
        unknown_rank: false,
    })
}

/// [`allocated_by`] with the byte count first.
pub fn allocated<R>(f: impl FnOnce() -> R) -> (usize, R) {
    let (r, bytes) = allocated_by(f);
    (bytes, r)
}

/// TF's `Tensor_String.Simple` tensor: six words in a `[3, 2]` string tensor.
/// `payload` seen as a `dtype` tensor of `dims` one byte past a 64-byte
/// boundary (TF's case: a uint8 tensor sliced at an odd offset, then
/// bit-cast), so any element wider than a byte is misaligned. Only the
/// returned tensor holds the buffer.
pub fn at_odd_address(payload: &[u8], dtype: tftensor::DataType, dims: &[i64]) -> Tensor {
    let mut raw = vec![0u8];
    raw.extend_from_slice(payload);
    let bytes = Tensor::from_slice([raw.len() as i64], &raw).unwrap();
    let mut t = Tensor::default();
    t.bitcast_from(&bytes.slice(1, raw.len() as i64).unwrap(), dtype, dims)
        .unwrap();
    assert_eq!(t.data_ptr().unwrap() as usize % 64, 1);
    t
}

pub fn string_simple() -> Tensor {
    let words = ["hello", "world", "machine", "learning", "new", "york"];
    Tensor::from_vec(
        [3, 2],
        words
            .iter()
            .map(|w| Bytes::from_static(w.as_bytes()))
            .collect(),
    )
    .unwrap()
}

/// Whether exhaustive never-panics sweeps run whole: with
/// `TFTENSOR_FULL_SWEEPS=1` (as `.ci/run` sets it); otherwise they take a
/// fixed sample, so a plain `cargo test` stays quick.
pub fn full_sweeps() -> bool {
    std::env::var_os("TFTENSOR_FULL_SWEEPS").is_some_and(|v| v != "0")
}

/// The stride of a sweep that visits every `full`-th case when sweeps run
/// whole, and every `sampled`-th (a larger stride, prime to vary the
/// positions it hits) otherwise.
pub fn sweep_stride(full: usize, sampled: usize) -> usize {
    if full_sweeps() { full } else { sampled }
}
