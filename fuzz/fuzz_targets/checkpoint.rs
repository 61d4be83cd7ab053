//! Fuzzes `BundleReader::from_bytes` over an in-memory bundle: the input is
//! `u32 LE index length | index bytes | data shard 0 bytes` (see
//! fuzz/seed-corpus.sh for seeds made from the TF 2.21 fixtures).
//!
//! Checks, beyond "no panic, no crash, no hang, no allocation the input
//! did not pay for" (max_bytes 16 MiB; libFuzzer's -rss_limit_mb):
//! * every listed key answers `dtype_and_shape`, `get` and a full
//!   `get_slice` with a value or an error;
//! * the tensors that read back are written again with `BundleWriter`, and
//!   reading and writing that bundle once more gives the same bytes.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tftensor::bytes::Bytes;
use tftensor::checkpoint::{BundleReader, BundleWriter, TensorSlice};
use tftensor::{FromProtoOptions, Tensor};

fn open(index: Bytes, data: Bytes) -> Option<BundleReader> {
    let r = BundleReader::from_bytes(index, vec![data]).ok()?;
    Some(r.with_limits(FromProtoOptions::default().with_max_bytes(16 << 20)))
}

/// Reads every key; returns the tensors that read.
fn read_all(r: &BundleReader) -> Vec<(String, Tensor)> {
    let mut out = Vec::new();
    for key in r.keys() {
        let meta = r.dtype_and_shape(key);
        let got = r.get(key);
        if let (Ok((dtype, shape)), Ok(t)) = (&meta, &got) {
            assert_eq!(t.dtype(), *dtype);
            assert_eq!(t.shape(), shape);
            let _ = r.get_slice(key, &TensorSlice::full(shape.dims()));
        }
        if let Ok(t) = got {
            out.push((key.to_owned(), t));
        }
    }
    out
}

fn write_all(tensors: &[(String, Tensor)]) -> Option<(Vec<u8>, Vec<u8>)> {
    let mut w = BundleWriter::in_memory();
    for (k, t) in tensors {
        // Resource tensors cannot be written (nor, here, read).
        w.add(k, t).ok()?;
    }
    w.finish_to_bytes().ok()
}

fuzz_target!(|input: &[u8]| {
    let Some((len, rest)) = input.split_first_chunk::<4>() else {
        return;
    };
    let n = (u32::from_le_bytes(*len) as usize).min(rest.len());
    let (index, data) = rest.split_at(n);
    let Some(r) = open(Bytes::copy_from_slice(index), Bytes::copy_from_slice(data)) else {
        return;
    };
    let _ = format!("{r:?}");
    let tensors = read_all(&r);
    let Some((index1, data1)) = write_all(&tensors) else {
        return;
    };
    let r1 = open(index1.clone().into(), data1.clone().into()).expect("own bundle must open");
    let again = read_all(&r1);
    assert_eq!(
        again.len(),
        tensors.len(),
        "every written tensor reads back"
    );
    let (index2, data2) = write_all(&again).expect("own tensors must write");
    assert_eq!(index1, index2);
    assert_eq!(data1, data2);
});
