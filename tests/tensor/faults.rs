//! Issue 11 (core v2): one test per fault the issue lists, each of which
//! failed before the fix, plus the new conversions and `TensorMut`.

use std::panic::{RefUnwindSafe, UnwindSafe};

use bytes::Bytes;
use tftensor::ndarray::{array, Array2, ArrayD, Ix1, Ix2, Ix3, IxDyn};
use tftensor::{DataType, Error, Tensor, TensorShape, TypedTensor};

/// The repro: `[0,0,0,0x80,0x3f]` as uint8, `.slice(1,5)`, bitcast
/// to float `[1]`: the float sits at an odd address.
fn misaligned_float() -> Tensor {
    let bytes = Tensor::from_vec([5], vec![0u8, 0, 0, 0x80, 0x3f]).unwrap();
    let mut f = Tensor::default();
    f.bitcast_from(&bytes.slice(1, 5).unwrap(), DataType::Float, [1])
        .unwrap();
    f
}

/// Two uint64 values, 1 and 2, at an odd address.
fn misaligned_u64() -> Tensor {
    let mut raw = vec![0u8; 17];
    raw[1] = 1;
    raw[9] = 2;
    let bytes = Tensor::from_vec([17], raw).unwrap();
    let mut u = Tensor::default();
    u.bitcast_from(&bytes.slice(1, 17).unwrap(), DataType::UInt64, [2])
        .unwrap();
    u
}

// ----- fault 1: misaligned element data prints its values -----

#[test]
fn fault1_misaligned_data_prints_values() {
    let f = misaligned_float();
    assert!(matches!(f.flat::<f32>(), Err(Error::Misaligned { .. })));
    assert_eq!(f.summarize_value(-1, false), "1");
    assert_eq!(f.debug_string(), "Tensor<type: float shape: [1] values: 1>");
    assert_eq!(f.to_string(), "Tensor<type: float shape: [1] values: 1>");

    let u = misaligned_u64();
    assert_eq!(u.summarize_value(-1, false), "1 2");
    assert_eq!(u.summarize_value(-1, true), "[1 2]");
    assert_eq!(u.to_string(), "Tensor<type: uint64 shape: [2] values: 1 2>");
}

#[test]
fn fault1_unaligned_accessors_are_cow_arrays() {
    let u = misaligned_u64();
    let flat = u.unaligned_flat::<u64>().unwrap();
    assert!(flat.is_owned(), "misaligned data: one aligned copy");
    assert_eq!(flat.to_vec(), vec![1, 2]);
    let shaped = u.unaligned_shaped::<u64, Ix2>(&[2, 1]).unwrap();
    assert!(shaped.is_owned());
    assert_eq!(shaped[[1, 0]], 2);
    // Aligned data: a view over the buffer itself, no copy.
    let t = Tensor::from_vec([2], vec![1u64, 2]).unwrap();
    let v = t.unaligned_flat::<u64>().unwrap();
    assert!(v.is_view());
    assert_eq!(v.as_ptr().cast::<u8>(), t.data_ptr().unwrap());
    // The checks stay: dtype and element count.
    assert!(u.unaligned_flat::<i64>().is_err());
    assert!(u.unaligned_shaped::<u64, Ix1>(&[3]).is_err());
    // A write copies the misaligned region into an aligned buffer first.
    let mut w = misaligned_u64();
    w.flat_mut::<u64>().unwrap()[1] = 7;
    assert_eq!(w.as_slice::<u64>().unwrap(), &[1, 7]);
}

// ----- fault 2: a slice's typed facade stays inside the slice -----

#[test]
fn fault2_typed_slice_cannot_reach_the_parent() {
    let parent = Tensor::from_vec([10, 1], (0..10).collect::<Vec<i32>>()).unwrap();
    let mut t = TypedTensor::<i32>::try_from(parent.slice(2, 4).unwrap()).unwrap();
    assert_eq!(t.capacity(), 2);
    assert!(matches!(t.reshape([8]), Err(Error::SizeMismatch { .. })));
    assert_eq!(t.as_slice(), &[2, 3]);
    // Plain tensors: no view may read past the region either.
    let s = parent.slice(2, 4).unwrap();
    assert!(s.bit_casted_shaped::<i32, Ix1>(&[8]).is_err());
}

// ----- fault 3: flat_inner_dims of a scalar -----

#[test]
fn fault3_flat_inner_dims_of_a_scalar_pads_with_ones() {
    let t = Tensor::from(5.0f32);
    assert_eq!(t.flat_inner_dims::<f32, Ix2>().unwrap().shape(), &[1, 1]);
    assert_eq!(t.flat_inner_dims::<f32, Ix1>().unwrap().shape(), &[1]);
    assert_eq!(t.flat_inner_dims::<f32, Ix3>().unwrap()[[0, 0, 0]], 5.0);
    let mut m = Tensor::from(1i32);
    m.flat_inner_dims_mut::<i32, Ix2>().unwrap()[[0, 0]] = 3;
    assert_eq!(m.scalar::<i32>().unwrap()[()], 3);
}

