//! A port of TensorFlow's `tensorflow/core/framework/tensor_test.cc` (the
//! tests that need no protos), with TF's test names in the
//! function names. Each test asserts exact dims and exact values.
//!
//! Deliberate differences, each noted where it shows:
//! - TF fills a tensor by writing through a temporary `Slice`/`SubSlice`;
//!   here a write through a slice never reaches the source (copy-on-write),
//!   so the fills go through a view of the source instead.
//! - TF's death tests (`EXPECT_DEATH`) become `Err` with TF's text.
//! - Moves cannot leave a usable moved-from value in Rust, so TestCopies'
//!   move cases reduce to "the destination is equal and initialized".

use std::f32::consts::PI as PI32;
use std::f64::consts::PI as PI64;
use std::fmt::Debug;
use std::sync::Arc;

use tftensor::bytes::Bytes;
use tftensor::half::{bf16, f16};
use tftensor::ndarray::{ArrayView, Dimension, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn, s};
use tftensor::num_complex::{Complex, Complex32, Complex64};
use tftensor::{
    Allocator, DataType, Element, Error, Float8E4M3FN, Float8E5M2, QInt8, QInt16, QInt32, QUInt8,
    QUInt16, ResourceHandle, Tensor, TensorShape, TrackingAllocator, Variant,
};

// ---------------------------------------------------------------------------
// Helpers: TF's ExpectEqual and TestCopies.

/// TF's `ExpectEqual<T>`: same dtype, same shape, equal elements.
fn expect_equal<T: Element + PartialEq>(x: &Tensor, y: &Tensor) {
    assert_eq!(x.dtype(), y.dtype());
    assert_eq!(x.shape(), y.shape());
    assert_eq!(x.flat::<T>().unwrap(), y.flat::<T>().unwrap());
    assert_eq!(x, y);
}

/// TF's `TestCopies<T>` without the proto round trips (d, e).
fn test_copies<T: Element + PartialEq>(t: &Tensor) {
    // (a) CopyFrom.
    let mut t2 = Tensor::from_dtype(t.dtype());
    assert!(t2.copy_from(t, t.shape()));
    expect_equal::<T>(t, &t2);
    assert!(t2.shares_buffer_with(t) || t.num_elements() == 0);
    // (b) operator=.
    let mut t2 = Tensor::from_dtype(t.dtype());
    assert_eq!(t2.num_elements(), 0);
    t2 = t.clone();
    expect_equal::<T>(t, &t2);
    // (c) A fresh tensor, then an element-wise copy.
    let mut t2 = Tensor::new(t.dtype(), t.shape()).unwrap();
    t2.flat_mut::<T>().unwrap().assign(&t.flat::<T>().unwrap());
    expect_equal::<T>(t, &t2);
    assert!(!t2.shares_buffer_with(t));
    // tensor::DeepCopy.
    expect_equal::<T>(t, &t.deep_copy().unwrap());
    // (f) AsTensor: from the flat values and the shape.
    let values = t.flat::<T>().unwrap().to_vec();
    let t2 = Tensor::from_vec(t.shape(), values.clone()).unwrap();
    expect_equal::<T>(t, &t2);
    let t2 = Tensor::from_slice(t.shape(), &values).unwrap();
    expect_equal::<T>(t, &t2);
    // (g, h, i) Moves: the destination is equal and initialized.
    let t2 = t.clone();
    let t3 = t2;
    expect_equal::<T>(t, &t3);
    assert!(t3.is_initialized());
}

// ---------------------------------------------------------------------------

#[test]
fn tensor_test_default() {
    let t = Tensor::default();
    assert_eq!(t.dtype(), DataType::Float);
    assert_eq!(t.dims(), 1);
    assert_eq!(t.num_elements(), 0);
    assert_eq!(t.shape().dim_sizes(), vec![0]);
    assert!(t.is_initialized());
    assert!(t.data_ptr().is_none());
}

#[test]
fn tensor_test_data_type_traits() {
    assert_eq!(std::mem::size_of::<bool>(), 1);
    assert_eq!(DataType::Bool.size(), 1);
    assert_eq!(std::mem::size_of::<Complex32>(), DataType::Complex64.size());
    assert_eq!(
        std::mem::size_of::<Complex64>(),
        DataType::Complex128.size()
    );
    assert!(DataType::Float.can_use_memcpy());
    assert!(!DataType::String.can_use_memcpy());
}

/// The per-dtype `Simple` tests: fill `matrix<T>()(a, b)` with a value of
/// `a * b`, check every element, then TestCopies.
macro_rules! simple {
    ($name:ident, $t:ty, $dt:ident, [$r:expr, $c:expr], |$a:ident, $b:ident| $v:expr) => {
        #[test]
        fn $name() {
            let mut t = Tensor::new(DataType::$dt, [$r, $c]).unwrap();
            assert!(
                t.shape()
                    .is_same_size(&TensorShape::new(&[$r, $c]).unwrap())
            );
            let value = |$a: i64, $b: i64| -> $t { $v };
            for a in 0..$r {
                for b in 0..$c {
                    t.matrix_mut::<$t>().unwrap()[[a as usize, b as usize]] = value(a, b);
                }
            }
            let m = t.matrix::<$t>().unwrap();
            assert_eq!(m.dim(), ($r, $c));
            for a in 0..$r {
                for b in 0..$c {
                    assert!(m[[a as usize, b as usize]] == value(a, b), "({a}, {b})");
                }
            }
            test_copies::<$t>(&t);
        }
    };
}

simple!(tensor_half_simple, f16, Half, [5, 7], |a, b| f16::from_f32(
    (a * b) as f32
));
simple!(tensor_bfloat16_simple, bf16, BFloat16, [5, 7], |a, b| {
    bf16::from_f32((a * b) as f32)
});
simple!(
    tensor_float8_e5m2_simple,
    Float8E5M2,
    Float8E5M2,
    [5, 7],
    |a, b| Float8E5M2::from_f32((a * b) as f32)
);
simple!(
    tensor_float8_e4m3fn_simple,
    Float8E4M3FN,
    Float8E4M3FN,
    [5, 7],
    |a, b| Float8E4M3FN::from_f32((a * b) as f32)
);
simple!(tensor_float_simple, f32, Float, [10, 20], |a, b| (a * b)
    as f32);
simple!(tensor_double_simple, f64, Double, [10, 20], |a, b| (a * b)
    as f64);
simple!(tensor_int8_simple, i8, Int8, [10, 20], |a, b| (a * b) as i8);
simple!(tensor_int16_simple, i16, Int16, [10, 20], |a, b| (a * b)
    as i16);
