//! The CLI on the NumPy, safetensors and TFRecord fixtures of the real
//! producers (tests/data/{npy,safetensors,tfrecord}), and conversions
//! between every pair of formats.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::{assert_error, f32s, stdout_of, tftensor, write_pb};
use serde_json::Value;
use tftensor::Tensor;
use tftensor::bytes::Bytes;

fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(rel)
}

fn inspect_json(path: &Path) -> Value {
    let out = tftensor()
        .arg("inspect")
        .arg(path)
        .arg("--json")
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json")
}

fn names(listing: &Value) -> Vec<String> {
    listing["tensors"]
        .as_array()
        .expect("tensors")
        .iter()
        .map(|t| t["name"].as_str().expect("name").to_string())
        .collect()
}

#[test]
fn tfrecord_of_tf_tensors_in_every_compression() {
    let expected: Value =
        serde_json::from_slice(&fs::read(data("tfrecord/tensors.json")).expect("json"))
            .expect("json");
    let records = expected["records"].as_array().expect("records");
    for file in [
        "tensors.tfrecord",
        "tensors.gzip.tfrecord",
        "tensors.zlib.tfrecord",
    ] {
        let listing = inspect_json(&data("tfrecord").join(file));
        assert_eq!(listing["format"], "tfrecord", "{file}");
        let tensors = listing["tensors"].as_array().expect("tensors");
        assert_eq!(tensors.len(), records.len(), "{file}");
        for (k, (t, r)) in tensors.iter().zip(records).enumerate() {
            assert_eq!(t["name"], k.to_string());
            assert_eq!(t["shape"], r["shape"], "{file} record {k}");
        }
    }
    // Re-written uncompressed, the file is byte-identical to TF's.
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("copy.tfrecord");
    tftensor()
        .arg("convert")
        .arg(data("tfrecord/tensors.gzip.tfrecord"))
        .arg(&out)
        .assert()
        .success();
    assert_eq!(
        fs::read(&out).expect("out"),
        fs::read(data("tfrecord/tensors.tfrecord")).expect("tf")
    );
    // And compressed as the name says.
    let gz = dir.path().join("copy.tfrecord.gz");
    tftensor()
        .arg("convert")
        .arg(&out)
        .arg(&gz)
        .assert()
        .success();
    assert_eq!(&fs::read(&gz).expect("gz")[..2], b"\x1f\x8b");
    tftensor().arg("diff").arg(&gz).arg(&out).assert().code(0);
}

#[test]
fn npz_and_npy_from_numpy() {
    let expected: Value =
        serde_json::from_slice(&fs::read(data("npy/npz_expected.json")).expect("json"))
            .expect("json");
    for file in ["arrays.npz", "arrays_compressed.npz"] {
        // Its `bf` member is bfloat16, which NumPy stores as opaque `V2`.
        let out = tftensor()
            .arg("inspect")
            .arg(data("npy").join(file))
            .args(["--json", "--npy-dtype", "bfloat16"])
            .output()
            .expect("run");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let listing: Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(listing["format"], "npz");
        let want: Vec<String> = serde_json::from_value(expected["order"].clone()).expect("order");
        assert_eq!(names(&listing), want);
        for t in listing["tensors"].as_array().expect("tensors") {
            let e = &expected["arrays"][t["name"].as_str().expect("name")];
            assert_eq!(t["dtype"], e["dtype"]);
            assert_eq!(t["shape"], e["shape"]);
        }
    }
    let bf = tftensor()
        .arg("show")
        .arg(data("npy/ml_bfloat16.npy"))
        .args(["--npy-dtype", "bfloat16"])
        .output()
        .expect("run");
    assert!(
        bf.status.success(),
        "{}",
        String::from_utf8_lossy(&bf.stderr)
    );
    assert!(stdout_of(&bf).starts_with("ml_bfloat16: bfloat16 "));
    let out = tftensor()
        .arg("show")
        .arg(data("npy/fortran_f4.npy"))
        .output()
        .expect("run");
    assert_eq!(
        stdout_of(&out),
        "fortran_f4: float [2,3,4]\n[[[0 1 2 3]\n  [4 5 6 7]\n  [8 9 10 11]]\n\n [[12 13 14 15]\n  [16 17 18 19]\n  [20 21 22 23]]]\n"
    );
}

