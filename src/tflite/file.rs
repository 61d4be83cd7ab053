//! [`TfliteFile`]: a `.tflite` model's stored tensors, listed from the
//! flatbuffer alone and read in place from its [`Blob`]: inline data,
//! offset mode's payloads after the flatbuffer, and external buffers in
//! files beside the model.

use std::sync::Arc;

use bytes::Bytes;

use super::dtype::{dtype_of, packed_bits};
use super::model::{Buffer, Model, QuantParams, TensorInfo};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::{Blob, Blockwise, Entry, Quantization};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

/// Opens a sibling file of the model (an external buffer group) by its
/// name relative to the model.
pub(crate) type Siblings = Box<dyn Fn(&str) -> Result<Arc<dyn Blob>> + Send + Sync>;

/// The local file `path` and its siblings (external buffers, shards), each
/// opened by name beside it.
pub(crate) fn local_with_siblings(path: &std::path::Path) -> Result<(Arc<dyn Blob>, Siblings)> {
    let blob: Arc<dyn Blob> = Arc::new(crate::io::LocalFile::open(path)?);
    let path = path.to_path_buf();
    let siblings: Siblings = Box::new(move |name| {
        Ok(Arc::new(crate::io::LocalFile::open(path.with_file_name(name))?) as Arc<dyn Blob>)
    });
    Ok((blob, siblings))
}

/// One stored tensor of a model: its [`Entry`] and where it is in the
/// model.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TensorEntry {
    /// Name (`SUBGRAPH/NAME` past subgraph 0), dtype, shape, byte length
    /// (one value per byte for int4/uint4/int2) and quantization.
    pub entry: Entry,
    /// The subgraph.
    pub subgraph: usize,
    /// The tensor's index in the subgraph (the interpreter's index, for
    /// subgraph 0).
    pub index: usize,
    /// The TFLite `TensorType` id.
    pub tensor_type: i8,
    /// The shape with -1 for unknown dimensions, where the file has one.
    pub shape_signature: Option<Vec<i64>>,
    /// The bytes stored (packed for int4/uint4/int2).
    pub stored_len: u64,
}

/// A `.tflite` model: its structure and its stored tensors.
///
/// ```
/// let f = tftensor::tflite::TfliteFile::open("tests/data/tflite/float32.tflite")?;
/// let first = &f.tensors()[0];
/// let t = f.read(0)?;
/// assert_eq!((t.dtype(), t.shape()), (first.entry.dtype, &first.entry.shape));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct TfliteFile {
    blob: Arc<dyn Blob>,
    model: Model,
    tensors: Vec<TensorEntry>,
    siblings: Option<Siblings>,
}

impl std::fmt::Debug for TfliteFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TfliteFile")
            .field("blob", &self.blob.id())
            .field("tensors", &self.tensors.len())
            .finish_non_exhaustive()
    }
}

impl TfliteFile {
    /// Opens the model at `path` (a local file, read by range).
    ///
    /// # Errors
    /// [`Error::Io`]; [`Error::DataLoss`] for a file that is not a valid
    /// TFLite flatbuffer.
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<TfliteFile> {
        let (blob, siblings) = local_with_siblings(path.as_ref())?;
        TfliteFile::with_siblings(blob, Some(siblings))
    }

