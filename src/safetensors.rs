//! Hugging Face `.safetensors` files (feature `safetensors`, on by default).
//!
//! The header and layout are the `safetensors` crate's: it
//! parses and validates the JSON header (offsets contiguous, sizes matching
//! shape and dtype, the file exactly covered) and writes files. This module
//! maps its dtypes to TensorFlow's and its byte ranges to [`Tensor`]s:
//!
//! | safetensors | TF | | safetensors | TF |
//! |---|---|---|---|---|
//! | `BOOL` | `bool` | | `F16` | `half` |
//! | `U8`, `I8` | `uint8`, `int8` | | `BF16` | `bfloat16` |
//! | `U16`, `I16` | `uint16`, `int16` | | `F32`, `F64` | `float`, `double` |
//! | `U32`, `I32` | `uint32`, `int32` | | `C64` | `complex64` |
//! | `U64`, `I64` | `uint64`, `int64` | | `F8_E4M3`, `F8_E5M2` | `float8_e4m3fn`, `float8_e5m2` |
//! | | | | `F8_E4M3FNUZ`, `F8_E5M2FNUZ` | `float8_e4m3fnuz`, `float8_e5m2fnuz` |
//!
//! `F4`, `F6_E2M3`, `F6_E3M2` and `F8_E8M0` have no TF equivalent: loading a
//! file holding one fails with an error naming the tensor and the dtype. TF
//! dtypes without a safetensors one (strings, complex128, int4, the
//! quantized types, float8_e4m3b11fnuz, ...) cannot be saved.
//!
//! **Zero copy**: [`load_bytes`] and [`load_mmap`] adopt each tensor's bytes
//! in place when its offset is element-aligned, and copy it once otherwise
//! (the format does not promise alignment; files written by the Python and
//! Rust libraries are aligned).
//!
//! ```
//! use tftensor::{safetensors, Tensor};
//! # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
//! # let dir = tmp.path().join("st-doc");
//! # std::fs::create_dir_all(&dir)?;
//! let w = Tensor::from_vec([2, 2], vec![1.0f32, 2.0, 3.0, 4.0])?;
//! let b = Tensor::from_vec([2], vec![half::bf16::ONE, half::bf16::ZERO])?;
//! safetensors::save(dir.join("m.safetensors"), [("w", &w), ("b", &b)])?;
//! let loaded = safetensors::load(dir.join("m.safetensors"))?;
//! assert_eq!(loaded, vec![("w".to_string(), w), ("b".to_string(), b)]);
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashSet;
use std::path::Path;

use ::safetensors::tensor::{Dtype, SafeTensorError};
use bytes::Bytes;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::{Blob, BytesBlob, LocalFile};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

/// The header-length prefix.
const N_LEN: usize = 8;

fn bad(what: &str, message: impl std::fmt::Display) -> Error {
    Error::invalid_format("safetensors", message.to_string()).with_path(what)
}

/// The TF dtype of a safetensors dtype, if TF has the same format.
fn to_tf(d: Dtype) -> Option<DataType> {
    Some(match d {
        Dtype::BOOL => DataType::Bool,
        Dtype::U8 => DataType::UInt8,
        Dtype::I8 => DataType::Int8,
        Dtype::F8_E5M2 => DataType::Float8E5M2,
        Dtype::F8_E4M3 => DataType::Float8E4M3FN,
        Dtype::F8_E4M3FNUZ => DataType::Float8E4M3FNUZ,
        Dtype::F8_E5M2FNUZ => DataType::Float8E5M2FNUZ,
        Dtype::I16 => DataType::Int16,
        Dtype::U16 => DataType::UInt16,
        Dtype::F16 => DataType::Half,
        Dtype::BF16 => DataType::BFloat16,
        Dtype::I32 => DataType::Int32,
        Dtype::U32 => DataType::UInt32,
        Dtype::F32 => DataType::Float,
        Dtype::C64 => DataType::Complex64,
        Dtype::F64 => DataType::Double,
        Dtype::I64 => DataType::Int64,
        Dtype::U64 => DataType::UInt64,
        // F4, F6_E2M3, F6_E3M2, F8_E8M0, and whatever later versions add.
        _ => return None,
    })
}

