//! Issue 6: `TypedTensor<T>`, the Sentis-style typed facade, through the
//! public API. The tracking allocator is this binary's global allocator, so
//! the tests can see which conversions allocate element memory.

use bytes::Bytes;
use tftensor::ndarray::{Array, ArrayD, Ix0, Ix1, Ix2, Ix3, IxDyn, array, s};
use tftensor::{DataType, Error, Tensor, TensorShape, TypedTensor};

use crate::common;
use common::allocated;

/// Bookkeeping allocations (the `Arc` around a buffer, a `Box` around an
/// adopted `Vec`, ndarray's dims) stay under this; element copies in these
/// tests are far larger.
const SMALL: usize = 256;
/// Elements in the tensors whose allocations are measured: 256 KiB of f32.
const N: usize = 1 << 16;

/// `bytes` is one copy of `payload` bytes plus bookkeeping.
#[track_caller]
fn assert_copied(bytes: usize, payload: usize) {
    assert!(
        (payload..payload + SMALL).contains(&bytes),
        "{bytes} for {payload}"
    );
}

fn ptr<T: tftensor::Element>(t: &TypedTensor<T>) -> *const u8 {
    t.as_tensor().data_ptr().unwrap()
}

// ----- constructors -----

#[test]
fn new_is_zeroed_aligned_and_allocates_once() {
    let (bytes, t) = allocated(|| TypedTensor::<f32>::new([N as i64]).unwrap());
    assert_copied(bytes, N * 4);
    assert!(t.as_slice().iter().all(|&x| x.to_bits() == 0));
    assert!(t.as_tensor().is_aligned());
    assert_eq!(t.dtype(), DataType::Float);
    assert_eq!((t.len(), t.dims(), t.capacity()), (N, 1, N));

    let s = TypedTensor::<Bytes>::new([2]).unwrap();
    assert_eq!(s.as_slice(), &[Bytes::new(), Bytes::new()]);
    assert!(matches!(
        TypedTensor::<f32>::new([-1]),
        Err(Error::InvalidShape(_))
    ));
    assert!(matches!(
        TypedTensor::<f32>::new([1i64 << 61]),
        Err(Error::AllocationFailed { .. })
    ));
    let e = TypedTensor::<f32>::new([0, 3]).unwrap();
    assert!(e.is_empty());
    assert_eq!(e.capacity(), 0);
    assert_eq!(e.as_slice(), &[] as &[f32]);
}

#[test]
fn new_uninit_is_zero_and_costs_what_new_costs() {
    let (bytes, t) = allocated(|| TypedTensor::<u32>::new([N as i64]).unwrap());
    assert_copied(bytes, N * 4);
    assert!(t.as_slice().iter().all(|&x| x == 0));
    let b = TypedTensor::<bool>::new([3]).unwrap();
    assert_eq!(b.as_slice(), &[false; 3]);
    assert!(TypedTensor::<u32>::new([-2]).is_err());
}

#[test]
fn from_fn_writes_each_element_once_without_a_copy() {
    let (bytes, t) = allocated(|| TypedTensor::from_fn([N as i64], |i| i as f32).unwrap());
    // One Vec of N floats becomes the buffer.
    assert_copied(bytes, N * 4);
    assert_eq!(t[[N - 1]], (N - 1) as f32);
    assert_eq!(
        t.as_tensor()
            .allocation_description()
            .unwrap()
            .allocator_name,
        "vec"
    );

    let t = TypedTensor::from_fn([2, 3], |i| Bytes::from(i.to_string())).unwrap();
    assert_eq!(t[[1, 2]], "5");
    let b = TypedTensor::from_fn([4], |i| i % 2 == 1).unwrap();
    assert_eq!(b.as_slice(), &[false, true, false, true]);
    assert!(matches!(
        TypedTensor::from_fn([1i64 << 61], |_| 0u64),
        Err(Error::Overflow(_))
    ));
    let mut calls = 0;
    let e = TypedTensor::from_fn([0], |_| {
        calls += 1;
        1u8
    })
    .unwrap();
    assert_eq!((e.len(), calls), (0, 0));
}

