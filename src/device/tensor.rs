//! [`DeviceTensor`]: a tensor in CUDA device memory, adopted from DLPack
//! or uploaded, and its DLPack export.

use std::fmt;
use std::sync::Arc;

use super::driver::{DevicePtr, Driver, Stream};
use super::invalid;
use crate::dlpack::{
    self, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned, ExportContext,
    ExportHeader, FLAG_READ_ONLY, Foreign, ManagedTensor, ManagedTensorVersioned, Owner,
    check_padding,
};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::shape::{MAX_DIMENSIONS, TensorShape};
use crate::tensor::Tensor;

/// A tensor in CUDA device (or managed) memory: a dtype and a shape over
/// device bytes, compact row-major. It is not a [`Tensor`]: its elements
/// are not readable from the host, so it offers only what needs no element
/// access, plus [`DeviceTensor::readback_and_clone`] to get a host
/// [`Tensor`].
///
/// Cloning is cheap (a refcount); the memory is released when the last
/// clone, readback and export is gone: the DLPack producer's deleter runs
/// exactly once, or this crate's own allocation is freed.
///
/// ```
/// use tftensor::device;
/// // Without an NVIDIA driver every device call says so.
/// if let Err(e) = device::device_count() {
///     assert!(e.to_string().contains("no CUDA driver"), "{e}");
/// }
/// ```
#[derive(Clone)]
pub struct DeviceTensor {
    pub(crate) inner: Arc<Inner>,
}

pub(crate) struct Inner {
    pub(crate) dtype: DataType,
    pub(crate) shape: TensorShape,
    pub(crate) device: DLDevice,
    /// The first element (`data + byte_offset`).
    pub(crate) data: DevicePtr,
    /// `num_elements * dtype.size()`.
    pub(crate) len: usize,
    /// The stream the data is ready on (DLPack's handshake), or `None`
    /// when it is ready for every stream (a synchronous upload).
    pub(crate) ready: Option<Stream>,
    /// Held for its drop, which releases the memory.
    #[allow(dead_code)]
    memory: Memory,
}

