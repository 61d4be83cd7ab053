//! Conversions between [`Tensor`] and owned Rust data: `ndarray` arrays
//! and `Vec`s, in both directions. Adopted buffers move without a copy;
//! [`TypedTensor`](crate::TypedTensor) uses these too.

use ndarray::{Array, ArrayD, ArrayView, Dimension, Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6, IxDyn};

use crate::element::Element;
use crate::error::{Error, Result, ShapeError};
use crate::tensor::Tensor;

impl Tensor {
    /// A tensor from an owned `ndarray` array. A standard-layout array's
    /// `Vec` is adopted without copying the elements (POD types but
    /// `bool`, and string/resource/variant); any other layout is copied
    /// once into row-major order.
    ///
    /// # Errors
    /// Only if the shape cannot be a TF shape or an allocation fails.
    ///
    /// ```
    /// use tftensor::{ndarray::array, Tensor};
    /// let t = Tensor::from_array(array![[1.0f64, 2.0], [3.0, 4.0]])?;
    /// assert_eq!(t.shape().dim_sizes(), vec![2, 2]);
    /// let tr = Tensor::from_array(array![[1.0f64, 2.0], [3.0, 4.0]].reversed_axes())?;
    /// assert_eq!(tr.flat::<f64>()?.to_vec(), vec![1.0, 3.0, 2.0, 4.0]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_array<T: Element, D: Dimension>(array: Array<T, D>) -> Result<Tensor> {
        let shape = array.shape().to_vec();
        if array.is_standard_layout() {
            let len = array.len();
            let (vec, offset) = array.into_raw_vec_and_offset();
            // No offset: an empty array, whose no elements are anywhere.
            let Some(offset) = offset else {
                return Tensor::from_vec(&shape[..], Vec::<T>::new());
            };
            if offset == 0 && vec.len() == len {
                return Tensor::from_vec(&shape[..], vec);
            }
            // Standard layout: the elements are `len` consecutive values
            // from `offset`.
            let elems = vec
                .get(offset..)
                .and_then(|v| v.get(..len))
                .ok_or_else(|| {
                    Error::InvalidShape(ShapeError::Other(
                        "array storage is shorter than its shape".into(),
                    ))
                })?;
            return Tensor::from_slice(&shape[..], elems);
        }
        let mut values = crate::buffer::try_vec(array.len())?;
        values.extend(array.iter().cloned());
        Tensor::from_vec(&shape[..], values)
    }
}

impl<T: Element, D: Dimension> TryFrom<ArrayView<'_, T, D>> for Tensor {
    type Error = Error;

    /// Copies the view's elements (in row-major order) into a fresh
    /// 64-byte-aligned tensor: one copy for a standard-layout view.
    ///
    /// ```
    /// use tftensor::{ndarray::array, Tensor};
    /// let a = array![[1u8, 2], [3, 4]];
    /// let t = Tensor::try_from(a.view())?;
    /// assert_eq!(t.flat::<u8>()?.to_vec(), vec![1, 2, 3, 4]);
    /// let tt = Tensor::try_from(a.t())?;
    /// assert_eq!(tt.flat::<u8>()?.to_vec(), vec![1, 3, 2, 4]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(view: ArrayView<'_, T, D>) -> Result<Tensor> {
        let shape = view.shape().to_vec();
        match view.as_slice() {
            Some(s) => Tensor::from_slice(&shape[..], s),
            None => Tensor::from_vec(&shape[..], view.iter().cloned().collect()),
        }
    }
}

impl<T: Element> TryFrom<Tensor> for Vec<T> {
    type Error = Error;

    /// The elements in row-major order. Zero-copy when the tensor is the
    /// only handle on a `Vec<T>` it adopted ([`Tensor::from_vec`],
    /// [`Tensor::from_array`]) and covers all of it; one copy otherwise.
    ///
    /// # Errors
    /// A dtype other than `T`'s; an uninitialized tensor.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let v = vec![1i32, 2, 3];
    /// let p = v.as_ptr();
    /// let back = Vec::<i32>::try_from(Tensor::from_vec([3], v)?)?;
    /// assert_eq!(back.as_ptr(), p); // handed back, no copy
    /// assert!(Vec::<f32>::try_from(Tensor::from(1i32)).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(tensor: Tensor) -> Result<Vec<T>> {
        tensor.check_dtype::<T>()?;
        match tensor.try_take_vec::<T>() {
            Ok(v) => Ok(v),
            Err(tensor) => {
                let s = tensor.as_slice::<T>()?;
                let mut v = crate::buffer::try_vec(s.len())?;
                v.extend_from_slice(s);
                Ok(v)
            }
        }
    }
}

impl<T: Element> TryFrom<Tensor> for ArrayD<T> {
    type Error = Error;

    /// The tensor as an owned array of its shape, zero-copy under the same
    /// conditions as `Vec::try_from`.
    ///
    /// # Errors
    /// As `Vec::try_from`.
    ///
    /// ```
    /// use tftensor::{ndarray::ArrayD, Tensor};
    /// let a = ArrayD::<u8>::try_from(Tensor::from_vec([2, 2], vec![1u8, 2, 3, 4])?)?;
    /// assert_eq!(a.shape(), &[2, 2]);
    /// assert_eq!(a[[1, 0]], 3);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(tensor: Tensor) -> Result<ArrayD<T>> {
        let dims = tensor.shape().to_usize_vec();
        let values = Vec::<T>::try_from(tensor)?;
        Array::from_shape_vec(IxDyn(&dims), values)
            .map_err(|e| Error::InvalidShape(ShapeError::Other(e.to_string())))
    }
}

impl<T: Element> TryFrom<ArrayD<T>> for Tensor {
    type Error = Error;

    /// [`Tensor::from_array`] for a dynamic-rank array (whose rank may
    /// exceed TF's 254).
    ///
    /// ```
    /// use tftensor::{ndarray::ArrayD, Tensor};
    /// let t = Tensor::try_from(ArrayD::<f32>::zeros(vec![2, 3]))?;
    /// assert_eq!(t.shape().dim_sizes(), vec![2, 3]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn try_from(array: ArrayD<T>) -> Result<Tensor> {
        Tensor::from_array(array)
    }
}

/// `From<Array<T, IxN>>` for the fixed ranks, which always make a valid
/// shape.
macro_rules! from_fixed_rank_array {
    ($($D:ty),*) => {$(
        impl<T: Element> From<Array<T, $D>> for Tensor {
            /// [`Tensor::from_array`]: the array's `Vec` is adopted
            /// without a copy when it is in standard layout. A fixed-rank
            /// array always makes a valid shape, so this cannot fail
            /// except for memory, where it aborts like `Vec`.
            ///
            /// ```
            /// use tftensor::{ndarray::array, Tensor};
            /// let t = Tensor::from(array![[1.0f32, 2.0], [3.0, 4.0]]);
            /// assert_eq!(t.matrix::<f32>()?[[1, 0]], 3.0);
            /// # Ok::<(), tftensor::Error>(())
            /// ```
            fn from(array: Array<T, $D>) -> Tensor {
                let bytes = array.len().saturating_mul(std::mem::size_of::<T>());
                match Tensor::from_array(array) {
                    Ok(t) => t,
                    Err(_) => std::alloc::handle_alloc_error(
                        std::alloc::Layout::from_size_align(bytes.max(1), 64)
                            .unwrap_or(std::alloc::Layout::new::<u8>()),
                    ),
                }
            }
        }
    )*};
}

from_fixed_rank_array!(Ix0, Ix1, Ix2, Ix3, Ix4, Ix5, Ix6);