/// The safetensors dtype of a TF dtype, if there is one.
fn from_tf(d: DataType) -> Option<Dtype> {
    Some(match d {
        DataType::Bool => Dtype::BOOL,
        DataType::UInt8 => Dtype::U8,
        DataType::Int8 => Dtype::I8,
        DataType::Float8E5M2 => Dtype::F8_E5M2,
        DataType::Float8E4M3FN => Dtype::F8_E4M3,
        DataType::Float8E4M3FNUZ => Dtype::F8_E4M3FNUZ,
        DataType::Float8E5M2FNUZ => Dtype::F8_E5M2FNUZ,
        DataType::Int16 => Dtype::I16,
        DataType::UInt16 => Dtype::U16,
        DataType::Half => Dtype::F16,
        DataType::BFloat16 => Dtype::BF16,
        DataType::Int32 => Dtype::I32,
        DataType::UInt32 => Dtype::U32,
        DataType::Float => Dtype::F32,
        DataType::Complex64 => Dtype::C64,
        DataType::Double => Dtype::F64,
        DataType::Int64 => Dtype::I64,
        DataType::UInt64 => Dtype::U64,
        _ => return None,
    })
}

fn st_err(what: &str, e: SafeTensorError) -> Error {
    match e {
        SafeTensorError::IoError(io) => Error::io(what, &io),
        other => bad(what, other),
    }
}

/// Loads every tensor of a `.safetensors` file, in file (offset) order.
///
/// The header is read first (one read of the first 64 KiB), then the data
/// once, whole (from 4 MiB into a huge-page-advised anonymous map,
/// page-aligned; on two cores when large), and the tensors are adopted
/// from that buffer without further copies.
///
/// # Errors
/// [`Error::Io`]; [`Error::InvalidFormat`] for a bad header (the
/// `safetensors` crate's checks), a dtype without a TF equivalent (naming
/// the tensor and dtype), or a `BOOL` byte other than 0 or 1.
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("st-load.safetensors");
/// let t = tftensor::Tensor::from_vec([3], vec![1i64, 2, 3])?;
/// tftensor::safetensors::save(&p, [("ids", &t)])?;
/// let (name, back) = &tftensor::safetensors::load(&p)?[0];
/// assert_eq!((name.as_str(), back), ("ids", &t));
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn load<P: AsRef<Path>>(path: P) -> Result<Vec<(String, Tensor)>> {
    load_blob(&LocalFile::open(path)?)
}

/// Loads every tensor of a `.safetensors` file held in memory, in file
/// order. Each tensor whose data is element-aligned within `bytes` shares
/// it (no copy); a misaligned one is copied once.
///
/// # Errors
/// As [`load`].
///
/// ```
/// use tftensor::Tensor;
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("st-bytes.safetensors");
/// tftensor::safetensors::save(&p, [("x", &Tensor::from_vec([2], vec![1.0f64, 2.0])?)])?;
/// let bytes = bytes::Bytes::from(std::fs::read(&p)?);
/// let loaded = tftensor::safetensors::load_bytes(bytes.clone())?;
/// let start = bytes.as_ptr() as usize;
/// let at = loaded[0].1.data_ptr().unwrap() as usize;
/// assert!(at > start && at < start + bytes.len()); // inside `bytes`: no copy
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn load_bytes(bytes: Bytes) -> Result<Vec<(String, Tensor)>> {
    load_blob(&BytesBlob::new("<safetensors bytes>", bytes))
}

/// Memory-maps a `.safetensors` file and loads it as [`load_bytes`] does:
/// aligned tensors point into the map, which lives as long as any of them.
///
/// # Safety
/// The file must not be modified or truncated while any returned tensor
/// (or clone or slice of one) is alive: they read the mapped pages
/// directly, and a change underneath them is undefined behaviour.
///
/// # Errors
/// As [`load`].
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("st-mmap.safetensors");
/// tftensor::safetensors::save(&p, [("x", &tftensor::Tensor::from(3.5f32))])?;
/// // SAFETY: nothing writes the file while the tensors live.
/// let loaded = unsafe { tftensor::safetensors::load_mmap(&p)? };
/// assert_eq!(loaded[0].1.as_slice::<f32>()?, &[3.5]);
/// # drop(loaded);
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub unsafe fn load_mmap<P: AsRef<Path>>(path: P) -> Result<Vec<(String, Tensor)>> {
    // SAFETY: the caller guarantees the file is not changed while mapped.
    load_blob(&unsafe { BytesBlob::map(path)? })
}

