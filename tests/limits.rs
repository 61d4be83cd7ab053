//! Every limit of `tftensor::limits`, tested at its boundary: the largest
//! input that passes, and the smallest that fails with the documented
//! error.
//!
//! Tests that would need gigabytes of real memory use `vec![0u8; n]`, which
//! the system allocator serves from untouched (lazily zeroed) pages, and
//! zero-copy tensors over it; they are skipped under valgrind, whose
//! allocator touches every byte.

use crate::common;
use common::shape;

use bytes::Bytes;
use prost::Message;
use tftensor::pb::{TensorProto, VariantTensorDataProto};
use tftensor::{
    DataType, Error, FromProtoOptions, MAX_DIMENSIONS, PartialTensorShape, Tensor, TensorShape,
    Variant,
};

fn under_valgrind() -> bool {
    std::env::var_os("TFTENSOR_UNDER_VALGRIND").is_some()
}

fn proto(dtype: DataType, dims: &[i64]) -> TensorProto {
    TensorProto {
        dtype: dtype.as_i32(),
        tensor_shape: shape(dims),
        ..Default::default()
    }
}

fn with_max(max_bytes: u64) -> FromProtoOptions {
    FromProtoOptions::default().with_max_bytes(max_bytes)
}

fn is_limit(r: &tftensor::Result<Tensor>, limit: u64, requested: u64) -> bool {
    matches!(r, Err(Error::LimitExceeded { limit: l, requested: q, .. }) if *l == limit && *q == requested)
}

// ----- max_bytes -----

/// 2 GiB: protobuf's own limit, so every TensorProto tftensor writes
/// (under 2 GiB, with `tensor_content` holding the element bytes) decodes
/// with the default options. It was 1 GiB, and a 1.25 GiB tensor that
/// `convert` wrote to `.pb` could not be read back.
#[test]
fn max_bytes_default_is_two_gib() {
    assert_eq!(FromProtoOptions::DEFAULT_MAX_BYTES, 1 << 31);
    assert_eq!(FromProtoOptions::default().max_bytes, 1 << 31);
    // One element past the default budget is refused before allocating.
    let p = proto(DataType::UInt8, &[(1 << 31) + 1]);
    assert!(is_limit(&Tensor::from_proto(&p), 1 << 31, (1 << 31) + 1));
    let p = proto(DataType::Float, &[(1 << 29) + 1]);
    assert!(is_limit(&Tensor::from_proto(&p), 1 << 31, (1 << 31) + 4));
}

/// A 1.25 GiB tensor decodes with the default options.
#[test]
fn max_bytes_default_reads_a_1_25_gib_tensor() {
    if under_valgrind() {
        return;
    }
    let n = (1u64 << 30) + (1 << 28);
    let p = proto(DataType::UInt8, &[n as i64]);
    let t = Tensor::from_proto(&p).unwrap();
    assert_eq!(t.num_elements(), n as i64);
    assert_eq!(t.tensor_data().unwrap()[(n - 1) as usize], 0);
}

#[test]
fn max_bytes_boundary_per_dtype() {
    for &dtype in DataType::all() {
        // In-memory element size: the dtype's, or the Rust handle's for
        // string, resource and variant.
        let size = match dtype {
            DataType::String => std::mem::size_of::<Bytes>(),
            DataType::Resource => std::mem::size_of::<tftensor::ResourceHandle>(),
            DataType::Variant => std::mem::size_of::<Variant>(),
            _ => dtype.size(),
        } as u64;
        let p = proto(dtype, &[3, 5]);
        assert!(
            Tensor::from_proto_with(&p, &with_max(15 * size)).is_ok(),
            "{dtype}"
        );
        assert!(
            is_limit(
                &Tensor::from_proto_with(&p, &with_max(15 * size - 1)),
                15 * size - 1,
                15 * size
            ),
            "{dtype}"
        );
        // Zero elements cost nothing, even with a zero budget.
        assert!(Tensor::from_proto_with(&proto(dtype, &[0, 1 << 40]), &with_max(0)).is_ok());
    }
}

/// The budget covers the outer tensor and every tensor nested in variants.
#[test]
fn max_bytes_is_shared_with_nested_tensors() {
    let inner = Tensor::from_vec([4], vec![1.0f32; 4]).unwrap();
    let outer = Tensor::from_vec(
        [2],
        vec![
            Variant::from_tensor(inner.clone()),
            Variant::from_tensor(inner),
        ],
    )
    .unwrap();
    let need = 2 * std::mem::size_of::<Variant>() as u64 + 2 * 16;
    for p in [
        outer.as_proto_field().unwrap(),
        outer.as_proto_tensor_content().unwrap(),
    ] {
        assert_eq!(Tensor::from_proto_with(&p, &with_max(need)).unwrap(), outer);
        assert!(is_limit(
            &Tensor::from_proto_with(&p, &with_max(need - 1)),
            need - 1,
            need
        ));
    }
}