#[test]
fn from_slice_reads_from_the_start_index() {
    let data: Vec<i32> = (0..10).collect();
    let t = TypedTensor::from_slice_at([2, 3], &data, 4).unwrap();
    assert_eq!(t.as_slice(), &[4, 5, 6, 7, 8, 9]);
    assert!(t.as_tensor().is_aligned());
    assert_eq!(
        TypedTensor::from_slice_at([2], &data, 0)
            .unwrap()
            .as_slice(),
        &[0, 1]
    );
    // Exactly enough, and nothing needed from the end.
    assert_eq!(
        TypedTensor::from_slice_at([10], &data, 0).unwrap().len(),
        10
    );
    assert_eq!(TypedTensor::from_slice_at([0], &data, 10).unwrap().len(), 0);
    assert_eq!(
        TypedTensor::from_slice_at([2, 3], &data, 5)
            .unwrap_err()
            .to_string(),
        "5 elements from index 5 vs. 6 in shape [2,3]"
    );
    assert_eq!(
        TypedTensor::from_slice_at([1], &data, 11)
            .unwrap_err()
            .to_string(),
        "data_start_index 11 is past the end of 10 elements"
    );
    assert!(matches!(
        TypedTensor::from_slice_at([-1], &data, 0),
        Err(Error::InvalidShape(_))
    ));
    let src = vec![1.0f32; N + 1];
    let (bytes, _t) = allocated(|| TypedTensor::from_slice_at([N as i64], &src, 1).unwrap());
    assert_copied(bytes, N * 4);
}

#[test]
fn from_vec_adopts_the_vec() {
    let v = vec![1.5f64; N];
    let p = v.as_ptr().cast::<u8>();
    let (bytes, t) = allocated(|| TypedTensor::from_vec([N as i64 / 4, 4], v).unwrap());
    assert!(bytes < SMALL, "{bytes}");
    assert_eq!(ptr(&t), p);
    assert_eq!(t[[N / 4 - 1, 3]], 1.5);
    assert_eq!(
        TypedTensor::from_vec([3], vec![1u8])
            .unwrap_err()
            .to_string(),
        "1 vs. 3"
    );
    let s = TypedTensor::from_vec([1], vec![Bytes::from_static(b"\xff")]).unwrap();
    assert_eq!(s[[0]], Bytes::from_static(b"\xff"));
}

#[test]
fn from_array_adopts_standard_layout_and_copies_the_rest() {
    let a = Array::from_shape_fn((64, 256, 4), |(i, j, k)| (i * 1024 + j * 4 + k) as f32);
    let p = a.as_ptr().cast::<u8>();
    let (bytes, t) = allocated(|| TypedTensor::from_array(a).unwrap());
    assert!(bytes < SMALL, "{bytes}");
    assert_eq!(ptr(&t), p);
    assert_eq!(t.shape().dim_sizes(), vec![64, 256, 4]);
    assert_eq!(t[[63, 255, 3]], (N - 1) as f32);

    // Transposed: copied in logical order.
    let f = TypedTensor::from_array(array![[1, 2, 3], [4, 5, 6]].reversed_axes()).unwrap();
    assert_eq!(f.shape().dim_sizes(), vec![3, 2]);
    assert_eq!(f.as_slice(), &[1, 4, 2, 5, 3, 6]);
    // Sliced, standard layout but not at the start of its Vec: copied.
    let sliced = array![[1u8, 2], [3, 4], [5, 6]].slice_move(s![1.., ..]);
    let t = TypedTensor::from_array(sliced).unwrap();
    assert_eq!(t.as_slice(), &[3, 4, 5, 6]);
    assert!(t.as_tensor().is_aligned());
    // Dynamic rank, rank 0, empty, bool, strings.
    let d = TypedTensor::from_array(ArrayD::from_elem(IxDyn(&[1, 2, 1, 2, 1]), 7i64)).unwrap();
    assert_eq!(d.dims(), 5);
    assert_eq!(d[[0, 1, 0, 1, 0]], 7);
    let z = TypedTensor::from_array(Array::from_elem((), 3u16)).unwrap();
    assert_eq!((z.dims(), z[[]]), (0, 3));
    let e = TypedTensor::from_array(Array::<f32, _>::zeros((0, 3))).unwrap();
    assert_eq!(e.shape().dim_sizes(), vec![0, 3]);
    let b = TypedTensor::from_array(array![true, false]).unwrap();
    assert_eq!(b.as_slice(), &[true, false]);
    let strs = TypedTensor::from_array(array![Bytes::from("a"), Bytes::from("b")]).unwrap();
    assert_eq!(strs[[1]], "b");
}

// ----- indexing -----

