//! Property tests over every dtype, ranks 0..=6, zero-size dims and random
//! element bits (NaN payloads, -0.0, non-UTF-8 strings, extreme integers):
//! the strategies and helpers the `props` modules of the feature tests share.
//!
//! Each property runs `PROPTEST_CASES` cases (proptest's default, 256, when
//! unset). CI uses the default; for a longer soak:
//!
//! ```text
//! PROPTEST_CASES=20000 cargo test --release --test tensor_type --test formats props
//! ```
//!
//! Failures are not persisted to a regressions file; a failure found here
//! becomes an explicit test in that feature's file instead.
#![allow(dead_code)]

use bytes::Bytes;
use ndarray::{Axis, Slice};
use proptest::prelude::*;
use proptest::sample::select;
use prost::Message;
use tftensor::{DataType, Error, PartialTensorShape, ResourceHandle, Tensor, Variant, pb};

// ----- dtype -> Rust element type, for typed ndarray views in the tests -----

macro_rules! with_type {
    ($dtype:expr, $T:ident => $body:expr) => {
        tftensor::dispatch_dtype!($dtype, $T => $body, _ => panic!("no element type for {}", $dtype))
    };
}

#[allow(unused_imports)]
pub(crate) use with_type;

// ----- strategies -----

/// Up to 6 dims of 0..=4 (zero a sixth of the time), at most 256 elements.
fn dims() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(prop_oneof![1 => Just(0i64), 5 => 1i64..=4], 0..=6)
        .prop_filter("at most 256 elements", |d| d.iter().product::<i64>() <= 256)
}

/// Bit patterns worth hitting often, by component width: -0.0, quiet and
/// signalling NaNs with payloads, infinities, MIN/MAX, 1.
fn specials(width: usize) -> Vec<u64> {
    match width {
        1 => vec![0, 0x80, 0xff, 0x7f, 0x01, 0x7c, 0xfc],
        2 => vec![
            0, 0x8000, 0x7c01, 0x7f81, 0xffff, 0x7fff, 0x7e00, 0x7c00, 0x0001,
        ],
        4 => vec![
            0,
            0x8000_0000,
            0x7f80_0001,
            0x7fc0_0000,
            0xffc0_1234,
            0xffff_ffff,
            0x7fff_ffff,
            0x7f80_0000,
            1,
        ],
        _ => vec![
            0,
            1 << 63,
            0x7ff0_0000_0000_0001,
            0x7ff8_0000_0000_0000,
            0xfff8_dead_beef_0001,
            u64::MAX,
            i64::MAX as u64,
            1,
        ],
    }
}

/// One component (a real number, or half of a complex one) of `width`
/// bytes, little-endian.
fn component(width: usize) -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![3 => any::<u64>(), 1 => select(specials(width))]
        .prop_map(move |v| v.to_le_bytes()[..width].to_vec())
}

/// The bytes of `n` elements of POD `dtype`, in the canonical form the
/// in-memory representation has after a proto round trip: bool 0/1, int4
/// sign-extended, uint4 zero-extended (TF keeps the byte it narrows from
/// `int_val`).
fn pod_bytes(dtype: DataType, n: usize) -> impl Strategy<Value = Vec<u8>> {
    let parts = if dtype.is_complex() { 2 } else { 1 };
    let width = dtype.size() / parts;
    prop::collection::vec(component(width), n * parts).prop_map(move |cs| {
        let mut bytes: Vec<u8> = cs.concat();
        for b in &mut bytes {
            *b = match dtype {
                DataType::Bool => *b & 1,
                DataType::Int4 => (((*b << 4) as i8) >> 4) as u8,
                DataType::UInt4 => *b & 0x0f,
                DataType::Int2 => (((*b << 6) as i8) >> 6) as u8,
                DataType::UInt2 => *b & 0x03,
                _ => *b,
            };
        }
        bytes
    })
}

