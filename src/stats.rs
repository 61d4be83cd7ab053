//! Element values as numbers: [`Num`], the [`Real`] element types (every
//! integer, float, quantized and bool dtype of the row list), a generic
//! dispatch over them ([`Tensor::visit_real`]) and one-pass
//! [`Stats`] (min, max, mean, NaN and infinity counts).
//!
//! ```
//! use tftensor::{stats::Num, Tensor};
//! let t = Tensor::from_vec([4], vec![1.0f32, f32::NAN, -2.0, 4.0])?;
//! let s = t.stats()?.unwrap();
//! assert_eq!((s.min, s.max, s.mean, s.nan), (Some(Num::Float(-2.0)), Some(Num::Float(4.0)), Some(1.0), 1));
//! # Ok::<(), tftensor::Error>(())
//! ```

use crate::element::{Element, dispatch_dtype};
use crate::error::Result;
use crate::tensor::Tensor;

/// One element's value: integers (and bools) exactly, floats widened to
/// `f64` (exact for every float dtype).
///
/// ```
/// use tftensor::stats::{Num, Real};
/// assert_eq!(u64::MAX.num(), Num::Int(u64::MAX.into()));
/// assert_eq!(tftensor::half::f16::from_f32(0.5).num(), Num::Float(0.5));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// An integer, quantized or bool element.
    Int(i128),
    /// A floating-point element.
    Float(f64),
}

impl Num {
    /// The value as an `f64` (integers beyond 2^53 rounded).
    ///
    /// ```
    /// assert_eq!(tftensor::stats::Num::Int(3).to_f64(), 3.0);
    /// ```
    pub fn to_f64(self) -> f64 {
        match self {
            Num::Int(i) => i as f64,
            Num::Float(x) => x,
        }
    }
}

/// An element type whose values are real numbers: the rows of the dtype
/// list of kind float, int, quantized and bool.
///
/// ```
/// use tftensor::stats::Real;
/// assert!(f32::IS_FLOAT && !tftensor::Int4::IS_FLOAT);
/// assert_eq!(tftensor::Int4::from_bits(0xF).to_f64(), -1.0);
/// ```
pub trait Real: Element + Copy {
    /// Whether the values are floats (which may be NaN or infinite).
    const IS_FLOAT: bool;
    /// The value.
    fn num(self) -> Num;
    /// The value as an `f64` (integers beyond 2^53 rounded).
    fn to_f64(self) -> f64;
}

/// The `Real` impls (and the dispatch probe) of every row, by its `kind`.
macro_rules! real_elements {
    (() $( $konst:ident = $num:literal { name: $name:literal, proto_name: $proto:literal,
        size: $size:literal, kind: $kind:ident, rust: $t:ty, store: $store:ident $(($home:ident))?,
        proto: $codec:tt, summary: $summary:ident, doc: $doc:literal } )*) => {
        $( real_element!($kind, $t); )*
    };
}

macro_rules! real_element {
    (Float, $t:ty) => {
        impl Real for $t {
            const IS_FLOAT: bool = true;
            #[inline]
            fn num(self) -> Num {
                Num::Float(f64::from(self))
            }
            #[inline]
            fn to_f64(self) -> f64 {
                f64::from(self)
            }
        }
        impl MaybeReal for $t {
            fn visit<V: RealVisitor>(t: &Tensor, v: V) -> Result<Option<V::Output>> {
                Ok(Some(v.visit(t.as_slice::<$t>()?)))
            }
        }
    };
    (Int, $t:ty) => { real_element!(@int $t); };
    (Quantized, $t:ty) => { real_element!(@int $t); };
    (Bool, $t:ty) => { real_element!(@int $t); };
    (@int $t:ty) => {
        impl Real for $t {
            const IS_FLOAT: bool = false;
            #[inline]
            fn num(self) -> Num {
                Num::Int(i128::from(self))
            }
            #[inline]
            fn to_f64(self) -> f64 {
                i128::from(self) as f64
            }
        }
        impl MaybeReal for $t {
            fn visit<V: RealVisitor>(t: &Tensor, v: V) -> Result<Option<V::Output>> {
                Ok(Some(v.visit(t.as_slice::<$t>()?)))
            }
        }
    };
    ($other:ident, $t:ty) => {
        impl MaybeReal for $t {
            fn visit<V: RealVisitor>(_: &Tensor, _: V) -> Result<Option<V::Output>> {
                Ok(None)
            }
        }
    };
}

