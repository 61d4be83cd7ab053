//! Fuzzes the `.npy` reader (header parser, dtype mapping, byte swap,
//! Fortran transpose, string decoding) and the `.npz` reader on top.
//!
//! Checks, beyond "no panic, no crash, no hang":
//! * the in-memory path (`read_npy_bytes`) and the streaming path (a stored
//!   member of an `.npz` read through `NpzReader::new`) agree: both fail, or
//!   both give the same tensor;
//! * whatever reads re-encodes with `to_npy_bytes`, and that reads back to
//!   the same `.npy` bytes (bit for bit, so NaNs compare);
//! * the input read as an `.npz` archive never panics either.
#![no_main]

use std::io::{Cursor, Write};

use libfuzzer_sys::fuzz_target;
use tftensor::bytes::Bytes;
use tftensor::npy::{read_npy_bytes, read_npy_bytes_as, to_npy_bytes, NpzReader};
use tftensor::DataType;

fn as_stored_npz(data: &[u8]) -> Vec<u8> {
    let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
    let opts =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    w.start_file("a.npy", opts).unwrap();
    w.write_all(data).unwrap();
    w.finish().unwrap().into_inner()
}

fuzz_target!(|data: &[u8]| {
    let bytes = Bytes::copy_from_slice(data);
    let direct = read_npy_bytes(bytes.clone());

    let archive = as_stored_npz(data);
    let mut r = NpzReader::new(Cursor::new(archive), "fuzz.npz").unwrap();
    let streamed = r.get("a");
    match (&direct, &streamed) {
        (Ok(a), Ok(b)) => assert_eq!(
            to_npy_bytes(a).ok(),
            to_npy_bytes(b).ok(),
            "bytes and stream paths disagree"
        ),
        (Err(_), Err(_)) => {}
        _ => panic!("bytes and stream paths disagree: {direct:?} vs {streamed:?}"),
    }

    if let Ok(t) = &direct {
        if let Ok(enc) = to_npy_bytes(t) {
            let back = read_npy_bytes(Bytes::from(enc.clone())).expect("re-encoded npy reads");
            assert_eq!(back.dtype(), t.dtype());
            assert_eq!(back.shape(), t.shape());
            assert_eq!(
                to_npy_bytes(&back).unwrap(),
                enc,
                "re-encoding is not a fixed point"
            );
        }
    }
    for dt in [
        DataType::BFloat16,
        DataType::Float8E4M3FN,
        DataType::QInt8,
        DataType::Bool,
    ] {
        let _ = read_npy_bytes_as(bytes.clone(), dt);
    }
    if let Ok(mut z) = NpzReader::from_bytes(bytes) {
        let names: Vec<String> = z.names().map(str::to_string).collect();
        for n in names.iter().take(8) {
            let _ = z.get(n);
        }
    }
});
