//! TF's buffer-sharing operations on [`Tensor`]: `slice`, `sub_slice`,
//! `bitcast_from`, `copy_from`, and `deep_copy`. All but `deep_copy` are
//! O(1) and share the buffer; writes afterwards go through copy-on-write.

use std::sync::Arc;

use crate::buffer::default_allocator;
use crate::dtype::DataType;
use crate::error::{Error, RangeError, Result};
use crate::shape::TensorShape;
use crate::tensor::{Buf, IntoShape, Tensor};

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
        let dim0 = self.leading_dim("Slice")?;
        check_slice(start, limit, dim0)?;
        if start == 0 && limit == dim0 {
            return Ok(self.clone());
        }
        let mut shape = self.shape.clone();
        shape.set_dim(0, limit - start)?;
        Ok(self.sub_region(shape, start, dim0))
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
        let dim0 = self.leading_dim("SubSlice")?;
        let mut shape = self.shape.clone();
        shape.remove_dim(0)?;
        let inner = shape.num_elements();
        // TF allows index == dim0 when no buffer region is needed (dim0 or
        // the inner size is 0).
        if index < 0 || index > dim0 || (index == dim0 && inner > 0 && dim0 > 0) {
            return Err(Error::OutOfRange(RangeError::SubSlice {
                index,
                size: dim0,
            }));
        }
        if dim0 == 0 {
            return Ok(Tensor {
                dtype: self.dtype,
                shape,
                buf: None,
            });
        }
        Ok(self.sub_region(shape, index, dim0))
    }

    fn leading_dim(&self, op: &str) -> Result<i64> {
        if self.dims() == 0 {
            return Err(Error::InvalidArgument(format!(
                "{op} needs a tensor of rank >= 1, got a scalar"
            )));
        }
        self.shape.dim_size(0)
    }

    /// The region of rows `start..` (of `dim0`) with the given shape.
    fn sub_region(&self, shape: TensorShape, start: i64, dim0: i64) -> Tensor {
        let buf = self.buf.as_ref().map(|b| {
            // Row length in the root's units; the checks above keep it in
            // bounds, and `dim0 > 0` here.
            debug_assert!(dim0 > 0 && (0..=dim0).contains(&start));
            let row = self.region_len() / usize::try_from(dim0).unwrap_or(1).max(1);
            let skip = usize::try_from(start).unwrap_or(0).saturating_mul(row);
            Buf {
                root: Arc::clone(&b.root),
                offset: b.offset + skip,
            }
        });
        Tensor {
            dtype: self.dtype,
            shape,
            buf,
        }
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
        let in_size = other.dtype.size();
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
            dtype,
            shape,
            buf: other.buf.clone(),
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
                    dtype: other.dtype,
                    shape,
                    buf: other.buf.clone(),
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
        let buf = match &self.buf {
            None => None,
            Some(b) => {
                let root = b.root.copy_range(self.region(), &default_allocator())?;
                Some(Buf {
                    root: Arc::new(root),
                    offset: 0,
                })
            }
        };
        Ok(Tensor {
            dtype: self.dtype,
            shape: self.shape.clone(),
            buf,
        })
    }
}

/// TF's `Slice` bounds: `0 <= start <= limit <= dim0`.
pub(crate) fn check_slice(start: i64, limit: i64, dim0: i64) -> Result<()> {
    if 0 <= start && start <= limit && limit <= dim0 {
        Ok(())
    } else {
        Err(Error::OutOfRange(RangeError::Slice {
            start,
            limit,
            size: dim0,
        }))
    }
}
