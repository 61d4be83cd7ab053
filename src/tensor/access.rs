//! Element access on [`Tensor`]: the one path from a tensor to its typed
//! elements (slices and `ndarray` views), raw bytes, and copy-on-write for
//! every write.
//!
//! A read checks the dtype once (the caller), then [`Root::view`] checks
//! the representation, bounds and alignment once and builds the view from
//! a pointer: no dispatch, no allocation. A write first makes the buffer
//! unique (copy-on-write) and then goes through an [`Exclusive`].

use std::ops::Range;
use std::sync::Arc;

use ndarray::{ArrayView, ArrayViewMut, Dimension};

use crate::buffer::{Exclusive, RegionError, Repr};

use crate::dtype::DataType;
use crate::element::Element;
use crate::error::{Error, RangeError, Result, ShapeError};
use crate::tensor::{Buf, Tensor};

impl Tensor {
    /// Root units (bytes for POD dtypes, elements otherwise) per element.
    #[inline]
    fn unit(&self) -> usize {
        if self.dtype.can_use_memcpy() {
            self.dtype.size()
        } else {
            1
        }
    }

    /// This tensor's region length, in root units.
    #[inline]
    pub(crate) fn region_len(&self) -> usize {
        usize::try_from(self.num_elements())
            .unwrap_or(0)
            .saturating_mul(self.unit())
    }

    /// This tensor's region of its root, in root units.
    pub(crate) fn region(&self) -> Range<usize> {
        let start = self.buf.as_ref().map_or(0, |b| b.offset);
        start..start.saturating_add(self.region_len())
    }

    /// The raw bytes of this tensor's region (POD dtypes; empty when there
    /// is no buffer).
    pub(crate) fn raw_bytes(&self) -> Result<&[u8]> {
        let Some(buf) = &self.buf else {
            return self.no_buffer(0).map(|()| &[][..]);
        };
        if !self.dtype.can_use_memcpy() {
            return Err(self.no_raw_bytes());
        }
        buf.root
            .slice::<u8>(self.region(), self.region_len())
            .map_err(|e| region_error(e, self.dtype, DataType::UInt8))
    }

