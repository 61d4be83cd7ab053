//! Writes: a staged output is uploaded whole (a multipart upload above
//! 8 MiB) and appears only when complete; a failed upload is aborted.

use std::time::Duration;

use tftensor::io::{self, CreateOptions, Stat};

use super::pattern;
use super::servers::{
    Fault, Proxy, S3Server, child, files_of, make_bucket, moto, request, run_child, s3_env,
};

#[test]
fn uploads_appear_whole_and_failed_ones_are_aborted() {
    if child() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("big.bin");
        let data = pattern((20 << 20) + 3, 9);
        std::fs::write(&file, &data).unwrap();
        let store = io::locate_output("s3://uploads/x.npy", &CreateOptions::default())
            .unwrap()
            .store;
        store.upload("obj/big.bin", &file).unwrap();
        assert_eq!(store.open("obj/big.bin").unwrap().read_all().unwrap(), data);
        std::fs::write(tmp.path().join("small"), b"tiny").unwrap();
        store
            .upload("obj/small", &tmp.path().join("small"))
            .unwrap();
        // Now every part upload fails: the upload is aborted, nothing
        // appears.
        while std::path::Path::new(&std::env::var("GO_FILE").unwrap()).exists() {
            std::thread::sleep(Duration::from_millis(50));
        }
        let err = store.upload("obj/failed.bin", &file).unwrap_err();
        assert_eq!(err.path(), Some("s3://uploads/obj/failed.bin"), "{err}");
        let fresh = io::locate_output("s3://uploads/x.npy", &CreateOptions::default())
            .unwrap()
            .store;
        assert_eq!(fresh.stat("obj/failed.bin").unwrap(), Stat::Missing);
        return;
    }
    if let Some(m) = moto() {
        uploads_on(m);
    }
}

/// The parent of the test above, on `m`.
pub fn uploads_on(m: &S3Server) {
    make_bucket(m, "uploads", false);
    let proxy = Proxy::start(m.port);
    // The child waits for the go file to vanish before the failing upload;
    // the parent sets the fault first. Simpler: the fault is set for the
    // upload's parts after the first two multipart uploads' parts.
    let dir = tempfile::tempdir().unwrap();
    let go = dir.path().join("go");
    std::fs::write(&go, b"").unwrap();
    let proxy_ref = &proxy;
    std::thread::scope(|s| {
        let watcher = s.spawn(|| {
            // Once the first upload completed (its POST ?uploadId=), fail
            // every part upload.
            for _ in 0..1200 {
                let done = proxy_ref
                    .peek()
                    .iter()
                    .any(|r| r.method == "PUT" && r.target.starts_with("/uploads/obj/small"));
                if done {
                    proxy_ref.rule(Fault::Status(500), Some("PUT"), None);
                    std::fs::remove_file(&go).unwrap();
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        run_child(
            "writes::uploads_appear_whole_and_failed_ones_are_aborted",
            &s3_env(
                &proxy.url(),
                &[("GO_FILE", go.to_str().unwrap()), ("AWS_TIMEOUT", "5s")],
            ),
        );
        watcher.join().unwrap();
    });
    let seen = proxy.take();
    let posts: Vec<_> = seen.iter().filter(|r| r.method == "POST").collect();
    // Create and complete of the first upload, create of the failed one.
    assert!(
        posts.iter().any(|r| r.target.contains("uploads")),
        "{seen:#?}"
    );
    assert!(
        seen.iter()
            .any(|r| r.method == "DELETE" && r.target.contains("uploadId")),
        "the failed upload is aborted: {seen:#?}"
    );
    // No upload is left in progress: moto lists none; s3s-fs (which
    // does not list uploads) keeps no `.upload-ID.json` of one.
    if let Some(files) = files_of(m) {
        let left: Vec<_> = std::fs::read_dir(files)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(".upload"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
        return;
    }
    let (status, body) = request(m.port, "GET", "/uploads?uploads", &[], b"");
    assert_eq!(status, 200);
    let body = String::from_utf8_lossy(&body);
    assert!(!body.contains("<Upload>"), "{body}");
}
