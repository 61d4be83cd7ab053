//! Robust decoding: hostile and malformed `TensorProto` bytes give `Ok` or
//! `Err`, never a panic, and never allocate more than the configured
//! `max_bytes` plus an amount linear in the input's length.
//!
//! The inputs are the unique protos of the TF 2.21 conformance vectors, each
//! mutated many ways (bit flips, byte stores, truncations, splices with
//! other vectors, inserted huge or overlong varints, duplicated chunks),
//! plus structural attacks built from the decoded protos: huge and invalid
//! declared shapes, every dtype number over every payload, garbage
//! `tensor_content`, and deeply nested `VariantTensorDataProto`s.
//!
//! Allocation is measured with the tracking allocator installed as this
//! binary's global allocator: `TrackingAllocator::thread_allocated_bytes()`
//! before and after each call counts every byte the call allocated on this
//! thread (a sum over all allocations, so an upper bound on its peak).
//!
//! `TFTENSOR_UNDER_VALGRIND=1` (set by scripts/valgrind.sh) runs fewer
//! mutations per vector.

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::common;
use common::shape;

use bytes::Bytes;
use prost::Message;
use tftensor::pb::{self, TensorProto};
use tftensor::{
    DataType, Error, FromProtoOptions, MAX_DIMENSIONS, Tensor, TrackingAllocator, ndarray::Ix3,
};

/// The `max_bytes` these tests configure.
const CAP: u64 = 1 << 20;

/// Allowed allocation per input byte on top of `CAP`. Parsing turns each
/// sub-message into a Rust struct: an empty `resource_handle_val` entry (2
/// input bytes) becomes a 128-byte `ResourceHandleProto` in a `Vec` that
/// grows by doubling, and the allocator counts every reallocation, so up to
/// ~256 bytes are allocated per input byte in total (~128 live at once).
/// The measured maximum is printed by the tests (~209 for 20,000 empty
/// handles).
const PER_INPUT_BYTE: usize = 320;

/// Allowed fixed overhead per call (error messages, small vectors).
const SLACK: usize = 64 << 10;

fn opts() -> FromProtoOptions {
    FromProtoOptions::default().with_max_bytes(CAP)
}

fn under_valgrind() -> bool {
    std::env::var_os("TFTENSOR_UNDER_VALGRIND").is_some()
}

/// SplitMix64: a tiny deterministic generator, so every run (and every
/// failure) is reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// The unique protos of the conformance vectors.
fn seeds() -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/tf-2.21-vectors.jsonl"
    ))
    .unwrap();
    let mut out: Vec<Vec<u8>> = text
        .lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).unwrap();
            hex::decode(v["proto"].as_str().unwrap()).unwrap()
        })
        .collect();
    out.sort();
    out.dedup();
    assert!(out.len() > 800, "{} seeds", out.len());
    out
}

/// A varint of `v` (protobuf's base-128 encoding).
fn varint(mut v: u64) -> Vec<u8> {
    let mut out = Vec::new();
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
    out
}

/// Varints an attacker would write: the largest values, lengths just past
/// any buffer, and overlong encodings (11+ bytes, or padded zeros).
fn hostile_varint(rng: &mut Rng) -> Vec<u8> {
    match rng.below(6) {
        0 => varint(u64::MAX),
        1 => varint(i64::MAX as u64),
        2 => varint(u32::MAX as u64),
        3 => varint(1 << 31),
        4 => vec![0xff; 11],
        _ => vec![0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00],
    }
}

