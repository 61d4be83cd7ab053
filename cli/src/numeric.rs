//! Element values as numbers, for `inspect --stats` and `diff`: one dtype
//! dispatch over the real-number dtypes, exact for integers.

use std::fmt;

use tftensor::half::{bf16, f16};
use tftensor::{
    DataType, Float8E4M3B11FNUZ, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ, Int4,
    QInt16, QInt32, QInt8, QUInt16, QUInt8, UInt4,
};

/// One element's value: integers exactly, floats widened to `f64`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Num {
    /// An integer (or bool) element.
    Int(i128),
    /// A floating-point element.
    Float(f64),
}

/// An element type whose values are real numbers.
pub trait AsNum: tftensor::Element + Copy {
    /// The value.
    fn num(self) -> Num;
}

macro_rules! as_num {
    (int: $($t:ty),*) => {$(
        impl AsNum for $t {
            fn num(self) -> Num {
                Num::Int(i128::from(self))
            }
        }
    )*};
    (wrapped int: $($t:ty => $inner:ty),*) => {$(
        impl AsNum for $t {
            fn num(self) -> Num {
                Num::Int(i128::from(<$inner>::from(self)))
            }
        }
    )*};
    (float: $($t:ty),*) => {$(
        impl AsNum for $t {
            fn num(self) -> Num {
                Num::Float(self.to_f64())
            }
        }
    )*};
}

as_num!(int: i8, i16, i32, i64, u8, u16, u32, u64, bool);
as_num!(wrapped int: QInt8 => i8, QUInt8 => u8, QInt16 => i16, QUInt16 => u16, QInt32 => i32,
        Int4 => i8, UInt4 => u8);
as_num!(float: f16, bf16, Float8E5M2, Float8E4M3FN, Float8E4M3FNUZ, Float8E4M3B11FNUZ,
        Float8E5M2FNUZ);

impl AsNum for f32 {
    fn num(self) -> Num {
        Num::Float(f64::from(self))
    }
}

impl AsNum for f64 {
    fn num(self) -> Num {
        Num::Float(self)
    }
}

/// Runs `$body` with `$s` bound to `$t`'s elements as a slice of an
/// [`AsNum`] type, for every real-number dtype (integers, floats,
/// quantized, bool); evaluates `$other` for the rest. The one per-dtype
/// dispatch of the tool. `$t.as_slice` errors are returned with `?`.
macro_rules! with_real_slice {
    ($t:expr, $s:ident => $body:expr, _ => $other:expr) => {{
        use tftensor::DataType as D;
        let t: &tftensor::Tensor = $t;
        match t.dtype() {
            D::Float => {
                let $s = t.as_slice::<f32>()?;
                $body
            }
            D::Double => {
                let $s = t.as_slice::<f64>()?;
                $body
            }
            D::Half => {
                let $s = t.as_slice::<tftensor::half::f16>()?;
                $body
            }
            D::BFloat16 => {
                let $s = t.as_slice::<tftensor::half::bf16>()?;
                $body
            }
            D::Int8 => {
                let $s = t.as_slice::<i8>()?;
                $body
            }
            D::Int16 => {
                let $s = t.as_slice::<i16>()?;
                $body
            }
            D::Int32 => {
                let $s = t.as_slice::<i32>()?;
                $body
            }
            D::Int64 => {
                let $s = t.as_slice::<i64>()?;
                $body
            }
            D::UInt8 => {
                let $s = t.as_slice::<u8>()?;
                $body
            }
            D::UInt16 => {
                let $s = t.as_slice::<u16>()?;
                $body
            }
            D::UInt32 => {
                let $s = t.as_slice::<u32>()?;
                $body
            }
            D::UInt64 => {
                let $s = t.as_slice::<u64>()?;
                $body
            }
            D::Bool => {
                let $s = t.as_slice::<bool>()?;
                $body
            }
            D::QInt8 => {
                let $s = t.as_slice::<tftensor::QInt8>()?;
                $body
            }
            D::QUInt8 => {
                let $s = t.as_slice::<tftensor::QUInt8>()?;
                $body
            }
            D::QInt16 => {
                let $s = t.as_slice::<tftensor::QInt16>()?;
                $body
            }
            D::QUInt16 => {
                let $s = t.as_slice::<tftensor::QUInt16>()?;
                $body
            }
            D::QInt32 => {
                let $s = t.as_slice::<tftensor::QInt32>()?;
                $body
            }
            D::Int4 => {
                let $s = t.as_slice::<tftensor::Int4>()?;
                $body
            }
            D::UInt4 => {
                let $s = t.as_slice::<tftensor::UInt4>()?;
                $body
            }
            D::Float8E5M2 => {
                let $s = t.as_slice::<tftensor::Float8E5M2>()?;
                $body
            }
            D::Float8E4M3FN => {
                let $s = t.as_slice::<tftensor::Float8E4M3FN>()?;
                $body
            }
            D::Float8E4M3FNUZ => {
                let $s = t.as_slice::<tftensor::Float8E4M3FNUZ>()?;
                $body
            }
            D::Float8E4M3B11FNUZ => {
                let $s = t.as_slice::<tftensor::Float8E4M3B11FNUZ>()?;
                $body
            }
            D::Float8E5M2FNUZ => {
                let $s = t.as_slice::<tftensor::Float8E5M2FNUZ>()?;
                $body
            }
            _ => $other,
        }
    }};
}
pub(crate) use with_real_slice;

