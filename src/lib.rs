//! # tftensor
//!
//! TensorFlow's C++ `tensorflow::Tensor`, in Rust: a [`DataType`] and a
//! [`TensorShape`] over a refcounted, 64-byte-aligned buffer, with typed
//! `ndarray` views built on demand and a byte-exact `TensorProto` codec.
//!
//! ```
//! use tftensor::{DataType, Tensor};
//!
//! // Build, view, share.
//! let t = Tensor::from_vec([2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
//! assert_eq!(t.dtype(), DataType::Float);
//! assert_eq!(t.matrix::<f32>()?[[1, 2]], 6.0);
//! let row = t.sub_slice(1)?; // O(1), shares the buffer
//! assert_eq!(row.vec::<f32>()?.sum(), 15.0);
//!
//! // Round-trip through TensorFlow's wire format.
//! let proto = t.as_proto_tensor_content()?;
//! let back = Tensor::from_proto(&proto)?;
//! assert_eq!(back, t);
//! # Ok::<(), tftensor::Error>(())
//! ```
//!
//! Every fallible call returns [`Result`]; untrusted input (protos, bytes,
//! shapes) never panics; the limits it enforces on such input are listed in
//! [`limits`].
#![cfg_attr(docsrs, feature(doc_cfg))]
// The workspace's lints (Cargo.toml) hold for every crate; the library
// adds these.
#![deny(missing_docs)]
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable
    )
)]

#[cfg(feature = "arrow")]
pub mod arrow;
mod buffer;
#[cfg(feature = "checkpoint")]
pub mod checkpoint;
pub mod crc32c;
#[cfg(feature = "cuda")]
pub mod device;
#[cfg(feature = "dlpack")]
pub mod dlpack;
mod dtype;
mod element;
mod error;
#[cfg(feature = "events")]
pub mod events;
pub mod guide;
#[cfg(feature = "keras")]
pub mod hdf5;
pub mod io;
#[cfg(feature = "keras")]
pub mod keras;
pub mod limits;
#[cfg(feature = "npy")]
pub mod npy;
pub mod pb;
mod proto;
#[cfg(feature = "safetensors")]
pub mod safetensors;
#[cfg(feature = "saved_model")]
pub mod saved_model;
mod shape;
pub mod stats;
mod summary;
mod tensor;
#[cfg(feature = "tflite")]
pub mod tflite;
#[cfg(feature = "tfrecord")]
pub mod tfrecord;
mod typed;

pub use buffer::read_pool::{
    READ_POOL_IDLE, read_pool_bytes, read_pool_limit, release_memory, set_read_pool_limit,
};
pub use buffer::{ALIGNMENT, AllocationDescription, Allocator, CpuAllocator, TrackingAllocator};
pub use dtype::{DataType, ParseDataTypeError};
pub use element::{
    Element, Float4E2M1FN, Float8E4M3B11FNUZ, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2,
    Float8E5M2FNUZ, Int2, Int4, PodElement, QInt8, QInt16, QInt32, QUInt8, QUInt16, ResourceHandle,
    UInt2, UInt4, Variant,
};
pub use error::{
    Error, ErrorKind, IoSource, LocatedError, Location, OverflowError, RangeError, Result,
    ShapeError, SizeCheck,
};
pub use proto::{FromProtoOptions, compress_tensor_proto_in_place};
pub use shape::{MAX_DIMENSIONS, PartialTensorShape, TensorShape};
/// C's `printf("%.<precision>g")`, exported only so that the `%g` reference
/// cases in `tests/` can reach it; not part of the API.
#[doc(hidden)]
pub use summary::format_g;
pub use tensor::{ChunksMut, IntoShape, Tensor, TensorMut};
pub use typed::TypedTensor;

/// Re-exported for the `Bytes` string element and zero-copy decoding.
pub use bytes;
/// Re-exported for `f16` and `bf16`.
pub use half;
/// Re-exported so users can name view types without adding ndarray.
pub use ndarray;
/// Re-exported for `Complex`.
pub use num_complex;
/// Re-exported so users can call `prost::Message` methods on [`pb`] types.
pub use prost;

/// The README's examples, compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