/// One random mutation of `seed`.
fn mutate(seed: &[u8], all: &[Vec<u8>], rng: &mut Rng) -> Vec<u8> {
    let mut b = seed.to_vec();
    let len = b.len();
    match rng.below(8) {
        // Flip one to four bits.
        0 => {
            for _ in 0..=rng.below(4) {
                if len > 0 {
                    let i = rng.below(len);
                    b[i] ^= 1 << rng.below(8);
                }
            }
        }
        // Store an extreme byte.
        1 => {
            if len > 0 {
                let i = rng.below(len);
                b[i] = [0x00, 0xff, 0x80, 0x7f, 0x01][rng.below(5)];
            }
        }
        // Truncate.
        2 => b.truncate(rng.below(len + 1)),
        // Splice: this prefix, another vector's suffix.
        3 => {
            let other = &all[rng.below(all.len())];
            b.truncate(rng.below(len + 1));
            b.extend_from_slice(&other[rng.below(other.len() + 1)..]);
        }
        // Insert a hostile varint.
        4 => {
            let at = rng.below(len + 1);
            let v = hostile_varint(rng);
            b.splice(at..at, v);
        }
        // Replace the byte after a field key with a hostile varint: turns
        // a length or a value into a huge one.
        5 => {
            if len > 1 {
                let at = 1 + rng.below(len - 1);
                let v = hostile_varint(rng);
                b.splice(at..at + 1, v);
            }
        }
        // Duplicate a chunk several times (repeated fields, repeated dims).
        6 => {
            if len > 0 {
                let i = rng.below(len);
                let j = i + rng.below(len - i) + 1;
                let chunk = b[i..j].to_vec();
                for _ in 0..=rng.below(8) {
                    b.splice(j..j, chunk.iter().copied());
                }
            }
        }
        // Append garbage.
        _ => {
            for _ in 0..=rng.below(16) {
                b.push(rng.next() as u8);
            }
        }
    }
    b
}

/// Declared shapes that ask for far more than the input carries, or are
/// invalid.
fn hostile_shapes() -> Vec<Vec<i64>> {
    vec![
        vec![1 << 40],
        vec![i64::MAX],
        vec![1 << 31, 1 << 31],
        vec![1 << 62, 4],
        vec![0, 1 << 62, 1 << 62],
        vec![1 << 62, 1 << 62, 0],
        vec![-1],
        vec![i64::MIN],
        vec![3, -2],
        vec![1; MAX_DIMENSIONS],
        vec![1; MAX_DIMENSIONS + 1],
        vec![2; 64],
        // Past the budget for every dtype (elements are at least a byte).
        vec![CAP as i64 + 1],
    ]
}

/// Shapes within the budget for small dtypes but large to fill and
/// re-encode in a debug build; used on a sample of the seeds.
fn large_shapes() -> Vec<Vec<i64>> {
    vec![vec![(CAP as i64) / 4 + 1], vec![(CAP as i64) / 32 + 1]]
}

/// Structural attacks derived from one decoded seed: its values under
/// hostile shapes and under every dtype number, and garbage content.
fn structural(seed: &TensorProto, rng: &mut Rng) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut shapes = hostile_shapes();
    if rng.below(32) == 0 {
        shapes.extend(large_shapes());
    }
    for dims in shapes {
        let mut p = seed.clone();
        p.tensor_shape = shape(&dims);
        out.push(p.encode_to_vec());
    }
    // Every dtype number would be 40 per seed; a random handful per seed
    // covers them all across the ~900 seeds.
    let numbers: Vec<i32> = (-1..=32)
        .chain([100, 101, 119, 130, 999, i32::MAX, i32::MIN])
        .collect();
    for _ in 0..6 {
        let mut p = seed.clone();
        p.dtype = numbers[rng.below(numbers.len())];
        out.push(p.encode_to_vec());
    }
    let mut p = seed.clone();
    let n = rng.below(64);
    p.tensor_content = Bytes::from((0..n).map(|_| rng.next() as u8).collect::<Vec<u8>>());
    out.push(p.encode_to_vec());
    out
}