#[test]
fn safetensors_from_the_python_library() {
    let expected: Value =
        serde_json::from_slice(&fs::read(data("safetensors/expected.json")).expect("json"))
            .expect("json");
    let listing = inspect_json(&data("safetensors/all_dtypes.safetensors"));
    assert_eq!(listing["format"], "safetensors");
    let want: Vec<String> =
        serde_json::from_value(expected["all_dtypes"]["order"].clone()).expect("order");
    assert_eq!(names(&listing), want);
}

/// A TensorProto directory with one tensor of each dtype that every
/// format here holds, plus `extra`.
fn common_tensors(dir: &Path) {
    write_pb(
        dir,
        "w/kernel",
        &f32s(&[2, 3], &[1.5, -0.0, f32::NAN, f32::INFINITY, 1e-30, 3.0]),
    );
    write_pb(
        dir,
        "ids",
        &Tensor::from_vec([3], vec![i64::MIN, 0, i64::MAX]).expect("t"),
    );
    write_pb(
        dir,
        "mask",
        &Tensor::from_vec([2], vec![true, false]).expect("t"),
    );
    write_pb(
        dir,
        "h",
        &Tensor::from_vec([1], vec![tftensor::half::f16::from_f32(0.1)]).expect("t"),
    );
    write_pb(
        dir,
        "u",
        &Tensor::from_vec([2, 0], Vec::<u16>::new()).expect("t"),
    );
    write_pb(
        dir,
        "c",
        &Tensor::from_vec([1], vec![tftensor::num_complex::Complex::new(1.0f32, -2.0)]).expect("t"),
    );
}

#[test]
fn every_format_pair_round_trips_exactly() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    common_tensors(&src);
    let outputs = [
        "a.npz",
        "a.safetensors",
        "a/ckpt",
        "a.tfrecord.zz",
        "pbdir/",
    ];
    for (k, first) in outputs.iter().enumerate() {
        let one = dir.path().join(format!("{k}")).join(first);
        fs::create_dir_all(one.parent().expect("p")).expect("mkdir");
        tftensor()
            .arg("convert")
            .arg(&src)
            .arg(&one)
            .assert()
            .success();
        for second in outputs.iter() {
            let two = dir.path().join(format!("{k}-2")).join(second);
            fs::create_dir_all(two.parent().expect("p")).expect("mkdir");
            tftensor()
                .arg("convert")
                .arg(&one)
                .arg(&two)
                .assert()
                .success();
            let out = tftensor()
                .arg("diff")
                .arg(&src)
                .arg(&two)
                .output()
                .expect("run");
            let text = stdout_of(&out);
            if second.contains("tfrecord") || first.contains("tfrecord") {
                // Records have no names: same values, named by index.
                assert_eq!(out.status.code(), Some(1), "{first} -> {second}");
                assert!(
                    text.ends_with("different: 12 differences, 0 tensors in both\n"),
                    "{text}"
                );
            } else {
                assert_eq!(out.status.code(), Some(0), "{first} -> {second}: {text}");
            }
        }
    }
}

#[test]
fn one_tensor_through_npy() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    common_tensors(&src);
    let npy = dir.path().join("kernel.npy");
    tftensor()
        .arg("convert")
        .arg(&src)
        .arg(&npy)
        .args(["--only", "w/kernel"])
        .assert()
        .success();
    let back = dir.path().join("back/");
    tftensor()
        .arg("convert")
        .arg(&npy)
        .arg(&back)
        .assert()
        .success();
    assert_eq!(
        fs::read(back.join("kernel.pb")).expect("pb"),
        fs::read(src.join("w/kernel.pb")).expect("pb")
    );
}

