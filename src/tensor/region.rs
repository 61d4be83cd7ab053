//! [`Region`]: a dtype and a shape over a range of a root buffer's bytes,
//! and the one place a tensor's accesses are checked.
//!
//! [`Tensor`](super::Tensor) holds a region and a shared root,
//! [`TensorMut`](super::TensorMut) a region and an [`Exclusive`] right over
//! exactly its bytes, [`TypedTensor`](crate::TypedTensor) a `Tensor`. Each
//! check (dtype, rank, one element, "uninitialized"), each row operation
//! (`slice`, `sub_slice`, `split_at`) and each step from a region to typed
//! memory is written here once, on the region, and the handles are thin
//! wrappers: ndarray's habit (`impl_views/splitting.rs`) of one operation
//! on the raw view.
//!
//! Offsets count bytes, for every dtype: a POD element is `dtype.size()`
//! bytes of its root, a string, resource or variant element the size of
//! its Rust type in the root's `Vec`.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;
use ndarray::{ArrayView, ArrayViewMut, Dimension};

use crate::buffer::{Exclusive, Readable, RegionError, Root};
use crate::dtype::DataType;
use crate::element::{Element, ResourceHandle, Variant};
use crate::error::{Error, RangeError, Result, ShapeError, SizeCheck};
use crate::shape::{TensorShape, usize_of_dim};

/// A dtype and a shape at a byte offset of a root (an offset that means
/// nothing without a root). Invariant, for a region with a root: its
/// bytes ([`Region::bytes`]) lie inside the root, which holds bytes for a
/// POD dtype and the dtype's elements otherwise.
#[derive(Clone)]
pub(crate) struct Region {
    dtype: DataType,
    shape: TensorShape,
    /// Where the region starts in its root, in bytes.
    start: usize,
}

/// Bytes of a root per element of `dtype`: `dtype.size()` for POD dtypes,
/// the Rust element's size for strings, resources and variants.
#[inline]
fn unit_of(dtype: DataType) -> usize {
    match dtype {
        DataType::String => std::mem::size_of::<Bytes>(),
        DataType::Resource => std::mem::size_of::<ResourceHandle>(),
        DataType::Variant => std::mem::size_of::<Variant>(),
        _ => dtype.size(),
    }
}

impl Region {
    /// A region at the start of its root (or of none).
    #[inline]
    pub(crate) fn new(dtype: DataType, shape: TensorShape) -> Region {
        Region {
            dtype,
            shape,
            start: 0,
        }
    }

    /// The element type.
    #[inline]
    pub(crate) fn dtype(&self) -> DataType {
        self.dtype
    }

    /// The shape.
    #[inline]
    pub(crate) fn shape(&self) -> &TensorShape {
        &self.shape
    }

    /// The first byte, in the root.
    #[inline]
    pub(crate) fn start(&self) -> usize {
        self.start
    }

    /// Another dtype and shape at the same start (a bit cast, a reshape):
    /// the caller checked the bytes agree.
    pub(crate) fn recast(&self, dtype: DataType, shape: TensorShape) -> Region {
        Region {
            dtype,
            shape,
            start: self.start,
        }
    }

    /// The same dtype and shape at the start of a fresh root (a copy).
    pub(crate) fn at_start(&self) -> Region {
        Region::new(self.dtype, self.shape.clone())
    }

    /// Replaces the shape, keeping the start. The caller checks that the
    /// region still fits its root.
    pub(crate) fn set_shape_unchecked(&mut self, shape: TensorShape) {
        self.shape = shape;
    }

    /// Bytes per element.
    #[inline]
    pub(crate) fn unit(&self) -> usize {
        unit_of(self.dtype)
    }

    /// The element count as `usize` (saturating: see [`usize_of_dim`]).
    #[inline]
    pub(crate) fn count(&self) -> usize {
        usize_of_dim(self.shape.num_elements())
    }

