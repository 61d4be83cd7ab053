//! [`TensorShape`]: a list of known, non-negative dims, with TF's
//! constructors, queries and mutators and their error texts.

use std::fmt;
use std::hash::{Hash, Hasher};

use super::checks::{DimAccumulator, validate_by_adding, validate_dims};
use super::rep::Rep;
use super::{MAX_DIMENSIONS, i64_of_usize, join_dims, usize_of_dim};
use crate::error::{Error, OverflowError, RangeError, Result, ShapeError};

/// The shape of a tensor: a list of non-negative `i64` dimensions, outermost
/// first. The default is the scalar shape `[]` (rank 0, one element).
///
/// Stored in 24 bytes; shapes of rank ≤ 5 whose dims fit in `u32` (so every
/// rank ≤ 4 shape that can back real memory), and of rank 6 whose dims fit
/// in `u16` (TF's Rep16), do not allocate.
///
/// Equality and hashing compare the dimensions only (TensorFlow's
/// `IsSameSize`). `Display` is TensorFlow's `DebugString`: `[2,3]`, `[]`.
/// Invariants, checked on every construction and mutation: at most
/// [`MAX_DIMENSIONS`] dims, every dim `>= 0`, and the product of the
/// non-zero dims fits in `i64` (stricter than TF's running product, as TF's
/// `BuildTensorShapeBase(proto)`), so no element count ever overflows.
///
/// ```
/// use tftensor::TensorShape;
/// let mut s = TensorShape::new(&[2, 3])?;
/// s.add_dim(4)?;
/// assert_eq!(s.dim_sizes(), vec![2, 3, 4]);
/// assert_eq!(s.num_elements(), 24);
/// assert_eq!(format!("{s}"), "[2,3,4]");
/// assert_eq!(TensorShape::default(), TensorShape::scalar());
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone)]
pub struct TensorShape {
    rep: Rep,
}

impl TensorShape {
    /// The scalar shape `[]`: rank 0, one element.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::scalar();
    /// assert_eq!((s.dims(), s.num_elements()), (0, 1));
    /// assert_eq!(s.to_string(), "[]");
    /// ```
    pub fn scalar() -> Self {
        TensorShape { rep: Rep::SCALAR }
    }

    /// Builds a shape from its dimensions (TensorFlow's
    /// `BuildTensorShape(list)`), returning [`Error::InvalidShape`] (or
    /// [`Error::Overflow`] for the element count) on bad input with
    /// TensorFlow's text:
    /// - a negative dim: `"Expected shape dimensions to be non-negative, got
    ///   -1"` (when no dim exceeds 55108, TF's fast path), otherwise
    ///   `"Expected a non-negative size, got -1"`;
    /// - more than 254 dims: `"Too many dimensions in tensor"`;
    /// - element-count overflow: `"Encountered overflow when multiplying
    ///   <count so far> with <dim>, result: -1"`;
    /// - overflow hidden behind a zero dim, e.g. `[0, 2^62, 2^62]`:
    ///   `"Encountered overflow when multiplying shape dimensions"` (TF makes
    ///   this check only on the proto path; see [`TensorShape::is_valid_dims`]).
    ///
    /// ```
    /// use tftensor::{Error, ShapeError, TensorShape};
    /// assert_eq!(TensorShape::new(&[2, 3])?.num_elements(), 6);
    /// let err = TensorShape::new(&[2, -1]).unwrap_err();
    /// assert_eq!(err, Error::InvalidShape(ShapeError::NegativeDimInList { dim: -1 }));
    /// assert_eq!(err.to_string(), "Expected shape dimensions to be non-negative, got -1");
    /// let big = 1i64 << 62;
    /// assert_eq!(
    ///     TensorShape::new(&[0, big, big]).unwrap_err().to_string(),
    ///     "Encountered overflow when multiplying shape dimensions"
    /// );
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn new(dims: &[i64]) -> Result<Self> {
        validate_dims(dims)?;
        Ok(Self::from_valid(dims))
    }

