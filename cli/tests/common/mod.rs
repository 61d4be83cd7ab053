//! Helpers shared by the CLI's tests.
#![allow(dead_code)]

use std::fs;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use prost::Message;
use serde_json::Value;
use tftensor::Tensor;

/// The `tftensor` binary built by this package.
pub fn tftensor() -> Command {
    let mut cmd = Command::new(bin());
    cmd.env_remove("RUST_BACKTRACE");
    cmd
}

/// The path of the `tftensor` binary.
pub fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_tftensor"))
}

/// The crate's TF 2.21 conformance vectors.
pub fn vectors() -> Vec<Value> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/data/tf-2.21-vectors.jsonl"
    );
    fs::read_to_string(path)
        .expect("vectors")
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect()
}

/// What `tf.io.serialize_tensor` gives for `t`.
pub fn serialized(t: &Tensor) -> Vec<u8> {
    let proto = if t.dtype() == tftensor::DataType::String {
        t.as_proto_field()
    } else {
        t.as_proto_tensor_content()
    };
    proto.expect("proto").encode_to_vec()
}

/// Writes `t` as the TensorProto file `dir/name.pb` (creating parents).
pub fn write_pb(dir: &Path, name: &str, t: &Tensor) -> PathBuf {
    let path = dir.join(format!("{name}.pb"));
    fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    fs::write(&path, serialized(t)).expect("write");
    path
}

/// A float32 tensor.
pub fn f32s(shape: &[i64], v: &[f32]) -> Tensor {
    Tensor::from_vec(shape, v.to_vec()).expect("tensor")
}

/// stdout of a finished command as text.
pub fn stdout_of(out: &std::process::Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("utf-8 stdout")
}

/// Asserts that the command failed with status 2 and one stderr line that
/// contains every one of `parts`; returns the line.
pub fn assert_error(cmd: &mut Command, parts: &[&str]) -> String {
    let out = cmd.output().expect("run");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "status; stderr: {err}");
    assert!(
        out.stdout.is_empty(),
        "stdout: {}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(err.lines().count(), 1, "one line: {err:?}");
    assert!(err.starts_with("tftensor: "), "{err:?}");
    for p in parts {
        assert!(err.contains(p), "{err:?} lacks {p:?}");
    }
    assert_no_path_twice(&err);
    err
}

/// Asserts that no path in an error line is printed twice: the library's
/// errors carry their path as a field and print it once, and the CLI
/// never writes it into text again.
pub fn assert_no_path_twice(line: &str) {
    let paths: Vec<&str> = line
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| matches!(c, ':' | ',' | '\'' | '"' | '(' | ')' | ';')))
        .filter(|w| w.contains('/') && w.len() > 1)
        .collect();
    for (i, p) in paths.iter().enumerate() {
        assert!(
            !paths[i + 1..].contains(p),
            "{p:?} printed twice in {line:?}"
        );
    }
}

/// Every file and directory under `dir`, relative, sorted.
pub fn listing(dir: &Path) -> Vec<String> {
    fn walk(root: &Path, dir: &Path, out: &mut Vec<String>) {
        for e in fs::read_dir(dir).expect("read_dir") {
            let p = e.expect("entry").path();
            out.push(p.strip_prefix(root).expect("prefix").display().to_string());
            if p.is_dir() {
                walk(root, &p, out);
            }
        }
    }
    let mut out = Vec::new();
    if dir.exists() {
        walk(dir, dir, &mut out);
    }
    out.sort();
    out
}
