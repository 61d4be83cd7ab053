//! [`TypedTensor<T>`]: a [`Tensor`] whose element type is fixed at compile
//! time, after the Unity Inference Engine's (Sentis) `Tensor<T>`.
//!
//! The facade owns a plain [`Tensor`] and adds nothing to it but the type:
//! converting either way moves the tensor (no copy, no allocation), and
//! every operation reads or writes the same shared, copy-on-write buffer.
//!
//! The invariant every constructor checks, and every method keeps, is that
//! the tensor can be viewed as `&[T]`: its dtype is `T`'s, it has a buffer
//! whenever it has elements, the data is aligned for `T`, and (for `bool`)
//! every byte is 0 or 1.
//!
//! A method named as one of [`Tensor`]'s does what that one does with the
//! element type fixed to `T` (`tensor::<D>()` is `Tensor::tensor::<T, D>()`,
//! `from_vec` and `from_slice` take the same arguments). Where the `Tensor`
//! method can fail only on the dtype check, which the invariant makes
//! impossible here, the typed one returns the value itself:
//! [`TypedTensor::as_slice`] is `&[T]`, not `Result<&[T]>`.

use std::fmt;
use std::marker::PhantomData;

use ndarray::{
    Array, ArrayD, ArrayView, ArrayViewD, ArrayViewMut, ArrayViewMutD, Dimension, IxDyn,
};

use crate::dtype::DataType;
use crate::element::Element;
use crate::error::{Error, OverflowError, RangeError, Result, SizeCheck};
use crate::shape::TensorShape;
use crate::tensor::{IntoShape, Tensor};

mod index;

/// A [`Tensor`] of `T` elements: Sentis-style typed access (`t[[i, j]]`,
/// `as_slice`, `upload`, `reshape`) over the same refcounted buffer.
///
/// * Converting to and from [`Tensor`] is free: [`TypedTensor::into_tensor`]
///   and [`TypedTensor::try_from`] move the tensor (the way in checks the
///   dtype). [`TypedTensor::as_tensor`] borrows it; there is no `Deref`, so
///   the two APIs never blur.
/// * `clone()` shares the buffer; writes (`t[[i]] = x`, `as_mut_slice`,
///   `upload`, `view_mut`) copy this tensor's region first when the buffer
///   is shared (copy-on-write), so other handles never see them.
/// * Indexing with a position out of range, or of the wrong rank, panics
///   like slice indexing; [`TypedTensor::get`] returns `None` instead.
///
/// ```
/// use tftensor::{Tensor, TypedTensor};
/// let mut t = TypedTensor::<f32>::from_vec([2, 3], vec![1., 2., 3., 4., 5., 6.])?;
/// t[[1, 2]] = 60.0;
/// assert_eq!(t[[1, 2]], 60.0);
/// assert_eq!(t.as_slice(), &[1., 2., 3., 4., 5., 60.]);
/// let untyped: Tensor = t.into(); // free
/// let back = TypedTensor::<f32>::try_from(untyped)?; // free, dtype checked
/// assert_eq!(back.shape().dim_sizes(), vec![2, 3]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct TypedTensor<T: Element> {
    tensor: Tensor,
    /// Elements this handle may use from its start: its own region when
    /// wrapped, kept by [`TypedTensor::reshape`] (never past the region).
    capacity: usize,
    _elem: PhantomData<T>,
}

// Compile-time check: the facade is as thread-safe as `Tensor`.
const _: () = {
    const fn send_sync<X: Send + Sync>() {}
    const fn check<T: Element>() {
        send_sync::<TypedTensor<T>>();
    }
    check::<f32>();
};

/// The facade's invariant (see the module docs) did not hold: a bug in
/// this crate, never a consequence of input, so it is not an `Err`.
#[cold]
#[track_caller]
fn invariant_broken(err: &Error) -> ! {
    crate::tensor::invariant_broken("TypedTensor", err)
}