/// Every tensor of the `.safetensors` in `blob`, in file order: the
/// header first, then the data in one read (a slice of a mapped or
/// in-memory blob), which the tensors adopt where element-aligned.
pub(crate) fn load_blob(blob: &dyn Blob) -> Result<Vec<(String, Tensor)>> {
    let (header, start) = header_of(blob)?;
    let data = blob.read_bytes(start..blob.len())?;
    let mut out = crate::buffer::try_vec(header.tensors.len())?;
    for t in header.tensors {
        let bytes = data_slice(&data, t.data_offsets);
        let tensor = tensor_of(&t, bytes, blob.id())?;
        out.push((t.name, tensor));
    }
    Ok(out)
}

/// A tensor's bytes in the data section `data`. `header_of` checked the
/// offsets against the data's length, a usize: they fit, in range.
fn data_slice(data: &Bytes, (start, end): (u64, u64)) -> Bytes {
    data.slice(start as usize..end as usize)
}

/// The tensor `t` lists, over its bytes.
pub(crate) fn tensor_of(t: &HeaderTensor, bytes: Bytes, what: &str) -> Result<Tensor> {
    Tensor::from_buffer(t.dtype, t.shape.clone(), bytes).map_err(|e| bad(what, e).with_key(&t.name))
}

/// How many first bytes a header read asks for: the length and, in one
/// read, the header of all but the largest files.
const HEAD: u64 = 64 << 10;

/// The header of the `.safetensors` in `blob` and where its data starts,
/// checked as the `safetensors` crate's `read_metadata` checks a whole
/// file (the header's size, its JSON, offsets that are contiguous and
/// match each tensor's shape and dtype, and data that fills the rest of
/// the file exactly), from one read of the first 64 KiB (and one more for
/// a longer header): the data is not read.
///
/// # Errors
/// [`Error::InvalidFormat`] naming what is wrong, as the crate says it; a
/// dtype TF does not have, naming the tensor; as [`Blob::read_at`].
pub(crate) fn header_of(blob: &dyn Blob) -> Result<(Header, u64)> {
    let what = blob.id();
    let err = |e: SafeTensorError| st_err(what, e);
    let head = blob.read_upto(0, HEAD)?;
    let n = head
        .first_chunk::<N_LEN>()
        .ok_or_else(|| err(SafeTensorError::HeaderTooSmall))?;
    let n = u64::from_le_bytes(*n);
    if n > MAX_HEADER {
        return Err(err(SafeTensorError::HeaderTooLarge));
    }
    let start = N_LEN as u64 + n;
    if start > blob.len() {
        return Err(err(SafeTensorError::InvalidHeaderLength));
    }
    // Within the first read, or one more read of the rest of it.
    let more;
    let text = match head.get(N_LEN..).and_then(|rest| rest.get(..n as usize)) {
        Some(text) => text,
        None => {
            more = blob.read_vec(N_LEN as u64, n)?;
            &more
        }
    };
    let text = std::str::from_utf8(text).map_err(|e| err(SafeTensorError::InvalidHeader(e)))?;
    let metadata: ::safetensors::tensor::Metadata = serde_json::from_str(text)
        .map_err(|e| err(SafeTensorError::InvalidHeaderDeserialization(e)))?;
    let data_len = metadata.data_len() as u64;
    if start.checked_add(data_len) != Some(blob.len()) {
        return Err(err(SafeTensorError::MetadataIncompleteBuffer));
    }
    let mut header = Header::default();
    for name in metadata.offset_keys() {
        let info = metadata
            .info(&name)
            .ok_or_else(|| bad(what, "the tensor is missing from the header").with_key(&name))?;
        let dtype = to_tf(info.dtype).ok_or_else(|| {
            bad(
                what,
                format!("dtype {}, which has no TensorFlow equivalent", info.dtype),
            )
            .with_key(&name)
        })?;
        let shape =
            TensorShape::from_usizes(&info.shape).map_err(|e| bad(what, e).with_key(&name))?;
        let (s, e) = info.data_offsets;
        header.tensors.push(HeaderTensor {
            name,
            dtype,
            shape,
            data_offsets: (s as u64, e as u64),
        });
    }
    if let Some(map) = metadata.metadata() {
        header.metadata = map.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        header.metadata.sort();
    }
    Ok((header, start))
}