    /// The model in `blob` (a file, a map, bytes, a zip member); reading a
    /// tensor in an external buffer file is then an error.
    ///
    /// # Errors
    /// As [`Model::parse`]; [`Error::DataLoss`] for a tensor whose type,
    /// shape or quantization cannot be.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tftensor::io::{Blob, BytesBlob};
    /// let bytes = std::fs::read("tests/data/tflite/int8.tflite")?;
    /// let blob: Arc<dyn Blob> = Arc::new(BytesBlob::new("int8.tflite", bytes));
    /// let f = tftensor::tflite::TfliteFile::from_blob(blob)?;
    /// assert!(f.tensors().iter().any(|t| t.entry.quantization.is_some()));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_blob(blob: Arc<dyn Blob>) -> Result<TfliteFile> {
        TfliteFile::with_siblings(blob, None)
    }

    /// The model in `blob`; `siblings` opens the files its external
    /// buffers name.
    pub(crate) fn with_siblings(
        blob: Arc<dyn Blob>,
        siblings: Option<Siblings>,
    ) -> Result<TfliteFile> {
        let model = Model::parse(blob.clone())?;
        let tensors = list(&model).map_err(|e| e.with_path(blob.id()))?;
        Ok(TfliteFile {
            blob,
            model,
            tensors,
            siblings,
        })
    }

    /// The model's structure.
    pub fn model(&self) -> &Model {
        &self.model
    }

    /// Every tensor with stored data, subgraph by subgraph.
    pub fn tensors(&self) -> &[TensorEntry] {
        &self.tensors
    }

    /// The byte source the model is read from.
    pub fn blob(&self) -> &Arc<dyn Blob> {
        &self.blob
    }

    /// Reads stored tensor `i` of [`tensors`](Self::tensors): in place
    /// where the bytes are mapped and aligned for the dtype, else copied
    /// once; int4/uint4/int2 unpacked to one value per byte; strings from
    /// TFLite's layout (count, offsets, bytes).
    ///
    /// # Errors
    /// [`Error::NotFound`] for no such tensor; [`Error::DataLoss`] for
    /// bytes outside the file or of the wrong length.
    pub fn read(&self, i: usize) -> Result<Tensor> {
        let t = self
            .tensors
            .get(i)
            .ok_or_else(|| Error::not_found(format!("no tensor number {i}")))?;
        self.read_entry(t).map_err(|e| e.with_key(&t.entry.name))
    }

    /// Reads every stored tensor, in [`tensors`](Self::tensors) order.
    /// Where the payloads fill most of the span of the model's file they
    /// lie in, that span is read once (on two cores, into huge pages when
    /// large) and the tensors share it, instead of one small read and one
    /// fresh allocation per tensor; the span is freed when the last of
    /// them is dropped. Other tensors are read as [`read`](Self::read)
    /// reads them.
    ///
    /// # Errors
    /// As [`read`](Self::read), for the first tensor that fails.
    ///
    /// ```
    /// let f = tftensor::tflite::TfliteFile::open("tests/data/tflite/float32.tflite")?;
    /// let all = f.read_all()?;
    /// assert_eq!(all.len(), f.tensors().len());
    /// assert_eq!(all[0], f.read(0)?);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn read_all(&self) -> Result<Vec<Tensor>> {
        let span = self.payload_span()?;
        self.tensors
            .iter()
            .map(|t| {
                self.read_in(t, span.as_ref())
                    .map_err(|e| e.with_key(&t.entry.name))
            })
            .collect()
    }

    /// The bytes from the first to the last payload in the model's own
    /// file, with their offset, when the payloads are at least half of
    /// them (else reading the span would read mostly other bytes). `None`
    /// for a mapped file, whose payloads are read in place anyway.
    fn payload_span(&self) -> Result<Option<(u64, Bytes)>> {
        if self.blob.mapped().is_some() {
            return Ok(None);
        }
        let (mut lo, mut hi, mut used) = (u64::MAX, 0u64, 0u64);
        for t in &self.tensors {
            // A tensor the model lacks is left to its own read's error.
            let Ok(info) = self.info(t) else { continue };
            if info.sparse || info.external_buffer != 0 {
                continue;
            }
            if let Some(&Buffer::At { offset, len }) = self.model.buffers.get(info.buffer as usize)
            {
                lo = lo.min(offset);
                hi = hi.max(offset.saturating_add(len));
                used = used.saturating_add(len);
            }
        }
        // Past the end is left to each tensor's own read, whose error
        // names it.
        hi = hi.min(self.blob.len());
        // From a 64-byte boundary, so every payload keeps its file
        // alignment in memory (inline data is 16-aligned in the file).
        lo -= lo % 64;
        if lo >= hi || used.saturating_mul(2) < hi - lo {
            return Ok(None);
        }
        Ok(Some((lo, (*self.blob).read_bytes(lo..hi)?)))
    }

    fn read_entry(&self, t: &TensorEntry) -> Result<Tensor> {
        self.read_in(t, None)
    }

    /// Reads `t`, from `span` (bytes at an offset of the model's file)
    /// where its payload lies in it.
    fn read_in(&self, t: &TensorEntry, span: Option<&(u64, Bytes)>) -> Result<Tensor> {
        let info = self.info(t)?;
        if info.sparse {
            return Err(Error::InvalidArgument(
                "a sparse tensor (its buffer holds the sparse values; densifying is not supported)"
                    .into(),
            ));
        }
        let bytes = match (span, self.model.buffers.get(info.buffer as usize)) {
            (Some((start, all)), Some(&Buffer::At { offset, len }))
                if info.external_buffer == 0
                    && offset >= *start
                    && offset.saturating_add(len) <= start + all.len() as u64 =>
            {
                // In the span: checked just above.
                let a = (offset - start) as usize;
                all.slice(a..a + len as usize)
            }
            _ => self.stored_bytes(info)?,
        };
        decode(t.entry.dtype, &t.entry.shape, bytes)
    }

    fn info(&self, t: &TensorEntry) -> Result<&TensorInfo> {
        self.model
            .subgraphs
            .get(t.subgraph)
            .and_then(|g| g.tensors.get(t.index))
            .ok_or_else(|| Error::not_found("no such tensor in the model"))
    }

    /// The stored bytes of a tensor: its buffer, or its external buffer.
    fn stored_bytes(&self, info: &TensorInfo) -> Result<Bytes> {
        if info.external_buffer != 0 {
            let ext = self
                .model
                .external_buffers
                .iter()
                .find(|e| e.id == info.external_buffer)
                .ok_or_else(|| Error::data_loss("an external buffer id the model lacks"))?;
            let group = self
                .model
                .external_buffer_groups
                .get(ext.group as usize)
                .ok_or_else(|| Error::data_loss("an external buffer group the model lacks"))?;
            let open = self.siblings.as_ref().ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "external buffer file {group:?} cannot be opened from here"
                ))
            })?;
            let file = open(group)?;
            let end = ext.offset.saturating_add(ext.length);
            return (*file).read_bytes(ext.offset..end);
        }
        match self.model.buffers.get(info.buffer as usize) {
            Some(&Buffer::At { offset, len }) => {
                let end = offset.saturating_add(len);
                (*self.blob).read_bytes(offset..end)
            }
            _ => Err(Error::data_loss("the tensor's buffer holds no data")),
        }
    }

    /// The bytes of metadata buffer `name` (`min_runtime_version`,
    /// `TFLITE_METADATA`, ...); `None` when the model has none by that
    /// name.
    ///
    /// # Errors
    /// [`Error::DataLoss`] for a buffer outside the file.
    ///
    /// ```
    /// let f = tftensor::tflite::TfliteFile::open("tests/data/tflite/float32.tflite")?;
    /// let v = f.metadata_bytes("min_runtime_version")?.unwrap();
    /// assert!(v.starts_with(b"1."));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn metadata_bytes(&self, name: &str) -> Result<Option<Bytes>> {
        let Some(m) = self.model.metadata.iter().find(|m| m.name == name) else {
            return Ok(None);
        };
        match self.model.buffers.get(m.buffer as usize) {
            Some(&Buffer::At { offset, len }) => {
                let end = offset.saturating_add(len);
                Ok(Some((*self.blob).read_bytes(offset..end)?))
            }
            Some(Buffer::Empty) => Ok(Some(Bytes::new())),
            None => Err(Error::data_loss("a metadata buffer the model lacks")
                .with_path(self.blob.id())
                .with_key(name)),
        }
    }
}

