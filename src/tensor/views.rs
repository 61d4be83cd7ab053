//! Typed `ndarray` views over a tensor's buffer, TF's accessors
//! (`vec`, `matrix`, `tensor`, `flat`, `shaped`, `flat_inner_dims`, ...).
//!
//! Each view is built on demand over the tensor's memory: O(1), no copy,
//! and (for fixed-rank dimension types, and `IxDyn` up to rank 4) no heap
//! allocation. The checks are TF's (dtype, element or byte counts, rank),
//! returned as errors with TF's text. Views need only element alignment,
//! not TF's 64 bytes, so a slice at any row can be viewed;
//! [`Tensor::is_aligned`] still reports the 64-byte rule.
//!
//! `_mut` twins take `&mut self`: when the buffer is shared they first copy
//! this tensor's region (copy-on-write), so other handles never see the
//! write. A view with no elements touches no memory, so it never copies.

use ndarray::{Array, ArrayView, ArrayViewMut, CowArray, Dimension, Ix0, Ix1, Ix2, IxDyn};

use crate::dtype::DataType;
use crate::element::{Element, PodElement};
use crate::error::{Error, OverflowError, Result, ShapeError, SizeCheck};
use crate::shape::{MAX_DIMENSIONS, i64_of_usize, usize_of_dim};
use crate::tensor::{IntoShape, Tensor};

/// `N` of a fixed-rank `D`, which the flattening accessors need (TF's
/// template parameter); `N == 0` is undefined behaviour in TF.
fn fixed_rank<D: Dimension>(what: &str) -> Result<usize> {
    match D::NDIM {
        Some(n) if n > 0 => Ok(n),
        Some(_) => Err(Error::InvalidArgument(format!("{what} needs N >= 1"))),
        None => Err(Error::InvalidArgument(format!(
            "{what} needs a fixed-rank dimension type (Ix1..Ix6)"
        ))),
    }
}

/// The element count of `dim`, checked.
fn count<D: Dimension>(dim: &D) -> Result<usize> {
    dim.size_checked()
        .ok_or(Error::Overflow(OverflowError::Size { what: "view shape" }))
}

/// The product of `dims[lo..hi)`, where dims at `rank` or beyond are 1. A
/// zero dim makes it 0 even when the other dims' product would overflow.
fn dims_product(t: &Tensor, lo: usize, hi: usize) -> usize {
    let sizes = t.shape().iter().skip(lo).take(hi.saturating_sub(lo));
    let mut acc = 1usize;
    for s in sizes {
        let s = usize_of_dim(s);
        if s == 0 {
            return 0;
        }
        // Cannot saturate for a valid shape; if it did, the element-count
        // check of `build` would reject the view.
        acc = acc.saturating_mul(s);
    }
    acc
}

/// TF's `flat_inner_outer_dims<N>(begin)`, i.e.
/// `ComputeFlatInnerDims(ComputeFlatOuterDims(dims, begin + N), N)`, in
/// closed form: output dim 0 folds input dims `[0, begin]`, output dim
/// `k` (middle) is input dim `begin + k`, the last output dim folds
/// `[begin + N - 1, rank)`; positions before 0 or past the rank are 1s.
/// `flat_inner_dims` is `begin = rank - N`, `flat_outer_dims` `begin = 0`.
/// No intermediate vector, so a huge `begin` costs nothing.
fn fold_dims<D: Dimension>(t: &Tensor, n: usize, begin: i64) -> Result<D> {
    let n_i64 = i64_of_usize(n);
    if begin.saturating_add(n_i64) < 1 {
        return Err(Error::InvalidArgument(format!(
            "begin + N must be >= 1, got {begin} + {n}"
        )));
    }
    // Clamps an input position to `0..=rank`, as a usize.
    let rank = t.dims();
    // A position past `usize` is past the rank too.
    let clamp = |i: i64| usize::try_from(i.max(0)).map_or(rank, |i| i.min(rank));
    let mut dim = D::zeros(n);
    let last = n.saturating_sub(1);
    for (k, out) in dim.slice_mut().iter_mut().enumerate() {
        let pos = begin.saturating_add(i64_of_usize(k));
        let lo = if k == 0 { 0 } else { pos };
        let hi = if k == last {
            i64::MAX
        } else {
            pos.saturating_add(1)
        };
        *out = if hi <= 0 {
            1
        } else {
            dims_product(t, clamp(lo), clamp(hi))
        };
    }
    Ok(dim)
}

