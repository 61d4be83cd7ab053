//! Export: a [`Tensor`] as a DLPack managed tensor, zero-copy.

use super::DLDevice;
use super::ffi::{ExportContext, ExportHeader, ManagedTensor, ManagedTensorVersioned, Owner};
use super::{FLAG_IS_COPIED, FLAG_IS_SUBBYTE_TYPE_PADDED, FLAG_READ_ONLY, dl_data_type, is_padded};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// Where tensors without a buffer (no elements) point: consumers get a
/// non-NULL, aligned address (NumPy's own exports are never NULL either).
#[repr(C, align(64))]
struct Empty([u8; 64]);
static EMPTY: Empty = Empty([0; 64]);

/// `FLAG_IS_SUBBYTE_TYPE_PADDED` when DLPack's type for `dtype` is narrower
/// than the byte TF stores each element in (float4_e2m1fn), else 0.
fn padding_flag(dtype: DataType) -> Result<u64> {
    let dl = dl_data_type(dtype)?;
    Ok(if is_padded(dtype, dl) {
        FLAG_IS_SUBBYTE_TYPE_PADDED
    } else {
        0
    })
}

/// The pieces of an export, and whether it may be written.
fn prepare(mut tensor: Tensor) -> Result<(ExportHeader, ExportContext, bool)> {
    let dtype = dl_data_type(tensor.dtype())?;
    if !tensor.is_initialized() {
        return Err(Error::InvalidArgument(
            "cannot export an uninitialized tensor through DLPack".into(),
        ));
    }
    if tensor.dtype() == DataType::Bool {
        // A bitcast can leave other bytes in a bool tensor; consumers
        // expect 0 and 1 only.
        tensor.as_slice::<bool>()?;
    }
    let shape = tensor.shape().dim_sizes();
    let mut strides = vec![0i64; shape.len()];
    let mut step = 1i64;
    for (stride, &dim) in strides.iter_mut().zip(&shape).rev() {
        *stride = step;
        step = step.saturating_mul(dim);
    }
    // The handle given by value is the only one on a buffer it owns: the
    // consumer may write. Otherwise other handles may read it.
    let writable = !tensor.is_shared();
    let data = if tensor.root().is_none() {
        EMPTY.0.as_ptr().cast_mut()
    } else if writable {
        // Derived from `&mut`, so the consumer's writes are permitted.
        tensor.raw_bytes_mut()?.as_mut_ptr()
    } else {
        // A tensor with a buffer has a data pointer; EMPTY is never read.
        tensor.data_ptr().unwrap_or(EMPTY.0.as_ptr()).cast_mut()
    };
    Ok((
        ExportHeader {
            data,
            dtype,
            device: DLDevice::CPU,
        },
        ExportContext {
            owner: Owner::Tensor(tensor),
            shape,
            strides,
        },
        writable,
    ))
}

/// Exports `tensor` as a DLPack 1.x `DLManagedTensorVersioned`, without
/// copying: the export holds the tensor (and so its buffer) until the
/// consumer calls the deleter.
///
/// The export is writable when `tensor` is the only handle on a buffer it
/// owns, and carries [`FLAG_READ_ONLY`] otherwise (a clone, a slice, or
/// adopted bytes such as a decoded proto's content share it).
///
/// # Errors
/// A dtype DLPack has no code for ([`Error::UnsupportedDataType`] naming
/// it), an uninitialized tensor, or a bool tensor holding a byte other than
/// 0 or 1.
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let t = Tensor::from_vec([3], vec![1i32, 2, 3])?;
/// let shared = dlpack::export(t.clone())?;
/// assert!(shared.is_read_only());
/// drop(shared);
/// let p = t.data_ptr().unwrap();
/// let owned = dlpack::export(t)?;
/// assert!(!owned.is_read_only());
/// assert_eq!(owned.dl_tensor().data.cast_const().cast(), p);
/// assert!(dlpack::export(Tensor::from("text")).is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn export(tensor: Tensor) -> Result<ManagedTensorVersioned> {
    let pad = padding_flag(tensor.dtype())?;
    let (header, ctx, writable) = prepare(tensor)?;
    let flags = pad | if writable { 0 } else { FLAG_READ_ONLY };
    Ok(ManagedTensorVersioned::new(header, ctx, flags))
}

