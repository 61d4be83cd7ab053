//! [`TensorMut`]: a borrowed, writable sub-tensor that writes into its
//! parent's buffer, as TF's `Slice`/`SubSlice` do when a kernel fills an
//! output through its slices.
//!
//! The parent is made unique once (copy-on-write); every `TensorMut` then
//! holds an exclusive right to its own rows of that one buffer, so the
//! borrow checker, not a runtime copy, keeps writers apart.

use ndarray::{ArrayView, ArrayViewMut, Dimension, Ix0, Ix1, Ix2};

use crate::buffer::Exclusive;
use crate::dtype::DataType;
use crate::element::Element;
use crate::error::{Error, RangeError, Result};
use crate::shape::TensorShape;
use crate::tensor::{Region, Tensor};

/// A writable sub-tensor borrowed from a [`Tensor`]: writes go straight
/// into the parent's buffer (no copy-on-write per write). Get one with
/// [`Tensor::as_tensor_mut`], [`Tensor::slice_mut`],
/// [`Tensor::sub_slice_mut`], [`Tensor::split_at_mut`] or
/// [`Tensor::chunks_mut`]; several disjoint ones can live at once.
///
/// This ports TF's `Slice_Basic` pattern, filling a tensor through its
/// slices:
///
/// ```
/// use tftensor::{DataType, Tensor};
/// let mut t = Tensor::new(DataType::Float, [5, 4, 3])?;
/// let (mut head, mut tail) = t.split_at_mut(2)?;
/// head.flat_mut::<f32>()?.fill(1.0);
/// tail.flat_mut::<f32>()?.fill(2.0);
/// assert_eq!(t.flat::<f32>()?[23], 1.0);
/// assert_eq!(t.flat::<f32>()?[24], 2.0);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct TensorMut<'a> {
    /// The dtype, shape and bytes: the checks, as [`Tensor`]'s.
    region: Region,
    /// The right to write exactly the region's bytes; `None` when the
    /// parent has no buffer (then nothing is held).
    ex: Option<Exclusive<'a>>,
}

impl Tensor {
    /// All of this tensor as a [`TensorMut`]: the buffer is made unique
    /// once (copy-on-write if shared), then sub-tensors write into it.
    ///
    /// # Errors
    /// A failed allocation for the copy.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![0u8; 4])?;
    /// t.as_tensor_mut()?.sub_slice_mut(1)?.as_mut_slice::<u8>()?[0] = 7;
    /// assert_eq!(t.as_slice::<u8>()?, &[0, 0, 7, 0]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn as_tensor_mut(&mut self) -> Result<TensorMut<'_>> {
        let (ex, region) = self.exclusive(1)?;
        Ok(TensorMut {
            region: region.clone(),
            ex,
        })
    }

    /// TF's `Slice(start, limit)`, writable: rows `start..limit` of dim 0
    /// as a [`TensorMut`] that writes into this tensor's buffer.
    ///
    /// # Errors
    /// As [`Tensor::slice`]; a failed allocation for the copy-on-write.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([3, 2], vec![0i32; 6])?;
    /// t.slice_mut(1, 3)?.flat_mut::<i32>()?.fill(5);
    /// assert_eq!(t.as_slice::<i32>()?, &[0, 0, 5, 5, 5, 5]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn slice_mut(&mut self, start: i64, limit: i64) -> Result<TensorMut<'_>> {
        self.as_tensor_mut()?.into_slice(start, limit)
    }

    /// TF's `SubSlice(index)`, writable.
    ///
    /// # Errors
    /// As [`Tensor::sub_slice`]; a failed allocation for the copy-on-write.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2, 3], vec![0u16; 6])?;
    /// t.sub_slice_mut(1)?.vec_mut::<u16>()?[2] = 9;
    /// assert_eq!(t.as_slice::<u16>()?[5], 9);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn sub_slice_mut(&mut self, index: i64) -> Result<TensorMut<'_>> {
        self.as_tensor_mut()?.into_sub_slice(index)
    }

    /// Rows `..mid` and `mid..` of dim 0 as two disjoint [`TensorMut`]s.
    ///
    /// # Errors
    /// A scalar; `mid` outside `0..=dim0`; a failed copy-on-write.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([4], vec![0i8; 4])?;
    /// let (mut a, mut b) = t.split_at_mut(1)?;
    /// a.flat_mut::<i8>()?.fill(1);
    /// b.flat_mut::<i8>()?.fill(2);
    /// assert_eq!(t.as_slice::<i8>()?, &[1, 2, 2, 2]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn split_at_mut(&mut self, mid: i64) -> Result<(TensorMut<'_>, TensorMut<'_>)> {
        self.as_tensor_mut()?.split_at(mid)
    }

    /// Dim-0 chunks of `rows` rows (the last may be shorter), each a
    /// [`TensorMut`] writing into this tensor's buffer; like
    /// `slice::chunks_mut`.
    ///
    /// # Errors
    /// A scalar; `rows == 0`; a failed copy-on-write.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([5], vec![0u8; 5])?;
    /// for (i, mut c) in t.chunks_mut(2)?.enumerate() {
    ///     c.flat_mut::<u8>()?.fill(i as u8);
    /// }
    /// assert_eq!(t.as_slice::<u8>()?, &[0, 0, 1, 1, 2]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn chunks_mut(&mut self, rows: i64) -> Result<ChunksMut<'_>> {
        self.as_tensor_mut()?.into_chunks(rows)
    }
}

