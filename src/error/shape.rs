//! Why a shape is invalid.

use std::fmt;

use super::{Error, size::Dims};

/// Why a shape is invalid ([`Error::InvalidShape`]); `Display` writes
/// TensorFlow's text.
///
/// ```
/// use tftensor::{Error, PartialTensorShape, ShapeError};
/// let err = PartialTensorShape::new(&[-2]).unwrap_err();
/// assert_eq!(err, Error::InvalidShape(ShapeError::BelowUnknown { dim: -2 }));
/// assert_eq!(err.to_string(), "Dimension -2 must be >= -1");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ShapeError {
    /// A negative dim added one at a time: `"Expected a non-negative size,
    /// got <dim>"`.
    NegativeDim {
        /// The dim.
        dim: i64,
    },
    /// A negative dim in a list of small dims (TF's fast path): `"Expected
    /// shape dimensions to be non-negative, got <dim>"`.
    NegativeDimInList {
        /// The dim.
        dim: i64,
    },
    /// More than [`MAX_DIMENSIONS`](crate::MAX_DIMENSIONS) dims: `"Too many
    /// dimensions in tensor"`.
    TooManyDims,
    /// A dim inserted into a shape of the maximum rank: `"Shape has <rank>
    /// dimensions which is the maximum allowed"`.
    RankAtMaximum {
        /// The shape's rank.
        rank: usize,
    },
    /// An unsigned dim above `i64::MAX`: `"Dimension <dim> does not fit in
    /// int64"`.
    DimTooLarge {
        /// The dim.
        dim: u64,
    },
    /// A partial-shape dim below -1: `"Dimension <dim> must be >= -1"`.
    BelowUnknown {
        /// The dim.
        dim: i64,
    },
    /// A partial shape where a full one is needed: `"Shape <shape> is not
    /// fully defined"`.
    NotFullyDefined {
        /// The partial shape's dims, `-1` where unknown; `None` for an
        /// unknown rank.
        dims: Option<Vec<i64>>,
    },
    /// Any other reason (an `ndarray` shape error, a file format's rule);
    /// the text says what.
    Other(String),
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::NegativeDim { dim } => {
                write!(f, "Expected a non-negative size, got {dim}")
            }
            ShapeError::NegativeDimInList { dim } => {
                write!(f, "Expected shape dimensions to be non-negative, got {dim}")
            }
            ShapeError::TooManyDims => f.write_str("Too many dimensions in tensor"),
            ShapeError::RankAtMaximum { rank } => {
                write!(
                    f,
                    "Shape has {rank} dimensions which is the maximum allowed"
                )
            }
            ShapeError::DimTooLarge { dim } => write!(f, "Dimension {dim} does not fit in int64"),
            ShapeError::BelowUnknown { dim } => write!(f, "Dimension {dim} must be >= -1"),
            ShapeError::NotFullyDefined { dims } => {
                write!(f, "Shape {} is not fully defined", Dims(dims.as_deref()))
            }
            ShapeError::Other(message) => f.write_str(message),
        }
    }
}

impl From<ShapeError> for Error {
    fn from(e: ShapeError) -> Self {
        Error::InvalidShape(e)
    }
}