// ----- variant depth -----

/// A variant scalar nesting `depth` variant levels around a float scalar.
fn nested(depth: usize) -> Tensor {
    let mut t = Tensor::from(2.5f32);
    for _ in 0..depth {
        t = Tensor::from(Variant::from_tensor(t));
    }
    t
}

/// The same nesting as bytes with every level in `tensor_content` form
/// (which TF's encoder never writes for nested tensors, but a peer may), so
/// each level is parsed by its own prost call and only `max_depth` bounds
/// the depth.
fn nested_content_bytes(depth: usize) -> Vec<u8> {
    let mut p = Tensor::from(2.5f32).as_proto_field().unwrap();
    for _ in 0..depth {
        let vtd = VariantTensorDataProto {
            type_name: "tensorflow::Tensor".into(),
            metadata: Bytes::new(),
            tensors: vec![p],
        }
        .encode_to_vec();
        let mut content = Vec::new();
        prost::encoding::encode_varint(vtd.len() as u64, &mut content);
        content.extend_from_slice(&vtd);
        p = TensorProto {
            tensor_content: Bytes::from(content),
            ..proto(DataType::Variant, &[])
        };
    }
    p.encode_to_vec()
}

#[test]
fn max_depth_boundary() {
    assert_eq!(FromProtoOptions::DEFAULT_MAX_DEPTH, 64);
    let ok = nested_content_bytes(64);
    let t = Tensor::decode(Bytes::from(ok)).unwrap();
    assert_eq!(t, nested(64));
    // The deepest tensor a peer can send re-encodes, prints and drops
    // within a test thread's 2 MiB stack, in a debug build.
    let field = t.as_proto_field().unwrap();
    assert_eq!(Tensor::from_proto(&field).unwrap(), t);
    let content = t.as_proto_tensor_content().unwrap();
    assert!(t.summarize_value(-1, true).contains("2.5"));
    assert!(!format!("{t:?}").is_empty());
    drop(t);
    // But TF's encoders write nested tensors in field form, so re-encoded
    // bytes of more than 48 levels pass prost's parse depth, as in TF.
    assert!(matches!(
        Tensor::from_proto(&content),
        Err(Error::InvalidProto { message: m, .. }) if m.contains("recursion limit")
    ));
    for depth in [47, 48] {
        let t = nested(depth);
        for p in [
            t.as_proto_field().unwrap(),
            t.as_proto_tensor_content().unwrap(),
        ] {
            assert_eq!(
                Tensor::decode(Bytes::from(p.encode_to_vec())).unwrap(),
                t,
                "{depth}"
            );
        }
    }
    let deep = nested_content_bytes(65);
    assert!(matches!(
        Tensor::decode(Bytes::from(deep)),
        Err(Error::LimitExceeded { .. })
    ));
    // Protos built in memory, and custom limits.
    let p = nested(3).as_proto_field().unwrap();
    assert!(Tensor::from_proto_with(&p, &FromProtoOptions::default().with_max_depth(3)).is_ok());
    assert!(matches!(
        Tensor::from_proto_with(&p, &FromProtoOptions::default().with_max_depth(2)),
        Err(Error::LimitExceeded { .. })
    ));
    // Depth 0 allows variants whose elements hold no tensor.
    let empty = Tensor::from_vec([2], vec![Variant::default(); 2]).unwrap();
    let p = empty.as_proto_field().unwrap();
    assert_eq!(
        Tensor::from_proto_with(&p, &FromProtoOptions::default().with_max_depth(0)).unwrap(),
        empty
    );
}

/// Parsing bytes: prost allows 100 levels of nested messages; a variant in
/// the typed field costs two (TensorProto -> VariantTensorDataProto), so
/// 49 levels parse and 50 do not.
#[test]
fn prost_recursion_limit_boundary() {
    let ok = nested(49).as_proto_field().unwrap().encode_to_vec();
    assert_eq!(Tensor::decode(Bytes::from(ok)).unwrap(), nested(49));
    let deep = nested(50).as_proto_field().unwrap().encode_to_vec();
    match Tensor::decode(Bytes::from(deep)) {
        Err(Error::InvalidProto { message: m, .. }) => {
            assert!(m.contains("recursion limit"), "{m}")
        }
        other => panic!("{other:?}"),
    }
}

// ----- 2 GiB protos -----

const MAX_PROTO: u64 = i32::MAX as u64;

fn varint_len(v: u64) -> u64 {
    (64 - v.max(1).leading_zeros() as u64).div_ceil(7)
}

/// A uint8 tensor of `n` zero bytes, zero-copy over lazily zeroed memory.
fn big_u8(n: usize) -> Tensor {
    Tensor::from_buffer(DataType::UInt8, [n as i64], Bytes::from(vec![0u8; n])).unwrap()
}

