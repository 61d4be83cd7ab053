//! [`Tensor`]: a dtype and a shape over a refcounted buffer, with TF's
//! constructors, queries and buffer-sharing operations.

use std::sync::Arc;

use bytes::Bytes;

use crate::buffer::{ALIGNMENT, AllocationDescription, Allocator, Root, default_allocator};
use crate::dtype::DataType;
use crate::element::{Element, ResourceHandle, Variant, dispatch_dtype};
use crate::error::{Error, OverflowError, Result, SizeCheck};
use crate::shape::{TensorShape, i64_of_usize};

mod access;
mod convert;
mod region;
mod sharing;
mod tensor_mut;
mod views;

pub(crate) use region::{Region, invariant_broken};

pub use tensor_mut::{ChunksMut, TensorMut};

/// Something that can become a [`TensorShape`]: every method that takes a
/// shape takes one of these. A `TensorShape` (owned or borrowed), or the
/// dims as an array, a reference to an array, a slice or a `Vec` of `i64`
/// (TF's type), `i32` (what an unsuffixed literal like `[2, 3]` is) or
/// `usize` (Rust's lengths); `()` for a scalar. Conversions are checked as
/// [`TensorShape::new`] checks them; a `usize` above `i64::MAX` is an
/// error too.
///
/// ```
/// use tftensor::{IntoShape, TensorShape};
/// let want = TensorShape::new(&[2, 3])?;
/// assert_eq!([2i64, 3].into_shape()?, want);
/// assert_eq!([2, 3].into_shape()?, want); // a literal: i32
/// assert_eq!([2usize, 3].into_shape()?, want);
/// assert_eq!((&[2usize, 3][..]).into_shape()?, want);
/// assert_eq!(vec![2usize, 3].into_shape()?, want);
/// assert_eq!(vec![2i64, 3].into_shape()?, want);
/// assert!([-1i64].into_shape().is_err());
/// assert!([usize::MAX].into_shape().is_err());
/// assert_eq!(().into_shape()?, TensorShape::scalar()); // `[]` would be ambiguous
/// # Ok::<(), tftensor::Error>(())
/// ```
pub trait IntoShape {
    /// Converts, checking the dims.
    fn into_shape(self) -> Result<TensorShape>;
}

impl IntoShape for TensorShape {
    fn into_shape(self) -> Result<TensorShape> {
        Ok(self)
    }
}
impl IntoShape for &TensorShape {
    fn into_shape(self) -> Result<TensorShape> {
        Ok(self.clone())
    }
}
/// `()` is the scalar shape: an empty array literal `[]` has no element
/// type to pick an impl by.
impl IntoShape for () {
    fn into_shape(self) -> Result<TensorShape> {
        Ok(TensorShape::scalar())
    }
}

/// The `IntoShape` impls for arrays, array references, slices and `Vec`s
/// of one dim type, given how an array (without allocating) and a slice
/// of it become a shape.
macro_rules! into_shape_impls {
    ($($t:ty => |$a:ident| $array:expr, |$s:ident| $slice:expr;)*) => {$(
        impl<const N: usize> IntoShape for [$t; N] {
            fn into_shape(self) -> Result<TensorShape> {
                let $a = self;
                $array
            }
        }
        impl<const N: usize> IntoShape for &[$t; N] {
            fn into_shape(self) -> Result<TensorShape> {
                (*self).into_shape()
            }
        }
        impl IntoShape for &[$t] {
            fn into_shape(self) -> Result<TensorShape> {
                let $s = self;
                $slice
            }
        }
        impl IntoShape for Vec<$t> {
            fn into_shape(self) -> Result<TensorShape> {
                self.as_slice().into_shape()
            }
        }
        impl IntoShape for &Vec<$t> {
            fn into_shape(self) -> Result<TensorShape> {
                self.as_slice().into_shape()
            }
        }
    )*};
}

into_shape_impls! {
    i64 => |a| TensorShape::new(&a), |s| TensorShape::new(s);
    i32 => |a| TensorShape::new(&a.map(i64::from)),
        |s| TensorShape::new(&s.iter().map(|&d| i64::from(d)).collect::<Vec<_>>());
    usize => |a| TensorShape::from_usizes(&a), |s| TensorShape::from_usizes(s);
}

