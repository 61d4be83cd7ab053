//! NumPy's `.npy` and `.npz` files (feature `npy`, on by default).
//!
//! * **Read** format versions 1.0, 2.0 and 3.0, for every NumPy dtype with
//!   a TensorFlow equivalent: `bool`, the integers of every width,
//!   `float16/32/64`, `complex64/128`, byte strings (`S<n>`, to
//!   `DT_STRING` with trailing NULs removed as NumPy does) and unicode
//!   strings (`U<n>`, to UTF-8 `DT_STRING`). Big-endian data is byte-swapped
//!   and `fortran_order: True` data is made row-major.
//! * **ml_dtypes** arrays (bfloat16, the float8s, int4, ...) are stored by
//!   NumPy as opaque `V1`/`V2` (and float8_e5m2 as `f1`): reading one needs
//!   the dtype from the caller, through the `_as` forms
//!   ([`read_npy_as`], [`NpzReader::get_as`], ...). Without it the read
//!   fails with an error that says so. The `_as` forms also read NumPy
//!   integers as TF's quantized types (`i1` as `qint8`, ...).
//! * **Object arrays** (pickles) are refused, never unpickled.
//! * **Write** little-endian, C order, with the header `np.save` writes
//!   (padded so the data starts 64-byte aligned): for the same array the
//!   file is byte-identical to `np.save`'s. dtypes without a NumPy type are
//!   written as NumPy writes the ml_dtypes array (`bfloat16` as `<V2`, the
//!   float8s and int4s as `<V1`; for float8_e5m2 np.save writes `<f1`, which
//!   np.load cannot read back, so `<V1` is written instead), quantized types
//!   as their integers; `DT_STRING` as `S<longest>`.
//! * **Zero copy**: [`read_npy_bytes`] and [`read_npy_mmap`] adopt
//!   little-endian, C-order data in place when it is element-aligned (the
//!   64-byte header padding makes it so for files `np.save` wrote).
//!
//! Untrusted files are checked before anything is allocated: the header
//! length and the data size the header declares must fit in the file, and
//! the data must fill it exactly.
//!
//! ```
//! use tftensor::npy::{read_npy, read_npy_as, write_npy};
//! use tftensor::{DataType, Tensor};
//! # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
//! # let dir = tmp.path().join("npy-doc");
//! # std::fs::create_dir_all(&dir)?;
//! let t = Tensor::from_vec([2, 2], vec![1.0f32, 2.0, 3.0, 4.0])?;
//! write_npy(dir.join("a.npy"), &t)?;
//! assert_eq!(read_npy(dir.join("a.npy"))?, t);
//!
//! // bfloat16 is '<V2' on disk, as NumPy + ml_dtypes write it.
//! let b = Tensor::from_vec([2], vec![half::bf16::from_f32(0.5), half::bf16::from_f32(-2.0)])?;
//! write_npy(dir.join("b.npy"), &b)?;
//! assert!(read_npy(dir.join("b.npy")).is_err());
//! assert_eq!(read_npy_as(dir.join("b.npy"), DataType::BFloat16)?, b);
//! # std::fs::remove_dir_all(&dir).ok();
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod header;
mod npz;
mod read;
mod write;

use std::fs::File;
use std::io::Write;
use std::path::Path;

use bytes::Bytes;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::{Blob, BytesBlob, LocalFile};
use crate::tensor::Tensor;

pub(crate) use header::MAGIC;
pub use npz::{NpzReader, NpzWriter};

fn read_path(path: &Path, as_dtype: Option<DataType>) -> Result<Tensor> {
    read::from_blob(&LocalFile::open(path)?, as_dtype, None)
}

/// Reads the `.npy` in `blob` (a file, a map, a zip member, an object),
/// an opaque (`V`) array as `as_dtype`; `on`, when given, is told the
/// bytes as they arrive (in steps of up to 64 MiB). A mapped blob's
/// aligned data is adopted without a copy.
pub(crate) fn read_blob(
    blob: &dyn Blob,
    as_dtype: Option<DataType>,
    on: Option<&mut dyn FnMut(u64)>,
) -> Result<Tensor> {
    read::from_blob(blob, as_dtype, on)
}

/// The dtype and shape of the `.npy` in `blob`, from its header (read by
/// one small read of its first bytes); an opaque (`V`) array as `as_dtype`.
pub(crate) fn blob_header(
    blob: &dyn Blob,
    as_dtype: Option<DataType>,
) -> Result<(DataType, crate::TensorShape)> {
    read::blob_dtype_and_shape(blob, as_dtype)
}

