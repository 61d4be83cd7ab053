//! Reads: probing, ranged reads, listing, globs, errors naming the URL,
//! request counts.

use std::sync::Arc;

use tftensor::io::{self, Checksum, CreateOptions, Format, RangeRead, Stat, Store};
use tftensor::{Error, ErrorKind};

use super::servers::{
    self, Proxy, S3Server, child, make_bucket, moto, put_object, run_child, s3_env,
};
use super::{data, pattern};

const BIG: usize = (20 << 20) + 100;

/// The bucket `bucket`'s store, through the library (no request made).
fn store(url: &str) -> Arc<dyn Store> {
    io::locate_output(format!("{url}/x.npy"), &CreateOptions::default())
        .unwrap()
        .store
}

#[test]
fn objects_are_read_by_range_listed_and_globbed() {
    if child() {
        let s = store("s3://reads");
        let big = pattern(BIG, 1);
        let blob = s.open("data.bin").unwrap();
        assert_eq!(blob.len(), BIG as u64);
        assert_eq!(blob.id(), "s3://reads/data.bin");
        // A small read from the first block, one in the middle.
        let mut few = [0u8; 100];
        blob.read_at(10, &mut few).unwrap();
        assert_eq!(&few[..], &big[10..110]);
        blob.read_at(9 << 20, &mut few).unwrap();
        assert_eq!(&few[..], &big[9 << 20..(9 << 20) + 100]);
        // The whole object at once, checksummed in parts.
        let (all, sum) = blob
            .read_bytes_summed(0..BIG as u64, Some(Checksum::Crc32c))
            .unwrap();
        assert!(all == big[..], "the bytes read equal the object's");
        assert_eq!(sum, Some(Checksum::Crc32c.of(&big)));
        // Several ranges, near ones sharing a request.
        let (mut a, mut b, mut c) = (vec![0u8; 1000], vec![0u8; 3000], vec![0u8; 5]);
        let sums = blob
            .read_ranges(vec![
                RangeRead {
                    offset: 5000,
                    dst: &mut b,
                    sum: Some(Checksum::Crc32c),
                },
                RangeRead {
                    offset: 0,
                    dst: &mut a,
                    sum: Some(Checksum::Crc32),
                },
                RangeRead {
                    offset: BIG as u64 - 5,
                    dst: &mut c,
                    sum: None,
                },
            ])
            .unwrap();
        assert_eq!(
            (&a[..], &b[..], &c[..]),
            (&big[..1000], &big[5000..8000], &big[BIG - 5..])
        );
        assert_eq!(
            sums,
            [
                Some(Checksum::Crc32c.of(&big[5000..8000])),
                Some(Checksum::Crc32.of(&big[..1000])),
                None
            ]
        );
        // Past the end: data loss, before any request.
        assert_eq!(
            blob.read_at(BIG as u64 - 50, &mut few).unwrap_err().kind(),
            ErrorKind::DataLoss
        );

        assert_eq!(s.stat("dir").unwrap(), Stat::Dir);
        assert_eq!(s.stat("dir/").unwrap(), Stat::Dir);
        assert_eq!(s.stat("di").unwrap(), Stat::Missing);
        assert_eq!(s.stat("empty.bin").unwrap(), Stat::File { len: 0 });
        assert_eq!(s.open("empty.bin").unwrap().read_all().unwrap().len(), 0);
        let names: Vec<_> = s.list("dir").unwrap().into_iter().map(|i| i.name).collect();
        assert_eq!(names, ["a.npy", "b.npy", "sub"]);
        let shards = io::expand("s3://reads/dir/*.npy").unwrap();
        assert_eq!(
            shards,
            ["s3://reads/dir/a.npy", "s3://reads/dir/b.npy"].map(std::path::PathBuf::from)
        );
        assert_eq!(
            io::expand("s3://reads/dir/*.nothing").unwrap_err().kind(),
            ErrorKind::NotFound
        );
        // Detection reads through the store: the probe's GET also serves
        // the header.
        let at = io::detect("s3://reads/dir/a.npy").unwrap();
        assert_eq!(at.format, Format::NPY);
        let local = std::fs::read(data("npy/float32.npy")).unwrap();
        assert_eq!(
            at.blob(&Default::default()).unwrap().read_all().unwrap(),
            &local[..]
        );
        return;
    }
    if let Some(m) = moto() {
        objects_are_read_on(m);
    }
}