simple!(tensor_int32_simple, i32, Int32, [10, 20], |a, b| (a * b)
    as i32);
simple!(tensor_int64_simple, i64, Int64, [10, 20], |a, b| a * b);
simple!(tensor_uint64_simple, u64, UInt64, [10, 20], |a, b| (a * b)
    as u64);
simple!(tensor_bool_simple, bool, Bool, [2, 2], |_a, _b| true);
simple!(tensor_uint8_simple, u8, UInt8, [2, 2], |a, b| (a * b) as u8);
simple!(tensor_uint16_simple, u16, UInt16, [2, 2], |a, b| (a * b)
    as u16);
simple!(tensor_uint32_simple, u32, UInt32, [2, 2], |a, b| (a * b)
    as u32);
simple!(tensor_qint8_simple, QInt8, QInt8, [2, 2], |a, b| QInt8(
    (a * b) as i8
));
simple!(tensor_quint8_simple, QUInt8, QUInt8, [2, 2], |a, b| QUInt8(
    (a * b) as u8
));
simple!(tensor_qint16_simple, QInt16, QInt16, [2, 2], |a, b| QInt16(
    (a * b) as i16
));
simple!(tensor_quint16_simple, QUInt16, QUInt16, [2, 2], |a, b| {
    QUInt16((a * b) as u16)
});
simple!(tensor_qint32_simple, QInt32, QInt32, [2, 2], |a, b| QInt32(
    (a * b) as i32
));

#[test]
fn tensor_float8_simple_rounds_like_tf() {
    // static_cast<float8>(a * b) rounds to nearest even: 18 and 28 are not
    // representable with e5m2's two mantissa bits; e4m3fn has three.
    let t = {
        let mut t = Tensor::new(DataType::Float8E5M2, [5, 7]).unwrap();
        t.matrix_mut::<Float8E5M2>()
            .unwrap()
            .indexed_iter_mut()
            .for_each(|((a, b), v)| {
                *v = Float8E5M2::from_f32((a * b) as f32);
            });
        t
    };
    let m = t.matrix::<Float8E5M2>().unwrap();
    assert_eq!(m[[4, 6]].to_f32(), 24.0);
    assert_eq!(m[[3, 6]].to_f32(), 16.0);
    assert_eq!(m[[4, 5]].to_f32(), 20.0);
    assert_eq!(Float8E4M3FN::from_f32(18.0).to_f32(), 18.0);
}

#[test]
fn tensor_resource_handle_simple() {
    let mut t = Tensor::new(DataType::Resource, TensorShape::scalar()).unwrap();
    let tmp = ResourceHandle {
        name: "a".into(),
        ..Default::default()
    };
    t.flat_mut::<ResourceHandle>().unwrap()[0] = tmp.clone();
    assert_eq!(t.scalar::<ResourceHandle>().unwrap()[()], tmp);
    test_copies::<ResourceHandle>(&t);
}

#[test]
fn tensor_variant_simple() {
    let mut t = Tensor::new(DataType::Variant, TensorShape::scalar()).unwrap();
    let mut value = Tensor::new(DataType::Float, TensorShape::scalar()).unwrap();
    value.flat_mut::<f32>().unwrap()[0] = 42.0;
    t.flat_mut::<Variant>().unwrap()[0] = Variant::from_tensor(value);
    let inner = t.scalar::<Variant>().unwrap()[()]
        .as_tensor()
        .unwrap()
        .clone();
    assert_eq!(inner.scalar::<f32>().unwrap()[()], 42.0);
    // All of TestCopies but the (de)serialization, as in TF.
    test_copies::<Variant>(&t);
}

#[test]
fn tensor_string_simple() {
    let words = ["hello", "world", "machine", "learning", "new", "york"];
    let t = Tensor::from_vec([3, 2], words.iter().map(|w| Bytes::from(*w)).collect()).unwrap();
    let s = t.shape();
    assert_eq!(s.dims(), 2);
    assert_eq!(s.dim_size(0).unwrap(), 3);
    assert_eq!(s.dim_size(1).unwrap(), 2);
    let m = t.matrix::<Bytes>().unwrap();
    assert_eq!(t.total_bytes(), 3 * 2 * 24 + 5 + 5 + 7 + 8 + 3 + 4);
    assert_eq!(m[[0, 0]], "hello");
    assert_eq!(m[[0, 1]], "world");
    assert_eq!(m[[1, 0]], "machine");
    assert_eq!(m[[1, 1]], "learning");
    assert_eq!(m[[2, 0]], "new");
    assert_eq!(m[[2, 1]], "york");
    test_copies::<Bytes>(&t);
}

// ---------------------------------------------------------------------------
// TensorReshapeTest: t is float [2,3,4,5] with first element 0.01 and last
// 0.02; zero_t is float [3,0,2,0,5].

fn reshape_fixture() -> (Tensor, Tensor) {
    let mut t = Tensor::new(DataType::Float, [2, 3, 4, 5]).unwrap();
    let zero_t = Tensor::new(DataType::Float, [3, 0, 2, 0, 5]).unwrap();
    assert!(
        t.shape()
            .is_same_size(&TensorShape::new(&[2, 3, 4, 5]).unwrap())
    );
    assert!(
        zero_t
            .shape()
            .is_same_size(&TensorShape::new(&[3, 0, 2, 0, 5]).unwrap())
    );
    let mut tensor = t.tensor_mut::<f32, Ix4>().unwrap();
    assert_eq!(tensor.dim(), (2, 3, 4, 5));
    tensor[[0, 0, 0, 0]] = 0.01;
    tensor[[1, 2, 3, 4]] = 0.02;
    (t, zero_t)
}

/// A scalar type read out of little-endian bytes.
trait FromLe: Copy + PartialEq + Debug {
    fn from_le(b: &[u8]) -> Self;
}
impl FromLe for f32 {
    fn from_le(b: &[u8]) -> Self {
        f32::from_le_bytes(b.try_into().unwrap())
    }
}
impl FromLe for i32 {
    fn from_le(b: &[u8]) -> Self {
        i32::from_le_bytes(b.try_into().unwrap())
    }
}
impl FromLe for i16 {
    fn from_le(b: &[u8]) -> Self {
        i16::from_le_bytes(b.try_into().unwrap())
    }
}
impl FromLe for u8 {
    fn from_le(b: &[u8]) -> Self {
        b[0]
    }
}

