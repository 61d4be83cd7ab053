//! Import: a producer's DLPack managed tensor adopted as a [`Tensor`].

use super::ffi::{DLDataType, DLManagedTensor, DLManagedTensorVersioned, Foreign};
use super::{FLAG_IS_SUBBYTE_TYPE_PADDED, data_type, is_padded};
use super::{ManagedTensor, ManagedTensorVersioned};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::shape::{MAX_DIMENSIONS, TensorShape};
use crate::tensor::Tensor;

fn dlpack_error(message: impl Into<String>) -> Error {
    Error::invalid_format("DLPack", message)
}

/// Adopts a `DLManagedTensorVersioned` as a tensor: zero-copy when the data
/// is compact row-major and aligned for its element type, a compact copy
/// otherwise (see the [module docs](super)). The producer's deleter runs
/// exactly once: when the last tensor sharing the adopted memory is dropped,
/// or before this returns if the data was copied, the tensor is empty, or
/// an error is returned.
///
/// Writes to the result (or to tensors sharing its buffer) copy first, so
/// the producer's memory is never written, read-only or not.
///
/// # Safety
/// `managed` is NULL or points to a valid, unconsumed DLPack managed tensor
/// (versioned) whose ownership passes to this call: the caller must not
/// call its deleter or use it afterwards. Its shape and strides hold `ndim`
/// values; every element its shape, strides, `data` and `byte_offset`
/// address lies in one live allocation that stays readable, and is not
/// written by anyone, until the deleter runs; and the deleter may be called
/// from any thread. A major version other than 1 is refused after reading
/// only the version and the deleter, as DLPack requires.
///
/// # Errors
/// [`Error::InvalidFormat`] for a NULL pointer, a major version other than
/// 1, a NULL shape or data, a bad `ndim` or address; [`Error::InvalidArgument`]
/// naming a device the CPU cannot read; [`Error::UnsupportedDataType`] for a
/// type with no TF dtype or more than one lane; [`Error::InvalidShape`];
/// for bool, a byte other than 0 or 1; a failed allocation when copying.
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let t = Tensor::from_vec([2], vec![1.5f32, 2.5])?;
/// let raw = dlpack::export(t.clone())?.into_raw();
/// // SAFETY: `raw` is a fresh export, handed over once.
/// let back = unsafe { dlpack::import(raw) }?;
/// assert_eq!(back, t);
/// assert_eq!(back.data_ptr(), t.data_ptr()); // zero-copy
/// # Ok::<(), tftensor::Error>(())
/// ```
pub unsafe fn import(managed: *mut DLManagedTensorVersioned) -> Result<Tensor> {
    // SAFETY: the caller's contract is `Foreign::versioned`'s.
    let foreign = unsafe { Foreign::versioned(managed) }
        .ok_or_else(|| dlpack_error("NULL DLManagedTensorVersioned"))?;
    adopt(foreign)
}

/// Adopts a legacy `DLManagedTensor`; as [`import`], which see.
///
/// # Safety
/// As [`import`], for a legacy managed tensor.
///
/// # Errors
/// As [`import`] (there is no version to check).
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let raw = dlpack::export_legacy(Tensor::from(3u16))?.into_raw();
/// // SAFETY: `raw` is a fresh export, handed over once.
/// assert_eq!(unsafe { dlpack::import_legacy(raw) }?, Tensor::from(3u16));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub unsafe fn import_legacy(managed: *mut DLManagedTensor) -> Result<Tensor> {
    // SAFETY: the caller's contract is `Foreign::legacy`'s.
    let foreign =
        unsafe { Foreign::legacy(managed) }.ok_or_else(|| dlpack_error("NULL DLManagedTensor"))?;
    adopt(foreign)
}

/// [`import`] of this crate's own export, safely (it meets the contract).
///
/// # Errors
/// None in practice: an export is always importable.
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let t = Tensor::from_vec([2, 2], vec![1u8, 2, 3, 4])?;
/// let back = dlpack::from_managed(dlpack::export(t.clone())?)?;
/// assert!(back.data_ptr() == t.data_ptr());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn from_managed(managed: ManagedTensorVersioned) -> Result<Tensor> {
    // SAFETY: an export is a valid managed tensor whose memory is the
    // exported tensor's buffer, kept alive and unwritten (it is shared, or
    // owned by the export alone) until the deleter runs; `into_raw` hands
    // it over once.
    unsafe { import(managed.into_raw()) }
}

/// [`import_legacy`] of this crate's own legacy export, safely.
///
/// # Errors
/// As [`from_managed`].
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let m = dlpack::export_legacy(Tensor::from(true))?;
/// assert_eq!(dlpack::from_managed_legacy(m)?, Tensor::from(true));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn from_managed_legacy(managed: ManagedTensor) -> Result<Tensor> {
    // SAFETY: as in `from_managed`.
    unsafe { import_legacy(managed.into_raw()) }
}

/// How the elements sit in memory, in elements relative to the first one.
enum Layout {
    /// Row-major, no gaps.
    Compact,
    /// Anything else: the lowest and highest element offsets reached.
    Strided { low: i64, high: i64 },
}

fn layout_of(dims: &[i64], strides: &[i64]) -> Result<Layout> {
    let overflow = || dlpack_error("strides overflow the address space");
    let mut compact = true;
    let mut expected = 1i64;
    let (mut low, mut high) = (0i64, 0i64);
    for (&dim, &stride) in dims.iter().zip(strides).rev() {
        // Dimensions of size 1 (or 0) never step, whatever their stride.
        if dim > 1 {
            compact &= stride == expected;
            let reach = (dim - 1).checked_mul(stride).ok_or_else(overflow)?;
            if reach < 0 {
                low = low.checked_add(reach).ok_or_else(overflow)?;
            } else {
                high = high.checked_add(reach).ok_or_else(overflow)?;
            }
        }
        expected = expected.saturating_mul(dim);
    }
    Ok(if compact {
        Layout::Compact
    } else {
        Layout::Strided { low, high }
    })
}