/// Whether a tensor has stored data: a buffer with bytes, or an external
/// buffer (activations have buffers of their own that are empty).
fn has_data(model: &Model, t: &TensorInfo) -> bool {
    t.external_buffer != 0
        || matches!(
            model.buffers.get(t.buffer as usize),
            Some(Buffer::At { .. })
        )
}

/// Every stored tensor's entry.
fn list(model: &Model) -> Result<Vec<TensorEntry>> {
    let mut out = Vec::new();
    for (g, sub) in model.subgraphs.iter().enumerate() {
        let prefix = match (g, sub.name.as_str()) {
            (0, _) => String::new(),
            (_, "") => format!("subgraph{g}/"),
            (_, name) => format!("{name}/"),
        };
        for (index, t) in sub.tensors.iter().enumerate() {
            if !has_data(model, t) {
                continue;
            }
            let at = |e: Error| e.with_key(format!("{prefix}{}", t.name));
            let dtype = dtype_of(t.tensor_type).ok_or_else(|| {
                at(Error::data_loss(format!(
                    "unknown TFLite tensor type {}",
                    t.tensor_type
                )))
            })?;
            let dims: Vec<i64> = t.shape.iter().map(|&d| i64::from(d)).collect();
            let dims = TensorShape::new(&dims).map_err(at)?;
            let mut entry = Entry::new(format!("{prefix}{}", t.name), dtype, dims);
            if dtype == DataType::String {
                entry.byte_len = None;
            }
            entry.quantization = t
                .quantization
                .as_ref()
                .map(|q| quantization(q, sub, &prefix))
                .transpose()
                .map_err(at)?;
            let stored_len = match model.buffers.get(t.buffer as usize) {
                Some(Buffer::At { len, .. }) => *len,
                // No stored buffer, so `has_data` found an external one.
                _ => model
                    .external_buffers
                    .iter()
                    .find(|e| e.id == t.external_buffer)
                    .map(|e| e.length)
                    .ok_or_else(|| at(Error::data_loss("an external buffer id the model lacks")))?,
            };
            out.push(TensorEntry {
                entry,
                subgraph: g,
                index,
                tensor_type: t.tensor_type,
                shape_signature: t
                    .shape_signature
                    .as_ref()
                    .map(|s| s.iter().map(|&d| i64::from(d)).collect()),
                stored_len,
            });
        }
    }
    Ok(out)
}