/// The `safetensors` crate's cap on a header's size.
const MAX_HEADER: u64 = 100_000_000;

/// Writes named tensors to a `.safetensors` file, byte for byte as the
/// `safetensors` crate's `serialize_to_file` does: ordered by dtype
/// (descending) and name, the crate's own header padded to 8 bytes, written
/// to a temporary file renamed over `path`.
///
/// # Errors
/// [`Error::UnsupportedDataType`] for a dtype safetensors cannot hold
/// (naming the tensor); [`Error::InvalidArgument`] for a repeated name;
/// [`Error::Io`].
///
/// ```
/// use tftensor::Tensor;
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("st-save.safetensors");
/// let s = Tensor::from("text");
/// let err = tftensor::safetensors::save(&p, [("s", &s)]).unwrap_err();
/// assert_eq!(err.key(), Some("s"));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn save<'a, P: AsRef<Path>>(
    path: P,
    tensors: impl IntoIterator<Item = (&'a str, &'a Tensor)>,
) -> Result<()> {
    save_with_metadata(path, tensors, &[])
}

/// Saves tensors as [`save`] does, with `metadata` as the header's
/// `__metadata__` (omitted when empty).
///
/// # Errors
/// As [`save`].
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("st-meta.safetensors");
/// let t = tftensor::Tensor::from(1.0f32);
/// tftensor::safetensors::save_with_metadata(&p, [("x", &t)], &[("format".into(), "pt".into())])?;
/// let h = tftensor::safetensors::read_header(&p)?;
/// assert_eq!(h.metadata, [("format".to_string(), "pt".to_string())]);
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn save_with_metadata<'a, P: AsRef<Path>>(
    path: P,
    tensors: impl IntoIterator<Item = (&'a str, &'a Tensor)>,
    metadata: &[(String, String)],
) -> Result<()> {
    use std::io::Write;
    let path = path.as_ref();
    let what = path.display().to_string();
    let io = |e: std::io::Error| Error::io(&what, &e);
    let tensors: Vec<(&str, &Tensor)> = tensors.into_iter().collect();
    let rows: Vec<_> = tensors
        .iter()
        .map(|(n, t)| ((*n).to_owned(), t.dtype(), t.shape().clone()))
        .collect();
    let layout = layout(&what, &rows, metadata)?;
    let mut data = Vec::with_capacity(tensors.len());
    for &i in &layout.order {
        let (_, t) = tensors.get(i).ok_or_else(|| {
            debug_assert!(false, "the layout names row {i} of {}", tensors.len());
            Error::InvalidArgument(format!("safetensors: no tensor {i}")).with_path(&what)
        })?;
        data.push(t.tensor_data()?);
    }
    // A sibling temporary renamed over `path` at the end (as the crate
    // does), so an existing file, perhaps mapped, is never truncated.
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let temp = tempfile::NamedTempFile::new_in(parent).map_err(io)?;
    {
        let mut f = std::io::BufWriter::with_capacity(1 << 20, temp.as_file());
        f.write_all(&layout.head).map_err(io)?;
        for bytes in data {
            f.write_all(bytes).map_err(io)?;
        }
        f.flush().map_err(io)?;
    }
    temp.persist(path).map_err(|e| io(e.error))?;
    Ok(())
}

