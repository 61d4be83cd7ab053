//! AsProtoField / AsProtoTensorContent → FromProto: TF's TestCopies proto
//! round trips for every dtype, encoding details, the 2 GiB limit and
//! FillDescription. FromProto's own rules are in tests/proto/from_proto.rs.

use bytes::Bytes;
use half::{bf16, f16};
use num_complex::Complex;
use prost::Message;
use tftensor::pb::{self, TensorShapeProto};
use tftensor::{
    DataType, Error, Int2, Int4, PartialTensorShape, QInt8, QUInt16, ResourceHandle, Tensor, UInt2,
    UInt4, Variant,
};

use crate::common;
use common::shape;

/// Deterministic element bytes for a POD dtype: every byte pattern shows up
/// (NaN payloads, -0.0, subnormals), bools are 0/1.
fn pattern_bytes(dtype: DataType, n: usize) -> Bytes {
    let len = n * dtype.size();
    let v: Vec<u8> = (0..len)
        .map(|i| {
            if dtype == DataType::Bool {
                u8::from(i % 3 != 1)
            } else {
                (i.wrapping_mul(151).wrapping_add(7) % 256) as u8
            }
        })
        .collect();
    Bytes::from(v)
}

fn pod_tensor(dtype: DataType, d: &[i64]) -> Tensor {
    let n: i64 = d.iter().product();
    Tensor::from_buffer(dtype, d, pattern_bytes(dtype, n as usize)).unwrap()
}

/// Equality as TF's TestCopies checks it: element values. For int4/uint4
/// and int2/uint2 the value is the low bits (AsProtoField writes the value, FromProto
/// narrows it back to a byte with the sign extended), so compare values;
/// everything else must match bit for bit.
fn assert_same(a: &Tensor, b: &Tensor, what: &str) {
    match a.dtype() {
        DataType::Int4 => {
            assert_eq!(a.shape(), b.shape(), "{what}");
            assert_eq!(
                a.as_slice::<Int4>().unwrap(),
                b.as_slice::<Int4>().unwrap(),
                "{what}"
            );
        }
        DataType::UInt4 => {
            assert_eq!(a.shape(), b.shape(), "{what}");
            assert_eq!(
                a.as_slice::<UInt4>().unwrap(),
                b.as_slice::<UInt4>().unwrap(),
                "{what}"
            );
        }
        DataType::Int2 => {
            assert_eq!(a.shape(), b.shape(), "{what}");
            assert_eq!(
                a.as_slice::<Int2>().unwrap(),
                b.as_slice::<Int2>().unwrap(),
                "{what}"
            );
        }
        DataType::UInt2 => {
            assert_eq!(a.shape(), b.shape(), "{what}");
            assert_eq!(
                a.as_slice::<UInt2>().unwrap(),
                b.as_slice::<UInt2>().unwrap(),
                "{what}"
            );
        }
        _ => assert_eq!(a, b, "{what}"),
    }
}

/// The proto parts of TF's TestCopies: (d) AsProtoField → FromProto and
/// (e) AsProtoTensorContent → FromProto (twice), each through the wire too.
fn test_copies(t: &Tensor) {
    let what = format!("{} {}", t.dtype(), t.shape());
    let field = t.as_proto_field().unwrap();
    assert!(field.tensor_content.is_empty(), "{what}");
    assert_same(
        t,
        &Tensor::from_proto(&field).unwrap(),
        &format!("field {what}"),
    );
    assert_same(
        t,
        &Tensor::decode(field.encode_to_vec().into()).unwrap(),
        &format!("field wire {what}"),
    );
    for _ in 0..2 {
        let content = t.as_proto_tensor_content().unwrap();
        assert_eq!(t, &Tensor::from_proto(&content).unwrap(), "content {what}");
        let wire = Bytes::from(content.encode_to_vec());
        assert_eq!(t, &Tensor::decode(wire).unwrap(), "content wire {what}");
    }
}

#[test]
fn test_copies_every_pod_dtype_and_shape() {
    for &dt in DataType::all() {
        if !dt.can_use_memcpy() {
            continue;
        }
        for d in [&[][..], &[0], &[1], &[5, 7], &[2, 0, 3], &[3, 1, 4]] {
            test_copies(&pod_tensor(dt, d));
        }
    }
}