    /// The region's length in bytes. With a root it is in memory, so
    /// nothing saturates; without one, a count too large to hold saturates
    /// and fails any bounds check.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.count().saturating_mul(self.unit())
    }

    /// The region's bytes in its root.
    #[inline]
    pub(crate) fn bytes(&self) -> Range<usize> {
        self.start..self.start.saturating_add(self.len())
    }

    // ----- checks -----

    /// TF's dtype check (`"float expected, got int32"`).
    #[inline]
    pub(crate) fn check_dtype<T: Element>(&self) -> Result<()> {
        if T::DTYPE == self.dtype {
            Ok(())
        } else {
            Err(dtype_error(T::DTYPE, self.dtype))
        }
    }

    /// The shape as a `D`, with TF's rank check.
    #[inline(always)]
    pub(crate) fn dim<D: Dimension>(&self) -> Result<D> {
        self.leading_dims::<D>(self.shape.dims())
    }

    /// The first `rank` dims as a `D`, with TF's rank check (`D::zeros`
    /// panics on a wrong rank, so it comes first).
    #[inline(always)]
    pub(crate) fn leading_dims<D: Dimension>(&self, rank: usize) -> Result<D> {
        if let Some(n) = D::NDIM {
            if n != rank {
                return Err(rank_error(n, rank));
            }
        }
        let mut dim = D::zeros(rank);
        self.shape.fill_usize(dim.slice_mut());
        Ok(dim)
    }

    /// TF's `"Must have a one element tensor"`.
    pub(crate) fn check_one_element(&self) -> Result<()> {
        if self.shape.num_elements() == 1 {
            Ok(())
        } else {
            Err(Error::SizeMismatch {
                got: self.shape.num_elements() as u64,
                expected: 1,
                check: SizeCheck::OneElement,
            })
        }
    }

    /// TF's error for elements without a buffer.
    #[cold]
    #[inline(never)]
    pub(crate) fn uninitialized(&self) -> Error {
        Error::InvalidArgument(format!(
            "uninitialized Tensor of {} elements of type {}",
            self.shape.num_elements(),
            self.dtype.as_i32()
        ))
    }

    /// Why this region could not be seen as `T`s.
    #[cold]
    #[inline(never)]
    pub(crate) fn error<T: Element>(&self, e: RegionError) -> Error {
        region_error(e, self.dtype, T::DTYPE)
    }

    // ----- rows of dim 0 -----

    /// Dim 0, or TF's error for a scalar.
    pub(crate) fn leading_dim(&self, op: &str) -> Result<i64> {
        self.shape.first_dim().ok_or_else(|| {
            Error::InvalidArgument(format!("{op} needs a tensor of rank >= 1, got a scalar"))
        })
    }

    /// Rows from `first` on, with `shape`: the one place a region moves
    /// along dim 0 (of size `dim0`). `first` is at most `dim0` (the callers
    /// check), so the start stays inside this region.
    fn rows(&self, dim0: i64, first: i64, shape: TensorShape) -> Region {
        debug_assert!(self.shape.first_dim() == Some(dim0) && (0..=dim0).contains(&first));
        // dim 0 divides the count exactly; with dim 0 = 0 no row moves.
        let row = match self.shape.num_elements().checked_div(dim0) {
            Some(inner) => usize_of_dim(inner).saturating_mul(self.unit()),
            None => 0,
        };
        Region {
            dtype: self.dtype,
            shape,
            start: self
                .start
                .saturating_add(usize_of_dim(first).saturating_mul(row)),
        }
    }

    /// TF's `Slice(start, limit)` along dim 0.
    ///
    /// # Errors
    /// A scalar, or not `0 <= start <= limit <= dim0`.
    pub(crate) fn slice(&self, start: i64, limit: i64) -> Result<Region> {
        let dim0 = self.leading_dim("Slice")?;
        if !(0 <= start && start <= limit && limit <= dim0) {
            return Err(Error::OutOfRange(RangeError::Slice {
                start,
                limit,
                size: dim0,
            }));
        }
        let mut shape = self.shape.clone();
        shape.set_dim(0, limit - start)?;
        Ok(self.rows(dim0, start, shape))
    }

    /// TF's `SubSlice(index)`, and whether the result has memory (not
    /// when dim 0 is 0, as in TF).
    ///
    /// # Errors
    /// A scalar, or `index` outside `0..=dim0` (`index == dim0` only when
    /// no memory is needed: dim 0 or the inner size is 0, as in TF).
    pub(crate) fn sub_slice(&self, index: i64) -> Result<(Region, bool)> {
        let dim0 = self.leading_dim("SubSlice")?;
        let mut shape = self.shape.clone();
        shape.remove_dim(0)?;
        let inner = shape.num_elements();
        if index < 0 || index > dim0 || (index == dim0 && inner > 0 && dim0 > 0) {
            return Err(Error::OutOfRange(RangeError::SubSlice {
                index,
                size: dim0,
            }));
        }
        Ok((self.rows(dim0, index, shape), dim0 > 0))
    }

    /// Rows `..mid` and `mid..` of dim 0.
    ///
    /// # Errors
    /// A scalar, or `mid` outside `0..=dim0`.
    pub(crate) fn split_at(&self, mid: i64) -> Result<(Region, Region)> {
        let dim0 = self.leading_dim("split_at")?;
        if !(0..=dim0).contains(&mid) {
            return Err(Error::OutOfRange(RangeError::SplitAt { mid, size: dim0 }));
        }
        let mut lo = self.shape.clone();
        lo.set_dim(0, mid)?;
        let mut hi = self.shape.clone();
        hi.set_dim(0, dim0 - mid)?;
        Ok((self.rows(dim0, 0, lo), self.rows(dim0, mid, hi)))
    }

    // ----- from the region to its memory -----

    /// A view of `dim` over the region in `mem` (`None`: no buffer), with
    /// no dtype check (the caller made it, or this is a bit cast). The view
    /// may not reach past the region.
    #[inline]
    pub(crate) fn view<'a, T: Element, D: Dimension>(
        &self,
        mem: Option<impl Readable<'a>>,
        dim: D,
    ) -> Result<ArrayView<'a, T, D>> {
        match mem {
            Some(mem) => mem
                .view::<T, D>(self.bytes(), dim)
                .map_err(|e| self.error::<T>(e)),
            None => self.unbuffered_view(dim),
        }
    }

    /// `n` `T`s from the region's start in `mem`, inside the region.
    #[inline]
    pub(crate) fn elements<'a, T: Element>(
        &self,
        mem: Option<impl Readable<'a>>,
        n: usize,
    ) -> Result<&'a [T]> {
        match mem {
            Some(mem) => mem
                .slice::<T>(self.bytes(), n)
                .map_err(|e| self.error::<T>(e)),
            None if n == 0 => Ok(&[]),
            None => Err(self.uninitialized()),
        }
    }

    /// Writable twin of [`Region::view`], through the right to write the
    /// region.
    #[inline]
    pub(crate) fn view_mut<'a, T: Element, D: Dimension>(
        &self,
        ex: Option<Exclusive<'a>>,
        dim: D,
    ) -> Result<ArrayViewMut<'a, T, D>> {
        match ex {
            Some(ex) => ex
                .view_mut::<T, D>(self.bytes(), dim)
                .map_err(|e| self.error::<T>(e)),
            None => {
                if dim.size_checked() != Some(0) {
                    return Err(self.uninitialized());
                }
                ArrayViewMut::from_shape(dim, &mut []).map_err(shape_error)
            }
        }
    }

    /// Writable twin of [`Region::elements`].
    #[inline]
    pub(crate) fn elements_mut<'a, T: Element>(
        &self,
        ex: Option<Exclusive<'a>>,
        n: usize,
    ) -> Result<&'a mut [T]> {
        match ex {
            Some(ex) => ex
                .slice_mut::<T>(self.bytes(), n)
                .map_err(|e| self.error::<T>(e)),
            None if n == 0 => Ok(&mut []),
            None => Err(self.uninitialized()),
        }
    }

    /// The typed accessors' read path: a view of `dim` from the region's
    /// start, bounded by the root's end, not the region's. The caller
    /// derived `dim` from the shape after the dtype check, so the view is
    /// exactly the region, and its length (the product of the dims) need
    /// not be computed: the accessors' hot path. The root still checks
    /// representation, bounds and alignment, the checks that keep memory
    /// safe, so a wrong `dim` can only fail, never read outside the root.
    #[inline(always)]
    pub(crate) fn view_from_start<'a, T: Element, D: Dimension>(
        &self,
        root: Option<&'a Root>,
        dim: D,
    ) -> Result<ArrayView<'a, T, D>> {
        match root {
            Some(root) => root
                .view::<T, D>(self.start..root.len(), dim)
                .map_err(|e| self.error::<T>(e)),
            None => self.unbuffered_view(dim),
        }
    }

    /// [`Region::view_from_start`] without the reason for a failure, which
    /// gives `dim` back: a view or a `D` stays in registers, a `Result`
    /// holding an `Error` does not (its copy cost the typed accessors a
    /// store-forwarding stall).
    #[inline(always)]
    pub(crate) fn try_view_from_start<'a, T: Element, D: Dimension>(
        &self,
        root: &'a Root,
        dim: D,
    ) -> std::result::Result<ArrayView<'a, T, D>, D> {
        root.try_view::<T, D>(self.start..root.len(), dim)
    }

    /// Writable twin of [`Region::view_from_start`] over a root this
    /// handle owns alone (else the right to write is refused).
    #[inline]
    pub(crate) fn view_mut_from_start<'a, T: Element, D: Dimension>(
        &self,
        root: &'a mut Arc<Root>,
        dim: D,
    ) -> Result<ArrayViewMut<'a, T, D>> {
        let rest = self.start..root.len();
        Exclusive::new(root, rest.clone())
            .and_then(|ex| ex.view_mut::<T, D>(rest, dim))
            .map_err(|e| self.error::<T>(e))
    }

    /// The `T` at flat position `flat` (`None` past the count, or when it
    /// cannot be read as a `T`): one element checked, so a `bool` read
    /// checks one byte, not the region.
    pub(crate) fn element<'a, T: Element>(
        &self,
        mem: impl Readable<'a>,
        flat: usize,
    ) -> Option<&'a T> {
        let range = self.element_bytes::<T>(flat)?;
        mem.slice::<T>(range, 1).ok()?.first()
    }

    /// Writable twin of [`Region::element`]; `Ok(None)` past the count.
    pub(crate) fn element_mut<'a, T: Element>(
        &self,
        ex: Option<Exclusive<'a>>,
        flat: usize,
    ) -> Result<Option<&'a mut T>> {
        let (Some(ex), Some(range)) = (ex, self.element_bytes::<T>(flat)) else {
            return Ok(None);
        };
        ex.slice_mut::<T>(range, 1)
            .map(|s| s.first_mut())
            .map_err(|e| self.error::<T>(e))
    }

    /// The bytes from element `flat` (a `T`) to the region's end, or
    /// `None` when `flat` is past the count.
    fn element_bytes<T: Element>(&self, flat: usize) -> Option<Range<usize>> {
        if flat >= self.count() {
            return None;
        }
        let bytes = self.bytes();
        let start = flat
            .checked_mul(std::mem::size_of::<T>())
            .and_then(|b| bytes.start.checked_add(b))?;
        Some(start..bytes.end)
    }

    /// A view without a buffer: empty, or TF's "uninitialized" error.
    #[cold]
    #[inline(never)]
    pub(crate) fn unbuffered_view<'a, T: Element, D: Dimension>(
        &self,
        dim: D,
    ) -> Result<ArrayView<'a, T, D>> {
        if dim.size_checked() != Some(0) {
            return Err(self.uninitialized());
        }
        ArrayView::from_shape(dim, &[]).map_err(shape_error)
    }
}

