//! Suite 1: the cost of reaching data through a tensor's typed views,
//! against the same ndarray operation on a raw `Array` holding the same
//! data. Our routines build the view inside the timed loop (as a caller
//! would), so view construction is included in every figure.
//!
//! Each path is a criterion benchmark `views_<op>/<path>/<n>`; each pair
//! (ours, raw ndarray of the same rank) also gets an interleaved A/B ratio
//! (`common::paired`), which is what BENCHMARKS.md reports. Two baselines:
//! the owned `Array` (no view built at all) and ndarray's own view of the
//! same slice (`ArrayView*::from_shape`, what any view costs), so a ratio
//! against the second isolates our view path.

mod common;

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{
    Array1, Array2, ArrayD, ArrayView1, ArrayView2, ArrayViewD, ArrayViewMut1, ArrayViewMut2,
    ArrayViewMutD, Ix2, IxDyn,
};
use tftensor::{Tensor, TypedTensor};

/// (label, rows, cols); rows * cols elements.
fn sizes() -> Vec<(&'static str, usize, usize)> {
    let big = if common::mode() == common::Mode::Test {
        (100, 100)
    } else {
        (1000, 10_000)
    };
    vec![
        ("1e3", 10, 100),
        ("1e4", 100, 100),
        ("1e5", 100, 1000),
        ("1e7", big.0, big.1),
    ]
}

/// (ours, raw-ndarray baseline) pairs.
const PAIRS: [(&str, &str); 10] = [
    ("tensor_flat", "ndarray_1d"),
    ("tensor_matrix", "ndarray_2d"),
    ("tensor_view_dyn", "ndarray_dyn"),
    ("typed_view", "ndarray_dyn"),
    ("typed_view_d", "ndarray_2d"),
    ("tensor_matrix", "arrayview2_from_shape"),
    ("tensor_flat", "arrayview1_from_shape"),
    ("tensor_view_dyn", "arrayviewd_from_shape"),
    ("typed_view", "arrayviewd_from_shape"),
    ("typed_view_d", "arrayview2_from_shape"),
];

struct Data {
    tensor: Tensor,
    typed: TypedTensor<f32>,
    a1: Array1<f32>,
    a2: Array2<f32>,
    ad: ArrayD<f32>,
}

fn data(rows: usize, cols: usize, salt: usize) -> Data {
    let v: Vec<f32> = common::f32_data(rows * cols + salt).split_off(salt);
    let shape = [rows as i64, cols as i64];
    Data {
        tensor: Tensor::from_vec(shape, v.clone()).unwrap(),
        typed: TypedTensor::from_vec(shape, v.clone()).unwrap(),
        a1: Array1::from_vec(v.clone()),
        a2: Array2::from_shape_vec((rows, cols), v.clone()).unwrap(),
        ad: ArrayD::from_shape_vec(IxDyn(&[rows, cols]), v).unwrap(),
    }
}

/// Keeps a result alive for the optimizer, whatever its type.
fn sink<T>(v: T) {
    black_box(v);
}

type Path<'a> = (&'static str, Box<dyn FnMut() + 'a>);

/// Runs every path as a criterion benchmark, then the paired ratios.
fn run(c: &mut Criterion, group: &str, label: &str, bytes: Option<u64>, mut paths: Vec<Path<'_>>) {
    if !common::paired_only() {
        let mut g = c.benchmark_group(group);
        if let Some(b) = bytes {
            g.throughput(Throughput::Bytes(b));
        }
        for (id, f) in paths.iter_mut() {
            let bid = if label.is_empty() {
                BenchmarkId::from_parameter(*id)
            } else {
                BenchmarkId::new(*id, label)
            };
            g.bench_function(bid, |b| b.iter(&mut *f));
        }
        g.finish();
    }
    for (ours, base) in PAIRS {
        let (Some(i), Some(j)) = (
            paths.iter().position(|p| p.0 == ours),
            paths.iter().position(|p| p.0 == base),
        ) else {
            continue;
        };
        // Two disjoint `&mut` into `paths`.
        let (lo, hi) = paths.split_at_mut(i.max(j));
        let (pi, pj) = if i < j {
            (&mut lo[i], &mut hi[0])
        } else {
            (&mut hi[0], &mut lo[j])
        };
        let name = if label.is_empty() {
            format!("{group}/{ours}_vs_{base}")
        } else {
            format!("{group}/{ours}_vs_{base}/{label}")
        };
        common::paired(&name, &mut pi.1, &mut pj.1);
    }
}

