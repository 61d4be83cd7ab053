//! Fuzzes `tftensor::tflite::TfliteFile` (the checked FlatBuffers reader
//! over a blob) and the TF.js string/shard reader's model as a `.tflite`:
//! listing, reading every stored tensor, the metadata buffers and the
//! signatures text.
//!
//! Checks, beyond "no panic, no crash, no hang":
//! * every read tensor has the dtype and shape it was listed with;
//! * the same bytes read through a misaligned copy give the same tensors
//!   (copied instead of adopted in place);
//! * `read_all` from a blob that is not in memory (one read of the
//!   payloads' span, then slices) gives the same tensors, or fails where
//!   a read one by one fails, with the same kind.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use tftensor::bytes::Bytes;
use tftensor::io::{Blob, BytesBlob};
use tftensor::tflite::TfliteFile;

#[path = "../../tests/common/unmapped.rs"]
mod unmapped;
use unmapped::Unmapped;

fn read_all(bytes: Bytes) -> Option<Vec<Result<tftensor::Tensor, tftensor::ErrorKind>>> {
    let blob: Arc<dyn Blob> = Arc::new(BytesBlob::new("fuzz.tflite", bytes));
    let f = TfliteFile::from_blob(blob).ok()?;
    for m in &f.model().metadata {
        let _ = f.metadata_bytes(&m.name);
    }
    let out = (0..f.tensors().len())
        .map(|i| {
            let r = f.read(i).map_err(|e| e.kind());
            if let Ok(t) = &r {
                let e = &f.tensors()[i].entry;
                assert_eq!((t.dtype(), t.shape()), (e.dtype, &e.shape));
            }
            r
        })
        .collect();
    Some(out)
}

fuzz_target!(|data: &[u8]| {
    let first = read_all(Bytes::copy_from_slice(data));
    let mut shifted = Vec::with_capacity(data.len() + 1);
    shifted.push(0u8);
    shifted.extend_from_slice(data);
    let again = read_all(Bytes::from(shifted).slice(1..));
    assert_eq!(first.is_some(), again.is_some());
    if let (Some(a), Some(b)) = (&first, again) {
        assert_eq!(*a, b);
    }
    if let Some(each) = first {
        let blob: Arc<dyn Blob> = Arc::new(Unmapped(BytesBlob::new("fuzz.tflite", data.to_vec())));
        let all = TfliteFile::from_blob(blob).and_then(|f| f.read_all());
        match (each.into_iter().collect::<Result<Vec<_>, _>>(), all) {
            (Ok(a), Ok(b)) => assert_eq!(a, b),
            (Err(a), Err(b)) => assert_eq!(a, b.kind()),
            (a, b) => panic!("one by one {a:?}, read_all {b:?}"),
        }
    }
});