    /// Builds a shape from `usize` dimensions, with the checks of
    /// [`TensorShape::new`]. A dim above `i64::MAX` gives
    /// [`Error::InvalidShape`] `"Dimension <d> does not fit in int64"`
    /// (tftensor's text; TF has no unsigned dims).
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::from_usizes(&[4, 5])?;
    /// assert_eq!(s.dim_sizes(), vec![4, 5]);
    /// assert!(TensorShape::from_usizes(&[usize::MAX]).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_usizes(dims: &[usize]) -> Result<Self> {
        let dims = dims
            .iter()
            .map(|&d| {
                i64::try_from(d).map_err(|_| ShapeError::DimTooLarge { dim: d as u64 }.into())
            })
            .collect::<Result<Vec<i64>>>()?;
        Self::new(&dims)
    }

    /// TensorFlow's `TensorShape::IsValid(const TensorShapeProto&)`, on the
    /// proto's dims (the caller ignores `unknown_rank`, as TF does: an
    /// `unknown_rank` proto with no dims is a valid scalar).
    ///
    /// Valid iff at most 254 dims, none negative, and the running product
    /// never overflows `i64`. The running product becomes 0 after a zero
    /// dim, so `[0, 2^62, 2^62]` is **valid** here although
    /// [`TensorShape::new`] rejects it: callers that go on to build a
    /// `TensorShape` must still handle that error.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert!(TensorShape::is_valid_dims(&[2, 3]));
    /// assert!(!TensorShape::is_valid_dims(&[-1]));
    /// let big = 1i64 << 62;
    /// assert!(!TensorShape::is_valid_dims(&[big, big]));
    /// assert!(TensorShape::is_valid_dims(&[0, big, big]));
    /// assert!(TensorShape::new(&[0, big, big]).is_err());
    /// ```
    pub fn is_valid_dims(dims: &[i64]) -> bool {
        if dims.len() > MAX_DIMENSIONS {
            return false;
        }
        let mut n: i64 = 1;
        for &d in dims {
            if d < 0 {
                return false;
            }
            match n.checked_mul(d) {
                Some(p) => n = p,
                None => return false,
            }
        }
        true
    }

    /// `[0]`, the shape of TF's `Tensor()` and `Tensor(DataType)`; valid
    /// by construction.
    pub(crate) fn empty_vector() -> Self {
        Self::from_valid(&[0])
    }

    /// A shape of dims that already passed validation.
    fn from_valid(dims: &[i64]) -> Self {
        TensorShape {
            rep: Rep::from_valid(dims),
        }
    }

    /// The rank (number of dimensions); TensorFlow's `dims()`.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert_eq!(TensorShape::new(&[2, 3, 4])?.dims(), 3);
    /// assert_eq!(TensorShape::scalar().dims(), 0);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[inline]
    pub fn dims(&self) -> usize {
        self.rep.rank()
    }

    /// The size of dimension `d`. [`Error::OutOfRange`] (`"Index must be less
    /// than <rank>, got <d>"`, TF's `SetDimWithStatus` text) when
    /// `d >= dims()`; TensorFlow CHECK-fails instead (and misses `d = 0` on
    /// a scalar).
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::new(&[2, 3])?;
    /// assert_eq!(s.dim_size(1)?, 3);
    /// assert_eq!(s.dim_size(2).unwrap_err().to_string(), "Index must be less than 2, got 2");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dim_size(&self, d: usize) -> Result<i64> {
        self.iter().nth(d).ok_or_else(|| self.index_error(d))
    }

    fn index_error(&self, d: usize) -> Error {
        Error::OutOfRange(RangeError::Dim {
            index: d,
            rank: self.dims(),
        })
    }

    /// The dimension sizes as a `Vec`.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert_eq!(TensorShape::new(&[2, 3])?.dim_sizes(), vec![2, 3]);
    /// assert!(TensorShape::scalar().dim_sizes().is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dim_sizes(&self) -> Vec<i64> {
        self.iter().collect()
    }

    /// Iterates over the dimension sizes, outermost first.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::new(&[2, 3, 4])?;
    /// assert_eq!(s.iter().len(), 3);
    /// assert_eq!(s.iter().rev().collect::<Vec<_>>(), vec![4, 3, 2]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn iter(&self) -> impl ExactSizeIterator<Item = i64> + DoubleEndedIterator + '_ {
        self.rep.iter()
    }

    /// Writes the first `out.len()` dims into `out` as `usize` (dims are
    /// non-negative); the view path's one read of the shape.
    #[inline]
    pub(crate) fn fill_usize(&self, out: &mut [usize]) {
        self.rep.fill_usize(out);
    }

    /// The first (outermost) dimension, or `None` for a scalar.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert_eq!(TensorShape::new(&[7, 3])?.first_dim(), Some(7));
    /// assert_eq!(TensorShape::scalar().first_dim(), None);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn first_dim(&self) -> Option<i64> {
        self.iter().next()
    }

    /// The number of elements: the product of the dims (1 for a scalar).
    ///
    /// Computed on demand; it cannot overflow because every construction and
    /// mutation checks it.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert_eq!(TensorShape::new(&[2, 3, 4])?.num_elements(), 24);
    /// assert_eq!(TensorShape::new(&[5, 0])?.num_elements(), 0);
    /// assert_eq!(TensorShape::scalar().num_elements(), 1);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[inline]
    pub fn num_elements(&self) -> i64 {
        self.rep.num_elements()
    }

    /// The product of the non-zero dims; bounded by the invariant.
    pub(super) fn nonzero_product(&self) -> i64 {
        self.iter()
            .filter(|&d| d > 0)
            .fold(1i64, |acc, d| acc.saturating_mul(d))
    }

    /// Whether this is the scalar shape `[]` (rank 0).
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert!(TensorShape::scalar().is_scalar());
    /// assert!(!TensorShape::new(&[1])?.is_scalar());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn is_scalar(&self) -> bool {
        self.dims() == 0
    }

    /// Whether both shapes have the same rank and dims (TF's `IsSameSize`;
    /// the same as `==`).
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let a = TensorShape::new(&[2, 3])?;
    /// assert!(a.is_same_size(&TensorShape::new(&[2, 3])?));
    /// assert!(!a.is_same_size(&TensorShape::new(&[3, 2])?));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn is_same_size(&self, other: &TensorShape) -> bool {
        self.dims() == other.dims() && self.iter().eq(other.iter())
    }

    /// TensorFlow's `DebugString`: `[2,3]`, `[]` for a scalar (no spaces).
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert_eq!(TensorShape::new(&[2, 3])?.debug_string(), "[2,3]");
    /// assert_eq!(TensorShape::scalar().debug_string(), "[]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn debug_string(&self) -> String {
        join_dims(self.iter(), false)
    }

    /// The dims as `usize` (ndarray's shape type).
    ///
    /// On 64-bit targets every dim fits; on narrower targets a dim above
    /// `usize::MAX` saturates to `usize::MAX` (no such buffer can exist).
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert_eq!(TensorShape::new(&[2, 3])?.to_usize_vec(), vec![2usize, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn to_usize_vec(&self) -> Vec<usize> {
        self.iter().map(usize_of_dim).collect()
    }

    /// Appends a dimension (TF's `AddDimWithStatus`). Errors
    /// ([`Error::InvalidShape`]): `"Expected a non-negative size, got <s>"`,
    /// `"Too many dimensions in tensor"`; ([`Error::Overflow`]) `"Encountered
    /// overflow when multiplying <n> with <s>, result: -1"`, or (overflow
    /// hidden by a zero dim) `"Encountered overflow when multiplying shape
    /// dimensions"`. On
    /// error the shape is unchanged.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let mut s = TensorShape::new(&[2])?;
    /// s.add_dim(3)?;
    /// assert_eq!(s.to_string(), "[2,3]");
    /// assert_eq!(s.add_dim(-1).unwrap_err().to_string(), "Expected a non-negative size, got -1");
    /// assert_eq!(s.to_string(), "[2,3]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn add_dim(&mut self, size: i64) -> Result<()> {
        DimAccumulator::of(self).add(size)?;
        // Fast path: room left inline and the new dim fits in u32.
        if self.rep.push_inline(size) {
            return Ok(());
        }
        let mut v = self.dim_sizes();
        v.push(size);
        *self = Self::from_valid(&v);
        Ok(())
    }

    /// Inserts a dimension of `size` before index `d` (`0 <= d <= dims()`),
    /// as TF's `InsertDimWithStatus`. Errors, checked in TF's order:
    /// `"Expected a non-negative size, got <s>"` ([`Error::InvalidShape`]),
    /// `"The insertion index must be at most <rank> got <d>"`
    /// ([`Error::OutOfRange`]), `"Shape has 254 dimensions which is the
    /// maximum allowed"` ([`Error::InvalidShape`]), then the
    /// [`add_dim`](Self::add_dim) overflow errors. On error the shape is
    /// unchanged.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let mut s = TensorShape::new(&[2, 3])?;
    /// s.insert_dim(1, 5)?;
    /// assert_eq!(s.to_string(), "[2,5,3]");
    /// assert_eq!(
    ///     s.insert_dim(4, 1).unwrap_err().to_string(),
    ///     "The insertion index must be at most 3 got 4"
    /// );
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn insert_dim(&mut self, d: usize, size: i64) -> Result<()> {
        if size < 0 {
            return Err(ShapeError::NegativeDim { dim: size }.into());
        }
        let rank = self.dims();
        if d > rank {
            return Err(RangeError::Insert { index: d, rank }.into());
        }
        if rank >= MAX_DIMENSIONS {
            return Err(ShapeError::RankAtMaximum { rank }.into());
        }
        let mut v = self.dim_sizes();
        v.insert(d, size);
        validate_by_adding(&v)?;
        *self = Self::from_valid(&v);
        Ok(())
    }

    /// Sets dimension `d` to `size` (TF's `SetDimWithStatus`). Errors:
    /// `"Index must be less than <rank>, got <d>"` ([`Error::OutOfRange`]),
    /// `"Expected a non-negative size, got <s>"` ([`Error::InvalidShape`]),
    /// and, if the element count would overflow (including overflow hidden
    /// by a zero dim), `"Shape <new shape> results in overflow when computing
    /// number of elements"` ([`Error::Overflow`]). On error the shape is
    /// unchanged.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let mut s = TensorShape::new(&[2, 3])?;
    /// s.set_dim(0, 7)?;
    /// assert_eq!(s.to_string(), "[7,3]");
    /// assert_eq!(s.set_dim(2, 1).unwrap_err().to_string(), "Index must be less than 2, got 2");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn set_dim(&mut self, d: usize, size: i64) -> Result<()> {
        let rank = self.dims();
        if d >= rank {
            return Err(self.index_error(d));
        }
        if size < 0 {
            return Err(ShapeError::NegativeDim { dim: size }.into());
        }
        // Fast path (slicing): shrinking an inline dim cannot overflow the
        // non-zero product, and needs no scratch allocation.
        if self.rep.shrink_inline(d, size) {
            return Ok(());
        }
        let mut v = self.dim_sizes();
        if let Some(slot) = v.get_mut(d) {
            *slot = size;
        }
        if validate_by_adding(&v).is_err() {
            return Err(OverflowError::Shape { dims: v }.into());
        }
        *self = Self::from_valid(&v);
        Ok(())
    }

    /// Removes dimension `d`. TF implements this as
    /// `RemoveDimRange(d, d + 1)`, and so does this, with its errors (e.g.
    /// `"End index must be less than 2, got 3"` for `d = 2` on a rank-2
    /// shape; [`Error::OutOfRange`]).
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let mut s = TensorShape::new(&[2, 3, 4])?;
    /// s.remove_dim(1)?;
    /// assert_eq!(s.to_string(), "[2,4]");
    /// assert_eq!(s.remove_dim(2).unwrap_err().to_string(), "End index must be less than 2, got 3");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn remove_dim(&mut self, d: usize) -> Result<()> {
        let d = i64_of_usize(d);
        self.remove_dim_range(d, d.saturating_add(1))
    }

    /// Removes the last `n` dimensions (`n <= dims()`). Error
    /// ([`Error::OutOfRange`]): `"Expected dimension index to be at most
    /// <rank> got <n>"` (TF's `RemoveLastDimsWithStatus` text; TF's own
    /// condition there is inverted, this one is not).
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let mut s = TensorShape::new(&[2, 3, 4])?;
    /// s.remove_last_dims(2)?;
    /// assert_eq!(s.to_string(), "[2]");
    /// assert_eq!(
    ///     s.remove_last_dims(2).unwrap_err().to_string(),
    ///     "Expected dimension index to be at most 1 got 2"
    /// );
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn remove_last_dims(&mut self, n: usize) -> Result<()> {
        let rank = self.dims();
        if n > rank {
            return Err(RangeError::RemoveLast { count: n, rank }.into());
        }
        let keep = rank - n;
        self.remove_dim_range(i64_of_usize(keep), i64_of_usize(rank))
    }

    /// Removes dims `begin..end` (end-exclusive). A negative index `x` means
    /// `dims() + x + 1`, so `-1` is `dims()`; `begin >= end` (after that
    /// adjustment) removes nothing. Errors ([`Error::OutOfRange`], TF's
    /// `RemoveDimRangeWithStatus` texts, with the adjusted value):
    /// `"Start index must be non-negative, got <b>"`, `"Start index must be
    /// less than <rank>, got <b>"` (when `b > rank`), and the same two for
    /// `"End index"`. Removing dims can never overflow, so nothing else fails.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let mut s = TensorShape::new(&[2, 3, 4, 5])?;
    /// s.remove_dim_range(1, -2)?; // -2 means 4 + (-2) + 1 = 3
    /// assert_eq!(s.to_string(), "[2,5]");
    /// s.remove_dim_range(1, 1)?; // empty range: no-op
    /// assert_eq!(s.to_string(), "[2,5]");
    /// assert_eq!(
    ///     s.remove_dim_range(-5, 1).unwrap_err().to_string(),
    ///     "Start index must be non-negative, got -2"
    /// );
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn remove_dim_range(&mut self, begin: i64, end: i64) -> Result<()> {
        let rank = self.dims();
        let rank_i = i64_of_usize(rank);
        let adjust = |x: i64| {
            if x < 0 {
                rank_i.saturating_add(x).saturating_add(1)
            } else {
                x
            }
        };
        let (begin, end) = (adjust(begin), adjust(end));
        // In `0..=rank`, checked as they become indexes.
        let b = usize::try_from(begin)
            .ok()
            .filter(|&b| b <= rank)
            .ok_or(RangeError::RangeStart { index: begin, rank })?;
        let e = usize::try_from(end)
            .ok()
            .filter(|&e| e <= rank)
            .ok_or(RangeError::RangeEnd { index: end, rank })?;
        if b >= e {
            return Ok(());
        }
        // Fast path (sub-slicing): shift inline dims down, no allocation.
        if self.rep.remove_inline(b, e) {
            return Ok(());
        }
        let v: Vec<i64> = self
            .iter()
            .enumerate()
            .filter(|(i, _)| *i < b || *i >= e)
            .map(|(_, d)| d)
            .collect();
        // A subset of valid dims is valid: no re-validation needed.
        *self = Self::from_valid(&v);
        Ok(())
    }

    /// Appends all of `other`'s dims (TF's `AppendShapeWithStatus`), with
    /// the [`add_dim`](Self::add_dim) errors. On error the shape is
    /// unchanged.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let mut s = TensorShape::new(&[2])?;
    /// s.append_shape(&TensorShape::new(&[3, 4])?)?;
    /// assert_eq!(s.to_string(), "[2,3,4]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn append_shape(&mut self, other: &TensorShape) -> Result<()> {
        let mut acc = DimAccumulator::of(self);
        other.iter().try_for_each(|d| acc.add(d))?;
        let mut v = self.dim_sizes();
        v.extend(other.iter());
        *self = Self::from_valid(&v);
        Ok(())
    }

    /// Test hook: whether the dims are stored inline (no heap allocation).
    #[cfg(test)]
    pub(super) fn is_inline(&self) -> bool {
        self.rep.is_inline()
    }
}

impl Default for TensorShape {
    /// The scalar shape `[]`.
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// assert!(TensorShape::default().is_scalar());
    /// ```
    fn default() -> Self {
        Self::scalar()
    }
}

impl PartialEq for TensorShape {
    fn eq(&self, other: &Self) -> bool {
        self.is_same_size(other)
    }
}

impl Eq for TensorShape {}

impl Hash for TensorShape {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Matches `eq`: rank, then every dim as i64, whatever the storage.
        state.write_usize(self.dims());
        for d in self.iter() {
            d.hash(state);
        }
    }
}

impl fmt::Display for TensorShape {
    /// TensorFlow's `DebugString`, e.g. `[2,3]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.debug_string())
    }
}

impl fmt::Debug for TensorShape {
    /// `TensorShape([2,3])`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TensorShape({})", self.debug_string())
    }
}
