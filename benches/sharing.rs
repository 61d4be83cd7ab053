//! Suite 2: buffer sharing is O(1). `clone`, `slice`, `sub_slice` and
//! `bitcast_from` on a 1 KiB and a 256 MiB tensor (the large one should
//! cost what the small one does), and the first copy-on-write of a shared
//! 64 MiB tensor against copying 64 MiB by hand.
//!
//! Ids: `sharing_<op>/tensor/<size>`, `sharing_cow/<path>/64MiB`.

mod common;

use std::hint::black_box;

use common::{KIB, MIB, bytes_label};
use criterion::{BatchSize, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tftensor::{DataType, Tensor, TensorShape};

/// A `[rows, cols]` f32 tensor of `bytes` bytes (at least 16 rows).
fn square_ish(bytes: usize) -> Tensor {
    let n = bytes / 4;
    let cols = (n / 16).clamp(1, 256);
    let rows = n / cols;
    Tensor::from_vec([rows as i64, cols as i64], common::f32_data(n)).unwrap()
}

fn share(c: &mut Criterion) {
    let sizes = [KIB, common::size(256 * MIB, MIB)];
    let tensors: Vec<(String, Tensor)> = sizes
        .iter()
        .map(|&b| (bytes_label(b), square_ish(b)))
        .collect();

    let mut g = c.benchmark_group("sharing_clone");
    for (label, t) in &tensors {
        g.bench_function(BenchmarkId::new("tensor", label), |b| {
            b.iter(|| black_box(t).clone())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("sharing_slice");
    for (label, t) in &tensors {
        let rows = t.dim_size(0).unwrap();
        g.bench_function(BenchmarkId::new("tensor", label), |b| {
            b.iter(|| black_box(t).slice(1, rows / 2).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("sharing_sub_slice");
    for (label, t) in &tensors {
        g.bench_function(BenchmarkId::new("tensor", label), |b| {
            b.iter(|| black_box(t).sub_slice(1).unwrap())
        });
    }
    g.finish();

    let mut g = c.benchmark_group("sharing_bitcast_from");
    for (label, t) in &tensors {
        let shape: TensorShape = t.shape().clone();
        g.bench_function(BenchmarkId::new("tensor", label), |b| {
            b.iter(|| {
                let mut out = Tensor::default();
                out.bitcast_from(black_box(t), DataType::UInt32, &shape)
                    .unwrap();
                out
            })
        });
    }
    g.finish();

    // Interleaved A/B: the large tensor's op against the small one's.
    if let [(small_label, small), (big_label, big)] = &tensors[..] {
        let pair = |op: &str| format!("sharing_{op}/{big_label}_vs_{small_label}");
        common::paired(&pair("clone"), || big.clone(), || small.clone());
        let (rb, rs) = (big.dim_size(0).unwrap(), small.dim_size(0).unwrap());
        common::paired(
            &pair("slice"),
            || big.slice(1, rb / 2).unwrap(),
            || small.slice(1, rs / 2).unwrap(),
        );
        common::paired(
            &pair("sub_slice"),
            || big.sub_slice(1).unwrap(),
            || small.sub_slice(1).unwrap(),
        );
        let (sb, ss) = (big.shape().clone(), small.shape().clone());
        let bitcast = |t: &Tensor, s: &TensorShape| {
            let mut out = Tensor::default();
            out.bitcast_from(t, DataType::UInt32, s).unwrap();
            out
        };
        common::paired(
            &pair("bitcast_from"),
            || bitcast(big, &sb),
            || bitcast(small, &ss),
        );
    }
}

/// The first write to a shared tensor copies its region. Baselines: a
/// memcpy into an already-touched buffer, and `to_vec` (allocate + copy,
/// which pays the same fresh-page faults the tensor's copy does).
fn cow(c: &mut Criterion) {
    let bytes = common::size(64 * MIB, MIB);
    let label = bytes_label(bytes);
    let shared = square_ish(bytes);
    let src = common::byte_data(bytes);
    let mut dst = vec![0u8; bytes];

    let mut g = c.benchmark_group("sharing_cow");
    g.throughput(Throughput::Bytes(bytes as u64));
    g.bench_function(BenchmarkId::new("tensor_first_write", &label), |b| {
        b.iter_batched(
            || shared.clone(),
            |mut t| {
                t.as_mut_slice::<f32>().unwrap()[0] = 1.0;
                t // dropped outside the timed region
            },
            BatchSize::PerIteration,
        )
    });
    g.bench_function(BenchmarkId::new("memcpy", &label), |b| {
        b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&src[..])))
    });
    g.bench_function(BenchmarkId::new("alloc_memcpy", &label), |b| {
        b.iter_batched(
            || (),
            |()| black_box(&src[..]).to_vec(),
            BatchSize::PerIteration,
        )
    });
    g.finish();
    common::paired_vs_memcpy(
        "sharing_cow",
        "tensor_first_write",
        &label,
        || {
            let mut t = shared.clone();
            t.as_mut_slice::<f32>().unwrap()[0] = 1.0;
            t
        },
        &src,
    );
    drop(shared);
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = share, cow
}
criterion_main!(benches);
