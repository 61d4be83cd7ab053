//! TFLite, `.task` and TF.js through the CLI: `inspect --json` carries each
//! quantized tensor's parameters, `inspect --signatures` a model's
//! signatures and ops, `convert --dequantize` writes float32, and int4
//! going to safetensors is widened with one line on stderr.

mod common;

use common::tftensor;
use serde_json::Value;
use std::path::PathBuf;

fn data(p: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(p)
}

fn json_of(args: &[&str], path: PathBuf) -> Value {
    let out = tftensor().args(args).arg(path).output().expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

#[test]
fn inspect_json_carries_quantization() {
    let v = json_of(&["inspect", "--json"], data("tflite/int8.tflite"));
    assert_eq!(v["format"], "tflite");
    let w = v["tensors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["dtype"] == "int8")
        .unwrap();
    let q = &w["quantization"];
    assert_eq!(q["scale"].as_array().unwrap().len(), 32, "{q}");
    assert_eq!(q["zero_point"].as_array().unwrap().len(), 32, "{q}");
    assert_eq!(q["quantized_dimension"], 0);
    // Blockwise: the block size and the scale tensor.
    let v = json_of(&["inspect", "--json"], data("tflite/int4_blockwise.tflite"));
    let w = v["tensors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["dtype"] == "int4")
        .unwrap();
    assert_eq!(w["quantization"]["block_size"], 32);
    assert_eq!(w["quantization"]["scales"], "MatMul_scales");
    // TF.js: scale and min.
    let v = json_of(&["inspect", "--json"], data("tfjs/quantized/model.json"));
    let w = v["tensors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "w8")
        .unwrap();
    assert_eq!(w["dtype"], "uint8");
    assert!(w["quantization"]["min"].is_number(), "{w}");
}

#[test]
fn inspect_signatures_of_a_model() {
    let out = tftensor()
        .args(["inspect", "--signatures"])
        .arg(data("tflite/signatures.tflite"))
        .output()
        .expect("run");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("signature_def['encode']:"), "{text}");
    assert!(text.contains("        dtype: DT_FLOAT\n"), "{text}");
    assert!(
        text.contains("contains the following ops: {'FULLY_CONNECTED'}"),
        "{text}"
    );
}

#[test]
fn convert_dequantize_and_widening() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("real.safetensors");
    let run = tftensor()
        .arg("convert")
        .arg(data("tflite/int8.tflite"))
        .arg(&out)
        .arg("--dequantize")
        .output()
        .expect("run");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let v = json_of(&["inspect", "--json"], out);
    assert!(
        v["tensors"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["dtype"] == "float" || t["dtype"] == "int32"),
        "{v}"
    );
    // int4 to safetensors: widened, one stderr line, exit 0.
    let out = tmp.path().join("raw.safetensors");
    let run = tftensor()
        .arg("convert")
        .arg(data("tflite/int4_blockwise.tflite"))
        .arg(&out)
        .output()
        .expect("run");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let err = String::from_utf8_lossy(&run.stderr);
    assert_eq!(
        err.lines().filter(|l| l.contains("int4")).count(),
        1,
        "{err}"
    );
    let v = json_of(&["inspect", "--json"], out);
    let m = v["tensors"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "MatMul")
        .unwrap();
    assert_eq!(m["dtype"], "int8");
}
