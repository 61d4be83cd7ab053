//! Shapes as arguments and as values: `TensorShape` inferred from arrays,
//! vectors, slices and other shapes, `dim_size`, and `PartialTensorShape`'s
//! unknown dims, printing and merging.

use std::collections::hash_map::DefaultHasher;
use std::fmt;
use std::hash::{Hash, Hasher};

use tftensor::{DataType, Error, MAX_DIMENSIONS, PartialTensorShape, Result, Tensor, TensorShape};

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

// ----- TensorShape and PartialTensorShape, one operation at a time -----

const BIG: i64 = 1 << 62;

fn ts(d: &[i64]) -> TensorShape {
    TensorShape::new(d).unwrap()
}

fn pts(d: &[i64]) -> PartialTensorShape {
    PartialTensorShape::new(d).unwrap()
}

fn shape_msg(r: Result<impl fmt::Debug>) -> String {
    match r {
        Err(Error::InvalidShape(m)) => m.to_string(),
        Err(Error::Overflow(m)) => m.to_string(),
        other => panic!("expected InvalidShape or Overflow, got {other:?}"),
    }
}

fn range_msg(r: Result<impl fmt::Debug>) -> String {
    match r {
        Err(Error::OutOfRange(m)) => m.to_string(),
        other => panic!("expected OutOfRange, got {other:?}"),
    }
}

fn arg_msg(r: Result<impl fmt::Debug>) -> String {
    match r {
        Err(Error::InvalidArgument(m)) => m,
        other => panic!("expected InvalidArgument, got {other:?}"),
    }
}

fn hash_of<T: Hash>(t: &T) -> u64 {
    let mut h = DefaultHasher::new();
    t.hash(&mut h);
    h.finish()
}

#[test]
fn max_dimensions() {
    assert_eq!(MAX_DIMENSIONS, 254);
}

#[test]
fn queries() {
    let s = ts(&[2, 3, 4]);
    assert_eq!(s.dims(), 3);
    assert_eq!(s.dim_size(0).unwrap(), 2);
    assert_eq!(s.dim_size(2).unwrap(), 4);
    assert_eq!(range_msg(s.dim_size(3)), "Index must be less than 3, got 3");
    assert_eq!(
        range_msg(TensorShape::scalar().dim_size(0)),
        "Index must be less than 0, got 0"
    );
    assert_eq!(s.dim_sizes(), vec![2, 3, 4]);
    assert_eq!(s.iter().collect::<Vec<_>>(), vec![2, 3, 4]);
    assert_eq!(s.iter().len(), 3);
    assert_eq!(s.iter().rev().collect::<Vec<_>>(), vec![4, 3, 2]);
    assert_eq!(s.num_elements(), 24);
    assert_eq!(s.first_dim(), Some(2));
    assert!(!s.is_scalar());
    assert_eq!(s.to_usize_vec(), vec![2usize, 3, 4]);
    assert_eq!(ts(&[3, 0, 5]).num_elements(), 0);
    // Heap representation answers the same way.
    let h = ts(&[1, 2, 1, 2, 1, 2, 1]);
    assert_eq!(h.dims(), 7);
    assert_eq!(h.dim_size(6).unwrap(), 1);
    assert_eq!(range_msg(h.dim_size(7)), "Index must be less than 7, got 7");
    assert_eq!(h.num_elements(), 8);
    assert_eq!(h.iter().len(), 7);
}

#[test]
fn equality_and_hash() {
    let a = ts(&[2, 3]);
    assert_eq!(a, ts(&[2, 3]));
    assert_ne!(a, ts(&[3, 2]));
    assert_ne!(a, ts(&[2, 3, 1]));
    assert!(a.is_same_size(&ts(&[2, 3])));
    assert!(!a.is_same_size(&ts(&[2])));
    // Same dims reached through different histories hash equally.
    let mut b = ts(&[2, 3, 9, 9, 9, 9, 9]);
    b.remove_last_dims(5).unwrap();
    assert_eq!(a, b);
    assert_eq!(hash_of(&a), hash_of(&b));
    assert_ne!(hash_of(&a), hash_of(&ts(&[3, 2])));
}