/// `n` as `usize`, for element counts of valid shapes (which are >= 0).
fn count(shape: &TensorShape) -> Result<usize> {
    usize::try_from(shape.num_elements()).map_err(|_| {
        Error::Overflow(OverflowError::Size {
            what: "element count",
        })
    })
}

impl<T: Element> TypedTensor<T> {
    /// Wraps `tensor` after checking the invariant (see the module docs).
    fn wrap(tensor: Tensor) -> Result<Self> {
        let capacity = tensor.as_slice::<T>()?.len();
        Ok(TypedTensor {
            tensor,
            capacity,
            _elem: PhantomData,
        })
    }

    // ----- constructors -----

    /// A zero-filled tensor (empty strings, default handles and variants
    /// for those element types) in a fresh 64-byte-aligned buffer: Sentis'
    /// `new Tensor<T>(shape)`, as [`Tensor::new`] with `T`'s dtype.
    ///
    /// There is no uninitialized form, so Sentis' `clearOnInit = false`
    /// also lands here: safe Rust cannot hand out memory nobody wrote
    /// (reading it is undefined behaviour even for `u8`), and an `unsafe`
    /// variant could not be used soundly either, since every write path
    /// first forms a `&mut [T]` over it. To skip the clearing pass, build
    /// the tensor from its values: [`TypedTensor::from_fn`] writes each
    /// element once into memory that is never cleared, and
    /// [`TypedTensor::from_vec`] adopts a `Vec` you filled.
    ///
    /// # Errors
    /// A bad shape, or a failed allocation.
    ///
    /// ```
    /// use tftensor::TypedTensor;
    /// let t = TypedTensor::<i32>::new([2, 2])?;
    /// assert_eq!(t.as_slice(), &[0, 0, 0, 0]);
    /// assert!(TypedTensor::<i32>::new([-1]).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[doc(alias = "clearOnInit", alias = "zeros", alias = "new_uninit")]
    pub fn new(shape: impl IntoShape) -> Result<Self> {
        Self::wrap(Tensor::new(T::DTYPE, shape)?)
    }

