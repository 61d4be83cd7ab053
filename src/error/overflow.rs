//! Counts and sizes that do not fit their integer type.

use std::fmt;

use super::Error;

/// What overflowed ([`Error::Overflow`]); `Display` writes TensorFlow's text
/// for shapes.
///
/// ```
/// use tftensor::{Error, OverflowError, TensorShape};
/// let big = 1i64 << 62;
/// let err = TensorShape::new(&[0, big, big]).unwrap_err();
/// assert_eq!(err, Error::Overflow(OverflowError::NonzeroDims));
/// assert_eq!(err.to_string(), "Encountered overflow when multiplying shape dimensions");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum OverflowError {
    /// The running element count times the next dim: `"Encountered overflow
    /// when multiplying <lhs> with <rhs>, result: -1"`.
    Multiply {
        /// The element count so far.
        lhs: i64,
        /// The next dim.
        rhs: i64,
    },
    /// The product of the non-zero dims (hidden by a zero dim):
    /// `"Encountered overflow when multiplying shape dimensions"`.
    NonzeroDims,
    /// A changed dim makes the element count overflow: `"Shape <dims>
    /// results in overflow when computing number of elements"`.
    Shape {
        /// The dims the shape would have.
        dims: Vec<i64>,
    },
    /// A count or byte size that does not fit `usize` (or `i64`): `"<what>
    /// overflows"`.
    Size {
        /// What was computed, e.g. `"tensor byte size"`.
        what: &'static str,
    },
}

impl fmt::Display for OverflowError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OverflowError::Multiply { lhs, rhs } => write!(
                f,
                "Encountered overflow when multiplying {lhs} with {rhs}, result: -1"
            ),
            OverflowError::NonzeroDims => {
                f.write_str("Encountered overflow when multiplying shape dimensions")
            }
            OverflowError::Shape { dims } => {
                f.write_str("Shape [")?;
                for (i, d) in dims.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{d}")?;
                }
                f.write_str("] results in overflow when computing number of elements")
            }
            OverflowError::Size { what } => write!(f, "{what} overflows"),
        }
    }
}

impl From<OverflowError> for Error {
    fn from(e: OverflowError) -> Self {
        Error::Overflow(e)
    }
}
