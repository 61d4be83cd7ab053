//! The read policy's paths (issue 24): a checkpoint shard read once by
//! `BundleReader::load`, and an uncompressed TFRecord file read whole by
//! `read_tensors`, with tensors adopting aligned slices of one buffer;
//! same tensors and same errors as the entry-by-entry and record-by-record
//! paths, corruption still detected.
#![cfg(all(feature = "checkpoint", feature = "tfrecord"))]

use crate::common;

use std::path::{Path, PathBuf};

use tftensor::checkpoint::{BundleReader, BundleWriter};
use tftensor::tfrecord::{Compression, RecordReader, parse_tensor, read_tensors, write_tensors};
use tftensor::{Error, Tensor};

fn temp_dir(test: &str) -> PathBuf {
    let dir = tempfile::Builder::new()
        .prefix(&format!("tftensor-read-once-{test}-"))
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn addr(t: &Tensor) -> usize {
    t.tensor_data().unwrap().as_ptr() as usize
}

fn external(t: &Tensor) -> bool {
    t.allocation_description().unwrap().allocator_name == "external"
}

fn f32s(n: usize, k: f32) -> Vec<f32> {
    (0..n).map(|i| i as f32 * 0.5 + k).collect()
}

/// A small f32 tensor first (its content lands 10 bytes into a packed
/// record: misaligned), then large ones of several dtypes, a string and a
/// bool tensor.
fn record_tensors() -> Vec<Tensor> {
    vec![
        Tensor::from_vec([3], vec![1.5f32, 2.5, 3.5]).unwrap(),
        Tensor::from_vec([1500], f32s(1500, 1.0)).unwrap(),
        Tensor::from_vec([2, 700], (0..1400i64).map(|i| i << 20).collect()).unwrap(),
        Tensor::from("text"),
        Tensor::from_vec([1100], f32s(1100, -4.0)).unwrap(),
        Tensor::from_vec([5], vec![true, false, true, true, false]).unwrap(),
    ]
}

/// What reading record by record (the compressed-file path) gives.
fn record_by_record(path: &Path) -> tftensor::Result<Vec<Tensor>> {
    let mut out = Vec::new();
    for record in RecordReader::open(path, Compression::None)? {
        out.push(parse_tensor(record?)?);
    }
    Ok(out)
}

/// Writes `bytes` to `path`, reads it whole and record by record, and
/// checks both give the same tensors or the same error.
fn whole_as_record_by_record(
    path: &Path,
    bytes: &[u8],
    what: &str,
) -> tftensor::Result<Vec<Tensor>> {
    std::fs::write(path, bytes).unwrap();
    let whole = read_tensors(path, Compression::None);
    let each = record_by_record(path);
    match (&whole, &each) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{what}"),
        (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{what}"),
        _ => panic!("{what}: {whole:?} vs {each:?}"),
    }
    whole
}

#[test]
fn tfrecord_tensors_adopt_aligned_slices_of_one_buffer() {
    let dir = temp_dir("tfrecord-adopt");
    let path = dir.join("t.tfrecord");
    let tensors = record_tensors();
    write_tensors(&path, Compression::None, &tensors).unwrap();
    let got = read_tensors(&path, Compression::None).unwrap();
    assert_eq!(got, tensors);
    let len = std::fs::metadata(&path).unwrap().len() as usize;
    // The large POD tensors share one buffer, each 64-byte aligned.
    let large: Vec<&Tensor> = [1, 2, 4].iter().map(|&i| &got[i]).collect();
    for t in &large {
        assert!(external(t), "{t:?} was copied");
        assert_eq!(addr(t) % 64, 0);
    }
    let lo = large.iter().map(|t| addr(t)).min().unwrap();
    let hi = large
        .iter()
        .map(|t| addr(t) + t.total_bytes())
        .max()
        .unwrap();
    assert!(hi - lo <= len + 64 * large.len(), "not one buffer");
    assert!(addr(large[0]) < addr(large[1]) && addr(large[1]) < addr(large[2]));
    // The small f32 tensor's content is misaligned in its packed record:
    // copied into an aligned buffer of its own.
    assert!(!external(&got[0]));
    assert_eq!(addr(&got[0]) % 64, 0);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_large_tfrecord_file_is_read_into_one_huge_page_buffer() {
    let dir = temp_dir("tfrecord-large");
    let path = dir.join("t.tfrecord");
    let tensors: Vec<Tensor> = (0..5)
        .map(|i| Tensor::from_vec([1 << 18], f32s(1 << 18, i as f32)).unwrap())
        .collect();
    write_tensors(&path, Compression::None, &tensors).unwrap();
    let got = read_tensors(&path, Compression::None).unwrap();
    assert_eq!(got, tensors);
    for t in &got {
        assert!(external(t));
        assert_eq!(addr(t) % 64, 0);
    }
    let spread = addr(&got[4]) - addr(&got[0]);
    assert!(spread < 5 << 20, "not one buffer: {spread}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn tfrecord_corruption_and_truncation_match_record_by_record() {
    let dir = temp_dir("tfrecord-corrupt");
    let path = dir.join("t.tfrecord");
    write_tensors(&path, Compression::None, &record_tensors()).unwrap();
    let good = std::fs::read(&path).unwrap();
    let bad = dir.join("bad.tfrecord");
    let same = |bytes: &[u8], what: &str| whole_as_record_by_record(&bad, bytes, what);
    // A flipped byte in a large record's data is a data checksum mismatch.
    let mut flipped = good.clone();
    let mid = good.len() / 2;
    flipped[mid] ^= 0x10;
    let err = same(&flipped, "flipped").unwrap_err();
    assert!(matches!(err, Error::DataLoss { .. }), "{err}");
    assert!(err.to_string().contains("corrupted record: "), "{err}");
    // Truncations and flipped bytes: the same result both ways. Every 5th
    // cut and 23rd byte under TFTENSOR_FULL_SWEEPS=1; a plain `cargo test`
    // takes every 4th of those.
    let sample = common::sweep_stride(1, 4);
    let cuts = (0..good.len()).filter(|c| c % 5 == 0 || *c < 64);
    for cut in cuts.step_by(sample) {
        let _ = same(&good[..cut], &format!("cut at {cut}"));
    }
    for i in (0..good.len()).step_by(23 * sample) {
        let mut b = good.clone();
        b[i] ^= 0x41;
        let _ = same(&b, &format!("byte {i} flipped"));
    }
    std::fs::remove_dir_all(&dir).ok();
}

fn bundle_tensors() -> Vec<(String, Tensor)> {
    vec![
        (
            "a_f32".into(),
            Tensor::from_vec([1000], f32s(1000, 2.0)).unwrap(),
        ),
        (
            "b_i8".into(),
            Tensor::from_vec([3], vec![1i8, -2, 3]).unwrap(),
        ),
        (
            "c_f64".into(),
            Tensor::from_vec([500], (0..500).map(|i| i as f64 * 0.125).collect()).unwrap(),
        ),
        (
            "d_str".into(),
            Tensor::from_vec(
                [2],
                vec![
                    tftensor::bytes::Bytes::from_static(b"x"),
                    tftensor::bytes::Bytes::from_static(b"yz"),
                ],
            )
            .unwrap(),
        ),
        (
            "e_bool".into(),
            Tensor::from_vec([3], vec![true, false, true]).unwrap(),
        ),
        (
            "f_i16".into(),
            Tensor::from_vec([7], (0..7i16).collect()).unwrap(),
        ),
    ]
}

fn write_bundle(prefix: &Path, tensors: &[(String, Tensor)]) {
    let mut w = BundleWriter::new(prefix).unwrap();
    for (k, t) in tensors {
        w.add(k, t).unwrap();
    }
    w.finish().unwrap();
}

#[test]
fn checkpoint_load_adopts_aligned_slices_of_one_shard_buffer() {
    let dir = temp_dir("ckpt-load");
    let prefix = dir.join("ckpt");
    let tensors = bundle_tensors();
    write_bundle(&prefix, &tensors);
    let loaded = BundleReader::load(&prefix).unwrap();
    let opened = BundleReader::open(&prefix).unwrap();
    let data_len = std::fs::metadata(dir.join("ckpt.data-00000-of-00001"))
        .unwrap()
        .len() as usize;
    let mut pods = Vec::new();
    for (k, t) in &tensors {
        let got = loaded.get(k).unwrap();
        assert_eq!(&got, t, "{k}");
        assert_eq!(got, opened.get(k).unwrap(), "{k}");
        if t.dtype().can_use_memcpy() {
            // Even b_i8's 3 bytes do not misalign what follows.
            assert!(external(&got), "{k} was copied");
            assert_eq!(addr(&got) % 64, 0, "{k}");
            pods.push(got);
        }
    }
    let lo = pods.iter().map(addr).min().unwrap();
    let hi = pods
        .iter()
        .map(|t| addr(t) + t.total_bytes())
        .max()
        .unwrap();
    assert!(hi - lo <= data_len + 64 * pods.len(), "not one buffer");
    // The tensors keep the buffer alive after the reader is gone.
    drop(loaded);
    assert_eq!(pods[0], tensors[0].1);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn checkpoint_load_still_detects_corruption_per_tensor() {
    let dir = temp_dir("ckpt-corrupt");
    let prefix = dir.join("ckpt");
    write_bundle(&prefix, &bundle_tensors());
    let data = dir.join("ckpt.data-00000-of-00001");
    let mut bytes = std::fs::read(&data).unwrap();
    // The first entry (a_f32) starts at offset 0.
    bytes[100] ^= 1;
    std::fs::write(&data, &bytes).unwrap();
    let loaded = BundleReader::load(&prefix).unwrap();
    let opened = BundleReader::open(&prefix).unwrap();
    let a = loaded.get("a_f32").unwrap_err();
    assert!(matches!(a, Error::DataLoss { .. }), "{a}");
    assert_eq!(a.to_string(), opened.get("a_f32").unwrap_err().to_string());
    assert!(a.to_string().contains("checksum does not match"), "{a}");
    // The other tensors are intact.
    assert_eq!(loaded.get("c_f64").unwrap(), bundle_tensors()[2].1);
    // Unverified, the corrupt bytes come through, as with `open`.
    let unverified = BundleReader::load(&prefix)
        .unwrap()
        .with_verify_checksums(false);
    assert_eq!(
        unverified.get("a_f32").unwrap(),
        opened.with_verify_checksums(false).get("a_f32").unwrap()
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn checkpoint_load_reports_a_missing_shard_on_get() {
    let dir = temp_dir("ckpt-missing");
    let prefix = dir.join("ckpt");
    write_bundle(&prefix, &bundle_tensors());
    std::fs::remove_file(dir.join("ckpt.data-00000-of-00001")).unwrap();
    let r = BundleReader::load(&prefix).unwrap();
    assert_eq!(r.keys().count(), 6);
    let err = r.get("a_f32").unwrap_err();
    let want = BundleReader::open(&prefix)
        .unwrap()
        .get("a_f32")
        .unwrap_err();
    assert_eq!(err.to_string(), want.to_string());
    assert!(matches!(err, Error::NotFound { .. }), "{err:?}");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_large_checkpoint_tensor_read_by_open_is_a_huge_page_buffer() {
    let dir = temp_dir("ckpt-large");
    let prefix = dir.join("ckpt");
    let big = Tensor::from_vec([1 << 20], f32s(1 << 20, 0.0)).unwrap();
    let tensors = vec![
        ("odd".to_string(), Tensor::from_vec([1], vec![7i8]).unwrap()),
        ("w".to_string(), big.clone()),
    ];
    write_bundle(&prefix, &tensors);
    let r = BundleReader::open(&prefix).unwrap();
    let got = r.get("w").unwrap();
    assert_eq!(got, big);
    // Its own page-aligned map, not a zero-filled allocation.
    assert_eq!(addr(&got) % 4096, 0);
    assert!(external(&got));
    let loaded = BundleReader::load(&prefix).unwrap().get("w").unwrap();
    assert_eq!(loaded, big);
    assert_eq!(addr(&loaded) % 64, 0);
    std::fs::remove_dir_all(&dir).ok();
}

/// Files of several chunks (the readers sum CRCs 1 MiB at a time as they
/// read): a damaged record or tensor fails as reading record by record or
/// key by key does, the first damage in the file winning.
#[test]
fn damage_in_multi_chunk_files_fails_as_piecewise_reads_do() {
    let dir = temp_dir("pipelined-crc");
    let path = dir.join("t.tfrecord");
    let tensors: Vec<Tensor> = (0..7)
        .map(|i| Tensor::from_vec([1 << 18], f32s(1 << 18, i as f32)).unwrap())
        .collect();
    write_tensors(&path, Compression::None, &tensors).unwrap();
    let good = std::fs::read(&path).unwrap();
    let record = good.len() / 7;
    let bad = dir.join("bad.tfrecord");
    let same = |bytes: &[u8], what: &str| {
        whole_as_record_by_record(&bad, bytes, what)
            .unwrap_err()
            .to_string()
    };
    // Records 2 and 5 damaged, and the file cut inside record 6.
    let mut b = good[..good.len() - 100].to_vec();
    b[2 * record + 5000] ^= 4;
    b[5 * record + 5000] ^= 4;
    let err = same(&b, "two flips and a cut");
    assert!(
        err.contains("corrupted record: ") && err.contains("'record 2'"),
        "{err}"
    );
    // Only the cut.
    let err = same(&good[..good.len() - 100], "cut");
    assert!(
        err.contains("truncated record: ") && err.contains("'record 6'"),
        "{err}"
    );
    // Only the last record's data.
    let mut b = good.clone();
    b[good.len() - 50] ^= 1;
    let err = same(&b, "last");
    assert!(err.contains("'record 6'"), "{err}");

    let prefix = dir.join("ckpt");
    let big: Vec<(String, Tensor)> = (0..3)
        .map(|i| (format!("w{i}"), tensors[i].clone()))
        .collect();
    let big = [
        big,
        vec![(
            "x".into(),
            Tensor::from_vec([1 << 20], f32s(1 << 20, 1.0)).unwrap(),
        )],
    ]
    .concat();
    write_bundle(&prefix, &big);
    let data = dir.join("ckpt.data-00000-of-00001");
    let mut bytes = std::fs::read(&data).unwrap();
    // Entries are in key order: w0, w1, w2 (1 MiB each), then x (4 MiB).
    bytes[(1 << 20) + 77] ^= 2;
    bytes[(3 << 20) + (3 << 20)] ^= 2;
    std::fs::write(&data, &bytes).unwrap();
    for reader in [
        BundleReader::load(&prefix).unwrap(),
        BundleReader::open(&prefix).unwrap(),
    ] {
        for key in ["w1", "x"] {
            let err = reader.get(key).unwrap_err();
            assert!(matches!(err, Error::DataLoss { .. }), "{key}: {err}");
            assert!(err.to_string().contains("checksum does not match"), "{err}");
        }
        assert_eq!(reader.get("w0").unwrap(), big[0].1);
        assert_eq!(reader.get("w2").unwrap(), big[2].1);
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A shard of 40 MiB is read by two threads (16 MiB and up), each tensor's
/// CRC combined from pieces summed on either: the tensors come back equal,
/// and damage in either thread's half is caught in the tensor it hits.
#[test]
fn a_large_shard_read_on_two_threads_checks_every_tensor() {
    let dir = temp_dir("two-threads");
    let prefix = dir.join("ckpt");
    // Ten tensors of 4 MiB and 1 byte, so pieces and halves do not line up
    // with tensors.
    let tensors: Vec<(String, Tensor)> = (0..10)
        .map(|i| {
            let v: Vec<u8> = (0..(4 << 20) + 1)
                .map(|j: usize| (j * 31 + i) as u8)
                .collect();
            (
                format!("t{i}"),
                Tensor::from_vec([v.len() as i64], v).unwrap(),
            )
        })
        .collect();
    write_bundle(&prefix, &tensors);
    for reader in [
        BundleReader::load(&prefix).unwrap(),
        BundleReader::open(&prefix).unwrap(),
    ] {
        for (k, t) in &tensors {
            assert_eq!(&reader.get(k).unwrap(), t, "{k}");
        }
    }
    let data = dir.join("ckpt.data-00000-of-00001");
    let mut bytes = std::fs::read(&data).unwrap();
    let size = (4 << 20) + 1;
    bytes[size + 12_345] ^= 8; // t1, first half
    bytes[8 * size + 3] ^= 8; // t8, second half
    std::fs::write(&data, &bytes).unwrap();
    for reader in [
        BundleReader::load(&prefix).unwrap(),
        BundleReader::open(&prefix).unwrap(),
    ] {
        for (k, t) in &tensors {
            match reader.get(k) {
                Ok(got) => {
                    assert!(k != "t1" && k != "t8", "{k} read despite damage");
                    assert_eq!(&got, t, "{k}");
                }
                Err(e) => {
                    assert!(k == "t1" || k == "t8", "{k}: {e}");
                    assert!(e.to_string().contains("checksum does not match"), "{e}");
                }
            }
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// A TFRecord file of 32 MiB or more, of large records, is read by two
/// threads after a pass over the headers: the same tensors as record by
/// record, still adopted aligned from one buffer; and any damage (data,
/// length CRC, a cut) gives exactly the record-by-record error.
#[test]
fn a_large_tfrecord_file_read_on_two_threads_matches_record_by_record() {
    let dir = temp_dir("tfrecord-two-threads");
    let path = dir.join("t.tfrecord");
    let tensors: Vec<Tensor> = (0..9)
        .map(|i| Tensor::from_vec([(1 << 20) + i], f32s((1 << 20) + i as usize, i as f32)).unwrap())
        .collect();
    write_tensors(&path, Compression::None, &tensors).unwrap();
    let good = std::fs::read(&path).unwrap();
    let got = read_tensors(&path, Compression::None).unwrap();
    assert_eq!(got, tensors);
    for t in &got {
        assert!(external(t));
        assert_eq!(addr(t) % 64, 0);
    }
    let bad = dir.join("bad.tfrecord");
    let record = good.len() / 9;
    let mut b = good.clone();
    b[3 * record + 9_000] ^= 1; // record 3's data
    b[6 * record + 9_000] ^= 1; // record 6's data
    let err = whole_as_record_by_record(&bad, &b, "data").unwrap_err();
    assert_eq!(err.key(), Some("record 3"), "{err}");
    let mut b = good.clone();
    b[5 * record + 3] ^= 1; // record 5's length CRC or length
    whole_as_record_by_record(&bad, &b, "header").unwrap_err();
    whole_as_record_by_record(&bad, &good[..good.len() - 7], "cut").unwrap_err();
    std::fs::remove_dir_all(&dir).ok();
}