/// TF's `TestReshapeImpl`: dims equal `sizes`; the first coordinate reads
/// the first `S` of 0.01f, the last coordinate the last `S` of 0.02f.
fn check_reshape<S: FromLe, D: Dimension>(v: ArrayView<'_, S, D>, sizes: &[usize]) {
    assert_eq!(v.shape(), sizes);
    let n = std::mem::size_of::<S>();
    let first = S::from_le(&0.01f32.to_le_bytes()[..n]);
    let last = S::from_le(&0.02f32.to_le_bytes()[4 - n..]);
    let v = v.into_dyn();
    assert_eq!(v[IxDyn(&vec![0; sizes.len()])], first);
    let end: Vec<usize> = sizes.iter().map(|s| s - 1).collect();
    assert_eq!(v[IxDyn(&end)], last);
}

fn usizes(sizes: &[i64]) -> Vec<usize> {
    sizes.iter().map(|&s| s as usize).collect()
}

#[test]
fn tensor_reshape_test_reshape() {
    let (mut t, _) = reshape_fixture();
    macro_rules! test_reshape {
        ($D:ty, $sizes:expr) => {{
            let sizes: &[i64] = &$sizes;
            let us = usizes(sizes);
            check_reshape(t.shaped::<f32, $D>(sizes).unwrap(), &us);
            check_reshape(t.unaligned_shaped::<f32, $D>(sizes).unwrap().view(), &us);
            check_reshape(t.bit_casted_shaped::<f32, $D>(sizes).unwrap(), &us);
            check_reshape(t.bit_casted_shaped::<i32, $D>(sizes).unwrap(), &us);
            // The non-const overloads: writable views over the same buffer.
            let p = t.data_ptr().unwrap();
            let v = t.shaped_mut::<f32, $D>(sizes).unwrap();
            assert_eq!(v.as_ptr() as *const u8, p);
            check_reshape(v.view(), &us);
            check_reshape(t.shaped_mut::<f32, $D>(sizes).unwrap().view(), &us);
            check_reshape(
                t.bit_casted_shaped_mut::<f32, $D>(sizes).unwrap().view(),
                &us,
            );
            check_reshape(
                t.bit_casted_shaped_mut::<i32, $D>(sizes).unwrap().view(),
                &us,
            );
        }};
    }
    test_reshape!(Ix1, [120]);
    test_reshape!(Ix2, [6, 20]);
    test_reshape!(Ix3, [6, 4, 5]);
    test_reshape!(Ix4, [2, 3, 4, 5]);
}

#[test]
fn tensor_reshape_test_bitcast_reshape_different_size() {
    let (t, _) = reshape_fixture();
    macro_rules! bitcast {
        ($S:ty, $D:ty, $sizes:expr) => {{
            let sizes: &[i64] = &$sizes;
            check_reshape(
                t.bit_casted_shaped::<$S, $D>(sizes).unwrap(),
                &usizes(sizes),
            );
        }};
    }
    bitcast!(u8, Ix1, [480]);
    bitcast!(u8, Ix2, [24, 20]);
    bitcast!(u8, Ix3, [6, 16, 5]);
    bitcast!(u8, Ix4, [2, 3, 4, 20]);
    bitcast!(i16, Ix1, [240]);
    bitcast!(i16, Ix2, [6, 40]);
    bitcast!(i16, Ix3, [12, 4, 5]);
    bitcast!(i16, Ix4, [2, 3, 8, 5]);
    bitcast!(i16, Ix5, [2, 3, 4, 1, 10]);
}

#[test]
fn tensor_reshape_test_reshape_error() {
    let (t, _) = reshape_fixture();
    let size = |s: &str| {
        let (got, expected) = s.split_once(" vs. ").unwrap();
        let e = Error::SizeMismatch {
            got: got.parse().unwrap(),
            expected: expected.parse().unwrap(),
            check: tftensor::SizeCheck::Elements,
        };
        assert_eq!(e.to_string(), s);
        e
    };
    assert_eq!(
        t.shaped::<f32, tftensor::ndarray::Ix0>(&[0i64; 0])
            .unwrap_err(),
        size("1 vs. 120")
    );
    assert_eq!(
        t.shaped::<f32, Ix1>(&[119]).unwrap_err(),
        size("119 vs. 120")
    );
    assert_eq!(
        t.shaped::<f32, Ix4>(&[2, 3, 4, 6]).unwrap_err(),
        size("144 vs. 120")
    );
    assert_eq!(
        t.shaped::<f32, Ix4>(&[2, 3, 4, 6]).unwrap_err().to_string(),
        "144 vs. 120"
    );

    assert_eq!(
        t.unaligned_shaped::<f32, tftensor::ndarray::Ix0>(&[0i64; 0])
            .unwrap_err(),
        size("1 vs. 120")
    );
    assert_eq!(
        t.unaligned_shaped::<f32, Ix1>(&[119]).unwrap_err(),
        size("119 vs. 120")
    );
    assert_eq!(
        t.unaligned_shaped::<f32, Ix4>(&[2, 3, 4, 6]).unwrap_err(),
        size("144 vs. 120")
    );

    assert_eq!(
        t.bit_casted_shaped::<f32, tftensor::ndarray::Ix0>(&[0i64; 0])
            .unwrap_err(),
        size("4 vs. 480")
    );
    assert_eq!(
        t.bit_casted_shaped::<f32, Ix1>(&[119]).unwrap_err(),
        size("476 vs. 480")
    );
    assert_eq!(
        t.bit_casted_shaped::<f32, Ix1>(&[119])
            .unwrap_err()
            .to_string(),
        "476 vs. 480"
    );
    assert_eq!(
        t.bit_casted_shaped::<f32, Ix4>(&[2, 3, 4, 6]).unwrap_err(),
        size("576 vs. 480")
    );

    // Strings compare element counts, not bytes.
    let string_tensor = Tensor::new(DataType::String, [10]).unwrap();
    assert_eq!(
        string_tensor
            .bit_casted_shaped::<Bytes, Ix1>(&[9])
            .unwrap_err(),
        size("9 vs. 10")
    );
}

#[test]
fn tensor_reshape_test_flat() {
    let (t, _) = reshape_fixture();
    let flat = t.flat::<f32>().unwrap();
    assert_eq!(flat[0], 0.01);
    assert_eq!(flat.dim(), 120);
    assert_eq!(flat[119], 0.02);
}

