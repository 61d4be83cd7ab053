//! TFRecord files written by TF 2.21 (tests/data/tfrecord), truncated and
//! with single bytes changed, in all three compressions: reading every
//! record and parsing it as a tensor or an `Example` gives `Ok` or `Err`,
//! never a panic, and allocates no more than the input can back.
#![cfg(feature = "tfrecord")]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use tftensor::tfrecord::{
    Compression, MAX_PREALLOCATION, RecordReader, parse_example, parse_tensor,
};

use crate::common::allocated_by;

/// What reading `len` bytes may allocate: the records (for compressed
/// input, up to deflate's 1032:1 ratio), each record's buffer reserved up
/// to `MAX_PREALLOCATION` when the stream's length is unknown, the parsed
/// tensors, and the decompressor's state.
fn budget(len: usize, compression: Compression) -> usize {
    match compression {
        Compression::None => 64 * len + (1 << 20),
        _ => 2 * MAX_PREALLOCATION + 64 * 1032 * len + (1 << 20),
    }
}

/// Reads every record of `bytes` and parses each one as `kind`.
fn read_and_parse(bytes: &[u8], compression: Compression, kind: &str) {
    for record in RecordReader::new(bytes, compression) {
        let Ok(record) = record else { return };
        match kind {
            "tensors" => drop(parse_tensor(record)),
            "examples" => drop(parse_example(record)),
            _ => {}
        }
    }
}

/// The positions to cut or change: every byte of a small file, 64 evenly
/// spread ones of a larger file (16 under valgrind). A plain `cargo test`
/// takes every 8th of those (`TFTENSOR_FULL_SWEEPS=1` takes them all).
fn positions(len: usize) -> Vec<usize> {
    let most = if std::env::var_os("TFTENSOR_UNDER_VALGRIND").is_some() {
        16
    } else {
        64
    };
    let sample = crate::common::sweep_stride(1, 8);
    if len <= 1024 {
        (0..len).step_by(sample).collect()
    } else {
        (0..most).step_by(sample).map(|i| i * len / most).collect()
    }
}

#[test]
fn truncated_and_corrupted_records_never_panic_or_overallocate() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tfrecord");
    let mut checked = 0;
    for kind in ["tensors", "examples", "raw"] {
        for (compression, ext) in [
            (Compression::None, "tfrecord"),
            (Compression::Zlib, "zlib.tfrecord"),
            (Compression::Gzip, "gzip.tfrecord"),
        ] {
            let name = format!("{kind}.{ext}");
            let file = std::fs::read(dir.join(&name)).unwrap();
            let mut inputs = Vec::new();
            for at in positions(file.len()) {
                inputs.push((format!("{name} cut at {at}"), file[..at].to_vec()));
                for flip in [0x01u8, 0x80, 0xff] {
                    let mut w = file.clone();
                    w[at] ^= flip;
                    inputs.push((format!("{name} byte {at} ^ {flip:#04x}"), w));
                }
            }
            for (what, input) in inputs {
                let len = input.len();
                let ((), bytes) = catch_unwind(AssertUnwindSafe(|| {
                    allocated_by(|| read_and_parse(&input, compression, kind))
                }))
                .unwrap_or_else(|_| panic!("{what}: panicked"));
                assert!(
                    bytes <= budget(len, compression),
                    "{what}: allocated {bytes} bytes for {len} bytes of input"
                );
                checked += 1;
            }
        }
    }
    // Fewer positions of the larger files under valgrind (see `positions`).
    let floor = if std::env::var_os("TFTENSOR_UNDER_VALGRIND").is_some() {
        5_000
    } else {
        10_000
    };
    assert!(
        checked > floor / crate::common::sweep_stride(1, 8),
        "{checked}"
    );
}