fn sum(c: &mut Criterion) {
    for (label, rows, cols) in sizes() {
        let d = data(rows, cols, 0);
        let n = rows * cols;
        let s: &[f32] = d.a1.as_slice().unwrap();
        let paths: Vec<Path<'_>> = vec![
            (
                "tensor_flat",
                Box::new(|| sink(black_box(black_box(&d.tensor).flat::<f32>().unwrap().sum()))),
            ),
            (
                "ndarray_1d",
                Box::new(|| sink(black_box(black_box(&d.a1).sum()))),
            ),
            (
                "tensor_matrix",
                Box::new(|| {
                    sink(black_box(
                        black_box(&d.tensor).matrix::<f32>().unwrap().sum(),
                    ))
                }),
            ),
            (
                "ndarray_2d",
                Box::new(|| sink(black_box(black_box(&d.a2).sum()))),
            ),
            (
                "tensor_view_dyn",
                Box::new(|| {
                    sink(black_box(
                        black_box(&d.tensor).tensor::<f32, IxDyn>().unwrap().sum(),
                    ))
                }),
            ),
            (
                "ndarray_dyn",
                Box::new(|| sink(black_box(black_box(&d.ad).sum()))),
            ),
            (
                "typed_view",
                Box::new(|| sink(black_box(black_box(&d.typed).view().sum()))),
            ),
            // ndarray's own views over a slice: what any view costs.
            (
                "arrayview1_from_shape",
                Box::new(|| {
                    let v = ArrayView1::from_shape(black_box(n), black_box(s)).unwrap();
                    sink(black_box(v.sum()))
                }),
            ),
            (
                "arrayview2_from_shape",
                Box::new(|| {
                    let v = ArrayView2::from_shape(black_box((rows, cols)), black_box(s)).unwrap();
                    sink(black_box(v.sum()))
                }),
            ),
            (
                "arrayviewd_from_shape",
                Box::new(|| {
                    let v = ArrayViewD::from_shape(IxDyn(black_box(&[rows, cols])), black_box(s))
                        .unwrap();
                    sink(black_box(v.sum()))
                }),
            ),
            (
                "typed_view_d",
                Box::new(|| {
                    sink(black_box(
                        black_box(&d.typed).tensor::<Ix2>().unwrap().sum(),
                    ))
                }),
            ),
        ];
        run(c, "views_sum", label, Some((rows * cols * 4) as u64), paths);
    }
}