/// The content length that makes a uint8 tensor's content proto exactly
/// `MAX_PROTO` bytes.
fn content_len_at_limit() -> u64 {
    // header = dtype (2) + shape field; content = tag + varint(n) + n.
    let mut n = MAX_PROTO - 16;
    loop {
        let header = proto(DataType::UInt8, &[n as i64]).encoded_len() as u64;
        let total = header + 1 + varint_len(n) + n;
        if total == MAX_PROTO {
            return n;
        }
        n = n + MAX_PROTO - total;
    }
}

#[test]
fn proto_size_boundary_tensor_content() {
    if under_valgrind() {
        return;
    }
    let n = content_len_at_limit() as usize;
    let p = big_u8(n).as_proto_tensor_content().unwrap();
    assert_eq!(p.encoded_len() as u64, MAX_PROTO);
    assert!(matches!(
        big_u8(n + 1).as_proto_tensor_content(),
        Err(Error::LimitExceeded {
            limit: MAX_PROTO,
            ..
        })
    ));
    // The field form (a packed varint per byte) is refused by its cheap
    // first check, before any varint is sized or the field is built.
    assert!(matches!(
        big_u8(n + 16).as_proto_field(),
        Err(Error::LimitExceeded {
            limit: MAX_PROTO,
            ..
        })
    ));
}

/// String elements sharing one buffer make a 2 GiB `string_val` from a few
/// MiB of memory; exactly `i32::MAX` encoded bytes pass, one more fails.
#[test]
fn proto_size_boundary_string_field() {
    let chunk = Bytes::from(vec![b'x'; 1 << 20]);
    // Each full element costs 1 (tag) + 3 (varint) + 2^20 bytes.
    let per = 1 + 3 + (1u64 << 20);
    let build = |extra: u64| -> Tensor {
        let full = (MAX_PROTO / per) - 1;
        let n = full + 1;
        let header = proto(DataType::String, &[n as i64]).encoded_len() as u64;
        // The last element takes the rest: 1 + varint(len) + len.
        let rest = MAX_PROTO + extra - header - full * per;
        let mut last = rest - 1 - 3;
        while 1 + varint_len(last) + last != rest {
            last = rest - 1 - varint_len(last);
        }
        let mut v = vec![chunk.clone(); full as usize];
        v.push(Bytes::from(vec![b'y'; last as usize]));
        Tensor::from_vec([n as i64], v).unwrap()
    };
    let p = build(0).as_proto_field().unwrap();
    assert_eq!(p.encoded_len() as u64, MAX_PROTO);
    assert!(matches!(
        build(1).as_proto_field(),
        Err(Error::LimitExceeded { limit: MAX_PROTO, requested, .. }) if requested == MAX_PROTO + 1
    ));
    // The content form of the same strings is a few bytes smaller (no tag
    // per element) and is refused only past the limit too.
    assert!(matches!(
        build(4096).as_proto_tensor_content(),
        Err(Error::LimitExceeded {
            limit: MAX_PROTO,
            ..
        })
    ));
}

// ----- shapes -----

#[test]
fn rank_boundary() {
    assert_eq!(MAX_DIMENSIONS, 254);
    assert!(TensorShape::new(&[1; 254]).is_ok());
    assert!(matches!(
        TensorShape::new(&[1; 255]),
        Err(Error::InvalidShape(_))
    ));
    assert!(PartialTensorShape::new(&[-1; 254]).is_ok());
    assert!(matches!(
        PartialTensorShape::new(&[-1; 255]),
        Err(Error::InvalidShape(_))
    ));
    let mut s = TensorShape::new(&[1; 254]).unwrap();
    assert!(matches!(s.add_dim(1), Err(Error::InvalidShape(_))));
    // Through the proto codec.
    let t = Tensor::from_proto(&TensorProto {
        int_val: vec![7],
        ..proto(DataType::Int32, &[1; 254])
    })
    .unwrap();
    assert_eq!(t.dims(), 254);
    assert_eq!(
        Tensor::decode(Bytes::from(t.as_proto_field().unwrap().encode_to_vec())).unwrap(),
        t
    );
    assert!(matches!(
        Tensor::from_proto(&proto(DataType::Int32, &[1; 255])),
        Err(Error::InvalidProto { .. })
    ));
}

