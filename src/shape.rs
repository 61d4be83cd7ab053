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

use std::fmt;
use std::hash::{Hash, Hasher};

use crate::error::{Error, OverflowError, RangeError, Result, ShapeError};

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

/// How many dimensions fit inline (as `u32`) without a heap allocation.
const INLINE_CAP: usize = 5;

/// How many dimensions below 2^16 fit inline (TF's Rep16 keeps six).
const INLINE16_CAP: usize = 6;

/// TensorFlow's `kMaxSmall` in `InitDims`: below this, a list of dims takes
/// the fast path, which reports negative dims with its own message.
const K_MAX_SMALL: i64 = 0xD744;

/// TensorFlow's `AddDimWithStatus`, plus the zero-skipping overflow check of
/// `BuildTensorShapeBase(proto)`. Tracks what is needed to add one more dim.
#[derive(Clone, Copy)]
struct DimAccumulator {
    rank: usize,
    /// The running product, i.e. the element count so far.
    num_elements: i64,
    /// The product of the non-zero dims so far.
    nonzero_product: i64,
}

impl DimAccumulator {
    fn new() -> Self {
        DimAccumulator {
            rank: 0,
            num_elements: 1,
            nonzero_product: 1,
        }
    }

    fn of(shape: &TensorShape) -> Self {
        DimAccumulator {
            rank: shape.dims(),
            num_elements: shape.num_elements(),
            nonzero_product: shape.nonzero_product(),
        }
    }

