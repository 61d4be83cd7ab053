//! `dlpack::live_exports` counts every export alive in the process, so it is
//! tested in a binary of its own, where no other test exports meanwhile.
#![cfg(feature = "dlpack")]

use tftensor::{Tensor, dlpack};

#[test]
fn live_exports_count_returns_to_zero() {
    let t = Tensor::from_vec([8], (0..8).map(|i| i as f32).collect()).unwrap();
    assert_eq!(dlpack::live_exports(), 0);
    let a = dlpack::export(t.clone()).unwrap();
    let b = dlpack::export_legacy(t.deep_copy().unwrap()).unwrap();
    assert_eq!(dlpack::live_exports(), 2);
    // Importing our own export keeps its context alive until the tensor drops.
    let imported = dlpack::from_managed(a).unwrap();
    assert_eq!(dlpack::live_exports(), 2);
    drop(b);
    assert_eq!(dlpack::live_exports(), 1);
    drop(t);
    drop(imported);
    assert_eq!(dlpack::live_exports(), 0);
}