    /// A tensor whose element at flat (row-major) index `i` is `f(i)`. The
    /// values go straight into a `Vec` that becomes the buffer: no clearing
    /// pass and no copy (`bool` is copied once into bytes).
    ///
    /// # Errors
    /// A bad shape, or a failed allocation.
    ///
    /// ```
    /// use tftensor::TypedTensor;
    /// let t = TypedTensor::from_fn([2, 3], |i| i as f64 * 0.5)?;
    /// assert_eq!(t[[1, 0]], 1.5);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_fn(shape: impl IntoShape, f: impl FnMut(usize) -> T) -> Result<Self> {
        let shape = shape.into_shape()?;
        let n = count(&shape)?;
        let mut values = crate::buffer::try_vec(n)?;
        values.extend((0..n).map(f));
        Self::from_vec(shape, values)
    }

    /// A tensor holding a copy of `values`, in a fresh 64-byte-aligned
    /// buffer: [`Tensor::from_slice`] with `T`'s dtype.
    ///
    /// # Errors
    /// A bad shape, or `values.len()` other than the shape's element count
    /// ([`Error::SizeMismatch`], `"<len> vs. <count>"`); a failed
    /// allocation.
    ///
    /// ```
    /// use tftensor::TypedTensor;
    /// let t = TypedTensor::from_slice([2, 2], &[1u8, 2, 3, 4])?;
    /// assert!(t.as_tensor().is_aligned());
    /// assert_eq!(t.as_slice(), &[1, 2, 3, 4]);
    /// assert!(TypedTensor::from_slice([2, 2], &[1u8, 2, 3]).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_slice(shape: impl IntoShape, values: &[T]) -> Result<Self> {
        Self::wrap(Tensor::from_slice(shape, values)?)
    }

    /// Sentis' `Tensor<T>(shape, srcData, dataStartIndex)`: a copy of the
    /// shape's element count of `values`, starting at `data_start_index`,
    /// in a fresh 64-byte-aligned buffer. Elements after those are ignored
    /// (unlike [`TypedTensor::from_slice`], which takes exactly the count).
    ///
    /// # Errors
    /// A bad shape; `data_start_index > values.len()`
    /// ([`Error::OutOfRange`]); fewer than the shape's count of elements
    /// from there ([`Error::SizeMismatch`]); a failed allocation.
    ///
    /// ```
    /// use tftensor::TypedTensor;
    /// let data = [9u8, 1, 2, 3, 4, 9];
    /// let t = TypedTensor::from_slice_at([2, 2], &data, 1)?;
    /// assert_eq!(t.as_slice(), &[1, 2, 3, 4]);
    /// assert!(TypedTensor::from_slice_at([2, 2], &data, 3).is_err()); // 3 left, 4 needed
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[doc(alias = "dataStartIndex")]
    pub fn from_slice_at(
        shape: impl IntoShape,
        values: &[T],
        data_start_index: usize,
    ) -> Result<Self> {
        let shape = shape.into_shape()?;
        let n = count(&shape)?;
        let rest =
            values
                .get(data_start_index..)
                .ok_or(Error::OutOfRange(RangeError::DataStart {
                    index: data_start_index,
                    len: values.len(),
                }))?;
        let src = rest.get(..n).ok_or_else(|| Error::SizeMismatch {
            got: rest.len() as u64,
            expected: n as u64,
            check: SizeCheck::FromIndex {
                index: data_start_index,
                dims: shape.dim_sizes(),
            },
        })?;
        Self::wrap(Tensor::from_slice(shape, src)?)
    }

    /// A tensor that takes ownership of `values` without copying them (for
    /// every element type but `bool`, which is copied once into bytes).
    /// The buffer is the `Vec`'s own memory, so it is 64-byte aligned only
    /// if the allocator made it so.
    ///
    /// # Errors
    /// A bad shape, or `values.len()` other than its element count
    /// ([`Error::SizeMismatch`], `"<len> vs. <count>"`).
    ///
    /// ```
    /// use tftensor::TypedTensor;
    /// let v = vec![1i64, 2, 3, 4];
    /// let p = v.as_ptr();
    /// let t = TypedTensor::from_vec([2, 2], v)?;
    /// assert_eq!(t.as_slice().as_ptr(), p); // no copy
    /// assert!(TypedTensor::from_vec([3], vec![1i64]).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_vec(shape: impl IntoShape, values: Vec<T>) -> Result<Self> {
        Self::wrap(Tensor::from_vec(shape, values)?)
    }

    /// A tensor from an owned `ndarray` array of any rank, in logical
    /// (row-major) order. Without a copy when the array is in standard
    /// layout and starts at its allocation (any array built row-major and
    /// not sliced); otherwise the elements are copied once. `bool` is
    /// always copied once.
    ///
    /// # Errors
    /// More than 254 dims, or a failed allocation.
    ///
    /// ```
    /// use tftensor::{ndarray::array, TypedTensor};
    /// let a = array![[1.0f32, 2.0], [3.0, 4.0]];
    /// let p = a.as_ptr();
    /// let t = TypedTensor::from_array(a)?;
    /// assert_eq!(t.as_slice().as_ptr(), p); // no copy
    /// let f = TypedTensor::from_array(array![[1, 2], [3, 4]].reversed_axes())?;
    /// assert_eq!(f.as_slice(), &[1, 3, 2, 4]); // copied in logical order
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_array<D: Dimension>(array: Array<T, D>) -> Result<Self> {
        Self::wrap(Tensor::from_array(array)?)
    }

    // ----- queries -----

    /// The dtype, always `T::DTYPE`.
    ///
    /// ```
    /// use tftensor::{DataType, TypedTensor};
    /// assert_eq!(TypedTensor::<u8>::new([1])?.dtype(), DataType::UInt8);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dtype(&self) -> DataType {
        T::DTYPE
    }

    /// The logical shape.
    ///
    /// ```
    /// let t = tftensor::TypedTensor::<f32>::new([2, 3])?;
    /// assert_eq!(t.shape().to_string(), "[2,3]");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn shape(&self) -> &TensorShape {
        self.tensor.shape()
    }

    /// The rank.
    ///
    /// ```
    /// assert_eq!(tftensor::TypedTensor::<f32>::new([2, 3, 4])?.dims(), 3);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn dims(&self) -> usize {
        self.tensor.dims()
    }

    /// The number of elements (Sentis' `count`).
    ///
    /// ```
    /// assert_eq!(tftensor::TypedTensor::<f32>::new([2, 3])?.len(), 6);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        // The elements exist in memory (the invariant), so they fit.
        match usize::try_from(self.tensor.num_elements()) {
            Ok(n) => n,
            Err(_) => invariant_broken(&Error::Overflow(OverflowError::Size {
                what: "element count",
            })),
        }
    }

    /// Whether there are no elements.
    ///
    /// ```
    /// assert!(tftensor::TypedTensor::<f32>::new([2, 0])?.is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// How many elements this handle may use: how far
    /// [`TypedTensor::reshape`] can grow the shape in place (Sentis'
    /// `maxCapacity`). It is the region the handle was made with (a slice's
    /// own rows, never its parent's), or less after a copy-on-write, which
    /// copies only the current shape's elements. 0 when there is no buffer.
    ///
    /// ```
    /// let mut t = tftensor::TypedTensor::<f32>::new([10])?;
    /// t.reshape([2, 3])?;
    /// assert_eq!((t.len(), t.capacity()), (6, 10));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn capacity(&self) -> usize {
        // A copy-on-write copies only the current region.
        self.capacity.min(self.tensor.elements_from_start())
    }

    // ----- element access -----

    /// The row-major position of `index`, or `None` for a wrong rank or a
    /// coordinate out of range.
    fn flat_index(&self, index: &[usize]) -> Option<usize> {
        let shape = self.tensor.shape();
        if index.len() != shape.dims() {
            return None;
        }
        index
            .iter()
            .zip(shape.iter())
            .try_fold(0usize, |flat, (&i, d)| {
                let d = usize::try_from(d).ok()?;
                if i >= d {
                    return None;
                }
                flat.checked_mul(d)?.checked_add(i)
            })
    }

    /// The element at flat position `flat`. One element is checked, so a
    /// `bool` read checks one byte, not the whole tensor.
    fn element(&self, flat: usize) -> Option<&T> {
        self.tensor.element::<T>(flat)
    }

    /// Mutable twin of `element`, after copy-on-write.
    fn element_mut(&mut self, flat: usize) -> Result<Option<&mut T>> {
        self.tensor.element_mut::<T>(flat)
    }

    /// The element at `index` (one coordinate per dimension), or `None` for
    /// a wrong rank or a coordinate out of range.
    ///
    /// ```
    /// let t = tftensor::TypedTensor::from_fn([2, 3], |i| i as u8)?;
    /// assert_eq!(t.get(&[1, 2]), Some(&5));
    /// assert_eq!(t.get(&[2, 0]), None);
    /// assert_eq!(t.get(&[1]), None);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn get(&self, index: &[usize]) -> Option<&T> {
        self.element(self.flat_index(index)?)
    }

    /// The element at `index`, writable (copy-on-write if the buffer is
    /// shared), or `None` for a wrong rank, a coordinate out of range, or a
    /// failed copy-on-write allocation.
    ///
    /// ```
    /// let mut t = tftensor::TypedTensor::<i32>::new([2, 2])?;
    /// *t.get_mut(&[0, 1]).unwrap() = 7;
    /// assert_eq!(t.as_slice(), &[0, 7, 0, 0]);
    /// assert!(t.get_mut(&[0, 2]).is_none());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn get_mut(&mut self, index: &[usize]) -> Option<&mut T> {
        let flat = self.flat_index(index)?;
        self.element_mut(flat).ok().flatten()
    }

    // ----- data access -----

    /// The elements in row-major order (Sentis' `AsReadOnlySpan`). O(1) and
    /// no copy, except that a `bool` tensor checks its bytes.
    ///
    /// ```
    /// let t = tftensor::TypedTensor::from_vec([2], vec![1.5f32, 2.5])?;
    /// assert_eq!(t.as_slice(), &[1.5, 2.5]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn as_slice(&self) -> &[T] {
        // Every way in checks that this view exists, and no method breaks it.
        match self.tensor.as_slice::<T>() {
            Ok(s) => s,
            Err(e) => invariant_broken(&e),
        }
    }

    /// The elements, writable. Copies this tensor's region first if the
    /// buffer is shared (copy-on-write); O(1) otherwise.
    ///
    /// # Errors
    /// A failed allocation for the copy.
    ///
    /// ```
    /// let mut t = tftensor::TypedTensor::from_vec([3], vec![1u8, 2, 3])?;
    /// let shared = t.clone();
    /// t.as_mut_slice()?[0] = 10;
    /// assert_eq!(t.as_slice(), &[10, 2, 3]);
    /// assert_eq!(shared.as_slice(), &[1, 2, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn as_mut_slice(&mut self) -> Result<&mut [T]> {
        self.tensor.as_mut_slice::<T>()
    }

    /// A copy of the elements in a new `Vec` (Sentis' `DownloadToArray`).
    ///
    /// ```
    /// let t = tftensor::TypedTensor::from_fn([2, 2], |i| i as i16)?;
    /// assert_eq!(t.to_vec(), vec![0, 1, 2, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn to_vec(&self) -> Vec<T> {
        self.as_slice().to_vec()
    }

    /// Overwrites every element with `data` (Sentis' `Upload`). When the
    /// buffer is shared, the data goes into a fresh buffer instead of
    /// copying the old elements first (so the capacity becomes the length).
    ///
    /// # Errors
    /// `data.len()` other than [`TypedTensor::len`]
    /// ([`Error::SizeMismatch`], `"<data len> vs. <len>"`); a failed
    /// allocation. On error the tensor is unchanged.
    ///
    /// ```
    /// let mut t = tftensor::TypedTensor::<f64>::new([2])?;
    /// t.upload(&[1.0, 2.0])?;
    /// assert_eq!(t.as_slice(), &[1.0, 2.0]);
    /// assert_eq!(t.upload(&[1.0]).unwrap_err().to_string(), "1 vs. 2");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn upload(&mut self, data: &[T]) -> Result<()> {
        if data.len() != self.len() {
            return Err(Error::SizeMismatch {
                got: data.len() as u64,
                expected: self.len() as u64,
                check: SizeCheck::Elements,
            });
        }
        if self.tensor.is_shared() {
            // Copy-on-write would copy elements we are about to overwrite.
            self.tensor = Tensor::from_slice(self.tensor.shape().clone(), data)?;
            return Ok(());
        }
        self.as_mut_slice()?.clone_from_slice(data);
        Ok(())
    }

    /// Changes the logical shape without touching the buffer, as Sentis'
    /// `Reshape`: the new element count may be anything up to
    /// [`TypedTensor::capacity`], so a tensor shrunk by a reshape can grow
    /// back (and sees its old elements again). A copy-on-write copies only
    /// the current region, which then becomes the capacity.
    ///
    /// # Errors
    /// A bad shape, or more elements than the capacity
    /// ([`Error::SizeMismatch`]); for `bool`, newly covered bytes other
    /// than 0 or 1. On error the shape is unchanged.
    ///
    /// ```
    /// let mut t = tftensor::TypedTensor::from_fn([10], |i| i as i32)?;
    /// t.reshape([2, 3])?;
    /// assert_eq!(t[[1, 0]], 3);
    /// t.reshape([2, 5])?; // back to all ten
    /// assert_eq!(t[[1, 4]], 9);
    /// assert!(t.reshape([11]).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn reshape(&mut self, shape: impl IntoShape) -> Result<()> {
        let shape = shape.into_shape()?;
        let n = count(&shape)?;
        let capacity = self.capacity();
        if n > capacity {
            return Err(Error::SizeMismatch {
                got: n as u64,
                expected: capacity as u64,
                check: SizeCheck::Capacity {
                    dims: shape.dim_sizes(),
                },
            });
        }
        let old = self.tensor.shape().clone();
        self.tensor.set_shape_unchecked(shape);
        if let Err(e) = self.tensor.as_slice::<T>() {
            self.tensor.set_shape_unchecked(old);
            return Err(e);
        }
        Ok(())
    }

    // ----- copies and views -----

    /// A tensor with its own fresh, 64-byte-aligned buffer holding a copy
    /// of the elements (TF's `tensor::DeepCopy`).
    ///
    /// # Errors
    /// A failed allocation.
    ///
    /// ```
    /// let a = tftensor::TypedTensor::from_vec([2], vec![1u32, 2])?;
    /// let b = a.deep_copy()?;
    /// assert_eq!(a, b);
    /// assert!(!b.as_tensor().shares_buffer_with(a.as_tensor()));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[doc(alias = "ReadbackAndClone", alias = "readback_and_clone")]
    pub fn deep_copy(&self) -> Result<Self> {
        // A fresh aligned copy of valid elements keeps the invariant.
        Ok(TypedTensor {
            tensor: self.tensor.deep_copy()?,
            capacity: self.len(),
            _elem: PhantomData,
        })
    }

    /// An `ndarray` view of the tensor's rank (`IxDyn`) over its buffer, no
    /// copy: `Tensor::tensor::<T, IxDyn>()`, which cannot fail here.
    ///
    /// ```
    /// let t = tftensor::TypedTensor::from_fn([2, 3], |i| i as f32)?;
    /// let v = t.view();
    /// assert_eq!(v.shape(), &[2, 3]);
    /// assert_eq!(v[[1, 2]], 5.0);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[inline]
    pub fn view(&self) -> ArrayViewD<'_, T> {
        // The invariant makes the elements viewable, and the shape covers
        // exactly them.
        match self.tensor.tensor::<T, IxDyn>() {
            Ok(v) => v,
            Err(e) => invariant_broken(&e),
        }
    }

    /// A writable `ndarray` view of the tensor's rank (`IxDyn`); copies the
    /// region first if the buffer is shared. `Tensor::tensor_mut::<T, IxDyn>()`.
    ///
    /// # Errors
    /// A failed allocation for the copy.
    ///
    /// ```
    /// let mut t = tftensor::TypedTensor::<f32>::new([2, 2])?;
    /// t.view_mut()?.fill(1.5);
    /// assert_eq!(t.as_slice(), &[1.5; 4]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[inline]
    pub fn view_mut(&mut self) -> Result<ArrayViewMutD<'_, T>> {
        self.tensor.tensor_mut::<T, IxDyn>()
    }

    /// TF's `tensor<T, N>()`: an `ndarray` view of fixed rank `D`
    /// (`Ix0`..`Ix6`, or `IxDyn`), as [`Tensor::tensor`].
    ///
    /// # Errors
    /// `D`'s rank is not the tensor's (`"Asking for tensor of 3 dimensions
    /// from a tensor of 2 dimensions"`).
    ///
    /// ```
    /// use tftensor::{ndarray::{Ix2, Ix3}, TypedTensor};
    /// let t = TypedTensor::from_fn([2, 3], |i| i as u8)?;
    /// assert_eq!(t.tensor::<Ix2>()?.row(1).to_vec(), vec![3, 4, 5]);
    /// assert!(t.tensor::<Ix3>().is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[inline]
    pub fn tensor<D: Dimension>(&self) -> Result<ArrayView<'_, T, D>> {
        self.tensor.tensor::<T, D>()
    }

    /// Writable twin of [`TypedTensor::tensor`] (as [`Tensor::tensor_mut`]);
    /// copies the region first if the buffer is shared.
    ///
    /// # Errors
    /// As [`TypedTensor::tensor`], or a failed allocation for the copy.
    ///
    /// ```
    /// use tftensor::{ndarray::Ix2, TypedTensor};
    /// let mut t = TypedTensor::<i32>::new([2, 2])?;
    /// t.tensor_mut::<Ix2>()?.column_mut(1).fill(3);
    /// assert_eq!(t.as_slice(), &[0, 3, 0, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[inline]
    pub fn tensor_mut<D: Dimension>(&mut self) -> Result<ArrayViewMut<'_, T, D>> {
        self.tensor.tensor_mut::<T, D>()
    }

    // ----- conversions -----

    /// The untyped tensor, by reference (the facade has no `Deref`).
    ///
    /// ```
    /// let t = tftensor::TypedTensor::<f32>::new([4])?;
    /// assert!(t.as_tensor().is_aligned());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn as_tensor(&self) -> &Tensor {
        &self.tensor
    }

    /// The untyped tensor, moved out: no copy, no allocation (also
    /// `Tensor::from(t)`).
    ///
    /// ```
    /// use tftensor::{DataType, TypedTensor};
    /// let t = TypedTensor::from_vec([2], vec![1i8, 2])?.into_tensor();
    /// assert_eq!(t.dtype(), DataType::Int8);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn into_tensor(self) -> Tensor {
        self.tensor
    }

    /// The elements as an owned `ndarray` array of the tensor's rank.
    ///
    /// Without a copy when this handle is the only one on a buffer that is
    /// a `Vec<T>` it covers whole: tensors made by
    /// [`TypedTensor::from_vec`], [`TypedTensor::from_fn`],
    /// [`TypedTensor::from_array`] (zero-copy case) or `TryFrom<Vec<T>>`, and
    /// neither shared, sliced, reshaped smaller, nor written after a
    /// copy-on-write. Otherwise (aligned buffers from `new`, `from_slice`,
    /// `deep_copy` or a copy-on-write; adopted bytes; shared or partial
    /// buffers; `bool`, strings, resources, variants) the elements are
    /// copied once.
    ///
    /// ```
    /// use tftensor::TypedTensor;
    /// let v = vec![1.0f32, 2.0, 3.0, 4.0];
    /// let p = v.as_ptr();
    /// let a = TypedTensor::from_vec([2, 2], v)?.into_array();
    /// assert_eq!(a.as_ptr(), p); // handed over, no copy
    /// assert_eq!(a[[1, 0]], 3.0);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn into_array(self) -> ArrayD<T> {
        // The invariant makes the elements readable as `T`.
        match ArrayD::try_from(self.tensor) {
            Ok(a) => a,
            Err(e) => invariant_broken(&e),
        }
    }
}