/// The parent of [`objects_are_read_by_range_listed_and_globbed`] on
/// `m`.
pub fn objects_are_read_on(m: &S3Server) {
    make_bucket(m, "reads", false);
    put_object(m, "reads", "data.bin", &pattern(BIG, 1), false);
    put_object(m, "reads", "empty.bin", b"", false);
    let npy = std::fs::read(data("npy/float32.npy")).unwrap();
    for key in ["dir/a.npy", "dir/b.npy", "dir/sub/c.npy"] {
        put_object(m, "reads", key, &npy, false);
    }
    let proxy = Proxy::start(m.port);
    run_child(
        "reads::objects_are_read_by_range_listed_and_globbed",
        &s3_env(&proxy.url(), &[]),
    );
    let seen = proxy.take();
    let big_gets: Vec<_> = seen
        .iter()
        .filter(|r| r.method == "GET" && r.target.starts_with("/reads/data.bin"))
        .collect();
    // The look (64 KiB, which also serves the two ranges near the start),
    // a block at 9 MiB, the whole in six even parts (16 in flight allowed,
    // none under 4 MiB but to even them), and the range at the end.
    assert_eq!(big_gets.len(), 1 + 1 + 6 + 1, "{big_gets:#?}");
    // Missing keys are 404s (a look, then one listing), the empty object
    // a 416 (then a HEAD); nothing failed, but s3s-fs's GET of a folder
    // (a 500, retried; a listing then tells it is a folder).
    let folder = |r: &&servers::Seen| m.name == "s3s-fs" && r.target == "/reads/dir";
    assert!(
        seen.iter().all(|r| r.status < 500 || folder(&r)),
        "{seen:#?}"
    );
    assert!(
        seen.iter().filter(folder).count() <= 4,
        "a failed look is not followed by HEADs: {seen:#?}"
    );
}

#[test]
fn missing_objects_and_buckets_are_not_found_naming_the_url() {
    if child() {
        let err = io::detect("s3://reads2/nope.npy").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound, "{err}");
        assert_eq!(err.path(), Some("s3://reads2/nope.npy"));
        assert_eq!(
            err.to_string().matches("s3://reads2/nope.npy").count(),
            1,
            "{err}"
        );
        let err = io::open("s3://no-such-bucket/x.npy").err().unwrap();
        assert_eq!(err.kind(), ErrorKind::NotFound, "{err}");
        let s = store("s3://reads2");
        let err = s.open("nope.bin").unwrap_err();
        assert_eq!(err.io_kind(), Some(std::io::ErrorKind::NotFound), "{err}");
        assert_eq!(err.path(), Some("s3://reads2/nope.bin"));
        let err = s.open("dir").unwrap_err();
        assert_eq!(
            err.io_kind(),
            Some(std::io::ErrorKind::IsADirectory),
            "{err}"
        );
        return;
    }
    if let Some(m) = moto() {
        missing_objects_on(m);
    }
}

pub fn missing_objects_on(m: &S3Server) {
    make_bucket(m, "reads2", false);
    put_object(m, "reads2", "dir/x", b"x", false);
    run_child(
        "reads::missing_objects_and_buckets_are_not_found_naming_the_url",
        &s3_env(&format!("http://127.0.0.1:{}", m.port), &[]),
    );
}

#[test]
fn a_safetensors_header_takes_one_request() {
    if child() {
        let at = io::detect("s3://safet/model.safetensors").unwrap();
        assert_eq!(at.format, Format::SAFETENSORS);
        let blob = at.blob(&Default::default()).unwrap();
        let n = u64::from_le_bytes(blob.read_vec(0, 8).unwrap().try_into().unwrap());
        let header = blob.read_vec(8, n).unwrap();
        assert!(header.starts_with(b"{"));
        return;
    }
    if let Some(m) = moto() {
        safetensors_header_on(m);
    }
}

pub fn safetensors_header_on(m: &S3Server) {
    make_bucket(m, "safet", false);
    let file = std::fs::read_dir(data("safetensors"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "safetensors"))
        .unwrap();
    put_object(
        m,
        "safet",
        "model.safetensors",
        &std::fs::read(file).unwrap(),
        false,
    );
    let proxy = Proxy::start(m.port);
    run_child(
        "reads::a_safetensors_header_takes_one_request",
        &s3_env(&proxy.url(), &[]),
    );
    let seen = proxy.take();
    assert_eq!(seen.len(), 1, "{seen:#?}");
}

#[test]
fn http_urls_read_by_range() {
    if child() {
        let port = std::env::var("RANGE_PORT").unwrap();
        let url = format!("http://127.0.0.1:{port}/npy/float32.npy");
        let at = io::detect(&url).unwrap();
        assert_eq!(at.format, Format::NPY);
        let got = at.blob(&Default::default()).unwrap().read_all().unwrap();
        assert_eq!(got, std::fs::read(data("npy/float32.npy")).unwrap());
        let err = io::detect(format!("http://127.0.0.1:{port}/npy/none.npy")).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::NotFound, "{err}");
        return;
    }
    let server = servers::RangeServer::start(data(""));
    run_child(
        "reads::http_urls_read_by_range",
        &[("RANGE_PORT".into(), server.port.to_string())],
    );
}