#[test]
fn display_and_debug() {
    assert_eq!(ts(&[2, 3]).to_string(), "[2,3]");
    assert_eq!(ts(&[]).to_string(), "[]");
    assert_eq!(ts(&[0]).to_string(), "[0]");
    assert_eq!(ts(&[2, 3]).debug_string(), "[2,3]");
    assert_eq!(format!("{:?}", ts(&[2, 3])), "TensorShape([2,3])");
    assert_eq!(
        ts(&[1 << 40, 1, 1, 1, 1, 1]).to_string(),
        "[1099511627776,1,1,1,1,1]"
    );
}

#[test]
fn negative_dims() {
    assert_eq!(
        shape_msg(TensorShape::new(&[2, -1])),
        "Expected shape dimensions to be non-negative, got -1"
    );
    assert_eq!(
        shape_msg(TensorShape::new(&[1, 1, 1, 1, 1, -7])),
        "Expected shape dimensions to be non-negative, got -7"
    );
    // With a dim above 0xD744 TF goes dim by dim through AddDimWithStatus.
    assert_eq!(
        shape_msg(TensorShape::new(&[100_000, -3])),
        "Expected a non-negative size, got -3"
    );
    assert_eq!(
        shape_msg(TensorShape::new(&[-3, 0xD745])),
        "Expected a non-negative size, got -3"
    );
    assert_eq!(
        shape_msg(TensorShape::new(&[-3, 0xD744])),
        "Expected shape dimensions to be non-negative, got -3"
    );
}

#[test]
fn rank_limit() {
    let ok = TensorShape::new(&[1; 254]).unwrap();
    assert_eq!(ok.dims(), 254);
    assert_eq!(ok.num_elements(), 1);
    assert_eq!(
        shape_msg(TensorShape::new(&[1; 255])),
        "Too many dimensions in tensor"
    );
    let mut s = ok.clone();
    assert_eq!(shape_msg(s.add_dim(1)), "Too many dimensions in tensor");
    assert_eq!(s, ok);
    assert_eq!(
        shape_msg(s.insert_dim(0, 1)),
        "Shape has 254 dimensions which is the maximum allowed"
    );
    assert_eq!(
        shape_msg(s.append_shape(&ts(&[1]))),
        "Too many dimensions in tensor"
    );
    s.append_shape(&TensorShape::scalar()).unwrap();
    assert_eq!(s, ok);
}

#[test]
fn overflow() {
    assert_eq!(
        shape_msg(TensorShape::new(&[1 << 32, 1 << 31, 2])),
        "Encountered overflow when multiplying 4294967296 with 2147483648, result: -1"
    );
    assert_eq!(
        shape_msg(TensorShape::new(&[BIG, 2])),
        "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
    );
    // i64::MAX elements is fine.
    assert_eq!(ts(&[i64::MAX]).num_elements(), i64::MAX);
    assert_eq!(ts(&[i64::MAX, 1, 0]).num_elements(), 0);
    // Small dims but rank > 4: 55108^5 overflows.
    assert_eq!(
        shape_msg(TensorShape::new(&[0xD744; 5])),
        "Encountered overflow when multiplying 9222710978872688896 with 55108, result: -1"
    );
}

#[test]
fn zero_dim_hiding_overflow() {
    // new() rejects it (TF's proto-path check) ...
    assert_eq!(
        shape_msg(TensorShape::new(&[0, BIG, BIG])),
        "Encountered overflow when multiplying shape dimensions"
    );
    assert_eq!(
        shape_msg(TensorShape::new(&[BIG, 0, BIG])),
        "Encountered overflow when multiplying shape dimensions"
    );
    // ... zero last: the running product overflows first.
    assert_eq!(
        shape_msg(TensorShape::new(&[BIG, BIG, 0])),
        "Encountered overflow when multiplying 4611686018427387904 with 4611686018427387904, result: -1"
    );
    // ... but TF's IsValid(proto) accepts it.
    assert!(TensorShape::is_valid_dims(&[0, BIG, BIG]));
    assert!(!TensorShape::is_valid_dims(&[BIG, BIG, 0]));
    // A zero with a fitting product is fine.
    assert_eq!(ts(&[0, BIG, 1]).num_elements(), 0);
}

