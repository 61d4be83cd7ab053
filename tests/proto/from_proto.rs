//! FromProto's rules: the fill rule, narrowing, content checks,
//! shapes, unsupported dtypes, limits on hostile input, variant and resource
//! decoding, and zero-copy decoding of wire bytes.

use bytes::Bytes;
use half::{bf16, f16};
use num_complex::Complex;
use prost::Message;
use tftensor::pb::{self, TensorProto, TensorShapeProto, tensor_shape_proto::Dim};
use tftensor::{
    DataType, Error, FromProtoOptions, Int4, PartialTensorShape, ResourceHandle, Tensor, UInt4,
    Variant,
};

use crate::common;
use common::shape;

fn proto(dtype: DataType, d: &[i64]) -> TensorProto {
    TensorProto {
        dtype: dtype.as_i32(),
        tensor_shape: shape(d),
        ..Default::default()
    }
}

#[test]
fn variant_rules() {
    let mut p = proto(DataType::Variant, &[3]);
    p.variant_val = vec![pb::VariantTensorDataProto {
        type_name: "tensorflow::Tensor".into(),
        metadata: Bytes::new(),
        tensors: vec![Tensor::from(1u8).as_proto_field().unwrap()],
    }];
    // Variants pad with empty variants, not the last value.
    let t = Tensor::from_proto(&p).unwrap();
    let v = t.as_slice::<Variant>().unwrap();
    assert!(!v[0].is_empty());
    assert!(v[1].is_empty() && v[2].is_empty());
    // An empty type name with data is malformed (TF fails).
    p.variant_val[0].type_name.clear();
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::InvalidProto { .. })
    ));
    // A bad nested tensor fails the whole decode.
    p.variant_val[0].type_name = "x".into();
    p.variant_val[0].tensors[0].dtype = 0;
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::InvalidProto { .. })
    ));
}

#[test]
fn resource_rules() {
    let mut p = proto(DataType::Resource, &[2]);
    p.resource_handle_val = vec![pb::ResourceHandleProto {
        name: "v".into(),
        dtypes_and_shapes: vec![pb::resource_handle_proto::DtypeAndShape {
            dtype: 1,
            shape: None,
        }],
        ..Default::default()
    }];
    let t = Tensor::from_proto(&p).unwrap();
    let h = t.as_slice::<ResourceHandle>().unwrap();
    assert_eq!(h[0].name, "v");
    assert_eq!(
        h[0].dtypes_and_shapes,
        [(DataType::Float, PartialTensorShape::new(&[]).unwrap())]
    );
    // Resources pad with default handles.
    assert_eq!(h[1], ResourceHandle::default());
    // Invalid shapes inside a handle are errors.
    for bad in [
        shape(&[-2]),
        Some(TensorShapeProto {
            dim: vec![Dim {
                size: 1,
                name: String::new(),
            }],
            unknown_rank: true,
        }),
    ] {
        p.resource_handle_val[0].dtypes_and_shapes[0].shape = bad;
        let err = Tensor::from_proto(&p).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("Could not decode resource handle from proto: "),
            "{err}"
        );
        // The same in tensor_content.
        let mut c = proto(DataType::Resource, &[1]);
        let enc = p.resource_handle_val[0].encode_to_vec();
        let mut content = vec![enc.len() as u8];
        content.extend_from_slice(&enc);
        c.tensor_content = content.into();
        assert!(matches!(
            Tensor::from_proto(&c),
            Err(Error::InvalidProto { .. })
        ));
    }
}

#[test]
fn message_content_framing_errors() {
    for dt in [DataType::Resource, DataType::Variant] {
        let mut p = proto(dt, &[2]);
        // Lengths 1 and 1 but three payload bytes follow.
        p.tensor_content = Bytes::from_static(&[1, 1, 0x0a, 0x00, 0x00]);
        assert!(
            matches!(Tensor::from_proto(&p), Err(Error::InvalidProto { .. })),
            "{dt}"
        );
        // A payload that is not a message.
        p.tensor_content = Bytes::from_static(&[1, 0, 0xff]);
        assert!(
            matches!(Tensor::from_proto(&p), Err(Error::InvalidProto { .. })),
            "{dt}"
        );
    }
}

