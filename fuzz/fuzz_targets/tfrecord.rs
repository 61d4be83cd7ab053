//! Fuzzes TFRecord framing (`RecordReader`, with each compression) and the
//! decoding of each record as a serialized tensor and as a
//! `tf.train.Example`.
//!
//! The first input byte picks the compression (`% 3`: none, ZLIB, GZIP);
//! the rest is the stream. Checks, beyond "no panic, no crash, no hang, no
//! allocation the input did not pay for":
//! * uncompressed: the records read before the end (or the first error)
//!   re-written by `RecordWriter` are exactly the input up to
//!   `reader.offset()`, and a clean end is the whole input;
//! * compressed: the records read, re-written and read back, are the same;
//! * a record that decodes as a tensor re-serializes to bytes that decode
//!   to the same serialization (a fixed point);
//! * a record that parses as an Example converts to tensors and back to the
//!   same Example (compared as encoded bytes, so NaN floats compare).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tftensor::bytes::Bytes;
use tftensor::prost::Message;
use tftensor::tfrecord::{
    example_to_tensors, serialize_tensor, tensors_to_example, Compression, RecordReader,
    RecordWriter,
};
use tftensor::{pb, FromProtoOptions, Tensor};

fn opts() -> FromProtoOptions {
    FromProtoOptions::default().with_max_bytes(16 << 20)
}

fn check_tensor(record: &[u8]) {
    let Ok(t) = Tensor::decode_with(Bytes::copy_from_slice(record), &opts()) else {
        return;
    };
    let Ok(wire) = serialize_tensor(&t) else {
        return; // e.g. a bool byte other than 0/1 cannot be re-encoded
    };
    let again = match Tensor::decode_with(Bytes::from(wire.clone()), &opts()) {
        Ok(t) => t,
        Err(e) => panic!("re-serialized tensor does not decode: {e}"),
    };
    assert_eq!(
        serialize_tensor(&again).ok(),
        Some(wire),
        "not a fixed point"
    );
}

fn check_example(record: &[u8]) {
    let Ok(example) = pb::Example::decode(record) else {
        return;
    };
    let Ok(named) = example_to_tensors(&example) else {
        return;
    };
    let back = match tensors_to_example(named.iter().map(|(k, v)| (k.as_str(), v))) {
        Ok(e) => e,
        Err(e) => panic!("features of a parsed Example do not convert back: {e}"),
    };
    let features = example.features.unwrap_or_default();
    assert_eq!(
        back.features.unwrap_or_default().encode_to_vec(),
        features.encode_to_vec()
    );
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, stream)) = data.split_first() else {
        return;
    };
    let compression =
        [Compression::None, Compression::Zlib, Compression::Gzip][usize::from(mode % 3)];
    let mut reader = RecordReader::new(stream, compression);
    let mut records = Vec::new();
    let mut failed = false;
    for r in reader.by_ref() {
        match r {
            Ok(rec) => records.push(rec),
            Err(e) => {
                assert!(
                    matches!(e, tftensor::Error::DataLoss { .. }),
                    "not DataLoss: {e:?}"
                );
                failed = true;
            }
        }
    }
    for r in &records {
        check_tensor(r);
        check_example(r);
    }
    let mut w = RecordWriter::new(Vec::new(), compression);
    for r in &records {
        w.write_record(r).unwrap();
    }
    let rewritten = w.finish().unwrap();
    if compression == Compression::None {
        let end = usize::try_from(reader.offset()).unwrap();
        assert_eq!(rewritten.as_slice(), &stream[..end]);
        if !failed {
            assert_eq!(end, stream.len());
        }
    } else {
        let back: Vec<Vec<u8>> = RecordReader::new(rewritten.as_slice(), compression)
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(back, records);
    }
});
