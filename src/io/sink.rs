//! Writing: every output format is a [`TensorSink`] that takes named
//! tensors one at a time and makes the output appear under its final name
//! only when [`TensorSink::finish`] succeeds.

use crate::error::Result;
use crate::tensor::Tensor;

/// An output being written. Dropping it without [`TensorSink::finish`]
/// leaves nothing under the final name.
///
/// ```
/// use tftensor::io::{create, Format, TensorSink};
/// let dir = std::env::temp_dir().join(format!("sink-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let mut sink = create(dir.join("w.npz"), Format::Npz)?;
/// sink.add("a", &tftensor::Tensor::from(1.0f32))?;
/// sink.finish()?;
/// assert!(dir.join("w.npz").is_file());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait TensorSink: Send {
    /// The format being written.
    fn format(&self) -> super::format::Format;

    /// Keeps the source's metadata (safetensors' `__metadata__` ...) where
    /// the format has a place for it; others ignore it.
    fn set_metadata(&mut self, metadata: &[(String, String)]) {
        let _ = metadata;
    }

    /// Adds one tensor. Errors carry the output's path and the tensor's name.
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()>;

    /// Completes the output and moves it to its final name.
    fn finish(self: Box<Self>) -> Result<()>;
}