impl<T: Element> Clone for TypedTensor<T> {
    /// Shares the buffer (O(1)), like [`Tensor`]'s clone.
    ///
    /// ```
    /// let a = tftensor::TypedTensor::<f32>::new([3])?;
    /// assert!(a.clone().as_tensor().shares_buffer_with(a.as_tensor()));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn clone(&self) -> Self {
        TypedTensor {
            tensor: self.tensor.clone(),
            capacity: self.capacity,
            _elem: PhantomData,
        }
    }
}

impl<T: Element> PartialEq for TypedTensor<T> {
    /// Same shape and the same elements bit for bit, as [`Tensor`]'s `==`
    /// (a NaN equals the same NaN; -0.0 differs from 0.0; `Int4` elements
    /// that `Int4`'s own `==` finds equal differ if their unused high bits
    /// do). Compare [`TypedTensor::as_slice`]s to compare values.
    ///
    /// ```
    /// use tftensor::TypedTensor;
    /// let a = TypedTensor::from_vec([2], vec![f32::NAN, 1.0])?;
    /// assert_eq!(a, a.deep_copy()?);
    /// assert_ne!(a, TypedTensor::from_vec([1, 2], vec![f32::NAN, 1.0])?);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn eq(&self, other: &Self) -> bool {
        self.tensor == other.tensor
    }
}

