//! Memory figures (BENCHMARKS.md, suite 5): the size of a `Tensor`, the
//! inline `TensorShape`, and the bytes each conversion allocates, measured
//! with the tracking allocator installed as the global allocator.
//!
//! `cargo test --test memory -- --nocapture --test-threads=1` prints the
//! table that BENCHMARKS.md lists.

use bytes::Bytes;
use ndarray::{Array2, ShapeBuilder};
use prost::Message;
use tftensor::{Tensor, TensorShape, TrackingAllocator, TypedTensor};

#[global_allocator]
static GLOBAL: TrackingAllocator = TrackingAllocator::new();

mod common;
use common::allocated;

fn report(what: &str, bytes: usize) {
    println!("memory | {what} | {bytes}");
}

/// 1 MiB of f32.
const N: usize = 256 * 1024;
const DATA_BYTES: usize = N * 4;
/// What a conversion may allocate besides the elements: refcount and
/// buffer bookkeeping, never a copy of 1 MiB.
const BOOKKEEPING: usize = 256;

#[test]
fn tensor_is_at_most_48_bytes() {
    let size = std::mem::size_of::<Tensor>();
    report("size_of::<Tensor>()", size);
    report(
        "size_of::<TensorShape>()",
        std::mem::size_of::<TensorShape>(),
    );
    assert!(size <= 48, "size_of::<Tensor>() = {size}");
}

#[test]
fn tensor_shape_up_to_rank_4_never_allocates() {
    let shapes: [&[i64]; 8] = [
        &[],
        &[7],
        &[2, 3],
        &[2, 3, 4],
        &[1 << 20, 3, 4, 5],
        &[0, 0, 0, 0],
        // Rank 6 with dims below 2^16 (TF's Rep16; issue 11, fault 9).
        &[2, 3, 4, 5, 6, 7],
        &[65535, 1, 1, 1, 1, 65535],
    ];
    for dims in shapes {
        let (bytes, shape) = allocated(|| TensorShape::new(dims).unwrap());
        assert_eq!(bytes, 0, "TensorShape::new({dims:?})");
        let (bytes, copy) = allocated(|| shape.clone());
        assert_eq!(bytes, 0, "clone of {dims:?}");
        let (bytes, _) = allocated(|| drop(copy));
        assert_eq!(bytes, 0);
    }
    let (bytes, _) = allocated(|| TensorShape::new(&[2, 3, 4, 5]).unwrap());
    report("TensorShape::new(rank 4)", bytes);
    let (bytes, _) = allocated(|| TensorShape::new(&[2, 3, 4, 5, 6, 7]).unwrap());
    report("TensorShape::new(rank 6, dims < 2^16)", bytes);
    // Past the inline form a shape does allocate; shown for contrast.
    let (bytes, _) = allocated(|| TensorShape::new(&[1, 2, 3, 4, 5, 6, 7, 8]).unwrap());
    report("TensorShape::new(rank 8)", bytes);
    assert!(bytes > 0);
}

#[test]
fn sharing_allocates_nothing() {
    let t = Tensor::from_vec([512, 512], vec![1.0f32; N]).unwrap();
    let (bytes, c) = allocated(|| t.clone());
    report("clone (1 MiB f32)", bytes);
    assert_eq!(bytes, 0);
    // Inline shapes are edited in place: slicing allocates nothing.
    let (bytes, s) = allocated(|| t.slice(1, 100).unwrap());
    report("slice (1 MiB f32)", bytes);
    assert_eq!(bytes, 0, "slice allocated {bytes} bytes");
    let (bytes, r) = allocated(|| t.sub_slice(3).unwrap());
    report("sub_slice (1 MiB f32)", bytes);
    assert_eq!(bytes, 0, "sub_slice allocated {bytes} bytes");
    let (bytes, v) = allocated(|| t.matrix::<f32>().unwrap().sum());
    report("matrix::<f32>() + sum", bytes);
    assert_eq!(bytes, 0, "building a view allocates nothing");
    assert_eq!(v, N as f32);
    drop((c, s, r));
}

#[test]
fn conversions_allocate_only_what_they_copy() {
    let v = vec![0.5f32; N];
    let (from_vec, t) = allocated(|| Tensor::from_vec([512, 512], v).unwrap());
    report("from_vec (1 MiB f32, adopts the Vec)", from_vec);
    assert!(from_vec < BOOKKEEPING, "from_vec copied: {from_vec} bytes");
    assert_eq!(t.as_slice::<f32>().unwrap()[N - 1], 0.5);

    let values = vec![0.5f32; N];
    let (from_slice, _) = allocated(|| Tensor::from_slice([512, 512], &values).unwrap());
    report("from_slice (1 MiB f32, one copy)", from_slice);
    assert!((DATA_BYTES..DATA_BYTES + BOOKKEEPING).contains(&from_slice));

    let array = Array2::from_elem((512, 512), 0.5f32);
    let (from_array, t) = allocated(|| Tensor::from_array(array).unwrap());
    report("from_array (1 MiB f32, standard layout)", from_array);
    assert!(
        from_array < BOOKKEEPING,
        "from_array copied: {from_array} bytes"
    );
    assert_eq!(t.matrix::<f32>().unwrap()[[511, 511]], 0.5);

    // A column-major array must be reordered: one copy.
    let array = Array2::from_elem((512, 512).f(), 0.5f32);
    let (from_array_f, _) = allocated(|| Tensor::from_array(array).unwrap());
    report(
        "from_array (1 MiB f32, column-major: one copy)",
        from_array_f,
    );
    assert!((DATA_BYTES..DATA_BYTES + BOOKKEEPING).contains(&from_array_f));

    let (deep, _) = allocated(|| t.deep_copy().unwrap());
    report("deep_copy (1 MiB f32)", deep);
    assert!((DATA_BYTES..DATA_BYTES + BOOKKEEPING).contains(&deep));
}