enum Memory {
    /// A DLPack producer's; dropping it calls the deleter.
    Foreign(#[allow(dead_code)] Foreign),
    /// This crate's `cuMemAlloc`.
    Own(#[allow(dead_code)] OwnAlloc),
    /// No elements, no memory.
    Empty,
}

struct OwnAlloc {
    ptr: DevicePtr,
    ordinal: i32,
    driver: Driver,
}

impl Drop for OwnAlloc {
    fn drop(&mut self) {
        // Work using the memory holds a clone, so none is pending here. A
        // failure can only leak the allocation.
        if let Ok(ctx) = self.driver.enter(self.ordinal) {
            // SAFETY: `ptr` came from `mem_alloc` and is freed once.
            let _ = unsafe { self.driver.mem_free(&ctx, self.ptr) };
        }
    }
}

impl DeviceTensor {
    /// Adopts a producer's CUDA (`kDLCUDA`) or CUDA managed
    /// (`kDLCUDAManaged`) DLPack tensor without copying. `stream` is the
    /// DLPack stream integer the consumer passed to the producer's
    /// `__dlpack__` (1 = legacy default stream, 2 = per-thread default, else
    /// a `CUstream`): the data is ready on that stream, so readbacks and
    /// exports are ordered after it. Needs no driver.
    ///
    /// # Safety
    /// As [`dlpack::import`]: `managed` is NULL or a valid, unconsumed
    /// managed tensor whose ownership passes to this call, whose shape and
    /// strides hold `ndim` values, whose device memory stays valid until
    /// the deleter runs, and whose deleter may run on any thread.
    ///
    /// # Errors
    /// A NULL pointer, a major version other than 1, a device other than
    /// CUDA or CUDA managed, a dtype without a TF dtype, a bad shape,
    /// non-compact strides (copy on the producer's side first). The
    /// deleter has run when an error is returned.
    pub unsafe fn from_dlpack(
        managed: *mut DLManagedTensorVersioned,
        stream: usize,
    ) -> Result<DeviceTensor> {
        // SAFETY: the caller's contract is `Foreign::versioned`'s.
        let foreign = unsafe { Foreign::versioned(managed) }
            .ok_or_else(|| invalid("NULL DLManagedTensorVersioned"))?;
        adopt(foreign, stream)
    }

    /// [`DeviceTensor::from_dlpack`] for a legacy `DLManagedTensor`.
    ///
    /// # Safety
    /// As [`DeviceTensor::from_dlpack`].
    ///
    /// # Errors
    /// As [`DeviceTensor::from_dlpack`].
    pub unsafe fn from_dlpack_legacy(
        managed: *mut DLManagedTensor,
        stream: usize,
    ) -> Result<DeviceTensor> {
        // SAFETY: the caller's contract is `Foreign::legacy`'s.
        let foreign =
            unsafe { Foreign::legacy(managed) }.ok_or_else(|| invalid("NULL DLManagedTensor"))?;
        adopt(foreign, stream)
    }

    /// The element type.
    pub fn dtype(&self) -> DataType {
        self.inner.dtype
    }

    /// The shape.
    pub fn shape(&self) -> &TensorShape {
        &self.inner.shape
    }

    /// The DLPack device (`kDLCUDA` or `kDLCUDAManaged`, and the ordinal).
    pub fn device(&self) -> DLDevice {
        self.inner.device
    }

    /// The device address of the first element.
    pub fn data_ptr(&self) -> u64 {
        self.inner.data
    }

    /// The size of the elements in bytes.
    pub fn num_bytes(&self) -> usize {
        self.inner.len
    }

    /// Exports this tensor as a CUDA DLPack tensor, read-only and
    /// zero-copy (it holds a clone). `stream` is the consumer's stream
    /// (DLPack integer; `None` is the legacy default stream): if the data
    /// is ready on another stream, the consumer's stream is made to wait
    /// for it, as the DLPack Python spec asks of producers.
    ///
    /// # Errors
    /// A dtype without a DLPack code; the driver's errors when a stream
    /// wait is needed.
    pub fn to_dlpack(&self, stream: Option<usize>) -> Result<ManagedTensorVersioned> {
        let (header, ctx, padded) = self.export_parts(stream)?;
        let pad = if padded {
            dlpack::FLAG_IS_SUBBYTE_TYPE_PADDED
        } else {
            0
        };
        Ok(ManagedTensorVersioned::new(
            header,
            ctx,
            FLAG_READ_ONLY | pad,
        ))
    }

    /// [`DeviceTensor::to_dlpack`] as a legacy `DLManagedTensor`, for
    /// consumers that speak no DLPack 1.x. It cannot say read-only: the
    /// consumer must not write (this crate never writes device memory).
    ///
    /// # Errors
    /// As [`DeviceTensor::to_dlpack`]; float4 (sub-byte padded) dtypes,
    /// which the legacy struct cannot describe.
    pub fn to_dlpack_legacy(&self, stream: Option<usize>) -> Result<ManagedTensor> {
        let (header, ctx, padded) = self.export_parts(stream)?;
        if padded {
            return Err(invalid(format!(
                "{} cannot travel in a legacy DLManagedTensor (no IS_SUBBYTE_TYPE_PADDED)",
                self.inner.dtype
            )));
        }
        Ok(ManagedTensor::new(header, ctx))
    }

    fn export_parts(&self, stream: Option<usize>) -> Result<(ExportHeader, ExportContext, bool)> {
        let inner = &self.inner;
        let dl = dlpack::dl_data_type(inner.dtype)?;
        if let Some(ready) = inner.ready {
            // DLPack: no stream from the consumer means the legacy default stream (1).
            let consumer = Stream::from_dlpack(stream.unwrap_or(1));
            if ready != consumer {
                let driver = Driver::get()?;
                let ctx = driver.enter(inner.device.device_id)?;
                let event = driver.record(&ctx, &ready)?;
                driver.wait_event(&consumer, &event)?;
            }
        }
        let shape = inner.shape.dim_sizes();
        let mut strides = vec![0i64; shape.len()];
        let mut step = 1i64;
        for (stride, &dim) in strides.iter_mut().zip(&shape).rev() {
            *stride = step;
            step = step.saturating_mul(dim);
        }
        let padded = usize::from(dl.bits) < inner.dtype.size() * 8;
        let header = ExportHeader {
            // A device address: never dereferenced on the host.
            data: std::ptr::without_provenance_mut(
                usize::try_from(inner.data)
                    .map_err(|_| invalid("device address does not fit a host pointer"))?,
            ),
            dtype: dl,
            device: inner.device,
        };
        let ctx = ExportContext {
            owner: Owner::Other(Box::new(self.clone())),
            shape,
            strides,
        };
        Ok((header, ctx, padded))
    }
}

/// Copies `tensor` to CUDA device `ordinal` (synchronously): a
/// [`DeviceTensor`] this crate owns, exportable with
/// [`DeviceTensor::to_dlpack`].
///
/// # Errors
/// The "no CUDA driver" error; a dtype that is not plain memory (strings,
/// resources, variants); an uninitialized tensor; the driver's errors (an
/// invalid ordinal, out of memory).
pub fn upload(tensor: &Tensor, ordinal: i32) -> Result<DeviceTensor> {
    let driver = Driver::get()?;
    if !tensor.dtype().can_use_memcpy() {
        return Err(Error::unsupported(
            tensor.dtype(),
            format!("cannot upload {} to a device", tensor.dtype()),
        ));
    }
    let bytes = tensor.tensor_data()?;
    let device = DLDevice {
        device_type: DLDeviceType::CUDA,
        device_id: ordinal,
    };
    let ctx = driver.enter(ordinal)?;
    let (data, memory) = if bytes.is_empty() {
        (0, Memory::Empty)
    } else {
        let ptr = driver.mem_alloc(&ctx, bytes.len())?;
        let own = OwnAlloc {
            ptr,
            ordinal,
            driver,
        };
        // SAFETY: `ptr` is a fresh allocation of `bytes.len()` bytes.
        unsafe { driver.copy_htod(&ctx, ptr, bytes) }?;
        (ptr, Memory::Own(own))
    };
    Ok(DeviceTensor {
        inner: Arc::new(Inner {
            dtype: tensor.dtype(),
            shape: tensor.shape().clone(),
            device,
            data,
            len: bytes.len(),
            // cuMemcpyHtoD from pageable memory has finished on return.
            ready: None,
            memory,
        }),
    })
}

fn adopt(foreign: Foreign, stream: usize) -> Result<DeviceTensor> {
    let (t, flags) = foreign.header()?;
    let kind = t.device.device_type;
    if kind != DLDeviceType::CUDA && kind != DLDeviceType::CUDA_MANAGED {
        return Err(invalid(format!(
            "a DeviceTensor holds CUDA or CUDA managed memory, not {kind} (id {}); import \
             host memory with dlpack::import",
            t.device.device_id
        )));
    }
    let dtype = check_padding(t.dtype, flags)?;
    let ndim = usize::try_from(t.ndim)
        .ok()
        .filter(|&n| n <= MAX_DIMENSIONS)
        .ok_or_else(|| invalid(format!("ndim {} is not in 0..={MAX_DIMENSIONS}", t.ndim)))?;
    let dims = foreign.shape(&t, ndim)?;
    let shape = TensorShape::new(dims)?;
    if let Some(strides) = foreign.strides(&t, ndim)? {
        let mut expected = 1i64;
        for (&dim, &stride) in dims.iter().zip(strides).rev() {
            // Dimensions of size 0 or 1 never step, whatever their stride.
            if dim > 1 && stride != expected {
                return Err(invalid(format!(
                    "device tensor with strides {strides:?} for shape {dims:?} is not compact \
                     row-major; make it contiguous on the producer's side first"
                )));
            }
            expected = expected.saturating_mul(dim);
        }
    }
    let len = usize::try_from(shape.num_elements())
        .ok()
        .and_then(|n| n.checked_mul(dtype.size()))
        .ok_or_else(|| invalid("device tensor byte size overflows"))?;
    let data = (t.data as usize as u64)
        .checked_add(t.byte_offset)
        .ok_or_else(|| invalid("data + byte_offset overflows"))?;
    if len > 0 && t.data.is_null() {
        return Err(invalid("data is NULL for a non-empty device tensor"));
    }
    Ok(DeviceTensor {
        inner: Arc::new(Inner {
            dtype,
            shape,
            device: t.device,
            data,
            len,
            ready: Some(Stream::from_dlpack(stream)),
            memory: Memory::Foreign(foreign),
        }),
    })
}

impl fmt::Display for DeviceTensor {
    /// TF's `DeviceSafeDebugString`: `Tensor<type: float shape: [2,3]>`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Tensor<type: {} shape: {}>",
            self.inner.dtype.name(),
            self.inner.shape.debug_string()
        )
    }
}

impl fmt::Debug for DeviceTensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DeviceTensor")
            .field("dtype", &self.inner.dtype)
            .field("shape", &self.inner.shape)
            .field("device", &self.inner.device)
            .finish()
    }
}