/// Byte strings: mostly short, some longer than 127 bytes (two-byte varint
/// lengths); arbitrary bytes, so usually not UTF-8.
fn byte_string() -> impl Strategy<Value = Bytes> {
    prop_oneof![
        4 => prop::collection::vec(any::<u8>(), 0..8),
        1 => prop::collection::vec(any::<u8>(), 120..300),
    ]
    .prop_map(Bytes::from)
}

fn partial_shape() -> impl Strategy<Value = PartialTensorShape> {
    prop_oneof![
        1 => Just(PartialTensorShape::unknown()),
        3 => prop::collection::vec(-1i64..4, 0..3).prop_map(|d| PartialTensorShape::new(&d).unwrap()),
    ]
}

fn resource_handle() -> impl Strategy<Value = ResourceHandle> {
    (
        ".{0,6}",
        ".{0,6}",
        ".{0,6}",
        any::<u64>(),
        ".{0,6}",
        prop::collection::vec((select(DataType::all().to_vec()), partial_shape()), 0..3),
    )
        .prop_map(
            |(device, container, name, hash_code, maybe_type_name, dtypes_and_shapes)| {
                ResourceHandle {
                    device,
                    container,
                    name,
                    hash_code,
                    maybe_type_name,
                    dtypes_and_shapes,
                }
            },
        )
}

/// Variants TF can decode: the empty one, and "tensorflow::Tensor" wrapping
/// one tensor (which may itself be a variant tensor, up to `depth`).
fn variant(depth: u32) -> BoxedStrategy<Variant> {
    if depth == 0 {
        return Just(Variant::default()).boxed();
    }
    prop_oneof![
        1 => Just(Variant::default()),
        3 => tensor_of_depth(depth - 1).prop_map(Variant::from_tensor),
    ]
    .boxed()
}

fn build(dtype: DataType, dims: &[i64], values: Values) -> Tensor {
    let t = match values {
        Values::Pod(b) => Tensor::from_buffer(dtype, dims, Bytes::from(b)),
        Values::Strings(v) => Tensor::from_vec(dims, v),
        Values::Resources(v) => Tensor::from_vec(dims, v),
        Values::Variants(v) => Tensor::from_vec(dims, v),
    };
    let t = t.unwrap();
    assert_eq!(t.dtype(), dtype);
    t
}

#[derive(Debug, Clone)]
enum Values {
    Pod(Vec<u8>),
    Strings(Vec<Bytes>),
    Resources(Vec<ResourceHandle>),
    Variants(Vec<Variant>),
}

fn values(dtype: DataType, n: usize, depth: u32) -> BoxedStrategy<Values> {
    match dtype {
        DataType::String => prop::collection::vec(byte_string(), n)
            .prop_map(Values::Strings)
            .boxed(),
        DataType::Resource => prop::collection::vec(resource_handle(), n)
            .prop_map(Values::Resources)
            .boxed(),
        DataType::Variant => prop::collection::vec(variant(depth), n)
            .prop_map(Values::Variants)
            .boxed(),
        _ => pod_bytes(dtype, n).prop_map(Values::Pod).boxed(),
    }
}

/// A tensor of any dtype; variants nest up to `depth` levels, and nested
/// tensors are smaller.
fn tensor_of_depth(depth: u32) -> BoxedStrategy<Tensor> {
    let dims = if depth >= 1 {
        dims().boxed()
    } else {
        prop::collection::vec(0i64..=3, 0..=2).boxed()
    };
    (select(DataType::all().to_vec()), dims)
        .prop_flat_map(move |(dtype, dims)| {
            let n = dims.iter().product::<i64>() as usize;
            values(dtype, n, depth).prop_map(move |v| build(dtype, &dims, v))
        })
        .boxed()
}

pub fn any_tensor() -> BoxedStrategy<Tensor> {
    tensor_of_depth(2)
}

