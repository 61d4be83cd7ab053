//! Writing: every output format is a [`Sink`] that takes named tensors one
//! at a time and makes the output appear under its final name only when
//! [`Sink::finish`] succeeds.

use anyhow::Result;
use tftensor::Tensor;

/// An output being written.
pub trait Sink {
    /// Adds one tensor. Errors name the output and the tensor.
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()>;
    /// Completes the output and moves it to its final name. Dropping a
    /// sink without finishing leaves nothing under the final name.
    fn finish(self: Box<Self>) -> Result<()>;
}
