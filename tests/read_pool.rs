//! The read-buffer pool gives memory back: a 1 GiB `.npy` is loaded and
//! dropped, and the process's resident memory (`VmRSS`) returns to within
//! 64 MiB of where it started, right after `release_memory()` and by itself
//! within `READ_POOL_IDLE`. Needs about 1 GiB of RAM and 1 GiB of disk in
//! the temp folder. A plain `cargo test` loads 256 MiB instead (moving a
//! GiB takes seconds of page faults); `TFTENSOR_FULL_SWEEPS=1`, as in
//! `.ci/run`, the whole GiB. Linux only (it reads `/proc/self/status`).
#![cfg(all(target_os = "linux", feature = "npy"))]

mod common;

use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use tftensor::io::open;

const GIB: usize = 1 << 30;
const MIB: usize = 1 << 20;

/// The size loaded and dropped: 1 GiB, or 256 MiB in a plain `cargo test`.
fn size() -> usize {
    if common::full_sweeps() { GIB } else { GIB / 4 }
}
/// How far above its start the process may stay once the memory is back.
const SLACK: usize = 64 * MIB;

/// One test at a time in this binary: each measures the whole process.
static ALONE: Mutex<()> = Mutex::new(());

/// The process's resident memory, in bytes.
fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).unwrap();
    let kib: usize = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .unwrap();
    kib * 1024
}

/// A `.npy` of `bytes / 4` float32 zeros, written in 8 MiB pieces (so
/// writing it adds nothing lasting to the process's memory).
fn write_npy(path: &Path, bytes: usize) {
    let mut header = format!(
        "{{'descr': '<f4', 'fortran_order': False, 'shape': ({},), }}",
        bytes / 4
    );
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    f.write_all(b"\x93NUMPY\x01\x00").unwrap();
    f.write_all(&u16::try_from(header.len()).unwrap().to_le_bytes())
        .unwrap();
    f.write_all(header.as_bytes()).unwrap();
    let zeros = vec![0u8; 8 * MIB];
    for _ in 0..bytes / zeros.len() {
        f.write_all(&zeros).unwrap();
    }
    f.into_inner().unwrap().sync_all().unwrap();
}

/// Loads the file's tensor, checks it is resident, and drops it: its map
/// goes to the pool, which still holds it afterwards.
fn load_and_drop(path: &Path, start: usize) {
    let tensor = open(path).unwrap().read(0).unwrap();
    assert_eq!(tensor.num_elements(), (size() / 4) as i64);
    assert!(rss() >= start + size() - SLACK, "the tensor is in memory");
    drop(tensor);
    assert!(
        tftensor::read_pool_bytes() >= size(),
        "the pool keeps the map"
    );
    assert!(rss() >= start + size() - SLACK, "kept, so still resident");
}

/// RSS back within 64 MiB of `start`, or the assertion says where it is.
fn assert_back(start: usize, when: &str) {
    let now = rss();
    assert!(
        now <= start + SLACK,
        "RSS {} MiB {when}, started at {} MiB",
        now / MIB,
        start / MIB
    );
}

#[test]
fn a_dropped_gib_goes_back_on_release_memory_and_by_itself_when_idle() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("1gib.npy");
    write_npy(&path, size());
    tftensor::release_memory();
    let start = rss();

    // At once, on request.
    load_and_drop(&path, start);
    tftensor::release_memory();
    assert_eq!(tftensor::read_pool_bytes(), 0);
    assert_back(start, "after release_memory");

    // By itself: the helper thread unmaps after `READ_POOL_IDLE`; allow it
    // a second more to be scheduled on a busy machine.
    load_and_drop(&path, start);
    let dropped = Instant::now();
    let deadline = tftensor::READ_POOL_IDLE + Duration::from_secs(1);
    while rss() > start + SLACK && dropped.elapsed() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    let waited = dropped.elapsed();
    assert_back(start, &format!("{waited:?} after the drop"));
    assert!(
        waited >= tftensor::READ_POOL_IDLE / 2,
        "given back before the idle time: {waited:?}"
    );
    assert_eq!(tftensor::read_pool_bytes(), 0);
}

#[test]
fn a_limit_of_zero_keeps_nothing() {
    let _alone = ALONE.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("64mib.npy");
    write_npy(&path, 64 * MIB);
    let before = tftensor::read_pool_limit();
    tftensor::set_read_pool_limit(0);
    let tensor = open(&path).unwrap().read(0).unwrap();
    drop(tensor);
    assert_eq!(tftensor::read_pool_bytes(), 0);
    tftensor::set_read_pool_limit(before);
    let tensor = open(&path).unwrap().read(0).unwrap();
    drop(tensor);
    assert!(tftensor::read_pool_bytes() >= 64 * MIB);
    tftensor::set_read_pool_limit(32 * MIB);
    assert_eq!(tftensor::read_pool_bytes(), 0, "a lower limit evicts now");
    tftensor::set_read_pool_limit(before);
}