/// The dtype of an imported DLPack type, refusing sub-byte types packed
/// below one value per byte (TF keeps one per byte).
pub(crate) fn check_padding(dl: DLDataType, flags: u64) -> Result<DataType> {
    let dtype = data_type(dl)?;
    if is_padded(dtype, dl) && flags & FLAG_IS_SUBBYTE_TYPE_PADDED == 0 {
        return Err(Error::unsupported(
            dtype,
            format!(
                "{dtype} packed below one byte per value (no IS_SUBBYTE_TYPE_PADDED flag) is not \
             supported: TensorFlow keeps one value per byte"
            ),
        ));
    }
    Ok(dtype)
}

fn adopt(foreign: Foreign) -> Result<Tensor> {
    let (t, flags) = foreign.header()?;
    let device = t.device.device_type;
    if !device.is_host_readable() {
        return Err(Error::InvalidArgument(format!(
            "cannot import a DLPack tensor on device {device} (id {}): only CPU-readable \
             memory (CPU, CUDAHost, ROCMHost, CUDAManaged) is supported",
            t.device.device_id
        )));
    }
    let dtype = check_padding(t.dtype, flags)?;
    let ndim = usize::try_from(t.ndim)
        .ok()
        .filter(|&n| n <= MAX_DIMENSIONS)
        .ok_or_else(|| dlpack_error(format!("ndim {} is not in 0..={MAX_DIMENSIONS}", t.ndim)))?;
    let dims = foreign.shape(&t, ndim)?;
    let shape = TensorShape::new(dims)?;
    if shape.num_elements() == 0 {
        // Nothing to share; the deleter runs as `foreign` drops.
        return Tensor::new(dtype, shape);
    }
    let layout = match foreign.strides(&t, ndim)? {
        None => Layout::Compact,
        Some(strides) => layout_of(dims, strides)?,
    };
    // `dtype.size()` is 1 to 16: the mapped dtypes only.
    let elem = i64::try_from(dtype.size()).map_err(|_| dlpack_error("element size"))?;
    let too_big = || {
        Error::Overflow(crate::OverflowError::Size {
            what: "DLPack tensor byte size",
        })
    };
    match layout {
        Layout::Compact => {
            let len = shape
                .num_elements()
                .checked_mul(elem)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(too_big)?;
            let bytes = foreign.into_bytes(&t, 0, len)?;
            // Copies (and so releases the producer's memory) if misaligned.
            Tensor::from_buffer(dtype, shape, bytes)
        }
        Layout::Strided { low, high } => {
            // Strided only when strides are given (NULL ones are compact).
            let strides = foreign.strides(&t, ndim)?.unwrap_or(&[]).to_vec();
            let dims = dims.to_vec();
            let span = high
                .checked_sub(low)
                .and_then(|s| s.checked_add(1))
                .and_then(|s| s.checked_mul(elem))
                .and_then(|s| usize::try_from(s).ok())
                .ok_or_else(too_big)?;
            let start = low.checked_mul(elem).ok_or_else(too_big)?;
            let src = foreign.into_bytes(&t, start, span)?;
            let mut out = Tensor::new(dtype, shape)?;
            gather(&src, -low, &dims, &strides, &mut out)?;
            // `src` drops here: the producer's deleter runs now.
            Ok(out)
        }
    }
}

/// Copies the strided elements of `src` (element 0 at `origin` elements)
/// into `out` in row-major order. `layout_of` checked that every offset
/// lies in `0..src.len() / elem`, so the sums below cannot overflow.
fn gather(src: &[u8], origin: i64, dims: &[i64], strides: &[i64], out: &mut Tensor) -> Result<()> {
    let dtype = out.dtype();
    let elem = dtype.size();
    let dst = out.raw_bytes_mut()?;
    let bad = || dlpack_error("strided element outside the tensor's extent");
    let (Some((&last_dim, outer)), Some(&last_stride)) = (dims.split_last(), strides.last()) else {
        return Err(bad());
    };
    let row_bytes = usize::try_from(last_dim)
        .ok()
        .and_then(|n| n.checked_mul(elem))
        .filter(|&n| n > 0)
        .ok_or_else(bad)?;
    let byte_at = |element: i64| -> Result<usize> {
        usize::try_from(element)
            .ok()
            .and_then(|e| e.checked_mul(elem))
            .ok_or_else(bad)
    };
    let mut index = vec![0i64; outer.len()];
    for row in dst.chunks_exact_mut(row_bytes) {
        let at = index
            .iter()
            .zip(strides)
            .fold(origin, |acc, (&i, &s)| acc + i * s);
        if last_stride == 1 {
            let from = byte_at(at)?;
            let chunk = src.get(from..from + row_bytes).ok_or_else(bad)?;
            row.copy_from_slice(chunk);
        } else {
            let mut pos = at;
            for cell in row.chunks_exact_mut(elem) {
                let from = byte_at(pos)?;
                cell.copy_from_slice(src.get(from..from + elem).ok_or_else(bad)?);
                pos += last_stride;
            }
        }
        // Odometer over the outer dimensions.
        for (i, &d) in index.iter_mut().zip(outer).rev() {
            *i += 1;
            if *i < d {
                break;
            }
            *i = 0;
        }
    }
    if dtype == DataType::Bool && dst.iter().any(|&b| b > 1) {
        return Err(Error::InvalidArgument("bool bytes must be 0 or 1".into()));
    }
    Ok(())
}