/// How many elements `Debug` prints before `..`.
const DEBUG_ELEMENTS: usize = 8;

impl<T: Element> fmt::Debug for TypedTensor<T> {
    /// Dtype, shape and the first 8 elements.
    ///
    /// ```
    /// let t = tftensor::TypedTensor::from_fn([2, 5], |i| i as u8)?;
    /// assert_eq!(
    ///     format!("{t:?}"),
    ///     "TypedTensor { dtype: uint8, shape: [2,5], data: [0, 1, 2, 3, 4, 5, 6, 7, ..] }"
    /// );
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Head<'a, T>(&'a [T]);
        impl<T: fmt::Debug> fmt::Debug for Head<'_, T> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let mut list = f.debug_list();
                list.entries(self.0.iter().take(DEBUG_ELEMENTS));
                if self.0.len() > DEBUG_ELEMENTS {
                    list.finish_non_exhaustive()
                } else {
                    list.finish()
                }
            }
        }
        f.debug_struct("TypedTensor")
            .field("dtype", &format_args!("{}", T::DTYPE))
            .field("shape", &format_args!("{}", self.shape()))
            .field("data", &Head(self.as_slice()))
            .finish()
    }
}

impl<T: Element> From<TypedTensor<T>> for Tensor {
    /// Moves the tensor out: no copy, no allocation.
    ///
    /// ```
    /// use tftensor::{Tensor, TypedTensor};
    /// let t: Tensor = TypedTensor::from_vec([2], vec![1u8, 2])?.into();
    /// assert_eq!(t.as_slice::<u8>()?, &[1, 2]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn from(t: TypedTensor<T>) -> Tensor {
        t.tensor
    }
}

