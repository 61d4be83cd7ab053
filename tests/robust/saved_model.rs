//! Bad SavedModel and frozen GraphDef bytes: `saved_model.pb` and `.pb`
//! fixtures truncated and with bytes flipped. Each gives `Ok` or `Err`,
//! never a panic, and allocates within a budget of the input's size; when
//! a mutation still decodes (a protobuf cut at a field boundary is a valid,
//! smaller message), rendering and reading every constant must not panic
//! either.
#![cfg(feature = "saved_model")]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::common::allocated_by;

use bytes::Bytes;
use tftensor::saved_model::{GraphConstants, SavedModel};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/saved_model")
}

/// Decoded protos are larger than their wire bytes (a 2-byte empty
/// `NodeDef` becomes a struct of some hundred bytes), hence the factor.
fn budget(len: usize) -> usize {
    256 * len + (4 << 20)
}

/// Exercises everything over one input; returns whether it decoded.
fn exercise_saved_model(bytes: &[u8]) -> bool {
    let Ok(sm) = SavedModel::from_bytes(Bytes::copy_from_slice(bytes)) else {
        return false;
    };
    let _ = sm.show_all();
    let _ = sm.show_tag_sets();
    for mg in sm.meta_graphs() {
        let tag_set = mg.tags().join(",");
        let _ = sm.show_signature_keys(&tag_set);
        for key in mg.signatures().keys() {
            let _ = sm.show_signature(&tag_set, key);
        }
        if let Ok(c) = mg.constants() {
            read_small(&c);
        }
    }
    true
}

fn read_small(c: &GraphConstants) {
    for e in c.entries() {
        // A flipped dim can declare a large tensor that TF's FromProto
        // fills from one value; those stay within FromProtoOptions' limit
        // but outside this test's allocation budget, so only small ones.
        if e.shape.num_elements() <= 1 << 16 {
            let _ = c.read(&e.name);
        }
    }
}

fn exercise_graph(bytes: &[u8]) -> bool {
    match GraphConstants::from_bytes(Bytes::copy_from_slice(bytes)) {
        Ok(c) => {
            read_small(&c);
            true
        }
        Err(_) => false,
    }
}

fn robust(what: &str, input: &[u8], f: fn(&[u8]) -> bool) -> bool {
    let (ok, bytes) = catch_unwind(AssertUnwindSafe(|| allocated_by(|| f(input))))
        .unwrap_or_else(|_| panic!("{what}: panicked"));
    assert!(
        bytes <= budget(input.len()),
        "{what}: allocated {bytes} bytes for {} bytes of input",
        input.len()
    );
    ok
}

/// Offsets to cut at: every one near both ends, a stride in between.
/// Every cut in the first and last 600 bytes and every 61st between; a
/// plain `cargo test` takes every 24th of those (`TFTENSOR_FULL_SWEEPS=1`
/// takes them all).
fn cuts(len: usize) -> impl Iterator<Item = usize> {
    let sample = crate::common::sweep_stride(1, 24);
    (0..len)
        .filter(move |&i| i < 600 || i + 600 > len || i % 61 == 0)
        .step_by(sample)
}

fn sweep(what: &str, file: &Path, f: fn(&[u8]) -> bool) {
    let bytes = std::fs::read(file).unwrap();
    assert!(
        robust(what, &bytes, f),
        "{what}: the fixture itself decodes"
    );
    let mut errors = 0;
    for cut in cuts(bytes.len()) {
        if !robust(what, &bytes[..cut], f) {
            errors += 1;
        }
    }
    // Most cuts land inside a field, which protobuf rejects.
    assert!(
        errors > cuts(bytes.len()).count() / 2,
        "{what}: {errors} errors"
    );
    let mut state = 0x2545_f491_4f6c_dd1du64;
    // 800 flips (33 in a plain `cargo test`).
    for _ in 0..800 / crate::common::sweep_stride(1, 24) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut m = bytes.clone();
        let i = (state % m.len() as u64) as usize;
        m[i] ^= 1 << ((state >> 32) % 8);
        robust(what, &m, f);
    }
}

#[test]
fn saved_model_pb_truncated_and_flipped() {
    for model in ["module", "keras_export", "tf1_builder"] {
        sweep(
            model,
            &root().join(model).join("saved_model.pb"),
            exercise_saved_model,
        );
    }
}

#[test]
fn frozen_graph_truncated_and_flipped() {
    for name in ["frozen_tf1.pb", "frozen_v2.pb"] {
        sweep(name, &root().join(name), exercise_graph);
    }
}

/// `SavedModel::open` walks the file's framing instead of decoding it
/// whole: over cut and flipped files it agrees with `from_bytes` (both
/// `Ok` with the same text, or both `Err`), and never panics.
#[test]
fn open_from_file_agrees_with_from_bytes() {
    let bytes = std::fs::read(root().join("module/saved_model.pb")).unwrap();
    let dir = tempfile::Builder::new()
        .prefix("tftensor-robust-sm-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("saved_model.pb");
    let check = |input: &[u8]| {
        std::fs::write(&file, input).unwrap();
        let a = catch_unwind(|| SavedModel::open(&dir)).unwrap_or_else(|_| panic!("open panicked"));
        let b = SavedModel::from_bytes(Bytes::copy_from_slice(input));
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.show_all().ok(), b.show_all().ok());
                assert_eq!(a.show_tag_sets(), b.show_tag_sets());
            }
            (Err(_), Err(_)) => {}
            (a, b) => panic!("open {:?} vs from_bytes {:?}", a.err(), b.err()),
        }
    };
    // Every 37th cut and 300 flips; a plain `cargo test` takes every 4th
    // cut and 75 flips (`TFTENSOR_FULL_SWEEPS=1` takes them all).
    let sample = crate::common::sweep_stride(1, 4);
    let cuts = (0..bytes.len()).filter(|i| i % 37 == 0 || *i < 64);
    for cut in cuts.step_by(sample) {
        check(&bytes[..cut]);
    }
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..300 / sample {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut m = bytes.clone();
        let i = (state % m.len() as u64) as usize;
        m[i] ^= 1 << ((state >> 32) % 8);
        check(&m);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