#[test]
fn tensor_reshape_test_flat_inner_dims() {
    let (t, zero_t) = reshape_fixture();
    let v = t.flat_inner_dims::<f32, Ix2>().unwrap();
    assert_eq!(v.dim(), (24, 5));
    assert_eq!((v[[0, 0]], v[[23, 4]]), (0.01, 0.02));
    let v = t.flat_inner_dims::<f32, Ix3>().unwrap();
    assert_eq!(v.dim(), (6, 4, 5));
    assert_eq!((v[[0, 0, 0]], v[[5, 3, 4]]), (0.01, 0.02));
    let v = t.flat_inner_dims::<f32, Ix5>().unwrap();
    assert_eq!(v.dim(), (1, 2, 3, 4, 5));
    assert_eq!((v[[0, 0, 0, 0, 0]], v[[0, 1, 2, 3, 4]]), (0.01, 0.02));
    assert_eq!(zero_t.flat_inner_dims::<f32, Ix2>().unwrap().dim(), (0, 5));
    assert_eq!(
        zero_t.flat_inner_dims::<f32, Ix3>().unwrap().dim(),
        (0, 0, 5)
    );
    assert_eq!(
        zero_t.flat_inner_dims::<f32, Ix5>().unwrap().dim(),
        (3, 0, 2, 0, 5)
    );
}

#[test]
fn tensor_reshape_test_flat_outer_dims() {
    let (t, zero_t) = reshape_fixture();
    let v = t.flat_outer_dims::<f32, Ix2>().unwrap();
    assert_eq!(v.dim(), (2, 60));
    assert_eq!((v[[0, 0]], v[[1, 59]]), (0.01, 0.02));
    let v = t.flat_outer_dims::<f32, Ix3>().unwrap();
    assert_eq!(v.dim(), (2, 3, 20));
    assert_eq!((v[[0, 0, 0]], v[[1, 2, 19]]), (0.01, 0.02));
    let v = t.flat_outer_dims::<f32, Ix5>().unwrap();
    assert_eq!(v.dim(), (2, 3, 4, 5, 1));
    assert_eq!((v[[0, 0, 0, 0, 0]], v[[1, 2, 3, 4, 0]]), (0.01, 0.02));
    assert_eq!(zero_t.flat_outer_dims::<f32, Ix2>().unwrap().dim(), (3, 0));
    assert_eq!(
        zero_t.flat_outer_dims::<f32, Ix3>().unwrap().dim(),
        (3, 0, 0)
    );
    assert_eq!(
        zero_t.flat_outer_dims::<f32, Ix5>().unwrap().dim(),
        (3, 0, 2, 0, 5)
    );
}

#[test]
fn tensor_reshape_test_flat_inner_outer_dims() {
    let (t, zero_t) = reshape_fixture();
    let v = t.flat_inner_outer_dims::<f32, Ix4>(0).unwrap();
    assert_eq!(v.dim(), (2, 3, 4, 5));
    assert_eq!((v[[0, 0, 0, 0]], v[[1, 2, 3, 4]]), (0.01, 0.02));
    let v = t.flat_inner_outer_dims::<f32, Ix6>(-2).unwrap();
    assert_eq!(v.dim(), (1, 1, 2, 3, 4, 5));
    assert_eq!((v[[0, 0, 0, 0, 0, 0]], v[[0, 0, 1, 2, 3, 4]]), (0.01, 0.02));
    let v = t.flat_inner_outer_dims::<f32, Ix6>(0).unwrap();
    assert_eq!(v.dim(), (2, 3, 4, 5, 1, 1));
    assert_eq!((v[[0, 0, 0, 0, 0, 0]], v[[1, 2, 3, 4, 0, 0]]), (0.01, 0.02));
    // N = 8 is beyond ndarray's fixed ranks: the run-time-rank form.
    let v = t.flat_inner_outer_dims_dyn::<f32>(-2, 8).unwrap();
    assert_eq!(v.shape(), &[1, 1, 2, 3, 4, 5, 1, 1]);
    assert_eq!(v[&[0, 0, 0, 0, 0, 0, 0, 0][..]], 0.01);
    assert_eq!(v[&[0, 0, 1, 2, 3, 4, 0, 0][..]], 0.02);
    let v = t.flat_inner_outer_dims::<f32, Ix3>(1).unwrap();
    assert_eq!(v.dim(), (6, 4, 5));
    assert_eq!((v[[0, 0, 0]], v[[5, 3, 4]]), (0.01, 0.02));
    let v = t.flat_inner_outer_dims::<f32, Ix5>(1).unwrap();
    assert_eq!(v.dim(), (6, 4, 5, 1, 1));
    assert_eq!((v[[0, 0, 0, 0, 0]], v[[5, 3, 4, 0, 0]]), (0.01, 0.02));
    let v = t.flat_inner_outer_dims::<f32, Ix3>(0).unwrap();
    assert_eq!(v.dim(), (2, 3, 20));
    assert_eq!((v[[0, 0, 0]], v[[1, 2, 19]]), (0.01, 0.02));
    let v = t.flat_inner_outer_dims::<f32, Ix5>(-2).unwrap();
    assert_eq!(v.dim(), (1, 1, 2, 3, 20));
    assert_eq!((v[[0, 0, 0, 0, 0]], v[[0, 0, 1, 2, 19]]), (0.01, 0.02));
    let v = t.flat_inner_outer_dims::<f32, Ix2>(1).unwrap();
    assert_eq!(v.dim(), (6, 20));
    assert_eq!((v[[0, 0]], v[[5, 19]]), (0.01, 0.02));
    assert_eq!(
        zero_t.flat_inner_outer_dims::<f32, Ix2>(0).unwrap().dim(),
        (3, 0)
    );
    assert_eq!(
        zero_t.flat_inner_outer_dims::<f32, Ix3>(0).unwrap().dim(),
        (3, 0, 0)
    );
    assert_eq!(
        zero_t.flat_inner_outer_dims::<f32, Ix5>(0).unwrap().dim(),
        (3, 0, 2, 0, 5)
    );
    assert_eq!(
        zero_t.flat_inner_outer_dims::<f32, Ix2>(3).unwrap().dim(),
        (0, 5)
    );
    assert_eq!(
        zero_t.flat_inner_outer_dims::<f32, Ix3>(2).unwrap().dim(),
        (0, 0, 5)
    );
    assert_eq!(
        zero_t.flat_inner_outer_dims::<f32, Ix3>(1).unwrap().dim(),
        (0, 2, 0)
    );
}

