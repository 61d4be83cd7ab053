//! Reading: every format is a [`TensorSource`], a list of [`Entry`]s
//! known without reading tensor data, read one at a time.

use std::ops::Range;
use std::path::Path;

use super::format::Format;
use super::quantization::Quantization;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

/// One tensor of a source, known without reading its data.
///
/// ```
/// use tftensor::{io::Entry, DataType, TensorShape};
/// let e = Entry::new("w", DataType::Float, TensorShape::new(&[2, 3])?);
/// assert_eq!(e.byte_len, Some(24));
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Entry {
    /// The tensor's name (checkpoint key, archive member, record index ...).
    pub name: String,
    /// Its dtype.
    pub dtype: DataType,
    /// Its shape.
    pub shape: TensorShape,
    /// The bytes of its elements when dtype and shape say (every dtype but
    /// string, resource and variant), or when the format stores it.
    pub byte_len: Option<u64>,
    /// How stored values map to real ones, for quantized tensors (TFLite,
    /// TF.js); `None` when they are the real values.
    pub quantization: Option<Quantization>,
}

impl Entry {
    /// An entry whose byte length follows from dtype and shape.
    ///
    /// ```
    /// use tftensor::{io::Entry, DataType, TensorShape};
    /// let e = Entry::new("s", DataType::String, TensorShape::scalar());
    /// assert_eq!(e.byte_len, None);
    /// ```
    pub fn new(name: impl Into<String>, dtype: DataType, shape: TensorShape) -> Entry {
        let byte_len = u64::try_from(shape.num_elements())
            .ok()
            .filter(|_| dtype.can_use_memcpy())
            .and_then(|n| n.checked_mul(dtype.size() as u64));
        Entry {
            name: name.into(),
            dtype,
            shape,
            byte_len,
            quantization: None,
        }
    }

    /// The entry of a tensor already in memory.
    ///
    /// ```
    /// let e = tftensor::io::Entry::of("x", &tftensor::Tensor::from(1.0f32));
    /// assert_eq!(e.byte_len, Some(4));
    /// ```
    pub fn of(name: impl Into<String>, tensor: &Tensor) -> Entry {
        Entry::new(name, tensor.dtype(), tensor.shape().clone())
    }
}

