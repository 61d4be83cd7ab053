//! Tensor bundles written by TF 2.21 (tests/data/checkpoints), with the
//! index truncated or single bytes of the index or the data changed:
//! opening the bundle and reading every entry (checksums verified and not)
//! gives `Ok` or `Err`, never a panic, and allocates no more than the
//! input can back.
#![cfg(feature = "checkpoint")]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use bytes::Bytes;
use tftensor::checkpoint::BundleReader;

use crate::common::allocated_by;

/// What reading a bundle of `len` bytes may allocate: the decoded
/// tensors (strings: a 32-byte handle per element), the parsed index and
/// fixed overhead.
fn budget(len: usize) -> usize {
    64 * len + (256 << 10)
}

/// Opens the bundle and reads every entry, with and without checksums.
fn read_all(index: &[u8], data: &[Vec<u8>]) {
    for verify in [true, false] {
        let shards = data.iter().map(|d| Bytes::copy_from_slice(d)).collect();
        let Ok(r) = BundleReader::from_bytes(Bytes::copy_from_slice(index), shards) else {
            return;
        };
        let r = r.with_verify_checksums(verify);
        let keys: Vec<String> = r.keys().map(str::to_owned).collect();
        for key in keys {
            let _ = r.dtype_and_shape(&key);
            let _ = r.get(&key);
        }
        let _ = r.raw_entries().count();
    }
}

fn check(what: &str, index: &[u8], data: &[Vec<u8>]) {
    let len = index.len() + data.iter().map(Vec::len).sum::<usize>();
    let ((), bytes) = catch_unwind(AssertUnwindSafe(|| allocated_by(|| read_all(index, data))))
        .unwrap_or_else(|_| panic!("{what}: panicked"));
    assert!(
        bytes <= budget(len),
        "{what}: allocated {bytes} bytes for {len} bytes of input"
    );
}

#[test]
fn truncated_and_corrupted_bundles_never_panic_or_overallocate() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/checkpoints");
    // Every 11th byte in a plain `cargo test` (each under
    // TFTENSOR_FULL_SWEEPS=1).
    let step = if std::env::var_os("TFTENSOR_UNDER_VALGRIND").is_some() {
        7
    } else {
        crate::common::sweep_stride(1, 11)
    };
    let mut checked = 0;
    for (dir, prefix, shards) in [("all_dtypes", "bundle", 1), ("sharded", "ckpt", 4)] {
        let index = std::fs::read(root.join(dir).join(format!("{prefix}.index"))).unwrap();
        let data: Vec<Vec<u8>> = (0..shards)
            .map(|i| {
                let name = format!("{prefix}.data-{i:05}-of-{shards:05}");
                std::fs::read(root.join(dir).join(name)).unwrap()
            })
            .collect();
        check(&format!("{dir} as written"), &index, &data);
        for at in (0..index.len()).step_by(step) {
            check(&format!("{dir} index cut at {at}"), &index[..at], &data);
            for flip in [0x01u8, 0x80, 0xff] {
                let mut w = index.clone();
                w[at] ^= flip;
                check(&format!("{dir} index byte {at} ^ {flip:#04x}"), &w, &data);
            }
            checked += 4;
        }
        for (s, shard) in data.iter().enumerate() {
            for at in (0..shard.len()).step_by(step) {
                let mut d = data.clone();
                d[s].truncate(at);
                check(&format!("{dir} shard {s} cut at {at}"), &index, &d);
                let mut d = data.clone();
                d[s][at] ^= 0xff;
                check(&format!("{dir} shard {s} byte {at} ^ 0xff"), &index, &d);
                checked += 2;
            }
        }
    }
    // Every `step`-th byte of every file was tried.
    assert!(checked > 5_000 / step, "{checked}");
}