/// The iterator of [`Tensor::chunks_mut`].
pub struct ChunksMut<'a> {
    rest: Option<TensorMut<'a>>,
    rows: i64,
}

impl<'a> Iterator for ChunksMut<'a> {
    type Item = TensorMut<'a>;

    fn next(&mut self) -> Option<TensorMut<'a>> {
        let rest = self.rest.take()?;
        // Rank >= 1 (checked by `into_chunks`), so there is a dim 0, and a
        // split inside it cannot fail.
        let dim0 = rest.region.shape().first_dim()?;
        if dim0 == 0 {
            return None;
        }
        let (head, tail) = rest.split_at(self.rows.min(dim0)).ok()?;
        if tail.region.shape().first_dim().is_some_and(|d| d > 0) {
            self.rest = Some(tail);
        }
        Some(head)
    }
}

impl<'a> TensorMut<'a> {
    /// The element type.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from(1.0f64);
    /// assert_eq!(t.as_tensor_mut()?.dtype(), tftensor::DataType::Double);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dtype(&self) -> DataType {
        self.region.dtype()
    }

    /// The shape.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::new(tftensor::DataType::Int8, [4, 5])?;
    /// assert_eq!(t.slice_mut(1, 3)?.shape().dim_sizes(), vec![2, 5]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn shape(&self) -> &TensorShape {
        self.region.shape()
    }

    /// The number of elements.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::new(tftensor::DataType::Int8, [4, 5])?;
    /// assert_eq!(t.sub_slice_mut(0)?.num_elements(), 5);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn num_elements(&self) -> i64 {
        self.region.shape().num_elements()
    }

    /// `region`, a part of this one's, with the right to write narrowed to
    /// it (or no memory, with `in_memory` false).
    fn narrowed(self, region: Region, in_memory: bool) -> Result<TensorMut<'a>> {
        let ex = match self.ex {
            Some(ex) if in_memory => Some(ex.narrow(region.bytes()).map_err(|_| {
                Error::OutOfRange(RangeError::Region("sub-tensor outside its parent's region"))
            })?),
            _ => None,
        };
        Ok(TensorMut { region, ex })
    }

    /// [`Tensor::slice_mut`] of this sub-tensor, consuming it.
    ///
    /// # Errors
    /// As [`Tensor::slice`].
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([4], vec![0u8; 4])?;
    /// t.as_tensor_mut()?.into_slice(2, 4)?.flat_mut::<u8>()?.fill(1);
    /// assert_eq!(t.as_slice::<u8>()?, &[0, 0, 1, 1]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn into_slice(self, start: i64, limit: i64) -> Result<TensorMut<'a>> {
        let region = self.region.slice(start, limit)?;
        self.narrowed(region, true)
    }

    /// [`Tensor::sub_slice_mut`] of this sub-tensor, consuming it.
    ///
    /// # Errors
    /// As [`Tensor::sub_slice`].
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![0u8; 4])?;
    /// t.as_tensor_mut()?.into_sub_slice(1)?.flat_mut::<u8>()?.fill(3);
    /// assert_eq!(t.as_slice::<u8>()?, &[0, 0, 3, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn into_sub_slice(self, index: i64) -> Result<TensorMut<'a>> {
        let (region, in_memory) = self.region.sub_slice(index)?;
        self.narrowed(region, in_memory)
    }

    /// A writable sub-slice borrowed from this one (this one is usable
    /// again afterwards).
    ///
    /// # Errors
    /// As [`Tensor::sub_slice`].
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([3], vec![0u8; 3])?;
    /// let mut all = t.as_tensor_mut()?;
    /// all.sub_slice_mut(0)?.scalar_mut::<u8>()?[()] = 1;
    /// all.sub_slice_mut(2)?.scalar_mut::<u8>()?[()] = 3;
    /// assert_eq!(t.as_slice::<u8>()?, &[1, 0, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn sub_slice_mut(&mut self, index: i64) -> Result<TensorMut<'_>> {
        self.reborrow().into_sub_slice(index)
    }

    /// A writable slice borrowed from this one.
    ///
    /// # Errors
    /// As [`Tensor::slice`].
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([3], vec![0u8; 3])?;
    /// let mut all = t.as_tensor_mut()?;
    /// all.slice_mut(1, 3)?.flat_mut::<u8>()?.fill(4);
    /// assert_eq!(t.as_slice::<u8>()?, &[0, 4, 4]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn slice_mut(&mut self, start: i64, limit: i64) -> Result<TensorMut<'_>> {
        self.reborrow().into_slice(start, limit)
    }

    fn reborrow(&mut self) -> TensorMut<'_> {
        TensorMut {
            region: self.region.clone(),
            ex: self.ex.as_mut().map(Exclusive::reborrow),
        }
    }

    /// Rows `..mid` and `mid..` as two disjoint sub-tensors.
    ///
    /// # Errors
    /// A scalar, or `mid` outside `0..=dim0`.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![0u8; 4])?;
    /// let (mut a, mut b) = t.as_tensor_mut()?.split_at(1)?;
    /// a.flat_mut::<u8>()?.fill(1);
    /// b.flat_mut::<u8>()?.fill(2);
    /// assert_eq!(t.as_slice::<u8>()?, &[1, 1, 2, 2]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn split_at(self, mid: i64) -> Result<(TensorMut<'a>, TensorMut<'a>)> {
        let (lo, hi) = self.region.split_at(mid)?;
        let (lo_ex, hi_ex) = match self.ex {
            None => (None, None),
            // The halves' bytes meet where `hi` starts.
            Some(ex) => {
                let (a, b) = ex.split_at(hi.start()).map_err(|_| {
                    Error::OutOfRange(RangeError::Region(
                        "split point outside the tensor's region",
                    ))
                })?;
                (Some(a), Some(b))
            }
        };
        Ok((
            TensorMut {
                region: lo,
                ex: lo_ex,
            },
            TensorMut {
                region: hi,
                ex: hi_ex,
            },
        ))
    }

    /// [`Tensor::chunks_mut`] of this sub-tensor, consuming it.
    ///
    /// # Errors
    /// A scalar, or `rows == 0`.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([3, 1], vec![0u8; 3])?;
    /// assert_eq!(t.as_tensor_mut()?.into_chunks(1)?.count(), 3);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn into_chunks(self, rows: i64) -> Result<ChunksMut<'a>> {
        self.region.leading_dim("chunks_mut")?;
        if rows <= 0 {
            return Err(Error::InvalidArgument(format!(
                "chunks_mut needs rows >= 1, got {rows}"
            )));
        }
        Ok(ChunksMut {
            rest: Some(self),
            rows,
        })
    }

    /// A read-only view of `D` (the sub-tensor's own rank).
    ///
    /// # Errors
    /// A dtype or rank mismatch.
    ///
    /// ```
    /// use tftensor::ndarray::Ix2;
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![1u8, 2, 3, 4])?;
    /// let s = t.slice_mut(1, 2)?;
    /// assert_eq!(s.tensor::<u8, Ix2>()?[[0, 1]], 4);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn tensor<T: Element, D: Dimension>(&self) -> Result<ArrayView<'_, T, D>> {
        self.region.check_dtype::<T>()?;
        self.region.view(self.ex.as_ref(), self.region.dim::<D>()?)
    }

    /// A writable view of `D` (the sub-tensor's own rank), writing into
    /// the parent's buffer.
    ///
    /// # Errors
    /// A dtype or rank mismatch.
    ///
    /// ```
    /// use tftensor::ndarray::Ix1;
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![0u8; 4])?;
    /// t.sub_slice_mut(0)?.tensor_mut::<u8, Ix1>()?[1] = 5;
    /// assert_eq!(t.as_slice::<u8>()?, &[0, 5, 0, 0]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn tensor_mut<T: Element, D: Dimension>(&mut self) -> Result<ArrayViewMut<'_, T, D>> {
        self.region.check_dtype::<T>()?;
        let dim = self.region.dim::<D>()?;
        self.region
            .view_mut(self.ex.as_mut().map(Exclusive::reborrow), dim)
    }

    /// The elements as a slice.
    ///
    /// # Errors
    /// A dtype mismatch.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2], vec![1u8, 2])?;
    /// assert_eq!(t.sub_slice_mut(1)?.as_slice::<u8>()?, &[2]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn as_slice<T: Element>(&self) -> Result<&[T]> {
        self.region.check_dtype::<T>()?;
        self.region.elements(self.ex.as_ref(), self.region.count())
    }

    /// The elements as a mutable slice, writing into the parent's buffer.
    ///
    /// # Errors
    /// A dtype mismatch.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2], vec![1u8, 2])?;
    /// t.sub_slice_mut(1)?.as_mut_slice::<u8>()?[0] = 7;
    /// assert_eq!(t.as_slice::<u8>()?, &[1, 7]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn as_mut_slice<T: Element>(&mut self) -> Result<&mut [T]> {
        self.region.check_dtype::<T>()?;
        let n = self.region.count();
        self.region
            .elements_mut(self.ex.as_mut().map(Exclusive::reborrow), n)
    }

    /// All elements as a rank-1 view.
    ///
    /// # Errors
    /// A dtype mismatch.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![1u8, 2, 3, 4])?;
    /// assert_eq!(t.slice_mut(1, 2)?.flat::<u8>()?.to_vec(), vec![3, 4]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn flat<T: Element>(&self) -> Result<ArrayView<'_, T, Ix1>> {
        self.region.check_dtype::<T>()?;
        self.region.view(self.ex.as_ref(), Ix1(self.region.count()))
    }

    /// All elements as a writable rank-1 view.
    ///
    /// # Errors
    /// A dtype mismatch.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![0u8; 4])?;
    /// t.slice_mut(0, 1)?.flat_mut::<u8>()?.fill(9);
    /// assert_eq!(t.as_slice::<u8>()?, &[9, 9, 0, 0]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn flat_mut<T: Element>(&mut self) -> Result<ArrayViewMut<'_, T, Ix1>> {
        self.region.check_dtype::<T>()?;
        let dim = Ix1(self.region.count());
        self.region
            .view_mut(self.ex.as_mut().map(Exclusive::reborrow), dim)
    }

    /// A rank-1 view (the sub-tensor must have rank 1).
    ///
    /// # Errors
    /// A dtype or rank mismatch.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![1u8, 2, 3, 4])?;
    /// assert_eq!(t.sub_slice_mut(1)?.vec::<u8>()?[1], 4);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn vec<T: Element>(&self) -> Result<ArrayView<'_, T, Ix1>> {
        self.tensor::<T, Ix1>()
    }

    /// Writable twin of [`TensorMut::vec`].
    ///
    /// # Errors
    /// A dtype or rank mismatch.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2, 2], vec![0u8; 4])?;
    /// t.sub_slice_mut(1)?.vec_mut::<u8>()?[0] = 1;
    /// assert_eq!(t.as_slice::<u8>()?, &[0, 0, 1, 0]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn vec_mut<T: Element>(&mut self) -> Result<ArrayViewMut<'_, T, Ix1>> {
        self.tensor_mut::<T, Ix1>()
    }

    /// A rank-2 view (the sub-tensor must have rank 2).
    ///
    /// # Errors
    /// A dtype or rank mismatch.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([3, 1], vec![1u8, 2, 3])?;
    /// assert_eq!(t.slice_mut(1, 3)?.matrix::<u8>()?[[1, 0]], 3);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn matrix<T: Element>(&self) -> Result<ArrayView<'_, T, Ix2>> {
        self.tensor::<T, Ix2>()
    }

    /// Writable twin of [`TensorMut::matrix`].
    ///
    /// # Errors
    /// A dtype or rank mismatch.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([3, 1], vec![0u8; 3])?;
    /// t.slice_mut(1, 3)?.matrix_mut::<u8>()?[[1, 0]] = 3;
    /// assert_eq!(t.as_slice::<u8>()?, &[0, 0, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn matrix_mut<T: Element>(&mut self) -> Result<ArrayViewMut<'_, T, Ix2>> {
        self.tensor_mut::<T, Ix2>()
    }

    /// The single element of a one-element sub-tensor, writable.
    ///
    /// # Errors
    /// A dtype mismatch, or not exactly one element.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from_vec([2], vec![0i64; 2])?;
    /// t.sub_slice_mut(1)?.scalar_mut::<i64>()?[()] = -1;
    /// assert_eq!(t.as_slice::<i64>()?, &[0, -1]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn scalar_mut<T: Element>(&mut self) -> Result<ArrayViewMut<'_, T, Ix0>> {
        self.region.check_dtype::<T>()?;
        self.region.check_one_element()?;
        self.region
            .view_mut(self.ex.as_mut().map(Exclusive::reborrow), Ix0())
    }
}
