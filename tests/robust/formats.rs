//! Bad `.npy`, `.npz` and `.safetensors` input: truncated files, headers
//! that lie about sizes and shapes, unknown dtypes, header lengths far
//! beyond the file, CRC mismatches. Each is an error that names what is
//! wrong; nothing panics, and nothing allocates more than the input can
//! justify (measured with the tracking allocator as this binary's global
//! allocator).
#![cfg(all(feature = "npy", feature = "safetensors"))]

use std::io::Cursor;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use crate::common;
use common::allocated_by;

use bytes::Bytes;
use tftensor::npy::{NpzReader, NpzWriter, read_npy, read_npy_bytes, read_npy_bytes_as};
use tftensor::safetensors::load_bytes;
use tftensor::{DataType, Error, Tensor};

fn npy_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/npy")
}

/// What a call may allocate for an input of `len` bytes: the decoded data
/// (strings: a 32-byte handle per element of at least one byte, UTF-32 to
/// UTF-8 at most 1:1) plus fixed overhead.
fn budget(len: usize) -> usize {
    64 * len + (64 << 10)
}

/// Runs `f` on `input`, checking it neither panics nor over-allocates.
fn robust<R>(what: &str, input_len: usize, f: impl FnOnce() -> R) -> R {
    let (r, bytes) = catch_unwind(AssertUnwindSafe(|| allocated_by(f)))
        .unwrap_or_else(|_| panic!("{what}: panicked"));
    assert!(
        bytes <= budget(input_len),
        "{what}: allocated {bytes} bytes for {input_len} bytes of input"
    );
    r
}

fn npy_with_header(text: &str, data: &[u8]) -> Vec<u8> {
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(text.len() as u16).to_le_bytes());
    out.extend_from_slice(text.as_bytes());
    out.extend_from_slice(data);
    out
}

fn npy_err(input: Vec<u8>) -> Error {
    let len = input.len();
    robust("npy", len, || read_npy_bytes(Bytes::from(input))).unwrap_err()
}

#[test]
fn every_truncation_of_every_fixture_is_an_error() {
    let mut n = 0;
    for entry in std::fs::read_dir(npy_dir()).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "npy") {
            continue;
        }
        let full = std::fs::read(&path).unwrap();
        for cut in 0..full.len() {
            let input = Bytes::copy_from_slice(&full[..cut]);
            let r = robust(&format!("{} cut at {cut}", path.display()), cut, || {
                read_npy_bytes(input.clone())
                    .and_then(|_| read_npy_bytes_as(input, DataType::UInt8))
            });
            let err = r.unwrap_err();
            // Past the header, a cut is data loss that says "truncated".
            if matches!(err, Error::DataLoss { .. }) {
                assert!(err.to_string().contains("truncated") || err.to_string().contains("only"));
            }
            n += 1;
        }
    }
    assert!(n > 5000, "{n}");
}

#[test]
fn every_single_byte_change_of_headers_is_handled() {
    for name in [
        "float32.npy",
        "U.npy",
        "fortran_S.npy",
        "v2_f4.npy",
        "be_complex128.npy",
    ] {
        let full = std::fs::read(npy_dir().join(name)).unwrap();
        let header_end = 128.min(full.len());
        for pos in 0..header_end {
            for v in [
                0u8, b' ', b'9', b'(', b',', b')', b'\'', b'<', b'>', b'S', b'U', b'V', 0xff,
            ] {
                let mut m = full.clone();
                m[pos] = v;
                let len = m.len();
                let input = Bytes::from(m);
                let _ = robust(&format!("{name}[{pos}]={v}"), len, || {
                    let a = read_npy_bytes(input.clone());
                    let b = read_npy_bytes_as(input, DataType::BFloat16);
                    (a.is_ok(), b.is_ok())
                });
            }
        }
    }
}

