//! `tftensor convert`: exact round trips, the output appears only when
//! complete (also when the process is killed mid-write), --only and
//! --skip-unsupported.

mod common;

use std::fs;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{assert_error, f32s, listing, serialized, tftensor, vectors, write_pb};
use tftensor::Tensor;
use tftensor::bytes::Bytes;

/// TF 2.21's `tf.io.serialize_tensor` bytes from the conformance vectors:
/// `tensor_content` for everything but strings, the typed field for them.
fn tf_serialized() -> Vec<Vec<u8>> {
    vectors()
        .iter()
        .filter(|v| v["op"] == "serialize")
        .filter(|v| (v["dtype"] == "string") == (v["form"] == "field"))
        .map(|v| hex::decode(v["proto"].as_str().expect("proto")).expect("hex"))
        .collect()
}

#[test]
fn tensorproto_directory_round_trip_is_byte_exact() {
    let protos = tf_serialized();
    assert!(protos.len() > 100, "{}", protos.len());
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    for (k, p) in protos.iter().enumerate() {
        // Nested names, as checkpoint keys have.
        let file = src.join(format!("g{}/t{k:04}.pb", k % 7));
        fs::create_dir_all(file.parent().expect("parent")).expect("mkdir");
        fs::write(file, p).expect("write");
    }
    let out = dir.path().join("out");
    tftensor()
        .arg("convert")
        .arg(&src)
        .arg(&out)
        .args(["--to", "tensorproto-dir"])
        .assert()
        .success()
        .stdout("")
        .stderr("");
    assert_eq!(listing(&src), listing(&out));
    for name in listing(&src) {
        let (a, b) = (src.join(&name), out.join(&name));
        if a.is_file() {
            assert_eq!(fs::read(a).expect("a"), fs::read(b).expect("b"), "{name}");
        }
    }
    tftensor().arg("diff").arg(&src).arg(&out).assert().code(0);
}

#[test]
fn one_tensor_to_a_file_and_back() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    let t = Tensor::from_vec(
        [3],
        vec![
            Bytes::from_static(b"\x00\xff"),
            Bytes::new(),
            Bytes::from_static(b"z"),
        ],
    )
    .expect("t");
    write_pb(&src, "m/strings", &t);
    write_pb(&src, "m/w", &f32s(&[2], &[1., 2.]));
    let out = dir.path().join("one.pb");
    tftensor()
        .arg("convert")
        .arg(&src)
        .arg(&out)
        .args(["--only", "m/strings"])
        .assert()
        .success();
    assert_eq!(fs::read(&out).expect("out"), serialized(&t));
    // Back into a directory: the file's stem names the tensor.
    let back = dir.path().join("back/");
    tftensor()
        .arg("convert")
        .arg(&out)
        .arg(&back)
        .assert()
        .success();
    assert_eq!(listing(&back), ["one.pb"]);
    assert_eq!(fs::read(back.join("one.pb")).expect("back"), serialized(&t));
}

#[test]
fn only_keeps_the_order_given() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    for name in ["a", "b", "c"] {
        write_pb(&src, name, &Tensor::from(1u8));
    }
    let out = dir.path().join("out/");
    tftensor()
        .arg("convert")
        .arg(&src)
        .arg(&out)
        .args(["--only", "c", "--only", "a"])
        .assert()
        .success();
    assert_eq!(listing(&out), ["a.pb", "c.pb"]);
}

#[test]
fn an_existing_output_file_is_replaced_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write_pb(dir.path(), "in", &f32s(&[1], &[3.]));
    let out = dir.path().join("out.pb");
    fs::write(&out, vec![7u8; 10_000]).expect("write");
    tftensor()
        .arg("convert")
        .arg(&input)
        .arg(&out)
        .assert()
        .success();
    assert_eq!(fs::read(&out).expect("out"), fs::read(&input).expect("in"));
    assert_eq!(
        listing(dir.path()),
        ["in.pb", "out.pb"],
        "no temporary left"
    );
}

