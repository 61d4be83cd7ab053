//! TF's `FromProto(Allocator*, const TensorProto&)`: `from_proto_in` and
//! `decode_in` take every element buffer from the caller's allocator, never
//! adopt the input bytes, and report a refusing allocator as
//! `AllocationFailed`.

use std::alloc::Layout;
use std::ptr::NonNull;
use std::sync::Arc;

use bytes::Bytes;
use prost::Message;
use tftensor::{Allocator, DataType, Error, FromProtoOptions, Tensor, TrackingAllocator, Variant};

/// An allocator that always refuses (TF's DummyCPUAllocator).
#[derive(Debug)]
struct Refusing;

// SAFETY: never hands out memory, so never gets any back.
unsafe impl Allocator for Refusing {
    fn name(&self) -> &str {
        "refusing"
    }
    fn allocate(&self, _: Layout) -> Option<NonNull<u8>> {
        None
    }
    unsafe fn deallocate(&self, _: NonNull<u8>, _: Layout) {}
}

fn opts() -> FromProtoOptions {
    FromProtoOptions::default()
}

fn floats(n: usize) -> Tensor {
    Tensor::from_vec([n as i64], (0..n).map(|i| i as f32 * 0.5).collect()).unwrap()
}

#[test]
fn field_and_content_forms_allocate_from_the_caller() {
    let t = floats(1000);
    for proto in [
        t.as_proto_field().unwrap(),
        t.as_proto_tensor_content().unwrap(),
    ] {
        let a = Arc::new(TrackingAllocator::new());
        let got = Tensor::from_proto_in(&a, &proto, &opts()).unwrap();
        assert_eq!(got, t);
        assert_eq!(a.live_bytes(), 4000);
        assert_eq!(a.allocation_count(), 1);
        assert_eq!(
            got.allocation_description().unwrap().allocator_name,
            "tracking"
        );
        drop(got);
        assert_eq!(a.live_bytes(), 0);
    }
}

/// Content that `decode` would adopt (aligned) is copied into the
/// allocator instead; so is a packed float_val.
#[test]
fn decode_in_never_adopts_the_input() {
    let t = floats(64);
    for wire in [
        t.as_proto_tensor_content().unwrap().encode_to_vec(),
        t.encode_proto_field().unwrap(),
    ] {
        let wire = Bytes::from(wire);
        let range = wire.as_ptr() as usize..wire.as_ptr() as usize + wire.len();
        let a = Arc::new(TrackingAllocator::new());
        let got = Tensor::decode_in(&a, wire.clone(), &opts()).unwrap();
        assert_eq!(got, t);
        assert!(!range.contains(&(got.data_ptr().unwrap() as usize)));
        assert_eq!(a.live_bytes(), 256);
        assert!(got.is_aligned());
    }
}

#[test]
fn nested_variant_tensors_allocate_from_the_caller() {
    let inner = Tensor::from_vec([3], vec![1i64, 2, 3]).unwrap();
    let v = Tensor::from_vec([2], vec![Variant::from_tensor(inner.clone()); 2]).unwrap();
    for proto in [
        v.as_proto_field().unwrap(),
        v.as_proto_tensor_content().unwrap(),
    ] {
        let a = Arc::new(TrackingAllocator::new());
        let got = Tensor::from_proto_in(&a, &proto, &opts()).unwrap();
        assert_eq!(got, v);
        assert_eq!(a.live_bytes(), 2 * 24);
        let nested = &got.as_slice::<Variant>().unwrap()[0].tensors[0];
        assert_eq!(
            nested.allocation_description().unwrap().allocator_name,
            "tracking"
        );
    }
}

#[test]
fn a_refusing_allocator_gives_allocation_failed() {
    let a = Arc::new(Refusing);
    let t = floats(10);
    let v = Tensor::from_vec([1], vec![Variant::from_tensor(floats(3))]).unwrap();
    let cases = [
        (t.as_proto_field().unwrap(), 40),
        (t.as_proto_tensor_content().unwrap(), 40),
        (v.as_proto_field().unwrap(), 12),
        (v.as_proto_tensor_content().unwrap(), 12),
    ];
    for (proto, bytes) in cases {
        assert_eq!(
            Tensor::from_proto_in(&a, &proto, &opts()).unwrap_err(),
            Error::AllocationFailed { bytes }
        );
        let wire = Bytes::from(proto.encode_to_vec());
        assert_eq!(
            Tensor::decode_in(&a, wire, &opts()).unwrap_err(),
            Error::AllocationFailed { bytes }
        );
    }
    // Nothing to allocate: no call, no failure; limits still come first.
    let empty = Tensor::new(DataType::Float, [0, 3])
        .unwrap()
        .as_proto_field()
        .unwrap();
    assert!(Tensor::from_proto_in(&a, &empty, &opts()).is_ok());
    let small = opts().with_max_bytes(4);
    assert!(matches!(
        Tensor::from_proto_in(&a, &t.as_proto_field().unwrap(), &small),
        Err(Error::LimitExceeded { .. })
    ));
}

/// Strings are Rust values, not allocator memory: decoding them asks the
/// allocator for nothing.
#[test]
fn strings_do_not_use_the_allocator() {
    let s = Tensor::from_vec([2], vec![Bytes::from("ab"), Bytes::from("c")]).unwrap();
    let a = Arc::new(Refusing);
    for proto in [
        s.as_proto_field().unwrap(),
        s.as_proto_tensor_content().unwrap(),
    ] {
        assert_eq!(Tensor::from_proto_in(&a, &proto, &opts()).unwrap(), s);
    }
}
