//! Writing through borrowed sub-tensors (`slice_mut`, `sub_slice_mut`,
//! `split_at_mut`, `chunks_mut`): the parent is made unique once, then
//! every `TensorMut` writes into that one buffer.

use bytes::Bytes;
use tftensor::{DataType, Tensor};

#[test]
fn disjoint_writers_share_one_copy_on_write() {
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

/// `TensorMut` slices rows exactly as `Tensor` does (one region operation
/// behind both): the same shapes, the same bytes, the same errors, TF's
/// `SubSlice(dim0)` included when no memory is needed.
#[test]
fn sub_tensors_match_the_shared_slices() {
    let mut t = Tensor::from_vec([4, 3], (0..12).collect::<Vec<i32>>()).unwrap();
    let reader = t.clone();
    for (start, limit) in [(0, 4), (1, 3), (2, 2), (4, 4)] {
        let shared = reader.slice(start, limit).unwrap();
        let m = t.slice_mut(start, limit).unwrap();
        assert_eq!(m.shape(), shared.shape());
        assert_eq!(
            m.as_slice::<i32>().unwrap(),
            shared.as_slice::<i32>().unwrap()
        );
    }
    for index in 0..4 {
        let shared = reader.sub_slice(index).unwrap();
        let m = t.sub_slice_mut(index).unwrap();
        assert_eq!(
            m.as_slice::<i32>().unwrap(),
            shared.as_slice::<i32>().unwrap()
        );
    }
    for bad in [-1, 4, 5] {
        let Err(err) = t.sub_slice_mut(bad) else {
            panic!("sub_slice_mut({bad}) of a [4, 3] tensor");
        };
        assert_eq!(
            err.to_string(),
            reader.sub_slice(bad).unwrap_err().to_string()
        );
    }
    // Inner size 0: SubSlice(dim0) is allowed, and holds nothing.
    let mut e = Tensor::new(DataType::Float, [3, 0]).unwrap();
    assert_eq!(e.sub_slice(3).unwrap().num_elements(), 0);
    assert!(
        e.sub_slice_mut(3)
            .unwrap()
            .as_slice::<f32>()
            .unwrap()
            .is_empty()
    );
    // Dim 0 of 0: the sub-slice has no buffer, as TF's.
    let mut z = Tensor::new(DataType::Float, [0, 2]).unwrap();
    assert!(!z.sub_slice(0).unwrap().is_initialized());
    let err = z.sub_slice_mut(0).unwrap().as_slice::<f32>().unwrap_err();
    assert_eq!(
        err.to_string(),
        "uninitialized Tensor of 2 elements of type 1"
    );
}

/// String, resource and variant roots count offsets in bytes too: a
/// slice's elements, its copy-on-write and its address agree with the
/// element positions.
#[test]
fn typed_roots_slice_and_copy_at_element_boundaries() {
    let words: Vec<Bytes> = ["a", "b", "c", "d"].into_iter().map(Bytes::from).collect();
    let t = Tensor::from_vec([4], words).unwrap();
    let mut s = t.slice(1, 3).unwrap();
    assert_eq!(s.as_slice::<Bytes>().unwrap(), &["b", "c"][..]);
    let base = t.data_ptr().unwrap() as usize;
    assert_eq!(
        s.data_ptr().unwrap() as usize,
        base + std::mem::size_of::<Bytes>()
    );
    s.as_mut_slice::<Bytes>().unwrap()[1] = Bytes::from("z");
    assert_eq!(s.as_slice::<Bytes>().unwrap(), &["b", "z"][..]);
    assert_eq!(t.as_slice::<Bytes>().unwrap(), &["a", "b", "c", "d"][..]);
    assert_eq!(s.deep_copy().unwrap(), s);
    assert_eq!(s.total_bytes(), 2 * 24 + 2);
}
