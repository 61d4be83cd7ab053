//! TFRecord (`tftensor::tfrecord`) against files written by TF 2.21
//! (`scripts/gen_tfrecord.py`, under tests/data/tfrecord/), plus round
//! trips and bad input.
#![cfg(feature = "tfrecord")]

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use prost::Message;
use serde_json::Value;
use tftensor::bytes::Bytes;
use tftensor::pb::{Example, Feature, Features, feature::Kind};
use tftensor::tfrecord::{
    Compression, MAX_PREALLOCATION, RecordReader, RecordWriter, example_to_tensors, parse_example,
    parse_tensor, read_examples, read_tensors, serialize_tensor, tensors_to_example,
    write_examples, write_tensors,
};
use tftensor::{DataType, Error, Tensor};

use crate::common;
use common::allocated;

const COMPRESSIONS: [(Compression, &str); 3] = [
    (Compression::None, "tfrecord"),
    (Compression::Zlib, "zlib.tfrecord"),
    (Compression::Gzip, "gzip.tfrecord"),
];

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/tfrecord")
        .join(name)
}

fn json(name: &str) -> Value {
    serde_json::from_slice(&std::fs::read(data(name)).unwrap()).unwrap()
}

fn records_of(set: &str) -> Vec<Value> {
    json(&format!("{set}.json"))["records"]
        .as_array()
        .unwrap()
        .clone()
}

fn unhex(v: &Value) -> Vec<u8> {
    hex::decode(v.as_str().unwrap()).unwrap()
}