/// A file (or directory, or checkpoint) of named tensors.
///
/// ```
/// use tftensor::io::TensorSource;
/// let mut src = tftensor::io::open("tests/data/checkpoints/tf2_keras")?;
/// let names: Vec<_> = src.entries().iter().map(|e| e.name.clone()).collect();
/// let first = src.read_named(&names[0])?;
/// assert_eq!(first.dtype(), src.entries()[0].dtype);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub trait TensorSource: Send {
    /// The format being read.
    fn format(&self) -> Format;

    /// The path it was opened from.
    fn path(&self) -> &Path;

    /// Every tensor, in the file's order, from headers and indexes only.
    fn entries(&self) -> &[Entry];

    /// Reads tensor `index` of [`TensorSource::entries`]. Errors carry the
    /// path and the tensor's name as fields.
    fn read(&mut self, index: usize) -> Result<Tensor>;

    /// [`TensorSource::read`], telling `on` how many bytes of the entry
    /// have been read as the read goes, for formats that can (`.npy` and
    /// TensorProto files); the others report nothing before they return.
    ///
    /// ```
    /// use tftensor::io::TensorSource;
    /// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
    /// # let p = tmp.path().join("rwp.npy");
    /// # tftensor::npy::write_npy(&p, &tftensor::Tensor::new(tftensor::DataType::Float, [1000])?)?;
    /// let mut src = tftensor::io::open(&p)?;
    /// let mut seen = 0;
    /// let t = src.read_with_progress(0, &mut |n| seen += n)?;
    /// assert!(seen >= 4000); // the data, and the header before it
    /// # std::fs::remove_file(&p).ok();
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn read_with_progress(&mut self, index: usize, on: &mut dyn FnMut(u64)) -> Result<Tensor> {
        let _ = on;
        self.read(index)
    }

    /// Reads every tensor, in [`TensorSource::entries`] order. Formats
    /// that can read them in fewer, larger reads than one per tensor do
    /// (a TFLite model's payloads, in one read of their span); the
    /// tensors may then share that memory until the last is dropped.
    ///
    /// # Errors
    /// As [`TensorSource::read`], for the first tensor that fails.
    ///
    /// ```
    /// use tftensor::io::TensorSource;
    /// let mut src = tftensor::io::open("tests/data/tflite/float32.tflite")?;
    /// let all = src.read_all()?;
    /// assert_eq!(all.len(), src.entries().len());
    /// assert_eq!(all[1], src.read(1)?);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn read_all(&mut self) -> Result<Vec<Tensor>> {
        (0..self.entries().len()).map(|i| self.read(i)).collect()
    }

    /// Reads the tensor named `name`.
    ///
    /// # Errors
    /// [`Error::NotFound`] when there is none; as [`TensorSource::read`].
    fn read_named(&mut self, name: &str) -> Result<Tensor> {
        match self.entries().iter().position(|e| e.name == name) {
            Some(i) => self.read(i),
            None => Err(Error::not_found(format!("no tensor named '{name}'"))
                .with_path(self.path().display())),
        }
    }

    /// Reads the box `ranges` (one range of indices per dimension) of
    /// tensor `index`. Formats that store slices (checkpoints of
    /// partitioned variables) read only the stored slices that overlap it;
    /// the others read the tensor and copy the box out.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when `ranges` does not fit the entry's
    /// shape; as [`TensorSource::read`].
    ///
    /// ```
    /// use tftensor::io::TensorSource;
    /// // A [8, 5] variable saved as 3 slices on 3 shards.
    /// let mut src = tftensor::io::open("tests/data/checkpoints/sharded/ckpt")?;
    /// let i = src.entries().iter().position(|e| e.name.starts_with("big/")).unwrap();
    /// let rows = src.read_slice(i, &[2..6, 0..5])?;
    /// assert_eq!(rows.shape().dim_sizes(), [4, 5]);
    /// assert_eq!(rows.as_slice::<f32>()?[0], 10.0);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn read_slice(&mut self, index: usize, ranges: &[Range<u64>]) -> Result<Tensor> {
        let Some(e) = self.entries().get(index) else {
            return Err(no_index(index, self.path()));
        };
        let name = e.name.clone();
        if let Err(err) = super::slice::check(&e.shape, ranges) {
            return Err(err.with_path(self.path().display()).with_key(name));
        }
        let t = self.read(index)?;
        super::slice::cut(&t, ranges)
            .map_err(|err| err.with_path(self.path().display()).with_key(name))
    }

    /// What the format knows beyond the tensors (safetensors'
    /// `__metadata__`, a Keras config ...), as name and text.
    fn metadata(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// The model's signatures and the ops it uses, as text in the style of
    /// `saved_model_cli show --all`, for a source that holds a model (a
    /// SavedModel directory); `None` for a source of tensors only.
    ///
    /// ```
    /// use tftensor::io::TensorSource;
    /// let src = tftensor::io::open("tests/data/saved_model/keras_export")?;
    /// let text = src.signatures().unwrap()?;
    /// assert!(text.contains("signature_def['serving_default']"));
    /// assert!(tftensor::io::open("tests/data/npy/float32.npy")?.signatures().is_none());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn signatures(&self) -> Option<Result<String>> {
        None
    }
}

/// A source read whole into memory: named tensors, handed out by clone
/// (which shares their buffers).
///
/// ```
/// use tftensor::io::{InMemory, Format, TensorSource};
/// let mut src = InMemory::new(Format::NPZ, "mem", [("a".to_string(), tftensor::Tensor::from(1i32))]);
/// assert_eq!(src.read(0)?.as_slice::<i32>()?, [1]);
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Debug)]
pub struct InMemory {
    format: Format,
    path: std::path::PathBuf,
    entries: Vec<Entry>,
    tensors: Vec<Tensor>,
    metadata: Vec<(String, String)>,
}

impl InMemory {
    /// The tensors in order, with their names.
    ///
    /// ```
    /// use tftensor::io::{Format, InMemory, TensorSource};
    /// let src = InMemory::new(Format::NPZ, "mem", [("x".to_string(), tftensor::Tensor::from(2u8))]);
    /// assert_eq!(src.entries()[0].name, "x");
    /// ```
    pub fn new(
        format: Format,
        path: impl Into<std::path::PathBuf>,
        named: impl IntoIterator<Item = (String, Tensor)>,
    ) -> InMemory {
        let (entries, tensors) = named
            .into_iter()
            .map(|(name, t)| (Entry::of(name, &t), t))
            .unzip();
        InMemory {
            format,
            path: path.into(),
            entries,
            tensors,
            metadata: Vec::new(),
        }
    }

    /// With metadata for [`TensorSource::metadata`].
    ///
    /// ```
    /// use tftensor::io::{Format, InMemory, TensorSource};
    /// let src = InMemory::new(Format::SAFETENSORS, "m", []).with_metadata(vec![("k".into(), "v".into())]);
    /// assert_eq!(src.metadata(), [("k".to_string(), "v".to_string())]);
    /// ```
    pub fn with_metadata(mut self, metadata: Vec<(String, String)>) -> InMemory {
        self.metadata = metadata;
        self
    }
}