/// A handle's invariant did not hold: a bug in this crate, never a
/// consequence of input, so it is not an `Err`; returning a plausible
/// value instead would hide it.
#[cold]
#[track_caller]
#[allow(
    clippy::panic,
    reason = "an internal invariant broke; returning a plausible value would hide it"
)]
pub(crate) fn invariant_broken(handle: &str, err: &Error) -> ! {
    panic!("{handle} invariant broken (a tftensor bug): {err}")
}

/// ndarray's shape error, for the views built without memory.
fn shape_error(e: ndarray::ShapeError) -> Error {
    Error::InvalidShape(ShapeError::Other(e.to_string()))
}

#[cold]
#[inline(never)]
fn dtype_error(expected: DataType, actual: DataType) -> Error {
    Error::DataTypeMismatch { expected, actual }
}

#[cold]
#[inline(never)]
fn rank_error(n: usize, rank: usize) -> Error {
    Error::InvalidArgument(format!(
        "Asking for tensor of {n} dimensions from a tensor of {rank} dimensions"
    ))
}

/// The error for a failed region check of a `dtype` tensor seen as `target`.
pub(crate) fn region_error(e: RegionError, dtype: DataType, target: DataType) -> Error {
    match e {
        RegionError::InvalidBool => Error::InvalidArgument("bool elements must be 0 or 1".into()),
        RegionError::Misaligned { address, align } => Error::Misaligned {
            dtype,
            target,
            address,
            align,
        },
        RegionError::Kind => Error::DataTypeMismatch {
            expected: target,
            actual: dtype,
        },
        RegionError::Bounds => Error::OutOfRange(RangeError::View { target, dtype }),
        RegionError::NotUnique => Error::InvalidArgument(format!(
            "{dtype} tensor's buffer is shared; a write needs copy-on-write"
        )),
    }
}
