//! The Arrow decoders (`tftensor::arrow`) on the records of
//! tests/data/arrow with each record truncated at every offset and with
//! single bytes changed: `Ok` or `Err`, never a panic, and no allocation
//! beyond what the input backs. Also the fixed_shape_tensor metadata
//! parser on cut and changed JSON.
#![cfg(feature = "arrow")]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use tftensor::arrow::{
    FeatureSpec, FixedShapeTensorMetadata, decode_examples, decode_sequence_examples,
    parse_examples,
};
use tftensor::tfrecord::{Compression, RecordReader};
use tftensor::{DataType, Tensor};

use crate::common::allocated_by;

fn decode_all_ways(records: &[Vec<u8>]) {
    drop(decode_examples(records));
    drop(decode_sequence_examples(records));
    let spec = [
        (
            "a",
            FeatureSpec::FixedLen {
                dtype: DataType::Int64,
                shape: vec![2],
                default: Some(Tensor::from_vec([2], vec![0i64, 0]).unwrap()),
            },
        ),
        (
            "s",
            FeatureSpec::VarLen {
                dtype: DataType::String,
            },
        ),
        (
            "f",
            FeatureSpec::Ragged {
                dtype: DataType::Float,
            },
        ),
    ];
    drop(parse_examples(records, &spec));
}

#[test]
fn mutated_records_never_panic_or_overallocate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/arrow");
    let mut checked = 0;
    for case in ["corner", "kinds", "wire", "sequence", "spec", "malformed"] {
        let path = dir.join(format!("{case}.tfrecord"));
        let records: Vec<Vec<u8>> = RecordReader::open(&path, Compression::None)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        for (i, record) in records.iter().enumerate() {
            let mut inputs = Vec::new();
            for at in 0..record.len() {
                inputs.push((format!("{case}[{i}] cut at {at}"), record[..at].to_vec()));
                for flip in [0x01u8, 0x80, 0xff] {
                    let mut r = record.clone();
                    r[at] ^= flip;
                    inputs.push((format!("{case}[{i}] byte {at} ^ {flip:#04x}"), r));
                }
            }
            for (what, mutated) in inputs {
                let mut batch = records.clone();
                batch[i] = mutated;
                let len: usize = batch.iter().map(Vec::len).sum();
                let ((), bytes) = catch_unwind(AssertUnwindSafe(|| {
                    allocated_by(|| decode_all_ways(&batch))
                }))
                .unwrap_or_else(|_| panic!("{what}: panicked"));
                // Per value at most 8 bytes out of 1 in, plus per-record
                // offsets and validity of every column, plus fixed costs.
                assert!(
                    bytes <= 200 * len + (1 << 20),
                    "{what}: {bytes} bytes for {len}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 3_000, "{checked}");
}

#[test]
fn mutated_tensor_metadata_never_panics() {
    let json = r#"{"shape":[2,3],"dim_names":["h","w"],"permutation":[1,0]}"#;
    let bytes = json.as_bytes();
    for at in 0..bytes.len() {
        let cut = String::from_utf8_lossy(&bytes[..at]).into_owned();
        assert!(FixedShapeTensorMetadata::parse(&cut).is_err(), "{cut}");
        for c in [
            b'[', b']', b'{', b'}', b'"', b'-', b'9', b'\\', b',', b':', b' ', b'n',
        ] {
            let mut m = bytes.to_vec();
            m[at] = c;
            let text = String::from_utf8_lossy(&m).into_owned();
            let _ = catch_unwind(|| FixedShapeTensorMetadata::parse(&text))
                .unwrap_or_else(|_| panic!("{text}: panicked"));
        }
    }
    let deep = "[".repeat(100_000);
    assert!(FixedShapeTensorMetadata::parse(&deep).is_err());
}
