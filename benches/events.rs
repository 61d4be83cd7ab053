//! Suite: TensorBoard event files (`tftensor::events`).
//!
//! * `events_read/series/<size>`: `events::series` (the columnar path:
//!   steps, wall times and stacked values per tag) over a scalar-heavy log
//!   (one run, 10 tags, float32 scalars as `tf.summary.scalar` writes
//!   them; 256 MiB in bench modes, or `TFTENSOR_EVENTS_BENCH_MIB` MiB,
//!   1 MiB under `cargo test`). Throughput in file bytes.
//! * `events_read/io_open/<size>`: `tftensor::io::open` of the log (the
//!   series as a `TensorSource`, what the CLI and Python module read).
//! * `events_read/list/<size>`: `events::list` of the same log (no values
//!   kept).
//! * `events_read/reader/<size>`: `EventReader` over the same log, every
//!   value an `EventValue` with its `Tensor` (the general per-event API).
//! * `events_write/add_scalar/1M`: `SummaryWriter::add_scalar` of 1M
//!   scalars (10 tags) to a fresh file, flushed. Throughput in scalars.
//!
//! The log is written to a temporary directory and removed at the end,
//! unless `TFTENSOR_EVENTS_BENCH_DIR` names a directory: then it is written
//! there (if it holds no event file yet) and kept, so that the peer
//! (`benches/peers/tb_events.py DIR`) times TensorBoard's EventAccumulator
//! on the same files.

mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};

use common::{MIB, Mode, mode};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tftensor::events::{EventReader, SummaryWriter, list, series};

const TAGS: usize = 10;

fn total_bytes() -> usize {
    let mib = std::env::var("TFTENSOR_EVENTS_BENCH_MIB")
        .ok()
        .and_then(|v| v.parse::<usize>().ok());
    match mode() {
        Mode::Full | Mode::Short => mib.unwrap_or(256) * MIB,
        Mode::Test => MIB,
    }
}

/// Writes scalars until the file holds `bytes`; returns the values written.
fn write_log(dir: &Path, bytes: usize) -> usize {
    let tags: Vec<String> = (0..TAGS).map(|i| format!("train/metric_{i}")).collect();
    let mut w = SummaryWriter::create(dir).unwrap();
    let mut n = 0;
    let mut step = 0i64;
    loop {
        for tag in &tags {
            w.add_scalar(tag, step, (step as f32).sin()).unwrap();
            n += 1;
        }
        step += 1;
        if step % 1024 == 0 {
            w.flush().unwrap();
            if std::fs::metadata(w.path()).unwrap().len() as usize >= bytes {
                break;
            }
        }
    }
    w.close().unwrap();
    n
}

fn read_all(dir: &Path) -> usize {
    let mut n = 0;
    for v in EventReader::open(dir).unwrap() {
        black_box(&v.unwrap().value);
        n += 1;
    }
    n
}

struct TempDir(PathBuf, bool);

impl Drop for TempDir {
    fn drop(&mut self) {
        if !self.1 {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

fn log_dir() -> TempDir {
    match std::env::var_os("TFTENSOR_EVENTS_BENCH_DIR") {
        Some(d) => TempDir(PathBuf::from(d), true),
        None => TempDir(
            tempfile::Builder::new()
                .prefix("tftensor-bench-events-")
                .tempdir()
                .unwrap()
                .keep(),
            false,
        ),
    }
}

fn dir_bytes(dir: &Path) -> u64 {
    tftensor::events::discover(dir)
        .unwrap()
        .iter()
        .flat_map(|r| &r.files)
        .map(|f| std::fs::metadata(f).unwrap().len())
        .sum()
}

fn bench(c: &mut Criterion) {
    let dir = log_dir();
    if !dir.0.exists() || dir_bytes(&dir.0) == 0 {
        write_log(&dir.0, total_bytes());
    }
    let len = dir_bytes(&dir.0);
    let values: usize = list(&dir.0).unwrap().iter().map(|s| s.count).sum();
    let label = common::bytes_label(len as usize);
    println!(
        "  log: {label} in {values} values ({:.1} bytes per record)",
        len as f64 / values as f64
    );

    let mut g = c.benchmark_group("events_read");
    g.throughput(Throughput::Bytes(len));
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("series", &label), |b| {
        b.iter(|| black_box(series(&dir.0).unwrap()))
    });
    g.bench_function(BenchmarkId::new("io_open", &label), |b| {
        b.iter(|| black_box(tftensor::io::open(&dir.0).unwrap()))
    });
    g.bench_function(BenchmarkId::new("list", &label), |b| {
        b.iter(|| black_box(list(&dir.0).unwrap().len()))
    });
    g.bench_function(BenchmarkId::new("reader", &label), |b| {
        b.iter(|| read_all(&dir.0))
    });
    g.finish();

    let n_write = match mode() {
        Mode::Full | Mode::Short => 1_000_000,
        Mode::Test => 10_000,
    };
    let out = dir.0.with_extension("write");
    let mut g = c.benchmark_group("events_write");
    g.throughput(Throughput::Elements(n_write as u64));
    g.sample_size(10);
    let tags: Vec<String> = (0..TAGS).map(|i| format!("train/metric_{i}")).collect();
    g.bench_function(
        BenchmarkId::new("add_scalar", format!("{}k", n_write / 1000)),
        |b| {
            b.iter(|| {
                let mut w = SummaryWriter::create(&out).unwrap();
                for i in 0..n_write {
                    w.add_scalar(&tags[i % TAGS], (i / TAGS) as i64, i as f32)
                        .unwrap();
                }
                w.close().unwrap();
                let _ = std::fs::remove_dir_all(&out);
            })
        },
    );
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = bench
}
criterion_main!(benches);