/// `y += a * x` (ndarray's `scaled_add`). Each path owns its own `y` (same
/// values); `a` is tiny so `y` stays finite however many iterations run.
fn axpy(c: &mut Criterion) {
    const A: f32 = 1e-7;
    for (label, rows, cols) in sizes() {
        let x = data(rows, cols, 0);
        let x = &x;
        let yv: Vec<f32> = common::f32_data(rows * cols + 7).split_off(7);
        let shape = [rows as i64, cols as i64];
        let tensor = || Tensor::from_vec(shape, yv.clone()).unwrap();
        let typed = || TypedTensor::from_vec(shape, yv.clone()).unwrap();
        let (mut t1, mut t2, mut t3) = (tensor(), tensor(), tensor());
        let (mut ty1, mut ty2) = (typed(), typed());
        let mut a1 = Array1::from_vec(yv.clone());
        let mut a2 = Array2::from_shape_vec((rows, cols), yv.clone()).unwrap();
        let mut ad = ArrayD::from_shape_vec(IxDyn(&[rows, cols]), yv.clone()).unwrap();
        let (mut y1, mut y2, mut yd) = (yv.clone(), yv.clone(), yv.clone());
        let xs: &[f32] = x.a1.as_slice().unwrap();
        let n = rows * cols;
        let paths: Vec<Path<'_>> = vec![
            (
                "tensor_flat",
                Box::new(move || {
                    let y = black_box(&mut t1);
                    y.flat_mut::<f32>()
                        .unwrap()
                        .scaled_add(A, &x.tensor.flat::<f32>().unwrap())
                }),
            ),
            (
                "ndarray_1d",
                Box::new(move || black_box(&mut a1).scaled_add(A, &x.a1)),
            ),
            (
                "tensor_matrix",
                Box::new(move || {
                    let y = black_box(&mut t2);
                    y.matrix_mut::<f32>()
                        .unwrap()
                        .scaled_add(A, &x.tensor.matrix::<f32>().unwrap())
                }),
            ),
            (
                "ndarray_2d",
                Box::new(move || black_box(&mut a2).scaled_add(A, &x.a2)),
            ),
            (
                "tensor_view_dyn",
                Box::new(move || {
                    let y = black_box(&mut t3);
                    y.tensor_mut::<f32, IxDyn>()
                        .unwrap()
                        .scaled_add(A, &x.tensor.tensor::<f32, IxDyn>().unwrap())
                }),
            ),
            (
                "ndarray_dyn",
                Box::new(move || black_box(&mut ad).scaled_add(A, &x.ad)),
            ),
            (
                "typed_view",
                Box::new(move || {
                    let y = black_box(&mut ty1);
                    y.view_mut().unwrap().scaled_add(A, &x.typed.view())
                }),
            ),
            (
                "typed_view_d",
                Box::new(move || {
                    let y = black_box(&mut ty2);
                    y.tensor_mut::<Ix2>()
                        .unwrap()
                        .scaled_add(A, &x.typed.tensor::<Ix2>().unwrap())
                }),
            ),
            // ndarray's own views over slices: what any pair of views costs.
            (
                "arrayview1_from_shape",
                Box::new(move || {
                    ArrayViewMut1::from_shape(black_box(n), black_box(&mut y1[..]))
                        .unwrap()
                        .scaled_add(A, &ArrayView1::from_shape(black_box(n), xs).unwrap())
                }),
            ),
            (
                "arrayview2_from_shape",
                Box::new(move || {
                    ArrayViewMut2::from_shape(black_box((rows, cols)), black_box(&mut y2[..]))
                        .unwrap()
                        .scaled_add(
                            A,
                            &ArrayView2::from_shape(black_box((rows, cols)), xs).unwrap(),
                        )
                }),
            ),
            (
                "arrayviewd_from_shape",
                Box::new(move || {
                    ArrayViewMutD::from_shape(
                        IxDyn(black_box(&[rows, cols])),
                        black_box(&mut yd[..]),
                    )
                    .unwrap()
                    .scaled_add(
                        A,
                        &ArrayViewD::from_shape(IxDyn(black_box(&[rows, cols])), xs).unwrap(),
                    )
                }),
            ),
        ];
        run(
            c,
            "views_axpy",
            label,
            Some((rows * cols * 4 * 3) as u64),
            paths,
        );
    }
}

/// Building a view: our accessors (dtype, rank and length checks) against
/// ndarray's `from_shape` on a slice of the same rank.
fn construct(c: &mut Criterion) {
    let d = data(100, 1000, 0);
    let s: &[f32] = d.a1.as_slice().unwrap();
    let t = &d.tensor;
    let ty = &d.typed;
    let paths: Vec<Path<'_>> = vec![
        (
            "tensor_matrix",
            Box::new(|| sink(black_box(black_box(t).matrix::<f32>().unwrap().as_ptr()))),
        ),
        (
            "arrayview2_from_shape",
            Box::new(|| {
                sink(black_box(
                    ArrayView2::from_shape(black_box((100, 1000)), black_box(s))
                        .unwrap()
                        .as_ptr(),
                ))
            }),
        ),
        (
            "tensor_flat",
            Box::new(|| sink(black_box(black_box(t).flat::<f32>().unwrap().as_ptr()))),
        ),
        (
            "arrayview1_from_shape",
            Box::new(|| {
                sink(black_box(
                    ArrayView1::from_shape(black_box(100_000), black_box(s))
                        .unwrap()
                        .as_ptr(),
                ))
            }),
        ),
        (
            "tensor_view_dyn",
            Box::new(|| {
                sink(black_box(
                    black_box(t).tensor::<f32, IxDyn>().unwrap().as_ptr(),
                ))
            }),
        ),
        (
            "arrayviewd_from_shape",
            Box::new(|| {
                sink(black_box(
                    ArrayViewD::from_shape(IxDyn(black_box(&[100, 1000])), black_box(s))
                        .unwrap()
                        .as_ptr(),
                ))
            }),
        ),
        (
            "typed_view",
            Box::new(|| sink(black_box(black_box(ty).view().as_ptr()))),
        ),
        (
            "typed_view_d",
            Box::new(|| sink(black_box(black_box(ty).tensor::<Ix2>().unwrap().as_ptr()))),
        ),
    ];
    run(c, "views_construct", "", None, paths);
}

criterion_group! {
    name = benches;
    config = common::config();
    targets = sum, axpy, construct
}
criterion_main!(benches);
