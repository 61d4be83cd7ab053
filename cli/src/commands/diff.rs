//! `tftensor diff`: compares two files' tensors by name.

use std::cmp::Ordering;
use std::io::Write;
use std::path::PathBuf;

use anyhow::Result;
use tftensor::bytes::Bytes;
use tftensor::num_complex::Complex;
use tftensor::{DataType, Tensor, TensorShape};

use tftensor::io::{Entry, Format};

use crate::error::at;
use crate::numeric::Shown;
use crate::progress::Progress;
use crate::source::{ReadOptions, format_parser, open};
use tftensor::stats::{Num, Real, RealVisitor};

/// Compare the tensors of two files by name.
///
/// Reports names only in one file, dtype and shape differences, and for
/// each tensor whose values differ, how many do and the largest
/// difference. Two values are equal when |a - b| <= atol + rtol * |b|
/// (exactly equal with the default tolerances of 0; NaN equals NaN).
/// Exit status: 0 when equal, 1 when different, 2 on error.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    tftensor diff training/ckpt-3 converted.safetensors\n  \
    tftensor diff a.npz b.npz --rtol 1e-6 --atol 1e-9")]
pub struct DiffArgs {
    /// The first file, directory or checkpoint prefix.
    pub a: PathBuf,
    /// The second one.
    pub b: PathBuf,
    /// Relative tolerance, times |b|.
    #[arg(long, default_value_t = 0.0)]
    pub rtol: f64,
    /// Absolute tolerance.
    #[arg(long, default_value_t = 0.0)]
    pub atol: f64,
    /// The format of A, instead of detecting it.
    #[arg(long, value_parser = format_parser())]
    pub format_a: Option<Format>,
    /// The format of B, instead of detecting it.
    #[arg(long, value_parser = format_parser())]
    pub format_b: Option<Format>,
    #[command(flatten)]
    pub read: ReadOptions,
}

#[derive(Clone, Copy)]
struct Tol {
    rtol: f64,
    atol: f64,
}

/// Runs `diff`; `Ok(true)` when the files are equal.
pub fn run(args: &DiffArgs) -> Result<bool> {
    for (what, v) in [("--rtol", args.rtol), ("--atol", args.atol)] {
        if v.is_nan() || v < 0.0 {
            anyhow::bail!("{what} must be a number >= 0, not {v}");
        }
    }
    let tol = Tol {
        rtol: args.rtol,
        atol: args.atol,
    };
    let mut a = open(&args.a, args.format_a, &args.read)?;
    let mut b = open(&args.b, args.format_b, &args.read)?;
    let ea = a.entries().to_vec();
    let mut eb = b.entries().to_vec();
    // Two single-tensor files (each named after its file) compare as such.
    if a.format().holds_one_tensor() && b.format().holds_one_tensor() {
        if let (Some(x), Some(y)) = (ea.first(), eb.first_mut()) {
            y.name.clone_from(&x.name);
        }
    }
    let find = |entries: &[Entry], name: &str| entries.iter().position(|e| e.name == name);
    let total: u64 = ea.iter().filter_map(|e| e.byte_len).sum();
    let mut progress = Progress::new("comparing", total);
    let mut out = super::stdout();
    let (mut differ, mut compared) = (0usize, 0usize);
    for (i, x) in ea.iter().enumerate() {
        let Some(j) = find(&eb, &x.name) else {
            writeln!(out, "only in {}: {}", args.a.display(), x.name)?;
            differ += 1;
            continue;
        };
        let Some(y) = eb.get(j) else {
            continue;
        };
        compared += 1;
        progress.advance(0);
        let found = if x.dtype != y.dtype {
            Some(format!("dtype {} vs {}", x.dtype.name(), y.dtype.name()))
        } else if x.shape != y.shape {
            Some(format!(
                "shape {} vs {}",
                x.shape.debug_string(),
                y.shape.debug_string()
            ))
        } else {
            let ta = a.read(i).map_err(|e| at(&args.a, &x.name, e))?;
            let tb = b.read(j).map_err(|e| at(&args.b, &y.name, e))?;
            compare(&ta, &tb, tol).map_err(|e| at(&args.b, &x.name, e))?
        };
        progress.advance(x.byte_len.unwrap_or(0));
        if let Some(what) = found {
            writeln!(out, "{}: {what}", x.name)?;
            differ += 1;
        }
    }
    for y in &eb {
        if find(&ea, &y.name).is_none() {
            writeln!(out, "only in {}: {}", args.b.display(), y.name)?;
            differ += 1;
        }
    }
    drop(progress);
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    if differ == 0 {
        writeln!(out, "equal: {compared} tensor{}", plural(compared))?;
    } else {
        writeln!(
            out,
            "different: {differ} difference{}, {compared} tensor{} in both",
            plural(differ),
            plural(compared)
        )?;
    }
    out.flush()?;
    Ok(differ == 0)
}