#[test]
fn fill_rule_every_field() {
    // (dtype, field set with 2 values, expected [4] data after fill)
    let mut p = proto(DataType::Float, &[4]);
    p.float_val = vec![1.5, -0.0];
    assert_eq!(
        Tensor::from_proto(&p)
            .unwrap()
            .as_slice::<f32>()
            .unwrap()
            .map_bits(),
        [1.5f32, -0.0, -0.0, -0.0].map_bits()
    );
    let mut p = proto(DataType::Double, &[3]);
    p.double_val = vec![2.0];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<f64>().unwrap(),
        &[2.0; 3]
    );
    let mut p = proto(DataType::Int64, &[3]);
    p.int64_val = vec![i64::MIN, 5];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<i64>().unwrap(),
        &[i64::MIN, 5, 5]
    );
    let mut p = proto(DataType::UInt32, &[3]);
    p.uint32_val = vec![u32::MAX];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<u32>().unwrap(),
        &[u32::MAX; 3]
    );
    let mut p = proto(DataType::UInt64, &[2]);
    p.uint64_val = vec![u64::MAX, 1, 2];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<u64>().unwrap(),
        &[u64::MAX, 1]
    );
    let mut p = proto(DataType::Bool, &[3]);
    p.bool_val = vec![false, true];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<bool>().unwrap(),
        &[false, true, true]
    );
    let mut p = proto(DataType::String, &[3]);
    p.string_val = vec![Bytes::from_static(b"a"), Bytes::from_static(b"\xff")];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<Bytes>().unwrap(),
        &[
            Bytes::from_static(b"a"),
            Bytes::from_static(b"\xff"),
            Bytes::from_static(b"\xff")
        ]
    );
    let mut p = proto(DataType::Float8E4M3FN, &[4]);
    p.float8_val = Bytes::from_static(&[0x38, 0x7f]);
    assert_eq!(
        Tensor::from_proto(&p).unwrap().tensor_data().unwrap(),
        &[0x38, 0x7f, 0x7f, 0x7f]
    );
}

trait MapBits {
    fn map_bits(&self) -> Vec<u32>;
}
impl MapBits for [f32] {
    fn map_bits(&self) -> Vec<u32> {
        self.iter().map(|v| v.to_bits()).collect()
    }
}
impl<const N: usize> MapBits for [f32; N] {
    fn map_bits(&self) -> Vec<u32> {
        self.iter().map(|v| v.to_bits()).collect()
    }
}

#[test]
fn no_values_zero_fill_and_extra_values_ignored() {
    for &dt in DataType::all() {
        let t = Tensor::from_proto(&proto(dt, &[2, 3])).unwrap();
        assert_eq!(t, Tensor::new(dt, [2, 3]).unwrap(), "{dt}");
    }
    // {dtype: DT_FLOAT} with no shape and no values → scalar 0.0.
    let t = Tensor::from_proto(&TensorProto {
        dtype: 1,
        ..Default::default()
    })
    .unwrap();
    assert_eq!(t, Tensor::from(0.0f32));
    let mut p = proto(DataType::Int32, &[3]);
    p.int_val = vec![1, 2, 3, 4, 5];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<i32>().unwrap(),
        &[1, 2, 3]
    );
    // A value in another dtype's field is not read.
    let mut p = proto(DataType::Float, &[2]);
    p.int64_val = vec![7];
    p.int_val = vec![7];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<f32>().unwrap(),
        &[0.0, 0.0]
    );
    // 100 × 42 from one value (what compressed protos rely on).
    let mut p = proto(DataType::Float, &[100]);
    p.float_val = vec![42.0];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<f32>().unwrap(),
        &[42.0; 100]
    );
}

