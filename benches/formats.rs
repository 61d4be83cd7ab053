//! Suite: file formats (`.npy`, `.safetensors`).
//!
//! * `npy_read`: `read_npy` of a 256 MiB float32 `.npy` against
//!   `std::fs::read` of the same file (goal: ≥ 0.8× its throughput, i.e. an
//!   A/B time ratio ≤ 1.25), both from the page cache.
//! * `npy_zero_copy`: `read_npy_bytes` of the file already in memory, and
//!   `read_npy_mmap`, at 256 MiB against 1 MiB (goal: O(1), ratio ≈ 1).
//! * `safetensors`: `load_bytes` of a 256 MiB file of 64 tensors against the
//!   `safetensors` crate's own `SafeTensors::deserialize` + listing the
//!   tensor views (both O(header)); and `load` (from a path) against
//!   `std::fs::read`.
//!
//! The files are generated in a temporary directory at bench time.
//! NumPy's `np.load` of the same files is timed by benches/peers/np_load.py.
//!
//! ```sh
//! TFTENSOR_BENCH_SHORT=1 cargo bench -p tftensor-benches --bench formats
//! ```

use std::hint::black_box;
use std::path::{Path, PathBuf};

use bytes::Bytes;
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use tftensor::Tensor;
use tftensor::npy::{read_npy, read_npy_bytes, read_npy_mmap, write_npy};

mod common;
use common::{MIB, bytes_label, f32_data, size};

struct Files {
    dir: PathBuf,
    npy_big: PathBuf,
    npy_small: PathBuf,
    st_big: PathBuf,
    st_small: PathBuf,
    big: usize,
}

impl Drop for Files {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn write_safetensors(path: &Path, total: usize) {
    let per = total / 64 / 4;
    let tensors: Vec<(String, Tensor)> = (0..64)
        .map(|i| {
            (
                format!("layer{i:02}.weight"),
                Tensor::from_vec([per as i64], f32_data(per)).unwrap(),
            )
        })
        .collect();
    tftensor::safetensors::save(path, tensors.iter().map(|(n, t)| (n.as_str(), t))).unwrap();
}

fn files() -> Files {
    let dir = std::env::var_os("TFTENSOR_BENCH_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir)
        .join(format!("tftensor-bench-formats-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let big = size(256 * MIB, MIB);
    let small = MIB;
    let f = Files {
        npy_big: dir.join("big.npy"),
        npy_small: dir.join("small.npy"),
        st_big: dir.join("big.safetensors"),
        st_small: dir.join("small.safetensors"),
        dir,
        big,
    };
    for (p, n) in [(&f.npy_big, big), (&f.npy_small, small)] {
        let t = Tensor::from_vec([(n / 4 / 256) as i64, 256], f32_data(n / 4)).unwrap();
        write_npy(p, &t).unwrap();
    }
    write_safetensors(&f.st_big, big);
    write_safetensors(&f.st_small, small);
    f
}

fn bench(c: &mut Criterion) {
    let f = files();
    let label = bytes_label(f.big);
    // Warm the page cache.
    let big_bytes = Bytes::from(std::fs::read(&f.npy_big).unwrap());
    let small_bytes = Bytes::from(std::fs::read(&f.npy_small).unwrap());

    let mut g = c.benchmark_group("npy_read");
    g.throughput(Throughput::Bytes(f.big as u64));
    g.bench_function(format!("read_npy/{label}"), |b| {
        b.iter(|| read_npy(&f.npy_big).unwrap())
    });
    g.bench_function(format!("fs_read/{label}"), |b| {
        b.iter(|| std::fs::read(&f.npy_big).unwrap())
    });
    g.finish();
    common::paired(
        &format!("npy_read/read_npy_vs_fs_read/{label}"),
        || read_npy(&f.npy_big).unwrap(),
        || std::fs::read(&f.npy_big).unwrap(),
    );

    let mut g = c.benchmark_group("npy_zero_copy");
    g.bench_function(format!("read_npy_bytes/{label}"), |b| {
        b.iter(|| read_npy_bytes(black_box(big_bytes.clone())).unwrap())
    });
    g.bench_function("read_npy_bytes_small/1MiB", |b| {
        b.iter(|| read_npy_bytes(black_box(small_bytes.clone())).unwrap())
    });
    // SAFETY (all mmap calls below): the files are not written while mapped.
    g.bench_function(format!("read_npy_mmap/{label}"), |b| {
        // SAFETY: the file is not written while mapped.
        b.iter(|| unsafe { read_npy_mmap(&f.npy_big) }.unwrap())
    });
    g.finish();
    common::paired(
        &format!("npy_zero_copy/read_npy_bytes_{label}_vs_1MiB"),
        || read_npy_bytes(big_bytes.clone()).unwrap(),
        || read_npy_bytes(small_bytes.clone()).unwrap(),
    );
    common::paired(
        &format!("npy_zero_copy/read_npy_mmap_{label}_vs_1MiB"),
        // SAFETY: the files are not written while mapped.
        || unsafe { read_npy_mmap(&f.npy_big) }.unwrap(),
        // SAFETY: as above.
        || unsafe { read_npy_mmap(&f.npy_small) }.unwrap(),
    );

    let st_big = Bytes::from(std::fs::read(&f.st_big).unwrap());
    let st_small = Bytes::from(std::fs::read(&f.st_small).unwrap());
    let crate_deserialize = |b: &Bytes| {
        let st = safetensors::SafeTensors::deserialize(b).unwrap();
        st.tensors().len()
    };
    let mut g = c.benchmark_group("safetensors");
    g.bench_function(format!("load_bytes/{label}"), |b| {
        b.iter(|| tftensor::safetensors::load_bytes(black_box(st_big.clone())).unwrap())
    });
    g.bench_function(format!("crate_deserialize/{label}"), |b| {
        b.iter(|| crate_deserialize(black_box(&st_big)))
    });
    g.throughput(Throughput::Bytes(f.big as u64));
    g.bench_function(format!("load/{label}"), |b| {
        b.iter(|| tftensor::safetensors::load(&f.st_big).unwrap())
    });
    g.finish();
    common::paired(
        &format!("safetensors/load_bytes_vs_crate_deserialize/{label}"),
        || tftensor::safetensors::load_bytes(st_big.clone()).unwrap(),
        || crate_deserialize(&st_big),
    );
    common::paired(
        &format!("safetensors/load_bytes_{label}_vs_1MiB"),
        || tftensor::safetensors::load_bytes(st_big.clone()).unwrap(),
        || tftensor::safetensors::load_bytes(st_small.clone()).unwrap(),
    );
    common::paired(
        &format!("safetensors/load_mmap_vs_crate_deserialize_of_mmap/{label}"),
        // SAFETY: the file is not written while mapped.
        || unsafe { tftensor::safetensors::load_mmap(&f.st_big) }.unwrap(),
        || {
            let file = std::fs::File::open(&f.st_big).unwrap();
            // SAFETY: as above.
            let map = unsafe { memmap2::Mmap::map(&file) }.unwrap();
            crate_deserialize(&Bytes::from_owner(map))
        },
    );
    common::paired(
        &format!("safetensors/load_vs_fs_read/{label}"),
        || tftensor::safetensors::load(&f.st_big).unwrap(),
        || std::fs::read(&f.st_big).unwrap(),
    );
    if std::env::var_os("TFTENSOR_BENCH_KEEP").is_some() {
        println!("files kept in {}", f.dir.display());
        std::mem::forget(f);
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = bench
}
criterion_main!(benches);