    fn add(&mut self, size: i64) -> Result<()> {
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
fn validate_dims(dims: &[i64]) -> Result<()> {
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
fn validate_by_adding(dims: &[i64]) -> Result<()> {
    let mut acc = DimAccumulator::new();
    dims.iter().try_for_each(|&s| acc.add(s))
}

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

fn index_to_i64(d: usize) -> i64 {
    // Any index this large is out of range anyway; saturating keeps it so.
    i64::try_from(d).unwrap_or(i64::MAX)
}

#[derive(Clone)]
enum Rep {
    /// `rank <= INLINE_CAP` and every dim `<= u32::MAX`. Slots past `rank`
    /// are always zero.
    Inline { rank: u8, dims: [u32; INLINE_CAP] },
    /// Not `Inline`, `rank <= INLINE16_CAP` and every dim `<= u16::MAX`
    /// (TF's Rep16). Slots past `rank` are always zero.
    Inline16 { rank: u8, dims: [u16; INLINE16_CAP] },
    /// Anything else. Never used when `Inline` would do.
    Heap(Box<[i64]>),
}

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

/// Iterator over a [`TensorShape`]'s dimensions.
enum DimIter<'a> {
    Inline(std::slice::Iter<'a, u32>),
    Inline16(std::slice::Iter<'a, u16>),
    Heap(std::slice::Iter<'a, i64>),
}

impl Iterator for DimIter<'_> {
    type Item = i64;

    fn next(&mut self) -> Option<i64> {
        match self {
            DimIter::Inline(it) => it.next().map(|&d| i64::from(d)),
            DimIter::Inline16(it) => it.next().map(|&d| i64::from(d)),
            DimIter::Heap(it) => it.next().copied(),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        match self {
            DimIter::Inline(it) => it.size_hint(),
            DimIter::Inline16(it) => it.size_hint(),
            DimIter::Heap(it) => it.size_hint(),
        }
    }
}

impl DoubleEndedIterator for DimIter<'_> {
    fn next_back(&mut self) -> Option<i64> {
        match self {
            DimIter::Inline(it) => it.next_back().map(|&d| i64::from(d)),
            DimIter::Inline16(it) => it.next_back().map(|&d| i64::from(d)),
            DimIter::Heap(it) => it.next_back().copied(),
        }
    }
}

impl ExactSizeIterator for DimIter<'_> {}

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
        TensorShape {
            rep: Rep::Inline {
                rank: 0,
                dims: [0; INLINE_CAP],
            },
        }
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

    /// Builds the representation from dims that already passed validation.
    fn from_valid(dims: &[i64]) -> Self {
        if dims.len() <= INLINE_CAP {
            let mut buf = [0u32; INLINE_CAP];
            let mut fits = true;
            for (slot, &d) in buf.iter_mut().zip(dims) {
                match u32::try_from(d) {
                    Ok(v) => *slot = v,
                    Err(_) => {
                        fits = false;
                        break;
                    }
                }
            }
            if let (true, Ok(rank)) = (fits, u8::try_from(dims.len())) {
                return TensorShape {
                    rep: Rep::Inline { rank, dims: buf },
                };
            }
        }
        if dims.len() <= INLINE16_CAP {
            let mut buf = [0u16; INLINE16_CAP];
            let fits = buf
                .iter_mut()
                .zip(dims)
                .all(|(slot, &d)| u16::try_from(d).map(|v| *slot = v).is_ok());
            if let (true, Ok(rank)) = (fits, u8::try_from(dims.len())) {
                return TensorShape {
                    rep: Rep::Inline16 { rank, dims: buf },
                };
            }
        }
        TensorShape {
            rep: Rep::Heap(dims.into()),
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
        match &self.rep {
            Rep::Inline { rank, .. } | Rep::Inline16 { rank, .. } => usize::from(*rank),
            Rep::Heap(d) => d.len(),
        }
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
        match &self.rep {
            Rep::Inline { rank, dims } => {
                debug_assert!(
                    usize::from(*rank) <= dims.len(),
                    "inline rank past its slots"
                );
                let live = dims.get(..usize::from(*rank)).unwrap_or(dims);
                DimIter::Inline(live.iter())
            }
            Rep::Inline16 { rank, dims } => {
                debug_assert!(
                    usize::from(*rank) <= dims.len(),
                    "inline rank past its slots"
                );
                let live = dims.get(..usize::from(*rank)).unwrap_or(dims);
                DimIter::Inline16(live.iter())
            }
            Rep::Heap(d) => DimIter::Heap(d.iter()),
        }
    }

    /// Writes the first `out.len()` dims into `out` as `usize` (dims are
    /// non-negative); the view path's one read of the shape.
    #[inline]
    pub(crate) fn fill_usize(&self, out: &mut [usize]) {
        match &self.rep {
            Rep::Inline { dims, .. } => {
                for (o, &d) in out.iter_mut().zip(dims) {
                    *o = d as usize;
                }
            }
            Rep::Inline16 { dims, .. } => {
                for (o, &d) in out.iter_mut().zip(dims) {
                    *o = usize::from(d);
                }
            }
            Rep::Heap(dims) => {
                for (o, &d) in out.iter_mut().zip(dims.iter()) {
                    *o = usize::try_from(d).unwrap_or(usize::MAX);
                }
            }
        }
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
        // The invariant means this never saturates; saturating avoids a
        // debug-build overflow panic path all the same. One match, then a
        // plain loop: this is on every view's path.
        match &self.rep {
            Rep::Inline { rank, dims } => dims
                .iter()
                .take(usize::from(*rank))
                .fold(1i64, |acc, &d| acc.saturating_mul(i64::from(d))),
            Rep::Inline16 { rank, dims } => dims
                .iter()
                .take(usize::from(*rank))
                .fold(1i64, |acc, &d| acc.saturating_mul(i64::from(d))),
            Rep::Heap(dims) => dims.iter().fold(1i64, |acc, &d| acc.saturating_mul(d)),
        }
    }

    /// The product of the non-zero dims; bounded by the invariant.
    fn nonzero_product(&self) -> i64 {
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
        self.iter()
            .map(|d| usize::try_from(d).unwrap_or(usize::MAX))
            .collect()
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
        if let Rep::Inline { rank, dims } = &mut self.rep {
            if let (Some(slot), Ok(v)) = (dims.get_mut(usize::from(*rank)), u32::try_from(size)) {
                *slot = v;
                *rank += 1;
                return Ok(());
            }
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
        if let Rep::Inline { dims, .. } = &mut self.rep {
            if let (Some(slot), Ok(new)) = (dims.get_mut(d), u32::try_from(size)) {
                if new <= *slot {
                    *slot = new;
                    return Ok(());
                }
            }
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
        let d = index_to_i64(d);
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
        self.remove_dim_range(index_to_i64(keep), index_to_i64(rank))
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
        let rank_i = index_to_i64(rank);
        let adjust = |x: i64| {
            if x < 0 {
                rank_i.saturating_add(x).saturating_add(1)
            } else {
                x
            }
        };
        let (begin, end) = (adjust(begin), adjust(end));
        if begin < 0 || begin > rank_i {
            return Err(RangeError::RangeStart { index: begin, rank }.into());
        }
        if end < 0 || end > rank_i {
            return Err(RangeError::RangeEnd { index: end, rank }.into());
        }
        if begin >= end {
            return Ok(());
        }
        // Both are within 0..=rank here, so they fit in usize.
        debug_assert!((0..=rank_i).contains(&begin) && (0..=rank_i).contains(&end));
        let (b, e) = (
            usize::try_from(begin).unwrap_or(rank),
            usize::try_from(end).unwrap_or(rank),
        );
        // Fast path (sub-slicing): shift inline dims down, no allocation.
        if let Rep::Inline { rank, dims } = &mut self.rep {
            let r = usize::from(*rank);
            if e <= r && r <= dims.len() {
                dims.copy_within(e..r, b);
                let removed = e - b;
                for slot in dims.iter_mut().skip(r - removed) {
                    *slot = 0;
                }
                // `r - removed <= r <= INLINE_CAP`: the cast is exact.
                *rank = (r - removed) as u8;
                return Ok(());
            }
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
    fn is_inline(&self) -> bool {
        matches!(self.rep, Rep::Inline { .. } | Rep::Inline16 { .. })
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

impl TryFrom<&[i64]> for TensorShape {
    type Error = Error;

    /// Same as [`TensorShape::new`].
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::try_from(&[2i64, 3][..])?;
    /// assert_eq!(s.num_elements(), 6);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(dims: &[i64]) -> Result<Self> {
        Self::new(dims)
    }
}

impl<const N: usize> TryFrom<[i64; N]> for TensorShape {
    type Error = Error;

    /// Same as [`TensorShape::new`].
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::try_from([2, 3])?;
    /// assert_eq!(s.to_string(), "[2,3]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(dims: [i64; N]) -> Result<Self> {
        Self::new(&dims)
    }
}

impl<const N: usize> TryFrom<&[i64; N]> for TensorShape {
    type Error = Error;

    /// Same as [`TensorShape::new`].
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::try_from(&[2, 3])?;
    /// assert_eq!(s.to_string(), "[2,3]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(dims: &[i64; N]) -> Result<Self> {
        Self::new(dims)
    }
}

impl TryFrom<Vec<i64>> for TensorShape {
    type Error = Error;

    /// Same as [`TensorShape::new`].
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::try_from(vec![4i64, 5])?;
    /// assert_eq!(s.num_elements(), 20);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(dims: Vec<i64>) -> Result<Self> {
        Self::new(&dims)
    }
}

impl TryFrom<&Vec<i64>> for TensorShape {
    type Error = Error;

    /// Same as [`TensorShape::new`].
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let dims = vec![4i64, 5];
    /// assert_eq!(TensorShape::try_from(&dims)?.num_elements(), 20);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(dims: &Vec<i64>) -> Result<Self> {
        Self::new(dims)
    }
}

impl TryFrom<&[usize]> for TensorShape {
    type Error = Error;

    /// Same as [`TensorShape::from_usizes`].
    ///
    /// ```
    /// use tftensor::TensorShape;
    /// let s = TensorShape::try_from(&[2usize, 3][..])?;
    /// assert_eq!(s.to_string(), "[2,3]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(dims: &[usize]) -> Result<Self> {
        Self::from_usizes(dims)
    }
}

impl TryFrom<&PartialTensorShape> for TensorShape {
    type Error = Error;

    /// Same as [`PartialTensorShape::to_tensor_shape`].
    ///
    /// ```
    /// use tftensor::{PartialTensorShape, TensorShape};
    /// let p = PartialTensorShape::new(&[2, 3])?;
    /// assert_eq!(TensorShape::try_from(&p)?.num_elements(), 6);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(p: &PartialTensorShape) -> Result<Self> {
        p.to_tensor_shape()
    }
}

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
        self.dims.clone().unwrap_or_default()
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

impl From<TensorShape> for PartialTensorShape {
    /// Every `TensorShape` is a fully defined partial shape.
    ///
    /// ```
    /// use tftensor::{PartialTensorShape, TensorShape};
    /// let p = PartialTensorShape::from(TensorShape::new(&[2, 3])?);
    /// assert!(p.is_fully_defined());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn from(s: TensorShape) -> Self {
        PartialTensorShape::from(&s)
    }
}

impl From<&TensorShape> for PartialTensorShape {
    /// Every `TensorShape` is a fully defined partial shape.
    ///
    /// ```
    /// use tftensor::{PartialTensorShape, TensorShape};
    /// let s = TensorShape::new(&[2, 3])?;
    /// assert_eq!(PartialTensorShape::from(&s).to_string(), "[2,3]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn from(s: &TensorShape) -> Self {
        PartialTensorShape {
            dims: Some(s.dim_sizes()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;

    const BIG: i64 = 1 << 62;

    fn ts(d: &[i64]) -> TensorShape {
        TensorShape::new(d).unwrap()
    }

    fn pts(d: &[i64]) -> PartialTensorShape {
        PartialTensorShape::new(d).unwrap()
    }

    fn shape_msg(r: Result<impl fmt::Debug>) -> String {
        match r {
            Err(Error::InvalidShape(m)) => m.to_string(),
            Err(Error::Overflow(m)) => m.to_string(),
            other => panic!("expected InvalidShape or Overflow, got {other:?}"),
        }
    }

    fn range_msg(r: Result<impl fmt::Debug>) -> String {
        match r {
            Err(Error::OutOfRange(m)) => m.to_string(),
            other => panic!("expected OutOfRange, got {other:?}"),
        }
    }

    fn arg_msg(r: Result<impl fmt::Debug>) -> String {
        match r {
            Err(Error::InvalidArgument(m)) => m,
            other => panic!("expected InvalidArgument, got {other:?}"),
        }
    }

    fn hash_of<T: Hash>(t: &T) -> u64 {
        let mut h = DefaultHasher::new();
        t.hash(&mut h);
        h.finish()
    }

    #[test]
    fn size_is_24_bytes() {
        assert_eq!(std::mem::size_of::<TensorShape>(), 24);
    }

    #[test]
    fn max_dimensions() {
        assert_eq!(MAX_DIMENSIONS, 254);
    }

    #[test]
    fn scalar_and_default() {
        let s = TensorShape::scalar();
        assert_eq!(s.dims(), 0);
        assert_eq!(s.num_elements(), 1);
        assert!(s.is_scalar());
        assert_eq!(s.dim_sizes(), Vec::<i64>::new());
        assert_eq!(s.first_dim(), None);
        assert_eq!(s, TensorShape::default());
        assert_eq!(s, ts(&[]));
        assert!(s.is_inline());
    }

    #[test]
    fn inline_representation() {
        // rank <= 4 never allocates; rank 5 with u32 dims neither.
        assert!(ts(&[2, 3, 4, 5]).is_inline());
        let m = i64::from(u32::MAX);
        assert!(ts(&[m]).is_inline());
        assert!(ts(&[1, 2, 3, 4, 5]).is_inline());
        assert!(ts(&[m, 1, 0, 1, 2]).is_inline());
        // Rank 6 with dims below 2^16 too (TF's Rep16; issue 11, fault 9).
        assert!(ts(&[1, 2, 3, 4, 5, 6]).is_inline());
        assert!(ts(&[65535, 0, 3, 4, 5, 6]).is_inline());
        assert!(!ts(&[65536, 2, 3, 4, 5, 6]).is_inline());
        assert!(!ts(&[1, 2, 3, 4, 5, 6, 7]).is_inline());
        assert_eq!(
            ts(&[65535, 0, 3, 4, 5, 6]).dim_sizes(),
            vec![65535, 0, 3, 4, 5, 6]
        );
        assert!(!ts(&[m + 1]).is_inline());
        assert!(!ts(&[0, m + 1]).is_inline());
    }

    #[test]
    fn representation_is_normalised_after_mutation() {
        let mut s = ts(&[1, 2, 3, 4, 5, 6, 7]);
        assert!(!s.is_inline());
        s.remove_dim(6).unwrap();
        assert!(s.is_inline()); // rank 6, 16-bit dims
        s.remove_dim(5).unwrap();
        assert!(s.is_inline());
        assert_eq!(s.dim_sizes(), vec![1, 2, 3, 4, 5]);
        s.add_dim(1 << 20).unwrap();
        assert!(!s.is_inline());
        s.remove_last_dims(1).unwrap();
        assert!(s.is_inline());
        let big = i64::from(u32::MAX) + 1;
        s.set_dim(0, big).unwrap();
        assert!(!s.is_inline());
        s.set_dim(0, 1).unwrap();
        assert!(s.is_inline());
        assert_eq!(s, ts(&[1, 2, 3, 4, 5]));
        s.add_dim(big).unwrap();
        assert!(!s.is_inline());
        assert_eq!(s.dim_sizes(), vec![1, 2, 3, 4, 5, big]);
        s.set_dim(5, 6).unwrap();
        assert!(s.is_inline());
    }

    #[test]
    fn queries() {
        let s = ts(&[2, 3, 4]);
        assert_eq!(s.dims(), 3);
        assert_eq!(s.dim_size(0).unwrap(), 2);
        assert_eq!(s.dim_size(2).unwrap(), 4);
        assert_eq!(range_msg(s.dim_size(3)), "Index must be less than 3, got 3");
        assert_eq!(
            range_msg(TensorShape::scalar().dim_size(0)),
            "Index must be less than 0, got 0"
        );
        assert_eq!(s.dim_sizes(), vec![2, 3, 4]);
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![2, 3, 4]);
        assert_eq!(s.iter().len(), 3);
        assert_eq!(s.iter().rev().collect::<Vec<_>>(), vec![4, 3, 2]);
        assert_eq!(s.num_elements(), 24);
        assert_eq!(s.first_dim(), Some(2));
        assert!(!s.is_scalar());
        assert_eq!(s.to_usize_vec(), vec![2usize, 3, 4]);
        assert_eq!(ts(&[3, 0, 5]).num_elements(), 0);
        // Heap representation answers the same way.
        let h = ts(&[1, 2, 1, 2, 1, 2, 1]);
        assert_eq!(h.dims(), 7);
        assert_eq!(h.dim_size(6).unwrap(), 1);
        assert_eq!(range_msg(h.dim_size(7)), "Index must be less than 7, got 7");
        assert_eq!(h.num_elements(), 8);
        assert_eq!(h.iter().len(), 7);
    }

    #[test]
    fn equality_and_hash() {
        let a = ts(&[2, 3]);
        assert_eq!(a, ts(&[2, 3]));
        assert_ne!(a, ts(&[3, 2]));
        assert_ne!(a, ts(&[2, 3, 1]));
        assert!(a.is_same_size(&ts(&[2, 3])));
        assert!(!a.is_same_size(&ts(&[2])));
        // Same dims reached through different histories hash equally.
        let mut b = ts(&[2, 3, 9, 9, 9, 9, 9]);
        b.remove_last_dims(5).unwrap();
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
        assert_ne!(hash_of(&a), hash_of(&ts(&[3, 2])));
    }

    #[test]
    fn display_and_debug() {
        assert_eq!(ts(&[2, 3]).to_string(), "[2,3]");
        assert_eq!(ts(&[]).to_string(), "[]");
        assert_eq!(ts(&[0]).to_string(), "[0]");
        assert_eq!(ts(&[2, 3]).debug_string(), "[2,3]");
        assert_eq!(format!("{:?}", ts(&[2, 3])), "TensorShape([2,3])");
        assert_eq!(
            ts(&[1 << 40, 1, 1, 1, 1, 1]).to_string(),
            "[1099511627776,1,1,1,1,1]"
        );
    }

    #[test]
    fn negative_dims() {
        assert_eq!(
            shape_msg(TensorShape::new(&[2, -1])),
            "Expected shape dimensions to be non-negative, got -1"
        );
        assert_eq!(
            shape_msg(TensorShape::new(&[1, 1, 1, 1, 1, -7])),
            "Expected shape dimensions to be non-negative, got -7"
        );
        // With a dim above 0xD744 TF goes dim by dim through AddDimWithStatus.
        assert_eq!(
            shape_msg(TensorShape::new(&[100_000, -3])),
            "Expected a non-negative size, got -3"
        );
        assert_eq!(
            shape_msg(TensorShape::new(&[-3, 0xD745])),
            "Expected a non-negative size, got -3"
        );
        assert_eq!(
            shape_msg(TensorShape::new(&[-3, 0xD744])),
            "Expected shape dimensions to be non-negative, got -3"
        );
    }

    #[test]
    fn rank_limit() {
        let ok = TensorShape::new(&[1; 254]).unwrap();
        assert_eq!(ok.dims(), 254);
        assert_eq!(ok.num_elements(), 1);
        assert_eq!(
            shape_msg(TensorShape::new(&[1; 255])),
            "Too many dimensions in tensor"
        );
        let mut s = ok.clone();
        assert_eq!(shape_msg(s.add_dim(1)), "Too many dimensions in tensor");
        assert_eq!(s, ok);
        assert_eq!(
            shape_msg(s.insert_dim(0, 1)),
            "Shape has 254 dimensions which is the maximum allowed"
        );
        assert_eq!(
            shape_msg(s.append_shape(&ts(&[1]))),
            "Too many dimensions in tensor"
        );
        s.append_shape(&TensorShape::scalar()).unwrap();
        assert_eq!(s, ok);
    }

    #[test]
    fn overflow() {
        assert_eq!(
            shape_msg(TensorShape::new(&[1 << 32, 1 << 31, 2])),
            "Encountered overflow when multiplying 4294967296 with 2147483648, result: -1"
        );
        assert_eq!(
            shape_msg(TensorShape::new(&[BIG, 2])),
            "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
        );
        // i64::MAX elements is fine.
        assert_eq!(ts(&[i64::MAX]).num_elements(), i64::MAX);
        assert_eq!(ts(&[i64::MAX, 1, 0]).num_elements(), 0);
        // Small dims but rank > 4: 55108^5 overflows.
        assert_eq!(
            shape_msg(TensorShape::new(&[0xD744; 5])),
            "Encountered overflow when multiplying 9222710978872688896 with 55108, result: -1"
        );
    }

    #[test]
    fn zero_dim_hiding_overflow() {
        // new() rejects it (TF's proto-path check) ...
        assert_eq!(
            shape_msg(TensorShape::new(&[0, BIG, BIG])),
            "Encountered overflow when multiplying shape dimensions"
        );
        assert_eq!(
            shape_msg(TensorShape::new(&[BIG, 0, BIG])),
            "Encountered overflow when multiplying shape dimensions"
        );
        // ... zero last: the running product overflows first.
        assert_eq!(
            shape_msg(TensorShape::new(&[BIG, BIG, 0])),
            "Encountered overflow when multiplying 4611686018427387904 with 4611686018427387904, result: -1"
        );
        // ... but TF's IsValid(proto) accepts it.
        assert!(TensorShape::is_valid_dims(&[0, BIG, BIG]));
        assert!(!TensorShape::is_valid_dims(&[BIG, BIG, 0]));
        // A zero with a fitting product is fine.
        assert_eq!(ts(&[0, BIG, 1]).num_elements(), 0);
    }

    #[test]
    fn is_valid_dims() {
        assert!(TensorShape::is_valid_dims(&[]));
        assert!(TensorShape::is_valid_dims(&[2, 3]));
        assert!(TensorShape::is_valid_dims(&[i64::MAX]));
        assert!(TensorShape::is_valid_dims(&[1; 254]));
        assert!(!TensorShape::is_valid_dims(&[1; 255]));
        assert!(!TensorShape::is_valid_dims(&[-1]));
        assert!(!TensorShape::is_valid_dims(&[0, -1]));
        assert!(!TensorShape::is_valid_dims(&[BIG, 2]));
        assert!(TensorShape::is_valid_dims(&[BIG, 1]));
    }

    #[test]
    fn from_usizes_and_try_from() {
        assert_eq!(TensorShape::from_usizes(&[2, 3]).unwrap(), ts(&[2, 3]));
        assert_eq!(
            shape_msg(TensorShape::from_usizes(&[usize::MAX])),
            format!("Dimension {} does not fit in int64", usize::MAX)
        );
        assert_eq!(TensorShape::try_from(&[2i64, 3][..]).unwrap(), ts(&[2, 3]));
        assert_eq!(TensorShape::try_from([2, 3]).unwrap(), ts(&[2, 3]));
        assert_eq!(TensorShape::try_from(&[2, 3]).unwrap(), ts(&[2, 3]));
        assert_eq!(TensorShape::try_from(vec![2i64, 3]).unwrap(), ts(&[2, 3]));
        assert_eq!(TensorShape::try_from(&vec![2i64, 3]).unwrap(), ts(&[2, 3]));
        assert_eq!(
            TensorShape::try_from(&[2usize, 3][..]).unwrap(),
            ts(&[2, 3])
        );
        assert_eq!(
            shape_msg(TensorShape::try_from([-1])),
            "Expected shape dimensions to be non-negative, got -1"
        );
        assert_eq!(TensorShape::try_from(&pts(&[2, 3])).unwrap(), ts(&[2, 3]));
    }

    #[test]
    fn add_dim() {
        let mut s = TensorShape::scalar();
        s.add_dim(2).unwrap();
        s.add_dim(0).unwrap();
        assert_eq!(s.dim_sizes(), vec![2, 0]);
        assert_eq!(
            shape_msg(s.add_dim(-1)),
            "Expected a non-negative size, got -1"
        );
        let mut s = ts(&[BIG]);
        assert_eq!(
            shape_msg(s.add_dim(2)),
            "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
        );
        assert_eq!(s, ts(&[BIG]));
        let mut z = ts(&[0, BIG]);
        assert_eq!(
            shape_msg(z.add_dim(2)),
            "Encountered overflow when multiplying shape dimensions"
        );
        assert_eq!(z, ts(&[0, BIG]));
        z.add_dim(1).unwrap();
        assert_eq!(z.dim_sizes(), vec![0, BIG, 1]);
    }

    #[test]
    fn insert_dim() {
        let mut s = ts(&[2, 3]);
        s.insert_dim(0, 1).unwrap();
        assert_eq!(s.dim_sizes(), vec![1, 2, 3]);
        s.insert_dim(3, 4).unwrap();
        assert_eq!(s.dim_sizes(), vec![1, 2, 3, 4]);
        s.insert_dim(2, 5).unwrap();
        assert_eq!(s.dim_sizes(), vec![1, 2, 5, 3, 4]);
        assert_eq!(
            shape_msg(s.insert_dim(9, -1)),
            "Expected a non-negative size, got -1"
        );
        assert_eq!(
            range_msg(s.insert_dim(6, 1)),
            "The insertion index must be at most 5 got 6"
        );
        let mut b = ts(&[BIG, 1]);
        assert_eq!(
            shape_msg(b.insert_dim(1, 2)),
            "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
        );
        assert_eq!(b, ts(&[BIG, 1]));
        let mut z = ts(&[BIG, 0]);
        assert_eq!(
            shape_msg(z.insert_dim(2, 4)),
            "Encountered overflow when multiplying shape dimensions"
        );
        assert_eq!(z, ts(&[BIG, 0]));
    }

    #[test]
    fn set_dim() {
        let mut s = ts(&[2, 3]);
        s.set_dim(1, 0).unwrap();
        assert_eq!(s.dim_sizes(), vec![2, 0]);
        assert_eq!(
            range_msg(s.set_dim(2, 1)),
            "Index must be less than 2, got 2"
        );
        assert_eq!(
            shape_msg(s.set_dim(0, -4)),
            "Expected a non-negative size, got -4"
        );
        let mut b = ts(&[BIG, 1]);
        assert_eq!(
            shape_msg(b.set_dim(1, 2)),
            "Shape [4611686018427387904,2] results in overflow when computing number of elements"
        );
        assert_eq!(b, ts(&[BIG, 1]));
        // Zero-hidden overflow is rejected too.
        let mut z = ts(&[0, BIG, 1]);
        assert_eq!(
            shape_msg(z.set_dim(2, 4)),
            "Shape [0,4611686018427387904,4] results in overflow when computing number of elements"
        );
        assert_eq!(z, ts(&[0, BIG, 1]));
    }

    #[test]
    fn remove_dim_and_last_dims() {
        let mut s = ts(&[2, 3, 4]);
        s.remove_dim(0).unwrap();
        assert_eq!(s.dim_sizes(), vec![3, 4]);
        assert_eq!(
            range_msg(s.remove_dim(2)),
            "End index must be less than 2, got 3"
        );
        assert_eq!(
            range_msg(s.remove_dim(5)),
            "Start index must be less than 2, got 5"
        );
        assert_eq!(s.dim_sizes(), vec![3, 4]);
        s.remove_last_dims(0).unwrap();
        assert_eq!(s.dim_sizes(), vec![3, 4]);
        assert_eq!(
            range_msg(s.remove_last_dims(3)),
            "Expected dimension index to be at most 2 got 3"
        );
        s.remove_last_dims(2).unwrap();
        assert!(s.is_scalar());
        // Removing a zero dim can expose no overflow: invariant holds.
        let mut z = ts(&[0, BIG, 1]);
        z.remove_dim(0).unwrap();
        assert_eq!(z.num_elements(), BIG);
    }

    #[test]
    fn remove_dim_range() {
        let base = ts(&[2, 3, 4, 5]);
        let mut s = base.clone();
        s.remove_dim_range(1, 3).unwrap();
        assert_eq!(s.dim_sizes(), vec![2, 5]);
        let mut s = base.clone();
        s.remove_dim_range(0, -1).unwrap(); // -1 -> 4: everything
        assert!(s.is_scalar());
        let mut s = base.clone();
        s.remove_dim_range(-3, -1).unwrap(); // -3 -> 2
        assert_eq!(s.dim_sizes(), vec![2, 3]);
        let mut s = base.clone();
        s.remove_dim_range(-5, -4).unwrap(); // 0..1
        assert_eq!(s.dim_sizes(), vec![3, 4, 5]);
        let mut s = base.clone();
        s.remove_dim_range(3, 1).unwrap(); // begin >= end: no-op
        s.remove_dim_range(2, 2).unwrap();
        s.remove_dim_range(4, 4).unwrap();
        assert_eq!(s, base);
        assert_eq!(
            range_msg(s.remove_dim_range(-6, 1)),
            "Start index must be non-negative, got -1"
        );
        assert_eq!(
            range_msg(s.remove_dim_range(5, 6)),
            "Start index must be less than 4, got 5"
        );
        assert_eq!(
            range_msg(s.remove_dim_range(0, -6)),
            "End index must be non-negative, got -1"
        );
        assert_eq!(
            range_msg(s.remove_dim_range(0, 5)),
            "End index must be less than 4, got 5"
        );
        assert_eq!(
            range_msg(s.remove_dim_range(i64::MIN, 0)),
            format!("Start index must be non-negative, got {}", i64::MIN + 5)
        );
        assert_eq!(s, base);
    }

    #[test]
    fn append_shape() {
        let mut s = ts(&[2]);
        s.append_shape(&ts(&[3, 4])).unwrap();
        assert_eq!(s.dim_sizes(), vec![2, 3, 4]);
        s.append_shape(&ts(&[1, 1, 1, 1])).unwrap();
        assert_eq!(s.dim_sizes(), vec![2, 3, 4, 1, 1, 1, 1]);
        let mut b = ts(&[BIG]);
        assert_eq!(
            shape_msg(b.append_shape(&ts(&[1, 2]))),
            "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
        );
        assert_eq!(b, ts(&[BIG]));
        let mut z = ts(&[0, 2]);
        assert_eq!(
            shape_msg(z.append_shape(&ts(&[1, BIG]))),
            "Encountered overflow when multiplying shape dimensions"
        );
        assert_eq!(z, ts(&[0, 2]));
    }

    // ---- PartialTensorShape ----

    #[test]
    fn partial_basics() {
        let u = PartialTensorShape::default();
        assert!(u.unknown_rank());
        assert_eq!(u, PartialTensorShape::unknown());
        assert_eq!(u.dims(), None);
        assert_eq!(u.dim_size(0).unwrap(), -1);
        assert_eq!(u.dim_sizes(), Vec::<i64>::new());
        assert_eq!(u.num_elements(), None);
        assert!(!u.is_fully_defined());

        let p = pts(&[-1, 3]);
        assert!(!p.unknown_rank());
        assert_eq!(p.dims(), Some(2));
        assert_eq!(p.dim_size(0).unwrap(), -1);
        assert_eq!(p.dim_size(1).unwrap(), 3);
        assert_eq!(range_msg(p.dim_size(2)), "Index must be less than 2, got 2");
        assert_eq!(p.dim_sizes(), vec![-1, 3]);
        assert_eq!(p.num_elements(), None);
        assert!(!p.is_fully_defined());

        let f = pts(&[2, 3]);
        assert_eq!(f.num_elements(), Some(6));
        assert!(f.is_fully_defined());
        let sc = pts(&[]);
        assert_eq!(sc.dims(), Some(0));
        assert_eq!(sc.num_elements(), Some(1));
        assert!(sc.is_fully_defined());
    }

    #[test]
    fn partial_new_errors() {
        assert_eq!(
            shape_msg(PartialTensorShape::new(&[2, -2])),
            "Dimension -2 must be >= -1"
        );
        assert_eq!(pts(&[-1; 254]).dims(), Some(254));
        assert_eq!(
            shape_msg(PartialTensorShape::new(&[-1; 255])),
            "Too many dimensions in tensor"
        );
        assert_eq!(
            shape_msg(PartialTensorShape::new(&[BIG, 2])),
            "Encountered overflow when multiplying 4611686018427387904 with 2, result: -1"
        );
        assert_eq!(
            shape_msg(PartialTensorShape::new(&[0, BIG, BIG])),
            "Encountered overflow when multiplying shape dimensions"
        );
        // After an unknown dim TF stops checking the product.
        assert_eq!(pts(&[-1, BIG, BIG]).dim_sizes(), vec![-1, BIG, BIG]);
    }

    #[test]
    fn partial_display() {
        assert_eq!(pts(&[-1, 3]).to_string(), "[?,3]");
        assert_eq!(pts(&[]).to_string(), "[]");
        assert_eq!(pts(&[2, 3]).to_string(), "[2,3]");
        assert_eq!(PartialTensorShape::unknown().to_string(), "<unknown>");
        assert_eq!(pts(&[-1]).debug_string(), "[?]");
        assert_eq!(format!("{:?}", pts(&[-1, 3])), "PartialTensorShape([?,3])");
        assert_eq!(
            format!("{:?}", PartialTensorShape::unknown()),
            "PartialTensorShape(<unknown>)"
        );
    }

    #[test]
    fn partial_compatible_and_identical() {
        let u = PartialTensorShape::unknown();
        let a = pts(&[-1, 3]);
        assert!(a.is_compatible_with(&pts(&[2, 3])));
        assert!(a.is_compatible_with(&pts(&[-1, -1])));
        assert!(!a.is_compatible_with(&pts(&[2, 4])));
        assert!(!a.is_compatible_with(&pts(&[2, 3, 1])));
        assert!(a.is_compatible_with(&u));
        assert!(u.is_compatible_with(&a));
        assert!(u.is_compatible_with(&u));

        assert!(a.is_identical_to(&pts(&[-1, 3])));
        assert!(!a.is_identical_to(&pts(&[2, 3])));
        assert!(!a.is_identical_to(&u));
        assert!(!u.is_identical_to(&a));
        assert!(u.is_identical_to(&PartialTensorShape::default()));
        assert_eq!(hash_of(&a), hash_of(&pts(&[-1, 3])));
    }

    #[test]
    fn partial_merge() {
        let u = PartialTensorShape::unknown();
        let a = pts(&[-1, 3]);
        assert_eq!(a.merge_with(&pts(&[2, -1])).unwrap(), pts(&[2, 3]));
        assert_eq!(a.merge_with(&pts(&[-1, -1])).unwrap(), pts(&[-1, 3]));
        assert_eq!(a.merge_with(&u).unwrap(), a);
        assert_eq!(u.merge_with(&a).unwrap(), a);
        assert!(u.merge_with(&u).unwrap().unknown_rank());
        assert_eq!(
            arg_msg(pts(&[2, 3]).merge_with(&pts(&[1, 2, 3]))),
            "PartialTensorShape: Incompatible ranks during merge: 2 vs. 3"
        );
        assert_eq!(
            arg_msg(pts(&[2, 3]).merge_with(&pts(&[2, 4]))),
            "PartialTensorShape: Incompatible shapes during merge: [2,3] vs. [2,4]"
        );
        assert_eq!(
            arg_msg(pts(&[-1, 3]).merge_with(&pts(&[2, 4]))),
            "PartialTensorShape: Incompatible shapes during merge: [?,3] vs. [2,4]"
        );
        // Merging can make the element count known, and overflow.
        assert_eq!(
            shape_msg(pts(&[-1, BIG, BIG]).merge_with(&pts(&[1, -1, -1]))),
            "Encountered overflow when multiplying 4611686018427387904 with 4611686018427387904, result: -1"
        );
    }

    #[test]
    fn partial_concatenate() {
        let u = PartialTensorShape::unknown();
        assert_eq!(pts(&[2]).concatenate(-1).unwrap(), pts(&[2, -1]));
        assert_eq!(pts(&[]).concatenate(3).unwrap(), pts(&[3]));
        assert!(u.concatenate(3).unwrap().unknown_rank());
        assert_eq!(
            shape_msg(pts(&[2]).concatenate(-2)),
            "Dimension -2 must be >= -1"
        );
        assert_eq!(
            shape_msg(pts(&[BIG]).concatenate(4)),
            "Encountered overflow when multiplying 4611686018427387904 with 4, result: -1"
        );
        assert_eq!(
            shape_msg(pts(&[1; 254]).concatenate(1)),
            "Too many dimensions in tensor"
        );
        assert_eq!(
            pts(&[2]).concatenate_shape(&pts(&[-1, 4])).unwrap(),
            pts(&[2, -1, 4])
        );
        assert!(pts(&[2]).concatenate_shape(&u).unwrap().unknown_rank());
        assert!(u.concatenate_shape(&pts(&[2])).unwrap().unknown_rank());
        assert_eq!(
            shape_msg(pts(&[0, BIG]).concatenate_shape(&pts(&[4]))),
            "Encountered overflow when multiplying shape dimensions"
        );
    }

    #[test]
    fn partial_conversions() {
        let s = ts(&[2, 3]);
        let p = PartialTensorShape::from(s.clone());
        assert_eq!(p, pts(&[2, 3]));
        assert_eq!(PartialTensorShape::from(&s), p);
        assert_eq!(p.to_tensor_shape().unwrap(), s);
        assert_eq!(
            PartialTensorShape::from(TensorShape::scalar())
                .to_tensor_shape()
                .unwrap(),
            TensorShape::scalar()
        );
        assert_eq!(
            shape_msg(pts(&[-1, 3]).to_tensor_shape()),
            "Shape [?,3] is not fully defined"
        );
        assert_eq!(
            shape_msg(PartialTensorShape::unknown().to_tensor_shape()),
            "Shape <unknown> is not fully defined"
        );
    }
}