#[test]
fn int_val_narrowing() {
    let mut p = proto(DataType::UInt8, &[4]);
    p.int_val = vec![300, -1, 255, 256];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<u8>().unwrap(),
        &[44, 255, 255, 0]
    );
    p.dtype = DataType::Int8.as_i32();
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<i8>().unwrap(),
        &[44, -1, -1, 0]
    );
    p.dtype = DataType::Int16.as_i32();
    p.int_val = vec![70000, -1, 32768, -32769];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<i16>().unwrap(),
        &[4464, -1, -32768, 32767]
    );
    p.dtype = DataType::UInt16.as_i32();
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<u16>().unwrap(),
        &[4464, 65535, 32768, 32767]
    );
    p.dtype = DataType::QUInt8.as_i32();
    p.int_val = vec![-2, 257, 3, 4];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().tensor_data().unwrap(),
        &[254, 1, 3, 4]
    );
    // int4/uint4: narrowed to a byte, not masked.
    p.dtype = DataType::Int4.as_i32();
    p.int_val = vec![-3, 7, 0x95, -8];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().tensor_data().unwrap(),
        &[0xfd, 0x07, 0x95, 0xf8]
    );
    p.dtype = DataType::UInt4.as_i32();
    p.int_val = vec![-2, 16, 15];
    assert_eq!(
        Tensor::from_proto(&p).unwrap().tensor_data().unwrap(),
        &[0xfe, 0x10, 0x0f, 0x0f]
    );
    // AsProtoField writes values: widened, int4 as its nibble value.
    let t = Tensor::from_vec(
        [3],
        vec![
            Int4::from_bits(-3),
            Int4::from_bits(0x95u8 as i8),
            Int4::MIN,
        ],
    )
    .unwrap();
    assert_eq!(t.as_proto_field().unwrap().int_val, [-3, 5, -8]);
    let t = Tensor::from_vec([2], vec![UInt4::from_bits(0xfd), UInt4::from_bits(0x0f)]).unwrap();
    assert_eq!(t.as_proto_field().unwrap().int_val, [13, 15]);
    let t = Tensor::from_vec([2], vec![255u8, 0]).unwrap();
    assert_eq!(t.as_proto_field().unwrap().int_val, [255, 0]);
    let t = Tensor::from_vec([2], vec![-1i16, i16::MIN]).unwrap();
    assert_eq!(t.as_proto_field().unwrap().int_val, [-1, -32768]);
}

#[test]
fn half_and_bfloat16_use_low_16_bits_of_half_val() {
    let mut p = proto(DataType::Half, &[3]);
    p.half_val = vec![0x3c00, 0x1_bc00, -1];
    let t = Tensor::from_proto(&p).unwrap();
    let bits: Vec<u16> = t
        .as_slice::<f16>()
        .unwrap()
        .iter()
        .map(|h| h.to_bits())
        .collect();
    assert_eq!(bits, [0x3c00, 0xbc00, 0xffff]);
    p.dtype = DataType::BFloat16.as_i32();
    let t = Tensor::from_proto(&p).unwrap();
    assert_eq!(
        t.tensor_data().unwrap(),
        &[0x00, 0x3c, 0x00, 0xbc, 0xff, 0xff]
    );
    // Written zero-extended.
    let t = Tensor::from_vec([2], vec![f16::NEG_ONE, f16::from_bits(0xffff)]).unwrap();
    assert_eq!(t.as_proto_field().unwrap().half_val, [0xbc00, 0xffff]);
    let t = Tensor::from_vec([1], vec![bf16::from_bits(0x8001)]).unwrap();
    assert_eq!(t.as_proto_field().unwrap().half_val, [0x8001]);
}

#[test]
fn complex_pairs_and_odd_trailing_value() {
    let mut p = proto(DataType::Complex64, &[3]);
    p.scomplex_val = vec![1.0, 2.0, 3.0, 4.0, 5.0];
    let t = Tensor::from_proto(&p).unwrap();
    let c = |re, im| Complex::new(re, im);
    assert_eq!(
        t.as_slice::<Complex<f32>>().unwrap(),
        &[c(1.0, 2.0), c(3.0, 4.0), c(3.0, 4.0)]
    );
    let mut p = proto(DataType::Complex128, &[2]);
    p.dcomplex_val = vec![9.0];
    let t = Tensor::from_proto(&p).unwrap();
    assert_eq!(
        t.as_slice::<Complex<f64>>().unwrap(),
        &[Complex::new(0.0, 0.0); 2]
    );
    let t = Tensor::from_vec(
        [2],
        vec![Complex::new(1.0f64, -1.0), Complex::new(0.5, 0.25)],
    )
    .unwrap();
    assert_eq!(
        t.as_proto_field().unwrap().dcomplex_val,
        [1.0, -1.0, 0.5, 0.25]
    );
}