#[test]
fn refused_credentials_say_so_and_anonymous_reads_public_buckets() {
    if child() {
        let url = "s3://public/w.npy";
        let err = io::detect(url).unwrap_err();
        assert_eq!(
            err.io_kind(),
            Some(std::io::ErrorKind::PermissionDenied),
            "{err}"
        );
        assert!(err.to_string().contains("--no-sign-request"), "{err}");
        assert_eq!(err.path(), Some(url));
        let opts =
            io::OpenOptions::default().with_remote(io::RemoteOptions::default().with_anonymous());
        let at = io::locate(url, &opts).unwrap();
        assert_eq!(at.format, Format::NPY);
        return;
    }
    let Some(m) = moto() else { return };
    make_bucket(m, "public", true);
    put_object(
        m,
        "public",
        "w.npy",
        &std::fs::read(data("npy/float32.npy")).unwrap(),
        true,
    );
    let proxy = Proxy::start(m.port);
    proxy.rule(servers::Fault::DenySigned, None, None);
    run_child(
        "reads::refused_credentials_say_so_and_anonymous_reads_public_buckets",
        &s3_env(&proxy.url(), &[]),
    );
}

#[test]
fn gcs_urls_read_through_the_xml_api() {
    if child() {
        let at = io::detect("gs://gcs/w.npy").unwrap();
        assert_eq!(at.format, Format::NPY);
        assert_eq!(at.id(), "gs://gcs/w.npy");
        let got = at.blob(&Default::default()).unwrap().read_all().unwrap();
        assert_eq!(got, std::fs::read(data("npy/float32.npy")).unwrap());
        return;
    }
    let Some(m) = moto() else { return };
    // Without credentials, moto serves public objects only.
    make_bucket(m, "gcs", true);
    put_object(
        m,
        "gcs",
        "w.npy",
        &std::fs::read(data("npy/float32.npy")).unwrap(),
        true,
    );
    let env = vec![
        (
            "GOOGLE_BASE_URL".to_owned(),
            format!("http://127.0.0.1:{}", m.port),
        ),
        ("GOOGLE_SKIP_SIGNATURE".to_owned(), "true".to_owned()),
    ];
    run_child("reads::gcs_urls_read_through_the_xml_api", &env);
}

#[allow(dead_code)]
fn unused(_: Error) {}

#[test]
fn tfrecords_by_number_take_one_request_each_and_streams_read_ahead() {
    let fixture = data("tfrecord/idx/records.tfrecord");
    if child() {
        use tftensor::tfrecord::{RecordFile, index_records};
        let url = "s3://records/r.tfrecord";
        let local = RecordFile::open(&fixture).unwrap();
        // The index pass over the object equals the local one.
        assert_eq!(index_records(url).unwrap(), local.index());
        let remote =
            RecordFile::with_index(url, local.index().to_vec(), &Default::default()).unwrap();
        for i in [4, 0, 7, 4] {
            assert_eq!(remote.get(i).unwrap(), local.get(i).unwrap());
        }
        // A stream of small reads: the read-ahead serves most of them.
        let blob = store("s3://records").open("big.bin").unwrap();
        let big = pattern(3 << 20, 3);
        let mut got = vec![0u8; big.len()];
        for (i, piece) in got.chunks_mut(4096).enumerate() {
            blob.read_at((i * 4096) as u64, piece).unwrap();
        }
        assert!(got == big, "the stream's bytes equal the object's");
        return;
    }
    if let Some(m) = moto() {
        tfrecords_on(m);
    }
}

pub fn tfrecords_on(m: &S3Server) {
    let fixture = data("tfrecord/idx/records.tfrecord");
    make_bucket(m, "records", false);
    put_object(
        m,
        "records",
        "r.tfrecord",
        &std::fs::read(&fixture).unwrap(),
        false,
    );
    put_object(m, "records", "big.bin", &pattern(3 << 20, 3), false);
    let proxy = Proxy::start(m.port);
    run_child(
        "reads::tfrecords_by_number_take_one_request_each_and_streams_read_ahead",
        &s3_env(&proxy.url(), &[]),
    );
    let seen = proxy.take();
    let records: Vec<_> = seen
        .iter()
        .filter(|r| r.target == "/records/r.tfrecord")
        .collect();
    // The index pass: the look (the whole 70 KB file is past 64 KiB: one
    // more range); then one request per record read.
    assert!(records.len() <= 3 + 4, "{records:#?}");
    let big: Vec<_> = seen
        .iter()
        .filter(|r| r.target == "/records/big.bin")
        .collect();
    // 768 reads of 4 KiB: the look, three blocks, then growing ranges.
    assert!(big.len() <= 12, "{} requests: {big:#?}", big.len());
}