/// The worst element found so far: its index, its difference (NaN above
/// infinity above every finite difference) and its two values as text.
struct Worst {
    index: usize,
    diff: f64,
    a: String,
    b: String,
}

/// A tally of differing elements.
struct Tally {
    count: usize,
    worst: Option<Worst>,
    /// Whether elements have a distance (else the first is the worst).
    by_distance: bool,
}

impl Default for Tally {
    fn default() -> Tally {
        Tally {
            count: 0,
            worst: None,
            by_distance: true,
        }
    }
}

impl Tally {
    fn note(&mut self, index: usize, diff: f64, show: impl FnOnce() -> (String, String)) {
        self.count += 1;
        let worse = self
            .worst
            .as_ref()
            .is_none_or(|w| diff.abs().total_cmp(&w.diff.abs()) == Ordering::Greater);
        if worse {
            let (a, b) = show();
            self.worst = Some(Worst {
                index,
                diff: diff.abs(),
                a,
                b,
            });
        }
    }

    fn report(self, shape: &TensorShape, n: usize) -> Option<String> {
        let w = self.worst?;
        // Strings have no distance: their first difference is reported.
        let which = if self.by_distance {
            format!(
                "largest difference {}",
                Shown(Num::Float(w.diff), DataType::Double)
            )
        } else {
            "first".to_string()
        };
        Some(format!(
            "{} of {n} values differ; {which} at {}: {} vs {}",
            self.count,
            index_text(shape, w.index),
            w.a,
            w.b
        ))
    }
}

/// Compares two tensors of the same dtype and shape: `None` when equal
/// within `tol`, else what differs.
fn compare(a: &Tensor, b: &Tensor, tol: Tol) -> tftensor::Result<Option<String>> {
    let shape = a.shape();
    let n = usize::try_from(a.num_elements()).unwrap_or(0);
    let tally = match a.visit_real(CompareReal { b, tol })? {
        Some(tally) => tally?,
        None => match a.dtype() {
            DataType::Complex64 => {
                compare_complex(a.as_slice::<Complex<f32>>()?, b.as_slice()?, tol)
            }
            DataType::Complex128 => {
                compare_complex(a.as_slice::<Complex<f64>>()?, b.as_slice()?, tol)
            }
            DataType::String => compare_strings(a.as_slice::<Bytes>()?, b.as_slice::<Bytes>()?),
            // Resource handles and variants: equal or not as a whole.
            _ => return Ok((a != b).then(|| "values differ".to_string())),
        },
    };
    Ok(tally.report(shape, n))
}

/// Compares real-number elements against `b`'s, of the same dtype.
struct CompareReal<'a> {
    b: &'a Tensor,
    tol: Tol,
}

impl RealVisitor for CompareReal<'_> {
    type Output = tftensor::Result<Tally>;
    fn visit<T: Real>(self, a: &[T]) -> tftensor::Result<Tally> {
        let dtype = T::DTYPE;
        let mut tally = Tally::default();
        for (k, (&x, &y)) in a.iter().zip(self.b.as_slice::<T>()?).enumerate() {
            let (x, y) = (x.num(), y.num());
            let (close, diff) = close(x, y, self.tol);
            if !close {
                tally.note(k, diff, || {
                    (Shown(x, dtype).to_string(), Shown(y, dtype).to_string())
                });
            }
        }
        Ok(tally)
    }
}