#[test]
fn content_wins_over_fields() {
    let mut p = proto(DataType::Int32, &[2]);
    p.int_val = vec![9, 9];
    p.tensor_content = Bytes::from_static(&[1, 0, 0, 0, 2, 0, 0, 0]);
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<i32>().unwrap(),
        &[1, 2]
    );
}

#[test]
fn content_errors() {
    let mut p = proto(DataType::Float, &[2, 3]);
    p.tensor_content = Bytes::from(vec![0u8; 20]);
    assert_eq!(
        Tensor::from_proto(&p).unwrap_err(),
        Error::invalid_proto("Input size was 20 and expected 24")
    );
    p.tensor_content = Bytes::from(vec![0u8; 28]);
    assert_eq!(
        Tensor::from_proto(&p).unwrap_err(),
        Error::invalid_proto("Input size was 28 and expected 24")
    );
    // Bool.DecodeValidate: bytes other than 0/1 are rejected.
    let mut p = proto(DataType::Bool, &[5]);
    p.tensor_content = Bytes::from_static(&[0, 1, 2, 3, 4]);
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::InvalidProto { .. })
    ));
    p.tensor_content = Bytes::from_static(&[0, 1, 1, 0, 1]);
    assert_eq!(
        Tensor::from_proto(&p).unwrap().as_slice::<bool>().unwrap(),
        &[false, true, true, false, true]
    );
    // String content must be consumed exactly.
    let mut p = proto(DataType::String, &[2]);
    p.tensor_content = Bytes::from_static(b"\x01\x01ab!");
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::InvalidProto { .. })
    ));
    p.tensor_content = Bytes::from_static(b"\x01\x01a");
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::InvalidProto { .. })
    ));
    p.tensor_content = Bytes::from_static(b"\xff");
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::InvalidProto { .. })
    ));
    p.tensor_content = Bytes::from_static(b"\x01\x02a\xffz");
    let t = Tensor::from_proto(&p).unwrap();
    assert_eq!(
        t.as_slice::<Bytes>().unwrap(),
        &[Bytes::from_static(b"a"), Bytes::from_static(b"\xffz")]
    );
}

#[test]
fn shape_rules() {
    // unknown_rank without dims is a scalar.
    let mut p = proto(DataType::Int32, &[]);
    p.tensor_shape = Some(TensorShapeProto {
        dim: vec![],
        unknown_rank: true,
    });
    p.int_val = vec![5];
    assert_eq!(Tensor::from_proto(&p).unwrap(), Tensor::from(5i32));
    let big = 1i64 << 62;
    for d in [
        &[-1i64][..],
        &[2, -1],
        &[-5],
        &[big, big],
        &[i64::MAX, 2],
        &[0, big, big],
    ] {
        let p = proto(DataType::Float, d);
        assert!(
            matches!(Tensor::from_proto(&p), Err(Error::InvalidProto { .. })),
            "{d:?}"
        );
    }
    assert!(matches!(
        Tensor::from_proto(&proto(DataType::Float, &[1; 255])),
        Err(Error::InvalidProto { .. })
    ));
    assert_eq!(
        Tensor::from_proto(&proto(DataType::Float, &[1; 254]))
            .unwrap()
            .dims(),
        254
    );
}

#[test]
fn zero_elements_ignore_content() {
    let mut p = proto(DataType::Float, &[0]);
    p.tensor_content = Bytes::from_static(b"garbage");
    p.float_val = vec![1.0];
    let t = Tensor::from_proto(&p).unwrap();
    assert_eq!(t.shape().dim_sizes(), [0]);
    assert!(t.data_ptr().is_none());
    let mut p = proto(DataType::String, &[3, 0]);
    p.tensor_content = Bytes::from_static(b"\xff\xff");
    assert_eq!(Tensor::from_proto(&p).unwrap().shape().dim_sizes(), [3, 0]);
}