/// For each listed shape: fill with flat indices, read every element by
/// `t[[..]]` and `get`, then write through `t[[..]] =` and `get_mut`.
macro_rules! check_rank {
    ($($shape:expr),* $(,)?) => {$({
        let shape: &[usize] = &$shape;
        let dims: Vec<i64> = shape.iter().map(|&d| d as i64).collect();
        let mut t = TypedTensor::from_fn(dims, |i| i as i64).unwrap();
        let n = t.len();
        let mut idx = [0usize; { $shape.len() }];
        for flat in 0..n {
            // Row-major coordinates of `flat`.
            let mut rest = flat;
            for d in (0..shape.len()).rev() {
                idx[d] = rest % shape[d];
                rest /= shape[d];
            }
            assert_eq!(t[idx], flat as i64, "{idx:?}");
            assert_eq!(t.get(&idx), Some(&(flat as i64)));
            t[idx] = -(flat as i64);
            *t.get_mut(&idx).unwrap() *= 10;
        }
        let expected: Vec<i64> = (0..n as i64).map(|i| -10 * i).collect();
        assert_eq!(t.as_slice(), &expected[..]);
        // One past the end in the last dimension, and one index too many.
        let mut bad = idx;
        bad[shape.len() - 1] = shape[shape.len() - 1];
        assert_eq!(t.get(&bad), None);
        assert!(t.get_mut(&bad).is_none());
        let mut longer = idx.to_vec();
        longer.push(0);
        assert_eq!(t.get(&longer), None);
        assert_eq!(t.get(&idx[1..]), None);
    })*};
}

#[test]
fn index_reads_and_writes_at_ranks_1_to_8() {
    check_rank!(
        [5],
        [3, 4],
        [2, 3, 4],
        [2, 1, 3, 2],
        [1, 2, 3, 2, 2],
        [2, 1, 2, 1, 3, 2],
        [1, 2, 2, 1, 2, 1, 3],
        [2, 1, 2, 1, 2, 1, 2, 3],
    );
}

#[test]
fn index_scalar_and_high_rank() {
    let mut s = TypedTensor::from_vec(TensorShape::scalar(), vec![4.5f32]).unwrap();
    assert_eq!(s[[]], 4.5);
    s[[]] = 1.0;
    assert_eq!(s.get(&[]), Some(&1.0));
    assert_eq!(s.get(&[0]), None);
    // Const-generic indexing is not limited to 8 dims.
    let mut t = TypedTensor::<u8>::new([1, 1, 1, 1, 1, 1, 1, 1, 1, 2]).unwrap();
    t[[0, 0, 0, 0, 0, 0, 0, 0, 0, 1]] = 9;
    assert_eq!(t.as_slice(), &[0, 9]);
}

#[test]
#[should_panic(expected = "index [2, 0] out of range for TypedTensor of shape [2,3]")]
fn index_out_of_range_panics() {
    let t = TypedTensor::<i32>::new([2, 3]).unwrap();
    let _ = t[[2, 0]];
}

#[test]
#[should_panic(expected = "index [0] has 1 dims but the TypedTensor of shape [2,3] has 2")]
fn index_of_wrong_rank_panics() {
    let t = TypedTensor::<i32>::new([2, 3]).unwrap();
    let _ = t[[0]];
}

#[test]
#[should_panic(expected = "index [0, 3] out of range for TypedTensor of shape [2,3]")]
fn index_mut_out_of_range_panics() {
    let mut t = TypedTensor::<i32>::new([2, 3]).unwrap();
    t[[0, 3]] = 1;
}

#[test]
#[should_panic(expected = "index [0, 0, 0] has 3 dims but the TypedTensor of shape [] has 0")]
fn index_of_a_scalar_with_coordinates_panics() {
    let t = TypedTensor::from_vec(TensorShape::scalar(), vec![1u8]).unwrap();
    let _ = t[[0, 0, 0]];
}

#[test]
fn index_mut_copies_on_write_when_shared() {
    let mut a = TypedTensor::from_fn([N as i64], |i| i as f32).unwrap();
    let b = a.clone();
    assert!(a.as_tensor().shares_buffer_with(b.as_tensor()));
    let (bytes, ()) = allocated(|| a[[0]] = -1.0);
    assert_copied(bytes, N * 4);
    assert!(!a.as_tensor().shares_buffer_with(b.as_tensor()));
    assert_eq!((a[[0]], b[[0]]), (-1.0, 0.0));
    // Unique now: in place.
    let p = ptr(&a);
    let (bytes, ()) = allocated(|| a[[1]] = -2.0);
    assert_eq!(bytes, 0);
    assert_eq!(ptr(&a), p);
    // get_mut copies on write too.
    let mut c = b.clone();
    *c.get_mut(&[2]).unwrap() = 5.0;
    assert_eq!((b[[2]], c[[2]]), (2.0, 5.0));
}