#[test]
fn a_dtype_the_target_cannot_hold() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    write_pb(&src, "text", &Tensor::from("hello"));
    write_pb(&src, "x", &f32s(&[1], &[1.]));
    write_pb(
        &src,
        "q",
        &Tensor::from_vec([1], vec![tftensor::QInt8(3)]).expect("t"),
    );
    let out = dir.path().join("o.safetensors");
    assert_error(
        tftensor().arg("convert").arg(&src).arg(&out),
        &[
            &src.display().to_string(),
            "'q': dtype qint8, which safetensors cannot hold",
            "--skip-unsupported",
        ],
    );
    assert!(!out.exists());
    tftensor()
        .arg("convert")
        .arg(&src)
        .arg(&out)
        .arg("--skip-unsupported")
        .assert()
        .success()
        .stderr(
            "tftensor: skipping 'q': safetensors cannot hold dtype qint8\n\
             tftensor: skipping 'text': safetensors cannot hold dtype string\n",
        );
    assert_eq!(names(&inspect_json(&out)), ["x"]);
    // NumPy holds strings, but not quantized ints as themselves.
    let npz = dir.path().join("o.npz");
    assert_error(
        tftensor().arg("convert").arg(&src).arg(&npz),
        &["'q': dtype qint8, which npz cannot hold"],
    );
}

#[test]
fn strings_numpy_would_change_are_refused() {
    let dir = tempfile::tempdir().expect("tempdir");
    let t = Tensor::from_vec(
        [2],
        vec![Bytes::from_static(b"ok"), Bytes::from_static(b"nul\0")],
    )
    .expect("t");
    let input = write_pb(dir.path(), "s", &t);
    let out = dir.path().join("s.npz");
    assert_error(
        tftensor().arg("convert").arg(&input).arg(&out),
        &[&out.display().to_string(), "'s': ", "NUL"],
    );
    assert!(!out.exists());
    assert_eq!(common::listing(dir.path()), ["s.pb"], "no temporary left");
}

#[test]
fn bad_files_of_each_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    // A safetensors file cut short.
    let st = fs::read(data("safetensors/numpy.safetensors")).expect("read");
    let cut = d.join("cut.safetensors");
    fs::write(&cut, &st[..st.len() - 3]).expect("write");
    assert_error(
        tftensor().arg("inspect").arg(&cut),
        &[&cut.display().to_string()],
    );
    // A dtype TF does not have.
    let e8 = data("safetensors/f8_e8m0.safetensors");
    assert_error(
        tftensor().arg("inspect").arg(&e8),
        &["f8_e8m0.safetensors", "F8_E8M0"],
    );
    // A pickled object array is never unpickled.
    let obj = data("npy/object.npy");
    assert_error(
        tftensor().arg("show").arg(&obj),
        &["object.npy", "object array"],
    );
    // An ml_dtypes array NumPy stores as opaque bytes.
    assert_error(
        tftensor().arg("inspect").arg(data("npy/arrays.npz")),
        &["arrays.npz", "'bf'", "opaque"],
    );
    // A TFRecord with a flipped data byte.
    let mut rec = fs::read(data("tfrecord/tensors.tfrecord")).expect("read");
    rec[20] ^= 1;
    let bad = d.join("bad.tfrecord");
    fs::write(&bad, &rec).expect("write");
    assert_error(
        tftensor().arg("inspect").arg(&bad),
        &["bad.tfrecord", "record 0"],
    );
    // Records that are neither tensors nor Examples.
    let raw = data("tfrecord/raw.tfrecord");
    assert_error(
        tftensor().arg("inspect").arg(&raw),
        &["raw.tfrecord", "record 1", "tf.train.Example"],
    );
    // A zip that is not an npz.
    let zip = d.join("junk.npz");
    fs::write(&zip, b"PK\x03\x04 not really").expect("write");
    assert_error(tftensor().arg("inspect").arg(&zip), &["junk.npz"]);
}