#[test]
fn unsupported_dtypes_are_errors() {
    for n in [
        0,
        DataType::Float.as_ref_type().as_i32(),
        DataType::Float4E2M1FN.as_ref_type().as_i32(),
        34,
        77,
        999,
        -1,
    ] {
        for d in [&[1i64][..], &[0], &[]] {
            let p = TensorProto {
                dtype: n,
                tensor_shape: shape(d),
                ..Default::default()
            };
            assert!(
                matches!(Tensor::from_proto(&p), Err(Error::InvalidProto { .. })),
                "{n} {d:?}"
            );
        }
    }
    let p = TensorProto {
        dtype: 0,
        ..Default::default()
    };
    assert_eq!(
        Tensor::from_proto(&p).unwrap_err(),
        Error::invalid_proto("Type not set")
    );
    let p = TensorProto {
        dtype: 101,
        ..Default::default()
    };
    assert_eq!(
        Tensor::from_proto(&p).unwrap_err(),
        Error::invalid_proto("Unexpected type: DT_FLOAT_REF")
    );
}

#[test]
fn hostile_shapes_hit_the_byte_limit_before_allocating() {
    let mut p = proto(DataType::Float, &[1 << 40]);
    assert_eq!(
        Tensor::from_proto(&p).unwrap_err(),
        Error::LimitExceeded {
            what: "decoded tensor bytes (FromProtoOptions::max_bytes)",
            limit: 1 << 31,
            requested: 1 << 42,
        }
    );
    p.float_val = vec![1.0];
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::LimitExceeded { .. })
    ));
    // Exactly at the limit is fine; one element more is not.
    let opts = FromProtoOptions::default().with_max_bytes(400);
    let mut p = proto(DataType::Float, &[100]);
    assert!(Tensor::from_proto_with(&p, &opts).is_ok());
    p.tensor_shape = shape(&[101]);
    assert!(matches!(
        Tensor::from_proto_with(&p, &opts),
        Err(Error::LimitExceeded {
            limit: 400,
            requested: 404,
            ..
        })
    ));
    // Strings count their in-memory element size.
    let p = proto(DataType::String, &[1 << 30]);
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::LimitExceeded { .. })
    ));
}

#[test]
fn nested_variants_share_the_budget_and_depth_limit() {
    // Ten variants each holding a [100] float tensor of one value: 4000
    // bytes of floats from a tiny proto.
    let mut inner = proto(DataType::Float, &[100]);
    inner.float_val = vec![1.0];
    let mut p = proto(DataType::Variant, &[10]);
    p.variant_val = vec![
        pb::VariantTensorDataProto {
            type_name: "t".into(),
            metadata: Bytes::new(),
            tensors: vec![inner]
        };
        10
    ];
    let variants = 10 * std::mem::size_of::<Variant>() as u64;
    let opts = FromProtoOptions::default().with_max_bytes(variants + 4000);
    assert!(Tensor::from_proto_with(&p, &opts).is_ok());
    let opts = opts.with_max_bytes(variants + 3999);
    assert!(matches!(
        Tensor::from_proto_with(&p, &opts),
        Err(Error::LimitExceeded { .. })
    ));

    // Depth: a chain of variants 3 deep.
    let mut t = Tensor::from(1i8);
    for _ in 0..3 {
        t = Tensor::from(Variant::from_tensor(t));
    }
    let p = t.as_proto_field().unwrap();
    let ok = Tensor::from_proto_with(&p, &FromProtoOptions::default().with_max_depth(3)).unwrap();
    assert_eq!(ok, t);
    assert!(matches!(
        Tensor::from_proto_with(&p, &FromProtoOptions::default().with_max_depth(2)),
        Err(Error::LimitExceeded { .. })
    ));
    // Through tensor_content too (each element is parsed separately, so
    // only max_depth bounds the nesting).
    let c = t.as_proto_tensor_content().unwrap();
    assert_eq!(
        Tensor::from_proto_with(&c, &FromProtoOptions::default().with_max_depth(3)).unwrap(),
        t
    );
    assert!(matches!(
        Tensor::from_proto_with(&c, &FromProtoOptions::default().with_max_depth(2)),
        Err(Error::LimitExceeded { .. })
    ));
}

