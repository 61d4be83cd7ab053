//! Arrow (`tftensor::arrow`):
//!
//! * `arrow/decode`: schema-less decoding of a batch of 4096 serialized
//!   `tf.train.Example`s into a `RecordBatch`, in examples/s, for two record
//!   shapes: `criteo` (13 int64 features `I1..I13` of one value, 26 bytes
//!   features `C1..C26` of one 8-byte hex value) and `float180` (one
//!   feature `x` of 180 floats). The peer, tfx-bsl 1.21's
//!   `ExamplesToRecordBatchDecoder.DecodeBatch` on the same records, is
//!   `benches/peers/tfx_bsl_decode.py` (this bench writes the records to
//!   `target/arrow-bench/<shape>.tfrecord` for it).
//! * `arrow/tensor`: `tensor_to_arrow` then `arrow_to_tensor` of a float
//!   tensor of 1 KiB and of 256 MiB (8 MiB under `cargo test`): both sides
//!   share the buffer, so the time does not grow with the size.

mod common;

use std::hint::black_box;
use std::path::PathBuf;

use common::{KIB, MIB, Mode, mode};
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use tftensor::Tensor;
use tftensor::arrow::{arrow_to_tensor, decode_examples, tensor_to_arrow};
use tftensor::pb::{BytesList, Example, Feature, Features, FloatList, Int64List, feature::Kind};
use tftensor::prost::Message;
use tftensor::tfrecord::{Compression, RecordWriter};

const BATCH: usize = 4096;

/// Builds serialized record `i` of one shape.
type MakeRecord = fn(u64) -> Vec<u8>;

fn feature(kind: Kind) -> Feature {
    Feature { kind: Some(kind) }
}

/// Record `i` of the Criteo-like shape (deterministic values).
fn criteo(i: u64) -> Vec<u8> {
    let mut f = Features::default();
    for j in 1..=13u64 {
        let v = (i * 2_654_435_761 + j * 40_503) % 10_007;
        f.feature.insert(
            format!("I{j}"),
            feature(Kind::Int64List(Int64List {
                value: vec![v as i64],
            })),
        );
    }
    for j in 1..=26u64 {
        let v = format!(
            "{:08x}",
            (i * 2_246_822_519 + j * 3_266_489_917) & 0xffff_ffff
        );
        f.feature.insert(
            format!("C{j}"),
            feature(Kind::BytesList(BytesList {
                value: vec![v.into_bytes().into()],
            })),
        );
    }
    Example { features: Some(f) }.encode_to_vec()
}

/// Record `i` of the 180-float shape.
fn float180(i: u64) -> Vec<u8> {
    let mut f = Features::default();
    let value = (0..180)
        .map(|j| ((i * 180 + j) % 1000) as f32 * 0.001)
        .collect();
    f.feature
        .insert("x".into(), feature(Kind::FloatList(FloatList { value })));
    Example { features: Some(f) }.encode_to_vec()
}

/// Writes the records for the tfx-bsl peer.
fn save(name: &str, records: &[Vec<u8>]) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target/arrow-bench");
    std::fs::create_dir_all(&dir).unwrap();
    let mut w =
        RecordWriter::create(dir.join(format!("{name}.tfrecord")), Compression::None).unwrap();
    for r in records {
        w.write_record(r).unwrap();
    }
    w.finish().unwrap();
}

fn decode(c: &mut Criterion) {
    let mut g = c.benchmark_group("arrow/decode");
    let shapes: [(&str, MakeRecord); 2] = [("criteo", criteo), ("float180", float180)];
    for (name, make) in shapes {
        let records: Vec<Vec<u8>> = (0..BATCH as u64).map(make).collect();
        if mode() != Mode::Test {
            save(name, &records);
        }
        g.throughput(Throughput::Elements(BATCH as u64));
        g.bench_function(BenchmarkId::new("schema_less", name), |b| {
            b.iter(|| black_box(decode_examples(black_box(&records)).unwrap()))
        });
    }
    g.finish();
}

fn tensor(c: &mut Criterion) {
    let mut g = c.benchmark_group("arrow/tensor");
    let big = if mode() == Mode::Test {
        8 * MIB
    } else {
        256 * MIB
    };
    for bytes in [KIB, big] {
        let n = bytes / 4;
        let t = Tensor::from_vec([n / 64, 64], vec![1.0f32; n]).unwrap();
        g.bench_function(
            BenchmarkId::new("to_arrow_and_back", common::bytes_label(bytes)),
            |b| {
                b.iter(|| {
                    let (field, array) = tensor_to_arrow(black_box(&t), "t").unwrap();
                    black_box(arrow_to_tensor(&field, array.as_ref()).unwrap())
                })
            },
        );
    }
    g.finish();
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = decode, tensor
}
criterion_main!(benches);