/// A `DT_VARIANT` scalar wrapping a `"tensorflow::Tensor"` variant wrapping
/// ... `depth` levels deep, around a float scalar. Built directly as bytes,
/// outside in, so any depth costs O(depth) time and no recursion.
fn nested_variant_bytes(depth: usize) -> Vec<u8> {
    let innermost = TensorProto {
        dtype: DataType::Float.as_i32(),
        tensor_shape: shape(&[]),
        float_val: vec![1.5],
        ..Default::default()
    }
    .encode_to_vec();
    // Each level: TensorProto { dtype: 21 (1), tensor_shape: {} (2),
    //   variant_val (15): VariantTensorDataProto { type_name (1),
    //   tensors (3): <inner TensorProto> } }.
    let type_name = b"tensorflow::Tensor";
    let mut lens = vec![innermost.len()];
    let mut prefixes: Vec<Vec<u8>> = Vec::with_capacity(depth);
    for _ in 0..depth {
        let inner = *lens.last().unwrap();
        // VariantTensorDataProto body.
        let mut vtd_head = vec![0x0a];
        vtd_head.extend(varint(type_name.len() as u64));
        vtd_head.extend_from_slice(type_name);
        vtd_head.push(0x1a);
        vtd_head.extend(varint(inner as u64));
        let vtd_len = vtd_head.len() + inner;
        // TensorProto body.
        let mut head = vec![0x08, 21, 0x12, 0x00, 0x7a];
        head.extend(varint(vtd_len as u64));
        head.extend(vtd_head);
        lens.push(head.len() + inner);
        prefixes.push(head);
    }
    let mut out = Vec::with_capacity(*lens.last().unwrap());
    for p in prefixes.iter().rev() {
        out.extend_from_slice(p);
    }
    out.extend_from_slice(&innermost);
    out
}

/// Largest (allocated - input) / input seen, for the report.
struct Stats {
    inputs: usize,
    ok: usize,
    max_alloc: usize,
    max_ratio: f64,
}

/// Decodes `input` both ways (bytes, and parsed proto + from_proto),
/// re-encodes what decodes, and records any panic or over-allocation.
fn check(input: &[u8], what: &str, stats: &mut Stats, failures: &mut Vec<String>) {
    stats.inputs += 1;
    let bytes = Bytes::copy_from_slice(input);
    let bound = CAP as usize + PER_INPUT_BYTE * input.len() + SLACK;

    let before = TrackingAllocator::thread_allocated_bytes();
    let r = catch_unwind(AssertUnwindSafe(|| {
        Tensor::decode_with(bytes.clone(), &opts())
    }));
    let used = TrackingAllocator::thread_allocated_bytes() - before;

    let report = |failures: &mut Vec<String>, msg: String| {
        if failures.len() < 20 {
            failures.push(format!("{what}: {msg}\n  input: {}", hex::encode(input)));
        }
    };
    stats.max_alloc = stats.max_alloc.max(used);
    // Small inputs are dominated by fixed costs (error messages).
    if input.len() >= 256 {
        let over_input = used.saturating_sub(bytes.len()) as f64 / input.len() as f64;
        if r.as_ref().is_ok_and(|r| r.is_err()) {
            stats.max_ratio = stats.max_ratio.max(over_input);
        }
    }
    if used > bound {
        report(
            failures,
            format!("decode allocated {used} bytes > bound {bound}"),
        );
    }
    let t = match r {
        Err(_) => return report(failures, "decode panicked".into()),
        Ok(Err(_)) => None,
        Ok(Ok(t)) => Some(t),
    };

    // The same through a parsed proto.
    let via_proto = catch_unwind(AssertUnwindSafe(|| {
        pb::TensorProto::decode(bytes.clone())
            .ok()
            .map(|p| Tensor::from_proto_with(&p, &opts()))
    }));
    match via_proto {
        Err(_) => return report(failures, "from_proto panicked".into()),
        Ok(Some(Ok(u))) => {
            if t.as_ref() != Some(&u) {
                report(failures, "decode and parse+from_proto disagree".into());
            }
        }
        Ok(Some(Err(_))) => {
            if t.is_some() {
                report(
                    failures,
                    "decode succeeded but parse+from_proto failed".into(),
                );
            }
        }
        // prost refused the bytes. `decode` may still accept them: it skips
        // known fields with the wrong wire type, as C++ protobuf (and so
        // TF) does; tests/proto/wire_types.rs checks that against TF.
        Ok(None) => {}
    }

    let Some(t) = t else { return };
    stats.ok += 1;
    // What decodes re-encodes, both ways, and the content form decodes back.
    let again = catch_unwind(AssertUnwindSafe(|| {
        let field = t.as_proto_field().map(|p| p.encode_to_vec());
        let content = t.as_proto_tensor_content().map(|p| p.encode_to_vec());
        let _ = t.summarize_value(10, true);
        let _ = t.summarize_value(-1, false);
        let _ = format!("{t:?}");
        (field, content)
    }));
    match again {
        Err(_) => report(failures, "re-encode panicked".into()),
        Ok((Ok(field), Ok(content))) => {
            for (form, enc) in [("field", field), ("content", content)] {
                match Tensor::decode_with(Bytes::from(enc), &opts()) {
                    Ok(u) => {
                        // Int4/UInt4 bytes with high bits set (TF keeps
                        // int_val's low byte) change in the field form.
                        if form == "content" && u != t {
                            report(failures, "content round trip changed the tensor".into());
                        }
                    }
                    Err(e) => report(failures, format!("re-decode of {form} form failed: {e}")),
                }
            }
        }
        Ok((f, c)) => report(
            failures,
            format!("re-encode failed: {:?} {:?}", f.err(), c.err()),
        ),
    }
}