#[test]
fn bad_checkpoints() {
    let dir = tempfile::tempdir().expect("tempdir");
    let d = dir.path();
    let src = data("checkpoints/tf2_keras");
    let copy = |name: &str| {
        fs::copy(src.join(name), d.join(name)).expect("copy");
    };
    copy("ckpt-1.index");
    // The data file is missing: the listing works, reading does not.
    let prefix = d.join("ckpt-1");
    tftensor().arg("inspect").arg(&prefix).assert().success();
    let key = "step/.ATTRIBUTES/VARIABLE_VALUE";
    assert_error(
        tftensor().arg("show").arg(&prefix).arg(key),
        &["ckpt-1.data-00000-of-00001"],
    );
    assert_error(
        tftensor().arg("inspect").arg(&prefix).arg("--stats"),
        &["ckpt-1.data-00000-of-00001: '_CHECKPOINTABLE_OBJECT_GRAPH': data file not found"],
    );
    // A flipped byte in the data: the entry's CRC catches it.
    copy("ckpt-1.data-00000-of-00001");
    let data_file = d.join("ckpt-1.data-00000-of-00001");
    let mut bytes = fs::read(&data_file).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    fs::write(&data_file, &bytes).expect("write");
    let err = assert_error(
        tftensor().arg("inspect").arg(&prefix).arg("--stats"),
        &["ckpt-1"],
    );
    assert!(
        err.to_lowercase().contains("crc") || err.contains("checksum"),
        "{err}"
    );
    // A flipped byte in the index.
    let index = d.join("ckpt-1.index");
    let mut bytes = fs::read(&index).expect("read");
    bytes[10] ^= 0xff;
    fs::write(&index, &bytes).expect("write");
    assert_error(tftensor().arg("inspect").arg(&prefix), &["ckpt-1"]);
}

#[test]
fn detection_by_content_not_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (from, format) in [
        (data("npy/float32.npy"), "npy"),
        (data("safetensors/numpy.safetensors"), "safetensors"),
        (data("tfrecord/tensors.tfrecord"), "tfrecord"),
        (data("tfrecord/tensors.gzip.tfrecord"), "tfrecord"),
    ] {
        let renamed = dir.path().join(format!("{format}-file.bin"));
        fs::copy(&from, &renamed).expect("copy");
        assert_eq!(
            inspect_json(&renamed)["format"],
            format,
            "{}",
            from.display()
        );
    }
    let npz = dir.path().join("made.npz");
    let pb = write_pb(dir.path(), "t", &f32s(&[1], &[1.]));
    tftensor()
        .arg("convert")
        .arg(&pb)
        .arg(&npz)
        .assert()
        .success();
    let renamed = dir.path().join("npz-file.bin");
    fs::copy(&npz, &renamed).expect("copy");
    assert_eq!(inspect_json(&renamed)["format"], "npz");
    // The zlib fixture is recognised by its name ending, or --format.
    let z = dir.path().join("z.bin");
    fs::copy(data("tfrecord/tensors.zlib.tfrecord"), &z).expect("copy");
    let out = tftensor()
        .arg("inspect")
        .arg(&z)
        .args(["--format", "tfrecord", "--json"])
        .output()
        .expect("run");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn tfrecords_of_examples_are_listed_per_record_and_feature() {
    // Fault: the CLI refused TFRecords of tf.train.Example although the
    // library reads them.
    let listing = inspect_json(&data("tfrecord/examples.tfrecord"));
    let names: Vec<&str> = listing["tensors"]
        .as_array()
        .expect("tensors")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names.first().copied(), Some("0/label"));
    assert!(names.contains(&"0/weights"), "{names:?}");
    assert_eq!(listing["format"], "tfrecord");
}
