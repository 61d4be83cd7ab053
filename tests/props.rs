//! Property tests over every dtype, ranks 0..=6, zero-size dims and random
//! element bits (NaN payloads, -0.0, non-UTF-8 strings, extreme integers).
//!
//! Each property runs `PROPTEST_CASES` cases (proptest's default, 256, when
//! unset). CI uses the default; for a longer soak:
//!
//! ```text
//! PROPTEST_CASES=20000 cargo test --release --test props
//! ```
//!
//! Failures are not persisted to a regressions file; a failure found here
//! becomes an explicit test at the bottom of this file instead.

use bytes::Bytes;
use ndarray::{Axis, Slice};
use proptest::prelude::*;
use proptest::sample::select;
use prost::Message;
use tftensor::{
    compress_tensor_proto_in_place, pb, DataType, Error, PartialTensorShape, ResourceHandle,
    Tensor, Variant,
};

// ----- dtype -> Rust element type, for typed ndarray views in the tests -----

macro_rules! with_type {
    ($dtype:expr, $T:ident => $body:expr) => {{
        use tftensor::*;
        match $dtype {
            DataType::Float => {
                type $T = f32;
                $body
            }
            DataType::Double => {
                type $T = f64;
                $body
            }
            DataType::Int32 => {
                type $T = i32;
                $body
            }
            DataType::UInt8 => {
                type $T = u8;
                $body
            }
            DataType::Int16 => {
                type $T = i16;
                $body
            }
            DataType::Int8 => {
                type $T = i8;
                $body
            }
            DataType::String => {
                type $T = bytes::Bytes;
                $body
            }
            DataType::Complex64 => {
                type $T = num_complex::Complex<f32>;
                $body
            }
            DataType::Int64 => {
                type $T = i64;
                $body
            }
            DataType::Bool => {
                type $T = bool;
                $body
            }
            DataType::QInt8 => {
                type $T = QInt8;
                $body
            }
            DataType::QUInt8 => {
                type $T = QUInt8;
                $body
            }
            DataType::QInt32 => {
                type $T = QInt32;
                $body
            }
            DataType::BFloat16 => {
                type $T = half::bf16;
                $body
            }
            DataType::QInt16 => {
                type $T = QInt16;
                $body
            }
            DataType::QUInt16 => {
                type $T = QUInt16;
                $body
            }
            DataType::UInt16 => {
                type $T = u16;
                $body
            }
            DataType::Complex128 => {
                type $T = num_complex::Complex<f64>;
                $body
            }
            DataType::Half => {
                type $T = half::f16;
                $body
            }
            DataType::Resource => {
                type $T = ResourceHandle;
                $body
            }
            DataType::Variant => {
                type $T = Variant;
                $body
            }
            DataType::UInt32 => {
                type $T = u32;
                $body
            }
            DataType::UInt64 => {
                type $T = u64;
                $body
            }
            DataType::Float8E5M2 => {
                type $T = Float8E5M2;
                $body
            }
            DataType::Float8E4M3FN => {
                type $T = Float8E4M3FN;
                $body
            }
            DataType::Float8E4M3FNUZ => {
                type $T = Float8E4M3FNUZ;
                $body
            }
            DataType::Float8E4M3B11FNUZ => {
                type $T = Float8E4M3B11FNUZ;
                $body
            }
            DataType::Float8E5M2FNUZ => {
                type $T = Float8E5M2FNUZ;
                $body
            }
            DataType::Int4 => {
                type $T = Int4;
                $body
            }
            DataType::UInt4 => {
                type $T = UInt4;
                $body
            }
            DataType::Int2 => {
                type $T = Int2;
                $body
            }
            DataType::UInt2 => {
                type $T = UInt2;
                $body
            }
            DataType::Float4E2M1FN => {
                type $T = Float4E2M1FN;
                $body
            }
            other => panic!("no element type for {other}"),
        }
    }};
}

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

fn any_tensor() -> BoxedStrategy<Tensor> {
    tensor_of_depth(2)
}