/// Where [`save_with_metadata`] puts each of the tensors it is given,
/// known from names, dtypes and shapes alone: a writer can then put each
/// tensor in place as it comes, in any order, without holding them all.
pub(crate) struct Layout {
    /// The file's first bytes: the header's length and the header, padded
    /// with spaces to 8 bytes, as the `safetensors` crate writes them.
    pub(crate) head: Vec<u8>,
    /// Each tensor's name, dtype, shape and where its data starts in the
    /// file.
    pub(crate) places: std::collections::HashMap<String, (DataType, TensorShape, u64)>,
    /// The given tensors' indices in file order.
    pub(crate) order: Vec<usize>,
}

/// The [`Layout`] of `tensors` with `metadata`: what the crate's
/// `prepare` computes (order by descending dtype, then name; offsets; the
/// crate's own `Metadata` serialized), without the data. `what` names the
/// file in errors, which are [`save_with_metadata`]'s.
pub(crate) fn layout(
    what: &str,
    tensors: &[(String, DataType, TensorShape)],
    metadata: &[(String, String)],
) -> Result<Layout> {
    use ::safetensors::tensor::{Metadata, TensorInfo};
    let mut seen = HashSet::new();
    let mut rows = Vec::with_capacity(tensors.len());
    for (name, dtype, shape) in tensors {
        if !seen.insert(name.as_str()) {
            return Err(
                Error::InvalidArgument("safetensors: the name is given twice".into())
                    .with_path(what)
                    .with_key(name),
            );
        }
        let st_dtype = from_tf(*dtype).ok_or_else(|| {
            Error::unsupported(
                *dtype,
                format!("safetensors: dtype {dtype}, which safetensors cannot hold"),
            )
            .with_path(what)
            .with_key(name)
        })?;
        let dims = shape
            .dim_sizes()
            .iter()
            .map(|&d| usize::try_from(d))
            .collect::<std::result::Result<Vec<_>, _>>()
            .map_err(|_| {
                Error::InvalidShape(crate::ShapeError::Other("dims do not fit usize".into()))
                    .with_key(name)
            })?;
        let len = crate::tensor::byte_len(*dtype, shape.num_elements())?;
        rows.push((name, st_dtype, dims, len, *dtype, shape, rows.len()));
    }
    rows.sort_by(|l, r| r.1.cmp(&l.1).then(l.0.cmp(r.0)));
    let mut infos = Vec::with_capacity(rows.len());
    let mut offset = 0usize;
    for (name, st_dtype, dims, len, ..) in &rows {
        let end = offset
            .checked_add(*len)
            .ok_or(Error::AllocationFailed { bytes: usize::MAX })?;
        infos.push((
            (*name).clone(),
            TensorInfo {
                dtype: *st_dtype,
                shape: dims.clone(),
                data_offsets: (offset, end),
            },
        ));
        offset = end;
    }
    let data_info = (!metadata.is_empty()).then(|| metadata.iter().cloned().collect());
    let header = Metadata::new(data_info, infos).map_err(|e| st_err(what, e))?;
    let mut header = serde_json::to_string(&header)
        .map_err(|e| bad(what, e))?
        .into_bytes();
    header.resize(header.len().next_multiple_of(N_LEN), b' ');
    let data_start = (N_LEN + header.len()) as u64;
    let mut head = Vec::with_capacity(N_LEN + header.len());
    head.extend_from_slice(&(header.len() as u64).to_le_bytes());
    head.extend_from_slice(&header);
    let mut places = std::collections::HashMap::with_capacity(rows.len());
    let mut at = data_start;
    let mut order = Vec::with_capacity(rows.len());
    for (name, _, _, len, dtype, shape, index) in rows {
        places.insert(name.clone(), (dtype, shape.clone(), at));
        order.push(index);
        at += len as u64;
    }
    Ok(Layout {
        head,
        places,
        order,
    })
}

/// Whether a `.safetensors` file can hold `dtype` (the dtypes this module
/// maps, [`load`]'s table).
///
/// ```
/// assert!(tftensor::safetensors::can_hold(tftensor::DataType::BFloat16));
/// assert!(!tftensor::safetensors::can_hold(tftensor::DataType::String));
/// ```
pub fn can_hold(dtype: DataType) -> bool {
    from_tf(dtype).is_some_and(|d| to_tf(d) == Some(dtype))
}

