//! `IxDyn` view construction alone, in a binary of its own: the same pairs
//! as `views_construct`'s `IxDyn` rows, without the other paths of
//! `benches/views.rs` beside them. In that bigger binary the same code
//! measures 1.2× ndarray's `ArrayViewD::from_shape`; here it measures
//! 0.5–0.85×, so that row depends on code placement (see BENCHMARKS.md, "Core
//! v2", round 3).

mod common;

use std::hint::black_box;

use ndarray::{ArrayViewD, IxDyn};
use tftensor::{Tensor, TypedTensor};

fn main() {
    if common::mode() == common::Mode::Test {
        return;
    }
    let v: Vec<f32> = common::f32_data(100_000);
    let t = Tensor::from_vec([100i64, 1000], v.clone()).unwrap();
    let ty = TypedTensor::from_vec([100i64, 1000], v.clone()).unwrap();
    let s: &[f32] = &v;
    let base = || {
        ArrayViewD::from_shape(IxDyn(black_box(&[100, 1000])), black_box(s))
            .unwrap()
            .as_ptr()
    };
    common::paired(
        "views_dyn_alone/tensor_view_dyn_vs_arrayviewd_from_shape",
        || black_box(&t).tensor::<f32, IxDyn>().unwrap().as_ptr(),
        base,
    );
    common::paired(
        "views_dyn_alone/typed_view_vs_arrayviewd_from_shape",
        || black_box(&ty).view().as_ptr(),
        base,
    );
}
