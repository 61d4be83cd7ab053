//! `tftensor show` prints exactly what TensorFlow 2.21's `SummarizeValue`
//! printed for the crate's conformance vectors (tests/data), in v1 and v2
//! and for every `max_entries` they were recorded with.

mod common;

use std::collections::BTreeMap;
use std::fs;

use common::{assert_error, f32s, tftensor, vectors, write_pb};
use tftensor::Tensor;
use tftensor::bytes::Bytes;

/// (proto, TF's text) pairs.
type Cases = Vec<(Vec<u8>, Vec<u8>)>;

#[test]
fn show_equals_tf_summarize_value_for_every_vector() {
    // (max_entries, print_v2) -> cases
    let mut groups: BTreeMap<(i64, bool), Cases> = BTreeMap::new();
    for v in vectors() {
        if v["op"] != "summarize" {
            continue;
        }
        let key = (
            v["max_entries"].as_i64().expect("max_entries"),
            v["print_v2"].as_bool().expect("print_v2"),
        );
        let proto = hex::decode(v["proto"].as_str().expect("proto")).expect("hex");
        let text = hex::decode(v["text_hex"].as_str().expect("text")).expect("hex");
        groups.entry(key).or_default().push((proto, text));
    }
    assert_eq!(groups.len(), 9);
    let mut checked = 0;
    for ((max_entries, v2), cases) in groups {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut want = Vec::new();
        for (k, (proto, text)) in cases.iter().enumerate() {
            let name = format!("v{k:04}");
            fs::write(dir.path().join(format!("{name}.pb")), proto).expect("write");
            let t = Tensor::decode(Bytes::from(proto.clone())).expect("decodes");
            if k > 0 {
                want.push(b'\n');
            }
            want.extend(
                format!(
                    "{name}: {} {}\n",
                    t.dtype().name(),
                    t.shape().debug_string()
                )
                .bytes(),
            );
            want.extend(text);
            want.push(b'\n');
        }
        let mut cmd = tftensor();
        cmd.arg("show")
            .arg(dir.path())
            .arg(format!("--max-entries={max_entries}"));
        if !v2 {
            cmd.arg("--v1");
        }
        let out = cmd.output().expect("run");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        if out.stdout != want {
            // Find the first differing tensor for a readable failure.
            let got = String::from_utf8_lossy(&out.stdout);
            let want = String::from_utf8_lossy(&want);
            let at = got
                .lines()
                .zip(want.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "max_entries={max_entries} v2={v2}: line {at}: got {:?}, want {:?}",
                got.lines().nth(at),
                want.lines().nth(at)
            );
        }
        checked += cases.len();
    }
    assert_eq!(checked, 2038);
}

#[test]
fn show_defaults_to_v2_with_three_entries_and_picks_names_in_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_pb(
        dir.path(),
        "a",
        &f32s(&[8], &[1., 2., 3., 4., 5., 6., 7., 8.]),
    );
    write_pb(dir.path(), "b", &Tensor::from(2.5f64));
    let out = tftensor()
        .arg("show")
        .arg(dir.path())
        .args(["b", "a"])
        .output()
        .expect("run");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).expect("utf-8"),
        "b: double []\n2.5\n\na: float [8]\n[1 2 3 ... 6 7 8]\n"
    );
}

#[test]
fn show_writes_string_bytes_unchanged() {
    let dir = tempfile::tempdir().expect("tempdir");
    let s = Tensor::from_vec(
        [2],
        vec![Bytes::from_static(b"\xff\xfe"), Bytes::from_static(b"a\"")],
    )
    .expect("tensor");
    let file = write_pb(dir.path(), "s", &s);
    let out = tftensor().arg("show").arg(&file).output().expect("run");
    assert!(out.status.success());
    assert_eq!(out.stdout, b"s: string [2]\n[\"\xff\xfe\" \"a\\\"\"]\n");
}

#[test]
fn show_of_a_missing_name_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    write_pb(dir.path(), "a", &f32s(&[1], &[1.]));
    assert_error(
        tftensor().arg("show").arg(dir.path()).args(["a", "zz"]),
        &["'zz': no such tensor"],
    );
}

/// The crate's TensorBoard fixtures (written by TF 2.21).
fn events_data(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data/events")
        .join(name)
}

#[test]
fn show_tag_prints_that_series_in_every_run() {
    // runs/: the tag `metric` in runs eval/sub and train (values as
    // TensorBoard's EventMultiplexer read them: 0, -1, -2 and 0, 1, 2 at
    // steps 0, 10, 20).
    let out = tftensor()
        .arg("show")
        .arg(events_data("runs"))
        .args(["--tag", "metric"])
        .output()
        .expect("run");
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).expect("utf-8"),
        // Each series, then its sparkline with its range; the steps plain.
        "eval/sub/metric: float [3]\n[0 -1 -2]\n█▅▁  -2 .. 0\n\n\
         eval/sub/metric/steps: int64 [3]\n[0 10 20]\n\n\
         train/metric: float [3]\n[0 1 2]\n▁▅█  0 .. 2\n\n\
         train/metric/steps: int64 [3]\n[0 10 20]\n"
    );
    // tf2/: the log directory is the run; the same as naming the entries.
    let by_tag = tftensor()
        .arg("show")
        .arg(events_data("tf2"))
        .args(["--tag", "loss"])
        .output()
        .expect("run");
    assert!(by_tag.status.success(), "{by_tag:?}");
    assert_eq!(
        String::from_utf8(by_tag.stdout.clone()).expect("utf-8"),
        "loss: float [4]\n[1 0.5 0.333333343 0.25]\n█▃▂▁  0.25 .. 1\n\nloss/steps: int64 [4]\n[0 1 2 3]\n"
    );
    let by_name = tftensor()
        .arg("show")
        .arg(events_data("tf2"))
        .args(["loss", "loss/steps"])
        .output()
        .expect("run");
    // The same, but for the sparklines that --tag adds.
    let tag_text = String::from_utf8(by_tag.stdout.clone()).expect("utf-8");
    let without_sparklines: String = tag_text
        .lines()
        .filter(|l| !l.contains(" .. "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_eq!(
        String::from_utf8(by_name.stdout).expect("utf-8"),
        without_sparklines
    );
    assert_error(
        tftensor()
            .arg("show")
            .arg(events_data("tf2"))
            .args(["--tag", "nope"]),
        &["no series tagged 'nope'", "tf2"],
    );
    let dir = tempfile::tempdir().expect("tempdir");
    write_pb(dir.path(), "a", &f32s(&[1], &[1.]));
    assert_error(
        tftensor().arg("show").arg(dir.path()).args(["--tag", "a"]),
        &["series are read from TensorBoard log directories"],
    );
}
