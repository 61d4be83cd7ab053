//! Suite 3: the TensorProto codec on 64 MiB and 1 MiB f32 tensors, each
//! beside a memcpy of the same bytes in the same run.
//!
//! Baselines: `memcpy` copies into an already-touched buffer (the cost of
//! moving the bytes); `alloc_memcpy` is `to_vec` (a fresh allocation plus
//! the copy, which also pays the kernel's first-touch page faults, as any
//! codec that returns a new buffer does).
//!
//! Ids: `proto_<measurement>/<path>/<size>`; see benches/report.py.

mod common;

use std::hint::black_box;

use bytes::Bytes;
use common::{MIB, bytes_label};
use criterion::{
    BatchSize, BenchmarkGroup, BenchmarkId, Criterion, Throughput, criterion_group, criterion_main,
};
use prost::Message;
use tftensor::{Tensor, pb};

fn sizes() -> Vec<usize> {
    vec![common::size(64 * MIB, 4 * MIB), MIB]
}

/// The `[n / 256, 256]` f32 tensor the TF peer script also uses.
fn tensor(bytes: usize) -> Tensor {
    let n = bytes / 4;
    Tensor::from_vec([(n / 256) as i64, 256], common::f32_data(n)).unwrap()
}

/// `wire` placed in memory so its `tensor_content` starts at an address
/// with the given residue mod 64 (0: aligned as TF aligns; 1: misaligned
/// even for f32).
fn placed(wire: &[u8], content_offset: usize, residue: usize) -> Bytes {
    let mut v = vec![0u8; wire.len() + 128];
    let base = v.as_ptr() as usize;
    let pad = (64 + residue - (base + content_offset) % 64) % 64;
    v[pad..pad + wire.len()].copy_from_slice(wire);
    let b = Bytes::from(v);
    b.slice(pad..pad + wire.len())
}

/// Where `tensor_content` starts inside an encoded content proto: it is
/// the last field TF (and prost) write, so it ends the message.
fn content_offset(wire: &[u8], content: &[u8]) -> usize {
    wire.len() - content.len()
}

fn memcpy_baselines(
    g: &mut BenchmarkGroup<'_, criterion::measurement::WallTime>,
    label: &str,
    src: &[u8],
) {
    let mut dst = vec![0u8; src.len()];
    g.bench_function(BenchmarkId::new("memcpy", label), |b| {
        b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(src)))
    });
    g.bench_function(BenchmarkId::new("alloc_memcpy", label), |b| {
        b.iter_batched(|| (), |()| black_box(src).to_vec(), BatchSize::PerIteration)
    });
}

/// `as_proto_tensor_content` + encode: to a fresh `Vec` (`encode_to_vec`),
/// and into a reused buffer (a sender that recycles its buffer).
fn encode_content(c: &mut Criterion) {
    let mut g = c.benchmark_group("proto_encode_content");
    for bytes in sizes() {
        let label = bytes_label(bytes);
        let t = tensor(bytes);
        g.throughput(Throughput::Bytes(bytes as u64));
        g.bench_function(BenchmarkId::new("tensor", &label), |b| {
            b.iter_batched(
                || (),
                |()| {
                    black_box(&t)
                        .as_proto_tensor_content()
                        .unwrap()
                        .encode_to_vec()
                },
                BatchSize::PerIteration,
            )
        });
        let mut buf = Vec::with_capacity(bytes + 64);
        g.bench_function(BenchmarkId::new("tensor_reuse_buf", &label), |b| {
            b.iter(|| {
                buf.clear();
                black_box(&t)
                    .as_proto_tensor_content()
                    .unwrap()
                    .encode(&mut buf)
                    .unwrap();
            })
        });
        memcpy_baselines(&mut g, &label, t.tensor_data().unwrap());
        let src = t.tensor_data().unwrap();
        common::paired_vs_memcpy(
            "proto_encode_content",
            "tensor",
            &label,
            || t.as_proto_tensor_content().unwrap().encode_to_vec(),
            src,
        );
        common::paired_vs_memcpy(
            "proto_encode_content",
            "tensor_reuse_buf",
            &label,
            || {
                buf.clear();
                t.as_proto_tensor_content()
                    .unwrap()
                    .encode(&mut buf)
                    .unwrap();
            },
            src,
        );
    }
    g.finish();
}