#[test]
fn header_length_far_beyond_the_file() {
    // Version 1: 65535 bytes of header in a 30-byte file.
    let mut v1 = b"\x93NUMPY\x01\x00\xff\xff{'descr':".to_vec();
    v1.resize(30, b' ');
    let err = npy_err(v1);
    assert!(matches!(err, Error::DataLoss { .. }), "{err:?}");
    assert!(
        err.to_string().contains("header length is 65535 bytes"),
        "{err}"
    );
    // Version 2: 4 GiB of header.
    let v2 = b"\x93NUMPY\x02\x00\xff\xff\xff\xff{'descr'".to_vec();
    let err = npy_err(v2.clone());
    assert!(
        err.to_string()
            .contains("header length is 4294967295 bytes"),
        "{err}"
    );
    // The same through a file: refused before the header is allocated.
    let dir = tempfile::Builder::new()
        .prefix("tftensor-robust-")
        .tempdir()
        .unwrap()
        .keep();
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join("huge_header.npy");
    std::fs::write(&p, &v2).unwrap();
    let err = robust("file", v2.len(), || read_npy(&p)).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}: npy: the header length is 4294967295 bytes but the file holds only 20",
            p.display()
        )
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn headers_that_lie_about_the_shape() {
    // 2^40 floats declared, 8 bytes present: refused before allocating.
    let h = "{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776,), }\n";
    let err = npy_err(npy_with_header(h, &[0; 8]));
    assert!(matches!(err, Error::DataLoss { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "<npy bytes>: npy: truncated: the header declares 1099511627776 elements of '<f4' \
         (4398046511104 bytes) but 8 bytes follow it"
    );
    // Fewer elements than bytes.
    let h = "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }\n";
    let err = npy_err(npy_with_header(h, &[0; 8]));
    assert!(matches!(err, Error::InvalidFormat { .. }), "{err:?}");
    assert!(
        err.to_string()
            .contains("4 bytes follow the 4 bytes of data"),
        "{err}"
    );
    // A shape whose element count overflows.
    let h = "{'descr': '<f4', 'fortran_order': False, 'shape': (4294967296, 4294967296, 4), }\n";
    let err = npy_err(npy_with_header(h, &[]));
    assert!(err.to_string().contains("bad shape"), "{err}");
    // Zero-width strings would be elements no byte pays for.
    let h = "{'descr': '|S0', 'fortran_order': False, 'shape': (1000000000,), }\n";
    let err = npy_err(npy_with_header(h, &[]));
    assert!(err.to_string().contains("hold no bytes"), "{err}");
}

#[test]
fn unknown_dtypes_versions_and_values() {
    for (descr, needle) in [
        ("<q8", "no TensorFlow equivalent"),
        ("<f16", "no TensorFlow equivalent"),
        ("|O", "never unpickled"),
        ("<m8[s]", "not a plain NumPy type"),
    ] {
        let h = format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': (1,), }}\n");
        let err = npy_err(npy_with_header(&h, &[0; 8]));
        assert!(err.to_string().contains(needle), "{descr}: {err}");
        assert!(err.to_string().contains(descr), "{descr}: {err}");
    }
    let mut v4 = npy_with_header("{}", &[]);
    v4[6] = 4;
    assert!(
        npy_err(v4)
            .to_string()
            .contains("unsupported .npy format version 4.0")
    );
    assert!(
        npy_err(b"PK\x03\x04 not npy".to_vec())
            .to_string()
            .contains("not a .npy file")
    );
    let h = "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }\n";
    let err = npy_err(npy_with_header(h, &[1, 0, 2]));
    assert!(err.to_string().contains("bool element 2 is 2"), "{err}");
    let h = "{'descr': '<U1', 'fortran_order': False, 'shape': (1,), }\n";
    let err = npy_err(npy_with_header(h, &0xD800u32.to_le_bytes()));
    assert!(err.to_string().contains("element 0 holds 0xd800"), "{err}");
}

fn stored_npz() -> Vec<u8> {
    let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    w.add(
        "a",
        &Tensor::from_vec([4], vec![1.0f32, 2.0, 3.0, 4.0]).unwrap(),
    )
    .unwrap();
    w.finish_into().unwrap().into_inner()
}

fn deflated_npz() -> Vec<u8> {
    let mut w = NpzWriter::new(Cursor::new(Vec::new()), true);
    w.add("a", &Tensor::from_vec([64], vec![7i32; 64]).unwrap())
        .unwrap();
    w.finish_into().unwrap().into_inner()
}

fn npz_get(archive: Vec<u8>) -> tftensor::Result<Tensor> {
    let len = archive.len();
    robust("npz", len, || {
        let mut r = NpzReader::new(Cursor::new(archive), "bad.npz")?;
        r.get("a")
    })
}

#[test]
fn npz_truncated_corrupt_and_lying_members() {
    for archive in [stored_npz(), deflated_npz()] {
        for cut in 0..archive.len() {
            assert!(npz_get(archive[..cut].to_vec()).is_err(), "cut at {cut}");
        }
    }
    // A flipped data byte: the CRC catches it, stored and deflated.
    let mut s = stored_npz();
    let at = s
        .windows(4)
        .position(|w| w == 1.0f32.to_le_bytes())
        .unwrap();
    s[at] ^= 1;
    let err = npz_get(s).unwrap_err();
    assert!(err.to_string().to_lowercase().contains("checksum"), "{err}");
    let mut d = deflated_npz();
    let data_at = 30 + "a.npy".len() + 20;
    d[data_at] ^= 0x55;
    assert!(npz_get(d).is_err());
    // A central directory that claims a 1 TB stored member.
    let mut s = stored_npz();
    let cd = s.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
    s[cd + 24..cd + 28].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = npz_get(s).unwrap_err();
    assert!(err.to_string().contains("bad.npz"), "{err}");
    // A deflated member claiming a ratio DEFLATE cannot reach.
    let mut d = deflated_npz();
    let cd = d.windows(4).rposition(|w| w == b"PK\x01\x02").unwrap();
    d[cd + 24..cd + 28].copy_from_slice(&u32::MAX.to_le_bytes());
    let err = npz_get(d).unwrap_err();
    assert!(err.to_string().contains("cannot be"), "{err}");
    // Not a zip at all.
    assert!(matches!(
        npz_get(b"\x93NUMPY not a zip".to_vec()).unwrap_err(),
        Error::InvalidFormat { format: "npz", .. }
    ));
}

fn st_file(header: &str, data: &[u8]) -> Vec<u8> {
    let mut out = (header.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

fn st_err(input: Vec<u8>) -> Error {
    let len = input.len();
    robust("safetensors", len, || load_bytes(Bytes::from(input))).unwrap_err()
}

#[test]
fn safetensors_bad_input() {
    let good = std::fs::read(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/safetensors/all_dtypes.safetensors"),
    )
    .unwrap();
    for cut in 0..good.len() {
        let e = st_err(good[..cut].to_vec());
        assert!(
            matches!(
                e,
                Error::InvalidFormat {
                    format: "safetensors",
                    ..
                }
            ),
            "{e:?}"
        );
    }
    // Header length far beyond the file.
    let mut huge = u64::MAX.to_le_bytes().to_vec();
    huge.extend_from_slice(b"{}");
    assert!(st_err(huge).to_string().contains("header"));
    let mut big = (1u64 << 40).to_le_bytes().to_vec();
    big.extend_from_slice(b"{}");
    assert!(st_err(big).to_string().contains("header too large"));
    // Shape and offsets that disagree.
    let e = st_err(st_file(
        r#"{"x":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}"#,
        &[0; 8],
    ));
    assert!(
        e.to_string()
            .contains("invalid shape, data type, or offset"),
        "{e}"
    );
    // Offsets past the data.
    let e = st_err(st_file(
        r#"{"x":{"dtype":"F32","shape":[2],"data_offsets":[0,8]}}"#,
        &[0; 4],
    ));
    assert!(e.to_string().contains("incomplete metadata"), "{e}");
    // A dtype the format does not know.
    let e = st_err(st_file(
        r#"{"x":{"dtype":"Q9","shape":[1],"data_offsets":[0,1]}}"#,
        &[0],
    ));
    assert!(e.to_string().contains("Q9"), "{e}");
    // One the format knows but TF does not.
    let e = st_err(st_file(
        r#"{"x":{"dtype":"F8_E8M0","shape":[1],"data_offsets":[0,1]}}"#,
        &[0],
    ));
    assert!(e.to_string().contains("dtype F8_E8M0"), "{e}");
    assert_eq!(e.key(), Some("x"), "{e}");
    // A bool that is not 0 or 1.
    let e = st_err(st_file(
        r#"{"flags":{"dtype":"BOOL","shape":[2],"data_offsets":[0,2]}}"#,
        &[1, 5],
    ));
    assert_eq!(e.key(), Some("flags"), "{e}");
    // A huge declared shape with no data.
    let e = st_err(st_file(
        r#"{"x":{"dtype":"F64","shape":[1099511627776,1099511627776],"data_offsets":[0,0]}}"#,
        &[],
    ));
    assert!(matches!(e, Error::InvalidFormat { .. }), "{e}");
}
