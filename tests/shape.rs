//! Shapes as arguments and as values: `TensorShape` inferred from arrays,
//! vectors, slices and other shapes, `dim_size`, and `PartialTensorShape`'s
//! unknown dims, printing and merging.

use tftensor::{DataType, Error, PartialTensorShape, Tensor, TensorShape};

#[test]
fn shape_conversions_infer_from_literals() {
    let t = Tensor::new(DataType::Int8, [2, 3]).unwrap();
    assert_eq!(t.shape(), &TensorShape::new(&[2, 3]).unwrap());
    let v: Vec<i64> = vec![4, 5];
    assert_eq!(Tensor::new(DataType::Int8, &v).unwrap().num_elements(), 20);
    assert_eq!(
        Tensor::new(DataType::Int8, &[6usize][..])
            .unwrap()
            .num_elements(),
        6
    );
    assert_eq!(
        Tensor::new(DataType::Int8, t.shape())
            .unwrap()
            .num_elements(),
        6
    );
    assert_eq!(t.dim_size(1).unwrap(), 3);
    assert!(matches!(t.dim_size(2), Err(Error::OutOfRange(_))));
    assert!(t.is_same_size(&Tensor::new(DataType::Float, [2, 3]).unwrap()));
}

#[test]
fn partial_shapes() {
    let p = PartialTensorShape::new(&[-1, 3]).unwrap();
    assert_eq!(p.to_string(), "[?,3]");
    assert!(!p.is_fully_defined());
    assert_eq!(PartialTensorShape::default().to_string(), "<unknown>");
    let m = p
        .merge_with(&PartialTensorShape::new(&[2, -1]).unwrap())
        .unwrap();
    assert_eq!(m.to_tensor_shape().unwrap().to_string(), "[2,3]");
    assert_eq!(
        p.merge_with(&PartialTensorShape::new(&[2]).unwrap())
            .unwrap_err()
            .to_string(),
        "PartialTensorShape: Incompatible ranks during merge: 2 vs. 1"
    );
}

/// Rank 6 with dims below 2^16 (TF's Rep16): every query and a view see
/// all six dims. That it stays inline (0 bytes) is asserted in
/// `tests/memory.rs`, which has the counting allocator.
#[test]
fn rank6_small_dims_round_trip() {
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
