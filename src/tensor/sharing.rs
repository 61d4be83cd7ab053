//! TF's buffer-sharing operations on [`Tensor`]: `slice`, `sub_slice`,
//! `bitcast_from`, `copy_from`, and `deep_copy`. All but `deep_copy` are
//! O(1) and share the buffer; writes afterwards go through copy-on-write.

use std::sync::Arc;

use crate::buffer::default_allocator;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::{IntoShape, Tensor};

impl Tensor {
    /// TF's `Slice(start, limit)` along dimension 0: O(1), shares the
    /// buffer. `slice(0, dim0)` returns a clone. The result need not be
    /// 64-byte aligned.
    ///
    /// # Errors
    /// A scalar, or not `0 <= start <= limit <= dim0`.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let t = Tensor::from_vec([4, 2], (0..8).collect::<Vec<i32>>()).unwrap();
    /// let s = t.slice(1, 3).unwrap();
    /// assert_eq!(s.shape().dim_sizes(), vec![2, 2]);
    /// assert_eq!(s.as_slice::<i32>().unwrap(), &[2, 3, 4, 5]);
    /// assert!(s.shares_buffer_with(&t));
    /// ```
    pub fn slice(&self, start: i64, limit: i64) -> Result<Tensor> {
        Ok(Tensor {
            region: self.region.slice(start, limit)?,
            root: self.root.clone(),
        })
    }

    /// TF's `SubSlice(index)`: the `index`-th sub-tensor along dimension 0,
    /// one rank lower (a 1-D tensor gives a scalar). O(1), shares the
    /// buffer. If dim 0 is 0 the result has no buffer, as in TF.
    ///
    /// # Errors
    /// A scalar, or `index` outside `0..=dim0` (`index == dim0` only works
    /// when the inner size is 0, as in TF).
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let t = Tensor::from_vec([3, 2], (0..6).collect::<Vec<i32>>()).unwrap();
    /// let r = t.sub_slice(2).unwrap();
    /// assert_eq!(r.as_slice::<i32>().unwrap(), &[4, 5]);
    /// assert_eq!(r.dims(), 1);
    /// ```
    pub fn sub_slice(&self, index: i64) -> Result<Tensor> {
        let (region, in_memory) = self.region.sub_slice(index)?;
        Ok(Tensor {
            region,
            root: if in_memory { self.root.clone() } else { None },
        })
    }

    /// TF's `BitcastFrom`: this tensor becomes `other`'s bytes seen as
    /// `dtype` with `shape`, sharing the buffer. The byte sizes must match.
    ///
    /// # Errors
    /// TF's three `InvalidArgument`s: `"other tensor has zero-sized data
    /// type"`, `"specified output type is zero-sized"`, `"input and output
    /// shapes/data type sizes are not compatible"`. On error `self` is
    /// unchanged.
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let d = Tensor::from_vec([2], vec![1.0f64, 2.0]).unwrap();
    /// let mut t = Tensor::default();
    /// t.bitcast_from(&d, DataType::UInt32, [4]).unwrap();
    /// assert_eq!(t.as_slice::<u32>().unwrap()[1], 0x3ff0_0000);
    /// assert!(t.shares_buffer_with(&d));
    /// ```
    #[doc(
        alias = "BitcastFrom",
        alias = "UnsafeCopyFromInternal",
        alias = "unsafe_copy_from_internal"
    )]
    pub fn bitcast_from(
        &mut self,
        other: &Tensor,
        dtype: DataType,
        shape: impl IntoShape,
    ) -> Result<()> {
        let shape = shape.into_shape()?;
        let in_size = other.region.dtype().size();
        let out_size = dtype.size();
        if in_size == 0 {
            return Err(Error::InvalidArgument(
                "other tensor has zero-sized data type".into(),
            ));
        }
        if out_size == 0 {
            return Err(Error::InvalidArgument(
                "specified output type is zero-sized".into(),
            ));
        }
        let out_bytes = i128::from(shape.num_elements()) * out_size as i128;
        let in_bytes = i128::from(other.num_elements()) * in_size as i128;
        if out_bytes != in_bytes {
            return Err(Error::InvalidArgument(
                "input and output shapes/data type sizes are not compatible".into(),
            ));
        }
        *self = Tensor {
            region: other.region.recast(dtype, shape),
            root: other.root.clone(),
        };
        Ok(())
    }

    /// TF's `CopyFrom`: despite the name, shares `other`'s buffer and dtype
    /// with a new shape of the same element count. Returns `false` (and
    /// leaves `self` unchanged) when the counts differ or the shape is
    /// invalid.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let a = Tensor::from_vec([6], (0..6).collect::<Vec<u8>>()).unwrap();
    /// let mut b = Tensor::default();
    /// assert!(b.copy_from(&a, [2, 3]));
    /// assert!(b.shares_buffer_with(&a));
    /// assert!(!b.copy_from(&a, [4]));
    /// ```
    ///
    /// The result must be used (TF's `TF_MUST_USE_RESULT`):
    ///
    /// ```compile_fail
    /// #![deny(unused_must_use)]
    /// let a = tftensor::Tensor::from_vec([6], vec![0u8; 6]).unwrap();
    /// let mut b = tftensor::Tensor::default();
    /// b.copy_from(&a, [2, 3]); // error: unused return value
    /// ```
    #[must_use = "copy_from returns false and leaves the tensor unchanged when the shapes do not match"]
    pub fn copy_from(&mut self, other: &Tensor, shape: impl IntoShape) -> bool {
        match shape.into_shape() {
            Ok(shape) if shape.num_elements() == other.num_elements() => {
                *self = Tensor {
                    region: other.region.recast(other.region.dtype(), shape),
                    root: other.root.clone(),
                };
                true
            }
            _ => false,
        }
    }

    /// TF's `tensor::DeepCopy`: a tensor with its own fresh, 64-byte-aligned
    /// buffer holding a copy of this one's elements.
    ///
    /// # Errors
    /// A failed allocation.
    ///
    /// ```
    /// let a = tftensor::Tensor::from_vec([2], vec![1i8, 2]).unwrap();
    /// let b = a.deep_copy().unwrap();
    /// assert!(!b.shares_buffer_with(&a));
    /// assert_eq!(a, b);
    /// ```
    pub fn deep_copy(&self) -> Result<Tensor> {
        let root = match &self.root {
            None => None,
            Some(root) => Some(Arc::new(
                root.copy_range(self.region.bytes(), &default_allocator())?,
            )),
        };
        Ok(Tensor {
            region: self.region.at_start(),
            root,
        })
    }
}