/// Every element type: visits its slice when it is [`Real`].
trait MaybeReal: Element {
    fn visit<V: RealVisitor>(t: &Tensor, v: V) -> Result<Option<V::Output>>;
}

crate::for_each_dtype!(real_elements);

/// Code generic over the [`Real`] element types, run on a tensor's
/// elements by [`Tensor::visit_real`].
///
/// ```
/// use tftensor::stats::{Real, RealVisitor};
/// struct Sum;
/// impl RealVisitor for Sum {
///     type Output = f64;
///     fn visit<T: Real>(self, values: &[T]) -> f64 {
///         values.iter().map(|v| v.to_f64()).sum()
///     }
/// }
/// let t = tftensor::Tensor::from_vec([3], vec![1u8, 2, 3])?;
/// assert_eq!(t.visit_real(Sum)?, Some(6.0));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub trait RealVisitor {
    /// What the visit returns.
    type Output;
    /// Runs on the elements, in row-major order.
    fn visit<T: Real>(self, values: &[T]) -> Self::Output;
}

/// min, max and mean of the finite values, and the NaN and infinity
/// counts, from one pass over the elements.
///
/// ```
/// let t = tftensor::Tensor::from_vec([2], vec![i64::MIN, 7])?;
/// let s = t.stats()?.unwrap();
/// assert_eq!(s.min, Some(tftensor::stats::Num::Int(i64::MIN.into())));
/// assert_eq!((s.nan, s.inf), (0, 0));
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Stats {
    /// The smallest finite value (`None` if there is none).
    pub min: Option<Num>,
    /// The largest finite value.
    pub max: Option<Num>,
    /// The mean of the finite values.
    pub mean: Option<f64>,
    /// How many elements are NaN.
    pub nan: u64,
    /// How many elements are +inf or -inf.
    pub inf: u64,
}

impl Tensor {
    /// Runs `visitor` on the elements when the dtype is [`Real`]; `None`
    /// for complex, string, resource and variant tensors. The one dispatch
    /// over real dtypes, generated from the dtype row list.
    ///
    /// # Errors
    /// As [`Tensor::as_slice`] (a bool tensor holding a byte other than 0
    /// or 1).
    ///
    /// ```
    /// use tftensor::stats::{Real, RealVisitor};
    /// struct Count;
    /// impl RealVisitor for Count {
    ///     type Output = usize;
    ///     fn visit<T: Real>(self, values: &[T]) -> usize { values.len() }
    /// }
    /// assert_eq!(tftensor::Tensor::from(1.5f64).visit_real(Count)?, Some(1));
    /// assert_eq!(tftensor::Tensor::from("s").visit_real(Count)?, None);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn visit_real<V: RealVisitor>(&self, visitor: V) -> Result<Option<V::Output>> {
        dispatch_dtype!(self.dtype(), T => <T as MaybeReal>::visit(self, visitor), _ => Ok(None))
    }

    /// The [`Stats`] of a real-number tensor (bools count as 0 and 1);
    /// `None` for other dtypes.
    ///
    /// # Errors
    /// As [`Tensor::visit_real`].
    ///
    /// ```
    /// let t = tftensor::Tensor::from_vec([3], vec![1.0f32, f32::INFINITY, 3.0])?;
    /// let s = t.stats()?.unwrap();
    /// assert_eq!((s.mean, s.inf), (Some(2.0), 1));
    /// assert!(tftensor::Tensor::from("x").stats()?.is_none());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn stats(&self) -> Result<Option<Stats>> {
        self.visit_real(StatsOf)
    }
}

struct StatsOf;

impl RealVisitor for StatsOf {
    type Output = Stats;
    fn visit<T: Real>(self, values: &[T]) -> Stats {
        if T::IS_FLOAT {
            float_stats(values)
        } else {
            int_stats(values)
        }
    }
}

/// Integers: exact min and max, the mean from an `f64` sum.
fn int_stats<T: Real>(values: &[T]) -> Stats {
    let mut min = i128::MAX;
    let mut max = i128::MIN;
    let mut sum = 0.0f64;
    for &v in values {
        let Num::Int(i) = v.num() else {
            debug_assert!(false, "IS_FLOAT is false for {:?}", T::DTYPE);
            continue;
        };
        min = min.min(i);
        max = max.max(i);
        sum += i as f64;
    }
    let some = !values.is_empty();
    Stats {
        min: some.then_some(Num::Int(min)),
        max: some.then_some(Num::Int(max)),
        mean: some.then(|| sum / values.len() as f64),
        nan: 0,
        inf: 0,
    }
}

