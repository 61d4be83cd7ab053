//! Every typed accessor, for every element type: exact dims and values,
//! zero-copy (the view's pointer is the buffer's, and viewing allocates
//! nothing), every error path, copy-on-write in the `_mut` twins, and the
//! ndarray conversions.

use crate::common;

use common::*;
use tftensor::ndarray::{
    Array, Array2, ArrayView, Dimension, Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, IxDyn, array, s,
};
use tftensor::{DataType, Error, PodElement, SizeCheck, Tensor};

/// Checks a view's shape, its elements (row-major) and that it starts at
/// `ptr`.
fn check_view<T: Sample, D: Dimension>(
    v: ArrayView<'_, T, D>,
    shape: &[usize],
    vals: &[T],
    ptr: *const u8,
) {
    // Checked as a dynamic-rank view: the iteration below is compiled once
    // per element type, not once per element type and rank.
    check_dyn_view(v.into_dyn(), shape, vals, ptr);
}

fn check_dyn_view<T: Sample>(
    v: ArrayView<'_, T, IxDyn>,
    shape: &[usize],
    vals: &[T],
    ptr: *const u8,
) {
    assert_eq!(v.shape(), shape, "{}", T::DTYPE);
    assert!(v.iter().eq(vals.iter()), "{}: values", T::DTYPE);
    assert_eq!(
        v.as_ptr() as *const u8,
        ptr,
        "{}: view is not over the buffer",
        T::DTYPE
    );
}

/// `unwrap_err` without `Debug` for the value: formatting an ndarray view
/// is compiled once per element type and rank, seconds of this file's build.
trait UnwrapError {
    fn unwrap_error(self) -> Error;
}

impl<V> UnwrapError for tftensor::Result<V> {
    #[track_caller]
    fn unwrap_error(self) -> Error {
        match self {
            Ok(_) => panic!("called `unwrap_error()` on an `Ok` value"),
            Err(e) => e,
        }
    }
}

/// Every read accessor over a `[2, 3, 4]` tensor and its reshapes.
fn every_accessor<T: Sample>() {
    let vals = samples::<T>(0, 24);
    let t = Tensor::from_slice([2, 3, 4], &vals).unwrap();
    let p = t.data_ptr().unwrap();

    check_view(t.tensor::<T, Ix3>().unwrap(), &[2, 3, 4], &vals, p);
    check_view(t.tensor::<T, IxDyn>().unwrap(), &[2, 3, 4], &vals, p);
    check_view(
        t.tensor::<T, tftensor::ndarray::IxDyn>().unwrap(),
        &[2, 3, 4],
        &vals,
        p,
    );
    check_view(t.flat::<T>().unwrap(), &[24], &vals, p);
    check_view(t.unaligned_flat::<T>().unwrap().view(), &[24], &vals, p);
    check_view(t.shaped::<T, Ix2>(&[6, 4]).unwrap(), &[6, 4], &vals, p);
    check_view(t.shaped::<T, IxDyn>(&[24]).unwrap(), &[24], &vals, p);
    check_view(
        t.unaligned_shaped::<T, Ix4>(&[2, 3, 2, 2]).unwrap().view(),
        &[2, 3, 2, 2],
        &vals,
        p,
    );
    check_view(t.flat_inner_dims::<T, Ix2>().unwrap(), &[6, 4], &vals, p);
    check_view(
        t.flat_inner_dims::<T, Ix4>().unwrap(),
        &[1, 2, 3, 4],
        &vals,
        p,
    );
    check_view(t.flat_outer_dims::<T, Ix2>().unwrap(), &[2, 12], &vals, p);
    check_view(
        t.flat_outer_dims::<T, Ix4>().unwrap(),
        &[2, 3, 4, 1],
        &vals,
        p,
    );
    check_view(
        t.flat_inner_outer_dims::<T, Ix3>(1).unwrap(),
        &[6, 4, 1],
        &vals,
        p,
    );
    check_view(
        t.flat_inner_outer_dyn_check::<T>(),
        &[1, 2, 3, 4, 1],
        &vals,
        p,
    );
    check_view(
        t.bit_casted_tensor::<T, Ix3>().unwrap(),
        &[2, 3, 4],
        &vals,
        p,
    );
    check_view(
        t.bit_casted_shaped::<T, Ix1>(&[24]).unwrap(),
        &[24],
        &vals,
        p,
    );
    check_view(
        t.reinterpret_last_dimension::<T, Ix3>().unwrap(),
        &[2, 3, 4],
        &vals,
        p,
    );
    // Element access by index reads the right element.
    assert!(t.tensor::<T, Ix3>().unwrap()[[1, 2, 3]] == vals[23]);
    assert!(t.matrix_of_reshape::<T>()[[4, 1]] == vals[17]);

    // vec and matrix need rank 1 and 2: same buffer, another shape.
    let mut r = Tensor::default();
    assert!(r.copy_from(&t, [24]));
    check_view(r.vec::<T>().unwrap(), &[24], &vals, p);
    assert!(r.copy_from(&t, [6, 4]));
    check_view(r.matrix::<T>().unwrap(), &[6, 4], &vals, p);

    // scalar: any rank with one element.
    let one = t
        .sub_slice(1)
        .unwrap()
        .sub_slice(2)
        .unwrap()
        .sub_slice(3)
        .unwrap();
    assert_eq!(one.dims(), 0);
    check_view(
        one.scalar::<T>().unwrap(),
        &[],
        &vals[23..],
        elem_ptr::<T>(&t, 23),
    );
    let mut r = Tensor::default();
    assert!(r.copy_from(&one, [1, 1, 1]));
    check_view(
        r.scalar::<T>().unwrap(),
        &[],
        &vals[23..],
        elem_ptr::<T>(&t, 23),
    );
    check_view(
        r.tensor::<T, Ix3>().unwrap(),
        &[1, 1, 1],
        &vals[23..],
        elem_ptr::<T>(&t, 23),
    );
}

/// Helpers that keep `every_accessor` to one line per accessor.
trait Helpers {
    fn flat_inner_outer_dyn_check<T: Sample>(&self) -> ArrayView<'_, T, IxDyn>;
    fn matrix_of_reshape<T: Sample>(&self) -> ArrayView<'_, T, Ix2>;
}
impl Helpers for Tensor {
    fn flat_inner_outer_dyn_check<T: Sample>(&self) -> ArrayView<'_, T, IxDyn> {
        self.flat_inner_outer_dims_dyn::<T>(-1, 5).unwrap()
    }
    fn matrix_of_reshape<T: Sample>(&self) -> ArrayView<'_, T, Ix2> {
        self.shaped::<T, Ix2>(&[6, 4]).unwrap()
    }
}

