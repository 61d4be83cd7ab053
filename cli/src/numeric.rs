//! How `inspect --stats` and `diff` print element values. The values
//! themselves, and the one dispatch over real dtypes, are the library's
//! (`tftensor::stats`).

use std::fmt;

use tftensor::DataType;
use tftensor::stats::Num;

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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shown_as_the_dtype_holds_it() {
        assert_eq!(
            Shown(Num::Int(i128::from(u64::MAX)), DataType::UInt64).to_string(),
            "18446744073709551615"
        );
        assert_eq!(
            Shown(Num::Float(0.1f32.into()), DataType::Float).to_string(),
            "0.1"
        );
        assert_eq!(Shown(Num::Float(0.1), DataType::Double).to_string(), "0.1");
        assert_eq!(
            Shown(Num::Float(1e-7), DataType::Double).to_string(),
            "1e-7"
        );
    }
}