// ----- fault 4: fill_description of strings counts sizeof(tstring) -----

#[test]
fn fault4_string_description_counts_24_bytes_per_string() {
    let t = Tensor::from_vec([2], vec![Bytes::from("a"), Bytes::from("bc")]).unwrap();
    assert_eq!(t.allocation_description().unwrap().requested_bytes, 48);
    let d = t.fill_description();
    assert_eq!(
        d.allocation_description.unwrap().requested_bytes,
        48,
        "TF: 2 * sizeof(tstring)"
    );
    // POD tensors are unchanged: their bytes.
    let f = Tensor::new(DataType::Float, [3]).unwrap();
    assert_eq!(f.allocation_description().unwrap().requested_bytes, 12);
}

// ----- fault 5: writing through slices (TF's Slice_Basic) -----

/// TF's `TensorSliceTest.Slice_Basic` (tensor_test.cc): fill a tensor
/// through its slices, then check slices of it share that buffer.
#[test]
fn fault5_port_of_tf_slice_basic() {
    let saved;
    {
        let mut x = Tensor::new(DataType::Float, [10, 4, 34]).unwrap();
        // Fills in known values, through slices that write into `x`.
        for i in 0..10 {
            x.slice_mut(i, i + 1)
                .unwrap()
                .flat_mut::<f32>()
                .unwrap()
                .fill(i as f32);
        }
        // A simple slice along dim0.
        let y = x.slice(4, 8).unwrap();
        assert!(y
            .shape()
            .is_same_size(&TensorShape::new(&[4, 4, 34]).unwrap()));
        let tx = x.tensor::<f32, Ix3>().unwrap();
        let ty = y.tensor::<f32, Ix3>().unwrap();
        for i in 0..4 {
            for j in 0..4 {
                for k in 0..34 {
                    assert_eq!(ty[[i, j, k]], 4.0 + i as f32);
                    assert!(std::ptr::eq(&tx[[4 + i, j, k]], &ty[[i, j, k]]));
                }
            }
        }
        // A simple slice equal to the original.
        let y = x.slice(0, 10).unwrap();
        assert_eq!(x, y);
        assert_eq!(
            x.flat::<f32>().unwrap().as_ptr(),
            y.flat::<f32>().unwrap().as_ptr()
        );
        // A slice of a slice.
        let z = x.slice(4, 8).unwrap().slice(2, 3).unwrap();
        let tz = z.tensor::<f32, Ix3>().unwrap();
        for j in 0..4 {
            for k in 0..34 {
                assert_eq!(tz[[0, j, k]], 6.0);
            }
        }
        saved = z.clone();
    }
    // `x` is gone; `saved` keeps the buffer alive.
    assert_eq!(saved.dim_size(0).unwrap(), 1);
    assert!(saved
        .tensor::<f32, Ix3>()
        .unwrap()
        .iter()
        .all(|&v| v == 6.0));
    // Empty.
    let x = Tensor::new(DataType::Float, [10, 0, 34]).unwrap();
    let y = x.slice(4, 8).unwrap();
    assert!(y
        .shape()
        .is_same_size(&TensorShape::new(&[4, 0, 34]).unwrap()));
    // Unaligned access through a slice, written into the parent.
    let mut x = Tensor::new(DataType::Float, [30]).unwrap();
    {
        let mut y = x.slice_mut(1, 13).unwrap();
        y.flat_mut::<f32>().unwrap().fill(1.0);
        assert!(y.flat::<f32>().unwrap().iter().all(|&v| v == 1.0));
    }
    assert!(!x.slice(1, 13).unwrap().is_aligned());
    let fx = x.flat::<f32>().unwrap();
    assert_eq!(fx[0], 0.0);
    assert!(fx.iter().skip(1).take(12).all(|&v| v == 1.0));
    assert_eq!(fx[13], 0.0);
}