/// A TensorFlow tensor: a [`DataType`], a [`TensorShape`] and a refcounted
/// buffer, which clones and slices share.
///
/// * `clone()` is O(1) and shares the buffer, like TF's copy constructor.
/// * Writes go through `&mut self`; when the buffer is shared, the tensor
///   first copies its own region (copy-on-write), so no other handle ever
///   sees the change.
/// * POD dtypes live in 64-byte-aligned bytes; string, resource and variant
///   elements live in a typed store (never in raw bytes).
///
/// ```
/// use tftensor::{DataType, Tensor};
/// let mut a = Tensor::from_vec([2, 3], vec![1.0f32, 2., 3., 4., 5., 6.]).unwrap();
/// let b = a.clone();
/// assert!(a.shares_buffer_with(&b));
/// a.as_mut_slice::<f32>().unwrap()[0] = 10.0; // copy-on-write
/// assert!(!a.shares_buffer_with(&b));
/// assert_eq!(b.as_slice::<f32>().unwrap()[0], 1.0);
/// assert_eq!(a.dtype(), DataType::Float);
/// assert_eq!(a.shape().to_string(), "[2,3]");
/// ```
pub struct Tensor {
    /// The dtype and shape, and where they lie in `root`.
    region: Region,
    /// The shared buffer; `None` when there is nothing to hold (or the
    /// tensor is uninitialized, as TF's `Tensor(dtype, shape)` slices can be).
    root: Option<Arc<Root>>,
}

impl Default for Tensor {
    /// TF's `Tensor()`: a float tensor of shape `[0]` (not a scalar).
    ///
    /// ```
    /// let t = tftensor::Tensor::default();
    /// assert_eq!(t.dtype(), tftensor::DataType::Float);
    /// assert_eq!(t.dims(), 1);
    /// assert_eq!(t.num_elements(), 0);
    /// ```
    fn default() -> Self {
        Tensor::from_dtype(DataType::Float)
    }
}

impl Clone for Tensor {
    /// Shares the buffer (O(1)), as TF's copy constructor does.
    ///
    /// ```
    /// let a = tftensor::Tensor::from(1.5f64);
    /// assert!(a.clone().shares_buffer_with(&a));
    /// ```
    fn clone(&self) -> Self {
        Tensor {
            region: self.region.clone(),
            root: self.root.clone(),
        }
    }
}

/// TF's `sizeof(tstring)`, which its byte counts use per string.
const TSTRING_SIZE: usize = 24;

/// Bytes for `n` elements of `dtype`, checked.
pub(crate) fn byte_len(dtype: DataType, n: i64) -> Result<usize> {
    usize::try_from(n)
        .ok()
        .and_then(|n| n.checked_mul(dtype.size()))
        .ok_or(Error::Overflow(OverflowError::Size {
            what: "tensor byte size",
        }))
}

impl DataType {
    /// Checks that a tensor can hold this dtype; TF's `"Type not set"` and
    /// `"Unexpected type: <DT_NAME>"` otherwise.
    pub(crate) fn check_tensor_dtype(self) -> Result<()> {
        if self == DataType::Invalid {
            Err(Error::unsupported(self, "Type not set"))
        } else if self.is_valid_tensor_dtype() {
            Ok(())
        } else {
            Err(Error::unsupported(
                self,
                format!(
                    "Unexpected type: {}",
                    match self.proto_name() {
                        n if n.is_empty() => self.as_i32().to_string(),
                        n => n,
                    }
                ),
            ))
        }
    }
}

impl Tensor {
    /// TF's `Tensor(DataType)`: shape `[0]`, no buffer. Like TF, any dtype
    /// is accepted here because there are no elements to hold.
    ///
    /// ```
    /// let t = tftensor::Tensor::from_dtype(tftensor::DataType::String);
    /// assert_eq!(t.shape().dim_sizes(), vec![0]);
    /// assert!(t.is_initialized());
    /// ```
    pub fn from_dtype(dtype: DataType) -> Tensor {
        Tensor::unbuffered(dtype, TensorShape::empty_vector())
    }

    /// A tensor without a buffer (none needed, or TF's uninitialized one).
    pub(crate) fn unbuffered(dtype: DataType, shape: TensorShape) -> Tensor {
        Tensor {
            region: Region::new(dtype, shape),
            root: None,
        }
    }

    /// A zero-filled tensor (empty strings, default handles and variants),
    /// from the default 64-byte-aligned CPU allocator. Zero-element tensors
    /// allocate nothing.
    ///
    /// # Errors
    /// A bad shape, a dtype a tensor cannot hold ([`DataType::Invalid`],
    /// a ref type, an unknown number), or a failed allocation.
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let t = Tensor::new(DataType::Int32, [2, 2]).unwrap();
    /// assert_eq!(t.as_slice::<i32>().unwrap(), &[0, 0, 0, 0]);
    /// assert!(Tensor::new(DataType::Float.as_ref_type(), [1]).is_err());
    /// ```
    pub fn new(dtype: DataType, shape: impl IntoShape) -> Result<Tensor> {
        Self::new_in(&default_allocator(), dtype, shape.into_shape()?)
    }

