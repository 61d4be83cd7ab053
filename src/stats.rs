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

use crate::element::{dispatch_dtype, Element};
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

/// One lane of the float pass.
#[derive(Clone, Copy)]
struct Lane {
    min: f64,
    max: f64,
    sum: f64,
    finite: u64,
    nan: u64,
}

impl Lane {
    const EMPTY: Lane = Lane {
        min: f64::INFINITY,
        max: f64::NEG_INFINITY,
        sum: 0.0,
        finite: 0,
        nan: 0,
    };

    /// Branch-free, so the lanes vectorise.
    #[inline(always)]
    fn step(&mut self, x: f64) {
        let fin = x.is_finite();
        self.finite += u64::from(fin);
        self.nan += u64::from(x.is_nan());
        self.sum += if fin { x } else { 0.0 };
        self.min = if fin && x < self.min { x } else { self.min };
        self.max = if fin && x > self.max { x } else { self.max };
    }
}

/// Floats: one pass in `LANES` independent lanes (min, max and sum of the
/// finite values, NaN and finite counts), folded at the end.
fn float_stats<T: Real>(values: &[T]) -> Stats {
    let mut lanes = [Lane::EMPTY; LANES];
    let chunks = values.chunks_exact(LANES);
    let rest = chunks.remainder();
    for c in chunks {
        for (lane, v) in lanes.iter_mut().zip(c) {
            lane.step(v.to_f64());
        }
    }
    for (lane, v) in lanes.iter_mut().zip(rest) {
        lane.step(v.to_f64());
    }
    let all = lanes.iter().fold(Lane::EMPTY, |a, l| Lane {
        min: a.min.min(l.min),
        max: a.max.max(l.max),
        sum: a.sum + l.sum,
        finite: a.finite + l.finite,
        nan: a.nan + l.nan,
    });
    let some = all.finite > 0;
    Stats {
        min: some.then_some(Num::Float(all.min)),
        max: some.then_some(Num::Float(all.max)),
        mean: some.then(|| all.sum / all.finite as f64),
        nan: all.nan,
        // Every element is finite, NaN or infinite.
        inf: values.len() as u64 - all.finite - all.nan,
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
