//! Element access on [`Tensor`]: the one path from a tensor to its typed
//! elements (slices and `ndarray` views), raw bytes, and copy-on-write for
//! every write.
//!
//! A read checks the dtype once (the caller), then its [`Region`] checks
//! the representation, bounds and alignment once through the root and
//! builds the view from a pointer: no dispatch, no allocation. A write
//! first makes the buffer unique (copy-on-write) and then goes through an
//! [`Exclusive`] over the region.

use std::sync::Arc;

use ndarray::{ArrayView, ArrayViewMut, Dimension};

use crate::buffer::Exclusive;
use crate::element::Element;
use crate::error::{Error, Result};
use crate::tensor::region::region_error;
use crate::tensor::{Region, Tensor};

impl Tensor {
    /// The raw bytes of this tensor's region (POD dtypes; empty when there
    /// is no buffer).
    pub(crate) fn raw_bytes(&self) -> Result<&[u8]> {
        let Some(root) = self.root.as_deref() else {
            return Ok(&[]);
        };
        if !self.region.dtype().can_use_memcpy() {
            return Err(self.no_raw_bytes());
        }
        self.region.elements::<u8>(Some(root), self.region.len())
    }

    /// Writable raw bytes of this tensor's region (POD dtypes), after
    /// copy-on-write. For `bool` any byte may be written: bool views check
    /// their bytes when they are built.
    #[allow(
        dead_code,
        reason = "used by some formats' readers; a build without them leaves it unused"
    )]
    pub(crate) fn raw_bytes_mut(&mut self) -> Result<&mut [u8]> {
        if !self.region.dtype().can_use_memcpy() {
            return Err(self.no_raw_bytes());
        }
        self.cast_region_mut::<u8>()
    }

    fn no_raw_bytes(&self) -> Error {
        Error::unsupported(
            self.region.dtype(),
            format!("{} tensor has no raw bytes", self.region.dtype()),
        )
    }

    /// TF's dtype check (`"float expected, got int32"`).
    #[inline]
    pub(crate) fn check_dtype<T: Element>(&self) -> Result<()> {
        self.region.check_dtype::<T>()
    }

    /// The one read path: this tensor's region seen as `T`s of shape
    /// `dim`, with no dtype check (the caller made it, or this is a bit
    /// cast). The view may not reach past the tensor's own region.
    #[inline]
    pub(crate) fn region_view<T: Element, D: Dimension>(
        &self,
        dim: D,
    ) -> Result<ArrayView<'_, T, D>> {
        self.region.view(self.root.as_deref(), dim)
    }

    /// The typed accessors' read path: [`Region::view_from_start`] for a
    /// `dim` derived from the shape after the dtype check.
    #[inline(always)]
    pub(crate) fn own_view<T: Element, D: Dimension>(&self, dim: D) -> Result<ArrayView<'_, T, D>> {
        debug_assert!(T::DTYPE == self.region.dtype());
        debug_assert_eq!(
            dim.size_checked().and_then(|n| i64::try_from(n).ok()),
            Some(self.region.shape().num_elements())
        );
        self.region.view_from_start(self.root.as_deref(), dim)
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
        debug_assert!(T::DTYPE == self.region.dtype());
        match self.root.as_deref() {
            Some(root) => self.region.try_view_from_start(root, dim),
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

    /// Writable twin of [`Tensor::own_view`]: in place when this handle
    /// is the only owner of a writable, suitably aligned root (no region
    /// computation, no copy), else through [`Tensor::region_view_mut`]
    /// (copy-on-write).
    #[inline]
    pub(crate) fn own_view_mut<T: Element, D: Dimension>(
        &mut self,
        dim: D,
    ) -> Result<ArrayViewMut<'_, T, D>> {
        debug_assert!(T::DTYPE == self.region.dtype());
        debug_assert_eq!(
            dim.size_checked().and_then(|n| i64::try_from(n).ok()),
            Some(self.region.shape().num_elements())
        );
        let start = self.region.start();
        let in_place = self.root.as_ref().is_some_and(|root| {
            Arc::strong_count(root) == 1 && root.is_writable() && root.is_aligned_for::<T>(start)
        });
        if !in_place {
            return self.copied_view_mut(dim);
        }
        match &mut self.root {
            Some(root) => self.region.view_mut_from_start(root, dim),
            // `in_place` implies a root.
            None => self.region.view_mut(None, dim),
        }
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
    /// copy-on-write. A view of no elements touches no memory, so it never
    /// copies.
    #[inline]
    pub(crate) fn region_view_mut<T: Element, D: Dimension>(
        &mut self,
        dim: D,
    ) -> Result<ArrayViewMut<'_, T, D>> {
        if dim.size_checked() == Some(0) {
            return self.region.view_mut(None, dim);
        }
        let (ex, region) = self.exclusive(std::mem::align_of::<T>())?;
        region.view_mut(ex, dim)
    }

    /// Write access to this tensor's region, after copy-on-write, with the
    /// region (which a copy moves to the start of a fresh root); no access
    /// without a buffer. A region not aligned to `align` (a bit cast of an
    /// odd slice) is copied too, so the write works.
    pub(crate) fn exclusive(&mut self, align: usize) -> Result<(Option<Exclusive<'_>>, &Region)> {
        let needs_copy = {
            let aligned = self
                .data_ptr()
                .is_none_or(|p| (p as usize) % align.max(1) == 0);
            !aligned || !self.ref_count_is_one()
        };
        let Tensor { region, root } = self;
        let Some(root) = root else {
            return Ok((None, region));
        };
        if needs_copy {
            let copy = root.copy_range(region.bytes(), &root.allocator())?;
            *root = Arc::new(copy);
            *region = region.at_start();
        }
        let ex = Exclusive::new(root, region.bytes())
            .map_err(|e| region_error(e, region.dtype(), region.dtype()))?;
        Ok((Some(ex), region))
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

    /// The region's elements as `T` without the dtype check (bit casts):
    /// as many `T`s as its bytes hold.
    #[inline]
    pub(crate) fn cast_region<T: Element>(&self) -> Result<&[T]> {
        let n = self.region.len() / std::mem::size_of::<T>().max(1);
        self.region.elements(self.root.as_deref(), n)
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

    /// Mutable twin of `cast_region`, after copy-on-write (none for no
    /// elements).
    pub(crate) fn cast_region_mut<T: Element>(&mut self) -> Result<&mut [T]> {
        let n = self.region.len() / std::mem::size_of::<T>().max(1);
        if n == 0 {
            return Ok(&mut []);
        }
        let (ex, region) = self.exclusive(std::mem::align_of::<T>())?;
        region.elements_mut(ex, n)
    }

    /// The element at flat position `flat` (no dtype check), checking only
    /// that one element; `None` when out of range or unreadable.
    pub(crate) fn element<T: Element>(&self, flat: usize) -> Option<&T> {
        self.region.element(self.root.as_deref()?, flat)
    }

    /// Mutable twin of `element`, after copy-on-write; `None` when out of
    /// range (checked before any copy).
    pub(crate) fn element_mut<T: Element>(&mut self, flat: usize) -> Result<Option<&mut T>> {
        if flat >= self.region.count() {
            return Ok(None);
        }
        let (ex, region) = self.exclusive(std::mem::align_of::<T>())?;
        region.element_mut(ex, flat)
    }

    /// `n` elements of this tensor's region copied into an aligned `Vec`,
    /// whatever the data's address (no dtype check).
    pub(crate) fn read_unaligned<T: Element>(&self, n: usize) -> Result<Vec<T>> {
        let Some(root) = &self.root else {
            return match n {
                0 => Ok(Vec::new()),
                _ => Err(self.region.uninitialized()),
            };
        };
        root.copy_to_vec::<T>(self.region.bytes(), n)
            .map_err(|e| self.region.error::<T>(e))?
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
        self.root.is_some() && !self.ref_count_is_one()
    }
}