/// The dtype and shape of the `.npy` file at `path`, from its header alone
/// (the data is not read, but its length is checked against the file's);
/// an opaque (`V`) array as `as_dtype`.
///
/// # Errors
/// As [`read_npy`].
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("npy-head.npy");
/// tftensor::npy::write_npy(&p, &tftensor::Tensor::new(tftensor::DataType::Int16, [4, 5])?)?;
/// let (dtype, shape) = tftensor::npy::read_npy_header(&p, None)?;
/// assert_eq!((dtype, shape.dim_sizes()), (tftensor::DataType::Int16, vec![4, 5]));
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn read_npy_header<P: AsRef<Path>>(
    path: P,
    as_dtype: Option<DataType>,
) -> Result<(DataType, crate::TensorShape)> {
    blob_header(&LocalFile::open(path.as_ref())?, as_dtype)
}

/// Whether NumPy files hold `dtype` so that it reads back as the same
/// dtype. bfloat16, the float8s and int4 are written as opaque `V` arrays
/// (they need a dtype to be read back), and the quantized types as plain
/// integers, so they do not come back by themselves.
///
/// ```
/// use tftensor::DataType;
/// assert!(tftensor::npy::can_hold(DataType::Complex128));
/// assert!(tftensor::npy::can_hold(DataType::String));
/// assert!(!tftensor::npy::can_hold(DataType::BFloat16));
/// assert!(!tftensor::npy::can_hold(DataType::QInt8));
/// ```
pub fn can_hold(dtype: DataType) -> bool {
    let natural = |descr: String| match header::parse_descr(&descr) {
        Ok(header::Elem::Pod { dtype, .. }) => Some(dtype),
        Ok(header::Elem::Bytes(_) | header::Elem::Unicode { .. }) => Some(DataType::String),
        _ => None,
    };
    header::descr_for(dtype, 1)
        .ok()
        .and_then(natural)
        .is_some_and(|d| d == dtype)
}

/// Reads a `.npy` file.
///
/// # Errors
/// [`Error::Io`] if the file cannot be read; [`Error::InvalidFormat`] for a
/// bad header, a dtype without a TF equivalent (an object array, a
/// datetime, a structured dtype), an opaque `V` dtype (use
/// [`read_npy_as`]) or data longer than the header declares;
/// [`Error::DataLoss`] for a truncated file.
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("npy-read.npy");
/// tftensor::npy::write_npy(&p, &tftensor::Tensor::from(7u64))?;
/// let t = tftensor::npy::read_npy(&p)?;
/// assert_eq!(t.as_slice::<u64>()?, &[7]);
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn read_npy<P: AsRef<Path>>(path: P) -> Result<Tensor> {
    read_path(path.as_ref(), None)
}

/// Reads a `.npy` file whose elements are `dtype`: an opaque `V<n>` (or
/// `f1`) array as NumPy writes ml_dtypes types, or an integer array read as
/// the quantized type of the same width. Otherwise `dtype` must be the
/// file's own dtype.
///
/// # Errors
/// Those of [`read_npy`], and [`Error::InvalidFormat`] when the file's
/// elements cannot be `dtype` (another size, another type).
///
/// ```
/// use tftensor::{DataType, Tensor, Float8E4M3FN};
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("npy-as.npy");
/// let t = Tensor::from_vec([2], vec![Float8E4M3FN::from_f32(1.0), Float8E4M3FN::from_f32(-3.0)])?;
/// tftensor::npy::write_npy(&p, &t)?; // '<V1'
/// assert_eq!(tftensor::npy::read_npy_as(&p, DataType::Float8E4M3FN)?, t);
/// assert!(tftensor::npy::read_npy_as(&p, DataType::Half).is_err()); // 1 byte, not 2
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn read_npy_as<P: AsRef<Path>>(path: P, dtype: DataType) -> Result<Tensor> {
    read_path(path.as_ref(), Some(dtype))
}

/// Reads a `.npy` held in memory. Little-endian C-order numeric data is
/// adopted without a copy when element-aligned (the returned tensor shares
/// `bytes`); otherwise it is copied once.
///
/// # Errors
/// Those of [`read_npy`].
///
/// ```
/// use tftensor::Tensor;
/// let t = Tensor::from_vec([3], vec![1.0f64, 2.0, 3.0])?;
/// let bytes = bytes::Bytes::from(tftensor::npy::to_npy_bytes(&t)?);
/// let back = tftensor::npy::read_npy_bytes(bytes.clone())?;
/// assert_eq!(back, t);
/// assert_eq!(back.data_ptr(), Some(bytes[128..].as_ptr())); // no copy
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn read_npy_bytes(bytes: Bytes) -> Result<Tensor> {
    read::from_bytes(bytes, None, "<npy bytes>")
}

/// [`read_npy_bytes`] with the dtype given, as [`read_npy_as`].
///
/// ```
/// use tftensor::{DataType, Tensor};
/// let t = Tensor::from_vec([1], vec![half::bf16::from_f32(2.0)])?;
/// let bytes = bytes::Bytes::from(tftensor::npy::to_npy_bytes(&t)?);
/// assert_eq!(tftensor::npy::read_npy_bytes_as(bytes, DataType::BFloat16)?, t);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn read_npy_bytes_as(bytes: Bytes, dtype: DataType) -> Result<Tensor> {
    read::from_bytes(bytes, Some(dtype), "<npy bytes>")
}

