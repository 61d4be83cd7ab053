//! `tftensor inspect`: the table, `--stats` and `--json`.

mod common;

use common::{f32s, stdout_of, tftensor, write_pb};
use serde_json::{Value, json};
use tftensor::bytes::Bytes;
use tftensor::{DataType, Tensor};

fn fixture() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    write_pb(
        d,
        "model/dense/kernel",
        &f32s(&[2, 3], &[1., -2.5, 3., f32::NAN, f32::INFINITY, 0.5]),
    );
    write_pb(d, "model/dense/bias", &f32s(&[3], &[0., 0., 0.]));
    write_pb(d, "step", &Tensor::from(42i64));
    write_pb(
        d,
        "vocab",
        &Tensor::from_vec(
            &[2usize][..],
            vec![Bytes::from_static(b"hello"), Bytes::from_static(b"\xff")],
        )
        .expect("t"),
    );
    write_pb(
        d,
        "flags",
        &Tensor::from_vec([2], vec![true, false]).expect("t"),
    );
    write_pb(d, "empty", &Tensor::new(DataType::Half, [0, 4]).expect("t"));
    write_pb(
        d,
        "big",
        &Tensor::from_vec([300], vec![7u32; 300]).expect("t"),
    );
    dir
}

#[test]
fn table() {
    let dir = fixture();
    let out = tftensor()
        .arg("inspect")
        .arg(dir.path())
        .output()
        .expect("run");
    assert!(out.status.success());
    assert_eq!(
        stdout_of(&out),
        format!("{}: tensorproto-dir\n", dir.path().display())
            + "\
NAME                DTYPE   SHAPE  BYTES
big                 uint32  [300]   1200
empty               half    [0,4]      0
flags               bool    [2]        2
model/dense/bias    float   [3]       12
model/dense/kernel  float   [2,3]     24
step                int64   []         8
vocab               string  [2]        -
7 tensors, 1246 bytes (1.2 KiB) (and 1 of unknown size)
"
    );
}

#[test]
fn stats() {
    let dir = fixture();
    let out = tftensor()
        .arg("inspect")
        .arg(dir.path())
        .arg("--stats")
        .output()
        .expect("run");
    assert!(out.status.success());
    assert_eq!(
        stdout_of(&out),
        format!("{}: tensorproto-dir\n", dir.path().display())
            + "\
NAME                DTYPE   SHAPE  BYTES   MIN  MAX  MEAN  NAN  INF
big                 uint32  [300]   1200     7    7     7    0    0
empty               half    [0,4]      0     -    -     -    0    0
flags               bool    [2]        2     -    -     -    -    -
model/dense/bias    float   [3]       12     0    0     0    0    0
model/dense/kernel  float   [2,3]     24  -2.5    3   0.5    1    1
step                int64   []         8    42   42    42    0    0
vocab               string  [2]        6     -    -     -    -    -
7 tensors, 1252 bytes (1.2 KiB)
"
    );
}

/// The issue 23 drift: the CLI's own dtype list had no int2, uint2 or
/// float4 rows, so `--stats` printed dashes for them.
#[test]
fn stats_of_every_real_dtype() {
    use tftensor::{Float4E2M1FN, Int2, UInt2};
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let int2 = [2i8, 1, 0].map(Int2::from_bits).to_vec();
    write_pb(d, "a_int2", &Tensor::from_vec([3], int2).expect("t"));
    let uint2 = [3u8, 1].map(UInt2::from_bits).to_vec();
    write_pb(d, "b_uint2", &Tensor::from_vec([2], uint2).expect("t"));
    let float4 = [0x7u8, 0xF, 0x1].map(Float4E2M1FN::from_bits).to_vec();
    write_pb(d, "c_float4", &Tensor::from_vec([3], float4).expect("t"));
    let out = tftensor()
        .arg("inspect")
        .arg(d)
        .arg("--stats")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<String> = stdout_of(&out)
        .lines()
        .skip(2)
        .take(3)
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect();
    assert_eq!(
        rows,
        [
            "a_int2 int2 [3] 3 -2 1 -0.3333333333333333 0 0",
            "b_uint2 uint2 [2] 2 1 3 2 0 0",
            "c_float4 float4_e2m1fn [3] 3 -6 6 0.16666667 0 0",
        ]
    );
}

#[test]
fn json() {
    let dir = fixture();
    let out = tftensor()
        .arg("inspect")
        .arg(dir.path())
        .args(["--json", "--stats"])
        .output()
        .expect("run");
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["format"], "tensorproto-dir");
    assert_eq!(v["count"], 7);
    assert_eq!(v["total_bytes"], 1252);
    let t = &v["tensors"];
    assert_eq!(
        t[4],
        json!({"name": "model/dense/kernel", "dtype": "float", "shape": [2, 3], "bytes": 24,
               "min": -2.5, "max": 3.0, "mean": 0.5, "nan": 1, "inf": 1})
    );
    assert_eq!(
        t[1],
        json!({"name": "empty", "dtype": "half", "shape": [0, 4], "bytes": 0,
                            "min": null, "max": null, "mean": null, "nan": 0, "inf": 0})
    );
    assert_eq!(
        t[6],
        json!({"name": "vocab", "dtype": "string", "shape": [2], "bytes": 6})
    );
    assert_eq!(t[5]["min"], 42);
    // Without --stats: no statistics keys.
    let plain = tftensor()
        .arg("inspect")
        .arg(dir.path())
        .arg("--json")
        .output()
        .expect("run");
    let v: Value = serde_json::from_slice(&plain.stdout).expect("json");
    assert_eq!(
        v["tensors"][0],
        json!({"name": "big", "dtype": "uint32", "shape": [300], "bytes": 1200})
    );
}