/// Runs `f` out of line.
#[inline(never)]
fn outlined<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// One accessor pair: `$name` checks and builds a view of `$Dim`, `$name_mut`
/// is the writable twin, documented with `$mut_example`. `$dim` computes
/// the view's dimension from `$this`.
macro_rules! typed_accessors {
    ($(
        $(#[$doc:meta])*
        fn $name:ident / $name_mut:ident <$($D:ident)?> ($($arg:ident: $argty:ty),*) -> $Dim:ty
            = |$this:ident| $dim:expr;
        mut_example: $mut_example:literal;
        $(mut_alias: $mut_alias:literal;)?
    )*) => {$(
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<T: Element $(, $D: Dimension)?>(&self $(, $arg: $argty)*) -> Result<ArrayView<'_, T, $Dim>> {
            if <$Dim as Dimension>::NDIM.is_none() {
                // `IxDyn`: out of line; its 88-byte view gains nothing from
                // inlining, and the inlined copies cost 5-15% (measured).
                return outlined(move || {
                    self.check_dtype::<T>()?;
                    let $this = self;
                    let dim: $Dim = $dim?;
                    self.own_view::<T, $Dim>(dim)
                });
            }
            // Fixed rank: inlined, and the fast path's result is a view or
            // the `dim`, which stay in registers; through a `Result` holding
            // `Error` the view was copied via memory (a store-forwarding
            // stall that cost a 1e3-element sum 15%, measured).
            self.check_dtype::<T>()?;
            let $this = self;
            let dim: $Dim = $dim?;
            match self.try_own_view::<T, $Dim>(dim) {
                Ok(view) => Ok(view),
                Err(dim) => self.own_view_cold::<T, $Dim>(dim),
            }
        }

        #[doc = concat!(
            "Writable twin of [`Tensor::", stringify!($name), "`], with the same checks. ",
            "If the buffer is shared, this tensor's region is first copied into a private ",
            "aligned allocation (copy-on-write), so no other handle sees the writes; ",
            "otherwise the view is over the buffer itself, O(1)."
        )]
        ///
        /// # Errors
        #[doc = concat!("As [`Tensor::", stringify!($name), "`], or a failed allocation for the copy.")]
        ///
        #[doc = $mut_example]
        $(#[doc(alias = $mut_alias)])?
        pub fn $name_mut<T: Element $(, $D: Dimension)?>(&mut self $(, $arg: $argty)*) -> Result<ArrayViewMut<'_, T, $Dim>> {
            self.check_dtype::<T>()?;
            let $this = &*self;
            let dim: $Dim = $dim?;
            self.own_view_mut::<T, $Dim>(dim)
        }
    )*};
}

impl Tensor {
    /// The shape as a `D`, with TF's rank check (`AsEigenDSizes`).
    #[inline(always)]
    fn shape_dim<D: Dimension>(&self) -> Result<D> {
        self.region.dim::<D>()
    }

    /// `[num_elements]`.
    #[inline]
    fn flat_dim(&self) -> Result<Ix1> {
        Ok(Ix1(self.region.count()))
    }

    /// `sizes` as a `D` (rank checked), without the count check.
    fn sizes_dim<D: Dimension>(sizes: impl IntoShape) -> Result<D> {
        let shape = sizes.into_shape()?;
        let rank = shape.dims();
        if let Some(n) = D::NDIM {
            if n != rank {
                return Err(Error::InvalidArgument(format!(
                    "Asking for a view of {n} dimensions with {rank} sizes ({n} vs. {rank})"
                )));
            }
        }
        let mut dim = D::zeros(rank);
        shape.fill_usize(dim.slice_mut());
        Ok(dim)
    }

    /// `sizes` as a `D` whose element count must equal this tensor's, with
    /// TF's `"<new> vs. <old>"` text.
    fn shaped_dim<D: Dimension>(&self, sizes: impl IntoShape) -> Result<D> {
        let dim = Self::sizes_dim::<D>(sizes)?;
        let n = count(&dim)?;
        if i64::try_from(n).ok() != Some(self.num_elements()) {
            return Err(Error::SizeMismatch {
                got: n as u64,
                expected: self.num_elements() as u64,
                check: SizeCheck::Elements,
            });
        }
        Ok(dim)
    }

    fn flat_inner_dim<D: Dimension>(&self) -> Result<D> {
        let n = fixed_rank::<D>("flat_inner_dims")?;
        if self.dims() == 0 {
            // TF's ComputeFlatInnerDims pads a scalar to all 1s.
            let mut dim = D::zeros(n);
            dim.slice_mut().fill(1);
            return Ok(dim);
        }
        // Both at most `MAX_DIMENSIONS`: exact as `i64`.
        fold_dims(self, n, i64_of_usize(self.dims()) - i64_of_usize(n))
    }

    fn flat_outer_dim<D: Dimension>(&self) -> Result<D> {
        fold_dims(self, fixed_rank::<D>("flat_outer_dims")?, 0)
    }

    fn flat_inner_outer_dim<D: Dimension>(&self, begin: i64) -> Result<D> {
        fold_dims(self, fixed_rank::<D>("flat_inner_outer_dims")?, begin)
    }