#[test]
fn element_count_boundary() {
    let max = TensorShape::new(&[i64::MAX]).unwrap();
    assert_eq!(max.num_elements(), i64::MAX);
    let third = i64::MAX / 3; // 3 * third = 2^63 - 2
    assert_eq!(
        TensorShape::new(&[3, third]).unwrap().num_elements(),
        i64::MAX - 1
    );
    assert!(matches!(
        TensorShape::new(&[3, third + 1]),
        Err(Error::Overflow(_))
    ));
    assert!(matches!(
        TensorShape::new(&[1 << 62, 2]),
        Err(Error::Overflow(_))
    ));
    // A zero dim does not hide an overflow of the others.
    assert!(matches!(
        TensorShape::new(&[0, 1 << 62, 4]),
        Err(Error::Overflow(_))
    ));
    // Dimension sizes: 0 and i64::MAX pass, -1 does not.
    assert!(TensorShape::new(&[0]).is_ok());
    assert!(matches!(
        TensorShape::new(&[-1]),
        Err(Error::InvalidShape(_))
    ));
    // Through the proto codec: valid but over budget, or invalid.
    assert!(matches!(
        Tensor::from_proto(&proto(DataType::Int8, &[i64::MAX])),
        Err(Error::LimitExceeded { .. })
    ));
    for dims in [&[3, third + 1][..], &[-1], &[0, 1 << 62, 4]] {
        assert!(matches!(
            Tensor::from_proto(&proto(DataType::Int8, dims)),
            Err(Error::InvalidProto { .. })
        ));
    }
}

// ----- string lengths (varint32) -----

/// A string tensor's `tensor_content`: the given varint bytes as the one
/// element's length, then `payload`.
fn string_content(len_varint: &[u8], payload: &[u8]) -> TensorProto {
    let mut c = len_varint.to_vec();
    c.extend_from_slice(payload);
    TensorProto {
        tensor_content: Bytes::from(c),
        ..proto(DataType::String, &[1])
    }
}

#[test]
fn string_length_varint_boundary_on_decode() {
    // u32::MAX in 5 bytes is a well-formed length (with too few bytes after it).
    let p = string_content(&[0xff, 0xff, 0xff, 0xff, 0x0f], b"abc");
    match Tensor::from_proto(&p) {
        Err(Error::InvalidProto { message: m, .. }) => assert!(m.contains("4294967295"), "{m}"),
        other => panic!("{other:?}"),
    }
    // 2^32 (33 bits) and a 6-byte varint are not varint32s.
    for v in [
        &[0x80, 0x80, 0x80, 0x80, 0x10][..],
        &[0x81, 0x80, 0x80, 0x80, 0x80, 0x00],
    ] {
        match Tensor::from_proto(&string_content(v, b"")) {
            Err(Error::InvalidProto { message: m, .. }) => assert!(m.contains("varint32"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
    // Overlong but within 5 bytes: still the value 3.
    let t = Tensor::from_proto(&string_content(&[0x83, 0x80, 0x80, 0x80, 0x00], b"abc")).unwrap();
    assert_eq!(
        t.as_slice::<Bytes>().unwrap(),
        &[Bytes::from_static(b"abc")]
    );
}

#[test]
fn string_length_boundary_on_encode() {
    if under_valgrind() {
        return;
    }
    // 2^32 - 1 bytes fit a varint32 (and then pass the 2 GiB limit); 2^32 do not.
    for (len, want_varint_error) in [((1usize << 32) - 1, false), (1 << 32, true)] {
        let t = Tensor::from(Bytes::from(vec![0u8; len]));
        match t.as_proto_tensor_content() {
            Err(Error::InvalidArgument(m)) if want_varint_error => {
                assert!(m.contains("32-bit"), "{m}")
            }
            Err(Error::LimitExceeded {
                limit: MAX_PROTO, ..
            }) if !want_varint_error => {}
            other => panic!("{len}: {other:?}"),
        }
    }
}

// ----- allocation -----

#[test]
fn allocation_failure_is_an_error() {
    // The largest byte count a Layout accepts, which no allocator grants.
    let n = isize::MAX as i64 - 63;
    assert!(matches!(
        Tensor::new(DataType::UInt8, [n]),
        Err(Error::AllocationFailed { .. })
    ));
    // One past what a Layout can describe.
    assert!(matches!(
        Tensor::new(DataType::UInt8, [n + 1]),
        Err(Error::AllocationFailed { .. })
    ));
    assert!(matches!(
        Tensor::new(DataType::String, [1i64 << 60]),
        Err(Error::Overflow(_))
    ));
    assert!(matches!(
        Tensor::new(DataType::Complex128, [1i64 << 60]),
        Err(Error::Overflow(_))
    ));
}

#[test]
fn nested_variant_proto_built_in_memory_is_bounded_by_max_depth() {
    let mut p = proto(DataType::Float, &[]);
    for _ in 0..1000 {
        p = TensorProto {
            variant_val: vec![VariantTensorDataProto {
                type_name: "tensorflow::Tensor".into(),
                metadata: Bytes::new(),
                tensors: vec![p],
            }],
            ..proto(DataType::Variant, &[])
        };
    }
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::LimitExceeded { .. })
    ));
}
