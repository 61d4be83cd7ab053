//! Suite 6: reading a TFRecord file of 1 MiB records (1 GiB in bench
//! modes, 4 MiB under `cargo test`), beside `std::fs::read` of the same
//! file in the same run (interleaved A/B, `common::paired`).
//!
//! The file is written to a temporary directory at start and removed at the
//! end; it stays in the page cache, so both sides measure the copy out of
//! the cache plus their own work (ours: both CRC32Cs of every record).
//!
//! * `tfrecord/read_iter_vs_fs_read`: `RecordReader::open` as an iterator
//!   (a fresh `Vec` per record).
//! * `tfrecord/read_reuse_vs_fs_read`: `read_record` into one reused
//!   buffer (TF's `ReadRecord` style).
//! * `..._vs_read_warm`: the same against `read_exact` of the whole file
//!   into a buffer allocated and touched once (the bare copy out of the
//!   page cache, without `fs::read`'s fresh-page faults).
//! * `tfrecord/write_vs_fs_write`: `RecordWriter::create` of 64 MiB of
//!   records beside `std::fs::write` of as many bytes.
//!
//! The TF peer (`benches/peers/tf_tfrecord.py`) times
//! `tf.data.TFRecordDataset` over a file with the same records.

mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};

use common::{MIB, Mode, mode};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tftensor::tfrecord::{Compression, RecordReader, RecordWriter};

const RECORD: usize = MIB;

fn total_bytes() -> usize {
    match mode() {
        Mode::Full | Mode::Short => 1024 * MIB,
        Mode::Test => 4 * MIB,
    }
}

/// Record `i`: `common::byte_data(1 MiB)` with its first 8 bytes set to `i`
/// (the peer script writes the same bytes).
fn record(i: usize, base: &[u8]) -> Vec<u8> {
    let mut r = base.to_vec();
    r[..8].copy_from_slice(&(i as u64).to_le_bytes());
    r
}

fn write_file(path: &Path, n: usize) {
    let base = common::byte_data(RECORD);
    let mut w = RecordWriter::create(path, Compression::None).unwrap();
    for i in 0..n {
        w.write_record(&record(i, &base)).unwrap();
    }
    w.finish().unwrap();
}

fn read_iter(path: &Path) -> usize {
    RecordReader::open(path, Compression::None)
        .unwrap()
        .map(|r| black_box(r.unwrap()).len())
        .sum()
}

fn read_reuse(path: &Path) -> usize {
    let mut reader = RecordReader::open(path, Compression::None).unwrap();
    let mut buf = Vec::new();
    let mut total = 0;
    while reader.read_record(&mut buf).unwrap() {
        total += black_box(&buf).len();
    }
    total
}

struct TempFile(PathBuf);

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(self.0.parent().unwrap());
    }
}

fn temp_file() -> TempFile {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-bench-tfrecord-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    TempFile(dir.join("records.tfrecord"))
}

fn read(c: &mut Criterion) {
    let n = total_bytes() / RECORD;
    let file = temp_file();
    write_file(&file.0, n);
    let len = std::fs::metadata(&file.0).unwrap().len();
    let label = common::bytes_label(n * RECORD);
    assert_eq!(read_iter(&file.0), n * RECORD);
    assert_eq!(read_reuse(&file.0), n * RECORD);

    // `std::fs::read` allocates the whole file afresh each call and pays
    // the first touch of every page; `read_warm` reads it into a buffer
    // allocated and touched once, which is only the copy out of the page
    // cache (see BENCHMARKS.md, "Fresh pages").
    let mut warm = vec![0u8; len as usize];
    let mut read_warm = || {
        use std::io::Read;
        std::fs::File::open(&file.0)
            .unwrap()
            .read_exact(&mut warm)
            .unwrap();
        black_box(warm.len())
    };
    for (name, f) in [
        ("read_iter", read_iter as fn(&Path) -> usize),
        ("read_reuse", read_reuse),
    ] {
        if let Some(ratio) = common::paired(
            &format!("tfrecord/{name}_vs_fs_read/{label}"),
            || f(&file.0),
            || std::fs::read(&file.0).unwrap(),
        ) {
            println!("  {name}: {:.2}x the speed of std::fs::read", 1.0 / ratio);
        }
        if let Some(ratio) = common::paired(
            &format!("tfrecord/{name}_vs_read_warm/{label}"),
            || f(&file.0),
            &mut read_warm,
        ) {
            println!(
                "  {name}: {:.2}x the speed of reading the file into a warm buffer",
                1.0 / ratio
            );
        }
    }
    drop(warm);

    // Absolute throughput, for the comparison with the TF peer.
    let mut g = c.benchmark_group("tfrecord_read");
    g.throughput(Throughput::Bytes(len));
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("read_iter", &label), |b| {
        b.iter(|| read_iter(&file.0))
    });
    g.bench_function(BenchmarkId::new("read_reuse", &label), |b| {
        b.iter(|| read_reuse(&file.0))
    });
    g.finish();

    // Writing (64 MiB, to spare the disk): ours against `std::fs::write`
    // of a buffer of the same length.
    let n_write = n.min(64);
    let base = common::byte_data(RECORD);
    let out = file.0.with_extension("out");
    let same_len = vec![0u8; n_write * (RECORD + 16)];
    if let Some(ratio) = common::paired(
        &format!(
            "tfrecord/write_vs_fs_write/{}",
            common::bytes_label(n_write * RECORD)
        ),
        || {
            let mut w = RecordWriter::create(&out, Compression::None).unwrap();
            for _ in 0..n_write {
                w.write_record(&base).unwrap();
            }
            w.finish().unwrap()
        },
        || std::fs::write(&out, &same_len).unwrap(),
    ) {
        println!("  write: {:.2}x the speed of std::fs::write", 1.0 / ratio);
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = read
}
criterion_main!(benches);
