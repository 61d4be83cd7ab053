//! For readers coming from TensorFlow's C++ `tensorflow::Tensor` or from
//! Unity Sentis' `Tensor<T>`: where each of their members lives here, and
//! what differs. This module holds documentation only.
//!
//! The one difference that matters everywhere: **copies share, writes copy.**
//! `clone()` is TF's copy constructor (a second handle on the same buffer,
//! O(1)), but every write path (`*_mut` views, [`Tensor::as_mut_slice`],
//! `TypedTensor`'s `t[[i]] = x`, [`TypedTensor::upload`]) first gives this
//! tensor a private buffer when the buffer is shared, holding a copy of its
//! region (copy-on-write). In TF a write through one handle is seen by every
//! handle that shares the buffer; here it never is. Sentis tensors are
//! reference objects (`b = a` is the same tensor); a [`TypedTensor`] is a
//! value.
//!
//! ```
//! use tftensor::{DataType, Tensor, TypedTensor};
//!
//! // TF: Tensor t(DT_FLOAT, {2, 3}); Tensor u = t; t.matrix<float>()(0, 1) = 5;
//! let mut t = Tensor::new(DataType::Float, [2, 3])?; // zero-filled
//! let u = t.clone(); // shares the buffer, as TF's copy constructor does
//! assert!(u.shares_buffer_with(&t));
//! t.matrix_mut::<f32>()?[[0, 1]] = 5.0; // copy-on-write: `u` is untouched
//! assert_eq!(t.matrix::<f32>()?[[0, 1]], 5.0);
//! assert_eq!(u.matrix::<f32>()?[[0, 1]], 0.0); // in TF this would read 5
//! assert!(!u.shares_buffer_with(&t));
//!
//! // Sentis: var s = new Tensor<float>(new TensorShape(2, 3), data); s[1, 2] = 9;
//! let mut s = TypedTensor::<f32>::from_vec([2, 3], vec![0.5; 6])?;
//! s[[1, 2]] = 9.0;
//! assert_eq!(s.to_vec(), [0.5, 0.5, 0.5, 0.5, 0.5, 9.0]); // DownloadToArray
//! let untyped: Tensor = s.into_tensor(); // no copy either way
//! assert_eq!(untyped.dtype(), DataType::Float);
//! # Ok::<(), tftensor::Error>(())
//! ```
//!
//! Common to both tables: fallible calls return [`Result`](crate::Result)
//! where TF `CHECK`-fails (aborts) or Sentis throws, with TF's message text
//! where TF has one; shapes and sizes are `i64` as in TF (`usize` where Rust
//! indexes memory); every tensor lives in CPU memory, so nothing is ever
//! pending on a device.
//!
//! # TensorFlow C++ `Tensor`
//!
//! Templated accessors such as `vec<T>()` become `vec::<T>()`; TF's rank
//! parameter `N` becomes an `ndarray` dimension type (`Ix0`..`Ix6`, or
//! `IxDyn` for any rank). A const accessor gives an `ArrayView`, the
//! non-const one is the `_mut` twin (copy-on-write, see above).
//!
//! | TF C++ | tftensor | What differs |
//! |---|---|---|
//! | `Tensor()` | [`Tensor::default`] | Same: float, shape `[0]`. |
//! | `Tensor(DataType)` | [`Tensor::from_dtype`] | Same: shape `[0]`, no buffer. |
//! | `Tensor(DataType, const TensorShape&)` | [`Tensor::new`] | Zero-filled (TF leaves numbers uninitialized); a bad dtype or shape is an `Err`. |
//! | `Tensor(Allocator*, DataType, const TensorShape&)` | [`Tensor::with_allocator`] | Takes an `Arc` of an [`Allocator`](crate::Allocator); zero-filled like [`Tensor::new`]. |
//! | `Tensor(DataType, const TensorShape&, TensorBuffer*)` | [`Tensor::from_buffer`] | Adopts a `bytes::Bytes` without a copy when aligned for the element type, copies it once otherwise. |
//! | (from host data) | [`Tensor::from_vec`], [`Tensor::from_slice`], [`Tensor::from_array`] | No TF counterpart; `from_vec` adopts the `Vec` without a copy. |
//! | `Tensor(float)`, `Tensor(int32)`, `Tensor(tstring)`, ... | `Tensor::from(x)` (the `From` conversions) | A scalar of `x`'s dtype; strings from `&str`, `String` or `Bytes`. |
//! | copy constructor, `operator=` | [`Tensor::clone`](Clone::clone) | Shares the buffer like TF; writes afterwards copy first (copy-on-write). |
//! | move constructor | a Rust move | The moved-from tensor can no longer be used. |
//! | `tensor::DeepCopy` | [`Tensor::deep_copy`] | Same: a fresh 64-byte-aligned buffer. |
//! | `dtype()` | [`Tensor::dtype`] | Same. |
//! | `shape()` | [`Tensor::shape`] | Same. |
//! | `dims()` | [`Tensor::dims`] | Same. |
//! | `dim_size(d)` | [`Tensor::dim_size`] | `Err` when `d` is out of range (TF `CHECK`-fails). |
//! | `NumElements()` | [`Tensor::num_elements`] | Same. |
//! | `TotalBytes()` | [`Tensor::total_bytes`] | Same for numbers and strings; resources and variants count their Rust size. |
//! | `AllocatedBytes()` | [`Tensor::allocated_bytes`] | Same: the whole allocation when the allocator tracks sizes, else `TotalBytes()`. |
//! | `IsInitialized()` | [`Tensor::is_initialized`] | Same. |
//! | `IsAligned()` | [`Tensor::is_aligned`] | Same 64-byte test; views here never need it (only element alignment). |
//! | `IsSameSize(other)` | [`Tensor::is_same_size`] | Same. |
//! | `SharesBufferWith(other)` | [`Tensor::shares_buffer_with`] | Same. |
//! | `RefCountIsOne()` | [`Tensor::ref_count_is_one`] | Same; [`Tensor::is_shared`] is its opposite for tensors with a buffer. |
//! | `CopyFrom(other, shape)` | [`Tensor::copy_from`] | Same (shares, despite the name); returns `false` where TF returns `false`, and must be used. |
//! | `BitcastFrom(other, dtype, shape)` | [`Tensor::bitcast_from`] | Same checks and messages, as an `Err`. |
//! | `UnsafeCopyFromInternal(other, dtype, shape)` | [`Tensor::bitcast_from`] | TF's older name, found by rustdoc search; no second method. |
//! | `Slice(start, limit)` | [`Tensor::slice`] | Same; an out-of-range bound is an `Err`. |
//! | `SubSlice(index)` | [`Tensor::sub_slice`] | Same; an out-of-range index is an `Err`. |
//! | `FromProto(proto)` | [`Tensor::from_proto`] | Returns the tensor or an `Err` (TF returns `false`); [`Tensor::from_proto_with`] sets size and depth limits. |
//! | `ParseFromString` + `FromProto` | [`Tensor::decode`] | Decodes wire bytes without copying `tensor_content` or string elements. |
//! | `AsProtoField(proto*)` | [`Tensor::as_proto_field`] | Returns the proto, byte-identical to TF's. |
//! | `AsProtoTensorContent(proto*)` | [`Tensor::as_proto_tensor_content`] | Returns the proto, byte-identical to TF's. |
//! | `tensor::CompressTensorProtoInPlace` | [`compress_tensor_proto_in_place`](crate::compress_tensor_proto_in_place) | TF's rules, except where they would change what `FromProto` reads back (listed on the function). |
//! | `scalar<T>()` | [`Tensor::scalar`], [`Tensor::scalar_mut`] | Any one-element tensor, as in TF, seen as a rank-0 view; also checks that `T` is the dtype (TF does not). |
//! | `vec<T>()` | [`Tensor::vec`], [`Tensor::vec_mut`] | A dtype or rank mismatch is an `Err`. |
//! | `matrix<T>()` | [`Tensor::matrix`], [`Tensor::matrix_mut`] | As `vec`. |
//! | `tensor<T, N>()` | [`Tensor::tensor`], [`Tensor::tensor_mut`] | `N` is a dimension type; `IxDyn` gives the tensor's own rank, whatever it is. |
//! | `flat<T>()` | [`Tensor::flat`], [`Tensor::flat_mut`] | Same. |
//! | `unaligned_flat<T>()` | [`Tensor::unaligned_flat`], [`Tensor::flat_mut`] | Views need only element alignment here, so this differs from `flat` only after a bit cast of an odd slice: then it reads one aligned copy. The non-const form is `flat_mut`, which copies misaligned data first. |
//! | `shaped<T, N>(sizes)` | [`Tensor::shaped`], [`Tensor::shaped_mut`] | `"144 vs. 120"` is an `Err`; `sizes` is any [`IntoShape`] (`[2, 3]`, `&[2usize, 3]`, a `Vec<i64>`, ...). |
//! | `unaligned_shaped<T, N>(sizes)` | [`Tensor::unaligned_shaped`], [`Tensor::shaped_mut`] | As `unaligned_flat`. |
//! | `flat_inner_dims<T, N>()` | [`Tensor::flat_inner_dims`] | Same folding. |
//! | `flat_outer_dims<T, N>()` | [`Tensor::flat_outer_dims`] | Same folding. |
//! | `flat_inner_outer_dims<T, N>(begin)` | [`Tensor::flat_inner_outer_dims`] | Same folding; [`Tensor::flat_inner_outer_dims_dyn`] takes `N` at run time. |
//! | `bit_casted_tensor<T, N>()` | [`Tensor::bit_casted_tensor`] | Same: no dtype check. The `_mut` twins take only plain-data `T`. |
//! | `bit_casted_shaped<T, N>(sizes)` | [`Tensor::bit_casted_shaped`] | Same byte-size check, as an `Err`; `sizes` as for `shaped`. |
//! | `reinterpret_last_dimension<T, N>()` | [`Tensor::reinterpret_last_dimension`] | Same checks, as an `Err`. |
//! | `tensor_data()` | [`Tensor::tensor_data`] | A `&[u8]` of this tensor's region; an `Err` for string, resource and variant tensors (TF aborts). |
//! | `data()`, `buf_` | [`Tensor::data_ptr`], [`Tensor::as_slice`], [`Tensor::as_mut_slice`] | No raw buffer object; `as_slice::<T>()` is the typed, checked access. |
//! | `SummarizeValue(max_entries, print_v2)` | [`Tensor::summarize_value`], [`Tensor::summarize_value_bytes`] | Byte-identical to TF 2.21; the `_bytes` form keeps invalid UTF-8 from string elements. |
//! | `DebugString(num_values)` | [`Tensor::debug_string_n`], [`Tensor::debug_string_bytes`] | Same text. |
//! | `DebugString()` | [`Tensor::debug_string`] | Same text (3 values). |
//! | `DeviceSafeDebugString()` | [`Tensor::device_safe_debug_string`] | Same text. |
//! | `operator<<` | `Display` (`{}`) | Same text (`DebugString(100)`); `Debug` (`{:?}`) is a Rust-style summary that also shows whether the buffer is shared. |
//! | `FillDescription(TensorDescription*)` | [`Tensor::fill_description`] | Returns the proto. |
//! | `TensorBuffer::FillAllocationDescription` | [`Tensor::allocation_description`] | Returns the allocator's name, sizes and id. |
//! | `operator==` (none in TF) | `==` | Compares dtype, shape and bytes, not element values: NaN equals the same NaN, `-0.0 != 0.0`, and `Int4` tensors differing only in unused high bits are unequal (see [`Tensor`]'s `PartialEq`). |
//! | `CheckType`, `CheckTypeAndIsAligned` | (inside every typed accessor) | A mismatch is an `Err` (`"float expected, got int32"`), never an abort. |
//! | `Tensor(Allocator*, DataType, const TensorShape&, const AllocationAttributes&)` | none | No allocation attributes: tftensor has CPU memory only. |
//!
//! # TensorFlow C++ `TensorShape`
//!
//! | TF C++ | tftensor | What differs |
//! |---|---|---|
//! | `TensorShape()` | [`TensorShape::scalar`], `TensorShape::default()` | Same: rank 0. |
//! | `TensorShape({2, 3})`, `BuildTensorShape(dims, &out)` | [`TensorShape::new`], `TensorShape::try_from` | Returns `Err` with TF's text (the TF constructor `CHECK`-fails). Every method that takes a shape takes an [`IntoShape`]: a `TensorShape`, or dims as an array, slice or `Vec` of `i64`, `i32` or `usize`, and `()` for a scalar. |
//! | (from `usize`) | [`TensorShape::from_usizes`] | No TF counterpart. |
//! | `TensorShape(const TensorShapeProto&)`, `BuildTensorShapeBase(proto, &out)` | [`TensorShape::from_proto`] | Returns `Err` on a bad proto. |
//! | `IsValid(const TensorShapeProto&)` | [`TensorShape::is_valid_dims`] | Takes the proto's dims. |
//! | `AsProto(TensorShapeProto*)` | [`TensorShape::as_proto`] | Returns the proto. |
//! | `dims()` | [`TensorShape::dims`] | Same. |
//! | `dim_size(d)` | [`TensorShape::dim_size`] | `Err` when `d` is out of range (TF `CHECK`-fails). |
//! | `dim_sizes()` | [`TensorShape::dim_sizes`] | A `Vec<i64>`; [`TensorShape::iter`] iterates without allocating. |
//! | `num_elements()` | [`TensorShape::num_elements`] | Same. |
//! | `IsSameSize(other)` | [`TensorShape::is_same_size`] | Same; `==` also works. |
//! | `AddDim(size)`, `AddDimWithStatus(size)` | [`TensorShape::add_dim`] | Always the checked (`WithStatus`) form: an `Err` with TF's text instead of a `CHECK` failure, and the shape unchanged. |
//! | `InsertDim(d, size)`, `InsertDimWithStatus` | [`TensorShape::insert_dim`] | As `add_dim`. |
//! | `set_dim(d, size)`, `SetDimWithStatus` | [`TensorShape::set_dim`] | As `add_dim`. |
//! | `RemoveDim(d)`, `RemoveDimWithStatus` | [`TensorShape::remove_dim`] | As `add_dim`. |
//! | `RemoveDimRange(begin, end)`, `RemoveDimRangeWithStatus` | [`TensorShape::remove_dim_range`] | Same negative-index rules, as `add_dim`. |
//! | `RemoveLastDims(n)` | [`TensorShape::remove_last_dims`] | As `add_dim`. |
//! | `AppendShape(other)`, `AppendShapeWithStatus` | [`TensorShape::append_shape`] | As `add_dim`. |
//! | `Clear()` | assign [`TensorShape::scalar`] | No method. |
//! | `DebugString()`, `operator<<` | [`TensorShape::debug_string`], `Display` | Same text (`[2,3]`). |
//! | `begin()`, `end()` | [`TensorShape::iter`] | Yields `i64` sizes, not `TensorShapeDim`. |
//! | `AsEigenDSizes<N>()` | [`TensorShape::to_usize_vec`] | Sizes for `ndarray`. |
//! | `PartialTensorShape` | [`PartialTensorShape`](crate::PartialTensorShape) | Same rules for unknown dims and ranks. |
//!
//! # Unity Sentis `Tensor<T>`
//!
//! [`TypedTensor<T>`] is the Sentis-style face of a [`Tensor`]; it owns a
//! plain `Tensor` and converts to and from one without a copy
//! ([`TypedTensor::into_tensor`], `TypedTensor::try_from(tensor)`). The
//! members below are those of Sentis 2.x `Tensor<T>` and its base `Tensor`.
//!
//! | Sentis | tftensor | What differs |
//! |---|---|---|
//! | `new Tensor<T>(shape)` (`clearOnInit = true`) | [`TypedTensor::new`] | Same: zero-filled, 64-byte aligned. |
//! | `new Tensor<T>(shape, clearOnInit: false)` | [`TypedTensor::new`] | Still zero-filled (there is no `new_uninit`): safe Rust cannot hand out unwritten memory. [`TypedTensor::from_fn`] and [`TypedTensor::from_vec`] skip the clearing pass. |
//! | `new Tensor<T>(shape, T[] srcData, dataStartIndex)` | [`TypedTensor::from_slice_at`] | Same copy; a short source is an `Err`. [`TypedTensor::from_slice`] is [`Tensor::from_slice`]'s form: no start index, exactly the shape's count. |
//! | `new Tensor<T>(shape, NativeArray<T> srcData, dataStartIndex)` | [`TypedTensor::from_slice_at`], [`TypedTensor::from_vec`] | `from_vec` adopts a `Vec` without a copy. |
//! | `new Tensor<T>(shape, ITensorData)` | `TypedTensor::try_from(tensor)` | Wraps an existing [`Tensor`] (checks its dtype), no copy. |
//! | `shape` | [`TypedTensor::shape`] | A TF [`TensorShape`]: `i64` dims, up to 254 of them (Sentis: `int`, up to 8). |
//! | `dataType` | [`TypedTensor::dtype`] | One of TF's 30 dtypes, fixed by `T`. |
//! | `count` | [`TypedTensor::len`] | A `usize`. |
//! | `this[d0]` ... `this[d7, ..., d0]` | `t[[i, j, ...]]` (`Index`/`IndexMut`), [`TypedTensor::get`], [`TypedTensor::get_mut`] | One coordinate per dimension, outermost first; a wrong rank or a coordinate out of range panics like slice indexing (`get` returns `None`). For a flat offset use [`TypedTensor::as_slice`]. A write is copy-on-write. |
//! | `AsReadOnlySpan()`, `AsReadOnlyNativeArray()` | [`TypedTensor::as_slice`] | A borrowed `&[T]`, no copy. |
//! | (writable span) | [`TypedTensor::as_mut_slice`] | Copy-on-write when shared. |
//! | `DownloadToArray()`, `DownloadToNativeArray()` | [`TypedTensor::to_vec`], [`TypedTensor::into_array`] | Copies (`into_array` avoids the copy when it can); never blocks. |
//! | `Upload(data)` | [`TypedTensor::upload`] | The length must equal `len()`; on a shared buffer the data goes into a fresh one. |
//! | `Reshape(shape)` | [`TypedTensor::reshape`] | Same: any count up to the capacity, buffer untouched. |
//! | `dataOnBackend.maxCapacity` | [`TypedTensor::capacity`] | Elements the buffer holds from this tensor's start. |
//! | `ReadbackAndClone()` | [`TypedTensor::deep_copy`] | A copy with its own buffer; nothing to read back. |
//! | `ReadbackAndCloneAsync()`, `ReadbackRequest()`, `IsReadbackRequestDone()`, `CompleteAllPendingOperations()` | none | The data is always in CPU memory and never pending. |
//! | `backendType` | none | CPU only. |
//! | `dataOnBackend` | [`TypedTensor::as_tensor`] | The untyped [`Tensor`] (with [`Tensor::tensor_data`] for the bytes). |
//! | `AdoptTensorData(data)` | `TypedTensor::try_from(tensor)` | Wraps a tensor instead of swapping storage in place. |
//! | `ReleaseTensorData()` | [`TypedTensor::into_tensor`] | Hands out the untyped tensor, consuming the wrapper. |
//! | `Dispose()` | `drop` (automatic) | The buffer is freed when its last handle goes away; no manual call, no use after dispose. |
//! | assigning the reference (`b = a`) | `clone()` | A second handle on the same buffer that behaves as a copy: writes through either copy first. |
//! | `ToString()` | `Debug` (`{:?}`) | Dtype, shape and the first 8 elements; [`Tensor::summarize_value`] prints TF's text. |
//! | (ndarray interop) | [`TypedTensor::view`], [`TypedTensor::view_mut`], [`TypedTensor::tensor`], [`TypedTensor::tensor_mut`], [`TypedTensor::from_array`] | No Sentis counterpart. `view` is the own-rank (`IxDyn`) view and cannot fail; `tensor::<D>()` is [`Tensor::tensor`] with a fixed rank. |

// Only for the intra-doc links above; this module has no code.
#[cfg(doc)]
use crate::{IntoShape, Tensor, TensorShape, TypedTensor};
