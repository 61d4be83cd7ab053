//! `IxDyn` view construction alone, in a binary of its own: the same pairs
//! as `views_construct`'s `IxDyn` rows, without the other paths of
//! `benches/views.rs` beside them. In that bigger binary the same code
//! measures 1.2× ndarray's `ArrayViewD::from_shape`; here it measures
//! 0.5–0.85×, so that row depends on code placement (see BENCHMARKS.md, "Core
//! v2", round 3). Also: the cheapest `ArrayViewD` ndarray can build (a
//! fixed-rank view, then `into_dyn`), and a 1e3-element sum over views
//! against the owned `ArrayD`, which shows what any `IxDyn` view costs.

mod common;

use std::hint::black_box;

use ndarray::{ArrayD, ArrayView2, ArrayViewD, IxDyn};
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
    common::paired(
        "views_dyn_alone/arrayview2_into_dyn_vs_arrayviewd_from_shape",
        || {
            ArrayView2::from_shape(black_box((100, 1000)), black_box(s))
                .unwrap()
                .into_dyn()
                .as_ptr()
        },
        base,
    );

    // Sum of 1e3 elements: any `IxDyn` view against the owned `ArrayD`.
    let w: Vec<f32> = common::f32_data(1000);
    let small = Tensor::from_vec([10i64, 100], w.clone()).unwrap();
    let ws: &[f32] = &w;
    let owned = ArrayD::from_shape_vec(IxDyn(&[10, 100]), w.clone()).unwrap();
    let owned_sum = || black_box(black_box(&owned).sum());
    common::paired(
        "views_dyn_sum/tensor_view_dyn_vs_ndarray_dyn/1e3",
        || black_box(black_box(&small).tensor::<f32, IxDyn>().unwrap().sum()),
        owned_sum,
    );
    common::paired(
        "views_dyn_sum/arrayviewd_from_shape_vs_ndarray_dyn/1e3",
        || {
            let v = ArrayViewD::from_shape(IxDyn(black_box(&[10, 100])), black_box(ws)).unwrap();
            black_box(v.sum())
        },
        owned_sum,
    );
    common::paired(
        "views_dyn_sum/arrayview2_into_dyn_vs_ndarray_dyn/1e3",
        || {
            let v = ArrayView2::from_shape(black_box((10, 100)), black_box(ws)).unwrap();
            black_box(v.into_dyn().sum())
        },
        owned_sum,
    );
}