#[test]
fn test_copies_tf_simple_tensors() {
    // Tensor_Float.Simple & co: [10,20] / [5,7] / [2,2] with m(a,b) = a*b.
    let prod = |r: usize, c: usize| (0..r * c).map(move |i| (i / c * (i % c)) as f64);
    test_copies(&Tensor::from_vec([10, 20], prod(10, 20).map(|v| v as f32).collect()).unwrap());
    test_copies(&Tensor::from_vec([10, 20], prod(10, 20).collect()).unwrap());
    test_copies(&Tensor::from_vec([10, 20], prod(10, 20).map(|v| v as i8).collect()).unwrap());
    test_copies(&Tensor::from_vec([10, 20], prod(10, 20).map(|v| v as i16).collect()).unwrap());
    test_copies(&Tensor::from_vec([10, 20], prod(10, 20).map(|v| v as i32).collect()).unwrap());
    test_copies(&Tensor::from_vec([10, 20], prod(10, 20).map(|v| v as i64).collect()).unwrap());
    test_copies(&Tensor::from_vec([10, 20], prod(10, 20).map(|v| v as u64).collect()).unwrap());
    test_copies(&Tensor::from_vec([5, 7], prod(5, 7).map(f16::from_f64).collect()).unwrap());
    test_copies(&Tensor::from_vec([5, 7], prod(5, 7).map(bf16::from_f64).collect()).unwrap());
    test_copies(&Tensor::from_vec([2, 2], vec![true; 4]).unwrap());
    test_copies(&Tensor::from_vec([2, 2], prod(2, 2).map(|v| v as u8).collect()).unwrap());
    test_copies(&Tensor::from_vec([2, 2], prod(2, 2).map(|v| QInt8(v as i8)).collect()).unwrap());
    test_copies(
        &Tensor::from_vec([2, 2], prod(2, 2).map(|v| QUInt16(v as u16)).collect()).unwrap(),
    );
    let c: Vec<Complex<f32>> = (0..4 * 5 * 3 * 7)
        .map(|i| Complex::new(i as f32 * 0.5, -(i as f32)))
        .collect();
    test_copies(&Tensor::from_vec([4, 5, 3, 7], c).unwrap());
    // Slices and sub-slices (TF's Slice_Basic runs TestCopies on a slice).
    let base = pod_tensor(DataType::Float, &[10, 4, 36]);
    test_copies(&base.slice(4, 8).unwrap());
    test_copies(&base.sub_slice(3).unwrap().sub_slice(1).unwrap());
}

#[test]
fn test_copies_strings_with_non_utf8_bytes() {
    // Tensor_String.Simple's six words, plus bytes that are not UTF-8.
    let t = common::string_simple();
    test_copies(&t);
    let odd: Vec<Bytes> = vec![
        Bytes::from_static(b"\xff\xfe\x00\x80"),
        Bytes::new(),
        Bytes::from(vec![0xc3u8; 300]),
        Bytes::from_static(b"\xc3\x28"),
    ];
    let t = Tensor::from_vec([2, 2], odd.clone()).unwrap();
    test_copies(&t);
    let p = t.as_proto_tensor_content().unwrap();
    assert_eq!(p.tensor_content.get(..5), Some(&[4u8, 0, 0xac, 2, 2][..]));
    assert_eq!(t.as_proto_field().unwrap().string_val, odd);
    test_copies(&Tensor::from(Bytes::from_static(b"\x80")));
    test_copies(&Tensor::new(DataType::String, [0, 4]).unwrap());
    test_copies(&Tensor::new(DataType::String, [3]).unwrap());
}

fn handle(name: &str) -> ResourceHandle {
    ResourceHandle {
        device: "/job:localhost/replica:0/task:0/device:CPU:0".into(),
        container: "c".into(),
        name: name.into(),
        hash_code: 0x1234_5678_9abc_def0,
        maybe_type_name: "tensorflow::Var".into(),
        dtypes_and_shapes: vec![
            (DataType::Float, PartialTensorShape::new(&[2, -1]).unwrap()),
            (DataType::Int64, PartialTensorShape::unknown()),
            (DataType::String, PartialTensorShape::new(&[]).unwrap()),
        ],
    }
}

