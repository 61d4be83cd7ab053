//! Faults: retried where a retry helps, and otherwise one clear error
//! naming the URL within a bounded time, never short data.

use std::time::{Duration, Instant};

use tftensor::ErrorKind;
use tftensor::io::{self, Blob, CreateOptions};

use super::pattern;
use super::servers::{Fault, Proxy, child, make_bucket, moto, put_object, run_child, s3_env};

const LEN: usize = 3 << 20;

fn blob(url: &str, key: &str) -> tftensor::Result<std::sync::Arc<dyn Blob>> {
    let store = io::locate_output(format!("{url}/x.npy"), &CreateOptions::default())?.store;
    store.open(key)
}

fn setup(bucket: &str) -> Option<Proxy> {
    let m = moto()?;
    make_bucket(m, bucket, false);
    put_object(m, bucket, "data.bin", &pattern(LEN, 7), false);
    Some(Proxy::start(m.port))
}

#[test]
fn failures_a_retry_mends_are_retried() {
    if child() {
        let b = blob("s3://faults", "data.bin").unwrap();
        assert_eq!(b.read_all().unwrap(), pattern(LEN, 7));
        return;
    }
    let Some(proxy) = setup("faults") else { return };
    // The look at the object meets a 500, a 503 and a dropped connection
    // (three retries), then passes; the read's body is cut once (resumed
    // by a ranged GET), which comes late.
    proxy.rule(Fault::Status(500), Some("GET"), Some(1));
    proxy.rule(Fault::Status(503), Some("GET"), Some(1));
    proxy.rule(Fault::Drop, Some("GET"), Some(1));
    proxy.rule(Fault::Delay(Duration::ZERO), Some("GET"), Some(1));
    proxy.rule(Fault::Cut, Some("GET"), Some(1));
    proxy.rule(
        Fault::Delay(Duration::from_millis(300)),
        Some("GET"),
        Some(1),
    );
    run_child(
        "faults::failures_a_retry_mends_are_retried",
        &s3_env(&proxy.url(), &[]),
    );
    let seen = proxy.take();
    assert!(seen.iter().any(|r| r.status == 500), "{seen:#?}");
    assert!(seen.iter().any(|r| r.status == 503), "{seen:#?}");
}

#[test]
fn a_silent_server_fails_within_the_budget() {
    if child() {
        let start = Instant::now();
        let err = io::detect("s3://silent/data.bin").unwrap_err();
        let took = start.elapsed();
        assert_eq!(err.io_kind(), Some(std::io::ErrorKind::TimedOut), "{err}");
        assert_eq!(err.path(), Some("s3://silent/data.bin"));
        assert!(took < Duration::from_secs(20), "{took:?}: {err}");
        eprintln!("silent server: {took:?}: {err}");
        return;
    }
    let Some(proxy) = setup("silent") else { return };
    proxy.rule(Fault::Silent, None, None);
    run_child(
        "faults::a_silent_server_fails_within_the_budget",
        &s3_env(&proxy.url(), &[("AWS_TIMEOUT", "2s")]),
    );
}

#[test]
fn a_body_always_cut_short_is_data_loss_within_the_budget() {
    if child() {
        let start = Instant::now();
        let err = io::detect("s3://cut/data.bin").unwrap_err();
        let took = start.elapsed();
        assert_eq!(err.kind(), ErrorKind::DataLoss, "{err}");
        assert_eq!(err.path(), Some("s3://cut/data.bin"));
        assert!(took < Duration::from_secs(20), "{took:?}: {err}");
        eprintln!("cut bodies: {took:?}: {err}");
        return;
    }
    let Some(proxy) = setup("cut") else { return };
    proxy.rule(Fault::Cut, Some("GET"), None);
    run_child(
        "faults::a_body_always_cut_short_is_data_loss_within_the_budget",
        &s3_env(&proxy.url(), &[("AWS_TIMEOUT", "2s")]),
    );
}

#[test]
fn cut_parts_of_a_large_read_are_errors_not_short_data() {
    if child() {
        let b = blob("s3://cutlarge", "data.bin").unwrap();
        let err = b.read_all().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DataLoss, "{err}");
        return;
    }
    let Some(proxy) = setup("cutlarge") else {
        return;
    };
    // The look at the object passes; every read after it is cut.
    proxy.rule(Fault::Delay(Duration::ZERO), Some("GET"), Some(1));
    proxy.rule(Fault::Cut, Some("GET"), None);
    run_child(
        "faults::cut_parts_of_a_large_read_are_errors_not_short_data",
        &s3_env(&proxy.url(), &[("AWS_TIMEOUT", "2s")]),
    );
}

#[test]
fn flipped_bytes_show_in_the_checksums() {
    if child() {
        let b = blob("s3://flip", "data.bin").unwrap();
        let data = pattern(LEN, 7);
        let (bytes, sum) = b
            .read_bytes_summed(0..LEN as u64, Some(io::Checksum::Crc32c))
            .unwrap();
        assert_ne!(bytes, data);
        assert_ne!(sum, Some(io::Checksum::Crc32c.of(&data)));
        assert_eq!(sum, Some(io::Checksum::Crc32c.of(&bytes)));
        return;
    }
    let Some(proxy) = setup("flip") else { return };
    proxy.rule(Fault::Delay(Duration::ZERO), Some("GET"), Some(1));
    proxy.rule(Fault::Flip, Some("GET"), None);
    run_child(
        "faults::flipped_bytes_show_in_the_checksums",
        &s3_env(&proxy.url(), &[]),
    );
}

#[test]
fn no_server_fails_fast() {
    if child() {
        let start = Instant::now();
        let err = io::detect("s3://none/x.npy").unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(20), "{err}");
        assert_eq!(err.path(), Some("s3://none/x.npy"));
        eprintln!("no server: {:?}: {err}", start.elapsed());
        return;
    }
    let port = super::servers::free_port();
    run_child(
        "faults::no_server_fails_fast",
        &s3_env(
            &format!("http://127.0.0.1:{port}"),
            &[("AWS_TIMEOUT", "2s")],
        ),
    );
}