#[test]
fn fault5_disjoint_writers_and_copy_on_write_once() {
    let mut t = Tensor::from_vec([6, 2], vec![0u16; 12]).unwrap();
    let reader = t.clone();
    // Shared: the first mutable borrow copies once; all chunks write into
    // that one copy.
    for (i, mut c) in t.chunks_mut(4).unwrap().enumerate() {
        c.flat_mut::<u16>().unwrap().fill(i as u16 + 1);
    }
    assert!(!t.shares_buffer_with(&reader));
    assert_eq!(
        t.as_slice::<u16>().unwrap(),
        &[1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2]
    );
    assert!(reader.as_slice::<u16>().unwrap().iter().all(|&v| v == 0));
    // Unique now: no further copy.
    let p = t.data_ptr();
    {
        let (mut a, mut b) = t.split_at_mut(3).unwrap();
        a.sub_slice_mut(0).unwrap().vec_mut::<u16>().unwrap()[0] = 9;
        b.matrix_mut::<u16>().unwrap()[[2, 1]] = 8;
        assert_eq!(a.shape().dim_sizes(), vec![3, 2]);
        assert!(a.matrix::<u16>().is_ok());
    }
    assert_eq!(t.data_ptr(), p);
    assert_eq!(t.as_slice::<u16>().unwrap()[0], 9);
    assert_eq!(t.as_slice::<u16>().unwrap()[11], 8);
    // Errors: dtype, range, scalar.
    assert!(t.slice_mut(0, 1).unwrap().flat_mut::<i16>().is_err());
    assert!(t.slice_mut(2, 7).is_err());
    assert!(t.sub_slice_mut(6).is_err());
    assert!(t.chunks_mut(0).is_err());
    assert!(Tensor::from(1u8).slice_mut(0, 1).is_err());
    // Strings write in place too.
    let mut s = Tensor::new(DataType::String, [3]).unwrap();
    s.sub_slice_mut(1).unwrap().scalar_mut::<Bytes>().unwrap()[()] = Bytes::from("x");
    assert_eq!(s.as_slice::<Bytes>().unwrap()[1], "x");
}

// ----- fault 6: flat indexing on TypedTensor -----

#[test]
fn fault6_flat_index_whatever_the_rank() {
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

// ----- fault 7: copy_from is must_use (a compile_fail doctest on it) -----

// ----- fault 8: unwind safety -----

#[test]
fn fault8_tensors_are_unwind_safe() {
    fn check<T: UnwindSafe + RefUnwindSafe>() {}
    check::<Tensor>();
    check::<TypedTensor<f32>>();
    check::<TypedTensor<Bytes>>();
    check::<TypedTensor<tftensor::Variant>>();
    let t = Tensor::from(1.0f32);
    let r = std::panic::catch_unwind(|| t.scalar::<f32>().unwrap()[()]);
    assert_eq!(r.unwrap(), 1.0);
}

// ----- fault 9: rank-6 shapes with small dims stay inline -----
// (asserted as 0 bytes allocated in tests/memory.rs and in shape.rs)

#[test]
fn fault9_rank6_shape_round_trips() {
    let s = TensorShape::new(&[2, 3, 4, 5, 6, 7]).unwrap();
    assert_eq!(std::mem::size_of::<TensorShape>(), 24);
    assert_eq!(s.dim_sizes(), vec![2, 3, 4, 5, 6, 7]);
    assert_eq!(s.num_elements(), 5040);
    let t = Tensor::new(DataType::Int8, &s).unwrap();
    assert_eq!(
        t.tensor::<i8, tftensor::ndarray::IxDyn>().unwrap().shape(),
        &[2, 3, 4, 5, 6, 7]
    );
    assert_eq!(
        t.sub_slice(1).unwrap().shape().dim_sizes(),
        vec![3, 4, 5, 6, 7]
    );
}

// ----- conversions -----

#[test]
fn vec_and_array_conversions() {
    let v = vec![1.5f32, 2.5, 3.5, 4.5];
    let p = v.as_ptr();
    let t = Tensor::from_vec([2, 2], v).unwrap();
    let back = Vec::<f32>::try_from(t).unwrap();
    assert_eq!(back.as_ptr(), p);
    // Shared: copied.
    let t = Tensor::from_vec([4], back).unwrap();
    let u = t.clone();
    let copy = Vec::<f32>::try_from(t).unwrap();
    assert_ne!(copy.as_ptr(), u.data_ptr().unwrap().cast());
    // ArrayD, zero-copy.
    let a: Array2<i64> = array![[1, 2], [3, 4]];
    let p = a.as_ptr();
    let t = Tensor::from(a);
    let d = ArrayD::<i64>::try_from(t).unwrap();
    assert_eq!(d.as_ptr(), p);
    assert_eq!(d.shape(), &[2, 2]);
    let t = Tensor::try_from(d).unwrap();
    assert_eq!(t.shape().dim_sizes(), vec![2, 2]);
    assert!(ArrayD::<i32>::try_from(t).is_err());
    // Strings and bools too.
    let s = Tensor::from(array![Bytes::from("a"), Bytes::from("b")]);
    assert_eq!(Vec::<Bytes>::try_from(s).unwrap(), vec!["a", "b"]);
    let b = Tensor::from(array![[true], [false]]);
    assert_eq!(
        ArrayD::<bool>::try_from(b).unwrap(),
        ArrayD::from_shape_vec(IxDyn(&[2, 1]), vec![true, false]).unwrap()
    );
}