#[test]
fn is_valid_dims() {
    assert!(TensorShape::is_valid_dims(&[]));
    assert!(TensorShape::is_valid_dims(&[2, 3]));
    assert!(TensorShape::is_valid_dims(&[i64::MAX]));
    assert!(TensorShape::is_valid_dims(&[1; 254]));
    assert!(!TensorShape::is_valid_dims(&[1; 255]));
    assert!(!TensorShape::is_valid_dims(&[-1]));
    assert!(!TensorShape::is_valid_dims(&[0, -1]));
    assert!(!TensorShape::is_valid_dims(&[BIG, 2]));
    assert!(TensorShape::is_valid_dims(&[BIG, 1]));
}

#[test]
fn from_usizes_and_try_from() {
    assert_eq!(TensorShape::from_usizes(&[2, 3]).unwrap(), ts(&[2, 3]));
    assert_eq!(
        shape_msg(TensorShape::from_usizes(&[usize::MAX])),
        format!("Dimension {} does not fit in int64", usize::MAX)
    );
    assert_eq!(TensorShape::try_from(&[2i64, 3][..]).unwrap(), ts(&[2, 3]));
    assert_eq!(TensorShape::try_from([2, 3]).unwrap(), ts(&[2, 3]));
    assert_eq!(TensorShape::try_from(&[2, 3]).unwrap(), ts(&[2, 3]));
    assert_eq!(TensorShape::try_from(vec![2i64, 3]).unwrap(), ts(&[2, 3]));
    assert_eq!(TensorShape::try_from(&vec![2i64, 3]).unwrap(), ts(&[2, 3]));
    assert_eq!(
        TensorShape::try_from(&[2usize, 3][..]).unwrap(),
        ts(&[2, 3])
    );
    assert_eq!(
        shape_msg(TensorShape::try_from([-1])),
        "Expected shape dimensions to be non-negative, got -1"
    );
    assert_eq!(TensorShape::try_from(&pts(&[2, 3])).unwrap(), ts(&[2, 3]));
}

#[test]
fn add_dim() {
    let mut s = TensorShape::scalar();
    s.add_dim(2).unwrap();
    s.add_dim(0).unwrap();
    assert_eq!(s.dim_sizes(), vec![2, 0]);
    assert_eq!(
        shape_msg(s.add_dim(-1)),
        "Expected a non-negative size, got -1"
    );
    let mut s = ts(&[BIG]);
    assert_eq!(
        shape_msg(s.add_dim(2)),
        "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
    );
    assert_eq!(s, ts(&[BIG]));
    let mut z = ts(&[0, BIG]);
    assert_eq!(
        shape_msg(z.add_dim(2)),
        "Encountered overflow when multiplying shape dimensions"
    );
    assert_eq!(z, ts(&[0, BIG]));
    z.add_dim(1).unwrap();
    assert_eq!(z.dim_sizes(), vec![0, BIG, 1]);
}

#[test]
fn insert_dim() {
    let mut s = ts(&[2, 3]);
    s.insert_dim(0, 1).unwrap();
    assert_eq!(s.dim_sizes(), vec![1, 2, 3]);
    s.insert_dim(3, 4).unwrap();
    assert_eq!(s.dim_sizes(), vec![1, 2, 3, 4]);
    s.insert_dim(2, 5).unwrap();
    assert_eq!(s.dim_sizes(), vec![1, 2, 5, 3, 4]);
    assert_eq!(
        shape_msg(s.insert_dim(9, -1)),
        "Expected a non-negative size, got -1"
    );
    assert_eq!(
        range_msg(s.insert_dim(6, 1)),
        "The insertion index must be at most 5 got 6"
    );
    let mut b = ts(&[BIG, 1]);
    assert_eq!(
        shape_msg(b.insert_dim(1, 2)),
        "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
    );
    assert_eq!(b, ts(&[BIG, 1]));
    let mut z = ts(&[BIG, 0]);
    assert_eq!(
        shape_msg(z.insert_dim(2, 4)),
        "Encountered overflow when multiplying shape dimensions"
    );
    assert_eq!(z, ts(&[BIG, 0]));
}