/// A tensor, or a slice of a larger one (so its data starts at an offset in
/// a shared buffer, and is often not 64-byte aligned).
fn any_tensor_maybe_sliced() -> BoxedStrategy<Tensor> {
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
fn ranked_tensor() -> impl Strategy<Value = Tensor> {
    any_tensor().prop_filter("needs rank >= 1", |t| t.dims() >= 1)
}

/// What ndarray's own slicing of the tensor's typed view gives, as a fresh
/// tensor.
fn ndarray_slice(t: &Tensor, start: usize, limit: usize) -> Tensor {
    with_type!(t.dtype(), T => {
        let v = t.view::<T>().unwrap();
        Tensor::from_array(v.slice_axis(Axis(0), Slice::from(start..limit)).to_owned()).unwrap()
    })
}

fn ndarray_index(t: &Tensor, i: usize) -> Tensor {
    with_type!(t.dtype(), T => {
        let v = t.view::<T>().unwrap();
        Tensor::from_array(v.index_axis(Axis(0), i).to_owned()).unwrap()
    })
}

/// Views the tensor as its own element type; for a bit-cast tensor this may
/// fail (misaligned, or a bool byte other than 0/1) but must not panic.
fn try_view(t: &Tensor) -> Result<usize, Error> {
    with_type!(t.dtype(), T => t.view::<T>().map(|v| v.len()))
}

/// Sets every element of `s` to one element of `filler`.
fn overwrite<T: tftensor::Element>(s: &mut Tensor, filler: &Tensor, seed: u8) {
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
fn compressible_tensor() -> impl Strategy<Value = Tensor> {
    any_tensor_maybe_sliced()
        .prop_flat_map(|t| {
            let n = t.num_elements() as usize;
            (Just(t), 0..=n)
        })
        .prop_map(|(t, k)| with_trailing_run(&t, k))
}

/// Encodes, decodes from bytes (zero-copy path) and from a parsed proto.
fn wire_round_trip(p: &pb::TensorProto) -> (Tensor, Tensor) {
    let wire = p.encode_to_vec();
    let a = Tensor::decode(Bytes::from(wire.clone())).unwrap();
    let b = Tensor::from_proto(&pb::TensorProto::decode(&wire[..]).unwrap()).unwrap();
    (a, b)
}

fn config() -> ProptestConfig {
    ProptestConfig {
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// `slice(a, b)` has ndarray's `slice_axis(0, a..b)` elements and shape,
    /// shares the buffer, and slicing a slice composes.
    #[test]
    fn slice_agrees_with_ndarray(
        (t, a, b, c, d) in ranked_tensor().prop_flat_map(|t| {
            let d0 = t.dim_size(0).unwrap();
            (Just(t), 0..=d0).prop_flat_map(move |(t, a)| (Just(t), Just(a), a..=d0))
                .prop_flat_map(|(t, a, b)| (Just(t), Just(a), Just(b), 0..=(b - a)))
                .prop_flat_map(|(t, a, b, c)| (Just(t), Just(a), Just(b), Just(c), c..=(b - a)))
        })
    ) {
        let s = t.slice(a, b).unwrap();
        let expected = ndarray_slice(&t, a as usize, b as usize);
        prop_assert_eq!(s.shape(), expected.shape());
        prop_assert_eq!(&s, &expected);
        if s.num_elements() > 0 {
            prop_assert!(s.shares_buffer_with(&t));
        }
        // A slice of a slice is the slice at the summed offsets.
        let ss = s.slice(c, d).unwrap();
        prop_assert_eq!(&ss, &t.slice(a + c, a + d).unwrap());
        prop_assert_eq!(&ss, &ndarray_slice(&t, (a + c) as usize, (a + d) as usize));
    }

    /// Out-of-range slices are `OutOfRange` errors, never panics.
    #[test]
    fn slice_out_of_range_is_an_error(t in any_tensor(), a in any::<i64>(), b in any::<i64>()) {
        match t.slice(a, b) {
            Ok(s) => {
                let d0 = t.dim_size(0).unwrap();
                prop_assert!(0 <= a && a <= b && b <= d0);
                prop_assert_eq!(s.num_elements(), (b - a) * t.num_elements() / d0.max(1));
            }
            Err(Error::OutOfRange(_)) => prop_assert!(t.dims() >= 1),
            Err(Error::InvalidArgument(_)) => prop_assert_eq!(t.dims(), 0),
            Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        }
    }

    /// `sub_slice(i)` has ndarray's `index_axis(0, i)` elements and shape,
    /// and equals the sub-slice of any slice that contains row `i`.
    #[test]
    fn sub_slice_agrees_with_ndarray(
        (t, i, a) in ranked_tensor().prop_flat_map(|t| {
            let d0 = t.dim_size(0).unwrap();
            (Just(t), 0..d0.max(1)).prop_flat_map(|(t, i)| (Just(t), Just(i), 0..=i))
        })
    ) {
        let d0 = t.dim_size(0).unwrap();
        let row = t.sub_slice(i).unwrap();
        let mut inner = t.shape().clone();
        inner.remove_dim(0).unwrap();
        prop_assert_eq!(row.shape(), &inner);
        if d0 == 0 {
            // TF: no buffer; with inner elements the result is uninitialized.
            prop_assert!(row.data_ptr().is_none());
            prop_assert_eq!(row.is_initialized(), row.num_elements() == 0);
        } else {
            prop_assert_eq!(&row, &ndarray_index(&t, i as usize));
            prop_assert_eq!(&row, &t.slice(a, d0).unwrap().sub_slice(i - a).unwrap());
            if row.num_elements() > 0 {
                prop_assert!(row.shares_buffer_with(&t));
            }
        }
    }

    /// Out-of-range sub-slices are errors, never panics.
    #[test]
    fn sub_slice_out_of_range_is_an_error(t in any_tensor(), i in any::<i64>()) {
        match t.sub_slice(i) {
            Ok(_) => prop_assert!(i >= 0 && i <= t.dim_size(0).unwrap()),
            Err(Error::OutOfRange(_)) => prop_assert!(t.dims() >= 1),
            Err(Error::InvalidArgument(_)) => prop_assert_eq!(t.dims(), 0),
            Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        }
    }

    /// Bit-casting a POD tensor to any POD dtype whose size divides its
    /// bytes and back is the identity, keeps the bytes, and shares the
    /// buffer; views of the intermediate never panic.
    #[test]
    fn bitcast_there_and_back_is_identity(
        t in any_tensor_maybe_sliced(),
        to in select(DataType::all().to_vec()),
        split in any::<prop::sample::Index>(),
    ) {
        let mut there = Tensor::default();
        let r = there.bitcast_from(&t, to, [1i64]);
        if !t.dtype().can_use_memcpy() || !to.can_use_memcpy() {
            prop_assert!(matches!(r, Err(Error::InvalidArgument(_))));
            prop_assert_eq!(&there, &Tensor::default());
            return Ok(());
        }
        let bytes = t.tensor_data().unwrap().len();
        if bytes % to.size() != 0 {
            return Ok(());
        }
        let n = (bytes / to.size()) as i64;
        // A 1-D or a 2-D shape, split at one of n's divisors.
        let divisors: Vec<i64> = (1..=n.max(1)).filter(|k| n % k == 0).collect();
        let k = divisors[split.index(divisors.len())];
        let shape: Vec<i64> = if n > 0 && k > 1 { vec![k, n / k] } else { vec![n] };
        there.bitcast_from(&t, to, &shape[..]).unwrap();
        prop_assert_eq!(there.dtype(), to);
        prop_assert_eq!(there.tensor_data().unwrap(), t.tensor_data().unwrap());
        if n > 0 {
            prop_assert!(there.shares_buffer_with(&t));
        }
        match try_view(&there) {
            Ok(len) => prop_assert_eq!(len as i64, n),
            Err(Error::Misaligned { .. } | Error::InvalidArgument(_)) => {}
            Err(e) => prop_assert!(false, "unexpected error {:?}", e),
        }
        let mut back = Tensor::default();
        back.bitcast_from(&there, t.dtype(), t.shape()).unwrap();
        prop_assert_eq!(&back, &t);
        // A size mismatch is an error and leaves the target unchanged.
        let mut untouched = there.clone();
        let err = untouched.bitcast_from(&t, to, [n + 1]);
        prop_assert!(matches!(err, Err(Error::InvalidArgument(_))));
        prop_assert_eq!(&untouched, &there);
    }

    /// Copy-on-write through a slice never changes the tensor it came from.
    #[test]
    fn writes_through_a_slice_copy(t in ranked_tensor(), seed in any::<u8>()) {
        let before = t.deep_copy().unwrap();
        let d0 = t.dim_size(0).unwrap();
        if d0 == 0 || t.num_elements() == 0 {
            return Ok(());
        }
        let mut s = t.slice(d0 / 2, d0).unwrap();
        let filler = t.sub_slice(0).unwrap();
        with_type!(t.dtype(), T => overwrite::<T>(&mut s, &filler, seed));
        prop_assert!(!s.shares_buffer_with(&t));
        prop_assert_eq!(&t, &before);
    }

    /// `as_proto_field` -> bytes -> `decode` (and -> parse -> `from_proto`)
    /// gives back the same tensor, bit for bit.
    #[test]
    fn as_proto_field_round_trips(t in any_tensor_maybe_sliced()) {
        let p = t.as_proto_field().unwrap();
        prop_assert!(p.tensor_content.is_empty());
        let (a, b) = wire_round_trip(&p);
        prop_assert_eq!(&a, &t);
        prop_assert_eq!(&b, &t);
    }

    /// `encode_proto_field` (straight from the elements) writes exactly the
    /// bytes prost writes for `as_proto_field`, also when the elements sit
    /// at an odd address (a byte tensor sliced and bitcast); both AsProto
    /// forms read such tensors.
    #[test]
    fn encode_proto_field_matches_prost(t in any_tensor_maybe_sliced(), pad in 0usize..8) {
        let want = t.as_proto_field().unwrap().encode_to_vec();
        prop_assert_eq!(&t.encode_proto_field().unwrap(), &want);
        let mut buf = vec![7u8; 3];
        t.encode_proto_field_to(&mut buf).unwrap();
        prop_assert_eq!(&buf[3..], &want[..]);
        if t.dtype().can_use_memcpy() {
            let raw = t.tensor_data().unwrap();
            let mut bytes = vec![0u8; pad];
            bytes.extend_from_slice(raw);
            let n = bytes.len() as i64;
            let u8s = Tensor::from_vec([n], bytes).unwrap().slice(pad as i64, n).unwrap();
            let mut odd = Tensor::default();
            odd.bitcast_from(&u8s, t.dtype(), t.shape().clone()).unwrap();
            prop_assert_eq!(&odd.encode_proto_field().unwrap(), &want);
            prop_assert_eq!(odd.as_proto_field().unwrap().encode_to_vec(), want);
            prop_assert_eq!(
                odd.as_proto_tensor_content().unwrap().encode_to_vec(),
                t.as_proto_tensor_content().unwrap().encode_to_vec()
            );
        }
    }

    /// The same through `as_proto_tensor_content`; POD content decoded from
    /// bytes stays zero-copy, and re-encoding gives the same bytes.
    #[test]
    fn as_proto_tensor_content_round_trips(t in any_tensor_maybe_sliced()) {
        let p = t.as_proto_tensor_content().unwrap();
        let (a, b) = wire_round_trip(&p);
        prop_assert_eq!(&a, &t);
        prop_assert_eq!(&b, &t);
        prop_assert_eq!(a.as_proto_tensor_content().unwrap().encode_to_vec(), p.encode_to_vec());
        // The field and content forms of one tensor decode to the same tensor.
        let (c, _) = wire_round_trip(&t.as_proto_field().unwrap());
        prop_assert_eq!(&c, &a);
    }

    /// `compress_tensor_proto_in_place` never changes what the proto
    /// decodes to, for either starting form and any parameters; when it
    /// reports no change, the proto is untouched.
    #[test]
    fn compress_preserves_the_value(
        t in compressible_tensor(),
        content in any::<bool>(),
        min_num_elements in prop_oneof![Just(0i64), 0i64..300, Just(i64::MAX), Just(-1)],
        ratio in prop_oneof![Just(2.0f32), Just(1.0), Just(0.5), Just(4.0), Just(0.0), Just(-1.0), Just(f32::NAN), Just(f32::INFINITY)],
    ) {
        let original = if content { t.as_proto_tensor_content() } else { t.as_proto_field() }.unwrap();
        let mut p = original.clone();
        let changed = compress_tensor_proto_in_place(&mut p, min_num_elements, ratio);
        // (When it does change, the proto may even grow: TF's size estimate
        // counts sizeof(field element), not varint or key lengths.)
        if !changed {
            prop_assert_eq!(p.encode_to_vec(), original.encode_to_vec());
        }
        let (a, b) = wire_round_trip(&p);
        prop_assert_eq!(&a, &t);
        prop_assert_eq!(&b, &t);
        // Compressing again is harmless.
        let mut q = p.clone();
        compress_tensor_proto_in_place(&mut q, min_num_elements, ratio);
        prop_assert_eq!(&wire_round_trip(&q).0, &t);
    }

    /// `summarize_value` never panics, for any `max_entries` (negative,
    /// zero, huge) and both print styles, and is deterministic.
    #[test]
    fn summarize_value_never_panics(
        t in any_tensor_maybe_sliced(),
        max_entries in prop_oneof![any::<i64>(), -2i64..300],
        print_v2 in any::<bool>(),
    ) {
        let a = t.summarize_value_bytes(max_entries, print_v2);
        let b = t.summarize_value_bytes(max_entries, print_v2);
        prop_assert_eq!(&a, &b);
        let _ = t.summarize_value(max_entries, print_v2);
        let _ = format!("{t:?}");
    }
}