/// Memory-maps a `.npy` file and reads it as [`read_npy_bytes`] does: the
/// data of a file `np.save` wrote is adopted in place, in O(1), and the map
/// lives as long as the tensor (or any tensor sharing its buffer).
///
/// # Safety
/// The file must not be modified or truncated while the returned tensor
/// (or any clone or slice of it) is alive: the tensor reads the mapped
/// pages directly, and a change underneath it is undefined behaviour.
///
/// # Errors
/// Those of [`read_npy`].
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("npy-mmap.npy");
/// tftensor::npy::write_npy(&p, &tftensor::Tensor::from_vec([4], vec![1i32, 2, 3, 4])?)?;
/// // SAFETY: nothing writes the file while `t` lives.
/// let t = unsafe { tftensor::npy::read_npy_mmap(&p)? };
/// assert_eq!(t.as_slice::<i32>()?, &[1, 2, 3, 4]);
/// assert!(t.is_aligned()); // page-aligned map + 64-byte header
/// # drop(t);
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub unsafe fn read_npy_mmap<P: AsRef<Path>>(path: P) -> Result<Tensor> {
    // SAFETY: forwarded to the caller (this function's contract).
    unsafe { read_mmap(path.as_ref(), None) }
}

/// [`read_npy_mmap`] with the dtype given, as [`read_npy_as`].
///
/// # Safety
/// As [`read_npy_mmap`].
///
/// ```
/// use tftensor::{DataType, Tensor};
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("npy-mmap-as.npy");
/// let t = Tensor::from_vec([2], vec![half::bf16::ONE, half::bf16::ZERO])?;
/// tftensor::npy::write_npy(&p, &t)?;
/// // SAFETY: nothing writes the file while the tensor lives.
/// assert_eq!(unsafe { tftensor::npy::read_npy_mmap_as(&p, DataType::BFloat16)? }, t);
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), tftensor::Error>(())
/// ```
pub unsafe fn read_npy_mmap_as<P: AsRef<Path>>(path: P, dtype: DataType) -> Result<Tensor> {
    // SAFETY: forwarded to the caller (this function's contract).
    unsafe { read_mmap(path.as_ref(), Some(dtype)) }
}

/// # Safety
/// As [`read_npy_mmap`].
unsafe fn read_mmap(path: &Path, as_dtype: Option<DataType>) -> Result<Tensor> {
    // SAFETY: the caller guarantees the file is not changed while mapped.
    let blob = unsafe { BytesBlob::map(path)? };
    read::from_blob(&blob, as_dtype, None)
}

/// Writes `tensor` to `path` as `np.save` would write the same array.
///
/// # Errors
/// [`Error::UnsupportedDataType`] for resource and variant tensors;
/// [`Error::InvalidArgument`] for a string ending in a NUL byte (NumPy's
/// `S` dtype would drop it); [`Error::Io`].
///
/// ```
/// # let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// # let p = tmp.path().join("npy-write.npy");
/// let t = tftensor::Tensor::from_vec([2], vec![true, false])?;
/// tftensor::npy::write_npy(&p, &t)?;
/// assert_eq!(std::fs::metadata(&p)?.len(), 128 + 2);
/// # std::fs::remove_file(&p).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn write_npy<P: AsRef<Path>>(path: P, tensor: &Tensor) -> Result<()> {
    let path = path.as_ref();
    let what = path.display().to_string();
    let header = write::header_for(tensor)?;
    let file = File::create(path).map_err(|e| Error::io(&what, &e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    write::write_to(&mut w, tensor, &header, &what)?;
    w.flush().map_err(|e| Error::io(&what, &e))
}

/// Writes `tensor` as `.npy` to any writer.
///
/// ```
/// let mut out = Vec::new();
/// tftensor::npy::write_npy_to(&mut out, &tftensor::Tensor::from(1.0f32))?;
/// assert!(out.starts_with(b"\x93NUMPY\x01\x00"));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn write_npy_to<W: Write>(mut writer: W, tensor: &Tensor) -> Result<()> {
    let header = write::header_for(tensor)?;
    write::write_to(&mut writer, tensor, &header, "<npy writer>")
}

/// The `.npy` bytes of `tensor`.
///
/// ```
/// let b = tftensor::npy::to_npy_bytes(&tftensor::Tensor::from_vec([2], vec![1u8, 2])?)?;
/// assert_eq!(b.len(), 130);
/// assert_eq!(&b[128..], &[1, 2]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn to_npy_bytes(tensor: &Tensor) -> Result<Vec<u8>> {
    let header = write::header_for(tensor)?;
    let len = write::encoded_len(tensor, header.len())?;
    let len = usize::try_from(len).map_err(|_| {
        Error::Overflow(crate::OverflowError::Size {
            what: "npy file size",
        })
    })?;
    let mut out = crate::buffer::try_vec(len)?;
    write::write_to(&mut out, tensor, &header, "<npy bytes>")?;
    Ok(out)
}