#[test]
fn set_dim() {
    let mut s = ts(&[2, 3]);
    s.set_dim(1, 0).unwrap();
    assert_eq!(s.dim_sizes(), vec![2, 0]);
    assert_eq!(
        range_msg(s.set_dim(2, 1)),
        "Index must be less than 2, got 2"
    );
    assert_eq!(
        shape_msg(s.set_dim(0, -4)),
        "Expected a non-negative size, got -4"
    );
    let mut b = ts(&[BIG, 1]);
    assert_eq!(
        shape_msg(b.set_dim(1, 2)),
        "Shape [4611686018427387904,2] results in overflow when computing number of elements"
    );
    assert_eq!(b, ts(&[BIG, 1]));
    // Zero-hidden overflow is rejected too.
    let mut z = ts(&[0, BIG, 1]);
    assert_eq!(
        shape_msg(z.set_dim(2, 4)),
        "Shape [0,4611686018427387904,4] results in overflow when computing number of elements"
    );
    assert_eq!(z, ts(&[0, BIG, 1]));
}

#[test]
fn remove_dim_and_last_dims() {
    let mut s = ts(&[2, 3, 4]);
    s.remove_dim(0).unwrap();
    assert_eq!(s.dim_sizes(), vec![3, 4]);
    assert_eq!(
        range_msg(s.remove_dim(2)),
        "End index must be less than 2, got 3"
    );
    assert_eq!(
        range_msg(s.remove_dim(5)),
        "Start index must be less than 2, got 5"
    );
    assert_eq!(s.dim_sizes(), vec![3, 4]);
    s.remove_last_dims(0).unwrap();
    assert_eq!(s.dim_sizes(), vec![3, 4]);
    assert_eq!(
        range_msg(s.remove_last_dims(3)),
        "Expected dimension index to be at most 2 got 3"
    );
    s.remove_last_dims(2).unwrap();
    assert!(s.is_scalar());
    // Removing a zero dim can expose no overflow: invariant holds.
    let mut z = ts(&[0, BIG, 1]);
    z.remove_dim(0).unwrap();
    assert_eq!(z.num_elements(), BIG);
}

#[test]
fn remove_dim_range() {
    let base = ts(&[2, 3, 4, 5]);
    let mut s = base.clone();
    s.remove_dim_range(1, 3).unwrap();
    assert_eq!(s.dim_sizes(), vec![2, 5]);
    let mut s = base.clone();
    s.remove_dim_range(0, -1).unwrap(); // -1 -> 4: everything
    assert!(s.is_scalar());
    let mut s = base.clone();
    s.remove_dim_range(-3, -1).unwrap(); // -3 -> 2
    assert_eq!(s.dim_sizes(), vec![2, 3]);
    let mut s = base.clone();
    s.remove_dim_range(-5, -4).unwrap(); // 0..1
    assert_eq!(s.dim_sizes(), vec![3, 4, 5]);
    let mut s = base.clone();
    s.remove_dim_range(3, 1).unwrap(); // begin >= end: no-op
    s.remove_dim_range(2, 2).unwrap();
    s.remove_dim_range(4, 4).unwrap();
    assert_eq!(s, base);
    assert_eq!(
        range_msg(s.remove_dim_range(-6, 1)),
        "Start index must be non-negative, got -1"
    );
    assert_eq!(
        range_msg(s.remove_dim_range(5, 6)),
        "Start index must be less than 4, got 5"
    );
    assert_eq!(
        range_msg(s.remove_dim_range(0, -6)),
        "End index must be non-negative, got -1"
    );
    assert_eq!(
        range_msg(s.remove_dim_range(0, 5)),
        "End index must be less than 4, got 5"
    );
    assert_eq!(
        range_msg(s.remove_dim_range(i64::MIN, 0)),
        format!("Start index must be non-negative, got {}", i64::MIN + 5)
    );
    assert_eq!(s, base);
}