#[test]
fn bool_elements_index_and_write() {
    let mut t = TypedTensor::<bool>::new([2, 2]).unwrap();
    t[[1, 0]] = true;
    *t.get_mut(&[0, 1]).unwrap() = true;
    assert_eq!(t.as_slice(), &[false, true, true, false]);
    assert_eq!(t.get(&[1, 1]), Some(&false));
}

#[test]
fn string_elements_index_and_write() {
    let mut t = TypedTensor::<Bytes>::new([2]).unwrap();
    let shared = t.clone();
    t[[1]] = Bytes::from_static(b"\x00\xff");
    assert_eq!(
        t.to_vec(),
        vec![Bytes::new(), Bytes::from_static(b"\x00\xff")]
    );
    assert_eq!(shared[[1]], Bytes::new());
    assert_eq!(t.get(&[2]), None);
}

// ----- data access -----

#[test]
fn as_slice_as_mut_slice_and_to_vec() {
    let mut t = TypedTensor::from_vec([2, 2], vec![1u16, 2, 3, 4]).unwrap();
    let (bytes, s) = allocated(|| t.as_slice().as_ptr());
    assert_eq!((bytes, s.cast::<u8>()), (0, ptr(&t)));
    let shared = t.clone();
    t.as_mut_slice().unwrap().reverse();
    assert_eq!(t.as_slice(), &[4, 3, 2, 1]);
    assert_eq!(shared.as_slice(), &[1, 2, 3, 4]);
    let (bytes, v) = allocated(|| t.to_vec());
    assert_eq!(v, vec![4, 3, 2, 1]);
    assert_eq!(bytes, 8);
}

#[test]
fn upload_checks_the_length() {
    let mut t = TypedTensor::<i64>::new([2, 2]).unwrap();
    let p = ptr(&t);
    t.upload(&[1, 2, 3, 4]).unwrap();
    assert_eq!(t.as_slice(), &[1, 2, 3, 4]);
    assert_eq!(ptr(&t), p, "unique: written in place");
    assert_eq!(t.upload(&[1, 2, 3]).unwrap_err().to_string(), "3 vs. 4");
    assert_eq!(t.upload(&[0; 5]).unwrap_err().to_string(), "5 vs. 4");
    assert_eq!(t.as_slice(), &[1, 2, 3, 4], "unchanged on error");
    let mut e = TypedTensor::<i64>::new([0]).unwrap();
    e.upload(&[]).unwrap();
    assert_eq!(e.upload(&[1]).unwrap_err().to_string(), "1 vs. 0");
}

#[test]
fn upload_into_a_shared_buffer_copies_once() {
    let mut a = TypedTensor::<f32>::new([N as i64]).unwrap();
    let b = a.clone();
    let data = vec![2.0f32; N];
    let (bytes, r) = allocated(|| a.upload(&data));
    r.unwrap();
    // One new buffer, not a copy-on-write copy followed by the upload.
    assert_copied(bytes, N * 4);
    assert!(!a.as_tensor().shares_buffer_with(b.as_tensor()));
    assert!(a.as_tensor().is_aligned());
    assert_eq!((a[[7]], b[[7]]), (2.0, 0.0));
    // Strings too.
    let mut s = TypedTensor::<Bytes>::new([1]).unwrap();
    let s2 = s.clone();
    s.upload(&[Bytes::from("x")]).unwrap();
    assert_eq!((s[[0]].as_ref(), s2[[0]].as_ref()), (&b"x"[..], &b""[..]));
}

// ----- reshape -----

#[test]
fn reshape_within_capacity_keeps_the_buffer() {
    let mut t = TypedTensor::from_fn([12], |i| i as i32).unwrap();
    let p = ptr(&t);
    let (bytes, r) = allocated(|| t.reshape([3, 4]));
    r.unwrap();
    assert!(bytes < SMALL, "{bytes}");
    assert_eq!(t[[2, 3]], 11);
    t.reshape([2, 3]).unwrap();
    assert_eq!((t.len(), t.capacity()), (6, 12));
    assert_eq!(t.as_slice(), &[0, 1, 2, 3, 4, 5]);
    t.reshape([0]).unwrap();
    assert!(t.is_empty());
    // Grows back over the same buffer.
    t.reshape([2, 2, 3]).unwrap();
    assert_eq!(t[[1, 1, 2]], 11);
    assert_eq!(ptr(&t), p);
    t.reshape(TensorShape::scalar()).unwrap();
    assert_eq!(t[[]], 0);
}