    /// Like [`Tensor::new`], with memory from `allocator` (TF's
    /// `Tensor(Allocator*, DataType, TensorShape)`).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tftensor::{DataType, Tensor, TrackingAllocator};
    /// let a = Arc::new(TrackingAllocator::new());
    /// let t = Tensor::with_allocator(&a, DataType::Double, [3]).unwrap();
    /// assert_eq!(a.live_bytes(), 24);
    /// assert_eq!(t.allocation_description().unwrap().allocator_name, "tracking");
    /// ```
    pub fn with_allocator<A: Allocator + 'static>(
        allocator: &Arc<A>,
        dtype: DataType,
        shape: impl IntoShape,
    ) -> Result<Tensor> {
        let allocator: Arc<dyn Allocator> = allocator.clone();
        Self::new_in(&allocator, dtype, shape.into_shape()?)
    }

    pub(crate) fn new_in(
        allocator: &Arc<dyn Allocator>,
        dtype: DataType,
        shape: TensorShape,
    ) -> Result<Tensor> {
        let n = shape.num_elements();
        if n == 0 {
            // TF checks nothing when there is nothing to allocate.
            return Ok(Tensor::unbuffered(dtype, shape));
        }
        dtype.check_tensor_dtype()?;
        let count = usize::try_from(n).map_err(|_| {
            Error::Overflow(OverflowError::Size {
                what: "element count",
            })
        })?;
        let root = match dtype {
            DataType::String => Root::from_vec(allocator, try_filled::<Bytes>(count)?)?,
            DataType::Resource => Root::from_vec(allocator, try_filled::<ResourceHandle>(count)?)?,
            DataType::Variant => Root::from_vec(allocator, try_filled::<Variant>(count)?)?,
            _ => Root::zeroed(allocator, byte_len(dtype, n)?)?,
        };
        Ok(Tensor::with_root(dtype, shape, root))
    }

    pub(crate) fn with_root(dtype: DataType, shape: TensorShape, root: Root) -> Tensor {
        Tensor {
            region: Region::new(dtype, shape),
            root: Some(Arc::new(root)),
        }
    }

    /// TF's `Tensor(DataType, TensorShape, TensorBuffer*)`: a POD tensor over
    /// existing bytes. The bytes are adopted without a copy when their
    /// address suits the element type, and copied once (into an aligned
    /// buffer) otherwise. `bytes::Bytes::from_owner` can wrap any memory
    /// (an mmap, a received message).
    ///
    /// # Errors
    /// A non-POD or invalid dtype, or a byte length other than
    /// `num_elements * dtype.size()` (`"Input size was X and expected Y"`);
    /// for `bool`, a byte other than 0 or 1.
    ///
    /// ```
    /// use bytes::Bytes;
    /// use tftensor::{DataType, Tensor};
    /// let raw = Bytes::from_static(&[1, 0, 2, 0]);
    /// let t = Tensor::from_buffer(DataType::UInt16, [2], raw).unwrap();
    /// assert_eq!(t.as_slice::<u16>().unwrap(), &[1, 2]);
    /// assert!(Tensor::from_buffer(DataType::UInt16, [3], Bytes::from_static(&[0; 4])).is_err());
    /// ```
    pub fn from_buffer(dtype: DataType, shape: impl IntoShape, bytes: Bytes) -> Result<Tensor> {
        let shape = shape.into_shape()?;
        dtype.check_tensor_dtype()?;
        if !dtype.can_use_memcpy() {
            return Err(Error::unsupported(
                dtype,
                format!("from_buffer needs a POD dtype, got {dtype}"),
            ));
        }
        let expected = byte_len(dtype, shape.num_elements())?;
        if bytes.len() != expected {
            return Err(Error::SizeMismatch {
                got: bytes.len() as u64,
                expected: expected as u64,
                check: SizeCheck::Bytes,
            });
        }
        if expected == 0 {
            return Ok(Tensor::unbuffered(dtype, shape));
        }
        if dtype == DataType::Bool && bytes.iter().any(|&b| b > 1) {
            return Err(Error::InvalidArgument("bool bytes must be 0 or 1".into()));
        }
        // Element alignment is what views need; TF's 64-byte rule is only
        // reported by `is_aligned`.
        let elem_align = dispatch_dtype!(dtype, T => std::mem::align_of::<T>(), _ => 1);
        let root = if (bytes.as_ptr() as usize) % elem_align == 0 {
            Root::external(bytes)
        } else {
            Root::copy_of(&default_allocator(), &bytes)?
        };
        Ok(Tensor::with_root(dtype, shape, root))
    }

    /// A tensor that takes ownership of `values`, without copying POD data:
    /// the `Vec` becomes the buffer (it is only 64-byte aligned if the
    /// allocator made it so; see [`Tensor::is_aligned`]). `bool` values are
    /// copied into a byte buffer.
    ///
    /// # Errors
    /// A bad shape, or `values.len()` other than the shape's element count.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let t = Tensor::from_vec([2, 2], vec![1i64, 2, 3, 4]).unwrap();
    /// assert_eq!(t.as_slice::<i64>().unwrap(), &[1, 2, 3, 4]);
    /// assert!(Tensor::from_vec([3], vec![1i64]).is_err());
    /// ```
    pub fn from_vec<T: Element>(shape: impl IntoShape, values: Vec<T>) -> Result<Tensor> {
        let shape = shape.into_shape()?;
        let n = values.len();
        Tensor::from_values::<T>(shape, n, || Root::from_vec(&default_allocator(), values))
    }

    /// A tensor holding a copy of `values`, in a fresh 64-byte-aligned
    /// buffer.
    ///
    /// # Errors
    /// A bad shape, or `values.len()` other than the shape's element count.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let t = Tensor::from_slice([3], &[1u8, 2, 3]).unwrap();
    /// assert!(t.is_aligned());
    /// assert_eq!(t.tensor_data().unwrap(), &[1, 2, 3]);
    /// ```
    pub fn from_slice<T: Element>(shape: impl IntoShape, values: &[T]) -> Result<Tensor> {
        let shape = shape.into_shape()?;
        Tensor::from_values::<T>(shape, values.len(), || {
            Root::from_slice(&default_allocator(), values)
        })
    }

    /// `from_vec` and `from_slice`: `n` values for `shape`, held by the
    /// root `make_root` builds (not called when there are none).
    fn from_values<T: Element>(
        shape: TensorShape,
        n: usize,
        make_root: impl FnOnce() -> Result<Root>,
    ) -> Result<Tensor> {
        check_len(&shape, n)?;
        if n == 0 {
            return Ok(Tensor::unbuffered(T::DTYPE, shape));
        }
        Ok(Tensor::with_root(T::DTYPE, shape, make_root()?))
    }

    // ----- queries -----

    /// The element type.
    ///
    /// ```
    /// assert_eq!(tftensor::Tensor::from(true).dtype(), tftensor::DataType::Bool);
    /// ```
    pub fn dtype(&self) -> DataType {
        self.region.dtype()
    }

    /// The shape.
    ///
    /// ```
    /// let t = tftensor::Tensor::new(tftensor::DataType::Int8, [4, 5]).unwrap();
    /// assert_eq!(t.shape().num_elements(), 20);
    /// ```
    pub fn shape(&self) -> &TensorShape {
        self.region.shape()
    }

    /// The rank (TF's `dims()`).
    ///
    /// ```
    /// assert_eq!(tftensor::Tensor::from(1u8).dims(), 0);
    /// ```
    pub fn dims(&self) -> usize {
        self.region.shape().dims()
    }

    /// The size of dimension `d`.
    ///
    /// # Errors
    /// `d >= dims()` ([`Error::OutOfRange`]).
    ///
    /// ```
    /// let t = tftensor::Tensor::new(tftensor::DataType::Int8, [4, 5]).unwrap();
    /// assert_eq!(t.dim_size(1).unwrap(), 5);
    /// assert!(t.dim_size(2).is_err());
    /// ```
    pub fn dim_size(&self, d: usize) -> Result<i64> {
        self.region.shape().dim_size(d)
    }

    /// The number of elements (1 for a scalar).
    ///
    /// ```
    /// assert_eq!(tftensor::Tensor::from(1u8).num_elements(), 1);
    /// ```
    pub fn num_elements(&self) -> i64 {
        self.region.shape().num_elements()
    }

    /// Whether the shapes are equal (TF's `IsSameSize`).
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let a = Tensor::new(DataType::Int8, [2]).unwrap();
    /// let b = Tensor::new(DataType::Float, [2]).unwrap();
    /// assert!(a.is_same_size(&b));
    /// ```
    pub fn is_same_size(&self, other: &Tensor) -> bool {
        self.region.shape() == other.region.shape()
    }

    /// TF's `IsInitialized`: there is a buffer, or nothing to hold.
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let t = Tensor::new(DataType::Float, [0, 5]).unwrap();
    /// assert!(t.is_initialized());
    /// assert!(!t.sub_slice(0).unwrap().is_initialized()); // shape [5], no buffer
    /// ```
    pub fn is_initialized(&self) -> bool {
        self.root.is_some() || self.num_elements() == 0
    }

    /// TF's `IsAligned` with 64-byte alignment: true for string, resource and
    /// variant tensors, for empty tensors, and when the data address is a
    /// multiple of 64. Views do not
    /// need it; they need only element alignment.
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let t = Tensor::new(DataType::Float, [30]).unwrap();
    /// assert!(t.is_aligned());
    /// assert!(!t.slice(1, 13).unwrap().is_aligned());
    /// ```
    pub fn is_aligned(&self) -> bool {
        // Typed stores (string, resource, variant) are not raw memory; TF
        // only exempts strings, but its other two are allocator-aligned.
        if !self.region.dtype().can_use_memcpy() || self.num_elements() == 0 {
            return true;
        }
        self.data_ptr()
            .is_some_and(|p| (p as usize) % ALIGNMENT == 0)
    }

    /// The address of the first element, if there is a buffer.
    ///
    /// ```
    /// let t = tftensor::Tensor::from(3i16);
    /// assert!(t.data_ptr().is_some());
    /// assert!(tftensor::Tensor::default().data_ptr().is_none());
    /// ```
    pub fn data_ptr(&self) -> Option<*const u8> {
        let root = self.root.as_ref()?;
        // Inside the root (the region's invariant), so it cannot wrap.
        Some(root.data_ptr().wrapping_add(self.region.start()))
    }

    /// TF's `SharesBufferWith`: both have buffers with the same root.
    /// Tensors without a buffer never share, not even with themselves.
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let a = Tensor::new(DataType::Float, [4]).unwrap();
    /// assert!(a.shares_buffer_with(&a.slice(1, 2).unwrap()));
    /// assert!(!Tensor::default().shares_buffer_with(&Tensor::default()));
    /// ```
    pub fn shares_buffer_with(&self, other: &Tensor) -> bool {
        match (&self.root, &other.root) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// TF's `RefCountIsOne`: this handle is the only one on a buffer that it
    /// owns (adopted external bytes do not count as owned).
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let a = Tensor::new(DataType::Float, [4]).unwrap();
    /// assert!(a.ref_count_is_one());
    /// let b = a.clone();
    /// assert!(!a.ref_count_is_one());
    /// # drop(b);
    /// ```
    pub fn ref_count_is_one(&self) -> bool {
        self.root
            .as_ref()
            .is_some_and(|r| Arc::strong_count(r) == 1 && r.is_writable())
    }

    /// TF's `TotalBytes`: the estimated memory of the elements. POD dtypes:
    /// the region's bytes; strings: 24 bytes per element (TF's
    /// `sizeof(tstring)`) plus their lengths; resources and variants: the
    /// Rust size of their element type per element.
    ///
    /// ```
    /// use tftensor::Tensor;
    /// let t = Tensor::from_vec([2], vec![bytes::Bytes::from("hello"), bytes::Bytes::from("ab")]).unwrap();
    /// assert_eq!(t.total_bytes(), 2 * 24 + 7);
    /// assert_eq!(Tensor::from(1.0f32).total_bytes(), 4);
    /// ```
    pub fn total_bytes(&self) -> usize {
        if self.num_elements() == 0 || self.root.is_none() {
            return 0;
        }
        if self.region.dtype() != DataType::String {
            // POD bytes; resources and variants: their Rust size each.
            return self.region.len();
        }
        match self.as_slice::<Bytes>() {
            // Saturating: decoded elements can share one long string
            // (FromProto's fill rule), so the sum may pass usize::MAX.
            Ok(s) => s
                .iter()
                .map(Bytes::len)
                .fold(s.len().saturating_mul(TSTRING_SIZE), usize::saturating_add),
            // A buffered string tensor's root holds its `Bytes`.
            Err(e) => invariant_broken("Tensor", &e),
        }
    }

    /// TF's `AllocatedBytes`: the root allocation's size when the allocator
    /// tracks sizes, else [`Tensor::total_bytes`].
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let t = Tensor::new(DataType::Float, [10, 20]).unwrap();
    /// assert_eq!(t.allocated_bytes(), 800);
    /// ```
    pub fn allocated_bytes(&self) -> usize {
        match self
            .root
            .as_ref()
            .and_then(|r| r.allocated_bytes_if_tracked())
        {
            Some((n, _)) if n > 0 => n,
            _ => self.total_bytes(),
        }
    }

    /// What TF's `FillDescription` puts in an `AllocationDescription`, from
    /// the ROOT buffer (so a slice reports its whole root), or `None`
    /// without a buffer.
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// let t = Tensor::new(DataType::Float, [10]).unwrap();
    /// let d = t.slice(2, 4).unwrap().allocation_description().unwrap();
    /// assert_eq!(d.requested_bytes, 40);
    /// ```
    pub fn allocation_description(&self) -> Option<AllocationDescription> {
        let root = self.root.as_ref()?;
        // TF's buffer size: `sizeof(T)` per element, which is the root's
        // bytes but for strings (24 for a `tstring`, less than a `Bytes`).
        let requested = match self.region.dtype() {
            DataType::String if !root.is_bytes() => {
                root.len() / std::mem::size_of::<Bytes>() * TSTRING_SIZE
            }
            _ => root.len(),
        };
        // Untracked: TF reports 0 bytes and id 0.
        let (allocated, id) = root.allocated_bytes_if_tracked().unwrap_or((0, 0));
        Some(AllocationDescription {
            // Both at most a root's length, which is at most `isize::MAX`
            // (a `Layout`'s bound): `i64_of_usize` never saturates here.
            requested_bytes: i64_of_usize(requested),
            allocated_bytes: i64_of_usize(allocated),
            allocator_name: root.allocator_name().to_string(),
            allocation_id: id,
            has_single_reference: Arc::strong_count(root) == 1,
            ptr: root.data_ptr() as u64,
        })
    }

    /// TF's `tensor_data()`: the raw little-endian bytes of a POD tensor
    /// (empty without a buffer).
    ///
    /// # Errors
    /// String, resource and variant tensors (TF aborts).
    ///
    /// ```
    /// let t = tftensor::Tensor::from(1.0f32);
    /// assert_eq!(t.tensor_data().unwrap(), &1.0f32.to_le_bytes());
    /// assert!(tftensor::Tensor::from("s").tensor_data().is_err());
    /// ```
    pub fn tensor_data(&self) -> Result<&[u8]> {
        if !self.region.dtype().can_use_memcpy() && self.num_elements() != 0 {
            return Err(Error::unsupported(
                self.region.dtype(),
                format!(
                    "tensor_data() needs a memcpy-able dtype, got {}",
                    self.region.dtype()
                ),
            ));
        }
        self.raw_bytes()
    }

    /// The root buffer, for the crate's own modules.
    pub(crate) fn root(&self) -> Option<&Arc<Root>> {
        self.root.as_ref()
    }

    /// The dtype, shape and byte range: every access's checks.
    pub(crate) fn region(&self) -> &Region {
        &self.region
    }

    /// Replaces the shape, keeping the buffer. The caller checks that the
    /// region still fits the buffer.
    pub(crate) fn set_shape_unchecked(&mut self, shape: TensorShape) {
        self.region.set_shape_unchecked(shape);
    }

    /// Elements the buffer holds from this tensor's start (0 without a
    /// buffer). Only an upper bound for a handle's own capacity: a tensor
    /// never reaches past its own region.
    pub(crate) fn elements_from_start(&self) -> usize {
        let Some(root) = &self.root else {
            return 0;
        };
        root.len().saturating_sub(self.region.start()) / self.region.unit().max(1)
    }

    /// Hands back the buffer as `Vec<T>` without a copy when this handle
    /// uniquely owns a `Vec<T>` adopted by [`Tensor::from_vec`] and covers
    /// all of it; otherwise returns `self` unchanged.
    pub(crate) fn try_take_vec<T: Element>(mut self) -> std::result::Result<Vec<T>, Tensor> {
        // Check the element type before unwrapping: a bitcast tensor can
        // hold another type's `Vec`, which would be handed back wrongly.
        let takeable = T::DTYPE == self.region.dtype()
            && self.region.start() == 0
            && self
                .root
                .as_ref()
                .is_some_and(|r| self.region.len() == r.len() && r.holds_vec_of::<T>());
        if !takeable {
            return Err(self);
        }
        let Some(root) = self.root.take() else {
            return Err(self);
        };
        match Arc::try_unwrap(root) {
            Ok(root) => match root.into_vec::<T>() {
                Ok(v) => Ok(v),
                Err(root) => {
                    self.root = Some(Arc::new(root));
                    Err(self)
                }
            },
            Err(root) => {
                self.root = Some(root);
                Err(self)
            }
        }
    }
}