#[test]
fn append_shape() {
    let mut s = ts(&[2]);
    s.append_shape(&ts(&[3, 4])).unwrap();
    assert_eq!(s.dim_sizes(), vec![2, 3, 4]);
    s.append_shape(&ts(&[1, 1, 1, 1])).unwrap();
    assert_eq!(s.dim_sizes(), vec![2, 3, 4, 1, 1, 1, 1]);
    let mut b = ts(&[BIG]);
    assert_eq!(
        shape_msg(b.append_shape(&ts(&[1, 2]))),
        "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
    );
    assert_eq!(b, ts(&[BIG]));
    let mut z = ts(&[0, 2]);
    assert_eq!(
        shape_msg(z.append_shape(&ts(&[1, BIG]))),
        "Encountered overflow when multiplying shape dimensions"
    );
    assert_eq!(z, ts(&[0, 2]));
}

// ---- PartialTensorShape ----

#[test]
fn partial_basics() {
    let u = PartialTensorShape::default();
    assert!(u.unknown_rank());
    assert_eq!(u, PartialTensorShape::unknown());
    assert_eq!(u.dims(), None);
    assert_eq!(u.dim_size(0).unwrap(), -1);
    assert_eq!(u.dim_sizes(), Vec::<i64>::new());
    assert_eq!(u.num_elements(), None);
    assert!(!u.is_fully_defined());

    let p = pts(&[-1, 3]);
    assert!(!p.unknown_rank());
    assert_eq!(p.dims(), Some(2));
    assert_eq!(p.dim_size(0).unwrap(), -1);
    assert_eq!(p.dim_size(1).unwrap(), 3);
    assert_eq!(range_msg(p.dim_size(2)), "Index must be less than 2, got 2");
    assert_eq!(p.dim_sizes(), vec![-1, 3]);
    assert_eq!(p.num_elements(), None);
    assert!(!p.is_fully_defined());

    let f = pts(&[2, 3]);
    assert_eq!(f.num_elements(), Some(6));
    assert!(f.is_fully_defined());
    let sc = pts(&[]);
    assert_eq!(sc.dims(), Some(0));
    assert_eq!(sc.num_elements(), Some(1));
    assert!(sc.is_fully_defined());
}

#[test]
fn partial_new_errors() {
    assert_eq!(
        shape_msg(PartialTensorShape::new(&[2, -2])),
        "Dimension -2 must be >= -1"
    );
    assert_eq!(pts(&[-1; 254]).dims(), Some(254));
    assert_eq!(
        shape_msg(PartialTensorShape::new(&[-1; 255])),
        "Too many dimensions in tensor"
    );
    assert_eq!(
        shape_msg(PartialTensorShape::new(&[BIG, 2])),
        "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
    );
    assert_eq!(
        shape_msg(PartialTensorShape::new(&[0, BIG, BIG])),
        "Encountered overflow when multiplying shape dimensions"
    );
    // After an unknown dim TF stops checking the product.
    assert_eq!(pts(&[-1, BIG, BIG]).dim_sizes(), vec![-1, BIG, BIG]);
}

#[test]
fn partial_display() {
    assert_eq!(pts(&[-1, 3]).to_string(), "[?,3]");
    assert_eq!(pts(&[]).to_string(), "[]");
    assert_eq!(pts(&[2, 3]).to_string(), "[2,3]");
    assert_eq!(PartialTensorShape::unknown().to_string(), "<unknown>");
    assert_eq!(pts(&[-1]).debug_string(), "[?]");
    assert_eq!(format!("{:?}", pts(&[-1, 3])), "PartialTensorShape([?,3])");
    assert_eq!(
        format!("{:?}", PartialTensorShape::unknown()),
        "PartialTensorShape(<unknown>)"
    );
}

#[test]
fn partial_compatible_and_identical() {
    let u = PartialTensorShape::unknown();
    let a = pts(&[-1, 3]);
    assert!(a.is_compatible_with(&pts(&[2, 3])));
    assert!(a.is_compatible_with(&pts(&[-1, -1])));
    assert!(!a.is_compatible_with(&pts(&[2, 4])));
    assert!(!a.is_compatible_with(&pts(&[2, 3, 1])));
    assert!(a.is_compatible_with(&u));
    assert!(u.is_compatible_with(&a));
    assert!(u.is_compatible_with(&u));

    assert!(a.is_identical_to(&pts(&[-1, 3])));
    assert!(!a.is_identical_to(&pts(&[2, 3])));
    assert!(!a.is_identical_to(&u));
    assert!(!u.is_identical_to(&a));
    assert!(u.is_identical_to(&PartialTensorShape::default()));
    assert_eq!(hash_of(&a), hash_of(&pts(&[-1, 3])));
}

