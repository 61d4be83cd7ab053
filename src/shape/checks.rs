//! TF's checks of a list of dims (`InitDims`, `AddDimWithStatus`), plus
//! the zero-skipping overflow check of `BuildTensorShapeBase(proto)`: the
//! invariant every [`TensorShape`] keeps, in one place.

use super::{MAX_DIMENSIONS, TensorShape};
use crate::error::{Error, OverflowError, Result, ShapeError};

/// TensorFlow's `kMaxSmall` in `InitDims`: below this, a list of dims takes
/// the fast path, which reports negative dims with its own message.
const K_MAX_SMALL: i64 = 0xD744;

/// TensorFlow's `AddDimWithStatus`, plus the zero-skipping overflow check of
/// `BuildTensorShapeBase(proto)`. Tracks what is needed to add one more dim.
#[derive(Clone, Copy)]
pub(super) struct DimAccumulator {
    rank: usize,
    /// The running product, i.e. the element count so far.
    num_elements: i64,
    /// The product of the non-zero dims so far.
    nonzero_product: i64,
}

impl DimAccumulator {
    pub(super) fn new() -> Self {
        DimAccumulator {
            rank: 0,
            num_elements: 1,
            nonzero_product: 1,
        }
    }

    pub(super) fn of(shape: &TensorShape) -> Self {
        DimAccumulator {
            rank: shape.dims(),
            num_elements: shape.num_elements(),
            nonzero_product: shape.nonzero_product(),
        }
    }

    pub(super) fn add(&mut self, size: i64) -> Result<()> {
        if size < 0 {
            return Err(ShapeError::NegativeDim { dim: size }.into());
        }
        if self.rank >= MAX_DIMENSIONS {
            return Err(ShapeError::TooManyDims.into());
        }
        let num_elements = self.num_elements.checked_mul(size).ok_or({
            // TF's MultiplyWithoutOverflow reports overflow as -1.
            Error::Overflow(OverflowError::Multiply {
                lhs: self.num_elements,
                rhs: size,
            })
        })?;
        let mut nonzero_product = self.nonzero_product;
        if size > 0 {
            nonzero_product = nonzero_product
                .checked_mul(size)
                .ok_or(Error::Overflow(OverflowError::NonzeroDims))?;
        }
        self.rank += 1;
        self.num_elements = num_elements;
        self.nonzero_product = nonzero_product;
        Ok(())
    }
}

/// Validates a full list of dims the way TensorFlow's `InitDims` does (the
/// list constructor), plus the zero-skipping overflow check.
pub(super) fn validate_dims(dims: &[i64]) -> Result<()> {
    // TF's fast path checks all dims for negatives up front, with its own text,
    // when no dim is "large"; otherwise each dim goes through AddDimWithStatus.
    if !dims.iter().any(|&s| s > K_MAX_SMALL) {
        if let Some(&s) = dims.iter().find(|&&s| s < 0) {
            return Err(ShapeError::NegativeDimInList { dim: s }.into());
        }
    }
    let mut acc = DimAccumulator::new();
    dims.iter().try_for_each(|&s| acc.add(s))
}

/// Re-validates a whole list of dims through `AddDimWithStatus`, as TF's
/// `InsertDimWithStatus` / `AppendShapeWithStatus` do.
pub(super) fn validate_by_adding(dims: &[i64]) -> Result<()> {
    let mut acc = DimAccumulator::new();
    dims.iter().try_for_each(|&s| acc.add(s))
}