#[test]
fn reinterpret_last_dimension_reinterpret_nchw_vect_c_as_nchw() {
    let mut t_nchw_vect_c = Tensor::new(DataType::QInt8, [2, 3, 5, 7, 4]).unwrap();
    let mut t_expected_nchw = Tensor::new(DataType::Int32, [2, 3, 5, 7]).unwrap();
    {
        let mut nchw_vect_c = t_nchw_vect_c.tensor_mut::<QInt8, Ix5>().unwrap();
        let mut expected_nchw = t_expected_nchw.tensor_mut::<i32, Ix4>().unwrap();
        // TF's loop, with its int8 counter (it wraps) and its extra
        // increment per h.
        let mut val: i8 = 0;
        for n in 0..2 {
            for c in 0..3 {
                for h in 0..5 {
                    for w in 0..7 {
                        let mut packet = [0u8; 4];
                        for (k, slot) in packet.iter_mut().enumerate() {
                            val = val.wrapping_add(1);
                            nchw_vect_c[[n, c, h, w, k]] = QInt8(val);
                            *slot = val as u8;
                        }
                        expected_nchw[[n, c, h, w]] = i32::from_le_bytes(packet);
                    }
                    val = val.wrapping_add(1);
                }
            }
        }
    }
    let expected = t_expected_nchw.tensor::<i32, Ix4>().unwrap();
    let actual = t_nchw_vect_c
        .reinterpret_last_dimension::<i32, Ix4>()
        .unwrap();
    assert_eq!(actual.dim(), (2, 3, 5, 7));
    assert_eq!(actual, expected);
    assert_eq!(
        actual.as_ptr() as *const u8,
        t_nchw_vect_c.data_ptr().unwrap()
    );
    // The non-const overload: same values, same buffer (it is unique).
    let mut t = t_nchw_vect_c.clone();
    drop(t_nchw_vect_c);
    let p = t.data_ptr().unwrap();
    let actual_mut = t.reinterpret_last_dimension_mut::<i32, Ix4>().unwrap();
    assert_eq!(actual_mut.as_ptr() as *const u8, p);
    assert_eq!(actual_mut.view(), expected);
}

#[test]
fn tensor_scalar_basics() {
    {
        let mut t = Tensor::new(DataType::Bool, TensorShape::scalar()).unwrap();
        assert_eq!(t.num_elements(), 1);
        let tt = t.scalar::<bool>().unwrap();
        assert_eq!((tt.len(), tt.ndim()), (1, 0));
        t.scalar_mut::<bool>().unwrap()[()] = true;
        assert!(t.scalar::<bool>().unwrap()[()]);
    }
    {
        let mut t = Tensor::new(DataType::Float, TensorShape::scalar()).unwrap();
        assert_eq!(t.num_elements(), 1);
        let tt = t.scalar::<f32>().unwrap();
        assert_eq!((tt.len(), tt.ndim()), (1, 0));
        t.scalar_mut::<f32>().unwrap()[()] = 123.45;
        assert_eq!(t.scalar::<f32>().unwrap()[()], 123.45);
    }
    {
        let mut t = Tensor::new(DataType::Float, [1]).unwrap();
        assert_eq!(t.num_elements(), 1);
        assert_eq!(t.vec::<f32>().unwrap().len(), 1);
        t.vec_mut::<f32>().unwrap()[0] = 123.45;
        assert_eq!(t.vec::<f32>().unwrap()[0], 123.45);
    }
    {
        let mut t = Tensor::new(DataType::Float, [1, 1, 1]).unwrap();
        assert_eq!(t.num_elements(), 1);
        let tt = t.scalar::<f32>().unwrap();
        assert_eq!((tt.len(), tt.ndim()), (1, 0));
        t.flat_mut::<f32>().unwrap()[0] = 123.45;
        assert_eq!(t.scalar::<f32>().unwrap()[()], 123.45);
    }
    {
        let mut t = Tensor::new(DataType::String, TensorShape::scalar()).unwrap();
        assert_eq!(t.num_elements(), 1);
        let tt = t.scalar::<Bytes>().unwrap();
        assert_eq!((tt.len(), tt.ndim()), (1, 0));
        t.scalar_mut::<Bytes>().unwrap()[()] = Bytes::from("foo");
        assert_eq!(t.scalar::<Bytes>().unwrap()[()], "foo");
    }
    {
        let mut t = Tensor::new(DataType::String, [1]).unwrap();
        assert_eq!(t.num_elements(), 1);
        assert_eq!(t.vec::<Bytes>().unwrap().len(), 1);
        t.flat_mut::<Bytes>().unwrap()[0] = Bytes::from("foo");
        assert_eq!(t.vec::<Bytes>().unwrap()[0], "foo");
    }
    {
        let mut t = Tensor::new(DataType::String, [1, 1, 1]).unwrap();
        assert_eq!(t.num_elements(), 1);
        let tt = t.scalar::<Bytes>().unwrap();
        assert_eq!((tt.len(), tt.ndim()), (1, 0));
        t.flat_mut::<Bytes>().unwrap()[0] = Bytes::from("bar");
        assert_eq!(t.scalar::<Bytes>().unwrap()[()], "bar");
    }
    {
        let t = Tensor::new(DataType::Float, [0, 1]).unwrap();
        assert_eq!(t.num_elements(), 0);
        assert_eq!(t.flat::<f32>().unwrap().len(), 0);
        let tm = t.matrix::<f32>().unwrap();
        assert_eq!(tm.len(), 0);
        assert_eq!(tm.dim(), (0, 1));
    }
}

#[test]
fn tensor_host_scalar_basics() {
    {
        let mut t = Tensor::from(true);
        assert_eq!(t.dtype(), DataType::Bool);
        assert_eq!(t.num_elements(), 1);
        let tt = t.scalar::<bool>().unwrap();
        assert_eq!((tt.len(), tt.ndim()), (1, 0));
        assert!(tt[()]);
        t.scalar_mut::<bool>().unwrap()[()] = false;
        assert!(!t.scalar::<bool>().unwrap()[()]);
    }
    {
        let mut t = Tensor::from(123.45f32);
        assert_eq!(t.dtype(), DataType::Float);
        assert_eq!(t.num_elements(), 1);
        let tt = t.scalar::<f32>().unwrap();
        assert_eq!((tt.len(), tt.ndim()), (1, 0));
        assert_eq!(tt[()], 123.45);
        t.scalar_mut::<f32>().unwrap()[()] = 42.0;
        assert_eq!(t.scalar::<f32>().unwrap()[()], 42.0);
    }
    {
        let mut t = Tensor::from("fooooooooooooooooooooooooooooooooooooo");
        assert_eq!(t.dtype(), DataType::String);
        assert_eq!(t.num_elements(), 1);
        let tt = t.scalar::<Bytes>().unwrap();
        assert_eq!((tt.len(), tt.ndim()), (1, 0));
        assert_eq!(tt[()], "fooooooooooooooooooooooooooooooooooooo");
        t.scalar_mut::<Bytes>().unwrap()[()] =
            Bytes::from("baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaar");
        assert_eq!(
            t.scalar::<Bytes>().unwrap()[()],
            "baaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaar"
        );
    }
}