/// Lanes of the float pass: independent accumulators the compiler can keep
/// in vector registers.
const LANES: usize = 8;

/// The float pass's accumulators, one per lane, each an array (not an
/// array of structs) so that a step is a few vector operations.
struct Lanes {
    min: [f64; LANES],
    max: [f64; LANES],
    sum: [f64; LANES],
    finite: [u64; LANES],
    nan: [u64; LANES],
}

impl Lanes {
    const EMPTY: Lanes = Lanes {
        min: [f64::INFINITY; LANES],
        max: [f64::NEG_INFINITY; LANES],
        sum: [0.0; LANES],
        finite: [0; LANES],
        nan: [0; LANES],
    };

    /// Adds `values` (at most `LANES`), one per lane; branch-free.
    #[inline(always)]
    fn step<T: Real>(&mut self, values: &[T]) {
        let lanes = values
            .iter()
            .zip(self.min.iter_mut())
            .zip(self.max.iter_mut())
            .zip(self.sum.iter_mut())
            .zip(self.finite.iter_mut())
            .zip(self.nan.iter_mut());
        for (((((v, min), max), sum), finite), nan) in lanes {
            let x = v.to_f64();
            let fin = x.is_finite();
            *finite += u64::from(fin);
            *nan += u64::from(x.is_nan());
            *sum += if fin { x } else { 0.0 };
            *min = if fin && x < *min { x } else { *min };
            *max = if fin && x > *max { x } else { *max };
        }
    }
}

/// Floats: [`all_finite_stats`], and when the data holds a NaN or an
/// infinity, [`careful_stats`].
fn float_stats<T: Real>(values: &[T]) -> Stats {
    all_finite_stats(values).unwrap_or_else(|| careful_stats(values))
}

/// The common case, in one pass of three accumulators per lane: min, max
/// and sum of every value. A NaN or an infinity makes the sum NaN or
/// infinite (as does an `f64` sum past `f64::MAX`), and then the answer is
/// `None`: the values need [`careful_stats`].
fn all_finite_stats<T: Real>(values: &[T]) -> Option<Stats> {
    let mut min = [f64::INFINITY; LANES];
    let mut max = [f64::NEG_INFINITY; LANES];
    let mut sum = [0.0f64; LANES];
    let mut step = |c: &[T]| {
        let lanes = c
            .iter()
            .zip(min.iter_mut())
            .zip(max.iter_mut())
            .zip(sum.iter_mut());
        for (((v, min), max), sum) in lanes {
            let x = v.to_f64();
            *min = if x < *min { x } else { *min };
            *max = if x > *max { x } else { *max };
            *sum += x;
        }
    };
    let chunks = values.chunks_exact(LANES);
    let rest = chunks.remainder();
    for c in chunks {
        step(c);
    }
    step(rest);
    let total: f64 = sum.iter().sum();
    if !total.is_finite() {
        return None;
    }
    let some = !values.is_empty();
    Some(Stats {
        min: some.then(|| Num::Float(min.iter().copied().fold(f64::INFINITY, f64::min))),
        max: some.then(|| Num::Float(max.iter().copied().fold(f64::NEG_INFINITY, f64::max))),
        mean: some.then(|| total / values.len() as f64),
        nan: 0,
        inf: 0,
    })
}

