//! Suite: Keras weight files.
//!
//! * `keras_read`: open a ~256 MiB `.weights.h5` (64 float32 tensors of
//!   4 MiB, written by our writer, the layout h5py writes) and read every
//!   tensor, against one `read()` of the same file into an anonymous map
//!   advised to use huge pages (the same page policy as our large reads).
//!   Goal: ≥ 0.8× its throughput (A/B time ratio ≤ 1.25), page cache warm.
//! * `keras_open`: listing the entries (headers only) of the same file.
//!
//! h5py reading every dataset of the same file is timed by
//! benches/peers/h5py_read.py (`TFTENSOR_BENCH_KEEP=1` keeps the file).
//!
//! ```sh
//! TFTENSOR_BENCH_SHORT=1 cargo bench --bench keras
//! ```

use std::io::Read;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tftensor::keras::{KerasFile, WeightsWriter};
use tftensor::Tensor;

mod common;
use common::{bytes_label, f32_data, size, MIB};

fn write(dir: &std::path::Path, total: usize) -> PathBuf {
    let path = dir.join("big.weights.h5");
    let per = total / 64 / 4;
    let data = f32_data(per);
    let mut w = WeightsWriter::create(&path).unwrap();
    for i in 0..64 {
        let t = Tensor::from_slice([(per / 256) as i64, 256], &data).unwrap();
        w.add(&format!("layers/dense_{i}/vars/0"), &t).unwrap();
    }
    w.finish().unwrap();
    path
}

/// `read()` of the whole file into a huge-page-advised anonymous map.
fn read_into_map(path: &std::path::Path) -> memmap2::MmapMut {
    let mut f = std::fs::File::open(path).unwrap();
    let len = f.metadata().unwrap().len() as usize;
    let mut map = memmap2::MmapMut::map_anon(len).unwrap();
    #[cfg(target_os = "linux")]
    let _ = map.advise(memmap2::Advice::HugePage);
    f.read_exact(&mut map).unwrap();
    map
}

fn read_all(path: &std::path::Path) -> usize {
    let f = KerasFile::open(path).unwrap();
    (0..f.entries().len())
        .map(|i| f.read_index(i).unwrap().num_elements() as usize)
        .sum()
}

fn bench(c: &mut Criterion) {
    let dir = std::env::var_os("TFTENSOR_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(format!("tftensor-bench-keras-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let total = size(256 * MIB, 64 * 16 * 1024);
    let path = write(&dir, total);
    let len = std::fs::metadata(&path).unwrap().len();
    let label = bytes_label(total);
    let _ = std::fs::read(&path).unwrap(); // warm the page cache

    let mut g = c.benchmark_group("keras_read");
    g.throughput(Throughput::Bytes(len));
    g.bench_function(format!("keras_read_all/{label}"), |b| {
        b.iter(|| read_all(&path))
    });
    g.bench_function(format!("read_into_map/{label}"), |b| {
        b.iter(|| read_into_map(&path))
    });
    g.finish();
    common::paired(
        &format!("keras_read/read_all_vs_read_into_map/{label}"),
        || read_all(&path),
        || read_into_map(&path),
    );
    let mut g = c.benchmark_group("keras_open");
    g.bench_function(format!("entries/{label}"), |b| {
        b.iter(|| KerasFile::open(&path).unwrap().entries().len())
    });
    g.finish();
    if std::env::var_os("TFTENSOR_BENCH_KEEP").is_some() {
        println!("file kept: {}", path.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = bench
}
criterion_main!(benches);