#[test]
fn tensor_float_reshape_and_slice_assignment() {
    let mut t = Tensor::new(DataType::Float, [10, 4, 3, 2]).unwrap();
    assert!(
        t.shape()
            .is_same_size(&TensorShape::new(&[10, 4, 3, 2]).unwrap())
    );
    {
        // View it as [10, 24] and assign each row.
        let mut e_2d = t.shaped_mut::<f32, Ix2>(&[10, 4 * 3 * 2]).unwrap();
        for i in 0..10 {
            e_2d.slice_mut(s![i..i + 1, ..]).fill(i as f32 * 2.0);
        }
    }
    let e_t = t.tensor::<f32, Ix4>().unwrap();
    for ((i, _, _, _), v) in e_t.indexed_iter() {
        assert_eq!(*v, i as f32 * 2.0);
    }
    assert_eq!(e_t.len(), 240);
}

#[test]
fn tensor_float_bitcast_from() {
    let mut t = Tensor::new(DataType::Float, [2, 4]).unwrap();
    let inp = Tensor::new(DataType::Double, [2, 2]).unwrap();
    t.bitcast_from(&inp, inp.dtype(), inp.shape()).unwrap();
    assert_eq!(t.dtype(), DataType::Double);
    assert_eq!(t.shape().dim_sizes(), vec![2, 2]);
    assert!(t.shares_buffer_with(&inp));
}

/// The `SimpleWithHelper` tests: `t2 = Tensor(t1.dtype, t1.shape)`, an
/// element-wise op into it, compared with the expected tensor.
macro_rules! with_helper {
    ($name:ident, $t:ty, $t1:expr, |$x:ident| $op:expr, $t3:expr) => {
        #[test]
        fn $name() {
            let v1: Vec<$t> = $t1;
            let v3: Vec<$t> = $t3;
            let t1 = Tensor::from_vec([2, 3], v1).unwrap();
            let mut t2 = Tensor::new(t1.dtype(), t1.shape()).unwrap();
            t2.flat_mut::<$t>()
                .unwrap()
                .assign(&t1.flat::<$t>().unwrap().mapv(|$x: $t| $op));
            let t3 = Tensor::from_vec(t1.shape(), v3).unwrap();
            expect_equal::<$t>(&t2, &t3);
        }
    };
}

with_helper!(
    tensor_float_simple_with_helper,
    f32,
    vec![0., 1., 2., 3., 4., 5.],
    |x| x * 2.0,
    vec![0., 2., 4., 6., 8., 10.]
);
with_helper!(
    tensor_int32_simple_with_helper,
    i32,
    vec![0, 1, 2, 3, 4, 5],
    |x| x * 2,
    vec![0, 2, 4, 6, 8, 10]
);
with_helper!(
    tensor_uint16_simple_with_helper,
    u16,
    vec![0, 1, 2, 3, 4, 5],
    |x| x * 2,
    vec![0, 2, 4, 6, 8, 10]
);
with_helper!(
    tensor_qint8_simple_with_helper,
    QInt8,
    (0..6).map(QInt8).collect(),
    |x| QInt8(x.0 + -2),
    (-2..4).map(QInt8).collect()
);
with_helper!(
    tensor_quint8_simple_with_helper,
    QUInt8,
    (0..6).map(QUInt8).collect(),
    |x| QUInt8(x.0 + 2),
    (2..8).map(QUInt8).collect()
);
with_helper!(
    tensor_int64_simple_with_helper,
    i64,
    (0..6i64).map(|k| k << 48).collect(),
    |x| x * 2,
    (0..6i64).map(|k| (2 * k) << 48).collect()
);

#[test]
fn tensor_string_simple_with_helper() {
    let t1 =
        Tensor::from_vec([2, 3], (0..6).map(|i| Bytes::from(i.to_string())).collect()).unwrap();
    let mut t2 = Tensor::new(DataType::String, [2, 3]).unwrap();
    for i in 0..2 {
        for j in 0..3 {
            t2.matrix_mut::<Bytes>().unwrap()[[i, j]] = Bytes::from((i * 3 + j).to_string());
        }
    }
    expect_equal::<Bytes>(&t1, &t2);
}

#[test]
fn tensor_bool_simple_with_helper() {
    let t1 = Tensor::from_vec([2, 3], vec![false, true, false, true, false, true]).unwrap();
    let mut t2 = Tensor::new(DataType::Bool, [2, 3]).unwrap();
    for i in 0..2 {
        for j in 0..3 {
            t2.matrix_mut::<bool>().unwrap()[[i, j]] = (i + j) % 2 != 0;
        }
    }
    expect_equal::<bool>(&t1, &t2);
}