/// `Tensor::decode(Bytes)` of a content proto: aligned content is adopted
/// (O(1)); misaligned content is copied once.
fn decode_content(c: &mut Criterion) {
    let mut aligned_g = c.benchmark_group("proto_decode_aligned");
    let mut cases = Vec::new();
    for bytes in sizes() {
        let label = bytes_label(bytes);
        let t = tensor(bytes);
        let wire = t.as_proto_tensor_content().unwrap().encode_to_vec();
        let off = content_offset(&wire, t.tensor_data().unwrap());
        let aligned = placed(&wire, off, 0);
        let unaligned = placed(&wire, off, 1);
        // The two branches really are taken.
        let a = Tensor::decode(aligned.clone()).unwrap();
        assert_eq!(
            a.data_ptr(),
            Some(aligned[off..].as_ptr()),
            "aligned decode must not copy"
        );
        let u = Tensor::decode(unaligned.clone()).unwrap();
        assert_ne!(
            u.data_ptr(),
            Some(unaligned[off..].as_ptr()),
            "misaligned decode must copy"
        );
        assert!(a == t && u == t);

        aligned_g.throughput(Throughput::Bytes(bytes as u64));
        aligned_g.bench_function(BenchmarkId::new("tensor", &label), |b| {
            b.iter(|| Tensor::decode(black_box(&aligned).clone()).unwrap())
        });
        let src = t.tensor_data().unwrap().to_vec();
        let mut dst = vec![0u8; bytes];
        aligned_g.bench_function(BenchmarkId::new("memcpy", &label), |b| {
            b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&src[..])))
        });
        cases.push((label, t, unaligned, aligned));
    }
    aligned_g.finish();
    if let [(big_label, _, _, big), (small_label, _, _, small)] = &cases[..] {
        common::paired(
            &format!("proto_decode_aligned/{big_label}_vs_{small_label}"),
            || Tensor::decode(big.clone()).unwrap(),
            || Tensor::decode(small.clone()).unwrap(),
        );
    }

    let mut g = c.benchmark_group("proto_decode_unaligned");
    for (label, t, unaligned, _) in &cases {
        g.throughput(Throughput::Bytes(t.total_bytes() as u64));
        g.bench_function(BenchmarkId::new("tensor", label), |b| {
            b.iter_batched(
                || (),
                |()| Tensor::decode(black_box(unaligned).clone()).unwrap(),
                BatchSize::PerIteration,
            )
        });
        memcpy_baselines(&mut g, label, t.tensor_data().unwrap());
        common::paired_vs_memcpy(
            "proto_decode_unaligned",
            "tensor",
            label,
            || Tensor::decode(unaligned.clone()).unwrap(),
            t.tensor_data().unwrap(),
        );
    }
    g.finish();
}

/// The typed field (packed `float_val`): `as_proto_field` + encode, and
/// decode + `from_proto`: through prost's generated code (`prost`), and
/// through `Tensor::decode` with the payload placed aligned and misaligned
/// for f32 (`tensor_*`; the packed-float fast path of src/proto/wire.rs
/// adopts or copies it as it does content).
fn field(c: &mut Criterion) {
    let mut enc = c.benchmark_group("proto_field_encode");
    let mut cases = Vec::new();
    for bytes in sizes() {
        let label = bytes_label(bytes);
        let t = tensor(bytes);
        enc.throughput(Throughput::Bytes(bytes as u64));
        enc.bench_function(BenchmarkId::new("tensor", &label), |b| {
            b.iter_batched(
                || (),
                |()| black_box(&t).as_proto_field().unwrap().encode_to_vec(),
                BatchSize::PerIteration,
            )
        });
        let wire = t.as_proto_field().unwrap().encode_to_vec();
        // float_val is packed and, like tensor_content, ends the message.
        let off = wire.len() - bytes;
        let aligned = placed(&wire, off, 0);
        let unaligned = placed(&wire, off, 1);
        assert!(
            Tensor::decode(aligned.clone()).unwrap() == t
                && Tensor::decode(unaligned.clone()).unwrap() == t
        );
        cases.push((label, t, aligned, unaligned));
    }
    enc.finish();

    let mut dec = c.benchmark_group("proto_field_decode");
    for (label, t, aligned, unaligned) in &cases {
        dec.throughput(Throughput::Bytes(t.total_bytes() as u64));
        dec.bench_function(BenchmarkId::new("prost", label), |b| {
            b.iter_batched(
                || (),
                |()| {
                    Tensor::from_proto(
                        &pb::TensorProto::decode(black_box(unaligned).clone()).unwrap(),
                    )
                    .unwrap()
                },
                BatchSize::PerIteration,
            )
        });
        for (path, wire) in [("tensor_aligned", aligned), ("tensor_unaligned", unaligned)] {
            dec.bench_function(BenchmarkId::new(path, label), |b| {
                b.iter_batched(
                    || (),
                    |()| Tensor::decode(black_box(wire).clone()).unwrap(),
                    BatchSize::PerIteration,
                )
            });
        }
    }
    dec.finish();
}