#[test]
fn partial_merge() {
    let u = PartialTensorShape::unknown();
    let a = pts(&[-1, 3]);
    assert_eq!(a.merge_with(&pts(&[2, -1])).unwrap(), pts(&[2, 3]));
    assert_eq!(a.merge_with(&pts(&[-1, -1])).unwrap(), pts(&[-1, 3]));
    assert_eq!(a.merge_with(&u).unwrap(), a);
    assert_eq!(u.merge_with(&a).unwrap(), a);
    assert!(u.merge_with(&u).unwrap().unknown_rank());
    assert_eq!(
        arg_msg(pts(&[2, 3]).merge_with(&pts(&[1, 2, 3]))),
        "PartialTensorShape: Incompatible ranks during merge: 2 vs. 3"
    );
    assert_eq!(
        arg_msg(pts(&[2, 3]).merge_with(&pts(&[2, 4]))),
        "PartialTensorShape: Incompatible shapes during merge: [2,3] vs. [2,4]"
    );
    assert_eq!(
        arg_msg(pts(&[-1, 3]).merge_with(&pts(&[2, 4]))),
        "PartialTensorShape: Incompatible shapes during merge: [?,3] vs. [2,4]"
    );
    // Merging can make the element count known, and overflow.
    assert_eq!(
        shape_msg(pts(&[-1, BIG, BIG]).merge_with(&pts(&[1, -1, -1]))),
        "Encountered overflow when multiplying 4611686018427387904 with 4611686018427387904, result: -1"
    );
}

#[test]
fn partial_concatenate() {
    let u = PartialTensorShape::unknown();
    assert_eq!(pts(&[2]).concatenate(-1).unwrap(), pts(&[2, -1]));
    assert_eq!(pts(&[]).concatenate(3).unwrap(), pts(&[3]));
    assert!(u.concatenate(3).unwrap().unknown_rank());
    assert_eq!(
        shape_msg(pts(&[2]).concatenate(-2)),
        "Dimension -2 must be >= -1"
    );
    assert_eq!(
        shape_msg(pts(&[BIG]).concatenate(4)),
        "Encountered overflow when multiplying 4611686018427387904 with 4, result: -1"
    );
    assert_eq!(
        shape_msg(pts(&[1; 254]).concatenate(1)),
        "Too many dimensions in tensor"
    );
    assert_eq!(
        pts(&[2]).concatenate_shape(&pts(&[-1, 4])).unwrap(),
        pts(&[2, -1, 4])
    );
    assert!(pts(&[2]).concatenate_shape(&u).unwrap().unknown_rank());
    assert!(u.concatenate_shape(&pts(&[2])).unwrap().unknown_rank());
    assert_eq!(
        shape_msg(pts(&[0, BIG]).concatenate_shape(&pts(&[4]))),
        "Encountered overflow when multiplying shape dimensions"
    );
}

#[test]
fn partial_conversions() {
    let s = ts(&[2, 3]);
    let p = PartialTensorShape::from(s.clone());
    assert_eq!(p, pts(&[2, 3]));
    assert_eq!(PartialTensorShape::from(&s), p);
    assert_eq!(p.to_tensor_shape().unwrap(), s);
    assert_eq!(
        PartialTensorShape::from(TensorShape::scalar())
            .to_tensor_shape()
            .unwrap(),
        TensorShape::scalar()
    );
    assert_eq!(
        shape_msg(pts(&[-1, 3]).to_tensor_shape()),
        "Shape [?,3] is not fully defined"
    );
    assert_eq!(
        shape_msg(PartialTensorShape::unknown().to_tensor_shape()),
        "Shape <unknown> is not fully defined"
    );
}