#[test]
fn test_copies_resource() {
    // Tensor_ResourceHandle.Simple: a scalar handle named "a".
    let a = ResourceHandle {
        name: "a".into(),
        ..Default::default()
    };
    test_copies(&Tensor::from(a));
    let t = Tensor::from_vec(
        [3],
        vec![handle("x"), ResourceHandle::default(), handle("y")],
    )
    .unwrap();
    test_copies(&t);
    let field = t.as_proto_field().unwrap();
    let h = &field.resource_handle_val[0];
    assert_eq!(h.name, "x");
    assert_eq!(h.hash_code, 0x1234_5678_9abc_def0);
    assert_eq!(h.dtypes_and_shapes[0].shape, shape(&[2, -1]));
    let unknown = TensorShapeProto {
        dim: vec![],
        unknown_rank: true,
    };
    assert_eq!(h.dtypes_and_shapes[1].shape, Some(unknown));
    test_copies(&Tensor::new(DataType::Resource, [0]).unwrap());
}

#[test]
fn test_copies_variant() {
    // Tensor_Variant.Simple: a scalar variant holding a float scalar 42.
    let inner = Tensor::from(42.0f32);
    test_copies(&Tensor::from(Variant::from_tensor(inner.clone())));
    let custom = Variant {
        type_name: "my::Type".into(),
        metadata: Bytes::from_static(b"\x00\xffmeta"),
        tensors: vec![
            Tensor::from("s"),
            pod_tensor(DataType::Int16, &[2, 3]),
            Tensor::new(DataType::Float, [0]).unwrap(),
        ],
    };
    let nested = Variant::from_tensor(Tensor::from(Variant::from_tensor(Tensor::from(7i64))));
    let t = Tensor::from_vec(
        [2, 2],
        vec![
            custom,
            Variant::default(),
            nested,
            Variant::from_tensor(inner),
        ],
    )
    .unwrap();
    test_copies(&t);
    test_copies(&Tensor::new(DataType::Variant, [2, 0]).unwrap());
    // Nested tensors go through AsProtoField, as TF's VariantTensorData::ToProto.
    let field = t.as_proto_field().unwrap();
    assert_eq!(
        field.variant_val[0].tensors[0].string_val,
        [Bytes::from_static(b"s")]
    );
    assert_eq!(field.variant_val[1], pb::VariantTensorDataProto::default());
}

#[test]
fn variant_marshal() {
    // Tensor_Variant.Marshal: AsProtoField → FromProto decodes the inner tensor.
    let t = Tensor::from(Variant::from_tensor(Tensor::from(42.0f32)));
    let p = t.as_proto_field().unwrap();
    assert_eq!(p.variant_val.len(), 1);
    assert_eq!(p.variant_val[0].type_name, "tensorflow::Tensor");
    assert_eq!(p.variant_val[0].tensors[0].float_val, [42.0]);
    let back = Tensor::from_proto(&p).unwrap();
    let v = &back.as_slice::<Variant>().unwrap()[0];
    assert_eq!(v.as_tensor().unwrap().scalar::<f32>().unwrap()[()], 42.0);
}

#[test]
fn serialized_bytes_match_tf_examples() {
    // tf.io.serialize_tensor(tf.constant(1.0)).
    let wire = Tensor::from(1.0f32)
        .as_proto_tensor_content()
        .unwrap()
        .encode_to_vec();
    assert_eq!(
        wire,
        [0x08, 0x01, 0x12, 0x00, 0x22, 0x04, 0x00, 0x00, 0x80, 0x3f]
    );
    // [0] float: shape only, no content field.
    let wire = Tensor::new(DataType::Float, [0])
        .unwrap()
        .as_proto_tensor_content()
        .unwrap()
        .encode_to_vec();
    assert_eq!(wire, [0x08, 0x01, 0x12, 0x02, 0x12, 0x00]);
    // Strings ["ab", "", "xyz"] as content: TF's string-list coding (all varint lengths, then all bytes).
    let t = Tensor::from_vec(
        [3],
        vec![
            Bytes::from_static(b"ab"),
            Bytes::new(),
            Bytes::from_static(b"xyz"),
        ],
    )
    .unwrap();
    let p = t.as_proto_tensor_content().unwrap();
    assert_eq!(
        &p.tensor_content[..],
        &[0x02, 0x00, 0x03, 0x61, 0x62, 0x78, 0x79, 0x7a]
    );
}

