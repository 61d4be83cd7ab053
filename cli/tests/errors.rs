//! Every error path: status 2 and one stderr line that names the file and
//! what is wrong; never a panic or a backtrace.

mod common;

use std::fs;

use common::{assert_error, f32s, listing, tftensor, write_pb};
use tftensor::Tensor;

#[test]
fn missing_input() {
    for cmd in ["inspect", "show"] {
        assert_error(
            tftensor().args([cmd, "no/such/thing"]),
            &["no/such/thing: no such file, directory or checkpoint prefix"],
        );
    }
    let dir = tempfile::tempdir().expect("tempdir");
    assert_error(
        tftensor()
            .arg("convert")
            .arg("no/such/thing")
            .arg(dir.path().join("out.pb")),
        &["no/such/thing: no such file"],
    );
    assert!(listing(dir.path()).is_empty());
}

#[test]
fn a_file_that_is_no_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let junk = dir.path().join("junk.bin");
    fs::write(&junk, b"\xff\xff\xff\xff not a tensor").expect("write");
    let shown = junk.display().to_string();
    for cmd in ["inspect", "show"] {
        assert_error(
            tftensor().arg(cmd).arg(&junk),
            &[&shown, "not a format tftensor reads (tried checkpoint, "],
        );
    }
}

#[test]
fn an_empty_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let empty = dir.path().join("empty.pb");
    fs::write(&empty, b"").expect("write");
    assert_error(
        tftensor().arg("inspect").arg(&empty),
        &[&empty.display().to_string(), "not a valid TensorProto"],
    );
}

#[test]
fn a_corrupt_file_in_a_tensorproto_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_pb(dir.path(), "good", &f32s(&[1], &[1.]));
    let bad = dir.path().join("sub/bad.pb");
    fs::create_dir_all(bad.parent().expect("parent")).expect("mkdir");
    fs::write(&bad, b"\x08").expect("write");
    assert_error(
        tftensor().arg("inspect").arg(dir.path()),
        &[&bad.display().to_string(), "not a valid TensorProto"],
    );
}

#[test]
fn content_that_disagrees_with_the_shape() {
    // The header (dtype, shape) is fine; the data is 3 bytes for float[2].
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("t.pb");
    fs::write(&file, b"\x08\x01\x12\x04\x12\x02\x08\x02\x22\x03abc").expect("write");
    assert_error(
        tftensor().arg("show").arg(dir.path()),
        &[&file.display().to_string(), "not a valid TensorProto"],
    );
}

#[test]
fn a_directory_forced_as_a_file_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    assert_error(
        tftensor()
            .arg("inspect")
            .arg(dir.path())
            .args(["--format", "tensorproto"]),
        &[&format!("{}: ", dir.path().display()), "directory"],
    );
}

#[test]
fn unknown_output_format() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write_pb(dir.path(), "a", &f32s(&[1], &[1.]));
    let out = dir.path().join("out.txt");
    assert_error(
        tftensor().arg("convert").arg(&input).arg(&out),
        &[
            &out.display().to_string(),
            "cannot tell the output format",
            "--to",
        ],
    );
}

#[test]
fn several_tensors_into_a_one_tensor_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    write_pb(&src, "a", &f32s(&[1], &[1.]));
    write_pb(&src, "b", &f32s(&[1], &[2.]));
    let out = dir.path().join("out.pb");
    assert_error(
        tftensor().arg("convert").arg(&src).arg(&out),
        &[
            &out.display().to_string(),
            "holds one tensor",
            "2 are selected",
            "--only",
        ],
    );
    assert!(!out.exists());
}

#[test]
fn only_names_a_missing_tensor() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    write_pb(&src, "a", &f32s(&[1], &[1.]));
    assert_error(
        tftensor()
            .arg("convert")
            .arg(&src)
            .arg(dir.path().join("out.pb"))
            .args(["--only", "nope"]),
        &[&src.display().to_string(), "'nope': no such tensor"],
    );
}

#[test]
fn output_directory_exists_and_is_not_empty() {
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    write_pb(&src, "a", &f32s(&[1], &[1.]));
    let out = dir.path().join("out");
    fs::create_dir(&out).expect("mkdir");
    fs::write(out.join("keep.txt"), b"x").expect("write");
    assert_error(
        tftensor()
            .arg("convert")
            .arg(&src)
            .arg(&out)
            .args(["--to", "tensorproto-dir"]),
        &[&out.display().to_string(), "exists"],
    );
    assert_eq!(listing(&out), ["keep.txt"]);
}

#[test]
fn output_parent_directory_is_missing() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write_pb(dir.path(), "a", &f32s(&[1], &[1.]));
    let out = dir.path().join("no/such/dir/out.pb");
    assert_error(
        tftensor().arg("convert").arg(&input).arg(&out),
        &[&out.display().to_string(), "does not exist"],
    );
}

#[test]
fn output_file_is_a_directory() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = write_pb(dir.path(), "a", &f32s(&[1], &[1.]));
    let out = dir.path().join("out.pb");
    fs::create_dir(&out).expect("mkdir");
    assert_error(
        tftensor().arg("convert").arg(&input).arg(&out),
        &[&out.display().to_string(), "is a directory"],
    );
}

