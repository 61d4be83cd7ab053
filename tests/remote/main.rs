//! `s3://`, `gs://` and `http://` reads and writes against real servers on
//! 127.0.0.1 (moto; s3s-fs, a second S3 server, for the reads, counts and
//! writes; a counting fault-injecting proxy; a small `Range` server),
//! started by the tests. Each test sets its store's environment
//! in a child process of its own (`servers::run_child`), so tests with
//! different endpoints and timeouts run side by side.

mod counts;
mod faults;
mod reads;
mod second;
mod servers;
mod writes;

use std::path::PathBuf;

pub fn data(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// Deterministic bytes: byte `i` of a stream seeded `seed`.
pub fn pattern(len: usize, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(1);
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x as u8
        })
        .collect()
}