    /// Writable raw bytes of this tensor's region (POD dtypes), after
    /// copy-on-write. For `bool` any byte may be written: bool views check
    /// their bytes when they are built.
    #[allow(
        dead_code,
        reason = "used by some formats' readers; a build without them leaves it unused"
    )]
    pub(crate) fn raw_bytes_mut(&mut self) -> Result<&mut [u8]> {
        if !self.dtype.can_use_memcpy() {
            return Err(self.no_raw_bytes());
        }
        self.cast_region_mut::<u8>()
    }

    fn no_raw_bytes(&self) -> Error {
        Error::unsupported(
            self.dtype,
            format!("{} tensor has no raw bytes", self.dtype),
        )
    }

    /// `Ok` when a view of `n` elements needs no buffer (`n == 0`), else
    /// TF's "uninitialized Tensor" error.
    #[cold]
    pub(crate) fn no_buffer(&self, n: usize) -> Result<()> {
        if n == 0 {
            Ok(())
        } else {
            Err(Error::InvalidArgument(format!(
                "uninitialized Tensor of {} elements of type {}",
                self.num_elements(),
                self.dtype.as_i32()
            )))
        }
    }

    /// TF's dtype check (`"float expected, got int32"`).
    #[inline]
    pub(crate) fn check_dtype<T: Element>(&self) -> Result<()> {
        if T::DTYPE == self.dtype {
            Ok(())
        } else {
            Err(dtype_error(T::DTYPE, self.dtype))
        }
    }

    /// The one read path: this tensor's region seen as `T`s of shape
    /// `dim`, with no dtype check (the caller made it, or this is a bit
    /// cast). The view may not reach past the tensor's own region.
    #[inline]
    pub(crate) fn region_view<T: Element, D: Dimension>(
        &self,
        dim: D,
    ) -> Result<ArrayView<'_, T, D>> {
        let Some(buf) = &self.buf else {
            return self.unbuffered_view(dim);
        };
        buf.root
            .view::<T, D>(
                buf.offset..buf.offset.saturating_add(self.region_len()),
                dim,
            )
            .map_err(|e| self.view_error::<T>(e))
    }

    /// The typed accessors' read path: [`Tensor::region_view`] for a `dim`
    /// derived from the shape after the dtype check, so the view is exactly
    /// this tensor's region and the region's length need not be computed
    /// (the accessors' hot path). The root still checks representation,
    /// bounds and alignment, the checks that keep memory safe, so a wrong
    /// `dim` can only fail, never read outside the root.
    #[inline(always)]
    pub(crate) fn own_view<T: Element, D: Dimension>(&self, dim: D) -> Result<ArrayView<'_, T, D>> {
        debug_assert!(T::DTYPE == self.dtype);
        debug_assert_eq!(
            dim.size_checked().and_then(|n| i64::try_from(n).ok()),
            Some(self.shape.num_elements())
        );
        match &self.buf {
            Some(buf) => buf
                .root
                .view::<T, D>(buf.offset..buf.root.len(), dim)
                .map_err(|e| region_error_of::<T>(e, self.dtype)),
            None => self.unbuffered_view(dim),
        }
    }

    /// The accessors' fast path: [`Tensor::own_view`] when it succeeds on
    /// a buffered tensor, else `dim` back, for `own_view` to explain.
    /// Never fails where `own_view` succeeds, never succeeds where it
    /// fails (both are `Root::view`'s checks).
    #[inline(always)]
    pub(crate) fn try_own_view<T: Element, D: Dimension>(
        &self,
        dim: D,
    ) -> std::result::Result<ArrayView<'_, T, D>, D> {
        debug_assert!(T::DTYPE == self.dtype);
        match &self.buf {
            Some(buf) => buf.root.try_view::<T, D>(buf.offset..buf.root.len(), dim),
            None => Err(dim),
        }
    }

    /// [`Tensor::own_view`] out of line: what the accessors call when
    /// [`Tensor::try_own_view`] refused, so their inlined fast path stays
    /// small.
    #[cold]
    #[inline(never)]
    pub(crate) fn own_view_cold<T: Element, D: Dimension>(
        &self,
        dim: D,
    ) -> Result<ArrayView<'_, T, D>> {
        self.own_view(dim)
    }

    /// A view of a tensor without a buffer: empty, or TF's
    /// "uninitialized Tensor" error.
    #[cold]
    #[inline(never)]
    fn unbuffered_view<T: Element, D: Dimension>(&self, dim: D) -> Result<ArrayView<'_, T, D>> {
        let n = dim.size_checked().unwrap_or(usize::MAX);
        self.no_buffer(n)?;
        ArrayView::from_shape(dim, &[])
            .map_err(|e| Error::InvalidShape(ShapeError::Other(e.to_string())))
    }

    /// Writable twin of [`Tensor::own_view`]: in place when this handle
    /// is the only owner of a writable, suitably aligned root (no region
    /// computation, no copy), else through [`Tensor::region_view_mut`]
    /// (copy-on-write).
    #[inline]
    pub(crate) fn own_view_mut<T: Element, D: Dimension>(
        &mut self,
        dim: D,
    ) -> Result<ArrayViewMut<'_, T, D>> {
        debug_assert!(T::DTYPE == self.dtype);
        debug_assert_eq!(
            dim.size_checked().and_then(|n| i64::try_from(n).ok()),
            Some(self.shape.num_elements())
        );
        let in_place = self.buf.as_ref().is_some_and(|b| {
            Arc::strong_count(&b.root) == 1
                && b.root.is_writable()
                && b.root.is_aligned_for::<T>(b.offset)
        });
        if !in_place {
            return self.copied_view_mut(dim);
        }
        let dtype = self.dtype;
        let Some(buf) = &mut self.buf else {
            // `in_place` implies a buffer.
            return Err(region_error_of::<T>(RegionError::Bounds, dtype));
        };
        let (offset, len) = (buf.offset, buf.root.len());
        Exclusive::new(&mut buf.root, offset..len)
            .and_then(|ex| ex.view_mut::<T, D>(offset, dim))
            .map_err(|e| region_error_of::<T>(e, dtype))
    }

    /// [`Tensor::own_view_mut`]'s copy-on-write fallback, out of line so
    /// the in-place path stays small.
    #[inline(never)]
    fn copied_view_mut<T: Element, D: Dimension>(
        &mut self,
        dim: D,
    ) -> Result<ArrayViewMut<'_, T, D>> {
        self.region_view_mut(dim)
    }

    /// The one write path: like [`Tensor::region_view`], writable, after
    /// copy-on-write.
    #[inline]
    pub(crate) fn region_view_mut<T: Element, D: Dimension>(
        &mut self,
        dim: D,
    ) -> Result<ArrayViewMut<'_, T, D>> {
        let n = dim.size_checked().unwrap_or(usize::MAX);
        let dtype = self.dtype;
        if n == 0 {
            // Touches no memory, so it never copies.
            return ArrayViewMut::from_shape(dim, &mut [])
                .map_err(|e| Error::InvalidShape(ShapeError::Other(e.to_string())));
        }
        if self.buf.is_none() {
            self.no_buffer(n)?;
        }
        let Some((ex, offset)) = self.exclusive(std::mem::align_of::<T>())? else {
            return ArrayViewMut::from_shape(dim, &mut [])
                .map_err(|e| Error::InvalidShape(ShapeError::Other(e.to_string())));
        };
        ex.view_mut::<T, D>(offset, dim)
            .map_err(|e| region_error_of::<T>(e, dtype))
    }

    fn view_error<T: Element>(&self, e: RegionError) -> Error {
        region_error_of::<T>(e, self.dtype)
    }

    /// Write access to this tensor's region, after copy-on-write, with the
    /// region's start; `None` without a buffer. A region not aligned to
    /// `align` (a bit cast of an odd slice) is copied too, so the write
    /// works.
    pub(crate) fn exclusive(&mut self, align: usize) -> Result<Option<(Exclusive<'_>, usize)>> {
        let range = self.region();
        let needs_copy = {
            let aligned = self
                .data_ptr()
                .is_none_or(|p| (p as usize) % align.max(1) == 0);
            !aligned || !self.ref_count_is_one()
        };
        let Some(buf) = &mut self.buf else {
            return Ok(None);
        };
        if needs_copy {
            let root = buf.root.copy_range(range.clone(), &buf.root.allocator())?;
            *buf = Buf {
                root: Arc::new(root),
                offset: 0,
            };
        }
        let range = buf.offset..buf.offset + range.len();
        let offset = range.start;
        let ex = Exclusive::new(&mut buf.root, range)
            .map_err(|e| region_error(e, self.dtype, self.dtype))?;
        Ok(Some((ex, offset)))
    }

    /// Copy-on-write: makes this handle the only owner of a writable buffer,
    /// copying its region into a fresh allocation if needed.
    #[cfg(test)]
    pub(crate) fn make_unique(&mut self) -> Result<()> {
        self.exclusive(1).map(|_| ())
    }

    /// The elements, in row-major order, as a slice. O(1), no copy.
    ///
    /// # Errors
    /// `T` is not the tensor's element type, or the tensor is
    /// uninitialized.
    ///
    /// ```
    /// let t = tftensor::Tensor::from_vec([2], vec![1u32, 2]).unwrap();
    /// assert_eq!(t.as_slice::<u32>().unwrap(), &[1, 2]);
    /// assert_eq!(t.as_slice::<i32>().unwrap_err().to_string(), "int32 expected, got uint32");
    /// ```
    #[inline]
    pub fn as_slice<T: Element>(&self) -> Result<&[T]> {
        self.check_dtype::<T>()?;
        self.cast_region::<T>()
    }

    /// The region's elements as `T` without the dtype check (bit casts).
    #[inline]
    pub(crate) fn cast_region<T: Element>(&self) -> Result<&[T]> {
        let n = usize::try_from(self.num_elements()).unwrap_or(0);
        let Some(buf) = &self.buf else {
            return self.no_buffer(n).map(|()| &[][..]);
        };
        // Elements of this tensor's dtype that fit the region as `T`s.
        let n = match T::REPR {
            Repr::Typed => n,
            _ => self.region_len() / std::mem::size_of::<T>().max(1),
        };
        buf.root
            .slice::<T>(self.region(), n)
            .map_err(|e| self.view_error::<T>(e))
    }

    /// The elements as a mutable slice. Copies the region first if the
    /// buffer is shared (copy-on-write); O(1) otherwise.
    ///
    /// # Errors
    /// As [`Tensor::as_slice`], or a failed allocation for the copy.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2], vec![1u32, 2]).unwrap();
    /// t.as_mut_slice::<u32>().unwrap()[1] = 7;
    /// assert_eq!(t.as_slice::<u32>().unwrap(), &[1, 7]);
    /// ```
    #[inline]
    pub fn as_mut_slice<T: Element>(&mut self) -> Result<&mut [T]> {
        self.check_dtype::<T>()?;
        self.cast_region_mut::<T>()
    }

    /// Mutable twin of `cast_region`, after copy-on-write.
    pub(crate) fn cast_region_mut<T: Element>(&mut self) -> Result<&mut [T]> {
        let n = match T::REPR {
            Repr::Typed => usize::try_from(self.num_elements()).unwrap_or(0),
            _ => self.region_len() / std::mem::size_of::<T>().max(1),
        };
        if n == 0 {
            return Ok(&mut []);
        }
        let dtype = self.dtype;
        if self.buf.is_none() {
            return self.no_buffer(n).map(|()| &mut [][..]);
        }
        let Some((ex, offset)) = self.exclusive(std::mem::align_of::<T>())? else {
            return Ok(&mut []);
        };
        ex.slice_mut::<T>(offset, n)
            .map_err(|e| region_error_of::<T>(e, dtype))
    }

    /// The element at flat position `flat` (no dtype check), checking only
    /// that one element; `None` when out of range or unreadable.
    pub(crate) fn element<T: Element>(&self, flat: usize) -> Option<&T> {
        let buf = self.buf.as_ref()?;
        if flat >= usize::try_from(self.num_elements()).ok()? {
            return None;
        }
        let start = buf
            .offset
            .checked_add(flat.checked_mul(elem_units::<T>())?)?;
        buf.root
            .slice::<T>(start..self.region().end, 1)
            .ok()?
            .first()
    }

    /// Mutable twin of `element`, after copy-on-write.
    pub(crate) fn element_mut<T: Element>(&mut self, flat: usize) -> Result<Option<&mut T>> {
        if flat >= usize::try_from(self.num_elements()).unwrap_or(0) {
            return Ok(None);
        }
        let dtype = self.dtype;
        let Some((ex, offset)) = self.exclusive(std::mem::align_of::<T>())? else {
            return Ok(None);
        };
        let start = flat
            .checked_mul(elem_units::<T>())
            .and_then(|u| offset.checked_add(u))
            .ok_or(Error::OutOfRange(RangeError::Flat { flat }))?;
        ex.slice_mut::<T>(start, 1)
            .map(|s| s.first_mut())
            .map_err(|e| region_error_of::<T>(e, dtype))
    }

    /// `n` elements of this tensor's region copied into an aligned `Vec`,
    /// whatever the data's address (no dtype check).
    pub(crate) fn read_unaligned<T: Element>(&self, n: usize) -> Result<Vec<T>> {
        let Some(buf) = &self.buf else {
            self.no_buffer(n)?;
            return Ok(Vec::new());
        };
        buf.root
            .copy_to_vec::<T>(self.region(), n)
            .map_err(|e| self.view_error::<T>(e))?
    }

    /// Whether a write now would copy first (the buffer is shared or
    /// read-only).
    ///
    /// ```
    /// let t = tftensor::Tensor::from(1i32);
    /// assert!(!t.is_shared());
    /// let u = t.clone();
    /// assert!(t.is_shared());
    /// # drop(u);
    /// ```
    pub fn is_shared(&self) -> bool {
        self.buf.is_some() && !self.ref_count_is_one()
    }
}

#[cold]
#[inline(never)]
fn dtype_error(expected: DataType, actual: DataType) -> Error {
    Error::DataTypeMismatch { expected, actual }
}

/// Root units per `T`.
fn elem_units<T: Element>() -> usize {
    match T::REPR {
        Repr::Typed => 1,
        _ => std::mem::size_of::<T>(),
    }
}

/// Why a region could not be seen as `T`s.
#[cold]
#[inline(never)]
pub(crate) fn region_error_of<T: Element>(e: RegionError, dtype: DataType) -> Error {
    region_error(e, dtype, T::DTYPE)
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