#[test]
fn reshape_beyond_capacity_fails_and_keeps_the_shape() {
    let mut t = TypedTensor::from_fn([2, 3], |i| i as u8).unwrap();
    assert_eq!(
        t.reshape([7]).unwrap_err().to_string(),
        "reshape to [7] needs 7 elements but the buffer holds 6"
    );
    assert_eq!(t.shape().dim_sizes(), vec![2, 3]);
    assert!(matches!(t.reshape([-3]), Err(Error::InvalidShape(_))));
    // No buffer: nothing beyond zero elements.
    let mut e = TypedTensor::<u8>::new([0]).unwrap();
    e.reshape([4, 0]).unwrap();
    assert!(e.reshape([1]).is_err());
}

#[test]
fn reshape_capacity_of_a_slice_and_after_copy_on_write() {
    let base = Tensor::from_vec([5, 2], (0..10).collect::<Vec<i16>>()).unwrap();
    // Issue 11, fault 2: a slice's capacity is its own region, never the
    // parent's rows after it.
    let mut t = TypedTensor::<i16>::try_from(base.slice(1, 3).unwrap()).unwrap();
    assert_eq!((t.len(), t.capacity()), (4, 4));
    assert!(matches!(t.reshape([8]), Err(Error::SizeMismatch { .. })));
    assert_eq!(t.as_slice(), &[2, 3, 4, 5]);
    t.reshape([2]).unwrap();
    t.reshape([4]).unwrap(); // back within its own region
    t.reshape([2]).unwrap();
    t[[0]] = 100; // shared with `base`: copies just the 2 elements
    assert_eq!(t.capacity(), 2);
    assert!(t.reshape([3]).is_err());
    assert_eq!(base.as_slice::<i16>().unwrap()[2], 2);
}

#[test]
fn reshape_cannot_reach_invalid_bool_bytes_beyond_the_region() {
    // A bool tensor over bytes [1, 7]: only its first element is valid.
    let bytes = Tensor::from_vec([2], vec![1u8, 7]).unwrap();
    let mut whole = Tensor::default();
    whole.bitcast_from(&bytes, DataType::Bool, [2]).unwrap();
    assert!(TypedTensor::<bool>::try_from(whole.clone()).is_err());
    let mut t = TypedTensor::<bool>::try_from(whole.slice(0, 1).unwrap()).unwrap();
    assert_eq!(t.capacity(), 1);
    assert!(matches!(t.reshape([2]), Err(Error::SizeMismatch { .. })));
    assert_eq!(t.shape().dim_sizes(), vec![1]);
    assert!(t[[0]]);
}

// ----- copies and views -----

#[test]
fn deep_copy_and_readback_and_clone_copy_once() {
    let a = TypedTensor::from_fn([N as i64], |i| i as f32).unwrap();
    for copy in [TypedTensor::deep_copy, TypedTensor::deep_copy] {
        let (bytes, b) = allocated(|| copy(&a).unwrap());
        assert_copied(bytes, N * 4);
        assert_eq!(b, a);
        assert!(!b.as_tensor().shares_buffer_with(a.as_tensor()));
        assert!(b.as_tensor().is_aligned());
    }
    let s = TypedTensor::try_from(vec![Bytes::from("q")]).unwrap();
    assert_eq!(s.deep_copy().unwrap()[[0]], "q");
}

