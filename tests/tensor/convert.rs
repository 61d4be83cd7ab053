//! `Tensor` to and from `Vec<T>` and ndarray arrays: zero-copy when the
//! buffer is a unique adopted `Vec`, one copy when it is shared.

use bytes::Bytes;
use tftensor::Tensor;
use tftensor::ndarray::{Array2, ArrayD, IxDyn, array};

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