/// A tensor's quantization in `io`'s terms; blockwise scales named as the
/// entries of their tensors.
fn quantization(
    q: &QuantParams,
    sub: &super::model::Subgraph,
    prefix: &str,
) -> Result<Quantization> {
    let name_of = |i: i32| -> Result<String> {
        usize::try_from(i)
            .ok()
            .and_then(|i| sub.tensors.get(i))
            .map(|t| format!("{prefix}{}", t.name))
            .ok_or_else(|| Error::data_loss(format!("blockwise tensor index {i} out of range")))
    };
    let mut out = Quantization::per_axis(
        q.scale.iter().map(|&s| f64::from(s)).collect(),
        q.zero_point.clone(),
        usize::try_from(q.quantized_dimension)
            .map_err(|_| Error::data_loss("a negative quantized dimension"))?,
    );
    if let Some(b) = q.blockwise {
        out.blockwise = Some(Blockwise {
            block_size: u64::try_from(b.block_size)
                .ok()
                .filter(|&s| s > 0)
                .ok_or_else(|| Error::data_loss("a block size under 1"))?,
            scales: name_of(b.scales)?,
            zero_points: (b.zero_points >= 0)
                .then(|| name_of(b.zero_points))
                .transpose()?,
        });
    }
    Ok(out)
}