/// `[n / 256, 256]` tensors of `T` from the f32 data.
fn typed_tensor<T: tftensor::Element>(bytes: usize, from: impl Fn(f32) -> T) -> Tensor {
    let n = bytes / size_of::<T>();
    let v: Vec<T> = common::f32_data(n).into_iter().map(from).collect();
    Tensor::from_vec([(n / 256) as i64, 256], v).unwrap()
}

/// The one-pass field encoder (`encode_proto_field`) against the prost
/// path it replaces (`as_proto_field` + `encode_to_vec`) and against
/// memcpy, interleaved A/B in one run; and int32 `int_val` decode. Ids:
/// `proto_field_direct/<dtype>_<path>_vs_<baseline>/<size>`.
fn field_direct(_: &mut Criterion) {
    use num_complex::Complex;
    for bytes in sizes() {
        let label = bytes_label(bytes);
        let cases = [
            ("f32", typed_tensor(bytes, |v| v)),
            ("f64", typed_tensor(bytes, f64::from)),
            ("c64", typed_tensor(bytes, |v| Complex::new(v, -v))),
        ];
        for (name, t) in &cases {
            assert_eq!(
                t.encode_proto_field().unwrap(),
                t.as_proto_field().unwrap().encode_to_vec()
            );
            let src = t.tensor_data().unwrap();
            common::paired_vs_memcpy(
                "proto_field_direct",
                &format!("{name}_direct"),
                &label,
                || t.encode_proto_field().unwrap(),
                src,
            );
            common::paired_vs_memcpy(
                "proto_field_direct",
                &format!("{name}_prost"),
                &label,
                || t.as_proto_field().unwrap().encode_to_vec(),
                src,
            );
            let mut buf = Vec::with_capacity(bytes + 64);
            common::paired_vs_memcpy(
                "proto_field_direct",
                &format!("{name}_direct_reuse_buf"),
                &label,
                || {
                    buf.clear();
                    t.encode_proto_field_to(&mut buf).unwrap();
                },
                src,
            );
        }
        // int32: varints, as TF's AsProtoField writes int_val.
        let n = bytes / 4;
        let t = Tensor::from_vec([(n / 256) as i64, 256], common::i32_data(n)).unwrap();
        let wire = t.encode_proto_field().unwrap();
        assert_eq!(wire, t.as_proto_field().unwrap().encode_to_vec());
        common::paired(
            &format!("proto_field_direct/i32_direct_vs_prost/{label}"),
            || t.encode_proto_field().unwrap(),
            || t.as_proto_field().unwrap().encode_to_vec(),
        );
        common::paired_vs_memcpy(
            "proto_field_direct",
            "i32_direct",
            &label,
            || t.encode_proto_field().unwrap(),
            t.tensor_data().unwrap(),
        );
        let wire = Bytes::from(wire);
        assert!(Tensor::decode(wire.clone()).unwrap() == t);
        common::paired_vs_memcpy(
            "proto_field_direct",
            "i32_decode",
            &label,
            || Tensor::decode(wire.clone()).unwrap(),
            t.tensor_data().unwrap(),
        );
    }
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = encode_content, decode_content, field, field_direct
}
criterion_main!(benches);
