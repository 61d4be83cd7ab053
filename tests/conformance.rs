//! Conformance harness: replays vectors produced by real TensorFlow 2.21, one
//! JSON record per line (the record kinds are below).
//!
//! The file is `$TFTENSOR_CONFORMANCE` when set, else
//! `tests/data/tf-2.21-vectors.jsonl`. Every record is run; none is skipped.
//! `conformance` runs the `parse`, `reject`, `serialize` and `summarize`
//! records, prints `conformance: N passed, M failed`, and fails on any
//! failing record, naming every one of them.

use std::io::Write;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;

use bytes::Bytes;
use prost::Message;
use serde_json::Value;
use tftensor::{DataType, Tensor};

fn vectors_path() -> PathBuf {
    match std::env::var_os("TFTENSOR_CONFORMANCE") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/tf-2.21-vectors.jsonl"),
    }
}

/// A record, or why its line could not be read.
struct Record {
    /// `name` when present, else the line number.
    label: String,
    value: Result<Value, String>,
}

fn load() -> Vec<Record> {
    let path = vectors_path();
    let text = match std::fs::read(&path) {
        Ok(t) => t,
        Err(e) => panic!("cannot read conformance vectors {}: {e}", path.display()),
    };
    let text = String::from_utf8_lossy(&text);
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, line)| match serde_json::from_str::<Value>(line) {
            Ok(v) => {
                let label = match v.get("name").and_then(Value::as_str) {
                    Some(n) => format!("{n} (line {})", i + 1),
                    None => format!("line {}", i + 1),
                };
                let value = if v.is_object() {
                    Ok(v)
                } else {
                    Err("not a JSON object".to_owned())
                };
                Record { label, value }
            }
            Err(e) => Record {
                label: format!("line {}", i + 1),
                value: Err(format!("invalid JSON: {e}")),
            },
        })
        .collect()
}

fn field<'a>(rec: &'a Value, key: &str) -> Result<&'a Value, String> {
    rec.get(key).ok_or_else(|| format!("missing field `{key}`"))
}

fn str_field<'a>(rec: &'a Value, key: &str) -> Result<&'a str, String> {
    field(rec, key)?
        .as_str()
        .ok_or_else(|| format!("field `{key}` is not a string"))
}

fn hex_field(rec: &Value, key: &str) -> Result<Vec<u8>, String> {
    hex::decode(str_field(rec, key)?).map_err(|e| format!("field `{key}` is not hex: {e}"))
}

fn shape_field(rec: &Value) -> Result<Vec<i64>, String> {
    field(rec, "shape")?
        .as_array()
        .ok_or("field `shape` is not an array")?
        .iter()
        .map(|d| {
            d.as_i64()
                .ok_or_else(|| format!("shape entry {d} is not an integer"))
        })
        .collect()
}

fn strings_field(rec: &Value) -> Result<Vec<Bytes>, String> {
    field(rec, "strings")?
        .as_array()
        .ok_or("field `strings` is not an array")?
        .iter()
        .map(|s| {
            let s = s.as_str().ok_or("a `strings` entry is not a string")?;
            hex::decode(s)
                .map(Bytes::from)
                .map_err(|e| format!("a `strings` entry is not hex: {e}"))
        })
        .collect()
}

fn dtype_field(rec: &Value) -> Result<DataType, String> {
    let name = str_field(rec, "dtype")?;
    name.parse::<DataType>()
        .map_err(|e| format!("dtype {name:?}: {e}"))
}

/// `at byte i: got xx, want yy (lengths a, b)` for differing byte strings.
fn diff(got: &[u8], want: &[u8]) -> String {
    let at = got
        .iter()
        .zip(want)
        .position(|(g, w)| g != w)
        .unwrap_or(got.len().min(want.len()));
    format!(
        "first difference at byte {at} (got {} bytes, want {}): got {}, want {}",
        got.len(),
        want.len(),
        hex::encode(&got[at.min(got.len())..got.len().min(at + 16)]),
        hex::encode(&want[at.min(want.len())..want.len().min(at + 16)]),
    )
}

fn decode(rec: &Value) -> Result<Tensor, String> {
    Tensor::decode(Bytes::from(hex_field(rec, "proto")?))
        .map_err(|e| format!("FromProto failed: {e}"))
}

fn run_parse(rec: &Value) -> Result<(), String> {
    let dtype = dtype_field(rec)?;
    let shape = shape_field(rec)?;
    let t = decode(rec)?;
    if t.dtype() != dtype {
        return Err(format!("dtype {} (want {dtype})", t.dtype()));
    }
    if t.shape().dim_sizes() != shape {
        return Err(format!("shape {} (want {shape:?})", t.shape()));
    }
    if dtype == DataType::String {
        let want = strings_field(rec)?;
        let got = t.as_slice::<Bytes>().map_err(|e| e.to_string())?;
        if got != want.as_slice() {
            return Err(format!("strings {got:?} (want {want:?})"));
        }
    } else {
        let want = hex_field(rec, "data")?;
        let got = t.tensor_data().map_err(|e| e.to_string())?;
        if got != want.as_slice() {
            return Err(format!("data: {}", diff(got, &want)));
        }
    }
    Ok(())
}