fn finish(name: &str, stats: &Stats, failures: &[String]) {
    eprintln!(
        "{name}: {} inputs, {} decoded Ok, max allocation per call {} bytes, \
         max (allocated - input) / input on errors for inputs >= 256 bytes {:.1}",
        stats.inputs, stats.ok, stats.max_alloc, stats.max_ratio
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

fn new_stats() -> Stats {
    Stats {
        inputs: 0,
        ok: 0,
        max_alloc: 0,
        max_ratio: 0.0,
    }
}

#[test]
fn conformance_vectors_decode_within_bounds() {
    let all = seeds();
    let (mut stats, mut failures) = (new_stats(), Vec::new());
    for s in &all {
        check(s, "seed", &mut stats, &mut failures);
    }
    finish("seeds", &stats, &failures);
}

#[test]
fn mutated_vectors_never_panic_or_overallocate() {
    let all = seeds();
    // 2 a seed in a plain `cargo test` (16 under TFTENSOR_FULL_SWEEPS=1).
    let per_seed = if under_valgrind() || !crate::common::full_sweeps() {
        2
    } else {
        16
    };
    let mut rng = Rng(0x7f7e_0001);
    let (mut stats, mut failures) = (new_stats(), Vec::new());
    for s in &all {
        for _ in 0..per_seed {
            let m = mutate(s, &all, &mut rng);
            // Stack a second mutation a third of the time.
            let m = if rng.below(3) == 0 {
                mutate(&m, &all, &mut rng)
            } else {
                m
            };
            check(&m, "mutation", &mut stats, &mut failures);
        }
    }
    finish("mutations", &stats, &failures);
}

#[test]
fn every_truncation_of_small_vectors() {
    let all = seeds();
    let step = if under_valgrind() { 17 } else { 1 };
    let (mut stats, mut failures) = (new_stats(), Vec::new());
    for s in all.iter().filter(|s| s.len() <= 64).step_by(step) {
        for cut in 0..s.len() {
            check(&s[..cut], "truncation", &mut stats, &mut failures);
        }
    }
    finish("truncations", &stats, &failures);
}

#[test]
fn structural_attacks_never_panic_or_overallocate() {
    let all = seeds();
    // Every 8th seed in a plain `cargo test` (each under
    // TFTENSOR_FULL_SWEEPS=1).
    let step = if under_valgrind() {
        9
    } else {
        crate::common::sweep_stride(1, 8)
    };
    let mut rng = Rng(0x5eed);
    let (mut stats, mut failures) = (new_stats(), Vec::new());
    for s in all.iter().step_by(step) {
        let Ok(p) = TensorProto::decode(&s[..]) else {
            continue;
        };
        for m in structural(&p, &mut rng) {
            check(&m, "structural", &mut stats, &mut failures);
        }
    }
    finish("structural", &stats, &failures);
}

/// Repeated empty sub-messages are the cheapest way to make the parser
/// allocate: two input bytes each become a whole struct. The cost stays
/// linear in the input, within `PER_INPUT_BYTE`.
#[test]
fn repeated_empty_messages_stay_linear() {
    let (mut stats, mut failures) = (new_stats(), Vec::new());
    let n = if under_valgrind() { 1_000 } else { 20_000 };
    // (dtype, field key of an empty repeated message or bytes entry)
    let cases: [(DataType, u8); 5] = [
        (DataType::Resource, 0x72), // resource_handle_val (14)
        (DataType::Variant, 0x7a),  // variant_val (15)
        (DataType::String, 0x42),   // string_val (8), empty strings
        (DataType::Float, 0x12),    // tensor_shape (2) repeated: merged
        (DataType::Float, 0x2a),    // half_val (13), wire-type mismatch
    ];
    for (dtype, key) in cases {
        for dims in [vec![1i64], vec![n as i64], vec![]] {
            let mut input = TensorProto {
                dtype: dtype.as_i32(),
                tensor_shape: shape(&dims),
                ..Default::default()
            }
            .encode_to_vec();
            for _ in 0..n {
                input.extend_from_slice(&[key, 0x00]);
            }
            check(
                &input,
                &format!("{n} x empty {key:#x} for {dtype}"),
                &mut stats,
                &mut failures,
            );
        }
    }
    // A shape of many empty dims (each becomes a Dim struct), past the rank limit.
    let mut dims = Vec::new();
    for _ in 0..n {
        dims.extend_from_slice(&[0x12, 0x00]);
    }
    let mut input = vec![0x08, 0x01, 0x12];
    input.extend(varint(dims.len() as u64));
    input.extend(dims);
    check(&input, "many empty dims", &mut stats, &mut failures);
    finish("repeated empty messages", &stats, &failures);
}

/// Shapes that declare more than the budget are refused before any
/// allocation, whatever the dtype.
#[test]
fn huge_declared_shapes_are_refused_without_allocating() {
    for &dtype in DataType::all() {
        for dims in [
            vec![1i64 << 40],
            vec![1 << 31, 1 << 31],
            vec![(CAP as i64) + 1],
        ] {
            let proto = TensorProto {
                dtype: dtype.as_i32(),
                tensor_shape: shape(&dims),
                ..Default::default()
            };
            let before = TrackingAllocator::thread_allocated_bytes();
            let r = Tensor::from_proto_with(&proto, &opts());
            let used = TrackingAllocator::thread_allocated_bytes() - before;
            assert!(
                matches!(r, Err(Error::LimitExceeded { .. })),
                "{dtype} {dims:?}: {r:?}"
            );
            assert!(used < 4096, "{dtype} {dims:?}: allocated {used} bytes");
        }
    }
}

/// Variants nested deeper than prost's recursion limit fail to parse;
/// shallower ones decode, and nesting past `max_depth` is refused. No depth
/// overflows the stack.
#[test]
fn deeply_nested_variants() {
    let (mut stats, mut failures) = (new_stats(), Vec::new());
    for depth in [0, 1, 2, 10, 30, 48, 49, 50, 51, 60, 100, 1000, 100_000] {
        let input = nested_variant_bytes(depth);
        check(
            &input,
            &format!("nested depth {depth}"),
            &mut stats,
            &mut failures,
        );
        let r = Tensor::decode_with(Bytes::from(input), &opts());
        if depth <= 48 {
            let mut t = r.unwrap();
            for _ in 0..depth {
                assert_eq!(t.dtype(), DataType::Variant);
                let v = t.scalar::<tftensor::Variant>().unwrap()[()].clone();
                t = v.as_tensor().unwrap().clone();
            }
            assert_eq!(t.scalar::<f32>().unwrap()[()], 1.5);
        } else if depth >= 51 {
            assert!(r.is_err(), "depth {depth}");
        }
    }
    finish("nested", &stats, &failures);

    // max_depth bounds the nesting of a proto built in memory, which prost's
    // parser never saw.
    let mut p = TensorProto::decode(&nested_variant_bytes(0)[..]).unwrap();
    for _ in 0..200 {
        p = TensorProto {
            dtype: DataType::Variant.as_i32(),
            tensor_shape: shape(&[]),
            variant_val: vec![pb::VariantTensorDataProto {
                type_name: "tensorflow::Tensor".into(),
                metadata: Bytes::new(),
                tensors: vec![p],
            }],
            ..Default::default()
        };
    }
    assert!(matches!(
        Tensor::from_proto(&p),
        Err(Error::LimitExceeded { .. })
    ));
    let deep_ok = FromProtoOptions::default().with_max_depth(200);
    assert!(Tensor::from_proto_with(&p, &deep_ok).is_ok());
}

/// Public API entry points with hostile arguments (not protos).
#[test]
fn flat_inner_outer_dims_extreme_begin() {
    let t = Tensor::new(DataType::Float, [2, 3]).unwrap();
    for b in [1, 2, 3, 4, 1000, 1 << 40, i64::MAX] {
        let before = TrackingAllocator::thread_allocated_bytes();
        assert_eq!(
            t.flat_inner_outer_dims::<f32, Ix3>(b).unwrap().shape(),
            &[6, 1, 1],
            "{b}"
        );
        assert!(TrackingAllocator::thread_allocated_bytes() - before < 1024);
    }
    assert_eq!(
        t.flat_inner_outer_dims::<f32, Ix3>(0).unwrap().shape(),
        &[2, 3, 1]
    );
    assert_eq!(
        t.flat_inner_outer_dims::<f32, Ix3>(-1).unwrap().shape(),
        &[1, 2, 3]
    );
    for b in [-3, -1 << 40, i64::MIN] {
        assert!(matches!(
            t.flat_inner_outer_dims::<f32, Ix3>(b),
            Err(Error::InvalidArgument(_))
        ));
    }
}

#[test]
fn wire_errors_never_panic() {
    for bad in [
        &b"\xff\xff\xff\xff"[..],
        b"\x08\x01\x12\x04\x12\x02\x08\x02\x22\x08\x00\x00",
        b"\x0a",
        b"\x22\xff\xff\xff\xff\x0f",
    ] {
        assert!(matches!(
            Tensor::decode(Bytes::from_static(bad)),
            Err(Error::InvalidProto { .. })
        ));
    }
    // Every truncation and single-byte corruption of a valid message is an
    // Ok or an Err, never a panic.
    let t = Tensor::from_vec(
        [2],
        vec![Bytes::from_static(b"ab"), Bytes::from_static(b"")],
    )
    .unwrap();
    let wire = t.as_proto_tensor_content().unwrap().encode_to_vec();
    for cut in 0..wire.len() {
        let _ = Tensor::decode(Bytes::copy_from_slice(&wire[..cut]));
        for flip in [0x01u8, 0x80, 0xff] {
            let mut w = wire.clone();
            w[cut] ^= flip;
            let _ = Tensor::decode(Bytes::from(w));
        }
    }
}
