//! CUDA device tensors over DLPack (feature `cuda`, off by default).
//!
//! A [`DeviceTensor`] is a dtype and a shape over CUDA device (or managed)
//! memory: a PyTorch, JAX or CuPy GPU tensor adopted zero-copy from DLPack
//! ([`DeviceTensor::from_dlpack`]), or a host [`Tensor`](crate::Tensor)
//! copied up with [`upload`]. It stays a type of its own: its elements are
//! not host memory, so it only says what it is (dtype, shape, device, and
//! TF's `DeviceSafeDebugString` as its `Display`) and copies back with
//! [`DeviceTensor::readback_and_clone`] or, without blocking,
//! [`DeviceTensor::readback_and_clone_async`]. Readbacks land in pinned
//! host memory from a small caching pool, and the host tensor keeps that
//! memory (returned to the pool when dropped). [`DeviceTensor::to_dlpack`]
//! hands a device tensor on as a CUDA DLPack tensor.
//!
//! No CUDA toolkit is needed to build: the driver (`libcuda.so.1`) is
//! loaded at run time, on first use. Without it (or without a GPU) the
//! calls that need it return the "no CUDA driver" error; adopting a DLPack
//! tensor, its dtype, shape and `Display` need no driver.
//!
//! DLPack's stream rule: a consumer passes its stream to the producer's
//! `__dlpack__`, and the data is ready on that stream. The `stream` given
//! to [`DeviceTensor::from_dlpack`] is that stream; every readback waits
//! for it (through an event) before copying.
//!
//! ```
//! use tftensor::{device, Tensor};
//! match device::upload(&Tensor::from_vec([2], vec![1.0f32, 2.0])?, 0) {
//!     Ok(d) => {
//!         assert_eq!(d.to_string(), "Tensor<type: float shape: [2]>");
//!         assert_eq!(d.readback_and_clone()?.as_slice::<f32>()?, &[1.0, 2.0]);
//!     }
//!     Err(e) => assert!(e.to_string().contains("no CUDA driver"), "{e}"),
//! }
//! # Ok::<(), tftensor::Error>(())
//! ```

mod driver;
mod pinned;
mod readback;
mod tensor;

pub use readback::Readback;
pub use tensor::{DeviceTensor, upload};

use crate::error::{Error, Result};

/// The error for a machine without a usable CUDA driver.
fn no_driver(why: impl std::fmt::Display) -> Error {
    Error::not_found(format!("no CUDA driver: {why}"))
}

/// A failed CUDA driver call, or a bad device tensor.
fn cuda_error(message: impl std::fmt::Display) -> Error {
    Error::invalid_format("CUDA", message.to_string())
}

/// A DLPack device tensor this module cannot hold.
fn invalid(message: impl std::fmt::Display) -> Error {
    Error::InvalidArgument(format!("DLPack device tensor: {message}"))
}

/// How many CUDA devices the driver sees.
///
/// # Errors
/// The "no CUDA driver" error when `libcuda.so.1` is missing or `cuInit`
/// fails.
///
/// ```
/// match tftensor::device::device_count() {
///     Ok(n) => println!("{n} CUDA devices"),
///     Err(e) => assert!(e.to_string().starts_with("no CUDA driver")),
/// }
/// ```
pub fn device_count() -> Result<usize> {
    driver::Driver::get()?.device_count()
}

/// How many bytes of pinned host memory the readback pool keeps for reuse
/// (at most 1 GiB; more is freed as it comes back).
pub fn pinned_cached_bytes() -> usize {
    pinned::cached_bytes()
}
