//! C++ protobuf's leniency: a known field with a wire type its declaration
//! does not allow is skipped as unknown, and what C++ rejects stays
//! rejected. Expected results come from TF 2.21's `tf.io.parse_tensor`
//! (scripts/wire_type_sweep.py wrote tests/data/proto/wire_types.json).

use bytes::Bytes;
use prost::Message;
use serde_json::Value;
use tftensor::{DataType, Error, Tensor, Variant, pb};

fn cases() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/proto/wire_types.json"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["cases"].as_array().unwrap().clone()
}

/// Every TensorProto field number (and unknown ones) with every wire type,
/// and the mistyped fields inside the shape: the same outcome as TF, the
/// same tensor when it parses.
#[test]
fn every_field_and_wire_type_as_tf_parses_it() {
    let cases = cases();
    assert_eq!(cases.len(), 210);
    let (mut parsed, mut refused) = (0, 0);
    for c in &cases {
        let wire = hex::decode(c["hex"].as_str().unwrap()).unwrap();
        let what = format!("{} field {} wire {}", c["where"], c["field"], c["wire"]);
        let got = Tensor::decode(Bytes::from(wire));
        if c["ok"].as_bool().unwrap() {
            let t = got.unwrap_or_else(|e| panic!("{what}: TF parses it, we fail: {e}"));
            assert_eq!(t.dtype(), DataType::Float, "{what}");
            let shape: Vec<i64> = c["shape"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d.as_i64().unwrap())
                .collect();
            assert_eq!(t.shape().dim_sizes(), shape, "{what}");
            assert_eq!(hex::encode(t.tensor_data().unwrap()), c["data"], "{what}");
            parsed += 1;
        } else {
            let e = got.expect_err(&what);
            assert!(matches!(e, Error::InvalidProto { .. }), "{what}: {e}");
            refused += 1;
        }
    }
    // Wire types 4 (a stray end-group), 6 and 7 are refused for any field.
    assert_eq!((parsed, refused), (132, 78));
}

/// The example: `variant_val` sent as a varint.
#[test]
fn variant_val_as_varint_is_skipped() {
    let wire = hex::decode("08011204120208022a080000803f000000407807").unwrap();
    let t = Tensor::decode(Bytes::from(wire)).unwrap();
    assert_eq!(t.as_slice::<f32>().unwrap(), &[1.0, 2.0]);
}

/// Wrong wire types inside a variant element and inside its nested tensor
/// are skipped, in both the field and the content (list-coded) forms.
#[test]
fn mistyped_fields_inside_variants_are_skipped() {
    let varint = |n: usize, out: &mut Vec<u8>| prost::encoding::encode_varint(n as u64, out);
    let inner = Tensor::from_vec([2], vec![3i32, 4]).unwrap();
    let inner_wire = inner.as_proto_tensor_content().unwrap().encode_to_vec();
    let mut dirty_inner = inner_wire.clone();
    dirty_inner.extend([0x1a, 0x01, 0x00]); // version_number as LEN
    let element = |tensor: &[u8], extra: &[u8]| {
        let mut e = pb::VariantTensorDataProto {
            type_name: "tensorflow::Tensor".into(),
            ..Default::default()
        }
        .encode_to_vec();
        e.extend(extra);
        e.push(0x1a); // tensors
        varint(tensor.len(), &mut e);
        e.extend(tensor);
        e
    };
    let header = pb::TensorProto {
        dtype: DataType::Variant.as_i32(),
        tensor_shape: Some(tftensor::TensorShape::new(&[1]).unwrap().as_proto()),
        ..Default::default()
    }
    .encode_to_vec();
    let field_form = |elem: &[u8]| {
        let mut w = header.clone();
        w.push(0x7a); // variant_val
        varint(elem.len(), &mut w);
        w.extend(elem);
        w
    };
    let content_form = |elem: &[u8]| {
        let mut c = Vec::new();
        varint(elem.len(), &mut c);
        c.extend(elem);
        let mut w = header.clone();
        w.push(0x22); // tensor_content
        varint(c.len(), &mut w);
        w.extend(c);
        w
    };
    let want = Tensor::from_vec([1], vec![Variant::from_tensor(inner.clone())]).unwrap();
    // type_name (a string) sent as a varint, metadata as fixed32.
    let mistyped_element_fields = [0x08, 0x01, 0x15, 0, 0, 0, 0];
    for form in [&field_form as &dyn Fn(&[u8]) -> Vec<u8>, &content_form] {
        assert_eq!(
            Tensor::decode(form(&element(&inner_wire, &[])).into()).unwrap(),
            want
        );
        assert_eq!(
            Tensor::decode(form(&element(&dirty_inner, &[])).into()).unwrap(),
            want
        );
        let both = form(&element(&dirty_inner, &mistyped_element_fields));
        assert_eq!(Tensor::decode(both.into()).unwrap(), want);
    }
}

/// What C++ rejects stays rejected: truncation, bad varints, lengths past
/// the end, field 0.
#[test]
fn malformed_input_is_still_refused() {
    for h in [
        "08011204120208022a080000803f0000",       // truncated payload
        "08011204120208022a080000803f00000040ff", // key cut short
        "0801120412020802ffffffffffffffffffff01", // 11-byte varint
        "0801120412020802faffffffffffffffff01",   // length past the end
        "0001",                                   // field 0
        "7b",                                     // group never closed
        "7b0c",                                   // group closed by another field
    ] {
        let wire = hex::decode(h).unwrap();
        assert!(
            matches!(
                Tensor::decode(Bytes::from(wire)),
                Err(Error::InvalidProto { .. })
            ),
            "{h}"
        );
    }
}