#[test]
fn views_share_the_buffer() {
    let mut t = TypedTensor::from_fn([2, 3, 4], |i| i as u32).unwrap();
    let (bytes, v) = allocated(|| t.view().as_ptr());
    assert!(bytes < SMALL, "{bytes}");
    assert_eq!(v.cast::<u8>(), ptr(&t));
    assert_eq!(t.view().shape(), &[2, 3, 4]);
    assert_eq!(t.view()[[1, 2, 3]], 23);
    assert_eq!(t.tensor::<Ix3>().unwrap()[[1, 0, 2]], 14);
    assert_eq!(t.tensor::<IxDyn>().unwrap().ndim(), 3);
    assert_eq!(
        t.tensor::<Ix2>().unwrap_err(),
        Error::InvalidArgument(
            "Asking for tensor of 2 dimensions from a tensor of 3 dimensions".into()
        )
    );
    let shared = t.clone();
    t.view_mut().unwrap()[[0, 0, 0]] = 99;
    t.tensor_mut::<Ix3>().unwrap()[[1, 2, 3]] = 77;
    assert_eq!((t[[0, 0, 0]], t[[1, 2, 3]]), (99, 77));
    assert_eq!((shared[[0, 0, 0]], shared[[1, 2, 3]]), (0, 23));
    assert!(t.tensor_mut::<Ix1>().is_err());
    // Rank 0 and empty.
    let s = TypedTensor::from_vec(TensorShape::scalar(), vec![2.5f64]).unwrap();
    assert_eq!(s.tensor::<Ix0>().unwrap()[()], 2.5);
    assert_eq!(s.view().ndim(), 0);
    let e = TypedTensor::<f64>::new([3, 0]).unwrap();
    assert_eq!(e.view().shape(), &[3, 0]);
}

// ----- conversions -----

#[test]
fn tensor_conversions_are_free() {
    let t = Tensor::from_vec([N as i64], vec![1.0f32; N]).unwrap();
    let p = t.data_ptr().unwrap();
    let (bytes, typed) = allocated(|| TypedTensor::<f32>::try_from(t).unwrap());
    assert_eq!(bytes, 0);
    assert_eq!(ptr(&typed), p);
    let (bytes, back) = allocated(|| Tensor::from(typed.clone()));
    assert_eq!(bytes, 0);
    assert!(back.shares_buffer_with(typed.as_tensor()));
    let (bytes, back) = allocated(|| typed.into_tensor());
    assert_eq!(bytes, 0);
    assert_eq!(back.data_ptr(), Some(p));
    assert_eq!(back.dtype(), DataType::Float);
}

#[test]
fn try_from_checks_dtype_initialization_alignment_and_bools() {
    let i = Tensor::from_vec([2], vec![1i32, 2]).unwrap();
    assert_eq!(
        TypedTensor::<f32>::try_from(i.clone()).unwrap_err(),
        Error::DataTypeMismatch {
            expected: DataType::Float,
            actual: DataType::Int32
        }
    );
    assert_eq!(
        TypedTensor::<i32>::try_from(i).unwrap().to_vec(),
        vec![1, 2]
    );
    // Bytes 1..5 of a u8 tensor, seen as two u16: misaligned.
    let odd = common::at_odd_address(&[1, 0, 2, 0], DataType::UInt16, &[2]);
    assert!(matches!(
        TypedTensor::<u16>::try_from(odd),
        Err(Error::Misaligned { .. })
    ));
    // An invalid bool byte.
    let mut b = Tensor::default();
    b.bitcast_from(
        &Tensor::from_vec([1], vec![2u8]).unwrap(),
        DataType::Bool,
        [1],
    )
    .unwrap();
    assert_eq!(
        TypedTensor::<bool>::try_from(b).unwrap_err(),
        Error::InvalidArgument("bool elements must be 0 or 1".into())
    );
    // Non-POD and empty tensors.
    assert_eq!(
        TypedTensor::<Bytes>::try_from(Tensor::from("hi")).unwrap()[[]],
        "hi"
    );
    assert!(
        TypedTensor::<f32>::try_from(Tensor::default())
            .unwrap()
            .is_empty()
    );
}

#[test]
fn into_array_hands_over_a_unique_vec() {
    let v: Vec<f32> = (0..N).map(|i| i as f32).collect();
    let p = v.as_ptr();
    let t = TypedTensor::from_vec([N as i64 / 8, 8], v).unwrap();
    let (bytes, a) = allocated(|| t.into_array());
    assert!(bytes < SMALL, "{bytes}");
    assert_eq!(a.as_ptr(), p);
    assert_eq!(a.shape(), &[N / 8, 8]);
    assert_eq!(a[[1, 0]], 8.0);
    // Round trip through from_array, both ways free.
    let p = a.as_ptr();
    let (bytes, a) = allocated(|| TypedTensor::from_array(a).unwrap().into_array());
    assert!(bytes < SMALL, "{bytes}");
    assert_eq!(a.as_ptr(), p);
    // A From<Vec> buffer too.
    let w = vec![3u64; 4];
    let p = w.as_ptr();
    assert_eq!(TypedTensor::try_from(w).unwrap().into_array().as_ptr(), p);
}