/// Exports a private copy of `tensor`: writable, with [`FLAG_IS_COPIED`]
/// (what a consumer asking `copy=True` gets).
///
/// # Errors
/// As [`export`], or a failed allocation.
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let t = Tensor::from(1.5f64);
/// let m = dlpack::export_copy(&t)?;
/// assert_eq!(m.flags(), dlpack::FLAG_IS_COPIED);
/// assert_ne!(m.dl_tensor().data.cast_const().cast(), t.data_ptr().unwrap());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn export_copy(tensor: &Tensor) -> Result<ManagedTensorVersioned> {
    let pad = padding_flag(tensor.dtype())?;
    let (header, ctx, writable) = prepare(tensor.deep_copy()?)?;
    debug_assert!(writable, "a deep copy owns its buffer");
    let flags = pad | FLAG_IS_COPIED | if writable { 0 } else { FLAG_READ_ONLY };
    Ok(ManagedTensorVersioned::new(header, ctx, flags))
}

/// Exports `tensor` as a legacy (pre-1.0) `DLManagedTensor`, without
/// copying, for consumers that do not speak DLPack 1.x.
///
/// # Errors
/// As [`export`]; and [`Error::InvalidArgument`] when the buffer is shared,
/// because the legacy struct cannot say read-only (NumPy refuses the same
/// way). Export `tensor.deep_copy()?` to hand over a copy instead.
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let t = Tensor::from_vec([2], vec![1u8, 2])?;
/// assert!(dlpack::export_legacy(t.clone()).is_err()); // shared
/// let m = dlpack::export_legacy(t)?;
/// assert_eq!(m.dl_tensor().ndim, 1);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn export_legacy(tensor: Tensor) -> Result<ManagedTensor> {
    if padding_flag(tensor.dtype())? != 0 {
        return Err(Error::unsupported(
            tensor.dtype(),
            format!(
                "cannot export {} as a legacy DLManagedTensor, which cannot signal \
             IS_SUBBYTE_TYPE_PADDED (one value per byte); use the versioned form",
                tensor.dtype()
            ),
        ));
    }
    let (header, ctx, writable) = prepare(tensor)?;
    if !writable {
        return Err(Error::InvalidArgument(
            "cannot export a shared (read-only) buffer as a legacy DLManagedTensor, which \
             cannot signal read-only; export a copy or use the versioned form"
                .into(),
        ));
    }
    Ok(ManagedTensor::new(header, ctx))
}

/// Exports `tensor` as a legacy `DLManagedTensor` the way the array API's
/// `copy=None` asks ("copy only if needed"): zero-copy when `tensor` is the
/// only handle on a buffer it owns, a private copy otherwise, since the
/// legacy struct cannot say read-only. Returns the export and whether it
/// copied.
///
/// # Errors
/// As [`export_legacy`] for the dtype, or a failed allocation; never
/// because the buffer is shared.
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let t = Tensor::from_vec([2], vec![1u8, 2])?;
/// let (m, copied) = dlpack::export_legacy_or_copy(t.clone())?; // shared
/// assert!(copied);
/// assert_ne!(m.dl_tensor().data.cast_const().cast(), t.data_ptr().unwrap());
/// let p = t.data_ptr().unwrap();
/// let (m, copied) = dlpack::export_legacy_or_copy(t)?; // the only handle
/// assert!(!copied);
/// assert_eq!(m.dl_tensor().data.cast_const().cast(), p);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn export_legacy_or_copy(tensor: Tensor) -> Result<(ManagedTensor, bool)> {
    if tensor.is_shared() {
        let copy = tensor.deep_copy()?;
        drop(tensor);
        Ok((export_legacy(copy)?, true))
    } else {
        Ok((export_legacy(tensor)?, false))
    }
}