/// Deterministic stand-in for Eigen's `setRandom()`.
fn lcg(state: &mut u64) -> f64 {
    *state = state
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    (*state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
}

#[test]
fn tensor_complex_simple64() {
    let mut t = Tensor::new(DataType::Complex64, [4, 5, 3, 7]).unwrap();
    let mut st = 1;
    t.flat_mut::<Complex32>().unwrap().iter_mut().for_each(|v| {
        *v = Complex::new(lcg(&mut st) as f32, lcg(&mut st) as f32);
    });
    assert_eq!(t.tensor::<Complex32, Ix4>().unwrap().dim(), (4, 5, 3, 7));
    test_copies::<Complex32>(&t);
}

#[test]
fn tensor_complex_simple128() {
    let mut t = Tensor::new(DataType::Complex128, [4, 5, 3, 7]).unwrap();
    let mut st = 2;
    t.flat_mut::<Complex64>().unwrap().iter_mut().for_each(|v| {
        *v = Complex::new(lcg(&mut st), lcg(&mut st));
    });
    test_copies::<Complex64>(&t);
}

/// MathUtil::IPow: exponentiation by squaring.
fn ipow<T: Copy + std::ops::Mul<Output = T>>(base: T, exp: u32, one: T) -> T {
    let (mut result, mut b, mut e) = (one, base, exp);
    while e > 0 {
        if e & 1 == 1 {
            result = result * b;
        }
        b = b * b;
        e >>= 1;
    }
    result
}

macro_rules! complex_with_helper {
    ($name:ident, $c:ty, $f:ty, $dt:ident, $pi:expr) => {
        #[test]
        fn $name() {
            let c = |re: $f, im: $f| Complex::<$f>::new(re, im);
            let t1 = Tensor::from_vec(
                [2, 3],
                vec![
                    c(0., 0.),
                    c(1., 1.),
                    c(2., 0.),
                    c(3., 3.),
                    c(0., 4.),
                    c(2., 5.),
                ],
            )
            .unwrap();
            let mut t2 = Tensor::new(t1.dtype(), t1.shape()).unwrap();
            t2.flat_mut::<$c>()
                .unwrap()
                .assign(&t1.flat::<$c>().unwrap().mapv(|x| x * c(0., 2.)));
            let t3 = Tensor::from_vec(
                [2, 3],
                vec![
                    c(0., 0.),
                    c(-2., 2.),
                    c(0., 4.),
                    c(-6., 6.),
                    c(-8., 0.),
                    c(-10., 4.),
                ],
            )
            .unwrap();
            expect_equal::<$c>(&t2, &t3);

            // The 8th roots of unity, rotated by 45 degrees, and to the 8th.
            let near = |a: &Tensor, b: &Tensor| {
                for (x, y) in a
                    .vec::<$c>()
                    .unwrap()
                    .iter()
                    .zip(b.vec::<$c>().unwrap().iter())
                {
                    assert!(
                        (x.re - y.re).abs() <= 1e-5 && (x.im - y.im).abs() <= 1e-5,
                        "{x} vs {y}"
                    );
                }
            };
            let rotate_45 = Complex::<$f>::from_polar(1.0, $pi / 4.0);
            let one = c(1., 0.);
            let mut x = Tensor::new(DataType::$dt, [8]).unwrap();
            for i in 0..8 {
                x.vec_mut::<$c>().unwrap()[i] = ipow(rotate_45, i as u32, one);
            }
            let mut y = Tensor::new(DataType::$dt, [8]).unwrap();
            y.vec_mut::<$c>()
                .unwrap()
                .assign(&x.vec::<$c>().unwrap().mapv(|v| v * rotate_45));
            let mut y_expected = Tensor::new(DataType::$dt, [8]).unwrap();
            for i in 0..8 {
                y_expected.vec_mut::<$c>().unwrap()[i] = ipow(rotate_45, i as u32 + 1, one);
            }
            near(&y, &y_expected);
            let mut z = Tensor::new(DataType::$dt, [8]).unwrap();
            z.vec_mut::<$c>()
                .unwrap()
                .assign(&x.vec::<$c>().unwrap().mapv(|v| v.powi(8)));
            let mut z_expected = Tensor::new(DataType::$dt, [8]).unwrap();
            z_expected.vec_mut::<$c>().unwrap().fill(one);
            near(&z, &z_expected);
        }
    };
}
complex_with_helper!(
    tensor_complex_simple_with_helper64,
    Complex32,
    f32,
    Complex64,
    PI32
);
complex_with_helper!(
    tensor_complex_simple_with_helper128,
    Complex64,
    f64,
    Complex128,
    PI64
);

#[test]
fn tensor_shares_buffer_with() {
    let a_empty = Tensor::default();
    let b_empty = Tensor::default();
    let a = Tensor::new(DataType::Float, [1]).unwrap();
    let b = Tensor::new(DataType::Float, [1]).unwrap();
    let copy = a.clone();
    assert!(!a_empty.shares_buffer_with(&a_empty));
    assert!(!a_empty.shares_buffer_with(&b_empty));
    assert!(!a_empty.shares_buffer_with(&a));
    assert!(!a_empty.shares_buffer_with(&copy));
    assert!(a.shares_buffer_with(&a));
    assert!(!a.shares_buffer_with(&b));
    assert!(a.shares_buffer_with(&copy));
}

#[test]
fn tensor_float_simple_build_tensor() {
    // TF's BuildTensor(DT_FLOAT, {10, 20}) is Tensor::new here.
    let mut t = Tensor::new(DataType::Float, [10, 20]).unwrap();
    assert!(
        t.shape()
            .is_same_size(&TensorShape::new(&[10, 20]).unwrap())
    );
    for a in 0..10 {
        for b in 0..20 {
            t.matrix_mut::<f32>().unwrap()[[a, b]] = (a * b) as f32;
        }
    }
    assert_eq!(t.matrix::<f32>().unwrap()[[9, 19]], 171.0);
    test_copies::<f32>(&t);
    assert_eq!(t.allocated_bytes(), 800);
}

#[test]
fn tensor_float_simple_with_allocator() {
    let a = Arc::new(TrackingAllocator::new());
    let mut t = Tensor::with_allocator(&a, DataType::Float, [10, 20]).unwrap();
    assert!(
        t.shape()
            .is_same_size(&TensorShape::new(&[10, 20]).unwrap())
    );
    for x in 0..10 {
        for y in 0..20 {
            t.matrix_mut::<f32>().unwrap()[[x, y]] = (x * y) as f32;
        }
    }
    test_copies::<f32>(&t);
    // FillDescription: dtype, and the allocation's facts.
    assert_eq!(t.dtype(), DataType::Float);
    let d = t.allocation_description().unwrap();
    assert_eq!(d.allocator_name, "tracking");
    assert_eq!((d.requested_bytes, d.allocated_bytes), (800, 800));
    assert!(d.allocation_id > 0);
    assert_eq!(a.live_bytes(), 800);
    assert_eq!(t.allocated_bytes(), 800);
}

/// An allocator that always fails (TF's DummyCPUAllocator).
#[derive(Debug)]
struct DummyCpuAllocator;

// SAFETY: never hands out memory.
unsafe impl Allocator for DummyCpuAllocator {
    fn name(&self) -> &str {
        "cpu"
    }
    fn allocate(&self, _: std::alloc::Layout) -> Option<std::ptr::NonNull<u8>> {
        None
    }
    unsafe fn deallocate(&self, _: std::ptr::NonNull<u8>, _: std::alloc::Layout) {}
}

#[test]
fn tensor_failure_to_allocate() {
    let allocator = Arc::new(DummyCpuAllocator);
    // TF gives an uninitialized tensor; here the constructor fails.
    assert_eq!(
        Tensor::with_allocator(&allocator, DataType::Float, [1]).unwrap_err(),
        Error::AllocationFailed { bytes: 4 }
    );
    assert_eq!(
        Tensor::with_allocator(&allocator, DataType::Half, [1]).unwrap_err(),
        Error::AllocationFailed { bytes: 2 }
    );
    // Nothing to allocate: fine.
    assert!(
        Tensor::with_allocator(&allocator, DataType::Float, [0])
            .unwrap()
            .is_initialized()
    );
    // Strings live in a typed store, not in allocator memory (a
    // deviation: TF's string tensor would be uninitialized here).
    let s = Tensor::with_allocator(&allocator, DataType::String, [1]).unwrap();
    assert_eq!(s.vec::<Bytes>().unwrap()[0], "");
}

#[test]
fn tensor_slice_basic() {
    let saved;
    {
        // General.
        let mut x = Tensor::new(DataType::Float, [10, 4, 36]).unwrap();
        // Fills in known values, as TF does: through slices that write
        // into `x` (`slice_mut`; an owned `slice` would copy on write).
        for i in 0..10 {
            x.slice_mut(i, i + 1)
                .unwrap()
                .flat_mut::<f32>()
                .unwrap()
                .fill(i as f32);
        }
        // A simple slice along dim0.
        let y = x.slice(4, 8).unwrap();
        assert!(
            y.shape()
                .is_same_size(&TensorShape::new(&[4, 4, 36]).unwrap())
        );
        let tx = x.tensor::<f32, Ix3>().unwrap();
        let ty = y.tensor::<f32, Ix3>().unwrap();
        for i in 0..4 {
            for j in 0..4 {
                for k in 0..36 {
                    assert_eq!(ty[[i, j, k]], 4.0 + i as f32);
                    assert!(std::ptr::eq(&tx[[4 + i, j, k]], &ty[[i, j, k]]));
                }
            }
        }
        assert_eq!(y.allocated_bytes(), 2304);
        assert_eq!(y.dtype(), DataType::Float);
        // A simple slice equivalent to identity.
        test_copies::<f32>(&y);
        let y = x.slice(0, 10).unwrap();
        expect_equal::<f32>(&x, &y);
        assert_eq!(
            x.flat::<f32>().unwrap().as_ptr(),
            y.flat::<f32>().unwrap().as_ptr()
        );
        // A slice of a slice.
        let z = x.slice(4, 8).unwrap().slice(2, 3).unwrap();
        let tz = z.tensor::<f32, Ix3>().unwrap();
        assert_eq!(z.dim_size(0).unwrap(), 1);
        assert!(tz.iter().all(|&v| v == 6.0));
        assert_eq!(tz.len(), 4 * 36);
        // x and y go out of scope; saved lives on.
        saved = z.clone();
    }
    {
        assert_eq!(saved.dim_size(0).unwrap(), 1);
        let tsaved = saved.tensor::<f32, Ix3>().unwrap();
        assert!(tsaved.iter().all(|&v| v == 6.0));
    }
    {
        // Empty.
        let x = Tensor::new(DataType::Float, [10, 0, 36]).unwrap();
        let y = x.slice(4, 8).unwrap();
        assert!(
            y.shape()
                .is_same_size(&TensorShape::new(&[4, 0, 36]).unwrap())
        );
    }
    {
        // Unaligned access via a slice, written into `x` as TF does.
        let mut x = Tensor::new(DataType::Float, [30]).unwrap();
        x.flat_mut::<f32>().unwrap().fill(0.0);
        {
            let mut y = x.slice_mut(1, 13).unwrap();
            y.flat_mut::<f32>().unwrap().fill(1.0);
            assert!(y.flat::<f32>().unwrap().iter().all(|&v| v == 1.0));
        }
        let y = x.slice(1, 13).unwrap();
        assert!(!y.is_aligned());
        for i in 0..y.num_elements() as usize {
            assert_eq!(y.unaligned_flat::<f32>().unwrap()[i], 1.0);
        }
        let fx = x.flat::<f32>().unwrap();
        assert_eq!(fx[0], 0.0);
        assert!(fx.iter().skip(1).take(12).all(|&v| v == 1.0));
        assert_eq!(fx[13], 0.0);
        // An owned slice still copies on write: `x` never sees it.
        let mut z = x.slice(1, 13).unwrap();
        z.flat_mut::<f32>().unwrap().fill(2.0);
        assert!(x.flat::<f32>().unwrap().iter().all(|&v| v != 2.0));
    }
}

#[test]
fn tensor_sub_slice_basic() {
    {
        // General.
        let mut x = Tensor::new(DataType::Float, [10, 4, 36]).unwrap();
        // Fills in known values, through sub-slices that write into `x`.
        for i in 0..10 {
            x.sub_slice_mut(i)
                .unwrap()
                .flat_mut::<f32>()
                .unwrap()
                .fill(i as f32);
        }
        // A simple sub-slice along dim0.
        let y = x.sub_slice(5).unwrap();
        assert!(y.shape().is_same_size(&TensorShape::new(&[4, 36]).unwrap()));
        let tx = x.tensor::<f32, Ix3>().unwrap();
        let ty = y.tensor::<f32, Ix2>().unwrap();
        for j in 0..4 {
            for k in 0..36 {
                assert_eq!(ty[[j, k]], 5.0);
                assert!(std::ptr::eq(&tx[[5, j, k]], &ty[[j, k]]));
            }
        }
        let z = y.sub_slice(3).unwrap().sub_slice(31).unwrap();
        let tz = z.unaligned_flat::<f32>().unwrap();
        assert_eq!(tz[0], 5.0);
        assert_eq!(z.dims(), 0);
    }
    {
        // Unaligned access via a sub-slice.
        let mut x = Tensor::new(DataType::Float, [30, 5]).unwrap();
        x.flat_mut::<f32>().unwrap().fill(0.0);
        x.sub_slice_mut(1)
            .unwrap()
            .flat_mut::<f32>()
            .unwrap()
            .fill(1.0);
        let y = x.sub_slice(1).unwrap();
        assert!(!y.is_aligned());
        for i in 0..y.num_elements() as usize {
            assert_eq!(y.unaligned_flat::<f32>().unwrap()[i], 1.0);
        }
        let fx = x.flat::<f32>().unwrap();
        assert!(fx.iter().take(5).all(|&v| v == 0.0));
        assert!(fx.iter().skip(5).take(5).all(|&v| v == 1.0));
        assert!(fx.iter().skip(10).all(|&v| v == 0.0));
    }
}

#[test]
fn tensor_empty_tensor_data() {
    let empty = Tensor::default();
    assert_eq!(empty.tensor_data().unwrap().len(), 0);
}