#[test]
fn into_array_copies_once_otherwise() {
    let copies = |t: TypedTensor<f32>| {
        let (bytes, a) = allocated(|| t.into_array());
        assert_copied(bytes, a.len() * 4);
        a
    };
    // An aligned buffer from `new`.
    let a = copies(TypedTensor::<f32>::new([N as i64]).unwrap());
    assert_eq!(a.shape(), &[N]);
    // Shared with a live clone (which keeps its data).
    let t = TypedTensor::from_fn([N as i64], |i| i as f32).unwrap();
    let keep = t.clone();
    assert_eq!(copies(t)[[5]], 5.0);
    assert_eq!(keep[[5]], 5.0);
    // Reshaped smaller than its Vec.
    let mut t = TypedTensor::from_fn([N as i64], |i| i as f32).unwrap();
    t.reshape([N as i64 / 2]).unwrap();
    assert_eq!(copies(t).len(), N / 2);
    // A Vec<u32> seen as f32 through a bitcast: copied, not lost.
    let u = Tensor::from_vec([N as i64], vec![0x3f80_0000u32; N]).unwrap();
    let mut f = Tensor::default();
    f.bitcast_from(&u, DataType::Float, [N as i64]).unwrap();
    drop(u);
    let a = copies(TypedTensor::try_from(f).unwrap());
    assert!(a.iter().all(|&x| x == 1.0));
    // Strings and bool are always copied; empty and scalar shapes survive.
    let s = TypedTensor::try_from(vec![Bytes::from("a"), Bytes::from("b")])
        .unwrap()
        .into_array();
    assert_eq!(s[[1]], "b");
    let b = TypedTensor::try_from(vec![true, false])
        .unwrap()
        .into_array();
    assert_eq!(b.as_slice().unwrap(), &[true, false]);
    assert_eq!(
        TypedTensor::<f32>::new([2, 0])
            .unwrap()
            .into_array()
            .shape(),
        &[2, 0]
    );
    let z = TypedTensor::from_vec(TensorShape::scalar(), vec![9i8])
        .unwrap()
        .into_array();
    assert_eq!((z.ndim(), z[IxDyn(&[])]), (0, 9));
}

#[test]
fn from_vec_is_one_dimensional_and_free() {
    let v = vec![1i32; N];
    let p = v.as_ptr().cast::<u8>();
    let (bytes, t) = allocated(|| TypedTensor::try_from(v).unwrap());
    assert!(bytes < SMALL, "{bytes}");
    assert_eq!(ptr(&t), p);
    assert_eq!(t.shape().dim_sizes(), vec![N as i64]);
    let e = TypedTensor::try_from(Vec::<f32>::new()).unwrap();
    assert_eq!(e.shape().dim_sizes(), vec![0]);
    // bool is copied into bytes.
    let bools = vec![true; N];
    let (bytes, b) = allocated(|| TypedTensor::try_from(bools).unwrap());
    assert_copied(bytes, N);
    assert!(b[[N - 1]]);
}

// ----- traits -----

#[test]
fn clone_shares_and_eq_compares_bits() {
    let a = TypedTensor::from_vec([2], vec![f32::NAN, 0.0]).unwrap();
    let (bytes, b) = allocated(|| a.clone());
    assert!(bytes < SMALL, "{bytes}");
    assert!(b.as_tensor().shares_buffer_with(a.as_tensor()));
    assert_eq!(a, b);
    assert_eq!(a, a.deep_copy().unwrap());
    assert_ne!(a, TypedTensor::from_vec([2], vec![f32::NAN, -0.0]).unwrap());
    assert_ne!(
        a,
        TypedTensor::from_vec([2, 1], vec![f32::NAN, 0.0]).unwrap()
    );
}

#[test]
fn debug_shows_dtype_shape_and_the_first_elements() {
    let t = TypedTensor::from_vec([2, 2], vec![1.5f32, 2.0, 3.0, 4.0]).unwrap();
    assert_eq!(
        format!("{t:?}"),
        "TypedTensor { dtype: float, shape: [2,2], data: [1.5, 2.0, 3.0, 4.0] }"
    );
    let long = TypedTensor::from_fn([3, 3], |i| i as i8).unwrap();
    assert_eq!(
        format!("{long:?}"),
        "TypedTensor { dtype: int8, shape: [3,3], data: [0, 1, 2, 3, 4, 5, 6, 7, ..] }"
    );
    let s = TypedTensor::try_from(vec![Bytes::from("ab")]).unwrap();
    assert_eq!(
        format!("{s:?}"),
        "TypedTensor { dtype: string, shape: [1], data: [b\"ab\"] }"
    );
    let e = TypedTensor::<u8>::new([0]).unwrap();
    assert_eq!(
        format!("{e:?}"),
        "TypedTensor { dtype: uint8, shape: [0], data: [] }"
    );
}