/// Kills a convert that is blocked reading its second tensor (a FIFO) and
/// so has started its output, and checks nothing is under the final name
/// (`finals`: the names the output would have; `out_name` alone if empty).
fn killed_mid_write(out_name: &str, extra: &[&str], finals: &[&str]) {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    write_pb(&src, "a", &f32s(&[4], &[1., 2., 3., 4.]));
    let fifo = src.join("b.pb");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    // Listing reads each file's header once: serve b.pb one time, so the
    // convert blocks on its second open, after writing `a`.
    let b_bytes = serialized(&f32s(&[1], &[5.]));
    let feeder = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            fs::write(&fifo, b_bytes).expect("feed fifo");
        })
    };
    let outdir = dir.path().join("outdir");
    fs::create_dir(&outdir).expect("mkdir");
    let out = outdir.join(out_name);
    let mut child = Command::new(common::bin())
        .arg("convert")
        .arg(&src)
        .arg(&out)
        .args(extra)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    feeder.join().expect("feeder");
    // Wait until the output has been started under its temporary name.
    let start = Instant::now();
    while listing(&outdir).is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no temporary output appeared"
        );
        assert!(
            child.try_wait().expect("try_wait").is_none(),
            "convert ended early"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    child.kill().expect("kill");
    child.wait().expect("wait");
    let left = listing(&outdir);
    assert!(!left.is_empty());
    if finals.is_empty() {
        assert!(!out.exists(), "{out_name}: {left:?}");
        assert!(
            left.iter().all(|n| n.starts_with(&format!(".{out_name}."))),
            "only hidden temporaries: {left:?}"
        );
    }
    for name in finals {
        assert!(!outdir.join(name).exists(), "{name}: {left:?}");
    }
}

#[test]
fn a_killed_convert_leaves_no_output_tensorproto_dir() {
    killed_mid_write("out", &["--to", "tensorproto-dir"], &[]);
}

#[test]
fn a_killed_convert_leaves_no_output_npz() {
    killed_mid_write("out.npz", &[], &[]);
}

#[test]
fn a_killed_convert_leaves_no_output_safetensors() {
    killed_mid_write("out.safetensors", &[], &[]);
}

#[test]
fn a_killed_convert_leaves_no_output_tfrecord() {
    killed_mid_write("out.tfrecord.gz", &[], &[]);
}

#[test]
fn a_killed_convert_leaves_no_output_checkpoint() {
    // BundleWriter's own temporary naming; the bundle is its two files.
    killed_mid_write("ckpt", &[], &["ckpt.index", "ckpt.data-00000-of-00001"]);
}

#[test]
fn skip_unsupported_is_not_needed_when_everything_fits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write_pb(dir.path(), "v", &Tensor::from("x"));
    let out = dir.path().join("o.pb");
    tftensor()
        .arg("convert")
        .arg(&input)
        .arg(&out)
        .arg("--skip-unsupported")
        .assert()
        .success()
        .stderr("");
    assert!(out.is_file());
}

#[test]
fn an_empty_directory_is_an_error_not_an_empty_source() {
    // Fault: an empty folder was read as an empty TensorProto directory,
    // and convert wrote an empty file.
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    fs::create_dir(&src).expect("mkdir");
    assert_error(
        tftensor()
            .arg("convert")
            .arg(&src)
            .arg(dir.path().join("o.pb")),
        &["not a format tftensor reads", "tried checkpoint, "],
    );
    assert!(!dir.path().join("o.pb").exists());
}

#[test]
fn two_tensors_are_an_error_for_a_one_tensor_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    fs::create_dir(&src).expect("mkdir");
    write_pb(&src, "a", &f32s(&[1], &[1.]));
    write_pb(&src, "b", &f32s(&[1], &[2.]));
    assert_error(
        tftensor()
            .arg("convert")
            .arg(&src)
            .arg(dir.path().join("o.pb")),
        &["holds one tensor", "2 are selected"],
    );
}

#[cfg(unix)]
#[test]
fn outputs_get_the_mode_a_new_file_gets() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write_pb(dir.path(), "in", &f32s(&[2], &[1., 2.]));
    let mode = |p: &std::path::Path| fs::metadata(p).expect("meta").permissions().mode() & 0o777;
    let plain = mode(&input);
    for out in ["o.safetensors", "o.npz", "o.pb", "o.tfrecord", "o.npy"] {
        let path = dir.path().join(out);
        tftensor()
            .arg("convert")
            .arg(&input)
            .arg(&path)
            .assert()
            .success();
        assert_eq!(mode(&path), plain, "{out}");
    }
    let out_dir = dir.path().join("d");
    tftensor()
        .arg("convert")
        .arg(&input)
        .arg(format!("{}/", out_dir.display()))
        .assert()
        .success();
    fs::create_dir(dir.path().join("plain_dir")).expect("mkdir");
    assert_eq!(mode(&out_dir), mode(&dir.path().join("plain_dir")));
}