/// A fresh temporary directory for one test.
fn temp_dir(test: &str) -> PathBuf {
    let dir = tempfile::Builder::new()
        .prefix(&format!("tftensor-tfrecord-{test}-"))
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The raw records `raw.json` describes.
fn expected_raw() -> Vec<Vec<u8>> {
    records_of("raw")
        .iter()
        .map(|r| match r.get("hex") {
            Some(h) => unhex(h),
            None => {
                assert_eq!(r["pattern"], "(i * 7 + 3) % 251");
                let len = r["len"].as_u64().unwrap() as usize;
                (0..len).map(|i| ((i * 7 + 3) % 251) as u8).collect()
            }
        })
        .collect()
}

fn read_all(bytes: &[u8], compression: Compression) -> tftensor::Result<Vec<Vec<u8>>> {
    RecordReader::new(bytes, compression).collect()
}

fn write_all(records: &[Vec<u8>], compression: Compression) -> Vec<u8> {
    let mut w = RecordWriter::new(Vec::new(), compression);
    for r in records {
        w.write_record(r).unwrap();
    }
    w.finish().unwrap()
}

// ---------------------------------------------------------------- framing

#[test]
fn reads_tf_raw_records_in_each_compression() {
    let expected = expected_raw();
    assert_eq!(expected.len(), 5);
    assert!(expected[0].is_empty());
    for (compression, suffix) in COMPRESSIONS {
        let path = data(&format!("raw.{suffix}"));
        let got: Vec<Vec<u8>> = RecordReader::open(&path, compression)
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(got, expected, "{suffix}");
        let bytes = std::fs::read(&path).unwrap();
        assert_eq!(read_all(&bytes, compression).unwrap(), expected, "{suffix}");
    }
}

#[test]
fn writer_output_is_byte_identical_to_tf() {
    for set in ["raw", "tensors", "examples"] {
        let tf_bytes = std::fs::read(data(&format!("{set}.tfrecord"))).unwrap();
        let records = read_all(&tf_bytes, Compression::None).unwrap();
        assert_eq!(write_all(&records, Compression::None), tf_bytes, "{set}");
    }
}

#[test]
fn compressed_round_trips_and_readable_offsets() {
    let records = expected_raw();
    for (compression, _) in COMPRESSIONS {
        let bytes = write_all(&records, compression);
        assert_eq!(read_all(&bytes, compression).unwrap(), records);
        let mut reader = RecordReader::new(bytes.as_slice(), compression);
        let mut buf = Vec::new();
        let mut offset = 0;
        for r in &records {
            assert_eq!(reader.offset(), offset);
            assert!(reader.read_record(&mut buf).unwrap());
            assert_eq!(&buf, r);
            offset += 16 + r.len() as u64;
        }
        assert!(!reader.read_record(&mut buf).unwrap());
        assert_eq!(reader.index(), records.len() as u64);
    }
    // Compressed streams are much smaller for this data.
    assert!(write_all(&records, Compression::Gzip).len() < 4000);
}

#[test]
fn concatenated_gzip_members_read_as_one_stream() {
    let records = expected_raw();
    let mut bytes = write_all(&records[..2], Compression::Gzip);
    bytes.extend(write_all(&records[2..], Compression::Gzip));
    assert_eq!(read_all(&bytes, Compression::Gzip).unwrap(), records);
}

#[test]
fn compression_names() {
    for (c, name) in [
        (Compression::None, ""),
        (Compression::Zlib, "ZLIB"),
        (Compression::Gzip, "GZIP"),
    ] {
        assert_eq!(c.as_str(), name);
        assert_eq!(name.parse::<Compression>().unwrap(), c);
    }
    assert_eq!("gzip".parse::<Compression>().unwrap(), Compression::Gzip);
    assert_eq!("NONE".parse::<Compression>().unwrap(), Compression::None);
    assert!(matches!(
        "SNAPPY".parse::<Compression>(),
        Err(Error::InvalidArgument(_))
    ));
    assert_eq!(Compression::default(), Compression::None);
}

// ---------------------------------------------------------------- tensors

fn check_tensor(t: &Tensor, want: &Value, what: &str) {
    let dtype: DataType = want["dtype"].as_str().unwrap().parse().unwrap();
    assert_eq!(t.dtype(), dtype, "{what}");
    let shape: Vec<i64> = want["shape"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d.as_i64().unwrap())
        .collect();
    assert_eq!(t.shape().dim_sizes(), shape, "{what}");
    if let Some(strings) = want.get("strings_hex") {
        let want: Vec<Vec<u8>> = strings.as_array().unwrap().iter().map(unhex).collect();
        let got: Vec<Vec<u8>> = t
            .as_slice::<Bytes>()
            .unwrap()
            .iter()
            .map(|b| b.to_vec())
            .collect();
        assert_eq!(got, want, "{what}");
    } else {
        assert_eq!(
            t.tensor_data().unwrap(),
            unhex(&want["content_hex"]),
            "{what}"
        );
    }
}

#[test]
fn reads_tf_serialized_tensors_in_each_compression() {
    let want = records_of("tensors");
    assert!(want.len() >= 19);
    for (compression, suffix) in COMPRESSIONS {
        let tensors = read_tensors(data(&format!("tensors.{suffix}")), compression).unwrap();
        assert_eq!(tensors.len(), want.len());
        for (i, (t, w)) in tensors.iter().zip(&want).enumerate() {
            check_tensor(t, w, &format!("{suffix} record {i}"));
        }
    }
}

#[test]
fn serialize_tensor_matches_tf_bytes_and_write_tensors_matches_tf_file() {
    let want = records_of("tensors");
    let tensors = read_tensors(data("tensors.tfrecord"), Compression::None).unwrap();
    for (t, w) in tensors.iter().zip(&want) {
        assert_eq!(
            serialize_tensor(t).unwrap(),
            unhex(&w["record_hex"]),
            "{}",
            w["dtype"]
        );
        assert_eq!(&parse_tensor(unhex(&w["record_hex"])).unwrap(), t);
    }
    let dir = temp_dir("write_tensors");
    for (compression, suffix) in COMPRESSIONS {
        let path = dir.join(format!("ours.{suffix}"));
        write_tensors(&path, compression, &tensors).unwrap();
        assert_eq!(read_tensors(&path, compression).unwrap(), tensors);
        if compression == Compression::None {
            assert_eq!(
                std::fs::read(&path).unwrap(),
                std::fs::read(data("tensors.tfrecord")).unwrap()
            );
        }
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_record_that_is_not_a_tensor_names_the_record() {
    let dir = temp_dir("not_a_tensor");
    let path = dir.join("x.tfrecord");
    let good = serialize_tensor(&Tensor::from(1i32)).unwrap();
    let mut w = RecordWriter::create(&path, Compression::None).unwrap();
    w.write_record(&good).unwrap();
    w.write_record(&[0xff, 0xff]).unwrap();
    w.finish().unwrap();
    let err = read_tensors(&path, Compression::None).unwrap_err();
    assert_eq!(err.kind(), tftensor::ErrorKind::InvalidProto, "{err:?}");
    assert_eq!(err.key(), Some("record 1"));
    assert!(
        err.to_string()
            .contains("x.tfrecord: 'record 1': the record is not a serialized TensorProto: "),
        "{err}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

// ---------------------------------------------------------------- examples

fn check_example(got: &BTreeMap<String, Tensor>, want: &Value, what: &str) {
    let features = want["features"].as_object().unwrap();
    assert_eq!(
        got.keys().collect::<Vec<_>>(),
        features.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (name, f) in features {
        let t = &got[name];
        assert_eq!(t.dims(), 1, "{what} {name}");
        match f["dtype"].as_str().unwrap() {
            "string" => {
                let want: Vec<Vec<u8>> = f["values_hex"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(unhex)
                    .collect();
                let got: Vec<Vec<u8>> = t
                    .as_slice::<Bytes>()
                    .unwrap()
                    .iter()
                    .map(|b| b.to_vec())
                    .collect();
                assert_eq!(got, want, "{what} {name}");
            }
            "float" => {
                let want: Vec<u32> = f["f32_bits"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|b| b.as_u64().unwrap() as u32)
                    .collect();
                let got: Vec<u32> = t
                    .as_slice::<f32>()
                    .unwrap()
                    .iter()
                    .map(|x| x.to_bits())
                    .collect();
                assert_eq!(got, want, "{what} {name}");
            }
            "int64" => {
                let want: Vec<i64> = f["values"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_i64().unwrap())
                    .collect();
                assert_eq!(t.as_slice::<i64>().unwrap(), want, "{what} {name}");
            }
            other => panic!("unknown dtype {other}"),
        }
    }
}

#[test]
fn reads_tf_examples_in_each_compression() {
    let want = records_of("examples");
    assert_eq!(want.len(), 3);
    for (compression, suffix) in COMPRESSIONS {
        let examples = read_examples(data(&format!("examples.{suffix}")), compression).unwrap();
        assert_eq!(examples.len(), want.len());
        for (i, (e, w)) in examples.iter().zip(&want).enumerate() {
            check_example(e, w, &format!("{suffix} example {i}"));
        }
    }
}

#[test]
fn examples_round_trip_through_our_writer() {
    let examples = read_examples(data("examples.tfrecord"), Compression::None).unwrap();
    let dir = temp_dir("examples");
    for (compression, suffix) in COMPRESSIONS {
        let path = dir.join(format!("ours.{suffix}"));
        write_examples(&path, compression, &examples).unwrap();
        assert_eq!(read_examples(&path, compression).unwrap(), examples);
    }
    // The same features as TF's records (TF's map order differs; prost's
    // is sorted, so compare decoded messages).
    for w in records_of("examples") {
        let tf_bytes = unhex(&w["record_hex"]);
        let named = parse_example(tf_bytes.clone()).unwrap();
        let ours = tensors_to_example(named.iter().map(|(k, v)| (k.as_str(), v))).unwrap();
        let tf = Example::decode(tf_bytes.as_slice()).unwrap();
        assert_eq!(
            ours.features.unwrap_or_default(),
            tf.features.unwrap_or_default()
        );
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn example_string_values_share_the_record() {
    let w = &records_of("examples")[1];
    let record = Bytes::from(unhex(&w["record_hex"]));
    let named = parse_example(record.clone()).unwrap();
    let word = &named["words"].as_slice::<Bytes>().unwrap()[0];
    let range = record.as_ptr() as usize..record.as_ptr() as usize + record.len();
    assert!(range.contains(&(word.as_ptr() as usize)));
}

#[test]
fn example_conversion_errors() {
    let m = Tensor::from_vec([2, 2], vec![1.0f32; 4]).unwrap();
    assert!(
        matches!(tensors_to_example([("m", &m)]), Err(Error::InvalidShape(s)) if s.to_string().contains("\"m\""))
    );
    let d = Tensor::from_vec([1], vec![1.0f64]).unwrap();
    let err = tensors_to_example([("d", &d)]).unwrap_err();
    assert!(
        matches!(&err, Error::UnsupportedDataType { message: s, .. } if s.contains("\"d\"") && s.contains("double")),
        "{err}"
    );
    let i = Tensor::from(1i64);
    assert!(matches!(
        tensors_to_example([("i", &i), ("i", &i)]),
        Err(Error::InvalidArgument(_))
    ));

    let mut features = Features::default();
    features
        .feature
        .insert("empty".into(), Feature { kind: None });
    let err = example_to_tensors(&Example {
        features: Some(features),
    })
    .unwrap_err();
    assert!(
        matches!(&err, Error::InvalidFormat { message, .. } if message.contains("\"empty\"")),
        "{err}"
    );
    assert!(example_to_tensors(&Example::default()).unwrap().is_empty());
    assert!(matches!(
        parse_example(vec![0x0a, 0x05]),
        Err(Error::InvalidProto { .. })
    ));

    let ok = Feature {
        kind: Some(Kind::FloatList(Default::default())),
    };
    let mut features = Features::default();
    features.feature.insert("f".into(), ok);
    let named = example_to_tensors(&Example {
        features: Some(features),
    })
    .unwrap();
    assert_eq!(named["f"].shape().dim_sizes(), [0]);
}

// ---------------------------------------------------------------- bad input

/// Three records: "abc" (bytes 0..19), 100 bytes (19..135), "" (135..151).
fn three_records() -> Vec<u8> {
    write_all(
        &[b"abc".to_vec(), vec![7u8; 100], Vec::new()],
        Compression::None,
    )
}

/// Reads `bytes` to the end; returns the good records and the error.
fn read_until_error(bytes: &[u8], compression: Compression) -> (usize, Error) {
    let mut good = 0;
    for r in RecordReader::new(bytes, compression) {
        match r {
            Ok(_) => good += 1,
            Err(e) => return (good, e),
        }
    }
    panic!("no error in {} bytes", bytes.len());
}

fn assert_data_loss(err: &Error, needles: &[&str]) {
    assert!(matches!(err, Error::DataLoss { .. }), "{err:?}");
    let text = err.to_string();
    for n in needles {
        assert!(text.contains(n), "{text:?} lacks {n:?}");
    }
}

#[test]
fn truncated_header_data_and_footer() {
    let bytes = three_records();
    assert_eq!(bytes.len(), 151);
    let (good, err) = read_until_error(&bytes[..19 + 5], Compression::None);
    assert_eq!(good, 1);
    assert_data_loss(
        &err,
        &[
            "'record 1': at byte 19: truncated record",
            "header needs 12 bytes, the stream ends after 5",
        ],
    );
    let (good, err) = read_until_error(&bytes[..19 + 12 + 50], Compression::None);
    assert_eq!(good, 1);
    assert_data_loss(
        &err,
        &[
            "'record 1': at byte 19: truncated record",
            "declares 100 bytes of data, the stream ends after 50",
        ],
    );
    let (good, err) = read_until_error(&bytes[..135 - 2], Compression::None);
    assert_eq!(good, 1);
    assert_data_loss(
        &err,
        &[
            "'record 1': at byte 19: truncated record",
            "data checksum needs 4 bytes, the stream ends after 2",
        ],
    );
    // The error is the last item.
    let mut reader = RecordReader::new(&bytes[..24], Compression::None);
    assert!(reader.next().unwrap().is_ok());
    assert!(reader.next().unwrap().is_err());
    assert!(reader.next().is_none());
}

#[test]
fn every_truncation_is_an_error_or_a_record_boundary() {
    let bytes = three_records();
    let boundaries = [0usize, 19, 135, 151];
    for cut in 0..bytes.len() {
        let result = read_all(&bytes[..cut], Compression::None);
        if boundaries.contains(&cut) {
            assert_eq!(
                result.unwrap().len(),
                boundaries.iter().position(|&b| b == cut).unwrap()
            );
        } else {
            assert_data_loss(&result.unwrap_err(), &["truncated record"]);
        }
    }
}

#[test]
fn length_and_data_crc_mismatch() {
    let bytes = three_records();
    let mut bad = bytes.clone();
    bad[19 + 9] ^= 0x10; // the length CRC of record 1
    let (good, err) = read_until_error(&bad, Compression::None);
    assert_eq!(good, 1);
    assert_data_loss(
        &err,
        &[
            "'record 1': at byte 19: corrupted record",
            "length checksum mismatch",
        ],
    );

    let mut bad = bytes.clone();
    bad[19 + 12 + 40] ^= 0x01; // the data of record 1
    let (good, err) = read_until_error(&bad, Compression::None);
    assert_eq!(good, 1);
    assert_data_loss(
        &err,
        &[
            "'record 1': at byte 19: corrupted record",
            "data checksum mismatch",
        ],
    );

    let mut bad = bytes.clone();
    bad[150] ^= 0x80; // the data CRC of record 2
    let (good, err) = read_until_error(&bad, Compression::None);
    assert_eq!(good, 2);
    assert_data_loss(
        &err,
        &[
            "'record 2': at byte 135: corrupted record",
            "data checksum mismatch",
        ],
    );
}

#[test]
fn every_single_bit_flip_is_caught() {
    let bytes = three_records();
    for i in 0..bytes.len() {
        for bit in 0..8 {
            let mut bad = bytes.clone();
            bad[i] ^= 1 << bit;
            let err = read_all(&bad, Compression::None).unwrap_err();
            assert!(
                matches!(err, Error::DataLoss { .. }),
                "byte {i} bit {bit}: {err:?}"
            );
        }
    }
}

/// A header declaring `len` bytes, with a correct length CRC.
fn header(len: u64) -> Vec<u8> {
    let mut h = len.to_le_bytes().to_vec();
    h.extend(tftensor::crc32c::masked(&len.to_le_bytes()).to_le_bytes());
    h
}

#[test]
fn a_length_of_2_pow_60_is_not_allocated() {
    let mut bytes = header(1 << 60);
    bytes.extend([1, 2, 3]);
    let (alloc, result) = allocated(|| read_all(&bytes, Compression::None));
    assert_data_loss(
        &result.unwrap_err(),
        &[
            "'record 0': at byte 0: truncated record",
            "declares 1152921504606846976 bytes of data, the stream ends after 3",
        ],
    );
    assert!(alloc < MAX_PREALLOCATION + (600 << 10), "allocated {alloc}");

    // From a file, the reservation is bounded by the file's length.
    let dir = temp_dir("huge_len");
    let path = dir.join("huge.tfrecord");
    std::fs::write(&path, &bytes).unwrap();
    let (alloc, result) = allocated(|| {
        RecordReader::open(&path, Compression::None)
            .unwrap()
            .collect::<Result<Vec<_>, _>>()
    });
    assert!(result.is_err());
    assert!(alloc < 300 << 10, "allocated {alloc}"); // the read buffer, not the length
    std::fs::remove_dir_all(dir).unwrap();

    // Lengths near 2^64 overflow the offset: still a truncation, no panic.
    let mut bytes = header(u64::MAX - 3);
    bytes.extend([0; 20]);
    assert_data_loss(
        &read_all(&bytes, Compression::None).unwrap_err(),
        &["'record 0': at byte 0: truncated record"],
    );
}

#[test]
fn a_long_record_grows_as_data_arrives() {
    // 3 MiB: more than the up-front reservation; read through a plain Read.
    let big = vec![0x5au8; 3 << 20];
    let bytes = write_all(std::slice::from_ref(&big), Compression::None);
    assert_eq!(read_all(&bytes, Compression::None).unwrap(), [big]);
}

#[test]
fn corrupt_and_truncated_compressed_streams() {
    let records = [b"abc".to_vec(), vec![7u8; 100], Vec::new()];
    for compression in [Compression::Gzip, Compression::Zlib] {
        let good = write_all(&records, compression);
        // Garbage in the deflate data.
        let mut bad = good.clone();
        let mid = bad.len() / 2;
        for b in &mut bad[mid - 3..mid + 3] {
            *b ^= 0xa5;
        }
        let err = read_all(&bad, compression).unwrap_err();
        assert!(
            matches!(err, Error::DataLoss { .. }),
            "{compression}: {err:?}"
        );
        assert!(err.to_string().contains("'record "), "{err}");
        // Cut short.
        for cut in [3, good.len() / 2, good.len() - 1] {
            let err = read_all(&good[..cut], compression).unwrap_err();
            assert!(
                matches!(err, Error::DataLoss { .. }),
                "{compression} cut {cut}: {err:?}"
            );
            assert!(err.to_string().contains("'record "), "{err}");
        }
        // Not compressed at all.
        let plain = write_all(&records, Compression::None);
        let err = read_all(&plain, compression).unwrap_err();
        assert!(
            err.to_string().contains(&format!(
                "'record 0': at byte 0: corrupt {} stream in the record",
                compression.as_str()
            )),
            "{err}"
        );
    }
    // A gzip trailer CRC mismatch.
    let mut bad = write_all(&records, Compression::Gzip);
    let n = bad.len();
    bad[n - 6] ^= 1;
    assert!(matches!(
        read_all(&bad, Compression::Gzip),
        Err(Error::DataLoss { .. })
    ));
}

#[test]
fn io_errors_are_io_and_name_the_stream() {
    struct Failing;
    impl Read for Failing {
        fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(
                std::io::ErrorKind::PermissionDenied,
                "nope",
            ))
        }
    }
    let err = RecordReader::new(Failing, Compression::None)
        .with_name("f.tfrecord")
        .next()
        .unwrap()
        .unwrap_err();
    assert_eq!(
        err.io_kind(),
        Some(std::io::ErrorKind::PermissionDenied),
        "{err:?}"
    );
    // The io::Error is the source, not only its text.
    let source = std::error::Error::source(&err).expect("source");
    assert!(source.downcast_ref::<tftensor::IoSource>().is_some());
    assert!(
        err.to_string()
            .starts_with("f.tfrecord: 'record 0': at byte 0: "),
        "{err}"
    );

    struct Full;
    impl std::io::Write for Full {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::Error::new(std::io::ErrorKind::StorageFull, "full"))
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = RecordWriter::new(Full, Compression::None);
    w.write_record(b"small").unwrap(); // buffered
    assert_eq!(
        w.finish().err().and_then(|e| e.io_kind()),
        Some(std::io::ErrorKind::StorageFull)
    );
    let mut w = RecordWriter::new(Full, Compression::None);
    assert!(matches!(
        w.write_record(&vec![0; 1 << 20]),
        Err(Error::Io { .. })
    ));
}

/// For `scripts/check_tfrecord_with_tf.sh`: writes files for TF to read,
/// and a manifest of their expected values, into `$TFTENSOR_TFRECORD_OUT`.
#[test]
#[ignore = "run by scripts/check_tfrecord_with_tf.sh"]
fn write_files_for_tf() {
    let out = PathBuf::from(std::env::var("TFTENSOR_TFRECORD_OUT").expect("TFTENSOR_TFRECORD_OUT"));
    std::fs::create_dir_all(&out).unwrap();
    let tensors = vec![
        Tensor::from_vec([2, 3], vec![1.5f32, -0.0, f32::INFINITY, -2.25, 1e-30, 3.0]).unwrap(),
        Tensor::from_vec([3], vec![1.0f64, -2.5, 1e300]).unwrap(),
        Tensor::from(-7i32),
        Tensor::from_vec([3], vec![i64::MIN, 0, i64::MAX]).unwrap(),
        Tensor::from_vec([4], vec![0u8, 1, 128, 255]).unwrap(),
        Tensor::from_vec([2, 2], vec![-128i8, -1, 0, 127]).unwrap(),
        Tensor::from_vec([2], vec![u16::MAX, 1]).unwrap(),
        Tensor::from_vec([2], vec![u64::MAX, 1]).unwrap(),
        Tensor::from_vec([3], vec![true, false, true]).unwrap(),
        Tensor::from_vec(
            [2],
            vec![tftensor::half::f16::from_f32(0.5), tftensor::half::f16::MAX],
        )
        .unwrap(),
        Tensor::from_vec(
            [2],
            vec![
                tftensor::half::bf16::from_f32(-3.140625),
                tftensor::half::bf16::ONE,
            ],
        )
        .unwrap(),
        Tensor::from_vec(
            [2],
            vec![
                tftensor::num_complex::Complex::new(1.0f32, 2.0),
                tftensor::num_complex::Complex::new(-0.5, 0.0),
            ],
        )
        .unwrap(),
        Tensor::from_vec(
            [3],
            vec![
                Bytes::from_static(b""),
                Bytes::from_static(b"hello"),
                Bytes::from_static(b"\xff\x00"),
            ],
        )
        .unwrap(),
        Tensor::from("scalar"),
        Tensor::new(DataType::Float, [0, 4]).unwrap(),
        Tensor::from_vec([2, 3, 4], (0..24).collect::<Vec<i32>>()).unwrap(),
    ];
    let examples = vec![
        BTreeMap::from([
            (
                "label".to_string(),
                Tensor::from_vec([1], vec![7i64]).unwrap(),
            ),
            (
                "weights".to_string(),
                Tensor::from_vec([3], vec![0.5f32, -1.25, 3e-5]).unwrap(),
            ),
            (
                "name".to_string(),
                Tensor::from_vec(
                    [2],
                    vec![Bytes::from_static(b"cat"), Bytes::from_static(b"\xff")],
                )
                .unwrap(),
            ),
        ]),
        BTreeMap::from([
            (
                "label".to_string(),
                Tensor::from_vec([2], vec![i64::MIN, i64::MAX]).unwrap(),
            ),
            (
                "weights".to_string(),
                Tensor::from_vec([0], Vec::<f32>::new()).unwrap(),
            ),
            (
                "name".to_string(),
                Tensor::from_vec([1], vec![Bytes::from_static(b"")]).unwrap(),
            ),
        ]),
    ];
    for (compression, suffix) in COMPRESSIONS {
        write_tensors(out.join(format!("tensors.{suffix}")), compression, &tensors).unwrap();
        write_examples(
            out.join(format!("examples.{suffix}")),
            compression,
            &examples,
        )
        .unwrap();
    }
    let tensor_json: Vec<Value> = tensors
        .iter()
        .map(|t| {
            let mut v = serde_json::json!({
                "dtype": t.dtype().name(),
                "dtype_enum": t.dtype().as_i32(),
                "shape": t.shape().dim_sizes(),
            });
            if t.dtype() == DataType::String {
                v["strings_hex"] = t
                    .as_slice::<Bytes>()
                    .unwrap()
                    .iter()
                    .map(hex::encode)
                    .collect();
            } else {
                v["content_hex"] = hex::encode(t.tensor_data().unwrap()).into();
            }
            v
        })
        .collect();
    let example_json: Vec<Value> = examples
        .iter()
        .map(|e| {
            e.iter()
                .map(|(k, t)| {
                    let v = match t.dtype() {
                        DataType::String => serde_json::json!({"dtype": "string", "values_hex": t.as_slice::<Bytes>().unwrap().iter().map(hex::encode).collect::<Vec<_>>()}),
                        DataType::Float => serde_json::json!({"dtype": "float32", "f32_bits": t.as_slice::<f32>().unwrap().iter().map(|x| x.to_bits()).collect::<Vec<_>>()}),
                        _ => serde_json::json!({"dtype": "int64", "values": t.as_slice::<i64>().unwrap()}),
                    };
                    (k.clone(), v)
                })
                .collect::<serde_json::Map<_, _>>()
                .into()
        })
        .collect();
    let manifest = serde_json::json!({"tensors": tensor_json, "examples": example_json});
    std::fs::write(
        out.join("manifest.json"),
        serde_json::to_vec_pretty(&manifest).unwrap(),
    )
    .unwrap();
}