#[test]
fn a_tensor_name_that_cannot_be_a_file() {
    // A TensorProto file named `..pb` holds a tensor named `.`.
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("..pb");
    fs::write(&input, common::serialized(&Tensor::from(1i32))).expect("write");
    let out = dir.path().join("out");
    assert_error(
        tftensor()
            .arg("convert")
            .arg(&input)
            .arg(format!("{}/", out.display())),
        &["'.': ", "cannot be a file name"],
    );
    assert_eq!(
        listing(dir.path()),
        ["..pb"],
        "no output, no temporary left"
    );
}

#[test]
fn a_failed_convert_leaves_nothing_behind() {
    // `a` converts; `b` has a valid header but its content is short, so
    // the failure comes after the output was started.
    let dir = tempfile::tempdir().expect("tempdir");
    let src = dir.path().join("src");
    write_pb(&src, "a", &f32s(&[2], &[1., 2.]));
    fs::write(
        src.join("b.pb"),
        b"\x08\x01\x12\x04\x12\x02\x08\x02\x22\x03abc",
    )
    .expect("write");
    let outdir = dir.path().join("outdir");
    fs::create_dir(&outdir).expect("mkdir");
    assert_error(
        tftensor()
            .arg("convert")
            .arg(&src)
            .arg(format!("{}/", outdir.join("out").display())),
        &["b.pb", "not a valid TensorProto"],
    );
    assert!(listing(&outdir).is_empty(), "{:?}", listing(&outdir));
}

#[test]
fn diff_errors_are_status_2_not_1() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write_pb(dir.path(), "a", &f32s(&[1], &[1.]));
    assert_error(
        tftensor().arg("diff").arg(&a).arg("no/such/b"),
        &["no/such/b: no such file"],
    );
    assert_error(
        tftensor().arg("diff").arg("no/such/a").arg(&a),
        &["no/such/a: no such file"],
    );
    assert_error(
        tftensor().arg("diff").arg(&a).arg(&a).args(["--rtol=-1"]),
        &["--rtol must be a number >= 0"],
    );
    assert_error(
        tftensor()
            .arg("diff")
            .arg(&a)
            .arg(&a)
            .args(["--atol", "NaN"]),
        &["--atol must be a number >= 0"],
    );
}

#[test]
fn usage_errors_are_status_2() {
    for args in [
        &["frobnicate"][..],
        &["inspect"],
        &["convert", "only-one-path"],
        &["show", "x", "--max-entries", "many"],
        &["inspect", "x", "--format", "zip"],
    ] {
        let out = tftensor().args(args).output().expect("run");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"));
    }
}

#[test]
fn a_closed_stdout_is_not_an_error() {
    use std::io::Read;
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().expect("tempdir");
    let big: Vec<f32> = (0..200_000u32).map(|i| i as f32).collect();
    let file = write_pb(dir.path(), "big", &f32s(&[200_000], &big));
    let mut child = Command::new(common::bin())
        .arg("show")
        .arg(&file)
        .args(["--max-entries", "-1"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = [0u8; 16];
    child
        .stdout
        .take()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("read");
    // The pipe's reader is gone now.
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_subcommand_help_has_an_example() {
    for cmd in ["inspect", "show", "convert", "diff"] {
        let out = tftensor().args([cmd, "--help"]).output().expect("run");
        assert!(out.status.success());
        let help = String::from_utf8(out.stdout).expect("utf-8");
        assert!(help.contains(&format!("tftensor {cmd} ")), "{cmd}: {help}");
    }
}

/// Issue 35, fault 1: a flipped byte in a TFRecord record's payload is
/// reported as damage (a checksum mismatch at the record), on `inspect`,
/// `show` and `convert`, never as "not a serialized TensorProto".
#[test]
fn a_flipped_byte_in_a_tfrecord_payload_is_damage() {
    let dir = tempfile::tempdir().expect("tempdir");
    let rec = dir.path().join("bad.tfrecord");
    let tensors = [Tensor::from(1i32), f32s(&[2, 3], &[1.0; 6])];
    tftensor::tfrecord::write_tensors(&rec, tftensor::tfrecord::Compression::None, &tensors)
        .expect("write");
    let mut bytes = fs::read(&rec).expect("read");
    // Record 1's payload: `08 01 12 08 12 ...`; its first dim's tag.
    let second = 12 + usize::from(bytes[0]) + 4;
    bytes[second + 12 + 4] ^= 1;
    fs::write(&rec, &bytes).expect("write");
    let shown = rec.display().to_string();
    let at = format!("'record 1': at byte {second}: ");
    for args in [vec!["inspect"], vec!["show"]] {
        let line = assert_error(
            tftensor().args(&args).arg(&rec),
            &[&shown, &at, "corrupted record: data checksum mismatch"],
        );
        assert!(!line.contains("TensorProto"), "{line}");
    }
    let out = dir.path().join("out.npz");
    assert_error(
        tftensor().arg("convert").arg(&rec).arg(&out),
        &[&shown, &at, "data checksum mismatch"],
    );
    assert!(!out.exists());
}
