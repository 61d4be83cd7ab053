//! Writing: every output format is a [`TensorSink`] that takes named
//! tensors one at a time and makes the output appear under its final name
//! only when [`TensorSink::finish`] succeeds.

use crate::error::Result;
use crate::tensor::Tensor;

/// An output being written. Dropping it without [`TensorSink::finish`]
/// leaves nothing under the final name.
///
/// ```
/// use tftensor::io::{create, TensorSink};
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("sink-doc");
/// std::fs::create_dir_all(&dir)?;
/// let mut sink = create(dir.join("w.npz"))?;
/// sink.add("a", &tftensor::Tensor::from(1.0f32))?;
/// sink.finish()?;
/// assert!(dir.join("w.npz").is_file());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait TensorSink: Send {
    /// The format being written.
    fn format(&self) -> super::format::Format;

    /// The path (or URL) being written, as errors name it.
    fn path(&self) -> &std::path::Path;

    /// Keeps the source's metadata (safetensors' `__metadata__` ...) where
    /// the format has a place for it; others ignore it.
    fn set_metadata(&mut self, metadata: &[(String, String)]) {
        let _ = metadata;
    }

    /// Told, before the first [`add`](Self::add), the tensors that will be
    /// added (names, dtypes, shapes): a format whose header lists every
    /// tensor before any data (safetensors) then writes each tensor as it
    /// comes instead of holding them all until [`finish`](Self::finish).
    /// After a plan, `add` takes exactly the planned tensors, in any order.
    /// Formats that write as they go ignore it. [`copy`](super::copy)
    /// always plans. Call [`set_metadata`](Self::set_metadata) first: a
    /// header written at the plan cannot take metadata given later.
    ///
    /// # Errors
    /// As `add` would give for the planned tensors (a dtype the format
    /// cannot hold, a repeated name), and I/O errors.
    ///
    /// ```
    /// use tftensor::io::{create, Entry, TensorSink};
    /// use tftensor::{DataType, Tensor, TensorShape};
    /// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// let dir = tmp.path().join("plan-doc");
    /// std::fs::create_dir_all(&dir)?;
    /// let mut sink = create(dir.join("w.safetensors"))?;
    /// sink.plan(&[Entry::new("w", DataType::Float, TensorShape::new(&[2])?)])?;
    /// sink.add("w", &Tensor::from_vec([2], vec![1.0f32, 2.0])?)?;
    /// sink.finish()?;
    /// # std::fs::remove_dir_all(&dir).ok();
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    fn plan(&mut self, tensors: &[super::Entry]) -> Result<()> {
        let _ = tensors;
        Ok(())
    }

    /// Adds one tensor. Errors carry the output's path and the tensor's name.
    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()>;

    /// [`add`](Self::add), telling `on` how many more bytes of the tensor
    /// have been written as the write goes, for sinks whose write of one
    /// tensor takes long (TFRecord files, which compress as they write);
    /// the others report nothing before they return. The counts may
    /// include a little framing beside the tensor's bytes.
    /// [`copy`](super::copy) reports them as
    /// [`CopyEvent::Writing`](super::CopyEvent::Writing).
    ///
    /// ```
    /// use tftensor::io::{create, TensorSink};
    /// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// let mut sink = create(tmp.path().join("w.tfrecord.gz"))?;
    /// let big = tftensor::Tensor::new(tftensor::DataType::UInt8, [3 << 20])?;
    /// let mut seen = Vec::new();
    /// sink.add_with_progress("x", &big, &mut |n| seen.push(n))?;
    /// assert!(seen.len() > 1); // while it was compressing
    /// assert!(seen.iter().sum::<u64>() >= 3 << 20);
    /// sink.finish()?;
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn add_with_progress(
        &mut self,
        name: &str,
        tensor: &Tensor,
        on: &mut dyn FnMut(u64),
    ) -> Result<()> {
        let _ = on;
        self.add(name, tensor)
    }

    /// Completes the output and moves it to its final name.
    fn finish(self: Box<Self>) -> Result<()>;
}

/// What a [`Written`] sink needs from a format's own atomic writer.
#[cfg(any(feature = "checkpoint", feature = "keras"))]
pub(crate) trait WriteEntry: Send {
    /// Adds one tensor.
    fn write_entry(&mut self, name: &str, tensor: &Tensor) -> Result<()>;

    /// Completes the output under its final name.
    fn finish_all(self) -> Result<()>;
}

/// A sink over a format writer that is atomic itself (it writes under a
/// temporary name and renames at the end); errors get the path and the
/// tensor's name as fields here, once for every format.
#[cfg(any(feature = "checkpoint", feature = "keras"))]
pub(crate) struct Written<W> {
    pub(crate) format: super::format::Format,
    pub(crate) path: std::path::PathBuf,
    pub(crate) writer: W,
}

#[cfg(any(feature = "checkpoint", feature = "keras"))]
impl<W: WriteEntry> TensorSink for Written<W> {
    fn format(&self) -> super::format::Format {
        self.format
    }

    fn path(&self) -> &std::path::Path {
        &self.path
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        self.writer.write_entry(name, tensor)
    }

    fn finish(self: Box<Self>) -> Result<()> {
        self.writer.finish_all()
    }
}

/// A format's sink as [`create_located`](super::create_located) hands it
/// out: every error carries the output's path (and the tensor's name) as
/// fields, here, once for every format.
pub(crate) struct Output(pub(crate) Box<dyn TensorSink>);

impl TensorSink for Output {
    fn format(&self) -> super::format::Format {
        self.0.format()
    }

    fn path(&self) -> &std::path::Path {
        self.0.path()
    }

    fn set_metadata(&mut self, metadata: &[(String, String)]) {
        self.0.set_metadata(metadata);
    }

    fn plan(&mut self, tensors: &[super::Entry]) -> Result<()> {
        let path = self.0.path().display().to_string();
        self.0.plan(tensors).map_err(|e| e.with_path(path))
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let path = self.0.path().display().to_string();
        self.0
            .add(name, tensor)
            .map_err(|e| e.with_path(path).with_key(name))
    }

    fn add_with_progress(
        &mut self,
        name: &str,
        tensor: &Tensor,
        on: &mut dyn FnMut(u64),
    ) -> Result<()> {
        let path = self.0.path().display().to_string();
        self.0
            .add_with_progress(name, tensor, on)
            .map_err(|e| e.with_path(path).with_key(name))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let path = self.0.path().display().to_string();
        self.0.finish().map_err(|e| e.with_path(path))
    }
}