/// One tensor as a `.safetensors` header lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct HeaderTensor {
    /// The name.
    pub name: String,
    /// The TF dtype.
    pub dtype: DataType,
    /// The shape.
    pub shape: TensorShape,
    /// Start and end of its data, relative to the end of the header.
    pub data_offsets: (u64, u64),
}

/// A `.safetensors` header: its tensors in file (offset) order and its
/// `__metadata__`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Header {
    /// The tensors, in data order.
    pub tensors: Vec<HeaderTensor>,
    /// `__metadata__`'s entries, sorted by key.
    pub metadata: Vec<(String, String)>,
}

/// Reads only the header of the `.safetensors` file at `path` (its first
/// `8 + n` bytes): names, dtypes, shapes and `__metadata__`, without the
/// tensor data. The header is checked as [`load`] checks it (offsets
/// contiguous, matching shapes and dtypes, the data filling the file).
///
/// # Errors
/// [`Error::Io`]; [`Error::InvalidFormat`] for a bad header or a dtype TF
/// does not have.
///
/// ```
/// let h = tftensor::safetensors::read_header("tests/data/safetensors/all_dtypes.safetensors")?;
/// assert!(!h.tensors.is_empty());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn read_header<P: AsRef<Path>>(path: P) -> Result<Header> {
    Ok(header_of(&LocalFile::open(path)?)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ::safetensors::tensor::View;
    use std::borrow::Cow;

    /// A tensor as the `safetensors` crate's writer sees it.
    struct StView<'a> {
        dtype: Dtype,
        shape: Vec<usize>,
        data: &'a [u8],
    }

    impl View for &StView<'_> {
        fn dtype(&self) -> Dtype {
            self.dtype
        }
        fn shape(&self) -> &[usize] {
            &self.shape
        }
        fn data(&self) -> Cow<'_, [u8]> {
            Cow::Borrowed(self.data)
        }
        fn data_len(&self) -> usize {
            self.data.len()
        }
    }

    /// One writer for `save_with_metadata` and the planned sink: its bytes
    /// are the crate's `serialize` of the same tensors.
    #[test]
    fn save_writes_the_crates_bytes() {
        let tensors = [
            ("w", Tensor::from_vec([2, 3], vec![1.5f32; 6]).unwrap()),
            (
                "b",
                Tensor::from_vec([3], vec![half::bf16::from_f32(2.0); 3]).unwrap(),
            ),
            ("step", Tensor::from(7i64)),
            (
                "mask",
                Tensor::from_vec([3], vec![true, false, true]).unwrap(),
            ),
            ("a", Tensor::from_vec([2], vec![1u8, 2]).unwrap()),
            ("empty", Tensor::new(DataType::Double, [0, 2]).unwrap()),
        ];
        let dir = tempfile::tempdir().unwrap();
        for metadata in [vec![], vec![("format".to_string(), "pt".to_string())]] {
            let p = dir.path().join("t.safetensors");
            save_with_metadata(&p, tensors.iter().map(|(n, t)| (*n, t)), &metadata).unwrap();
            let views: Vec<_> = tensors
                .iter()
                .map(|(n, t)| {
                    let shape = t.shape().dim_sizes().iter().map(|&d| d as usize).collect();
                    let data = t.tensor_data().unwrap();
                    (
                        *n,
                        StView {
                            dtype: from_tf(t.dtype()).unwrap(),
                            shape,
                            data,
                        },
                    )
                })
                .collect();
            let info = (!metadata.is_empty()).then(|| metadata.iter().cloned().collect());
            let want = ::safetensors::serialize(views.iter().map(|(n, v)| (*n, v)), info).unwrap();
            assert_eq!(std::fs::read(&p).unwrap(), want);
        }
    }

    #[test]
    fn dtype_maps_are_inverse_and_sizes_agree() {
        for &dt in DataType::all() {
            if let Some(st) = from_tf(dt) {
                assert_eq!(to_tf(st), Some(dt));
                assert_eq!(st.bitsize(), dt.size() * 8, "{dt}");
            }
        }
        for st in [Dtype::F4, Dtype::F6_E2M3, Dtype::F6_E3M2, Dtype::F8_E8M0] {
            assert_eq!(to_tf(st), None);
        }
    }
}