/// Whether `x` is within `tol` of `y`, and |x - y|.
fn close(x: Num, y: Num, tol: Tol) -> (bool, f64) {
    match (x, y) {
        (Num::Int(x), Num::Int(y)) => {
            if x == y {
                return (true, 0.0);
            }
            let diff = x.abs_diff(y) as f64;
            (diff <= tol.atol + tol.rtol * (y as f64).abs(), diff)
        }
        (x, y) => {
            let (x, y) = (x.to_f64(), y.to_f64());
            if x == y || (x.is_nan() && y.is_nan()) {
                return (true, 0.0);
            }
            let diff = (x - y).abs();
            (diff <= tol.atol + tol.rtol * y.abs(), diff)
        }
    }
}

trait ComplexParts: Copy {
    /// The dtype of the real and imaginary parts.
    const PART: DataType;
    fn parts(self) -> (f64, f64);
}

impl ComplexParts for Complex<f32> {
    const PART: DataType = DataType::Float;
    fn parts(self) -> (f64, f64) {
        (f64::from(self.re), f64::from(self.im))
    }
}

impl ComplexParts for Complex<f64> {
    const PART: DataType = DataType::Double;
    fn parts(self) -> (f64, f64) {
        (self.re, self.im)
    }
}

fn compare_complex<T: ComplexParts>(a: &[T], b: &[T], tol: Tol) -> Tally {
    let mut tally = Tally::default();
    for (k, (&x, &y)) in a.iter().zip(b).enumerate() {
        let ((xr, xi), (yr, yi)) = (x.parts(), y.parts());
        let same = |p: f64, q: f64| p == q || (p.is_nan() && q.is_nan());
        if same(xr, yr) && same(xi, yi) {
            continue;
        }
        let diff = (xr - yr).hypot(xi - yi);
        // NaN differences are never within tolerance.
        let within = diff <= tol.atol + tol.rtol * yr.hypot(yi);
        if !within {
            tally.note(k, diff, || {
                let text = |re: f64, im: f64| {
                    let part = |v: f64| Shown(Num::Float(v), T::PART).to_string();
                    format!("({},{})", part(re), part(im))
                };
                (text(xr, xi), text(yr, yi))
            });
        }
    }
    tally
}

fn compare_strings(a: &[Bytes], b: &[Bytes]) -> Tally {
    let mut tally = Tally {
        by_distance: false,
        ..Tally::default()
    };
    let quoted = |s: &Bytes| format!("{:?}", String::from_utf8_lossy(s));
    for (k, (x, y)) in a.iter().zip(b).enumerate() {
        if x != y {
            // Every difference ties at 0, so the first one stays.
            tally.note(k, 0.0, || (quoted(x), quoted(y)));
        }
    }
    tally
}

/// The multi-index `[i,j,...]` of flat index `k` in `shape`.
fn index_text(shape: &TensorShape, mut k: usize) -> String {
    let dims = shape.dim_sizes();
    let mut index = vec![0usize; dims.len()];
    for (slot, &d) in index.iter_mut().zip(&dims).rev() {
        let d = usize::try_from(d).unwrap_or(1).max(1);
        *slot = k % d;
        k /= d;
    }
    let parts: Vec<String> = index.iter().map(usize::to_string).collect();
    format!("[{}]", parts.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXACT: Tol = Tol {
        rtol: 0.0,
        atol: 0.0,
    };

    #[test]
    fn closeness() {
        assert_eq!(
            close(Num::Float(f64::NAN), Num::Float(f64::NAN), EXACT),
            (true, 0.0)
        );
        assert!(!close(Num::Float(f64::NAN), Num::Float(1.0), EXACT).0);
        assert!(close(Num::Float(-0.0), Num::Float(0.0), EXACT).0);
        assert!(close(Num::Float(f64::INFINITY), Num::Float(f64::INFINITY), EXACT).0);
        let loose = Tol {
            rtol: 0.1,
            atol: 0.0,
        };
        assert!(close(Num::Float(1.05), Num::Float(1.0), loose).0);
        assert!(!close(Num::Float(1.2), Num::Float(1.0), loose).0);
        assert!(
            !close(
                Num::Int(i128::from(u64::MAX)),
                Num::Int(i128::from(u64::MAX) - 1),
                EXACT
            )
            .0
        );
    }

    #[test]
    fn indices() {
        let shape = TensorShape::new(&[2, 3]).unwrap();
        assert_eq!(index_text(&shape, 5), "[1,2]");
        assert_eq!(index_text(&TensorShape::scalar(), 0), "[]");
    }
}