/// A `Vec` of `n` default values, failing instead of aborting when the
/// memory cannot be had.
fn try_filled<T: Default + Clone>(n: usize) -> Result<Vec<T>> {
    let mut v = crate::buffer::try_vec(n)?;
    v.resize(n, T::default());
    Ok(v)
}

fn check_len(shape: &TensorShape, len: usize) -> Result<()> {
    let n = shape.num_elements();
    if usize::try_from(n).ok() == Some(len) {
        Ok(())
    } else {
        Err(Error::SizeMismatch {
            got: len as u64,
            expected: n as u64,
            check: SizeCheck::Elements,
        })
    }
}

impl PartialEq for Tensor {
    /// Same dtype, same shape, and the same bytes: numeric elements are
    /// compared bit for bit, not with the element type's own `==`. So a NaN
    /// equals the same NaN, -0.0 differs from 0.0, and two `Int4`/`UInt4`
    /// tensors whose bytes differ only in the unused high bits are unequal
    /// although `Int4`'s `==` finds every element equal. String, resource
    /// and variant elements are compared one by one. To compare values,
    /// compare [`Tensor::as_slice`]s.
    ///
    /// ```
    /// use tftensor::{Int4, Tensor};
    /// let a = Tensor::from(f32::NAN);
    /// assert_eq!(a, a.deep_copy().unwrap());
    /// assert_ne!(Tensor::from(0.0f32), Tensor::from(-0.0f32));
    /// let (x, y) = (Int4::from_bits(0x05), Int4::from_bits(0x95u8 as i8));
    /// assert_eq!(x, y); // the same value, 5
    /// assert_ne!(Tensor::from(x), Tensor::from(y)); // different bytes
    /// ```
    fn eq(&self, other: &Tensor) -> bool {
        if self.region.dtype() != other.region.dtype()
            || self.region.shape() != other.region.shape()
        {
            return false;
        }
        if self.is_initialized() != other.is_initialized() {
            return false;
        }
        match self.region.dtype() {
            DataType::String => self.as_slice::<Bytes>().ok() == other.as_slice::<Bytes>().ok(),
            DataType::Resource => {
                self.as_slice::<ResourceHandle>().ok() == other.as_slice::<ResourceHandle>().ok()
            }
            DataType::Variant => {
                self.as_slice::<Variant>().ok() == other.as_slice::<Variant>().ok()
            }
            _ => self.raw_bytes().ok() == other.raw_bytes().ok(),
        }
    }
}

