//! `tftensor diff`: what it reports and its exit status (0 equal, 1
//! different, 2 error).

mod common;

use std::path::{Path, PathBuf};

use common::{f32s, stdout_of, tftensor, write_pb};
use tftensor::Tensor;
use tftensor::bytes::Bytes;

/// Two TensorProto directories holding `a` and `b`.
fn pair(a: &[(&str, Tensor)], b: &[(&str, Tensor)]) -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let (pa, pb) = (dir.path().join("a"), dir.path().join("b"));
    for (name, t) in a {
        write_pb(&pa, name, t);
    }
    for (name, t) in b {
        write_pb(&pb, name, t);
    }
    std::fs::create_dir_all(&pa).expect("mkdir");
    std::fs::create_dir_all(&pb).expect("mkdir");
    (dir, pa, pb)
}

fn diff(a: &Path, b: &Path, extra: &[&str]) -> (i32, String) {
    let out = tftensor()
        .arg("diff")
        .arg(a)
        .arg(b)
        .args(extra)
        .output()
        .expect("run");
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().expect("status"), stdout_of(&out))
}

#[test]
fn equal_files_exit_0() {
    let t = f32s(&[2, 2], &[1., -0., f32::NAN, f32::INFINITY]);
    let (_d, a, b) = pair(
        &[("x", t.clone()), ("s", Tensor::from("hi"))],
        &[("x", t), ("s", Tensor::from("hi"))],
    );
    assert_eq!(diff(&a, &b, &[]), (0, "equal: 2 tensors\n".into()));
}

#[test]
fn a_value_difference_exits_1_and_names_the_largest() {
    let (_d, a, b) = pair(
        &[("w", f32s(&[2, 3], &[1., 2., 3., 4., 5., 1.5]))],
        &[("w", f32s(&[2, 3], &[1., 2.25, 3., 4., 5., 2.]))],
    );
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        out,
        "w: 2 of 6 values differ; largest difference 0.5 at [1,2]: 1.5 vs 2\n\
         different: 1 difference, 1 tensor in both\n"
    );
}

#[test]
fn tolerances() {
    let (_d, a, b) = pair(
        &[("w", f32s(&[2], &[1.0, 100.0]))],
        &[("w", f32s(&[2], &[1.001, 100.1]))],
    );
    assert_eq!(diff(&a, &b, &[]).0, 1);
    // |a - b| <= atol + rtol * |b|
    assert_eq!(diff(&a, &b, &["--atol", "0.11"]).0, 0);
    assert_eq!(diff(&a, &b, &["--atol", "0.01"]).0, 1);
    assert_eq!(diff(&a, &b, &["--rtol", "0.0011"]).0, 0);
    assert_eq!(diff(&a, &b, &["--rtol", "0.0005"]).0, 1);
    assert_eq!(diff(&a, &b, &["--rtol", "0.0005", "--atol", "0.06"]).0, 0);
}

#[test]
fn nan_matches_only_nan() {
    let (_d, a, b) = pair(
        &[("w", f32s(&[2], &[f32::NAN, 1.]))],
        &[("w", f32s(&[2], &[1., 1.]))],
    );
    let (code, out) = diff(&a, &b, &["--atol", "1e30"]);
    assert_eq!(code, 1);
    assert!(
        out.starts_with("w: 1 of 2 values differ; largest difference NaN at [0]: NaN vs 1\n"),
        "{out}"
    );
}

#[test]
fn dtype_shape_and_names() {
    let (_d, a, b) = pair(
        &[
            ("d", f32s(&[1], &[1.])),
            ("s", f32s(&[2], &[1., 2.])),
            ("only_a", Tensor::from(1i32)),
        ],
        &[
            ("d", Tensor::from_vec([1], vec![1.0f64]).expect("t")),
            ("s", f32s(&[2, 1], &[1., 2.])),
            ("only_b", Tensor::from(1i32)),
        ],
    );
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            "d: dtype float vs double",
            &format!("only in {}: only_a", a.display()),
            "s: shape [2] vs [2,1]",
            &format!("only in {}: only_b", b.display()),
            "different: 4 differences, 2 tensors in both",
        ]
    );
}

#[test]
fn integers_compare_exactly() {
    let big = |v: i64| Tensor::from_vec([1], vec![v]).expect("t");
    let (_d, a, b) = pair(&[("i", big(i64::MAX))], &[("i", big(i64::MAX - 1))]);
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1);
    assert!(
        out.contains("9223372036854775807 vs 9223372036854775806"),
        "{out}"
    );
    assert_eq!(diff(&a, &b, &["--atol", "1"]).0, 0);
}

#[test]
fn strings_and_complex() {
    let s = |v: &[&'static str]| {
        Tensor::from_vec(
            &[v.len()][..],
            v.iter().map(|x| Bytes::from_static(x.as_bytes())).collect(),
        )
        .expect("t")
    };
    let c = |re: f32| {
        Tensor::from_vec([1], vec![tftensor::num_complex::Complex::new(re, 1.0f32)]).expect("t")
    };
    let (_d, a, b) = pair(
        &[("s", s(&["a", "b", "c"])), ("c", c(1.0))],
        &[("s", s(&["a", "x", "y"])), ("c", c(1.5))],
    );
    let (code, out) = diff(&a, &b, &[]);
    assert_eq!(code, 1);
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [
            "c: 1 of 1 values differ; largest difference 0.5 at [0]: (1,1) vs (1.5,1)",
            "s: 2 of 3 values differ; first at [1]: \"b\" vs \"x\"",
            "different: 2 differences, 2 tensors in both",
        ]
    );
    assert_eq!(
        diff(&a, &b, &["--atol", "0.5"]).1.lines().next(),
        Some("s: 2 of 3 values differ; first at [1]: \"b\" vs \"x\"")
    );
}

#[test]
fn two_single_tensor_files_compare_as_such() {
    // Each is named after its file stem, so they were never compared.
    let dir = tempfile::tempdir().expect("tempdir");
    let a = write_pb(dir.path(), "left", &f32s(&[2], &[1., 2.]));
    let npy = dir.path().join("right.npy");
    tftensor::npy::write_npy(&npy, &f32s(&[2], &[1., 2.])).expect("npy");
    assert_eq!(diff(&a, &npy, &[]).0, 0);
    tftensor::npy::write_npy(&npy, &f32s(&[2], &[1., 3.])).expect("npy");
    let (code, out) = diff(&a, &npy, &[]);
    assert_eq!(code, 1);
    assert!(out.contains("left: 1 of 2 values differ"), "{out}");
}