#[test]
fn default_depth_limit_is_64() {
    let chain = |depth: usize| {
        let mut t = Tensor::from(1i8);
        for _ in 0..depth {
            t = Tensor::from(Variant::from_tensor(t));
        }
        t
    };
    let t = chain(64);
    assert_eq!(Tensor::from_proto(&t.as_proto_field().unwrap()).unwrap(), t);
    let deeper = chain(65).as_proto_field().unwrap();
    assert!(matches!(
        Tensor::from_proto(&deeper),
        Err(Error::LimitExceeded { .. })
    ));
    // Parsed from bytes, prost's own recursion limit (100 nested messages,
    // as in C++ protobuf) stops a 64-deep chain first: nested tensors are
    // always in field form, so each level is two nested messages. An error,
    // no panic.
    let wire = Bytes::from(t.as_proto_field().unwrap().encode_to_vec());
    assert!(matches!(
        Tensor::decode(wire),
        Err(Error::InvalidProto { .. })
    ));
    let content = t.as_proto_tensor_content().unwrap();
    assert!(matches!(
        Tensor::from_proto(&content),
        Err(Error::InvalidProto { .. })
    ));
    let shallow = chain(40);
    let wire = Bytes::from(shallow.as_proto_tensor_content().unwrap().encode_to_vec());
    assert_eq!(Tensor::decode(wire).unwrap(), shallow);
}

/// Bytes whose `offset`-th byte sits at an address ≡ `residue` (mod 64),
/// holding `wire` from there on.
fn placed(wire: &[u8], offset: usize, residue: usize) -> Bytes {
    let mut storage = vec![0u8; wire.len() + 128];
    let base = storage.as_ptr() as usize + offset;
    let pad = (residue + 64 - base % 64) % 64;
    storage[pad..pad + wire.len()].copy_from_slice(wire);
    Bytes::from(storage).slice(pad..pad + wire.len())
}

#[test]
fn decode_adopts_aligned_content_without_copy() {
    let t = Tensor::from_vec([2, 3], vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0]).unwrap();
    let wire = t.as_proto_tensor_content().unwrap().encode_to_vec();
    let offset = wire.len() - 48; // content is the last field
    assert!((10..=19).contains(&offset), "{offset}");
    for residue in [0usize, 8, 16, 40] {
        let bytes = placed(&wire, offset, residue);
        let content_ptr = bytes[offset..].as_ptr();
        let back = Tensor::decode(bytes.clone()).unwrap();
        assert_eq!(back, t);
        assert_eq!(back.data_ptr(), Some(content_ptr), "residue {residue}");
        assert_eq!(
            back.allocation_description().unwrap().allocator_name,
            "external"
        );
        assert_eq!(back.is_aligned(), residue == 0);
        // Re-encoding shares the adopted bytes too.
        let again = back.as_proto_tensor_content().unwrap();
        assert_eq!(again.tensor_content.as_ptr(), content_ptr);
    }
}

#[test]
fn decode_copies_misaligned_content_once() {
    let t = Tensor::from_vec([3], vec![1.0f32, -2.0, 3.5]).unwrap();
    let wire = t.as_proto_tensor_content().unwrap().encode_to_vec();
    let offset = wire.len() - 12;
    for residue in [1usize, 2, 3, 5, 63] {
        let bytes = placed(&wire, offset, residue);
        let content_ptr = bytes[offset..].as_ptr();
        let back = Tensor::decode(bytes).unwrap();
        assert_eq!(back, t);
        assert_ne!(back.data_ptr(), Some(content_ptr));
        assert!(back.is_aligned(), "copied into a 64-byte-aligned buffer");
    }
    // One-byte elements are always aligned: always adopted.
    let t = Tensor::from_vec([3], vec![1u8, 2, 3]).unwrap();
    let wire = t.as_proto_tensor_content().unwrap().encode_to_vec();
    let bytes = placed(&wire, wire.len() - 3, 7);
    let content_ptr = bytes[wire.len() - 3..].as_ptr();
    assert_eq!(Tensor::decode(bytes).unwrap().data_ptr(), Some(content_ptr));
}

#[test]
fn decoded_strings_slice_the_input() {
    let t = Tensor::from_vec(
        [2],
        vec![
            Bytes::from_static(b"hello"),
            Bytes::from_static(b"\xffworld"),
        ],
    )
    .unwrap();
    let wire = Bytes::from(t.as_proto_tensor_content().unwrap().encode_to_vec());
    let range = wire.as_ptr() as usize..wire.as_ptr() as usize + wire.len();
    let back = Tensor::decode(wire.clone()).unwrap();
    assert_eq!(back, t);
    for s in back.as_slice::<Bytes>().unwrap() {
        assert!(range.contains(&(s.as_ptr() as usize)));
    }
}
