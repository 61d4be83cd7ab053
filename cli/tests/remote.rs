//! The CLI on `s3://` URLs against moto on 127.0.0.1 (started here; the
//! test skips, printing why, without moto, and fails under
//! `TFTENSOR_REQUIRE_SERVERS=1`): `index` of an object, the glob of a
//! prefix, `--no-sign-request`, and errors that name the URL once.

mod common;

#[path = "../../tests/remote/servers.rs"]
mod servers;

use common::tftensor;
use servers::{Fault, Proxy, make_bucket, moto, put_object, s3_env};

fn data(rel: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/data")
        .join(rel)
}

#[test]
fn index_globs_and_errors_on_s3() {
    let Some(m) = moto() else { return };
    make_bucket(m, "clibucket", true);
    let records = std::fs::read(data("tfrecord/idx/records.tfrecord")).unwrap();
    put_object(m, "clibucket", "shards/a.tfrecord", &records, true);
    put_object(m, "clibucket", "shards/b.tfrecord", &records, true);
    let proxy = Proxy::start(m.port);
    let env = s3_env(&proxy.url(), &[]);
    let want = std::fs::read_to_string(data("tfrecord/idx/records.idx")).unwrap();

    let out = tftensor()
        .envs(env.clone())
        .args(["index", "s3://clibucket/shards/a.tfrecord", "-o", "-"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);

    // Written to the bucket, appearing whole.
    let out = tftensor()
        .envs(env.clone())
        .args(["index", "s3://clibucket/shards/b.tfrecord"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (status, body) =
        servers::request(m.port, "GET", "/clibucket/shards/b.tfrecord.idx", &[], b"");
    assert_eq!(
        (status, String::from_utf8_lossy(&body).into_owned()),
        (200, want.clone())
    );

    // A missing object: one line naming the URL once.
    let out = tftensor()
        .envs(env.clone())
        .args(["index", "s3://clibucket/shards/none.tfrecord"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(
        err.matches("s3://clibucket/shards/none.tfrecord").count(),
        1,
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");

    // Credentials refused: the error says so; --no-sign-request reads the
    // public bucket.
    proxy.rule(Fault::DenySigned, None, None);
    let out = tftensor()
        .envs(env.clone())
        .args(["index", "s3://clibucket/shards/a.tfrecord", "-o", "-"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("access denied") && err.contains("--no-sign-request"),
        "{err}"
    );
    let out = tftensor()
        .envs(env)
        .args([
            "index",
            "--no-sign-request",
            "s3://clibucket/shards/a.tfrecord",
            "-o",
            "-",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&out.stdout), want);
}