#[test]
fn a_single_tensorproto_file_is_named_by_its_stem() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = write_pb(dir.path(), "weights", &f32s(&[1], &[1.]));
    let out = tftensor().arg("inspect").arg(&file).output().expect("run");
    assert_eq!(
        stdout_of(&out),
        format!("{}: tensorproto\n", file.display())
            + "NAME     DTYPE  SHAPE  BYTES\nweights  float  [1]        4\n1 tensor, 4 bytes\n"
    );
}

#[test]
fn format_can_be_forced() {
    let dir = tempfile::tempdir().expect("tempdir");
    // An odd name that detection would still read as a TensorProto.
    let file = dir.path().join("data.bin");
    std::fs::write(&file, common::serialized(&Tensor::from(1.0f32))).expect("write");
    for args in [&[][..], &["--format", "tensorproto"]] {
        let out = tftensor()
            .arg("inspect")
            .arg(&file)
            .args(args)
            .arg("--json")
            .output()
            .expect("run");
        let v: Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(v["format"], "tensorproto");
        assert_eq!(v["tensors"][0]["name"], "data");
    }
}

#[test]
fn several_paths_and_a_quoted_glob() {
    // `inspect a.npy b.npy` was refused.
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write_pb(dir.path(), "a", &f32s(&[1], &[1.]));
    let b = write_pb(dir.path(), "b", &f32s(&[2], &[1., 2.]));
    let out = tftensor()
        .arg("inspect")
        .arg(&a)
        .arg(&b)
        .output()
        .expect("run");
    assert!(out.status.success());
    let text = stdout_of(&out);
    assert!(
        text.contains(&format!("{}: tensorproto", a.display())),
        "{text}"
    );
    assert!(
        text.contains(&format!("{}: tensorproto", b.display())),
        "{text}"
    );
    let glob = dir.path().join("*.pb");
    let out = tftensor().arg("inspect").arg(&glob).output().expect("run");
    assert_eq!(stdout_of(&out), text);
    let none = dir.path().join("*.npy");
    let out = tftensor().arg("inspect").arg(&none).output().expect("run");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn safetensors_metadata_is_shown_and_kept_by_convert() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = dir.path().join("a.safetensors");
    let meta = vec![("format".to_string(), "pt".to_string())];
    tftensor::safetensors::save_with_metadata(&a, [("w", &f32s(&[1], &[1.]))], &meta)
        .expect("save");
    let out = tftensor().arg("inspect").arg(&a).output().expect("run");
    assert!(
        stdout_of(&out).contains("metadata format: pt\n"),
        "{}",
        stdout_of(&out)
    );
    let b = dir.path().join("b.safetensors");
    tftensor().arg("convert").arg(&a).arg(&b).assert().success();
    let json = tftensor()
        .arg("inspect")
        .arg(&b)
        .arg("--json")
        .output()
        .expect("run");
    let v: Value = serde_json::from_slice(&json.stdout).expect("json");
    assert_eq!(v["metadata"], json!({"format": "pt"}));
}

#[test]
fn signatures_of_a_saved_model_as_saved_model_cli_prints_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/saved_model");
    let out = tftensor()
        .arg("inspect")
        .arg("--signatures")
        .arg(dir.join("module"))
        .output()
        .expect("run");
    assert!(out.status.success());
    let text = stdout_of(&out);
    let want = std::fs::read_to_string(dir.join("module.expected/show_all.txt")).expect("read");
    // Up to the ops line (a Python set, in run-to-run order).
    let head = |s: &str| {
        s.split("contains the following ops")
            .next()
            .map(str::to_string)
    };
    assert_eq!(head(&text), head(&want));
}

#[test]
fn arrow_schema_of_example_files_is_tfx_bsls() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/arrow");
    let out = tftensor()
        .current_dir(&dir)
        .args([
            "inspect",
            "--arrow-schema",
            "kinds.gzip.tfrecord",
            "corner.tfrecord",
        ])
        .output()
        .expect("run");
    assert!(out.status.success(), "{out:?}");
    let text = stdout_of(&out);
    assert_eq!(
        text,
        "\
kinds.gzip.tfrecord: 4 Examples
B: large_list<item: int64>
f: large_list<item: float>
i: large_list<item: int64>
s: large_list<item: large_binary>
\u{e9}: large_list<item: float>

corner.tfrecord: 3 Examples
a: large_list<item: int64>
b: large_list<item: float>
c: large_list<item: large_binary>
d: null
e: large_list<item: float>
"
    );
    // The same names and types as the batches tfx-bsl 1.21 decoded
    // (pyarrow's str(type)), recorded in the fixtures.
    for (file, fixture) in [
        ("kinds.gzip.tfrecord", "kinds"),
        ("corner.tfrecord", "corner"),
    ] {
        let want: Value = serde_json::from_slice(
            &std::fs::read(dir.join(format!("{fixture}.json"))).expect("read"),
        )
        .expect("json");
        let mut lines = vec![format!("{file}: {} Examples", want["num_rows"])];
        for c in want["columns"].as_array().expect("columns") {
            lines.push(format!(
                "{}: {}",
                c["name"].as_str().expect("name"),
                c["type"].as_str().expect("type")
            ));
        }
        let block = lines.join("\n") + "\n";
        assert!(text.contains(&block), "{block}");
    }
}

#[test]
fn arrow_schema_errors_name_the_file_and_record() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/data/arrow");
    let out = tftensor()
        .current_dir(&dir)
        .args(["inspect", "--arrow-schema", "malformed.tfrecord"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "tftensor: malformed.tfrecord: record 1: Unable to parse example.\n"
    );
}