impl TensorSource for InMemory {
    fn format(&self) -> Format {
        self.format
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        self.tensors
            .get(index)
            .cloned()
            .ok_or_else(|| no_index(index, &self.path))
    }

    fn metadata(&self) -> Vec<(String, String)> {
        self.metadata.clone()
    }
}

/// What a [`Listed`] source needs from its format: reading one entry.
pub(crate) trait ReadEntry: Send {
    /// Reads entry `index` (`entry` is its listing), telling `on` the
    /// bytes read as it goes where the format can (others ignore it).
    fn read_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        on: &mut dyn FnMut(u64),
    ) -> Result<Tensor>;

    /// Reads the box `ranges` (checked against `entry`'s shape) of entry
    /// `index`: by default the whole tensor, then the box copied out.
    fn read_entry_slice(
        &mut self,
        index: usize,
        entry: &Entry,
        ranges: &[Range<u64>],
    ) -> Result<Tensor> {
        super::slice::cut(&self.read_entry(index, entry, &mut |_| {})?, ranges)
    }

    /// Reads every entry, in order; `None` where the format reads them
    /// one at a time, as [`ReadEntry::read_entry`] does.
    fn read_all_entries(&mut self) -> Option<Result<Vec<Tensor>>> {
        None
    }

    /// As [`TensorSource::metadata`].
    fn metadata(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// As [`TensorSource::signatures`].
    fn signatures(&self) -> Option<Result<String>> {
        None
    }
}

/// A source listed up front and read one entry at a time by its format's
/// reader `R`; errors get the path and the entry's name as fields here, once
/// for every format.
pub(crate) struct Listed<R> {
    pub(crate) format: Format,
    pub(crate) path: std::path::PathBuf,
    pub(crate) entries: Vec<Entry>,
    pub(crate) reader: R,
}

impl<R: ReadEntry> TensorSource for Listed<R> {
    fn format(&self) -> Format {
        self.format
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        self.read_with_progress(index, &mut |_| {})
    }

    /// Reads the entry and checks it is what was listed: a file changed
    /// since (or a format whose header and data disagree) is data loss,
    /// for every format here.
    fn read_with_progress(&mut self, index: usize, on: &mut dyn FnMut(u64)) -> Result<Tensor> {
        let e = self
            .entries
            .get(index)
            .ok_or_else(|| no_index(index, &self.path))?;
        self.reader
            .read_entry(index, e, on)
            .and_then(|t| as_listed(t, e))
            .map_err(|err| err.with_path(self.path.display()).with_key(&e.name))
    }

    fn read_all(&mut self) -> Result<Vec<Tensor>> {
        let Some(all) = self.reader.read_all_entries() else {
            return (0..self.entries.len()).map(|i| self.read(i)).collect();
        };
        let all = all.map_err(|err| err.with_path(self.path.display()))?;
        if all.len() != self.entries.len() {
            return Err(Error::data_loss(format!(
                "read {} tensors, listed {}",
                all.len(),
                self.entries.len()
            ))
            .with_path(self.path.display()));
        }
        all.into_iter()
            .zip(&self.entries)
            .map(|(t, e)| {
                as_listed(t, e).map_err(|err| err.with_path(self.path.display()).with_key(&e.name))
            })
            .collect()
    }

    fn read_slice(&mut self, index: usize, ranges: &[Range<u64>]) -> Result<Tensor> {
        let e = self
            .entries
            .get(index)
            .ok_or_else(|| no_index(index, &self.path))?;
        super::slice::check(&e.shape, ranges)
            .and_then(|()| self.reader.read_entry_slice(index, e, ranges))
            .map_err(|err| err.with_path(self.path.display()).with_key(&e.name))
    }

    fn metadata(&self) -> Vec<(String, String)> {
        self.reader.metadata()
    }

    fn signatures(&self) -> Option<Result<String>> {
        self.reader.signatures()
    }
}

/// `t`, when it is what `e` listed: a file changed since it was listed
/// (or a format whose header and data disagree) is data loss, for every
/// format here.
fn as_listed(t: Tensor, e: &Entry) -> Result<Tensor> {
    if t.dtype() == e.dtype && t.shape() == &e.shape {
        return Ok(t);
    }
    Err(Error::data_loss(format!(
        "read as {} {}, listed as {} {} (changed since it was listed?)",
        t.dtype().name(),
        t.shape(),
        e.dtype.name(),
        e.shape
    )))
}

/// The error for an index past the entries.
pub(crate) fn no_index(index: usize, path: &Path) -> Error {
    Error::not_found(format!("no tensor number {index}")).with_path(path.display())
}
