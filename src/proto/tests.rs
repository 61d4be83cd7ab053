//! Unit tests of the codec's internals (the public behaviour is tested in
//! tests/proto*.rs).

use bytes::Bytes;
use prost::Message;

use crate::dtype::DataType;
use crate::error::Error;
use crate::pb;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

use super::encode::{MAX_PROTO_BYTES, TENSOR_CONTENT_TAG, check_proto_size, proto_header};
use super::field::bytes_field_len;
use super::shape::{shape_from_proto, shape_to_proto};

#[test]
fn proto_size_limit_is_protobufs_int_max() {
    assert_eq!(MAX_PROTO_BYTES, 2_147_483_647);
    assert!(check_proto_size(MAX_PROTO_BYTES).is_ok());
    assert_eq!(
        check_proto_size(MAX_PROTO_BYTES + 1).unwrap_err(),
        Error::LimitExceeded {
            what: "encoded TensorProto bytes (protobuf messages must stay under 2 GiB)",
            limit: 2_147_483_647,
            requested: 2_147_483_648,
        }
    );
}

#[test]
fn bytes_field_len_matches_prost() {
    for len in [0usize, 1, 127, 128, 16_383, 16_384, 300_000] {
        let p = pb::TensorProto {
            tensor_content: Bytes::from(vec![0u8; len]),
            ..Default::default()
        };
        assert_eq!(
            bytes_field_len(TENSOR_CONTENT_TAG, len as u64),
            p.encoded_len() as u64,
            "{len}"
        );
    }
    // A content of exactly the remaining room passes; one byte more fails.
    let header = proto_header(&Tensor::new(DataType::UInt8, [1]).unwrap()).encoded_len() as u64;
    let room = MAX_PROTO_BYTES - header - 1 - 5; // tag + 5-byte varint length
    assert!(check_proto_size(header + bytes_field_len(TENSOR_CONTENT_TAG, room)).is_ok());
    assert!(check_proto_size(header + bytes_field_len(TENSOR_CONTENT_TAG, room + 1)).is_err());
}

#[test]
fn shape_from_proto_rules() {
    use pb::tensor_shape_proto::Dim;
    let dims = |d: &[i64]| pb::TensorShapeProto {
        dim: d
            .iter()
            .map(|&size| Dim {
                size,
                name: String::new(),
            })
            .collect(),
        unknown_rank: false,
    };
    assert_eq!(shape_from_proto(None).unwrap(), TensorShape::scalar());
    let unknown = pb::TensorShapeProto {
        dim: vec![],
        unknown_rank: true,
    };
    assert_eq!(
        shape_from_proto(Some(&unknown)).unwrap(),
        TensorShape::scalar()
    );
    assert_eq!(
        shape_from_proto(Some(&dims(&[2, 3]))).unwrap().dim_sizes(),
        [2, 3]
    );
    let msg = |d: &[i64]| shape_from_proto(Some(&dims(d))).unwrap_err().to_string();
    assert_eq!(
        msg(&[2, -1]),
        "Shape [2,-1] is not fully defined: a tensor needs every dimension >= 0"
    );
    let big = 1i64 << 62;
    assert_eq!(
        msg(&[big, big]),
        "Shape [4611686018427387904,4611686018427387904] is too large (more than 2**63 - 1 entries)"
    );
    // Passes TF's IsValid but is no TensorShape: a clean error.
    assert_eq!(
        msg(&[0, big, big]),
        "Shape [0,4611686018427387904,4611686018427387904]: Encountered overflow when multiplying shape dimensions"
    );
    assert_eq!(msg(&[1; 255]), "Shape has too many dimensions: 255 > 254");
    assert_eq!(
        shape_from_proto(Some(&dims(&[1; 254]))).unwrap().dims(),
        254
    );
    // Names are ignored.
    let named = pb::TensorShapeProto {
        dim: vec![Dim {
            size: 4,
            name: "batch".into(),
        }],
        unknown_rank: false,
    };
    assert_eq!(shape_from_proto(Some(&named)).unwrap().dim_sizes(), [4]);
}

#[test]
fn shape_to_proto_has_sizes_only() {
    let p = shape_to_proto(&TensorShape::new(&[3, 0, 2]).unwrap());
    assert_eq!(p.dim.iter().map(|d| d.size).collect::<Vec<_>>(), [3, 0, 2]);
    assert!(p.dim.iter().all(|d| d.name.is_empty()));
    assert!(!p.unknown_rank);
    assert_eq!(
        shape_to_proto(&TensorShape::scalar()),
        pb::TensorShapeProto::default()
    );
}

/// AsProtoTensorContent shares a POD tensor's buffer, and the tensor's
/// copy-on-write keeps the shared bytes as they were.
#[test]
fn content_shares_the_buffer_and_copy_on_write_keeps_it() {
    let content = |t: &Tensor| t.as_proto_tensor_content().unwrap().tensor_content;
    let mut t = Tensor::from_vec([4], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap();
    let b = content(&t);
    assert_eq!(b.as_ptr(), t.data_ptr().unwrap());
    assert_eq!(&b[..], t.tensor_data().unwrap());
    // A write to the tensor copies first; the bytes stay as they were.
    t.as_mut_slice::<f32>().unwrap()[0] = 9.0;
    assert_ne!(b.as_ptr(), t.data_ptr().unwrap());
    assert_eq!(&b[..4], &1.0f32.to_le_bytes());
    // A slice shares its own region.
    let s = Tensor::from_vec([4], vec![1u16, 2, 3, 4])
        .unwrap()
        .slice(1, 3)
        .unwrap();
    assert_eq!(content(&s).as_ptr(), s.data_ptr().unwrap());
    assert_eq!(&content(&s)[..], &[2, 0, 3, 0]);
    // Adopted input bytes: the content is a slice of them.
    let wire = Bytes::from(t.as_proto_tensor_content().unwrap().encode_to_vec());
    let d = Tensor::decode(wire.clone()).unwrap();
    let c = content(&d);
    if d.data_ptr() == Some(wire[wire.len() - 16..].as_ptr()) {
        assert_eq!(c.as_ptr(), d.data_ptr().unwrap());
    }
    assert_eq!(&c[..], d.tensor_data().unwrap());
}