/// Writes `value` at `idx` through the view `$get` makes of `$t`; returns
/// the view's pointer and the bytes allocated meanwhile (the value is made
/// before measuring).
macro_rules! write_via {
    ($t:expr, |$x:ident| $get:expr, $idx:expr, $value:expr) => {{
        let value = $value;
        let before = tftensor::TrackingAllocator::thread_allocated_bytes();
        let ptr = {
            let $x = &mut $t;
            let mut v = $get.unwrap();
            v[$idx] = value;
            v.as_ptr() as *const u8
        };
        (
            ptr,
            tftensor::TrackingAllocator::thread_allocated_bytes() - before,
        )
    }};
}

/// Runs `$check(name, tensor, start, index written, value written, view
/// pointer, bytes allocated)` once per `_mut` accessor, each on a fresh
/// `$make()` of shape `[2, 3, 4]` (or a reshape, or for `scalar_mut` its
/// element 17: then `start` is 17 and the index 0).
macro_rules! each_mut_accessor {
    ($T:ty, $make:expr, $check:expr) => {{
        let make = $make;
        let check = $check;
        let v = |k: usize| <$T as Sample>::sample(100 + k);
        let mut t = make();
        let (p, a) = write_via!(t, |x| x.tensor_mut::<$T, Ix3>(), [1, 2, 3], v(0));
        check("tensor_mut", t, 0, 23, v(0), p, a);
        let mut t = make();
        let (p, a) = write_via!(t, |x| x.tensor_mut::<$T, IxDyn>(), &[1, 0, 1][..], v(1));
        check("tensor_mut dyn", t, 0, 13, v(1), p, a);
        let mut t = make();
        let (p, a) = write_via!(
            t,
            |x| x.tensor_mut::<$T, tftensor::ndarray::IxDyn>(),
            &[0, 2, 1][..],
            v(2)
        );
        check("view_mut", t, 0, 9, v(2), p, a);
        let mut t = make();
        let (p, a) = write_via!(t, |x| x.flat_mut::<$T>(), 5, v(3));
        check("flat_mut", t, 0, 5, v(3), p, a);
        let mut t = make();
        let (p, a) = write_via!(t, |x| x.flat_mut::<$T>(), 6, v(4));
        check("flat_mut", t, 0, 6, v(4), p, a);
        let mut t = make();
        let (p, a) = write_via!(t, |x| x.shaped_mut::<$T, Ix2>(&[6, 4]), [2, 3], v(5));
        check("shaped_mut", t, 0, 11, v(5), p, a);
        let mut t = make();
        let (p, a) = write_via!(t, |x| x.shaped_mut::<$T, Ix1>(&[24]), 20, v(6));
        check("shaped_mut", t, 0, 20, v(6), p, a);
        let mut t = make();
        let (p, a) = write_via!(t, |x| x.flat_inner_dims_mut::<$T, Ix2>(), [5, 0], v(7));
        check("flat_inner_dims_mut", t, 0, 20, v(7), p, a);
        let mut t = make();
        let (p, a) = write_via!(t, |x| x.flat_outer_dims_mut::<$T, Ix2>(), [1, 1], v(8));
        check("flat_outer_dims_mut", t, 0, 13, v(8), p, a);
        let mut t = make();
        let (p, a) = write_via!(
            t,
            |x| x.flat_inner_outer_dims_mut::<$T, Ix2>(1),
            [4, 2],
            v(9)
        );
        check("flat_inner_outer_dims_mut", t, 0, 18, v(9), p, a);
        let mut t = make();
        let (p, a) = write_via!(
            t,
            |x| x.flat_inner_outer_dims_dyn_mut::<$T>(0, 3),
            &[1, 2, 0][..],
            v(10)
        );
        check("flat_inner_outer_dims_dyn_mut", t, 0, 20, v(10), p, a);
        let mut t = make();
        let (p, a) = write_via!(
            t,
            |x| x.reinterpret_last_dimension_mut_same::<$T>(),
            [0, 1, 2],
            v(11)
        );
        check("reinterpret_last_dimension_mut", t, 0, 6, v(11), p, a);
        let mut t = make()
            .sub_slice(1)
            .unwrap()
            .sub_slice(1)
            .unwrap()
            .sub_slice(1)
            .unwrap();
        let (p, a) = write_via!(t, |x| x.scalar_mut::<$T>(), (), v(12));
        check("scalar_mut", t, 17, 0, v(12), p, a);
        let mut t = {
            let m = make();
            let mut r = Tensor::default();
            assert!(r.copy_from(&m, [24]));
            r
        };
        let (p, a) = write_via!(t, |x| x.vec_mut::<$T>(), 22, v(13));
        check("vec_mut", t, 0, 22, v(13), p, a);
        let mut t = {
            let m = make();
            let mut r = Tensor::default();
            assert!(r.copy_from(&m, [4, 6]));
            r
        };
        let (p, a) = write_via!(t, |x| x.matrix_mut::<$T>(), [3, 0], v(14));
        check("matrix_mut", t, 0, 18, v(14), p, a);
    }};
}

/// `reinterpret_last_dimension_mut` with `T: PodElement` cannot take the
/// string/resource/variant types, so the same-rank case (which is
/// `tensor_mut`) is reached through this shim for every type.
trait ReinterpretSame {
    fn reinterpret_last_dimension_mut_same<T: Sample>(
        &mut self,
    ) -> tftensor::Result<tftensor::ndarray::ArrayViewMut<'_, T, Ix3>>;
}
impl ReinterpretSame for Tensor {
    fn reinterpret_last_dimension_mut_same<T: Sample>(
        &mut self,
    ) -> tftensor::Result<tftensor::ndarray::ArrayViewMut<'_, T, Ix3>> {
        self.tensor_mut::<T, Ix3>()
    }
}

/// `_mut` accessors on a uniquely owned tensor write in place: same
/// pointer, nothing allocated.
fn mut_accessors_unique<T: Sample>() {
    let vals = samples::<T>(0, 24);
    each_mut_accessor!(
        T,
        || Tensor::from_slice([2, 3, 4], &vals).unwrap(),
        |name: &str, t: Tensor, start: usize, i: usize, v: T, p: *const u8, alloc: usize| {
            assert_eq!(alloc, 0, "{} {name}: allocated", T::DTYPE);
            assert_eq!(p, elem_ptr::<T>(&t, 0), "{} {name}: moved", T::DTYPE);
            assert!(t.ref_count_is_one(), "{} {name}", T::DTYPE);
            let got = t.as_slice::<T>().unwrap();
            for (k, x) in got.iter().enumerate() {
                let want = if k == i { &v } else { &vals[start + k] };
                assert!(x == want, "{} {name}: element {k}", T::DTYPE);
            }
        }
    );
}

