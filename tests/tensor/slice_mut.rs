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