/// Every case: one pass in `LANES` independent lanes (min, max and sum of
/// the finite values, NaN and finite counts), folded at the end.
fn careful_stats<T: Real>(values: &[T]) -> Stats {
    let mut lanes = Lanes::EMPTY;
    let chunks = values.chunks_exact(LANES);
    let rest = chunks.remainder();
    for c in chunks {
        lanes.step(c);
    }
    lanes.step(rest);
    let min = lanes.min.iter().copied().fold(f64::INFINITY, f64::min);
    let max = lanes.max.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let finite: u64 = lanes.finite.iter().sum();
    let nan: u64 = lanes.nan.iter().sum();
    let sum: f64 = lanes.sum.iter().sum();
    let some = finite > 0;
    Stats {
        min: some.then_some(Num::Float(min)),
        max: some.then_some(Num::Float(max)),
        mean: some.then(|| sum / finite as f64),
        nan,
        // Every element is finite, NaN or infinite.
        inf: values.len() as u64 - finite - nan,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DataType, Float4E2M1FN, Int2, UInt2};

    #[test]
    fn every_row_of_kind_int_float_quantized_bool_is_real() {
        struct Dtype;
        impl RealVisitor for Dtype {
            type Output = DataType;
            fn visit<T: Real>(self, _: &[T]) -> DataType {
                T::DTYPE
            }
        }
        let mut real = 0;
        for &d in DataType::all() {
            let Ok(t) = Tensor::new(d, [0]) else { continue };
            match t.visit_real(Dtype).unwrap() {
                Some(got) => {
                    assert_eq!(got, d);
                    real += 1;
                }
                None => assert!(
                    matches!(
                        d,
                        DataType::String
                            | DataType::Complex64
                            | DataType::Complex128
                            | DataType::Resource
                            | DataType::Variant
                    ),
                    "{d:?}"
                ),
            }
        }
        // The issue's drift: int2, uint2 and float4 had no stats in the CLI.
        assert_eq!(real, 28);
    }

    #[test]
    fn sub_byte_and_float4_stats() {
        let t = Tensor::from_vec(
            [3],
            vec![Int2::from_bits(2), Int2::from_bits(1), Int2::from_bits(0)],
        )
        .unwrap();
        let s = t.stats().unwrap().unwrap();
        assert_eq!(
            (s.min, s.max, s.mean),
            (Some(Num::Int(-2)), Some(Num::Int(1)), Some(-1.0 / 3.0))
        );
        let t = Tensor::from_vec([2], vec![UInt2::from_bits(3), UInt2::from_bits(1)]).unwrap();
        assert_eq!(t.stats().unwrap().unwrap().max, Some(Num::Int(3)));
        let t = Tensor::from_vec(
            [2],
            vec![Float4E2M1FN::from_bits(0x7), Float4E2M1FN::from_bits(0xF)],
        )
        .unwrap();
        let s = t.stats().unwrap().unwrap();
        assert_eq!(
            (s.min, s.max, s.mean),
            (Some(Num::Float(-6.0)), Some(Num::Float(6.0)), Some(0.0))
        );
    }

    #[test]
    fn floats_skip_nan_and_inf_in_every_lane() {
        // 19 values: two full chunks of lanes and a remainder.
        let mut v: Vec<f64> = (0..19).map(f64::from).collect();
        v[3] = f64::NAN;
        v[12] = f64::NEG_INFINITY;
        v[18] = f64::INFINITY;
        let t = Tensor::from_vec([19], v).unwrap();
        let s = t.stats().unwrap().unwrap();
        assert_eq!((s.nan, s.inf), (1, 2));
        assert_eq!(
            (s.min, s.max),
            (Some(Num::Float(0.0)), Some(Num::Float(17.0)))
        );
        let finite_sum: f64 = (0..18).filter(|i| *i != 3 && *i != 12).map(f64::from).sum();
        assert_eq!(s.mean, Some(finite_sum / 16.0));
        let all_nan = Tensor::from_vec([2], vec![f32::NAN; 2]).unwrap();
        let s = all_nan.stats().unwrap().unwrap();
        assert_eq!((s.min, s.max, s.mean, s.nan), (None, None, None, 2));
    }

    #[test]
    fn a_sum_past_f64_max_takes_the_careful_pass() {
        let t = Tensor::from_vec([3], vec![f64::MAX, f64::MAX, -1.0]).unwrap();
        let s = t.stats().unwrap().unwrap();
        assert_eq!(
            (s.min, s.max),
            (Some(Num::Float(-1.0)), Some(Num::Float(f64::MAX)))
        );
        assert_eq!((s.nan, s.inf), (0, 0));
        assert_eq!(s.mean, Some(f64::INFINITY));
        let one = Tensor::from(2.5f32).stats().unwrap().unwrap();
        assert_eq!(
            (one.min, one.max, one.mean),
            (Some(Num::Float(2.5)), Some(Num::Float(2.5)), Some(2.5))
        );
    }

    #[test]
    fn integers_stay_exact_and_empty_has_none() {
        let t = Tensor::from_vec([2], vec![u64::MAX, 1]).unwrap();
        assert_eq!(
            t.stats().unwrap().unwrap().max,
            Some(Num::Int(u64::MAX.into()))
        );
        let e = Tensor::new(DataType::Int32, [0])
            .unwrap()
            .stats()
            .unwrap()
            .unwrap();
        assert_eq!((e.min, e.mean), (None, None));
        let b = Tensor::from_vec([3], vec![true, false, true]).unwrap();
        assert_eq!(b.stats().unwrap().unwrap().max, Some(Num::Int(1)));
    }
}