    fn flat_inner_outer_dyn(&self, begin: i64, n: usize) -> Result<IxDyn> {
        if n == 0 || n > MAX_DIMENSIONS {
            return Err(Error::InvalidArgument(format!(
                "flat_inner_outer_dims_dyn needs 1 <= n <= {MAX_DIMENSIONS}, got {n}"
            )));
        }
        fold_dims(self, n, begin)
    }

    typed_accessors! {
        /// TF's `tensor<T, N>()`: a view of rank `D` (`Ix0`..`Ix6`, or
        /// `IxDyn` for any rank). O(1), no copy.
        ///
        /// # Errors
        /// The dtype is not `T`'s (`"float expected, got int32"`), the rank
        /// differs (`"Asking for tensor of 3 dimensions from a tensor of 2
        /// dimensions"`), or the tensor is uninitialized.
        ///
        /// ```
        /// use tftensor::{ndarray::{Ix2, Ix3}, Tensor};
        /// let t = Tensor::from_vec([2, 1, 2], vec![1u8, 2, 3, 4])?;
        /// assert_eq!(t.tensor::<u8, Ix3>()?[[1, 0, 1]], 4);
        /// assert_eq!(
        ///     t.tensor::<u8, Ix2>().unwrap_err().to_string(),
        ///     "Asking for tensor of 2 dimensions from a tensor of 3 dimensions"
        /// );
        /// assert_eq!(t.tensor::<i8, Ix3>().unwrap_err().to_string(), "int8 expected, got uint8");
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn tensor / tensor_mut <D>() -> D = |t| t.shape_dim::<D>();
        mut_example: r#"```
use tftensor::{ndarray::Ix2, Tensor};
let mut t = Tensor::from_vec([2, 2], vec![1.0f32, 2., 3., 4.])?;
let reader = t.clone();
t.tensor_mut::<f32, Ix2>()?[[1, 0]] = 30.0;
assert_eq!(t.tensor::<f32, Ix2>()?[[1, 0]], 30.0);
assert_eq!(reader.tensor::<f32, Ix2>()?[[1, 0]], 3.0); // copied on write
assert!(!t.shares_buffer_with(&reader));
# Ok::<(), tftensor::Error>(())
```"#;

        /// TF's `vec<T>()`: a rank-1 view; the tensor must have rank 1.
        ///
        /// # Errors
        /// As [`Tensor::tensor`] with `Ix1`.
        ///
        /// ```
        /// let t = tftensor::Tensor::from_vec([3], vec![1i32, 2, 3])?;
        /// assert_eq!(t.vec::<i32>()?.sum(), 6);
        /// assert!(tftensor::Tensor::from(1i32).vec::<i32>().is_err()); // rank 0
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn vec / vec_mut <>() -> Ix1 = |t| t.shape_dim::<Ix1>();
        mut_example: r#"```
let mut t = tftensor::Tensor::from_vec([3], vec![1i32, 2, 3])?;
t.vec_mut::<i32>()?.mapv_inplace(|v| v * 10);
assert_eq!(t.vec::<i32>()?.to_vec(), vec![10, 20, 30]);
# Ok::<(), tftensor::Error>(())
```"#;

        /// TF's `matrix<T>()`: a rank-2 view; the tensor must have rank 2.
        ///
        /// # Errors
        /// As [`Tensor::tensor`] with `Ix2`.
        ///
        /// ```
        /// let t = tftensor::Tensor::from_vec([2, 2], vec![1i32, 2, 3, 4])?;
        /// assert_eq!(t.matrix::<i32>()?[[1, 0]], 3);
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn matrix / matrix_mut <>() -> Ix2 = |t| t.shape_dim::<Ix2>();
        mut_example: r#"```
let mut t = tftensor::Tensor::from_vec([2, 2], vec![1i32, 2, 3, 4])?;
t.matrix_mut::<i32>()?.row_mut(1).fill(0);
assert_eq!(t.as_slice::<i32>()?, &[1, 2, 0, 0]);
# Ok::<(), tftensor::Error>(())
```"#;

        /// TF's `flat<T>()`: all elements as a rank-1 view, any rank. Its
        /// writable twin is also TF's `unaligned_flat` for writing (views
        /// need only element alignment here).
        ///
        /// # Errors
        /// A dtype mismatch, or an uninitialized tensor.
        ///
        /// ```
        /// let t = tftensor::Tensor::from_vec([2, 2], vec![1i32, 2, 3, 4])?;
        /// assert_eq!(t.flat::<i32>()?.len(), 4);
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn flat / flat_mut <>() -> Ix1 = |t| t.flat_dim();
        mut_example: r#"```
let mut t = tftensor::Tensor::from_vec([2, 2], vec![1u8, 2, 3, 4])?;
t.flat_mut::<u8>()?[3] = 40;
assert_eq!(t.matrix::<u8>()?[[1, 1]], 40);
# Ok::<(), tftensor::Error>(())
```"#;
        mut_alias: "unaligned_flat_mut";

        /// TF's `shaped<T, N>(sizes)`: the elements seen with another shape
        /// of the same count. O(1), no copy. `sizes` is any [`IntoShape`]
        /// (`[2, 3]`, `&[2usize, 3]`, a `Vec<i64>`, a `TensorShape`, ...).
        /// Also TF's `unaligned_shaped` when writing: views need only
        /// element alignment here.
        ///
        /// # Errors
        /// `"144 vs. 120"` when the counts differ (new vs. old); `sizes`
        /// of another rank than `D`; an invalid shape (a negative size); a
        /// dtype mismatch.
        ///
        /// ```
        /// use tftensor::{ndarray::Ix2, Tensor};
        /// let t = Tensor::from_vec([6], (0..6).collect::<Vec<i64>>())?;
        /// assert_eq!(t.shaped::<i64, Ix2>(&[2, 3])?[[1, 0]], 3);
        /// assert_eq!(t.shaped::<i64, Ix2>([2usize, 3])?[[1, 2]], 5);
        /// assert_eq!(t.shaped::<i64, Ix2>(&[2, 4]).unwrap_err().to_string(), "8 vs. 6");
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn shaped / shaped_mut <D>(sizes: impl IntoShape) -> D = |t| t.shaped_dim::<D>(sizes);
        mut_example: r#"```
use tftensor::{ndarray::Ix2, Tensor};
let mut t = Tensor::from_vec([6], vec![0i64; 6])?;
t.shaped_mut::<i64, Ix2>(&[2, 3])?[[1, 0]] = 7;
assert_eq!(t.vec::<i64>()?[3], 7);
# Ok::<(), tftensor::Error>(())
```"#;
        mut_alias: "unaligned_shaped_mut";

        /// TF's `flat_inner_dims<T, N>()`: keeps the last `N - 1` dims and
        /// folds the leading ones into the first; pads with leading 1s when
        /// `N` exceeds the rank.
        ///
        /// # Errors
        /// `D` is `IxDyn` or `Ix0`; a dtype mismatch.
        ///
        /// ```
        /// use tftensor::{ndarray::{Ix2, Ix5}, DataType, Tensor};
        /// let t = Tensor::new(DataType::Float, [2, 3, 4, 5])?;
        /// assert_eq!(t.flat_inner_dims::<f32, Ix2>()?.shape(), &[24, 5]);
        /// assert_eq!(t.flat_inner_dims::<f32, Ix5>()?.shape(), &[1, 2, 3, 4, 5]);
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn flat_inner_dims / flat_inner_dims_mut <D>() -> D = |t| t.flat_inner_dim::<D>();
        mut_example: r#"```
use tftensor::{ndarray::Ix2, Tensor};
let mut t = Tensor::from_vec([2, 2, 2], vec![0i32; 8])?;
t.flat_inner_dims_mut::<i32, Ix2>()?[[3, 1]] = 5; // [4, 2]
assert_eq!(t.tensor::<i32, tftensor::ndarray::Ix3>()?[[1, 1, 1]], 5);
# Ok::<(), tftensor::Error>(())
```"#;

        /// TF's `flat_outer_dims<T, N>()`: keeps the first `N - 1` dims and
        /// folds the trailing ones into the last; pads with trailing 1s.
        ///
        /// # Errors
        /// `D` is `IxDyn` or `Ix0`; a dtype mismatch.
        ///
        /// ```
        /// use tftensor::{ndarray::Ix2, DataType, Tensor};
        /// let t = Tensor::new(DataType::Float, [2, 3, 4, 5])?;
        /// assert_eq!(t.flat_outer_dims::<f32, Ix2>()?.shape(), &[2, 60]);
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn flat_outer_dims / flat_outer_dims_mut <D>() -> D = |t| t.flat_outer_dim::<D>();
        mut_example: r#"```
use tftensor::{ndarray::Ix2, Tensor};
let mut t = Tensor::from_vec([2, 2, 2], vec![0i32; 8])?;
t.flat_outer_dims_mut::<i32, Ix2>()?[[1, 0]] = 5; // [2, 4]
assert_eq!(t.as_slice::<i32>()?[4], 5);
# Ok::<(), tftensor::Error>(())
```"#;

        /// TF's `flat_inner_outer_dims<T, N>(begin)`: dims before `begin`
        /// fold into the first output dim, dims from `begin + N - 1` on
        /// into the last; a negative `begin` pads leading 1s and
        /// `begin + N` beyond the rank pads trailing 1s.
        ///
        /// # Errors
        /// `begin + N < 1` (undefined behaviour in TF); `D` is `IxDyn` or
        /// `Ix0`; a dtype mismatch.
        ///
        /// ```
        /// use tftensor::{ndarray::{Ix3, Ix6}, DataType, Tensor};
        /// let t = Tensor::new(DataType::Float, [2, 3, 4, 5])?;
        /// assert_eq!(t.flat_inner_outer_dims::<f32, Ix3>(1)?.shape(), &[6, 4, 5]);
        /// assert_eq!(t.flat_inner_outer_dims::<f32, Ix6>(-2)?.shape(), &[1, 1, 2, 3, 4, 5]);
        /// assert!(t.flat_inner_outer_dims::<f32, Ix3>(-3).is_err());
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn flat_inner_outer_dims / flat_inner_outer_dims_mut <D>(begin: i64) -> D = |t| t.flat_inner_outer_dim::<D>(begin);
        mut_example: r#"```
use tftensor::{ndarray::Ix3, Tensor};
let mut t = Tensor::from_vec([2, 2, 2, 2], vec![0u8; 16])?;
t.flat_inner_outer_dims_mut::<u8, Ix3>(1)?[[3, 1, 0]] = 1; // [4, 2, 2]
assert_eq!(t.flat::<u8>()?[14], 1);
# Ok::<(), tftensor::Error>(())
```"#;

        /// [`Tensor::flat_inner_outer_dims`] with the output rank `n` given
        /// at run time, for ranks beyond `Ix6` (TF's tests use `N = 8`).
        /// `flat_inner_dims` is `begin = rank - n`, `flat_outer_dims`
        /// `begin = 0`. Allocates for `n` above 4 (ndarray's `IxDyn`).
        ///
        /// # Errors
        /// `n` of 0 or above [`MAX_DIMENSIONS`](crate::MAX_DIMENSIONS);
        /// `begin + n < 1`; a dtype mismatch.
        ///
        /// ```
        /// use tftensor::{DataType, Tensor};
        /// let t = Tensor::new(DataType::Float, [2, 3, 4, 5])?;
        /// let v = t.flat_inner_outer_dims_dyn::<f32>(-2, 8)?;
        /// assert_eq!(v.shape(), &[1, 1, 2, 3, 4, 5, 1, 1]);
        /// # Ok::<(), tftensor::Error>(())
        /// ```
        fn flat_inner_outer_dims_dyn / flat_inner_outer_dims_dyn_mut <>(begin: i64, n: usize) -> IxDyn
            = |t| t.flat_inner_outer_dyn(begin, n);
        mut_example: r#"```
let mut t = tftensor::Tensor::from_vec([2, 3], vec![0i8; 6])?;
t.flat_inner_outer_dims_dyn_mut::<i8>(0, 3)?[[1, 2, 0]] = -1; // [2, 3, 1]
assert_eq!(t.as_slice::<i8>()?[5], -1);
# Ok::<(), tftensor::Error>(())
```"#;
    }

    /// TF's `unaligned_flat<T>()`: all elements as a rank-1 array, readable
    /// whatever the data's address. A view when the data is aligned for
    /// `T` (always, unless this is a bit cast of an odd slice), else one
    /// aligned copy: TF's `unaligned_flat` exists for exactly that case.
    ///
    /// # Errors
    /// A dtype mismatch, or an uninitialized tensor.
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let bytes = Tensor::from_vec([5], vec![0u8, 0, 0, 0x80, 0x3f])?;
    /// let mut f = Tensor::default();
    /// f.bitcast_from(&bytes.slice(1, 5)?, DataType::Float, [1])?;
    /// assert!(f.flat::<f32>().is_err()); // misaligned
    /// let u = f.unaligned_flat::<f32>()?;
    /// assert_eq!(u[0], 1.0);
    /// assert!(u.is_owned()); // one aligned copy
    /// assert!(Tensor::from(2.0f32).unaligned_flat::<f32>()?.is_view());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn unaligned_flat<T: Element>(&self) -> Result<CowArray<'_, T, Ix1>> {
        self.check_dtype::<T>()?;
        let dim = self.flat_dim()?;
        self.unaligned_region::<T, Ix1>(dim)
    }

    /// TF's `unaligned_shaped<T, N>(sizes)`: [`Tensor::shaped`] readable
    /// whatever the data's address (a view when aligned, one aligned copy
    /// when not), as [`Tensor::unaligned_flat`].
    ///
    /// # Errors
    /// As [`Tensor::shaped`].
    ///
    /// ```
    /// use tftensor::{ndarray::Ix2, Tensor};
    /// let t = Tensor::from_vec([4], vec![1u8, 2, 3, 4])?;
    /// assert_eq!(t.unaligned_shaped::<u8, Ix2>(&[2, 2])?[[1, 1]], 4);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn unaligned_shaped<T: Element, D: Dimension>(
        &self,
        sizes: impl IntoShape,
    ) -> Result<CowArray<'_, T, D>> {
        self.check_dtype::<T>()?;
        let dim = self.shaped_dim::<D>(sizes)?;
        self.unaligned_region::<T, D>(dim)
    }

    /// A view of `dim`, or one aligned copy when the data is misaligned.
    fn unaligned_region<T: Element, D: Dimension>(&self, dim: D) -> Result<CowArray<'_, T, D>> {
        match self.region_view::<T, D>(dim.clone()) {
            Ok(v) => Ok(CowArray::from(v)),
            Err(Error::Misaligned { .. }) => {
                let n = dim.size();
                let values = self.read_unaligned::<T>(n)?;
                Array::from_shape_vec(dim, values)
                    .map(CowArray::from)
                    .map_err(|e| Error::InvalidShape(ShapeError::Other(e.to_string())))
            }
            Err(e) => Err(e),
        }
    }

    /// TF's `scalar<T>()`: the single element of a one-element tensor of
    /// any rank (`[]`, `[1]`, `[1, 1, 1]`) as a rank-0 view.
    ///
    /// Deviation: TF does not check that `T` matches the dtype; this does.
    ///
    /// # Errors
    /// A dtype mismatch, or not exactly one element (`"Must have a one
    /// element tensor"`).
    ///
    /// ```
    /// let t = tftensor::Tensor::from_vec([1, 1, 1], vec![5i32])?;
    /// assert_eq!(t.scalar::<i32>()?[()], 5);
    /// assert!(t.scalar::<u32>().is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn scalar<T: Element>(&self) -> Result<ArrayView<'_, T, Ix0>> {
        self.check_dtype::<T>()?;
        self.region.check_one_element()?;
        self.region_view::<T, Ix0>(ndarray::Ix0())
    }

    /// Writable twin of [`Tensor::scalar`] (copy-on-write when shared).
    ///
    /// # Errors
    /// As [`Tensor::scalar`], or a failed allocation for the copy.
    ///
    /// ```
    /// let mut t = tftensor::Tensor::from(true);
    /// let reader = t.clone();
    /// t.scalar_mut::<bool>()?[()] = false;
    /// assert!(!t.scalar::<bool>()?[()]);
    /// assert!(reader.scalar::<bool>()?[()]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn scalar_mut<T: Element>(&mut self) -> Result<ArrayViewMut<'_, T, Ix0>> {
        self.check_dtype::<T>()?;
        self.region.check_one_element()?;
        self.region_view_mut::<T, Ix0>(ndarray::Ix0())
    }

    /// The size check of the bit casts: bytes (`"476 vs. 480"`, new vs.
    /// old); for string, resource and variant tensors (size 0) element
    /// counts, and then `T` must be the element type itself.
    fn check_bit_cast<T: Element, D: Dimension>(&self, dim: &D) -> Result<()> {
        let n = count(dim)?;
        let es = self.dtype().size();
        let old_elems = self.region.count();
        let (new, old) = if es > 0 {
            (
                n.checked_mul(std::mem::size_of::<T>()),
                old_elems.checked_mul(es),
            )
        } else {
            self.check_dtype::<T>()?;
            (Some(n), Some(old_elems))
        };
        match (new, old) {
            (Some(a), Some(b)) if a == b => Ok(()),
            (Some(a), Some(b)) => Err(Error::SizeMismatch {
                got: a as u64,
                expected: b as u64,
                check: SizeCheck::Elements,
            }),
            _ => Err(Error::Overflow(OverflowError::Size {
                what: "bit cast byte size",
            })),
        }
    }

    /// A writable bit cast must not let other types write into a bool
    /// tensor: its bytes must stay 0 or 1.
    fn check_bool_write<T: Element>(&self) -> Result<()> {
        if self.dtype() == DataType::Bool && T::DTYPE != DataType::Bool {
            return Err(Error::InvalidArgument(format!(
                "cannot write a bool tensor as {}: its bytes must stay 0 or 1",
                T::DTYPE
            )));
        }
        Ok(())
    }

    /// TF's `bit_casted_shaped<T, N>(sizes)`: the bytes seen as `T` with
    /// `sizes`, no dtype check. O(1), no copy.
    ///
    /// # Errors
    /// Byte counts that differ (`"476 vs. 480"`, new vs. old; string
    /// tensors compare element counts, `"9 vs. 10"`, and need `T` =
    /// `Bytes`); `sizes` of another rank than `D`; data not aligned for
    /// `T` (possible after [`Tensor::bitcast_from`] of an odd slice); bool
    /// `T` over bytes other than 0 and 1.
    ///
    /// ```
    /// use tftensor::{ndarray::Ix1, Tensor};
    /// let t = Tensor::from_vec([2], vec![1.0f32, -2.0])?;
    /// let u = t.bit_casted_shaped::<u32, Ix1>(&[2])?;
    /// assert_eq!(u[1], (-2.0f32).to_bits());
    /// assert_eq!(t.bit_casted_shaped::<u8, Ix1>(&[7]).unwrap_err().to_string(), "7 vs. 8");
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn bit_casted_shaped<T: Element, D: Dimension>(
        &self,
        sizes: impl IntoShape,
    ) -> Result<ArrayView<'_, T, D>> {
        let dim = Self::sizes_dim::<D>(sizes)?;
        self.check_bit_cast::<T, D>(&dim)?;
        self.region_view::<T, D>(dim)
    }

    /// Writable twin of [`Tensor::bit_casted_shaped`] (copy-on-write when
    /// shared).
    ///
    /// # Errors
    /// As [`Tensor::bit_casted_shaped`]; also a bool tensor written as
    /// another type (its bytes must stay 0 or 1).
    ///
    /// ```
    /// use tftensor::{ndarray::Ix1, Tensor};
    /// let mut t = Tensor::from_vec([1], vec![0u32])?;
    /// t.bit_casted_shaped_mut::<u8, Ix1>(&[4])?[0] = 1;
    /// assert_eq!(t.flat::<u32>()?[0], 1);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn bit_casted_shaped_mut<T: PodElement, D: Dimension>(
        &mut self,
        sizes: impl IntoShape,
    ) -> Result<ArrayViewMut<'_, T, D>> {
        let dim = Self::sizes_dim::<D>(sizes)?;
        self.check_bit_cast::<T, D>(&dim)?;
        self.check_bool_write::<T>()?;
        self.region_view_mut::<T, D>(dim)
    }

    /// TF's `bit_casted_tensor<T, N>()`: the bytes seen as `T` with the
    /// tensor's own dims, no dtype check. TF does not compare sizes here;
    /// this does (the byte counts must match), so it never reads past the
    /// region.
    ///
    /// # Errors
    /// As [`Tensor::bit_casted_shaped`], plus TF's rank check.
    ///
    /// ```
    /// use tftensor::{ndarray::Ix1, QInt32, Tensor};
    /// let t = Tensor::from_vec([2], vec![3i32, 4])?;
    /// assert_eq!(t.bit_casted_tensor::<QInt32, Ix1>()?[1], QInt32(4));
    /// assert!(t.bit_casted_tensor::<i64, Ix1>().is_err()); // 16 vs. 8 bytes
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn bit_casted_tensor<T: Element, D: Dimension>(&self) -> Result<ArrayView<'_, T, D>> {
        let dim = self.shape_dim::<D>()?;
        self.check_bit_cast::<T, D>(&dim)?;
        self.region_view::<T, D>(dim)
    }

    /// Writable twin of [`Tensor::bit_casted_tensor`] (copy-on-write when
    /// shared).
    ///
    /// # Errors
    /// As [`Tensor::bit_casted_tensor`]; also a bool tensor written as
    /// another type.
    ///
    /// ```
    /// use tftensor::{ndarray::Ix1, Tensor};
    /// let mut t = Tensor::from_vec([1], vec![1i32])?;
    /// t.bit_casted_tensor_mut::<u32, Ix1>()?[0] = 9;
    /// assert_eq!(t.vec::<i32>()?[0], 9);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn bit_casted_tensor_mut<T: PodElement, D: Dimension>(
        &mut self,
    ) -> Result<ArrayViewMut<'_, T, D>> {
        let dim = self.shape_dim::<D>()?;
        self.check_bit_cast::<T, D>(&dim)?;
        self.check_bool_write::<T>()?;
        self.region_view_mut::<T, D>(dim)
    }

    /// The dims of `reinterpret_last_dimension`, or `None` when `D` has
    /// the tensor's own rank (then it is a plain `tensor<T, D>()`). With
    /// `IxDyn`, the tensor's own dtype means its own rank.
    fn reinterpret_dim<T: Element, D: Dimension>(&self) -> Result<Option<D>> {
        let rank = self.dims();
        let same_rank = match D::NDIM {
            Some(n) => n == rank,
            None => T::DTYPE == self.dtype(),
        };
        if same_rank {
            return Ok(None);
        }
        let outer = match rank.checked_sub(1) {
            Some(r) if D::NDIM.is_none_or(|n| n == r) => r,
            _ => {
                return Err(Error::InvalidArgument(format!(
                    "NDIMS must be dims() or dims() - 1: {} vs. {}",
                    D::NDIM.map_or_else(|| "dynamic".to_string(), |n| n.to_string()),
                    rank
                )));
            }
        };
        // `outer < rank`: the last dim exists.
        let last = usize_of_dim(self.shape().dim_size(outer)?);
        let packed = last.saturating_mul(self.dtype().size());
        if packed == 0 || packed != std::mem::size_of::<T>() {
            return Err(Error::SizeMismatch {
                got: std::mem::size_of::<T>() as u64,
                expected: packed as u64,
                check: SizeCheck::Elements,
            });
        }
        self.region.leading_dims::<D>(outer).map(Some)
    }

    /// TF's `reinterpret_last_dimension<T, N>()`: with `N == rank - 1`, the
    /// last dimension's bytes become one `T` (e.g. qint8 `[2,3,5,7,4]`
    /// seen as int32 `[2,3,5,7]`); with `N == rank`, exactly
    /// [`Tensor::tensor`]. O(1), no copy.
    ///
    /// # Errors
    /// `N` neither rank nor rank − 1; `size_of::<T>()` other than the last
    /// dim's bytes (`"4 vs. 8"`); data not aligned for `T`; with
    /// `N == rank`, those of [`Tensor::tensor`].
    ///
    /// ```
    /// use tftensor::{ndarray::Ix1, QInt8, Tensor};
    /// let q: Vec<QInt8> = [1i8, 0, 0, 0, 2, 0, 0, 0].iter().map(|&v| QInt8(v)).collect();
    /// let t = Tensor::from_vec([2, 4], q)?;
    /// let v = t.reinterpret_last_dimension::<i32, Ix1>()?;
    /// assert_eq!(v.to_vec(), vec![1, 2]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn reinterpret_last_dimension<T: Element, D: Dimension>(
        &self,
    ) -> Result<ArrayView<'_, T, D>> {
        match self.reinterpret_dim::<T, D>()? {
            None => self.tensor::<T, D>(),
            Some(dim) => self.region_view::<T, D>(dim),
        }
    }

    /// Writable twin of [`Tensor::reinterpret_last_dimension`]
    /// (copy-on-write when shared).
    ///
    /// # Errors
    /// As [`Tensor::reinterpret_last_dimension`]; also a bool tensor
    /// written as another type.
    ///
    /// ```
    /// use tftensor::{ndarray::Ix1, QInt8, Tensor};
    /// let mut t = Tensor::from_vec([1, 4], vec![QInt8(0); 4])?;
    /// t.reinterpret_last_dimension_mut::<i32, Ix1>()?[0] = 0x0403_0201;
    /// assert_eq!(t.flat::<QInt8>()?[3], QInt8(4));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn reinterpret_last_dimension_mut<T: PodElement, D: Dimension>(
        &mut self,
    ) -> Result<ArrayViewMut<'_, T, D>> {
        match self.reinterpret_dim::<T, D>()? {
            None => self.tensor_mut::<T, D>(),
            Some(dim) => {
                self.check_bool_write::<T>()?;
                self.region_view_mut::<T, D>(dim)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Ix3, Ix5};

    fn dims_of(shape: &[i64], f: impl Fn(&Tensor) -> Result<Vec<usize>>) -> Vec<usize> {
        let t = Tensor::new(DataType::Float, shape).unwrap();
        f(&t).unwrap()
    }

    #[test]
    fn fold_dims_matches_tf_examples() {
        let d = [2i64, 3, 4, 5];
        let io = |n: usize, b: i64| {
            dims_of(&d, move |t| match n {
                2 => fold_dims::<Ix2>(t, 2, b).map(|x| x.slice().to_vec()),
                3 => fold_dims::<Ix3>(t, 3, b).map(|x| x.slice().to_vec()),
                5 => fold_dims::<Ix5>(t, 5, b).map(|x| x.slice().to_vec()),
                _ => fold_dims::<IxDyn>(t, n, b).map(|x| x.slice().to_vec()),
            })
        };
        assert_eq!(io(4, 0), vec![2, 3, 4, 5]);
        assert_eq!(io(6, -2), vec![1, 1, 2, 3, 4, 5]);
        assert_eq!(io(6, 0), vec![2, 3, 4, 5, 1, 1]);
        assert_eq!(io(8, -2), vec![1, 1, 2, 3, 4, 5, 1, 1]);
        assert_eq!(io(3, 1), vec![6, 4, 5]);
        assert_eq!(io(5, 1), vec![6, 4, 5, 1, 1]);
        assert_eq!(io(3, 0), vec![2, 3, 20]);
        assert_eq!(io(5, -2), vec![1, 1, 2, 3, 20]);
        assert_eq!(io(2, 1), vec![6, 20]);
        // A begin far past the rank folds everything into dim 0, at no cost.
        assert_eq!(io(3, i64::MAX - 1), vec![120, 1, 1]);
        assert_eq!(io(1, 7), vec![120]);
    }

    #[test]
    fn fold_dims_with_zero_dims() {
        let big = 1i64 << 30;
        let t = Tensor::new(DataType::Float, [big, big, 0, 3]).unwrap();
        assert_eq!(fold_dims::<Ix2>(&t, 2, 2).unwrap().slice(), &[0, 3]);
        assert_eq!(
            fold_dims::<Ix2>(&t, 2, 0).unwrap().slice(),
            &[big as usize, 0]
        );
    }
}
