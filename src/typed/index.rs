//! `TypedTensor`'s indexing: `t[[i, j]]` and `t[i]`, reading and writing
//! (copy-on-write), and the panics they document, as slices do.

use std::ops::{Index, IndexMut};

use super::TypedTensor;
use crate::element::Element;
use crate::error::{Error, RangeError};
use crate::shape::TensorShape;

/// Panics for an index that `flat_index` rejected. This, `flat_panic` and
/// `write_panic` are the module's panics for bad input, documented on
/// `Index` and `IndexMut`.
#[cold]
#[track_caller]
#[allow(clippy::panic)] // Index cannot return an error; like slices, it panics.
fn index_panic(index: &[usize], shape: &TensorShape) -> ! {
    if index.len() == shape.dims() {
        panic!("index {index:?} out of range for TypedTensor of shape {shape}")
    }
    panic!(
        "index {index:?} has {} dims but the TypedTensor of shape {shape} has {}",
        index.len(),
        shape.dims()
    )
}

/// Panics for a flat index `i` at or past `len`.
#[cold]
#[track_caller]
#[allow(clippy::panic)] // Index cannot return an error; like slices, it panics.
fn flat_panic(i: usize, len: usize) -> ! {
    panic!("index {i} out of range for TypedTensor of {len} elements")
}

/// Panics when `IndexMut`'s copy-on-write cannot get memory.
#[cold]
#[track_caller]
#[allow(clippy::panic)] // IndexMut cannot return an error; documented.
fn write_panic(err: &Error) -> ! {
    panic!("TypedTensor write failed: {err}")
}

impl<T: Element, const N: usize> Index<[usize; N]> for TypedTensor<T> {
    type Output = T;

    /// The element at `[i, j, ...]`, one coordinate per dimension (any
    /// rank; `t[[]]` reads a scalar).
    ///
    /// # Panics
    /// If the index has the wrong rank or a coordinate is out of range,
    /// like slice indexing: the documented exception to the crate's
    /// no-panic rule. [`TypedTensor::get`] returns `None` instead.
    ///
    /// ```
    /// let t = tftensor::TypedTensor::from_fn([2, 3, 4], |i| i as i32)?;
    /// assert_eq!(t[[1, 2, 3]], 23);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    ///
    /// ```should_panic
    /// let t = tftensor::TypedTensor::<i32>::new([2, 3])?;
    /// let _ = t[[2, 0]]; // panics: index [2, 0] out of range
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[track_caller]
    fn index(&self, index: [usize; N]) -> &T {
        match self.get(&index) {
            Some(v) => v,
            None => index_panic(&index, self.shape()),
        }
    }
}

impl<T: Element, const N: usize> IndexMut<[usize; N]> for TypedTensor<T> {
    /// The element at `[i, j, ...]`, writable. Copies this tensor's region
    /// first if the buffer is shared (copy-on-write).
    ///
    /// # Panics
    /// As [`Index`], or if the copy-on-write cannot allocate.
    ///
    /// ```
    /// let mut t = tftensor::TypedTensor::<i32>::new([2, 2])?;
    /// let shared = t.clone();
    /// t[[1, 1]] = 5;
    /// assert_eq!(t.as_slice(), &[0, 0, 0, 5]);
    /// assert_eq!(shared.as_slice(), &[0, 0, 0, 0]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[track_caller]
    fn index_mut(&mut self, index: [usize; N]) -> &mut T {
        let Some(flat) = self.flat_index(&index) else {
            index_panic(&index, self.shape())
        };
        match self.element_mut(flat) {
            Ok(Some(v)) => v,
            Ok(None) => write_panic(&Error::OutOfRange(RangeError::Element {
                index: index.to_vec(),
            })),
            Err(e) => write_panic(&e),
        }
    }
}

impl<T: Element> Index<usize> for TypedTensor<T> {
    type Output = T;

    /// The element at flat (row-major) offset `i`, whatever the rank, as
    /// Sentis' `t[i]`.
    ///
    /// # Panics
    /// If `i >= len()`, like slice indexing. [`TypedTensor::as_slice`]
    /// with `.get(i)` returns `None` instead.
    ///
    /// ```
    /// let t = tftensor::TypedTensor::from_fn([2, 3], |i| i as u8)?;
    /// assert_eq!(t[4], 4);
    /// assert_eq!(t[4], t[[1, 1]]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[track_caller]
    fn index(&self, i: usize) -> &T {
        match self.element(i) {
            Some(v) => v,
            None => flat_panic(i, self.len()),
        }
    }
}

impl<T: Element> IndexMut<usize> for TypedTensor<T> {
    /// The element at flat offset `i`, writable (copy-on-write first if the
    /// buffer is shared).
    ///
    /// # Panics
    /// As `Index<usize>`, or if the copy-on-write cannot allocate.
    ///
    /// ```
    /// let mut t = tftensor::TypedTensor::<i32>::new([2, 2])?;
    /// for i in 0..t.len() {
    ///     t[i] = i as i32;
    /// }
    /// assert_eq!(t[[1, 0]], 2);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[track_caller]
    fn index_mut(&mut self, i: usize) -> &mut T {
        let len = self.len();
        if i >= len {
            flat_panic(i, len)
        }
        match self.element_mut(i) {
            Ok(Some(v)) => v,
            Ok(None) => write_panic(&Error::OutOfRange(RangeError::Element { index: vec![i] })),
            Err(e) => write_panic(&e),
        }
    }
}