fn run_reject(rec: &Value) -> Result<(), String> {
    match decode(rec) {
        Err(_) => Ok(()),
        Ok(t) => Err(format!(
            "accepted as {} {} (TF: {})",
            t.dtype(),
            t.shape(),
            rec.get("tf_error").and_then(Value::as_str).unwrap_or("?")
        )),
    }
}

fn run_serialize(rec: &Value) -> Result<(), String> {
    let dtype = dtype_field(rec)?;
    let shape = shape_field(rec)?;
    let want = hex_field(rec, "proto")?;
    let t = if dtype == DataType::String {
        Tensor::from_vec(shape.as_slice(), strings_field(rec)?)
    } else {
        Tensor::from_buffer(
            dtype,
            shape.as_slice(),
            Bytes::from(hex_field(rec, "data")?),
        )
    }
    .map_err(|e| format!("cannot build the tensor: {e}"))?;
    let proto = match str_field(rec, "form")? {
        "content" => t.as_proto_tensor_content(),
        "field" => t.as_proto_field(),
        other => return Err(format!("unknown form {other:?}")),
    }
    .map_err(|e| format!("AsProto failed: {e}"))?;
    let got = proto.encode_to_vec();
    if got != want {
        return Err(diff(&got, &want));
    }
    if str_field(rec, "form")? == "field" {
        // The one-pass encoder writes the same bytes.
        let direct = t
            .encode_proto_field()
            .map_err(|e| format!("encode_proto_field failed: {e}"))?;
        if direct != want {
            return Err(format!("encode_proto_field: {}", diff(&direct, &want)));
        }
    }
    Ok(())
}

fn run_summarize(rec: &Value) -> Result<(), String> {
    let max_entries = field(rec, "max_entries")?
        .as_i64()
        .ok_or("field `max_entries` is not an integer")?;
    let print_v2 = field(rec, "print_v2")?
        .as_bool()
        .ok_or("field `print_v2` is not a bool")?;
    let want = hex_field(rec, "text_hex")?;
    let got = decode(rec)?.summarize_value_bytes(max_entries, print_v2);
    if got != want {
        return Err(format!(
            "got {:?}, want {:?}",
            String::from_utf8_lossy(&got),
            String::from_utf8_lossy(&want)
        ));
    }
    Ok(())
}

#[derive(Default)]
struct Tally {
    passed: usize,
    failures: Vec<String>,
}

/// Runs the records whose `op` `select` accepts; a record that panics
/// counts as failed.
fn run(select: impl Fn(&str) -> bool) -> Tally {
    let mut tally = Tally::default();
    for rec in load() {
        let value = match &rec.value {
            Ok(v) => v,
            Err(e) => {
                tally.failures.push(format!("{}: {e}", rec.label));
                continue;
            }
        };
        let op = value.get("op").and_then(Value::as_str).unwrap_or("");
        let is_known = matches!(op, "parse" | "reject" | "serialize" | "summarize");
        // Records with a missing or unknown op fail in the main test.
        if !select(if is_known { op } else { "parse" }) {
            continue;
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| match op {
            "parse" => run_parse(value),
            "reject" => run_reject(value),
            "serialize" => run_serialize(value),
            "summarize" => run_summarize(value),
            other => Err(format!("unknown op {other:?}")),
        }))
        .unwrap_or_else(|_| Err("panicked".to_owned()));
        match outcome {
            Ok(()) => tally.passed += 1,
            Err(e) => {
                let mut msg = format!("{} [{op}]: {e}", rec.label);
                if msg.len() > 400 {
                    let cut = (0..=400)
                        .rev()
                        .find(|&i| msg.is_char_boundary(i))
                        .unwrap_or(0);
                    msg.truncate(cut);
                    msg.push_str("...");
                }
                tally.failures.push(msg);
            }
        }
    }
    tally
}

/// Prints the summary line where `cargo test` shows it (libtest captures
/// `println!` of passing tests, not writes to the stdout handle), then fails
/// with the counts and every failing record.
fn report(prefix: &str, tally: &Tally) {
    let line = format!(
        "{prefix}: {} passed, {} failed",
        tally.passed,
        tally.failures.len()
    );
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "\n{line}");
    let _ = out.flush();
    assert!(
        tally.failures.is_empty(),
        "{line} ({})\n{}",
        vectors_path().display(),
        tally.failures.join("\n")
    );
    assert!(
        tally.passed > 0,
        "{line}: no records ran ({})",
        vectors_path().display()
    );
}

#[test]
fn conformance() {
    report("conformance", &run(|_| true));
}