#[test]
fn first_write_to_shared_tensor_copies_once() {
    let mut t = Tensor::from_vec([512, 512], vec![1.0f32; N]).unwrap();
    let reader = t.clone();
    let (cow, _) = allocated(|| t.as_mut_slice::<f32>().unwrap()[0] = 2.0);
    report("first write to a shared 1 MiB tensor (copy-on-write)", cow);
    assert!((DATA_BYTES..DATA_BYTES + BOOKKEEPING).contains(&cow));
    let (again, _) = allocated(|| t.as_mut_slice::<f32>().unwrap()[1] = 2.0);
    report("second write (now unique)", again);
    assert_eq!(again, 0);
    assert_eq!(reader.as_slice::<f32>().unwrap()[0], 1.0);
}

#[test]
fn typed_conversions() {
    let v = vec![0.5f32; N];
    let (from_vec, t) = allocated(|| TypedTensor::from_vec([512, 512], v).unwrap());
    report("TypedTensor::from_vec (1 MiB f32)", from_vec);
    assert!(
        from_vec < BOOKKEEPING,
        "TypedTensor::from_vec copied: {from_vec} bytes"
    );

    // Unique and whole: the Vec is handed back.
    let (into_array, a) = allocated(|| t.into_array());
    report("TypedTensor::into_array (unique, from a Vec)", into_array);
    assert!(
        into_array < BOOKKEEPING,
        "into_array copied: {into_array} bytes"
    );
    assert_eq!(a[[511, 511]], 0.5);

    let array = a.into_dimensionality::<ndarray::Ix2>().unwrap();
    let (from_array, t) = allocated(|| TypedTensor::from_array(array).unwrap());
    report(
        "TypedTensor::from_array (1 MiB f32, standard layout)",
        from_array,
    );
    assert!(
        from_array < BOOKKEEPING,
        "TypedTensor::from_array copied: {from_array} bytes"
    );

    // Shared: one copy.
    let other = t.clone();
    let (shared, _) = allocated(|| t.into_array());
    report("TypedTensor::into_array (shared: one copy)", shared);
    assert!((DATA_BYTES..DATA_BYTES + BOOKKEEPING).contains(&shared));

    let (into_tensor, t) = allocated(|| Tensor::from(other));
    report("Tensor::from(TypedTensor)", into_tensor);
    assert_eq!(into_tensor, 0);
    let (try_from, _) = allocated(|| TypedTensor::<f32>::try_from(t).unwrap());
    report("TypedTensor::try_from(Tensor)", try_from);
    assert_eq!(try_from, 0);
}

/// A content proto of `t` placed so that `tensor_content` starts at an
/// address with `residue` mod 64.
fn placed_wire(t: &Tensor, residue: usize) -> Bytes {
    let wire = t.as_proto_tensor_content().unwrap().encode_to_vec();
    let off = wire.len() - t.total_bytes();
    let mut v = vec![0u8; wire.len() + 128];
    let pad = (64 + residue - (v.as_ptr() as usize + off) % 64) % 64;
    v[pad..pad + wire.len()].copy_from_slice(&wire);
    Bytes::from(v).slice(pad..pad + wire.len())
}

#[test]
fn decode_allocates_only_for_misaligned_content() {
    let t = Tensor::from_vec([512, 512], vec![0.25f32; N]).unwrap();
    let aligned = placed_wire(&t, 0);
    let (bytes, back) = allocated(|| Tensor::decode(aligned).unwrap());
    report(
        "Tensor::decode (1 MiB f32 content, aligned: adopted)",
        bytes,
    );
    assert!(bytes < BOOKKEEPING, "aligned decode copied: {bytes} bytes");
    assert_eq!(back, t);

    let unaligned = placed_wire(&t, 1);
    let (bytes, back) = allocated(|| Tensor::decode(unaligned).unwrap());
    report(
        "Tensor::decode (1 MiB f32 content, misaligned: one copy)",
        bytes,
    );
    assert!((DATA_BYTES..DATA_BYTES + BOOKKEEPING).contains(&bytes));
    assert_eq!(back, t);

    // Packed float_val: prost's per-element decode grows a Vec (~2x the
    // data) and from_proto copies it into the tensor; src/proto_fast.rs
    // adopts the payload as content instead (0 or 1 copy, by alignment).
    // The bound holds either way; the figure shows which path is in use.
    let field = t.as_proto_field().unwrap().encode_to_vec();
    let (bytes, back) = allocated(|| Tensor::decode(Bytes::from(field)).unwrap());
    report("Tensor::decode (1 MiB packed float_val)", bytes);
    assert!(bytes < 4 * DATA_BYTES, "{bytes}");
    assert_eq!(back, t);
}
