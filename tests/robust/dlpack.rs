//! Foreign DLPack tensors that describe their elements wrongly: every
//! dtype code (known and unknown) with odd bit widths and lane counts,
//! the sub-byte padding flag on and off, and negative or zero dims. Each
//! import is a tensor or an error, never a panic, and the producer's
//! memory is 128 bytes, which no accepted description exceeds.
//!
//! Only the values inside a valid struct change: DLPack carries no buffer
//! length, so a shape larger than the producer's memory is the producer's
//! bug, outside what an importer can detect.
#![cfg(feature = "dlpack")]

use std::panic::{AssertUnwindSafe, catch_unwind};

use tftensor::Tensor;
use tftensor::dlpack::{self, DLDataType, FLAG_IS_SUBBYTE_TYPE_PADDED};

#[test]
fn wrong_element_descriptions_never_panic() {
    let mut accepted = 0;
    let mut refused = 0;
    for code in (0u8..=20).chain([64, 255]) {
        for bits in [0u8, 1, 2, 3, 4, 6, 7, 8, 12, 16, 32, 64, 128, 255] {
            for lanes in [0u16, 1, 2, 4] {
                for flags in [0, FLAG_IS_SUBBYTE_TYPE_PADDED] {
                    for dim in [1i64, 0, -1, i64::MIN] {
                        let producer = Tensor::from_vec([128], vec![0u8; 128]).unwrap();
                        let raw = dlpack::export(producer).unwrap().into_raw();
                        // SAFETY: `raw` is a live export this test owns until
                        // `import` takes it; its shape has `ndim` (1) entries.
                        unsafe {
                            (*raw).dl_tensor.dtype = DLDataType { code, bits, lanes };
                            *(*raw).dl_tensor.shape = dim;
                            (*raw).flags |= flags;
                        }
                        let what = format!(
                            "code {code} bits {bits} lanes {lanes} flags {flags} dim {dim}"
                        );
                        // SAFETY: `raw` is a valid versioned tensor whose one
                        // element (at most 255 * 4 bits) fits in 128 bytes.
                        let r = catch_unwind(AssertUnwindSafe(|| unsafe { dlpack::import(raw) }))
                            .unwrap_or_else(|_| panic!("{what}: panicked"));
                        match r {
                            Ok(t) => {
                                assert!(dim >= 0, "{what}: accepted");
                                assert_eq!(t.num_elements(), dim, "{what}");
                                accepted += 1;
                            }
                            Err(_) => refused += 1,
                        }
                    }
                }
            }
        }
    }
    assert!(
        accepted > 0 && refused > 0,
        "{accepted} accepted, {refused} refused"
    );
}
