//! Fuzzes the Arrow decoders of `tf.train.Example` records and the
//! `arrow.fixed_shape_tensor` metadata parser.
//!
//! The input is split into records at each `0xFF 0x00` pair. Checks, beyond
//! "no panic, no crash, no hang": a batch that decodes schema-less writes
//! back (`batch_to_examples`) to records that are a fixed point of
//! decode-and-write-back,
//! and the metadata parser's accepted JSON re-serializes to JSON that
//! parses to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tftensor::arrow::{
    batch_to_examples, decode_examples, decode_sequence_examples, FixedShapeTensorMetadata,
};
use tftensor::prost::Message;

fuzz_target!(|data: &[u8]| {
    let mut records: Vec<&[u8]> = Vec::new();
    let mut rest = data;
    while let Some(i) = rest.windows(2).position(|w| w == [0xff, 0x00]) {
        records.push(&rest[..i]);
        rest = &rest[i + 2..];
    }
    records.push(rest);
    let _ = decode_sequence_examples(&records);
    if let Ok(batch) = decode_examples(&records) {
        let examples = batch_to_examples(&batch).expect("a decoded batch writes back");
        let again: Vec<Vec<u8>> = examples.iter().map(|e| e.encode_to_vec()).collect();
        let back = decode_examples(&again).expect("written records decode");
        // Compared as encoded records, so NaN floats compare.
        let twice: Vec<Vec<u8>> = batch_to_examples(&back)
            .expect("a decoded batch writes back")
            .iter()
            .map(|e| e.encode_to_vec())
            .collect();
        assert_eq!(twice, again);
    }
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(m) = FixedShapeTensorMetadata::parse(text) {
            let again = FixedShapeTensorMetadata::parse(&m.to_json()).expect("own JSON parses");
            assert_eq!(again.shape, m.shape);
            assert_eq!(again.dim_names, m.dim_names);
        }
    }
});