#[test]
fn typed_tensors_are_send_and_sync() {
    fn send_sync<X: Send + Sync>() {}
    send_sync::<TypedTensor<f32>>();
    send_sync::<TypedTensor<Bytes>>();
    send_sync::<TypedTensor<tftensor::Variant>>();
    let t = TypedTensor::from_fn([4], |i| i as u8).unwrap();
    let sum = std::thread::spawn(move || t.as_slice().iter().map(|&x| u32::from(x)).sum::<u32>())
        .join()
        .unwrap();
    assert_eq!(sum, 6);
}

#[test]
fn queries_report_the_logical_shape() {
    let t = TypedTensor::<i8>::new([2, 3, 4]).unwrap();
    assert_eq!(t.dtype(), DataType::Int8);
    assert_eq!(t.shape().to_string(), "[2,3,4]");
    assert_eq!(
        (t.dims(), t.len(), t.is_empty(), t.capacity()),
        (3, 24, false, 24)
    );
    assert_eq!(
        TypedTensor::<tftensor::QInt8>::new([1]).unwrap().dtype(),
        DataType::QInt8
    );
    assert_eq!(
        TypedTensor::<half::bf16>::new([1]).unwrap().dtype(),
        DataType::BFloat16
    );
}

#[test]
fn from_slice_takes_tensor_from_slice_arguments() {
    // Same arguments and contract as `Tensor::from_slice`.
    let t = TypedTensor::from_slice([2, 2], &[1u16, 2, 3, 4]).unwrap();
    assert_eq!(
        t.as_tensor(),
        &Tensor::from_slice([2, 2], &[1u16, 2, 3, 4]).unwrap()
    );
    assert!(t.as_tensor().is_aligned());
    assert_eq!(
        TypedTensor::from_slice([2, 2], &[1u16, 2, 3, 4, 5]).unwrap_err(),
        Tensor::from_slice([2, 2], &[1u16, 2, 3, 4, 5]).unwrap_err()
    );
    // Sentis' start index is `from_slice_at`, which ignores what follows.
    let s = TypedTensor::from_slice_at([2], &[9u16, 1, 2, 9], 1).unwrap();
    assert_eq!(s.as_slice(), &[1, 2]);
}

#[test]
fn tensor_is_tensors_fixed_rank_view() {
    let t = TypedTensor::from_fn([2, 3], |i| i as i32).unwrap();
    let u = t.as_tensor();
    assert_eq!(t.tensor::<Ix2>().unwrap(), u.tensor::<i32, Ix2>().unwrap());
    assert_eq!(
        t.tensor::<Ix1>().unwrap_err(),
        u.tensor::<i32, Ix1>().unwrap_err()
    );
    assert_eq!(t.view(), u.tensor::<i32, IxDyn>().unwrap());
}

#[test]
fn new_zero_fills_and_shapes_take_usize_and_unit() {
    let t = TypedTensor::<u64>::new([2usize, 3]).unwrap();
    assert_eq!(t.as_slice(), &[0; 6]);
    let v = TypedTensor::<i8>::new(vec![4usize]).unwrap();
    assert_eq!(v.as_slice(), &[0; 4]);
    let mut s = TypedTensor::from_vec((), vec![1.5f32]).unwrap();
    assert_eq!(s.dims(), 0);
    s.reshape([1usize, 1]).unwrap();
    assert_eq!(s[[0, 0]], 1.5);
}

#[test]
fn flat_index_whatever_the_rank() {
    let mut t = TypedTensor::from_fn([2, 3], |i| i as i32).unwrap();
    assert_eq!(t[4], 4);
    assert_eq!(t[[1, 1]], 4);
    let shared = t.clone();
    t[5] = 50;
    assert_eq!(t[[1, 2]], 50);
    assert_eq!(shared[5], 5);
    let sum: i32 = (0..t.len()).map(|i| t[i]).sum();
    assert_eq!(sum, 1 + 2 + 3 + 4 + 50);
    let r = std::panic::catch_unwind(|| shared[6]);
    assert!(r.is_err());
}
