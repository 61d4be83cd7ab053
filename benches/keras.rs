//! Suite: Keras weight files.
//!
//! * `keras_read`: open a ~256 MiB `.weights.h5` (64 float32 tensors of
//!   4 MiB, written by our writer, the layout h5py writes) and read every
//!   tensor, against one `read()` of the same file into an anonymous map
//!   advised to use huge pages (the same page policy as our large reads).
//!   Goal: ≥ 0.8× its throughput (A/B time ratio ≤ 1.25), page cache warm.
//! * `keras_open`: listing the entries (headers only) of the same file.
//!
//! * `keras_side_by_side` (when `TFTENSOR_BENCH_H5PY=<python>` names a
//!   Python with h5py): our read of every tensor, the `read()` into a map,
//!   and h5py reading every dataset (`ds[()]`, benches/peers/h5py_read.py
//!   `--serve`, one process kept alive), interleaved in each round with the
//!   order rotating; prints the medians and the load average.
//!
//! `TFTENSOR_BENCH_KERAS_MIB=1024` sets the file size (default 256 MiB);
//! `TFTENSOR_BENCH_KEEP=1` keeps the file; `TFTENSOR_BENCH_PAIRED_ONLY=1`
//! skips the criterion groups (the paired ratio and the side by side stay).
//!
//! ```sh
//! TFTENSOR_BENCH_SHORT=1 TFTENSOR_BENCH_H5PY=python3 cargo bench -p tftensor-benches --bench keras
//! ```

use std::io::Read;
use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tftensor::Tensor;
use tftensor::keras::{KerasFile, WeightsWriter};

mod common;
use common::{MIB, bytes_label, f32_data, size};

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

/// Every tensor, all held until the end (as h5py's list and the one
/// buffer of `read_into_map` hold every byte at once).
fn read_all(path: &std::path::Path) -> usize {
    let f = KerasFile::open(path).unwrap();
    let all: Vec<Tensor> = (0..f.entries().len())
        .map(|i| f.read_index(i).unwrap())
        .collect();
    all.iter().map(|t| t.num_elements() as usize).sum()
}

fn bench(c: &mut Criterion) {
    let dir = std::env::var_os("TFTENSOR_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(format!("tftensor-bench-keras-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mib = std::env::var("TFTENSOR_BENCH_KERAS_MIB")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(256);
    let total = size(mib * MIB, 64 * 16 * 1024);
    let path = write(&dir, total);
    let len = std::fs::metadata(&path).unwrap().len();
    let label = bytes_label(total);
    let _ = std::fs::read(&path).unwrap(); // warm the page cache

    if !common::paired_only() {
        let mut g = c.benchmark_group("keras_read");
        g.throughput(Throughput::Bytes(len));
        g.bench_function(format!("keras_read_all/{label}"), |b| {
            b.iter(|| read_all(&path))
        });
        g.bench_function(format!("read_into_map/{label}"), |b| {
            b.iter(|| read_into_map(&path))
        });
        g.finish();
    }
    common::paired(
        &format!("keras_read/read_all_vs_read_into_map/{label}"),
        || read_all(&path),
        || read_into_map(&path),
    );
    if let Some(python) = std::env::var_os("TFTENSOR_BENCH_H5PY") {
        side_by_side(&path, &python);
    }
    if !common::paired_only() {
        let mut g = c.benchmark_group("keras_open");
        g.bench_function(format!("entries/{label}"), |b| {
            b.iter(|| KerasFile::open(&path).unwrap().entries().len())
        });
        g.finish();
    }
    if std::env::var_os("TFTENSOR_BENCH_KEEP").is_some() {
        println!("file kept: {}", path.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// Ours, `read()` into a map, and h5py, interleaved: `TFTENSOR_BENCH_ROUNDS`
/// rounds (default 7), each timing all three once, in rotating order.
fn side_by_side(path: &std::path::Path, python: &std::ffi::OsStr) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::time::Instant;

    if common::mode() == common::Mode::Test {
        return;
    }
    let peer = concat!(env!("CARGO_MANIFEST_DIR"), "/peers/h5py_read.py");
    let mut child = Command::new(python)
        .arg(peer)
        .arg(path)
        .arg("--serve")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("start the h5py peer");
    let mut to = child.stdin.take().unwrap();
    let mut from = BufReader::new(child.stdout.take().unwrap());
    let mut h5py = || {
        writeln!(to, "go").unwrap();
        let mut line = String::new();
        from.read_line(&mut line).unwrap();
        line.trim().parse::<f64>().expect("the peer's seconds")
    };
    let timed = |f: &mut dyn FnMut()| {
        let t = Instant::now();
        f();
        t.elapsed().as_secs_f64()
    };
    let rounds = std::env::var("TFTENSOR_BENCH_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(7usize);
    // One warm-up of each.
    read_all(path);
    read_into_map(path);
    h5py();
    let mut t = [Vec::new(), Vec::new(), Vec::new()];
    for r in 0..rounds {
        for k in 0..3 {
            let which = (r + k) % 3;
            let s = match which {
                0 => timed(&mut || {
                    std::hint::black_box(read_all(path));
                }),
                1 => timed(&mut || {
                    std::hint::black_box(read_into_map(path));
                }),
                _ => h5py(),
            };
            t[which].push(s);
        }
    }
    drop(to);
    let _ = child.wait();
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let [ours, map, peer] = t.map(|mut v| median(&mut v));
    let mib = std::fs::metadata(path).unwrap().len() as f64 / MIB as f64;
    let rate = |s: f64| mib / s;
    println!("keras_side_by_side ({mib:.0} MiB, {rounds} rounds, medians):");
    println!(
        "  tftensor read all: {:.1} ms ({:.0} MiB/s)",
        ours * 1e3,
        rate(ours)
    );
    println!(
        "  read() into map:   {:.1} ms ({:.0} MiB/s)",
        map * 1e3,
        rate(map)
    );
    println!(
        "  h5py read all:     {:.1} ms ({:.0} MiB/s)",
        peer * 1e3,
        rate(peer)
    );
    println!(
        "  ours vs read(): {:.2}x its throughput (goal >= 0.8); h5py / ours: {:.2}x",
        map / ours,
        peer / ours
    );
    if let Ok(l) = std::fs::read_to_string("/proc/loadavg") {
        println!("  load average: {}", l.trim());
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = bench
}
criterion_main!(benches);
