//! [`PartialTensorShape`]: a shape whose dims, or even rank, may be
//! unknown, with TF's compatibility, merge and concatenation rules.

use std::fmt;

use super::checks::DimAccumulator;
use super::{MAX_DIMENSIONS, TensorShape, join_dims};
use crate::error::{Error, RangeError, Result, ShapeError};

/// A shape that may be only partly known: dims may be `-1` (unknown) and the
/// rank itself may be unknown. The default is unknown rank.
///
/// TensorFlow reports unknown rank as `dims() == -1`; here
/// [`dims`](Self::dims) returns `None`. `==` is TF's `IsIdenticalTo`
/// (unknown matches only unknown); see also
/// [`is_compatible_with`](Self::is_compatible_with).
///
/// Invariants (checked on construction): at most 254 dims, each `>= -1`,
/// and while no dim is unknown, the checks of [`TensorShape::new`] on the
/// known prefix (TF stops overflow checks at the first unknown dim). So a
/// fully defined partial shape always converts to a [`TensorShape`].
///
/// ```
/// use tftensor::PartialTensorShape;
/// let p = PartialTensorShape::new(&[-1, 3])?;
/// assert_eq!(p.dims(), Some(2));
/// assert_eq!(p.num_elements(), None);
/// assert_eq!(p.to_string(), "[?,3]");
/// assert_eq!(PartialTensorShape::default().to_string(), "<unknown>");
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct PartialTensorShape {
    /// `None` = unknown rank.
    dims: Option<Vec<i64>>,
}

impl PartialTensorShape {
    /// A shape of known rank whose dims are already valid (a
    /// [`TensorShape`]'s).
    pub(super) fn known(dims: Vec<i64>) -> Self {
        PartialTensorShape { dims: Some(dims) }
    }

    /// The shape of unknown rank (same as `default()`).
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// let p = PartialTensorShape::unknown();
    /// assert!(p.unknown_rank());
    /// assert_eq!(p.dims(), None);
    /// ```
    pub fn unknown() -> Self {
        PartialTensorShape { dims: None }
    }

    /// A shape of known rank; `-1` marks an unknown dim. Errors
    /// ([`Error::InvalidShape`]): more than 254 dims → `"Too many dimensions
    /// in tensor"`; a dim below -1 → `"Dimension <d> must be >= -1"` (TF's
    /// `MakeShape` text; TF's list constructor silently treats such dims as
    /// unknown); while every dim so far is known, the overflow errors of
    /// [`TensorShape::new`].
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// assert_eq!(PartialTensorShape::new(&[2, -1])?.to_string(), "[2,?]");
    /// assert_eq!(
    ///     PartialTensorShape::new(&[-2]).unwrap_err().to_string(),
    ///     "Dimension -2 must be >= -1"
    /// );
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn new(dims: &[i64]) -> Result<Self> {
        if dims.len() > MAX_DIMENSIONS {
            return Err(ShapeError::TooManyDims.into());
        }
        if let Some(&d) = dims.iter().find(|&&d| d < -1) {
            return Err(ShapeError::BelowUnknown { dim: d }.into());
        }
        let mut acc = DimAccumulator::new();
        for &d in dims {
            if d == -1 {
                // Element count unknown from here on: TF stops checking.
                break;
            }
            acc.add(d)?;
        }
        Ok(PartialTensorShape {
            dims: Some(dims.to_vec()),
        })
    }

