//! TFRecord random access: the index pass equals the `.idx` that PyPI's
//! `tfrecord` package (`tfrecord2idx`) wrote for the fixture
//! (`scripts/gen_tfrecord_idx.py`), records by number equal the stream's,
//! and damage or compression is a clear error.

use std::path::PathBuf;

use tftensor::tfrecord::{
    Compression, RecordFile, RecordReader, format_index, index_records, parse_index,
};
use tftensor::{Error, ErrorKind};

fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

#[test]
fn the_index_pass_equals_tfrecord2idx() {
    let path = data("tfrecord/idx/records.tfrecord");
    let theirs = std::fs::read_to_string(data("tfrecord/idx/records.idx")).unwrap();
    let ours = index_records(&path).unwrap();
    assert_eq!(format_index(&ours), theirs);
    let len = std::fs::metadata(&path).unwrap().len();
    assert_eq!(parse_index(&theirs, "records.idx", len).unwrap(), ours);
}

#[test]
fn records_by_number_equal_the_stream() {
    let path = data("tfrecord/idx/records.tfrecord");
    let stream: Vec<Vec<u8>> = RecordReader::open(&path, Compression::None)
        .unwrap()
        .collect::<tftensor::Result<_>>()
        .unwrap();
    let idx = data("tfrecord/idx/records.idx");
    for file in [
        RecordFile::open(&path).unwrap(),
        RecordFile::open_with(&path, Some(&idx), &Default::default()).unwrap(),
    ] {
        assert_eq!(file.len(), stream.len());
        for i in (0..stream.len()).rev() {
            assert_eq!(file.get(i).unwrap(), stream[i], "record {i}");
        }
        let some = file.get_many(&[4, 0, 4]).unwrap();
        assert_eq!(some, [&stream[4], &stream[0], &stream[4]]);
        assert!(file.get(stream.len()).is_err());
    }
}

#[test]
fn damage_and_compression_are_clear_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let mut bytes = std::fs::read(data("tfrecord/idx/records.tfrecord")).unwrap();
    // A byte of the 300-byte record's data (at 16 + 17 + 23 + 12).
    bytes[16 + 17 + 23 + 12 + 5] ^= 1;
    let bad = tmp.path().join("bad.tfrecord");
    std::fs::write(&bad, &bytes).unwrap();
    let err = index_records(&bad).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::DataLoss, "{err}");
    assert_eq!(
        err.location().and_then(|l| l.offset),
        Some(16 + 17 + 23 + 12)
    );
    // Random access over a good index finds the damage when it reads.
    let idx = data("tfrecord/idx/records.idx");
    let file = RecordFile::open_with(&bad, Some(&idx), &Default::default()).unwrap();
    assert!(file.get(2).is_ok());
    assert_eq!(file.get(3).unwrap_err().kind(), ErrorKind::DataLoss);
    // A cut file.
    let cut = tmp.path().join("cut.tfrecord");
    std::fs::write(&cut, &bytes[..bytes.len() - 3]).unwrap();
    assert_eq!(index_records(&cut).unwrap_err().kind(), ErrorKind::DataLoss);
    // GZIP: no random access, said so.
    let gz = data("tfrecord/raw.gzip.tfrecord");
    let err = index_records(&gz).unwrap_err();
    assert!(
        matches!(err.inner(), Error::InvalidArgument(m) if m.contains("Gzip")),
        "{err}"
    );
    assert!(RecordFile::open(&gz).is_err());
    // An index that does not fit the file.
    assert!(parse_index("0 99999999\n", "x.idx", 100).is_err());
    assert!(parse_index("0 15\n", "x.idx", 100).is_err());
    assert!(parse_index("zero 16\n", "x.idx", 100).is_err());
}