/// `_mut` accessors on a shared tensor copy first: the other handle sees
/// nothing, the writer owns a fresh aligned buffer.
fn mut_accessors_shared<T: Sample>() {
    let vals = samples::<T>(0, 24);
    let base = Tensor::from_slice([2, 3, 4], &vals).unwrap();
    let check =
        |name: &str, t: Tensor, start: usize, i: usize, v: T, p: *const u8, alloc: usize| {
            assert!(
                !t.shares_buffer_with(&base),
                "{} {name}: still shared",
                T::DTYPE
            );
            assert!(t.ref_count_is_one(), "{} {name}", T::DTYPE);
            assert!(t.is_aligned(), "{} {name}: copy not aligned", T::DTYPE);
            assert!(alloc > 0, "{} {name}: no copy", T::DTYPE);
            assert_eq!(p, t.data_ptr().unwrap(), "{} {name}", T::DTYPE);
            assert_ne!(p, elem_ptr::<T>(&base, start), "{} {name}", T::DTYPE);
            assert_eq!(
                base.as_slice::<T>().unwrap(),
                &vals[..],
                "{} {name}: reader changed",
                T::DTYPE
            );
            let got = t.as_slice::<T>().unwrap();
            for (k, x) in got.iter().enumerate() {
                let want = if k == i { &v } else { &vals[start + k] };
                assert!(x == want, "{} {name}: element {k}", T::DTYPE);
            }
        };
    each_mut_accessor!(T, || base.clone(), check);
}

/// Every accessor with a `T` other than the tensor's element type.
fn wrong_dtype<T: Sample, U: Sample>() {
    let mut t = sample_tensor::<T>(&[2, 3, 4]);
    let want = Error::DataTypeMismatch {
        expected: U::DTYPE,
        actual: T::DTYPE,
    };
    let text = format!("{} expected, got {}", U::DTYPE, T::DTYPE);
    assert_eq!(t.tensor::<U, Ix3>().unwrap_error(), want);
    assert_eq!(t.tensor::<U, Ix3>().unwrap_error().to_string(), text);
    assert_eq!(
        t.tensor::<U, tftensor::ndarray::IxDyn>().unwrap_error(),
        want
    );
    assert_eq!(t.vec::<U>().unwrap_error(), want);
    assert_eq!(t.matrix::<U>().unwrap_error(), want);
    assert_eq!(t.flat::<U>().unwrap_error(), want);
    assert_eq!(t.unaligned_flat::<U>().unwrap_error(), want);
    assert_eq!(t.shaped::<U, Ix1>(&[24]).unwrap_error(), want);
    assert_eq!(t.unaligned_shaped::<U, Ix1>(&[24]).unwrap_error(), want);
    assert_eq!(t.flat_inner_dims::<U, Ix2>().unwrap_error(), want);
    assert_eq!(t.flat_outer_dims::<U, Ix2>().unwrap_error(), want);
    assert_eq!(t.flat_inner_outer_dims::<U, Ix2>(1).unwrap_error(), want);
    assert_eq!(t.flat_inner_outer_dims_dyn::<U>(1, 2).unwrap_error(), want);
    assert_eq!(
        t.reinterpret_last_dimension::<U, Ix3>().unwrap_error(),
        want
    );
    let one = t
        .sub_slice(0)
        .unwrap()
        .sub_slice(0)
        .unwrap()
        .sub_slice(0)
        .unwrap();
    assert_eq!(
        one.scalar::<U>().unwrap_error(),
        want,
        "scalar checks the dtype (TF does not)"
    );
    // The writable twins fail the same way, before any copy.
    let reader = t.clone();
    assert_eq!(t.tensor_mut::<U, Ix3>().unwrap_error(), want);
    assert_eq!(
        t.tensor_mut::<U, tftensor::ndarray::IxDyn>().unwrap_error(),
        want
    );
    assert_eq!(t.vec_mut::<U>().unwrap_error(), want);
    assert_eq!(t.matrix_mut::<U>().unwrap_error(), want);
    assert_eq!(t.flat_mut::<U>().unwrap_error(), want);
    assert_eq!(t.flat_mut::<U>().unwrap_error(), want);
    assert_eq!(t.shaped_mut::<U, Ix1>(&[24]).unwrap_error(), want);
    assert_eq!(t.shaped_mut::<U, Ix1>(&[24]).unwrap_error(), want);
    assert_eq!(t.flat_inner_dims_mut::<U, Ix2>().unwrap_error(), want);
    assert_eq!(t.flat_outer_dims_mut::<U, Ix2>().unwrap_error(), want);
    assert_eq!(
        t.flat_inner_outer_dims_mut::<U, Ix2>(1).unwrap_error(),
        want
    );
    assert_eq!(
        t.flat_inner_outer_dims_dyn_mut::<U>(1, 2).unwrap_error(),
        want
    );
    let mut one = one;
    assert_eq!(one.scalar_mut::<U>().unwrap_error(), want);
    assert!(
        t.shares_buffer_with(&reader),
        "a failed _mut call must not copy"
    );
}

