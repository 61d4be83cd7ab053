//! Suite 6: tensor bundles. Reading every tensor of a float32 bundle
//! (64 tensors of 16 MiB = 1 GiB; 16 of them = 256 MiB in short mode)
//! against `std::fs::read` of the same bytes, the memory-mapped path (O(1)
//! per aligned tensor when checksums are not verified), and writing it
//! against `std::fs::write` of the same bytes.
//!
//! The bundle is written to a temporary directory at bench time and removed
//! afterwards. Ids: `checkpoint_read/...`, `checkpoint_mmap_get/...`,
//! `checkpoint_write/...`; paired A/B ratios `checkpoint/<a>_vs_<b>`.

mod common;

use std::hint::black_box;
use std::path::{Path, PathBuf};

use common::{MIB, Mode};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tftensor::Tensor;
use tftensor::checkpoint::{BundleReader, BundleWriter};

const TENSOR_BYTES: usize = 16 * MIB;

fn count() -> usize {
    match common::mode() {
        Mode::Full => 64,
        Mode::Short => 16,
        Mode::Test => 2,
    }
}

fn tensor_bytes() -> usize {
    common::size(TENSOR_BYTES, 64 * 1024)
}

fn tensors() -> Vec<(String, Tensor)> {
    let n = tensor_bytes() / 4;
    (0..count())
        .map(|i| {
            let data: Vec<f32> = common::f32_data(n)
                .into_iter()
                .map(|x| x + i as f32)
                .collect();
            (
                format!("layer_{i:03}/kernel/.ATTRIBUTES/VARIABLE_VALUE"),
                Tensor::from_vec([n as i64 / 1024, 1024], data).unwrap(),
            )
        })
        .collect()
}

fn write_bundle(prefix: &Path, tensors: &[(String, Tensor)]) {
    let mut w = BundleWriter::new(prefix).unwrap();
    for (k, t) in tensors {
        w.add(k, t).unwrap();
    }
    w.finish().unwrap();
}

fn data_file(prefix: &Path) -> PathBuf {
    PathBuf::from(format!("{}.data-00000-of-00001", prefix.display()))
}

fn read_all(prefix: &Path) -> Vec<Tensor> {
    let r = BundleReader::open(prefix).unwrap();
    r.keys().map(|k| r.get(k).unwrap()).collect()
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::Builder::new()
        .prefix("tftensor-bench-ckpt-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let prefix = dir.join("ckpt");
    let ts = tensors();
    write_bundle(&prefix, &ts);
    let data = data_file(&prefix);
    let total = (count() * tensor_bytes()) as u64;
    let label = common::bytes_label(total as usize);
    let raw: Vec<u8> = std::fs::read(&data).unwrap();

    // Reading: one copy from the page cache into aligned buffers, CRC checked.
    let mut g = c.benchmark_group("checkpoint_read");
    g.throughput(Throughput::Bytes(total));
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("bundle_reader", &label), |b| {
        b.iter(|| black_box(read_all(&prefix)))
    });
    g.bench_function(BenchmarkId::new("fs_read", &label), |b| {
        b.iter(|| black_box(std::fs::read(&data).unwrap()))
    });
    g.finish();
    common::paired(
        "checkpoint/read_all_vs_fs_read",
        || read_all(&prefix),
        || std::fs::read(&data).unwrap(),
    );

    // Memory-mapped: an aligned tensor is adopted; without verification O(1).
    // SAFETY: nothing modifies the bundle while the bench runs.
    let mapped = unsafe { BundleReader::open_mmap(&prefix) }.unwrap();
    // SAFETY: as above.
    let unverified = unsafe { BundleReader::open_mmap(&prefix) }
        .unwrap()
        .with_verify_checksums(false);
    let key = ts[0].0.clone();
    let mut g = c.benchmark_group("checkpoint_mmap_get");
    g.bench_function(
        BenchmarkId::new("unverified", common::bytes_label(tensor_bytes())),
        |b| b.iter(|| black_box(unverified.get(&key).unwrap())),
    );
    g.bench_function(
        BenchmarkId::new("verified", common::bytes_label(tensor_bytes())),
        |b| b.iter(|| black_box(mapped.get(&key).unwrap())),
    );
    g.finish();

    // Writing: one pass that checksums and writes, then fsync + rename.
    let out = dir.join("out");
    let out_data = dir.join("plain.bin");
    let mut g = c.benchmark_group("checkpoint_write");
    g.throughput(Throughput::Bytes(total));
    g.sample_size(10);
    g.bench_function(BenchmarkId::new("bundle_writer", &label), |b| {
        b.iter(|| write_bundle(&out, &ts))
    });
    g.bench_function(BenchmarkId::new("fs_write", &label), |b| {
        b.iter(|| std::fs::write(&out_data, &raw).unwrap())
    });
    g.finish();
    common::paired(
        "checkpoint/write_vs_fs_write",
        || write_bundle(&out, &ts),
        || std::fs::write(&out_data, &raw).unwrap(),
    );
    common::paired(
        "checkpoint/write_vs_fs_write_sync",
        || write_bundle(&out, &ts),
        || {
            let mut f = std::fs::File::create(&out_data).unwrap();
            std::io::Write::write_all(&mut f, &raw).unwrap();
            f.sync_all().unwrap();
        },
    );
    drop((mapped, unverified));
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = bench
}
criterion_main!(benches);
