//! Which counts a size mismatch compared, and the texts TF writes for them.

use std::fmt;

/// Which counts an [`Error::SizeMismatch`](crate::Error::SizeMismatch) compared, and so its text.
///
/// ```
/// use tftensor::{Error, SizeCheck};
/// let err = Error::SizeMismatch { got: 7, expected: 8, check: SizeCheck::Bytes };
/// assert_eq!(err.to_string(), "Input size was 7 and expected 8");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum SizeCheck {
    /// Element counts: `"<got> vs. <expected>"`.
    Elements,
    /// Byte counts: `"Input size was <got> and expected <expected>"`.
    Bytes,
    /// A scalar accessor on a tensor of `got` elements (`expected` is 1):
    /// `"Must have a one element tensor"`.
    OneElement,
    /// Elements from a start index: `"<got> elements from index <index> vs.
    /// <expected> in shape <shape>"`.
    FromIndex {
        /// The start index.
        index: usize,
        /// The dims of the shape to fill.
        dims: Vec<i64>,
    },
    /// A reshape in place needs `got` elements, the buffer holds `expected`:
    /// `"reshape to <shape> needs <got> elements but the buffer holds
    /// <expected>"`.
    Capacity {
        /// The dims of the new shape.
        dims: Vec<i64>,
    },
}

/// Formats an [`Error::SizeMismatch`].
pub(crate) struct SizeText<'a> {
    pub(crate) got: u64,
    pub(crate) expected: u64,
    pub(crate) check: &'a SizeCheck,
}

impl fmt::Display for SizeText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (got, expected) = (self.got, self.expected);
        match self.check {
            SizeCheck::Elements => write!(f, "{got} vs. {expected}"),
            SizeCheck::Bytes => write!(f, "Input size was {got} and expected {expected}"),
            SizeCheck::OneElement => f.write_str("Must have a one element tensor"),
            SizeCheck::FromIndex { index, dims } => write!(
                f,
                "{got} elements from index {index} vs. {expected} in shape {}",
                Dims(Some(dims))
            ),
            SizeCheck::Capacity { dims } => write!(
                f,
                "reshape to {} needs {got} elements but the buffer holds {expected}",
                Dims(Some(dims))
            ),
        }
    }
}

/// Dims as TF's shape `DebugString` writes them: `[2,?]`, or `<unknown>`
/// for an unknown rank (`None`). Errors hold dims, not shapes, so that
/// this module needs nothing from `shape`.
pub(crate) struct Dims<'a>(pub(crate) Option<&'a [i64]>);

impl fmt::Display for Dims<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(dims) = self.0 else {
            return f.write_str("<unknown>");
        };
        f.write_str("[")?;
        for (i, &d) in dims.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            if d < 0 {
                f.write_str("?")?;
            } else {
                write!(f, "{d}")?;
            }
        }
        f.write_str("]")
    }
}