/// Rank, count and shape errors, with TF's texts, for reads and writes.
fn shape_errors<T: Sample>() {
    let mut t = sample_tensor::<T>(&[2, 3, 4]);
    let reader = t.clone();
    let rank = |n: usize| {
        Error::InvalidArgument(format!(
            "Asking for tensor of {n} dimensions from a tensor of 3 dimensions"
        ))
    };
    assert_eq!(t.tensor::<T, Ix2>().unwrap_error(), rank(2));
    assert_eq!(t.tensor::<T, Ix0>().unwrap_error(), rank(0));
    assert_eq!(t.vec::<T>().unwrap_error(), rank(1));
    assert_eq!(t.matrix::<T>().unwrap_error(), rank(2));
    assert_eq!(t.bit_casted_tensor::<T, Ix4>().unwrap_error(), rank(4));
    assert_eq!(t.tensor_mut::<T, Ix2>().unwrap_error(), rank(2));
    assert_eq!(t.vec_mut::<T>().unwrap_error(), rank(1));
    assert_eq!(t.matrix_mut::<T>().unwrap_error(), rank(2));

    let count = |s: &str| {
        let (got, expected) = s.split_once(" vs. ").unwrap();
        let e = Error::SizeMismatch {
            got: got.parse().unwrap(),
            expected: expected.parse().unwrap(),
            check: SizeCheck::Elements,
        };
        assert_eq!(e.to_string(), s);
        e
    };
    assert_eq!(
        t.shaped::<T, Ix2>(&[5, 5]).unwrap_error(),
        count("25 vs. 24")
    );
    assert_eq!(
        t.shaped::<T, Ix0>(&[0i64; 0]).unwrap_error(),
        count("1 vs. 24")
    );
    assert_eq!(
        t.unaligned_shaped::<T, Ix1>(&[23]).unwrap_error(),
        count("23 vs. 24")
    );
    assert_eq!(
        t.shaped_mut::<T, Ix2>(&[5, 5]).unwrap_error(),
        count("25 vs. 24")
    );
    assert_eq!(
        t.shaped_mut::<T, Ix1>(&[25]).unwrap_error(),
        count("25 vs. 24")
    );
    assert!(matches!(
        t.shaped::<T, Ix2>(&[24]),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        t.shaped_mut::<T, Ix1>(&[2, 12]),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(
        t.shaped::<T, Ix2>(&[-2, -12]).unwrap_error().to_string(),
        "Expected shape dimensions to be non-negative, got -2"
    );
    assert!(matches!(
        t.shaped::<T, Ix2>(&[i64::MAX, 3]),
        Err(Error::InvalidShape(_) | Error::SizeMismatch { .. } | Error::Overflow(_))
    ));

    let one = |e: Error| {
        e.to_string() == "Must have a one element tensor"
            && matches!(
                e,
                Error::SizeMismatch {
                    expected: 1,
                    check: SizeCheck::OneElement,
                    ..
                }
            )
    };
    assert!(one(t.scalar::<T>().unwrap_error()));
    assert!(one(t.scalar_mut::<T>().unwrap_error()));
    assert!(one(Tensor::new(T::DTYPE, [0])
        .unwrap()
        .scalar::<T>()
        .unwrap_error()));

    // The flattening accessors need a fixed N >= 1, and begin + N >= 1.
    assert!(matches!(
        t.flat_inner_dims::<T, IxDyn>(),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        t.flat_outer_dims::<T, Ix0>(),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        t.flat_inner_outer_dims_mut::<T, IxDyn>(0),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(
        t.flat_inner_outer_dims::<T, Ix3>(-3).unwrap_error(),
        Error::InvalidArgument("begin + N must be >= 1, got -3 + 3".into())
    );
    assert!(t.flat_inner_outer_dims::<T, Ix3>(i64::MIN).is_err());
    assert_eq!(
        t.flat_inner_outer_dims::<T, Ix3>(i64::MAX).unwrap().shape(),
        &[24, 1, 1]
    );
    assert!(t.flat_inner_outer_dims_dyn::<T>(0, 0).is_err());
    assert!(t.flat_inner_outer_dims_dyn::<T>(0, 255).is_err());
    assert!(t.flat_inner_outer_dims_dyn_mut::<T>(-5, 3).is_err());
    assert_eq!(
        t.flat_inner_outer_dims_dyn::<T>(0, 254).unwrap().ndim(),
        254
    );

    // reinterpret_last_dimension: N must be rank or rank - 1.
    assert!(matches!(
        t.reinterpret_last_dimension::<T, Ix1>(),
        Err(Error::InvalidArgument(_))
    ));
    assert!(matches!(
        t.reinterpret_last_dimension::<T, Ix4>(),
        Err(Error::InvalidArgument(_))
    ));

    assert!(
        t.shares_buffer_with(&reader),
        "failed _mut calls must not copy"
    );
}

/// An uninitialized tensor (TF: `[0, 5].SubSlice(0)` has shape `[5]` and
/// no buffer) fails every accessor instead of touching memory.
fn uninitialized<T: Sample>() {
    let mut u = Tensor::new(T::DTYPE, [0, 5]).unwrap().sub_slice(0).unwrap();
    assert!(!u.is_initialized());
    let err = Error::InvalidArgument(format!(
        "uninitialized Tensor of 5 elements of type {}",
        T::DTYPE.as_i32()
    ));
    assert_eq!(u.vec::<T>().unwrap_error(), err);
    assert_eq!(u.flat::<T>().unwrap_error(), err);
    assert_eq!(
        u.tensor::<T, tftensor::ndarray::IxDyn>().unwrap_error(),
        err
    );
    assert_eq!(u.bit_casted_tensor::<T, Ix1>().unwrap_error(), err);
    assert_eq!(u.vec_mut::<T>().unwrap_error(), err);
    assert_eq!(u.flat_mut::<T>().unwrap_error(), err);
    let mut one = u.slice(0, 1).unwrap();
    assert_eq!(one.scalar::<T>().unwrap_error(), err_n::<T>(1));
    assert_eq!(one.scalar_mut::<T>().unwrap_error(), err_n::<T>(1));
}

fn err_n<T: Sample>(n: i64) -> Error {
    Error::InvalidArgument(format!(
        "uninitialized Tensor of {n} elements of type {}",
        T::DTYPE.as_i32()
    ))
}

/// Zero-element tensors give empty views, with or without a buffer, and
/// the `_mut` twins neither allocate nor copy.
fn zero_elements<T: Sample>() {
    let mut z = Tensor::new(T::DTYPE, [0, 3]).unwrap();
    assert!(z.data_ptr().is_none());
    assert_eq!(z.matrix::<T>().unwrap().shape(), &[0, 3]);
    assert_eq!(z.flat::<T>().unwrap().len(), 0);
    assert_eq!(
        z.tensor::<T, tftensor::ndarray::IxDyn>().unwrap().shape(),
        &[0, 3]
    );
    assert_eq!(z.tensor::<T, IxDyn>().unwrap().shape(), &[0, 3]);
    assert_eq!(z.shaped::<T, Ix3>(&[3, 0, 7]).unwrap().shape(), &[3, 0, 7]);
    assert_eq!(z.flat_inner_dims::<T, Ix3>().unwrap().shape(), &[1, 0, 3]);
    assert_eq!(z.flat_outer_dims::<T, Ix1>().unwrap().shape(), &[0]);
    assert_eq!(z.bit_casted_tensor::<T, Ix2>().unwrap().shape(), &[0, 3]);
    assert_eq!(z.bit_casted_shaped::<T, Ix1>(&[0]).unwrap().shape(), &[0]);
    let (dims, alloc) = allocated_by(|| z.matrix_mut::<T>().unwrap().dim());
    assert_eq!((dims, alloc), ((0, 3), 0));
    let (n, alloc) = allocated_by(|| z.flat_mut::<T>().unwrap().len());
    assert_eq!((n, alloc), (0, 0));
    assert!(z.data_ptr().is_none());

    // An empty slice of a real buffer: shares, views empty, and a write
    // view needs no copy, so it still shares.
    let base = sample_tensor::<T>(&[4, 3]);
    let mut e = base.slice(2, 2).unwrap();
    assert_eq!(e.shape().dim_sizes(), vec![0, 3]);
    assert!(e.shares_buffer_with(&base));
    assert_eq!(e.matrix::<T>().unwrap().shape(), &[0, 3]);
    let (n, alloc) = allocated_by(|| e.flat_mut::<T>().unwrap().len());
    assert_eq!((n, alloc), (0, 0));
    assert!(e.shares_buffer_with(&base));
    assert_eq!(base.as_slice::<T>().unwrap(), &samples::<T>(0, 12)[..]);
}

/// Viewing allocates nothing, for every read accessor of a fixed rank (and
/// `IxDyn` up to rank 4, which ndarray keeps inline).
fn views_allocate_nothing<T: Sample>() {
    let t = sample_tensor::<T>(&[2, 3, 4]);
    let ((), alloc) = allocated_by(|| {
        let p = t.data_ptr().unwrap();
        let mut ptrs = [std::ptr::null::<T>(); 16];
        ptrs[0] = t.tensor::<T, Ix3>().unwrap().as_ptr();
        ptrs[1] = t.tensor::<T, IxDyn>().unwrap().as_ptr();
        ptrs[2] = t.tensor::<T, tftensor::ndarray::IxDyn>().unwrap().as_ptr();
        ptrs[3] = t.flat::<T>().unwrap().as_ptr();
        ptrs[4] = t.unaligned_flat::<T>().unwrap().as_ptr();
        ptrs[5] = t.shaped::<T, Ix2>(&[6, 4]).unwrap().as_ptr();
        ptrs[6] = t
            .unaligned_shaped::<T, Ix4>(&[1, 2, 3, 4])
            .unwrap()
            .as_ptr();
        ptrs[7] = t.flat_inner_dims::<T, Ix2>().unwrap().as_ptr();
        ptrs[8] = t.flat_outer_dims::<T, Ix5>().unwrap().as_ptr();
        ptrs[9] = t.flat_inner_outer_dims::<T, Ix3>(1).unwrap().as_ptr();
        ptrs[10] = t.flat_inner_outer_dims_dyn::<T>(0, 4).unwrap().as_ptr();
        ptrs[11] = t.bit_casted_tensor::<T, Ix3>().unwrap().as_ptr();
        ptrs[12] = t.bit_casted_shaped::<T, Ix1>(&[24]).unwrap().as_ptr();
        ptrs[13] = t.reinterpret_last_dimension::<T, Ix3>().unwrap().as_ptr();
        ptrs[14] = t.as_slice::<T>().unwrap().as_ptr();
        ptrs[15] = ptrs[0];
        for q in ptrs {
            assert_eq!(q as *const u8, p);
        }
    });
    assert_eq!(alloc, 0, "{}: viewing allocated", T::DTYPE);
}

macro_rules! element_tests {
    ($m:ident, $t:ty) => {
        #[allow(non_snake_case)]
        mod $m {
            use super::*;
            #[test]
            fn every_accessor() {
                super::every_accessor::<$t>();
            }
            #[test]
            fn mut_accessors_unique() {
                super::mut_accessors_unique::<$t>();
            }
            #[test]
            fn mut_accessors_shared() {
                super::mut_accessors_shared::<$t>();
            }
            #[test]
            fn wrong_dtype() {
                if <$t as tftensor::Element>::DTYPE == DataType::UInt16 {
                    super::wrong_dtype::<$t, u32>();
                } else {
                    super::wrong_dtype::<$t, u16>();
                }
            }
            #[test]
            fn shape_errors() {
                super::shape_errors::<$t>();
            }
            #[test]
            fn uninitialized() {
                super::uninitialized::<$t>();
            }
            #[test]
            fn zero_elements() {
                super::zero_elements::<$t>();
            }
            #[test]
            fn views_allocate_nothing() {
                super::views_allocate_nothing::<$t>();
            }
        }
    };
}
for_each_element!(element_tests);

/// POD-only views: bytes, mutable bit casts, reinterpretation, and views
/// of 64-byte-misaligned slices at every row.
fn pod_views<T: Sample + PodElement>() {
    let size = std::mem::size_of::<T>();
    let vals = samples::<T>(0, 24);
    let t = Tensor::from_slice([2, 3, 4], &vals).unwrap();
    let p = t.data_ptr().unwrap();
    let bytes = t.tensor_data().unwrap().to_vec();
    assert_eq!(bytes.len(), 24 * size);

    // Bytes views, in several shapes.
    let b = t.bit_casted_shaped::<u8, Ix1>(&[24 * size as i64]).unwrap();
    assert_eq!(b.as_slice().unwrap(), &bytes[..]);
    assert_eq!(b.as_ptr(), p);
    let b = t.bit_casted_shaped::<u8, Ix2>(&[24, size as i64]).unwrap();
    assert_eq!(b.row(23).to_vec(), bytes[23 * size..].to_vec());
    assert_eq!(
        t.bit_casted_shaped::<u8, Ix1>(&[24 * size as i64 + 1])
            .unwrap_error()
            .to_string(),
        format!("{} vs. {}", 24 * size + 1, 24 * size)
    );
    if size == 1 {
        assert_eq!(t.bit_casted_tensor::<u8, Ix3>().unwrap().as_ptr(), p);
    } else {
        assert_eq!(
            t.bit_casted_tensor::<u8, Ix3>().unwrap_error().to_string(),
            format!("24 vs. {}", 24 * size)
        );
    }

    // Writing another element's bytes through a byte view.
    let other = Tensor::from_slice([1], &[T::sample(99)]).unwrap();
    let other_bytes = other.tensor_data().unwrap().to_vec();
    let mut w = t.clone();
    let res = w
        .bit_casted_shaped_mut::<u8, Ix2>(&[24, size as i64])
        .map(|mut v| v.row_mut(5).assign(&Array::from(other_bytes.clone())));
    if T::DTYPE == DataType::Bool {
        assert!(
            matches!(res, Err(Error::InvalidArgument(_))),
            "bool bytes must stay 0/1"
        );
        assert!(w.shares_buffer_with(&t), "refused before copying");
    } else {
        res.unwrap();
        assert!(w.as_slice::<T>().unwrap()[5] == T::sample(99));
        assert!(!w.shares_buffer_with(&t));
        assert_eq!(t.tensor_data().unwrap(), &bytes[..], "reader unchanged");
    }
    // The same type through the bit-cast twins is always allowed.
    let mut w = t.clone();
    w.bit_casted_tensor_mut::<T, Ix3>().unwrap()[[0, 0, 1]] = T::sample(98);
    w.bit_casted_shaped_mut::<T, Ix1>(&[24]).unwrap()[2] = T::sample(97);
    assert!(w.as_slice::<T>().unwrap()[1] == T::sample(98));
    assert!(w.as_slice::<T>().unwrap()[2] == T::sample(97));

    // reinterpret_last_dimension with a last dim of one element.
    let mut r = Tensor::default();
    assert!(r.copy_from(&t, [24, 1]));
    let v = r.reinterpret_last_dimension::<T, Ix1>().unwrap();
    assert_eq!(v.shape(), &[24]);
    assert!(v.iter().eq(vals.iter()));
    assert_eq!(v.as_ptr() as *const u8, p);
    assert!(matches!(
        r.reinterpret_last_dimension::<T, Ix0>(),
        Err(Error::InvalidArgument(_))
    ));
    r.reinterpret_last_dimension_mut::<T, Ix1>().unwrap()[3] = T::sample(96);
    assert!(r.as_slice::<T>().unwrap()[3] == T::sample(96));
    assert!(t.as_slice::<T>().unwrap()[3] == vals[3]);

    // Rows at every offset: misaligned for TF's 64 bytes, still viewable.
    let base = sample_tensor::<T>(&[40, 3]);
    let all = samples::<T>(0, 120);
    for i in 0..40usize {
        let row = base.slice(i as i64, i as i64 + 1).unwrap();
        let offset = i * 3 * size;
        assert_eq!(row.is_aligned(), offset % 64 == 0, "{} row {i}", T::DTYPE);
        let v = row.matrix::<T>().unwrap();
        assert_eq!(v.shape(), &[1, 3]);
        assert!(v.iter().eq(all[i * 3..i * 3 + 3].iter()));
        assert_eq!(v.as_ptr() as *const u8, elem_ptr::<T>(&base, i * 3));
        let sub = base.sub_slice(i as i64).unwrap();
        assert_eq!(
            sub.unaligned_flat::<T>().unwrap().as_ptr() as *const u8,
            elem_ptr::<T>(&base, i * 3)
        );
    }
}

macro_rules! pod_tests {
    ($m:ident, $t:ty) => {
        #[allow(non_snake_case)]
        mod $m {
            #[test]
            fn pod_views() {
                super::pod_views::<$t>();
            }
        }
    };
}
mod pod {
    use super::*;
    for_each_pod!(pod_tests);
}

#[test]
fn string_bit_casts_compare_element_counts() {
    let t = Tensor::new(DataType::String, [10]).unwrap();
    assert_eq!(
        t.bit_casted_shaped::<tftensor::bytes::Bytes, Ix1>(&[10])
            .unwrap()
            .len(),
        10
    );
    assert_eq!(
        t.bit_casted_shaped::<tftensor::bytes::Bytes, Ix1>(&[9])
            .unwrap_error()
            .to_string(),
        "9 vs. 10"
    );
    // Raw bytes of a string tensor cannot be had.
    assert!(matches!(
        t.bit_casted_shaped::<u8, Ix1>(&[10]),
        Err(Error::DataTypeMismatch { .. })
    ));
    // A POD tensor cannot be seen as strings.
    let f = Tensor::new(DataType::Float, [8]).unwrap();
    assert!(
        f.bit_casted_shaped::<tftensor::bytes::Bytes, Ix1>(&[1])
            .is_err()
    );
    assert!(
        f.reinterpret_last_dimension::<tftensor::bytes::Bytes, Ix0>()
            .is_err()
    );
}

#[test]
fn reinterpret_last_dimension_sizes() {
    let q: Vec<tftensor::QInt8> = (1..=8).map(tftensor::QInt8).collect();
    let t = Tensor::from_vec([2, 4], q).unwrap();
    let v = t.reinterpret_last_dimension::<i32, Ix1>().unwrap();
    assert_eq!(
        v.to_vec(),
        vec![
            i32::from_le_bytes([1, 2, 3, 4]),
            i32::from_le_bytes([5, 6, 7, 8])
        ]
    );
    assert_eq!(v.as_ptr() as *const u8, t.data_ptr().unwrap());
    let d = t.reinterpret_last_dimension::<i32, IxDyn>().unwrap();
    assert_eq!(d.shape(), &[2]);
    // Same dtype with IxDyn means same rank (TF's tensor<T, N>).
    assert_eq!(
        t.reinterpret_last_dimension::<tftensor::QInt8, IxDyn>()
            .unwrap()
            .shape(),
        &[2, 4]
    );
    assert_eq!(
        t.reinterpret_last_dimension::<i64, Ix1>()
            .unwrap_error()
            .to_string(),
        "8 vs. 4"
    );
    assert_eq!(
        t.reinterpret_last_dimension::<i16, Ix1>()
            .unwrap_error()
            .to_string(),
        "2 vs. 4"
    );
    // Same rank with another dtype: tensor<T, N>'s dtype check.
    assert!(matches!(
        t.reinterpret_last_dimension::<i32, Ix2>(),
        Err(Error::DataTypeMismatch { .. })
    ));
    // A scalar has no last dimension.
    let s = Tensor::from(1i32);
    assert!(matches!(
        s.reinterpret_last_dimension::<u8, IxDyn>(),
        Err(Error::InvalidArgument(_))
    ));
    // Empty outer dims: an empty view.
    let e = Tensor::new(DataType::QInt8, [0, 4]).unwrap();
    assert_eq!(
        e.reinterpret_last_dimension::<i32, Ix1>().unwrap().shape(),
        &[0]
    );
    // Writable, copy-on-write.
    let mut w = t.clone();
    w.reinterpret_last_dimension_mut::<u32, Ix1>().unwrap()[1] = u32::MAX;
    assert_eq!(w.flat::<tftensor::QInt8>().unwrap()[4], tftensor::QInt8(-1));
    assert_eq!(t.flat::<tftensor::QInt8>().unwrap()[4], tftensor::QInt8(5));
}

#[test]
fn bool_bytes_stay_zero_or_one() {
    // A u8 tensor with a byte 2 cannot be seen as bool.
    let u = Tensor::from_vec([2], vec![1u8, 2]).unwrap();
    assert_eq!(
        u.bit_casted_tensor::<bool, Ix1>().unwrap_error(),
        Error::InvalidArgument("bool elements must be 0 or 1".into())
    );
    let mut b = Tensor::default();
    b.bitcast_from(&u, DataType::Bool, [2]).unwrap();
    assert!(b.flat::<bool>().is_err());
    assert!(b.flat_mut::<bool>().is_err());
    // Valid bytes are fine both ways.
    let ok = Tensor::from_vec([2], vec![1u8, 0]).unwrap();
    assert_eq!(
        ok.bit_casted_tensor::<bool, Ix1>().unwrap().to_vec(),
        vec![true, false]
    );
    let mut bt = Tensor::from_vec([2], vec![true, false]).unwrap();
    assert_eq!(
        bt.bit_casted_tensor::<u8, Ix1>().unwrap().to_vec(),
        vec![1, 0]
    );
    // Writing a bool tensor as another type is refused: any u8 could land.
    for r in [
        bt.bit_casted_tensor_mut::<u8, Ix1>().map(|_| ()),
        bt.bit_casted_shaped_mut::<tftensor::QUInt8, Ix2>(&[1, 2])
            .map(|_| ()),
        bt.bit_casted_shaped_mut::<i16, Ix1>(&[1]).map(|_| ()),
    ] {
        assert!(matches!(r, Err(Error::InvalidArgument(_))));
    }
    let mut b21 = Tensor::from_vec([2, 1], vec![true, true]).unwrap();
    assert!(matches!(
        b21.reinterpret_last_dimension_mut::<u8, Ix1>(),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(
        b21.reinterpret_last_dimension::<u8, Ix1>()
            .unwrap()
            .to_vec(),
        vec![1, 1]
    );
    // Writing bools into a u8 tensor only ever writes 0 or 1.
    let mut u = Tensor::from_vec([2], vec![0u8, 1]).unwrap();
    u.bit_casted_tensor_mut::<bool, Ix1>().unwrap()[0] = true;
    assert_eq!(u.as_slice::<u8>().unwrap(), &[1, 1]);
}

#[test]
fn misaligned_bitcast_reads_fail_and_writes_realign() {
    // An odd slice of bytes, bitcast to f32: the data is not 4-aligned.
    let mut f = at_odd_address(&(1..9u8).collect::<Vec<_>>(), DataType::Float, &[2]);
    assert!(f.ref_count_is_one());
    assert!(matches!(f.flat::<f32>(), Err(Error::Misaligned { .. })));
    assert!(matches!(
        f.bit_casted_shaped::<u32, Ix1>(&[2]),
        Err(Error::Misaligned { .. })
    ));
    // Bytes are always aligned.
    assert_eq!(
        f.bit_casted_shaped::<u8, Ix1>(&[8]).unwrap().to_vec(),
        (1..9u8).collect::<Vec<_>>()
    );
    // Unique but misaligned: the write copies into an aligned buffer.
    let old = f.data_ptr().unwrap();
    f.flat_mut::<f32>().unwrap()[0] = 1.5;
    assert_ne!(f.data_ptr().unwrap(), old);
    assert!(f.is_aligned());
    assert_eq!(f.flat::<f32>().unwrap()[0], 1.5);
    assert_eq!(
        f.flat::<f32>().unwrap()[1].to_bits(),
        u32::from_le_bytes([5, 6, 7, 8])
    );
}

#[test]
fn high_rank_dyn_views_allocate_only_their_dims() {
    let t = Tensor::new(DataType::Float, [1, 2, 1, 2, 1]).unwrap();
    let (ndim, alloc) =
        allocated_by(|| t.tensor::<f32, tftensor::ndarray::IxDyn>().unwrap().ndim());
    assert_eq!(ndim, 5);
    assert!(alloc > 0, "ndarray's IxDyn heap-allocates above rank 4");
    assert!(alloc < 16 * 5 * 8, "only the dims and strides");
    let (_, alloc) = allocated_by(|| t.tensor::<f32, Ix5>().unwrap().len());
    assert_eq!(alloc, 0);
}

#[test]
fn from_array_adopts_standard_layout() {
    let a = Array::from_shape_vec((10, 100), (0..1000).map(|i| i as f32).collect()).unwrap();
    let p = a.as_ptr() as *const u8;
    let (t, alloc) = allocated_by(|| Tensor::from_array(a).unwrap());
    assert_eq!(t.data_ptr().unwrap(), p, "no copy");
    assert!(
        alloc < 200,
        "the 4000 element bytes were not copied: {alloc} bytes"
    );
    assert_eq!(t.shape().dim_sizes(), vec![10, 100]);
    assert_eq!(t.matrix::<f32>().unwrap()[[3, 7]], 307.0);

    // Strings are adopted too.
    let s = Array::from(vec![
        tftensor::bytes::Bytes::from("a"),
        tftensor::bytes::Bytes::from("bc"),
    ]);
    let p = s.as_ptr() as *const u8;
    let t = Tensor::from_array(s).unwrap();
    assert_eq!(t.data_ptr().unwrap(), p);
    assert_eq!(t.vec::<tftensor::bytes::Bytes>().unwrap()[1], "bc");

    // bool is copied (its Vec cannot become a byte buffer soundly).
    let t = Tensor::from_array(array![true, false, true]).unwrap();
    assert_eq!(t.tensor_data().unwrap(), &[1, 0, 1]);
    assert!(t.is_aligned());

    // A rank-0 array gives a scalar.
    let t = Tensor::from_array(tftensor::ndarray::arr0(7i16)).unwrap();
    assert_eq!(t.dims(), 0);
    assert_eq!(t.scalar::<i16>().unwrap()[()], 7);
}

#[test]
fn from_array_copies_other_layouts_in_row_major_order() {
    let a: Array2<i32> = Array::from_shape_vec((3, 2), vec![1, 2, 3, 4, 5, 6]).unwrap();
    let t = Tensor::from_array(a.clone().reversed_axes()).unwrap();
    assert_eq!(t.shape().dim_sizes(), vec![2, 3]);
    assert_eq!(t.as_slice::<i32>().unwrap(), &[1, 3, 5, 2, 4, 6]);
    // Standard layout but an offset into its Vec (rows 1..).
    let tail = a.clone().slice_move(s![1.., ..]);
    assert!(tail.is_standard_layout());
    let t = Tensor::from_array(tail).unwrap();
    assert_eq!(t.as_slice::<i32>().unwrap(), &[3, 4, 5, 6]);
    assert!(t.is_aligned());
    // Strided columns.
    let col = a.slice_move(s![.., 1..]);
    let t = Tensor::from_array(col).unwrap();
    assert_eq!(t.shape().dim_sizes(), vec![3, 1]);
    assert_eq!(t.as_slice::<i32>().unwrap(), &[2, 4, 6]);
    // Empty.
    let t = Tensor::from_array(Array2::<f64>::zeros((0, 4))).unwrap();
    assert_eq!(t.shape().dim_sizes(), vec![0, 4]);
    assert_eq!(t.matrix::<f64>().unwrap().shape(), &[0, 4]);
}

#[test]
fn try_from_array_view_copies() {
    let a = array![[1u16, 2, 3], [4, 5, 6]];
    let t = Tensor::try_from(a.view()).unwrap();
    assert_ne!(t.data_ptr().unwrap(), a.as_ptr() as *const u8);
    assert!(t.is_aligned());
    assert_eq!(t.matrix::<u16>().unwrap(), a);
    let tt = Tensor::try_from(a.t()).unwrap();
    assert_eq!(tt.shape().dim_sizes(), vec![3, 2]);
    assert_eq!(tt.as_slice::<u16>().unwrap(), &[1, 4, 2, 5, 3, 6]);
    let e = Tensor::try_from(a.slice(s![..0, ..])).unwrap();
    assert_eq!(e.shape().dim_sizes(), vec![0, 3]);
    // Round trip through a view of a tensor.
    let back = Tensor::try_from(tt.tensor::<u16, tftensor::ndarray::IxDyn>().unwrap()).unwrap();
    assert_eq!(back, tt);
    assert!(!back.shares_buffer_with(&tt));
    let strings = array!["x".into(), tftensor::bytes::Bytes::from("yz")];
    let st = Tensor::try_from(strings.view()).unwrap();
    assert_eq!(
        st.vec::<tftensor::bytes::Bytes>().unwrap().to_vec(),
        strings.to_vec()
    );
}

#[test]
fn view_d_is_over_the_buffer() {
    let t = Tensor::from_vec([2, 2], vec![1.5f64, 2.5, 3.5, 4.5]).unwrap();
    let v: tftensor::ndarray::ArrayViewD<'_, f64> =
        t.tensor::<f64, tftensor::ndarray::IxDyn>().unwrap();
    assert_eq!(v.as_ptr() as *const u8, t.data_ptr().unwrap());
    assert_eq!(v[[1, 0]], 3.5);
    assert_eq!(v.ndim(), 2);
}

#[test]
fn every_shape_argument_takes_into_shape() {
    use tftensor::TensorShape;
    let t = Tensor::from_vec([6], (0..6).collect::<Vec<i32>>()).unwrap();
    let want = t.shaped::<i32, Ix2>(&[2i64, 3]).unwrap().to_owned();
    assert_eq!(t.shaped::<i32, Ix2>([2usize, 3]).unwrap(), want);
    assert_eq!(t.shaped::<i32, Ix2>(&[2usize, 3][..]).unwrap(), want);
    assert_eq!(t.shaped::<i32, Ix2>(vec![2usize, 3]).unwrap(), want);
    assert_eq!(t.shaped::<i32, Ix2>(vec![2i64, 3]).unwrap(), want);
    assert_eq!(t.shaped::<i32, Ix2>([2, 3]).unwrap(), want);
    let shape = TensorShape::new(&[2, 3]).unwrap();
    assert_eq!(t.shaped::<i32, Ix2>(&shape).unwrap(), want);
    assert_eq!(t.unaligned_shaped::<i32, Ix2>([2usize, 3]).unwrap(), want);
    assert_eq!(
        t.bit_casted_shaped::<u32, Ix2>([2usize, 3]).unwrap()[[1, 2]],
        5
    );
    let mut m = t.clone();
    m.shaped_mut::<i32, Ix2>([3usize, 2]).unwrap()[[2, 1]] = 50;
    m.bit_casted_shaped_mut::<u32, Ix1>(vec![6usize]).unwrap()[0] = 7;
    assert_eq!(m.as_slice::<i32>().unwrap(), &[7, 1, 2, 3, 4, 50]);
    // A usize past i64::MAX, or a negative i64, is a shape error.
    assert!(matches!(
        t.shaped::<i32, Ix1>([usize::MAX]),
        Err(Error::InvalidShape(_))
    ));
    assert!(matches!(
        t.shaped::<i32, Ix1>([-6i64]),
        Err(Error::InvalidShape(_))
    ));
    let s = Tensor::from(1i32);
    assert_eq!(s.shaped::<i32, Ix0>(()).unwrap()[()], 1);
    assert_eq!(
        Tensor::new(DataType::Int8, [2usize, 2]).unwrap().shape(),
        &shape_of(&[2, 2])
    );
}

fn shape_of(dims: &[i64]) -> tftensor::TensorShape {
    tftensor::TensorShape::new(dims).unwrap()
}

#[test]
fn flat_inner_dims_of_a_scalar_pads_with_ones() {
    let t = Tensor::from(5.0f32);
    assert_eq!(t.flat_inner_dims::<f32, Ix2>().unwrap().shape(), &[1, 1]);
    assert_eq!(t.flat_inner_dims::<f32, Ix1>().unwrap().shape(), &[1]);
    assert_eq!(t.flat_inner_dims::<f32, Ix3>().unwrap()[[0, 0, 0]], 5.0);
    let mut m = Tensor::from(1i32);
    m.flat_inner_dims_mut::<i32, Ix2>().unwrap()[[0, 0]] = 3;
    assert_eq!(m.scalar::<i32>().unwrap()[()], 3);
}

#[test]
fn views_of_a_slice_cannot_reach_the_parent() {
    let parent = Tensor::from_vec([10, 1], (0..10).collect::<Vec<i32>>()).unwrap();
    let s = parent.slice(2, 4).unwrap();
    assert!(s.bit_casted_shaped::<i32, Ix1>(&[8]).is_err());
    assert!(s.shaped::<i32, Ix1>(&[8]).is_err());
    assert_eq!(s.shaped::<i32, Ix1>(&[2]).unwrap().to_vec(), vec![2, 3]);
}