/// Prints a value as its dtype holds it: integers in decimal, floats of
/// 32 bits or fewer as the shortest text that reads back as the same
/// `f32`, doubles as the same `f64` (`2`, `0.1`, `1e-7`, `NaN`, `inf`).
pub struct Shown(pub Num, pub DataType);

impl fmt::Display for Shown {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Num::Int(i) => write!(f, "{i}"),
            Num::Float(x) if self.1 == DataType::Double => float_text(f, x, x),
            // Every narrower float is exact as an f32.
            #[allow(clippy::cast_possible_truncation)]
            Num::Float(x) => float_text(f, x as f32, x),
        }
    }
}

/// Plain decimal for ordinary magnitudes, exponent form for the rest.
fn float_text<T: fmt::Display + fmt::LowerExp>(
    f: &mut fmt::Formatter<'_>,
    x: T,
    magnitude: f64,
) -> fmt::Result {
    let a = magnitude.abs();
    if a != 0.0 && a.is_finite() && !(1e-5..1e16).contains(&a) {
        write!(f, "{x:e}")
    } else {
        write!(f, "{x}")
    }
}

/// Whether `dtype` is one [`with_real_slice`] handles, excluding bool
/// (whose min, max and mean say little).
pub fn has_stats(dtype: DataType) -> bool {
    dtype != DataType::Bool && is_real(dtype)
}

/// Whether `dtype` is one [`with_real_slice`] handles.
pub fn is_real(dtype: DataType) -> bool {
    // Probe the dispatch with an empty tensor, so the list of real dtypes
    // is stated once, in the macro.
    let probe = || -> tftensor::Result<bool> {
        let t = tftensor::Tensor::new(dtype, [0])?;
        with_real_slice!(&t, _s => Ok(true), _ => Ok(false))
    };
    probe().unwrap_or(false)
}

/// min, max and mean of the finite values, and the NaN and infinity counts.
#[derive(Clone, Debug, PartialEq)]
pub struct Stats {
    /// The smallest finite value (None if there is none).
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

/// The [`Stats`] of a real-number tensor; `None` for other dtypes.
pub fn stats(t: &tftensor::Tensor) -> tftensor::Result<Option<Stats>> {
    if !has_stats(t.dtype()) {
        return Ok(None);
    }
    with_real_slice!(t, s => Ok(Some(stats_of(s.iter().map(|x| x.num())))), _ => Ok(None))
}

fn stats_of(values: impl Iterator<Item = Num>) -> Stats {
    let mut st = Stats {
        min: None,
        max: None,
        mean: None,
        nan: 0,
        inf: 0,
    };
    let (mut sum, mut n) = (0.0f64, 0u64);
    for v in values {
        let x = match v {
            Num::Int(i) => i as f64,
            Num::Float(x) if x.is_nan() => {
                st.nan += 1;
                continue;
            }
            Num::Float(x) if x.is_infinite() => {
                st.inf += 1;
                continue;
            }
            Num::Float(x) => x,
        };
        sum += x;
        n += 1;
        if st.min.is_none_or(|m| less(v, m)) {
            st.min = Some(v);
        }
        if st.max.is_none_or(|m| less(m, v)) {
            st.max = Some(v);
        }
    }
    if n > 0 {
        st.mean = Some(sum / n as f64);
    }
    st
}

fn less(a: Num, b: Num) -> bool {
    match (a, b) {
        (Num::Int(a), Num::Int(b)) => a < b,
        (a, b) => to_f64(a) < to_f64(b),
    }
}

/// The value as an `f64` (integers beyond 2^53 rounded).
pub fn to_f64(v: Num) -> f64 {
    match v {
        Num::Int(i) => i as f64,
        Num::Float(x) => x,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tftensor::Tensor;

    #[test]
    fn stats_skip_nan_and_inf() {
        let t = Tensor::from_vec([5], vec![1.0f32, f32::NAN, -2.0, f32::INFINITY, 4.0]).unwrap();
        let s = stats(&t).unwrap().unwrap();
        assert_eq!(s.min, Some(Num::Float(-2.0)));
        assert_eq!(s.max, Some(Num::Float(4.0)));
        assert_eq!(s.mean, Some(1.0));
        assert_eq!((s.nan, s.inf), (1, 1));
    }

    #[test]
    fn integers_stay_exact() {
        let t = Tensor::from_vec([2], vec![u64::MAX, 1]).unwrap();
        let s = stats(&t).unwrap().unwrap();
        assert_eq!(s.max, Some(Num::Int(i128::from(u64::MAX))));
        assert_eq!(
            Shown(s.max.unwrap(), DataType::UInt64).to_string(),
            "18446744073709551615"
        );
    }

    #[test]
    fn real_dtypes() {
        assert!(is_real(DataType::Float8E4M3FN));
        assert!(is_real(DataType::Bool));
        assert!(!has_stats(DataType::Bool));
        assert!(!is_real(DataType::String));
        assert!(!is_real(DataType::Complex64));
        assert_eq!(
            Shown(Num::Float(0.1f32.into()), DataType::Float).to_string(),
            "0.1"
        );
    }
}
