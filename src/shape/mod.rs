//! Tensor shapes: [`TensorShape`] (every dimension known) and
//! [`PartialTensorShape`] (dimensions and even the rank may be unknown).
//!
//! These follow TensorFlow's `tensorflow::TensorShape` and
//! `tensorflow::PartialTensorShape`. Where TensorFlow CHECK-fails (aborts),
//! these types return [`Error`]; error texts are TensorFlow's
//! `*WithStatus` texts where it has one.
//!
//! A [`TensorShape`] always satisfies these invariants, checked on every
//! construction and mutation:
//! - at most [`MAX_DIMENSIONS`] (254) dimensions;
//! - every dimension is `>= 0`;
//! - the product of the **non-zero** dimensions fits in `i64`. This is
//!   stricter than TensorFlow's running product (which becomes `0` after a
//!   zero dimension and so stops detecting overflow); it is the extra check
//!   TensorFlow's `BuildTensorShapeBase(proto)` makes. It guarantees that
//!   [`TensorShape::num_elements`] and the product of any subset of the
//!   dimensions never overflow, so removing dimensions can never fail.
//!
//! ```
//! use tftensor::{PartialTensorShape, TensorShape};
//! let s = TensorShape::new(&[2, 3])?;
//! assert_eq!(s.num_elements(), 6);
//! assert_eq!(s.to_string(), "[2,3]");
//! let p = PartialTensorShape::new(&[-1, 3])?;
//! assert!(p.is_compatible_with(&s.clone().into()));
//! assert_eq!(p.to_string(), "[?,3]");
//! # Ok::<(), tftensor::Error>(())
//! ```

mod checks;
mod convert;
mod full;
mod partial;
mod rep;

pub use full::TensorShape;
pub use partial::PartialTensorShape;

/// The largest rank a shape may have (TensorFlow's `MaxDimensions()`).
///
/// TensorFlow stores the rank in a byte and reserves 255 for "unknown rank".
///
/// ```
/// use tftensor::{TensorShape, MAX_DIMENSIONS};
/// assert_eq!(MAX_DIMENSIONS, 254);
/// assert!(TensorShape::new(&vec![1; MAX_DIMENSIONS]).is_ok());
/// assert!(TensorShape::new(&vec![1; MAX_DIMENSIONS + 1]).is_err());
/// ```
pub const MAX_DIMENSIONS: usize = 254;

/// `[2,3]`; with `unknown_as_question`, a negative dim prints as `?`.
fn join_dims(dims: impl Iterator<Item = i64>, unknown_as_question: bool) -> String {
    let mut s = String::from("[");
    for (i, d) in dims.enumerate() {
        if i > 0 {
            s.push(',');
        }
        if unknown_as_question && d < 0 {
            s.push('?');
        } else {
            s.push_str(&d.to_string());
        }
    }
    s.push(']');
    s
}

/// A dim or element count of a valid shape (never negative) as `usize`.
/// It saturates only where `usize` is narrower than `i64` (a 32-bit
/// target): a count that large cannot be in memory, so every check after
/// it (`size_checked`, a region's bounds) fails, never passes.
#[inline]
pub(crate) fn usize_of_dim(d: i64) -> usize {
    debug_assert!(d >= 0, "a dim of a valid shape is never negative");
    usize::try_from(d).unwrap_or(usize::MAX)
}

/// An index or a count as `i64`, for TF's `int64` arguments, error texts
/// and descriptions. It saturates only past `i64::MAX`: an index that large
/// is out of range of every shape (at most 254 dims) and stays so, and no
/// byte count of memory is that large (a `Layout` is at most `isize::MAX`).
#[inline]
pub(crate) fn i64_of_usize(i: usize) -> i64 {
    i64::try_from(i).unwrap_or(i64::MAX)
}