impl<T: Element> TryFrom<Tensor> for TypedTensor<T> {
    type Error = Error;

    /// Moves `tensor` in (no copy, no allocation) after checking that it
    /// can be read as `T`.
    ///
    /// # Errors
    /// The dtype is not `T`'s ([`Error::DataTypeMismatch`], `"float
    /// expected, got int32"`); an uninitialized tensor; data not aligned
    /// for `T` (a bitcast of an odd slice); a `bool` byte other than 0 or 1.
    ///
    /// ```
    /// use tftensor::{Tensor, TypedTensor};
    /// let t = Tensor::from_vec([2], vec![1i32, 2])?;
    /// assert!(TypedTensor::<f32>::try_from(t.clone()).is_err());
    /// let typed = TypedTensor::<i32>::try_from(t)?;
    /// assert_eq!(typed[[1]], 2);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(tensor: Tensor) -> Result<Self> {
        Self::wrap(tensor)
    }
}

impl<T: Element> TryFrom<Vec<T>> for TypedTensor<T> {
    type Error = Error;

    /// A 1-D tensor owning `values` without a copy; `bool` is copied once
    /// into bytes, which is why this can fail.
    ///
    /// # Errors
    /// A failed allocation for the `bool` copy ([`Error::AllocationFailed`]).
    ///
    /// ```
    /// let t = tftensor::TypedTensor::try_from(vec![1u16, 2, 3])?;
    /// assert_eq!(t.shape().dim_sizes(), vec![3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(values: Vec<T>) -> Result<Self> {
        let len = values.len();
        Self::from_vec([len], values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A facade over a tensor that breaks the invariant (an int32 tensor
    /// typed as f32), which no public constructor can make.
    fn broken() -> TypedTensor<f32> {
        TypedTensor {
            tensor: Tensor::new(DataType::Int32, [2]).unwrap(),
            capacity: 2,
            _elem: PhantomData,
        }
    }

    #[test]
    #[should_panic(expected = "TypedTensor invariant broken")]
    fn as_slice_does_not_hide_a_broken_invariant() {
        let _ = broken().as_slice();
    }

    #[test]
    #[should_panic(expected = "TypedTensor invariant broken")]
    fn view_does_not_hide_a_broken_invariant() {
        let _ = broken().view();
    }

    #[test]
    #[should_panic(expected = "TypedTensor invariant broken")]
    fn into_array_does_not_hide_a_broken_invariant() {
        let _ = broken().into_array();
    }

    #[test]
    fn wrap_takes_the_capacity_from_the_checked_slice() {
        let t = TypedTensor::<u8>::try_from(Tensor::from_vec([2, 3], vec![0u8; 6]).unwrap());
        assert_eq!(t.unwrap().capacity(), 6);
    }
}