    /// Whether the rank is unknown (TF's `unknown_rank()`).
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// assert!(PartialTensorShape::default().unknown_rank());
    /// assert!(!PartialTensorShape::new(&[-1])?.unknown_rank());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn unknown_rank(&self) -> bool {
        self.dims.is_none()
    }

    /// The rank, or `None` when unknown (TensorFlow returns -1).
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// assert_eq!(PartialTensorShape::new(&[-1, 3])?.dims(), Some(2));
    /// assert_eq!(PartialTensorShape::unknown().dims(), None);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dims(&self) -> Option<usize> {
        self.dims.as_ref().map(Vec::len)
    }

    /// The size of dimension `d`, `-1` if unknown. As in TensorFlow, any `d`
    /// on an unknown-rank shape gives `-1`. With known rank, `d >= rank` is
    /// [`Error::OutOfRange`] `"Index must be less than <rank>, got <d>"`.
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// let p = PartialTensorShape::new(&[-1, 3])?;
    /// assert_eq!((p.dim_size(0)?, p.dim_size(1)?), (-1, 3));
    /// assert!(p.dim_size(2).is_err());
    /// assert_eq!(PartialTensorShape::unknown().dim_size(5)?, -1);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dim_size(&self, d: usize) -> Result<i64> {
        match &self.dims {
            None => Ok(-1),
            Some(v) => v.get(d).copied().ok_or(Error::OutOfRange(RangeError::Dim {
                index: d,
                rank: v.len(),
            })),
        }
    }

    /// All dims (`-1` for unknown ones); empty for unknown rank, as in TF.
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// assert_eq!(PartialTensorShape::new(&[-1, 3])?.dim_sizes(), vec![-1, 3]);
    /// assert!(PartialTensorShape::unknown().dim_sizes().is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dim_sizes(&self) -> Vec<i64> {
        match &self.dims {
            Some(dims) => dims.clone(),
            None => Vec::new(),
        }
    }

    /// The element count, or `None` when the rank or any dim is unknown
    /// (TensorFlow returns -1).
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// assert_eq!(PartialTensorShape::new(&[2, 3])?.num_elements(), Some(6));
    /// assert_eq!(PartialTensorShape::new(&[2, -1])?.num_elements(), None);
    /// assert_eq!(PartialTensorShape::unknown().num_elements(), None);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn num_elements(&self) -> Option<i64> {
        let v = self.dims.as_ref()?;
        // Fully known dims were checked for overflow at construction.
        v.iter()
            .try_fold(1i64, |acc, &d| (d >= 0).then(|| acc.saturating_mul(d)))
    }

    /// Whether the rank and every dim are known.
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// assert!(PartialTensorShape::new(&[2, 3])?.is_fully_defined());
    /// assert!(!PartialTensorShape::new(&[2, -1])?.is_fully_defined());
    /// assert!(!PartialTensorShape::unknown().is_fully_defined());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn is_fully_defined(&self) -> bool {
        self.num_elements().is_some()
    }

    /// TF's `IsCompatibleWith`: an unknown rank is compatible with anything;
    /// otherwise the ranks match and each dim pair is equal or has an
    /// unknown side.
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// let a = PartialTensorShape::new(&[-1, 3])?;
    /// assert!(a.is_compatible_with(&PartialTensorShape::new(&[2, 3])?));
    /// assert!(!a.is_compatible_with(&PartialTensorShape::new(&[2, 4])?));
    /// assert!(a.is_compatible_with(&PartialTensorShape::unknown()));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn is_compatible_with(&self, other: &PartialTensorShape) -> bool {
        match (&self.dims, &other.dims) {
            (Some(a), Some(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(&x, &y)| x < 0 || y < 0 || x == y)
            }
            _ => true,
        }
    }

    /// TF's `IsIdenticalTo` (the same as `==`): both of unknown rank, or the
    /// same rank and the same dims, where `-1` only matches `-1`.
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// let a = PartialTensorShape::new(&[-1, 3])?;
    /// assert!(a.is_identical_to(&PartialTensorShape::new(&[-1, 3])?));
    /// assert!(!a.is_identical_to(&PartialTensorShape::new(&[2, 3])?));
    /// assert!(PartialTensorShape::unknown().is_identical_to(&PartialTensorShape::unknown()));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn is_identical_to(&self, other: &PartialTensorShape) -> bool {
        self == other
    }

    /// TF's `MergeWith`: the most specific shape compatible with both.
    /// An unknown rank takes the other side; unknown dims take the known
    /// value. Errors ([`Error::InvalidArgument`]):
    /// `"PartialTensorShape: Incompatible ranks during merge: 2 vs. 3"`,
    /// `"PartialTensorShape: Incompatible shapes during merge: [2,3] vs.
    /// [2,4]"`. If the merged dims overflow, the [`TensorShape::new`]
    /// overflow error ([`Error::Overflow`]).
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// let a = PartialTensorShape::new(&[-1, 3])?;
    /// let b = PartialTensorShape::new(&[2, -1])?;
    /// assert_eq!(a.merge_with(&b)?.to_string(), "[2,3]");
    /// let c = PartialTensorShape::new(&[2, 4])?;
    /// assert_eq!(
    ///     PartialTensorShape::new(&[2, 3])?.merge_with(&c).unwrap_err().to_string(),
    ///     "PartialTensorShape: Incompatible shapes during merge: [2,3] vs. [2,4]"
    /// );
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn merge_with(&self, other: &PartialTensorShape) -> Result<PartialTensorShape> {
        let (a, b) = match (&self.dims, &other.dims) {
            (None, _) => return Ok(other.clone()),
            (_, None) => return Ok(self.clone()),
            (Some(a), Some(b)) => (a, b),
        };
        if a.len() != b.len() {
            return Err(Error::InvalidArgument(format!(
                "PartialTensorShape: Incompatible ranks during merge: {} vs. {}",
                a.len(),
                b.len()
            )));
        }
        let mut merged = Vec::with_capacity(a.len());
        for (&x, &y) in a.iter().zip(b) {
            if x >= 0 && y >= 0 && x != y {
                return Err(Error::InvalidArgument(format!(
                    "PartialTensorShape: Incompatible shapes during merge: {self} vs. {other}"
                )));
            }
            merged.push(if x >= 0 { x } else { y });
        }
        Self::new(&merged)
    }

    /// TF's `Concatenate(size)`: appends one dim (`-1` = unknown). Unknown
    /// rank stays unknown. Errors as [`PartialTensorShape::new`].
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// let p = PartialTensorShape::new(&[2])?.concatenate(-1)?;
    /// assert_eq!(p.to_string(), "[2,?]");
    /// assert!(PartialTensorShape::unknown().concatenate(3)?.unknown_rank());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn concatenate(&self, size: i64) -> Result<PartialTensorShape> {
        match &self.dims {
            None => Ok(Self::unknown()),
            Some(v) => {
                let mut v = v.clone();
                v.push(size);
                Self::new(&v)
            }
        }
    }

    /// TF's `Concatenate(shape)`: appends all of `other`'s dims; if either
    /// side has unknown rank the result has unknown rank. Errors as
    /// [`PartialTensorShape::new`].
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// let a = PartialTensorShape::new(&[2])?;
    /// let b = PartialTensorShape::new(&[-1, 4])?;
    /// assert_eq!(a.concatenate_shape(&b)?.to_string(), "[2,?,4]");
    /// assert!(a.concatenate_shape(&PartialTensorShape::unknown())?.unknown_rank());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn concatenate_shape(&self, other: &PartialTensorShape) -> Result<PartialTensorShape> {
        match (&self.dims, &other.dims) {
            (Some(a), Some(b)) => {
                let mut v = a.clone();
                v.extend_from_slice(b);
                Self::new(&v)
            }
            _ => Ok(Self::unknown()),
        }
    }

    /// TF's `AsTensorShape`: succeeds iff fully defined; otherwise
    /// [`Error::InvalidShape`] `"Shape <s> is not fully defined"`.
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// assert_eq!(PartialTensorShape::new(&[2, 3])?.to_tensor_shape()?.num_elements(), 6);
    /// assert_eq!(
    ///     PartialTensorShape::new(&[-1, 3])?.to_tensor_shape().unwrap_err().to_string(),
    ///     "Shape [?,3] is not fully defined"
    /// );
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn to_tensor_shape(&self) -> Result<TensorShape> {
        match &self.dims {
            Some(v) if self.is_fully_defined() => TensorShape::new(v),
            _ => Err(ShapeError::NotFullyDefined {
                dims: self.dims.clone(),
            }
            .into()),
        }
    }

    /// TensorFlow's `DebugString`: `[?,3]`, `[]`, or `<unknown>`.
    ///
    /// ```
    /// use tftensor::PartialTensorShape;
    /// assert_eq!(PartialTensorShape::new(&[-1, 3])?.debug_string(), "[?,3]");
    /// assert_eq!(PartialTensorShape::unknown().debug_string(), "<unknown>");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn debug_string(&self) -> String {
        match &self.dims {
            None => "<unknown>".to_string(),
            Some(v) => join_dims(v.iter().copied(), true),
        }
    }
}

impl fmt::Display for PartialTensorShape {
    /// TensorFlow's `DebugString`, e.g. `[?,3]` or `<unknown>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.debug_string())
    }
}

impl fmt::Debug for PartialTensorShape {
    /// `PartialTensorShape([?,3])`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PartialTensorShape({})", self.debug_string())
    }
}