/// A tensor, or a slice of a larger one (so its data starts at an offset in
/// a shared buffer, and is often not 64-byte aligned).
pub fn any_tensor_maybe_sliced() -> BoxedStrategy<Tensor> {
    prop_oneof![
        2 => any_tensor(),
        1 => any_tensor()
            .prop_filter("needs rank >= 1", |t| t.dims() >= 1)
            .prop_flat_map(|t| {
                let d0 = t.dim_size(0).unwrap();
                (Just(t), 0..=d0).prop_flat_map(move |(t, a)| (Just(t), Just(a), a..=d0))
            })
            .prop_map(|(t, a, b)| t.slice(a, b).unwrap()),
    ]
    .boxed()
}

/// A rank >= 1 tensor.
pub fn ranked_tensor() -> impl Strategy<Value = Tensor> {
    any_tensor().prop_filter("needs rank >= 1", |t| t.dims() >= 1)
}

/// What ndarray's own slicing of the tensor's typed view gives, as a fresh
/// tensor.
pub fn ndarray_slice(t: &Tensor, start: usize, limit: usize) -> Tensor {
    with_type!(t.dtype(), T => {
        let v = t.tensor::<T, tftensor::ndarray::IxDyn>().unwrap();
        Tensor::from_array(v.slice_axis(Axis(0), Slice::from(start..limit)).to_owned()).unwrap()
    })
}

pub fn ndarray_index(t: &Tensor, i: usize) -> Tensor {
    with_type!(t.dtype(), T => {
        let v = t.tensor::<T, tftensor::ndarray::IxDyn>().unwrap();
        Tensor::from_array(v.index_axis(Axis(0), i).to_owned()).unwrap()
    })
}

/// Views the tensor as its own element type; for a bit-cast tensor this may
/// fail (misaligned, or a bool byte other than 0/1) but must not panic.
pub fn try_view(t: &Tensor) -> Result<usize, Error> {
    with_type!(t.dtype(), T => t.tensor::<T, tftensor::ndarray::IxDyn>().map(|v| v.len()))
}

/// Sets every element of `s` to one element of `filler`.
pub fn overwrite<T: tftensor::Element>(s: &mut Tensor, filler: &Tensor, seed: u8) {
    let src = filler.as_slice::<T>().unwrap();
    let fill = src[usize::from(seed) % src.len()].clone();
    for x in s.as_mut_slice::<T>().unwrap() {
        *x = fill.clone();
    }
}

/// `t` with every element from index `k` on replaced by element `k - 1`
/// (by the default element when `k == 0`): trailing runs that compression
/// can cut.
fn with_trailing_run(t: &Tensor, k: usize) -> Tensor {
    with_type!(t.dtype(), T => trailing_run::<T>(t, k))
}

fn trailing_run<T: tftensor::Element>(t: &Tensor, k: usize) -> Tensor {
    let mut v = t.as_slice::<T>().unwrap().to_vec();
    let fill = k.checked_sub(1).map_or_else(T::default, |i| v[i].clone());
    for x in v.iter_mut().skip(k) {
        *x = fill.clone();
    }
    Tensor::from_vec(t.shape(), v).unwrap()
}

/// A tensor whose values often end in a run of one repeated value.
pub fn compressible_tensor() -> impl Strategy<Value = Tensor> {
    any_tensor_maybe_sliced()
        .prop_flat_map(|t| {
            let n = t.num_elements() as usize;
            (Just(t), 0..=n)
        })
        .prop_map(|(t, k)| with_trailing_run(&t, k))
}

/// Encodes, decodes from bytes (zero-copy path) and from a parsed proto.
pub fn wire_round_trip(p: &pb::TensorProto) -> (Tensor, Tensor) {
    let wire = p.encode_to_vec();
    let a = Tensor::decode(Bytes::from(wire.clone())).unwrap();
    let b = Tensor::from_proto(&pb::TensorProto::decode(&wire[..]).unwrap()).unwrap();
    (a, b)
}

pub fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}