#[test]
fn protos_of_2_gib_or_more_are_refused() {
    // 2^31 zero bytes from calloc: never touched, so no real memory is used.
    let big = Bytes::from(vec![0u8; 1 << 31]);
    let t = Tensor::from_buffer(DataType::UInt8, [1i64 << 31], big).unwrap();
    for err in [
        t.as_proto_tensor_content().unwrap_err(),
        t.as_proto_field().unwrap_err(),
        t.encode_proto_field().unwrap_err(),
    ] {
        match err {
            Error::LimitExceeded {
                limit, requested, ..
            } => {
                assert_eq!(limit, 2_147_483_647);
                assert!(requested > 1 << 31, "{requested}");
            }
            other => panic!("{other:?}"),
        }
    }
    // The same bytes as 2^29 floats (a shared bitcast): the fixed-width
    // float_val size is computed without reading the data.
    let mut f = Tensor::default();
    f.bitcast_from(&t, DataType::Float, [1i64 << 29]).unwrap();
    for err in [
        f.as_proto_field().unwrap_err(),
        f.encode_proto_field().unwrap_err(),
    ] {
        assert!(
            err.to_string().contains("exceeds the limit of 2147483647"),
            "{err}"
        );
    }
    // A slice just under the limit builds its proto header fine.
    let small = t.slice(0, 16).unwrap();
    assert_eq!(
        small
            .as_proto_tensor_content()
            .unwrap()
            .tensor_content
            .len(),
        16
    );
}

#[test]
fn fill_description_reports_the_root_buffer() {
    let t = Tensor::new(DataType::Float, [10, 4, 36]).unwrap();
    let d = t.slice(4, 8).unwrap().fill_description();
    assert_eq!(d.dtype, DataType::Float.as_i32());
    assert_eq!(d.shape, shape(&[4, 4, 36]));
    let a = d.allocation_description.unwrap();
    assert_eq!(a.requested_bytes, 1440 * 4);
    assert_eq!(a.allocator_name, "cpu");
    assert_eq!(a.ptr, t.data_ptr().unwrap() as u64);
    let e = Tensor::new(DataType::Float, [0])
        .unwrap()
        .fill_description();
    assert_eq!(
        e,
        pb::TensorDescription {
            dtype: 1,
            shape: shape(&[0]),
            allocation_description: None
        }
    );
}

/// Issue 11, fault 1: a uint8 tensor sliced at an odd offset and bitcast to
/// float is readable; TF writes `float_val: 1.0` (and the content form).
#[test]
fn misaligned_elements_encode_in_both_forms() {
    let f = common::at_odd_address(&[0, 0, 0x80, 0x3f], DataType::Float, &[1]);
    let field = f.as_proto_field().unwrap();
    assert_eq!(field.float_val, [1.0]);
    let wire = field.encode_to_vec();
    assert_eq!(hex::encode(&wire), "08011204120208012a040000803f");
    assert_eq!(f.encode_proto_field().unwrap(), wire);
    let content = f.as_proto_tensor_content().unwrap();
    assert_eq!(&content.tensor_content[..], &[0, 0, 0x80, 0x3f]);
    // uint64 from 8 bytes at offset 1.
    let u = common::at_odd_address(
        &0x0102_0304_0506_0708u64.to_le_bytes(),
        DataType::UInt64,
        &[1],
    );
    assert_eq!(
        u.as_proto_field().unwrap().uint64_val,
        [0x0102_0304_0506_0708]
    );
    assert_eq!(
        u.encode_proto_field().unwrap(),
        u.as_proto_field().unwrap().encode_to_vec()
    );
}

#[test]
fn fill_description_counts_sizeof_tstring_per_string() {
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