impl<T: Element> From<T> for Tensor {
    /// A scalar tensor (TF's host-scalar constructors). Cannot fail: the
    /// value's one-element `Vec` becomes the buffer (no aligned
    /// allocation, not even for `bool`).
    ///
    /// ```
    /// use tftensor::{DataType, Tensor};
    /// assert_eq!(Tensor::from(123.45f32).scalar::<f32>().unwrap()[()], 123.45);
    /// assert_eq!(Tensor::from(half::bf16::ONE).dtype(), DataType::BFloat16);
    /// assert!(Tensor::from(true).is_initialized());
    /// ```
    fn from(value: T) -> Tensor {
        Tensor::with_root(T::DTYPE, TensorShape::scalar(), Root::scalar(value))
    }
}

impl From<&str> for Tensor {
    /// A string scalar (TF's `Tensor(const char*)`).
    ///
    /// ```
    /// let t = tftensor::Tensor::from("foo");
    /// assert_eq!(t.scalar::<bytes::Bytes>().unwrap()[()], "foo");
    /// ```
    fn from(s: &str) -> Tensor {
        Tensor::from(Bytes::copy_from_slice(s.as_bytes()))
    }
}

impl From<String> for Tensor {
    /// A string scalar.
    ///
    /// ```
    /// let t = tftensor::Tensor::from(String::from("foo"));
    /// assert_eq!(t.dtype(), tftensor::DataType::String);
    /// ```
    fn from(s: String) -> Tensor {
        Tensor::from(Bytes::from(s))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_rejects_bad_input() {
        assert!(matches!(
            Tensor::new(DataType::Float, [-1]),
            Err(Error::InvalidShape(_))
        ));
        assert!(matches!(
            Tensor::new(DataType::Float, [1i64 << 62, 1 << 62]),
            Err(Error::Overflow(_))
        ));
        assert!(matches!(
            Tensor::new(DataType::Invalid, [1]),
            Err(Error::UnsupportedDataType { message, .. }) if message == "Type not set"
        ));
        assert!(matches!(
            Tensor::new(DataType::from_i32(77), [1]),
            Err(Error::UnsupportedDataType { ref message, .. }) if message == "Unexpected type: 77"
        ));
        assert!(matches!(
            Tensor::new(DataType::Float, [1i64 << 61]),
            Err(Error::AllocationFailed { .. })
        ));
        // With no elements nothing is checked, as in TF.
        assert!(Tensor::new(DataType::Invalid, [0]).is_ok());
    }

    #[test]
    fn every_dtype_zero_fills_and_slices() {
        for &dt in DataType::all() {
            let t = Tensor::new(dt, [4, 3]).unwrap();
            assert!(t.is_initialized());
            assert!(t.is_aligned());
            assert_eq!(t.num_elements(), 12);
            let s = t.slice(1, 3).unwrap();
            assert_eq!(s.shape().dim_sizes(), vec![2, 3]);
            assert!(s.shares_buffer_with(&t));
            let mut c = s.clone();
            c.make_unique().unwrap();
            assert!(!c.shares_buffer_with(&t));
            assert_eq!(c, s);
            let d = t.deep_copy().unwrap();
            assert_eq!(d, t);
            assert!(!d.shares_buffer_with(&t));
        }
    }

    #[test]
    fn from_vec_adopts_and_hands_back_without_copy() {
        let v = vec![1.0f32, 2.0, 3.0];
        let p = v.as_ptr();
        let t = Tensor::from_vec([3], v).unwrap();
        assert_eq!(t.data_ptr(), Some(p.cast()));
        let back = t.try_take_vec::<f32>().unwrap();
        assert_eq!(back.as_ptr(), p);
        // Shared: no hand-back.
        let t = Tensor::from_vec([3], back).unwrap();
        let u = t.clone();
        assert!(t.try_take_vec::<f32>().is_err());
        drop(u);
    }

    #[test]
    fn take_vec_keeps_a_bitcast_buffer() {
        // A Vec<u32> root seen as float: not handed back, and not lost.
        let u = Tensor::from_vec([2], vec![0x3f80_0000u32, 0]).unwrap();
        let mut f = Tensor::default();
        f.bitcast_from(&u, DataType::Float, [2]).unwrap();
        drop(u);
        let f = f.try_take_vec::<f32>().unwrap_err();
        assert_eq!(f.as_slice::<f32>().unwrap(), &[1.0, 0.0]);
    }

    #[test]
    fn copy_on_write_keeps_readers_unchanged() {
        let mut a = Tensor::from_vec([4], vec![1i32, 2, 3, 4]).unwrap();
        let reader = a.slice(1, 3).unwrap();
        a.as_mut_slice::<i32>().unwrap()[1] = 20;
        assert_eq!(reader.as_slice::<i32>().unwrap(), &[2, 3]);
        assert_eq!(a.as_slice::<i32>().unwrap(), &[1, 20, 3, 4]);
        assert!(!a.shares_buffer_with(&reader));
        // Unique: written in place.
        let p = a.data_ptr();
        a.as_mut_slice::<i32>().unwrap()[0] = 10;
        assert_eq!(a.data_ptr(), p);
        // A slice whose parent is gone writes in place too.
        let mut s = a.slice(1, 2).unwrap();
        drop(a);
        let p = s.data_ptr();
        s.as_mut_slice::<i32>().unwrap()[0] = 5;
        assert_eq!(s.data_ptr(), p);
    }

    #[test]
    fn bool_buffer_validated() {
        assert!(Tensor::from_buffer(DataType::Bool, [2], Bytes::from_static(&[1, 2])).is_err());
        let t = Tensor::from_buffer(DataType::Bool, [2], Bytes::from_static(&[1, 0])).unwrap();
        assert_eq!(t.as_slice::<bool>().unwrap(), &[true, false]);
        // A u8 tensor bitcast to bool with a bad byte cannot be viewed as bool.
        let u = Tensor::from_vec([1], vec![7u8]).unwrap();
        let mut b = Tensor::default();
        b.bitcast_from(&u, DataType::Bool, [1]).unwrap();
        assert!(b.as_slice::<bool>().is_err());
    }

    #[test]
    fn bitcast_errors() {
        let s = Tensor::from("x");
        let f = Tensor::new(DataType::Float, [2, 4]).unwrap();
        let mut t = Tensor::default();
        assert_eq!(
            t.bitcast_from(&s, DataType::Float, [1])
                .unwrap_err()
                .to_string(),
            "other tensor has zero-sized data type"
        );
        assert_eq!(
            t.bitcast_from(&f, DataType::String, [1])
                .unwrap_err()
                .to_string(),
            "specified output type is zero-sized"
        );
        assert_eq!(
            t.bitcast_from(&f, DataType::Double, [3])
                .unwrap_err()
                .to_string(),
            "input and output shapes/data type sizes are not compatible"
        );
        assert_eq!(t, Tensor::default());
        t.bitcast_from(&f, DataType::Double, [2, 2]).unwrap();
        assert_eq!(t.dtype(), DataType::Double);
    }
}