/// A tensor from its stored bytes.
pub(crate) fn decode(dtype: DataType, shape: &TensorShape, bytes: Bytes) -> Result<Tensor> {
    let n = u64::try_from(shape.num_elements())
        .map_err(|_| Error::data_loss("a shape with too many elements"))?;
    if let Some(bits) = packed_bits(dtype) {
        return unpack(dtype, shape, &bytes, n, bits);
    }
    match dtype {
        DataType::String => strings(shape, &bytes, n),
        DataType::Resource | DataType::Variant => Err(Error::unsupported(
            dtype,
            format!("{dtype} tensors hold no stored values to read"),
        )),
        _ => {
            let want = n.saturating_mul(dtype.size() as u64);
            if bytes.len() as u64 != want {
                return Err(Error::data_loss(format!(
                    "{} bytes stored for {n} {dtype} values ({want} bytes)",
                    bytes.len()
                )));
            }
            Tensor::from_buffer(dtype, shape.clone(), bytes)
        }
    }
}

/// Values packed `bits` to a byte, lowest bits first, as one per byte
/// (sign-extended for the signed types).
fn unpack(dtype: DataType, shape: &TensorShape, bytes: &[u8], n: u64, bits: u32) -> Result<Tensor> {
    let per_byte = u64::from(8 / bits);
    if bytes.len() as u64 != n.div_ceil(per_byte) {
        return Err(Error::data_loss(format!(
            "{} bytes stored for {n} packed {dtype} values",
            bytes.len()
        )));
    }
    let signed = matches!(dtype, DataType::Int4 | DataType::Int2);
    let mask = (1u8 << bits) - 1;
    let mut out = crate::buffer::try_vec::<u8>(n as usize)?;
    for &b in bytes {
        for k in 0..per_byte as u32 {
            let v = (b >> (k * bits)) & mask;
            let v = if signed && v >> (bits - 1) != 0 {
                v | !mask
            } else {
                v
            };
            out.push(v);
        }
    }
    out.truncate(n as usize);
    Tensor::from_buffer(dtype, shape.clone(), Bytes::from(out))
}

/// TFLite's string buffer: an i32 count N, N + 1 i32 offsets from the
/// buffer's start, then the bytes; each string is a slice of the buffer.
fn strings(shape: &TensorShape, bytes: &Bytes, n: u64) -> Result<Tensor> {
    let word = |k: u64| -> Result<u64> {
        let at = k
            .checked_mul(4)
            .and_then(|a| usize::try_from(a).ok())
            .filter(|&a| a <= bytes.len());
        at.and_then(|at| bytes.get(at..at.checked_add(4)?))
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map(|w| u64::from(u32::from_le_bytes(w)))
            .ok_or_else(|| Error::data_loss("a string buffer cut short"))
    };
    let count = word(0)?;
    if count != n {
        return Err(Error::data_loss(format!(
            "a string buffer of {count} strings for {n} elements"
        )));
    }
    let mut out = crate::buffer::try_vec::<Bytes>(n as usize)?;
    let mut start = word(1)?;
    for k in 0..n {
        let end = word(k + 2)?;
        if start > end || end > bytes.len() as u64 {
            return Err(Error::data_loss(
                "a string offset out of order or past the buffer",
            ));
        }
        out.push(bytes.slice(start as usize..end as usize));
        start = end;
    }
    Tensor::from_vec(shape.clone(), out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;

    #[test]
    fn an_external_buffer_id_the_model_lacks_is_data_loss_when_listed() {
        // Listed with a stored length of 0 before, as if it held nothing.
        let t = TensorInfo {
            name: "w".into(),
            tensor_type: 0, // FLOAT32
            shape: vec![2],
            external_buffer: 7,
            ..TensorInfo::default()
        };
        let model = Model {
            subgraphs: vec![super::super::model::Subgraph {
                tensors: vec![t],
                ..Default::default()
            }],
            buffers: vec![Buffer::Empty],
            ..Model::default()
        };
        let err = list(&model).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::DataLoss, "{err}");
        assert_eq!(err.key(), Some("w"));
    }
}
