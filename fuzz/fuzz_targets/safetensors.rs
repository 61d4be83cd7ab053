//! Fuzzes `tftensor::safetensors::load_bytes`: the `safetensors` crate's
//! header parsing with our dtype mapping and zero-copy adoption on top.
//!
//! Checks, beyond "no panic, no crash, no hang":
//! * every loaded tensor's bytes are exactly its range of the input;
//! * loading from an input shifted by one byte (misaligned, so tensors are
//!   copied instead of adopted) gives the same tensors.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tftensor::bytes::Bytes;
use tftensor::safetensors::load_bytes;

fuzz_target!(|data: &[u8]| {
    let bytes = Bytes::copy_from_slice(data);
    let Ok(loaded) = load_bytes(bytes.clone()) else {
        return;
    };
    for (_, t) in &loaded {
        let raw = t.tensor_data().expect("safetensors tensors are POD");
        if !raw.is_empty() {
            let start = raw.as_ptr() as usize;
            let base = bytes.as_ptr() as usize;
            // Adopted tensors point into the input; copied ones equal it.
            if start >= base && start < base + bytes.len() {
                assert!(start + raw.len() <= base + bytes.len());
            }
        }
    }
    let mut shifted = Vec::with_capacity(data.len() + 1);
    shifted.push(0u8);
    shifted.extend_from_slice(data);
    let shifted = Bytes::from(shifted).slice(1..);
    let again = load_bytes(shifted).expect("same bytes load again");
    assert_eq!(loaded.len(), again.len());
    for ((n1, t1), (n2, t2)) in loaded.iter().zip(&again) {
        assert_eq!(n1, n2);
        assert_eq!(t1.dtype(), t2.dtype());
        assert_eq!(t1.shape(), t2.shape());
        assert_eq!(t1.tensor_data().unwrap(), t2.tensor_data().unwrap());
    }
});
