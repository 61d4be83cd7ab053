//! The DLPack 1.x C structs, written in Rust with layout asserts, and the
//! only `unsafe` of the DLPack module: building and freeing exported managed
//! tensors, and reading (then releasing) foreign ones.
//!
//! Layouts follow `dlpack.h` (dmlc/dlpack v1.3), unchanged since 1.0.

use std::ffi::c_void;
use std::fmt;
use std::mem::ManuallyDrop;
use std::ptr::NonNull;
use std::sync::atomic::{AtomicUsize, Ordering};

use bytes::Bytes;

use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// The DLPack major version this crate speaks (`DLPACK_MAJOR_VERSION`).
///
/// ```
/// assert_eq!(tftensor::dlpack::DLPACK_MAJOR_VERSION, 1);
/// ```
pub const DLPACK_MAJOR_VERSION: u32 = 1;

/// The DLPack minor version this crate's exports report (`DLPACK_MINOR_VERSION`).
///
/// ```
/// assert_eq!(tftensor::dlpack::DLPACK_MINOR_VERSION, 3);
/// ```
pub const DLPACK_MINOR_VERSION: u32 = 3;

/// `DLPACK_FLAG_BITMASK_READ_ONLY`: the consumer must not write the data.
///
/// ```
/// assert_eq!(tftensor::dlpack::FLAG_READ_ONLY, 1);
/// ```
pub const FLAG_READ_ONLY: u64 = 1 << 0;

/// `DLPACK_FLAG_BITMASK_IS_COPIED`: the producer made a copy the consumer
/// owns exclusively.
///
/// ```
/// assert_eq!(tftensor::dlpack::FLAG_IS_COPIED, 2);
/// ```
pub const FLAG_IS_COPIED: u64 = 1 << 1;

/// `DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED`: sub-byte elements are
/// padded to whole bytes.
///
/// ```
/// assert_eq!(tftensor::dlpack::FLAG_IS_SUBBYTE_TYPE_PADDED, 4);
/// ```
pub const FLAG_IS_SUBBYTE_TYPE_PADDED: u64 = 1 << 2;

/// `DLPackVersion`.
///
/// ```
/// let v = tftensor::dlpack::DLPackVersion { major: 1, minor: 3 };
/// assert_eq!(std::mem::size_of_val(&v), 8);
/// ```
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLPackVersion {
    /// Major version; a consumer reads nothing else when it differs from its own.
    pub major: u32,
    /// Minor version; differences are compatible.
    pub minor: u32,
}

/// `DLDeviceType`: a C `int` enum, kept as its number because an unknown
/// value in a Rust enum would be undefined behaviour.
///
/// ```
/// use tftensor::dlpack::DLDeviceType;
/// assert_eq!(DLDeviceType::CUDA.to_string(), "CUDA (2)");
/// assert_eq!(DLDeviceType(99).to_string(), "unknown device type (99)");
/// assert!(DLDeviceType::CPU.is_host_readable());
/// assert!(!DLDeviceType::ROCM.is_host_readable());
/// ```
#[repr(transparent)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DLDeviceType(pub i32);

macro_rules! device_types {
    ($($konst:ident = $num:literal, $name:literal;)*) => {
        impl DLDeviceType {
            $(
                #[doc = concat!("`kDL", $name, "` = ", stringify!($num), ".")]
                pub const $konst: DLDeviceType = DLDeviceType($num);
            )*

            /// The device's name without the `kDL` prefix, if known.
            ///
            /// ```
            /// use tftensor::dlpack::DLDeviceType;
            /// assert_eq!(DLDeviceType::CUDA_HOST.name(), Some("CUDAHost"));
            /// assert_eq!(DLDeviceType(5).name(), None);
            /// ```
            pub fn name(self) -> Option<&'static str> {
                match self.0 {
                    $($num => Some($name),)*
                    _ => None,
                }
            }
        }
    };
}

device_types! {
    CPU = 1, "CPU";
    CUDA = 2, "CUDA";
    CUDA_HOST = 3, "CUDAHost";
    OPENCL = 4, "OpenCL";
    VULKAN = 7, "Vulkan";
    METAL = 8, "Metal";
    VPI = 9, "VPI";
    ROCM = 10, "ROCM";
    ROCM_HOST = 11, "ROCMHost";
    EXT_DEV = 12, "ExtDev";
    CUDA_MANAGED = 13, "CUDAManaged";
    ONE_API = 14, "OneAPI";
    WEBGPU = 15, "WebGPU";
    HEXAGON = 16, "Hexagon";
    MAIA = 17, "MAIA";
    TRN = 18, "Trn";
}

impl DLDeviceType {
    /// Whether the CPU can read this device's memory directly: CPU, pinned
    /// CUDA/ROCm host memory and CUDA managed memory (NumPy's list).
    ///
    /// ```
    /// assert!(tftensor::dlpack::DLDeviceType::CUDA_MANAGED.is_host_readable());
    /// ```
    pub fn is_host_readable(self) -> bool {
        matches!(
            self,
            DLDeviceType::CPU
                | DLDeviceType::CUDA_HOST
                | DLDeviceType::ROCM_HOST
                | DLDeviceType::CUDA_MANAGED
        )
    }
}

impl fmt::Display for DLDeviceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.name() {
            Some(name) => write!(f, "{name} ({})", self.0),
            None => write!(f, "unknown device type ({})", self.0),
        }
    }
}

/// `DLDevice`: where the data lives.
///
/// ```
/// use tftensor::dlpack::{DLDevice, DLDeviceType};
/// assert_eq!(DLDevice::CPU, DLDevice { device_type: DLDeviceType::CPU, device_id: 0 });
/// ```
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DLDevice {
    /// The kind of device.
    pub device_type: DLDeviceType,
    /// The device's index among its kind (0 for the CPU).
    pub device_id: i32,
}

impl DLDevice {
    /// `{kDLCPU, 0}`, where every export of this crate lives.
    pub const CPU: DLDevice = DLDevice {
        device_type: DLDeviceType::CPU,
        device_id: 0,
    };
}

/// `DLDataTypeCode` values (the `code` of a [`DLDataType`]).
///
/// ```
/// use tftensor::dlpack::type_code;
/// assert_eq!(type_code::BFLOAT, 4);
/// assert_eq!(type_code::FLOAT4_E2M1FN, 17);
/// ```
pub mod type_code {
    /// `kDLInt`: signed integer.
    pub const INT: u8 = 0;
    /// `kDLUInt`: unsigned integer.
    pub const UINT: u8 = 1;
    /// `kDLFloat`: IEEE float.
    pub const FLOAT: u8 = 2;
    /// `kDLOpaqueHandle`.
    pub const OPAQUE_HANDLE: u8 = 3;
    /// `kDLBfloat`: brain float.
    pub const BFLOAT: u8 = 4;
    /// `kDLComplex`: complex; `bits` counts both parts.
    pub const COMPLEX: u8 = 5;
    /// `kDLBool`: one byte per element.
    pub const BOOL: u8 = 6;
    /// `kDLFloat8_e3m4`.
    pub const FLOAT8_E3M4: u8 = 7;
    /// `kDLFloat8_e4m3`.
    pub const FLOAT8_E4M3: u8 = 8;
    /// `kDLFloat8_e4m3b11fnuz`.
    pub const FLOAT8_E4M3B11FNUZ: u8 = 9;
    /// `kDLFloat8_e4m3fn`.
    pub const FLOAT8_E4M3FN: u8 = 10;
    /// `kDLFloat8_e4m3fnuz`.
    pub const FLOAT8_E4M3FNUZ: u8 = 11;
    /// `kDLFloat8_e5m2`.
    pub const FLOAT8_E5M2: u8 = 12;
    /// `kDLFloat8_e5m2fnuz`.
    pub const FLOAT8_E5M2FNUZ: u8 = 13;
    /// `kDLFloat8_e8m0fnu`.
    pub const FLOAT8_E8M0FNU: u8 = 14;
    /// `kDLFloat6_e2m3fn`.
    pub const FLOAT6_E2M3FN: u8 = 15;
    /// `kDLFloat6_e3m2fn`.
    pub const FLOAT6_E3M2FN: u8 = 16;
    /// `kDLFloat4_e2m1fn`.
    pub const FLOAT4_E2M1FN: u8 = 17;
}

/// `DLDataType`: type code, bits per lane, lanes.
///
/// ```
/// use tftensor::dlpack::{type_code, DLDataType};
/// let f32_type = DLDataType { code: type_code::FLOAT, bits: 32, lanes: 1 };
/// assert_eq!(std::mem::size_of_val(&f32_type), 4);
/// ```
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DLDataType {
    /// A [`type_code`] value.
    pub code: u8,
    /// Bits per lane (complex: both parts).
    pub bits: u8,
    /// Lanes per element; 1 for scalars, which is all this crate exchanges.
    pub lanes: u16,
}

/// `DLTensor`: a strided view of memory on a device. It owns nothing.
///
/// ```
/// assert_eq!(std::mem::size_of::<tftensor::dlpack::DLTensor>(), 48);
/// ```
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct DLTensor {
    /// The data's base address (not necessarily aligned).
    pub data: *mut c_void,
    /// Where the data lives.
    pub device: DLDevice,
    /// The rank.
    pub ndim: i32,
    /// The element type.
    pub dtype: DLDataType,
    /// `ndim` dimension sizes (may be NULL when `ndim == 0`).
    pub shape: *mut i64,
    /// `ndim` strides in elements, or NULL for compact row-major.
    pub strides: *mut i64,
    /// Bytes from `data` to the first element.
    pub byte_offset: u64,
}

/// `DLManagedTensor`: the legacy (pre-1.0) managed tensor, with no version
/// and no flags, so it cannot say read-only.
///
/// ```
/// assert_eq!(std::mem::size_of::<tftensor::dlpack::DLManagedTensor>(), 64);
/// ```
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensor {
    /// The tensor.
    pub dl_tensor: DLTensor,
    /// The producer's context.
    pub manager_ctx: *mut c_void,
    /// Frees the context and this struct; called exactly once by the consumer.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensor)>,
}

/// `DLManagedTensorVersioned`: the DLPack 1.x managed tensor.
///
/// ```
/// use std::mem::{offset_of, size_of};
/// use tftensor::dlpack::DLManagedTensorVersioned;
/// assert_eq!(size_of::<DLManagedTensorVersioned>(), 80);
/// assert_eq!(offset_of!(DLManagedTensorVersioned, dl_tensor), 32);
/// ```
#[repr(C)]
#[derive(Debug)]
pub struct DLManagedTensorVersioned {
    /// The producer's DLPack version.
    pub version: DLPackVersion,
    /// The producer's context.
    pub manager_ctx: *mut c_void,
    /// Frees the context and this struct; called exactly once by the consumer.
    pub deleter: Option<unsafe extern "C" fn(*mut DLManagedTensorVersioned)>,
    /// `FLAG_*` bits.
    pub flags: u64,
    /// The tensor.
    pub dl_tensor: DLTensor,
}

// The layouts of dlpack.h on 64-bit targets.
#[cfg(target_pointer_width = "64")]
const _: () = {
    use std::mem::{align_of, offset_of, size_of};
    assert!(size_of::<DLPackVersion>() == 8);
    assert!(size_of::<DLDevice>() == 8);
    assert!(size_of::<DLDataType>() == 4);
    assert!(offset_of!(DLDataType, bits) == 1);
    assert!(offset_of!(DLDataType, lanes) == 2);
    assert!(size_of::<DLTensor>() == 48);
    assert!(offset_of!(DLTensor, device) == 8);
    assert!(offset_of!(DLTensor, ndim) == 16);
    assert!(offset_of!(DLTensor, dtype) == 20);
    assert!(offset_of!(DLTensor, shape) == 24);
    assert!(offset_of!(DLTensor, strides) == 32);
    assert!(offset_of!(DLTensor, byte_offset) == 40);
    assert!(align_of::<DLTensor>() == 8);
    assert!(size_of::<DLManagedTensor>() == 64);
    assert!(offset_of!(DLManagedTensor, manager_ctx) == 48);
    assert!(offset_of!(DLManagedTensor, deleter) == 56);
    assert!(size_of::<DLManagedTensorVersioned>() == 80);
    assert!(offset_of!(DLManagedTensorVersioned, manager_ctx) == 8);
    assert!(offset_of!(DLManagedTensorVersioned, deleter) == 16);
    assert!(offset_of!(DLManagedTensorVersioned, flags) == 24);
    assert!(offset_of!(DLManagedTensorVersioned, dl_tensor) == 32);
};

// ----- export -----

/// Exported managed tensors whose deleter has not run yet.
static LIVE_EXPORTS: AtomicUsize = AtomicUsize::new(0);

/// How many managed tensors this crate has exported and their consumers have
/// not released yet (their deleter has not run). For leak checks.
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let before = dlpack::live_exports();
/// let m = dlpack::export(Tensor::from(1.0f32)).unwrap();
/// assert_eq!(dlpack::live_exports(), before + 1);
/// drop(m);
/// assert_eq!(dlpack::live_exports(), before);
/// ```
pub fn live_exports() -> usize {
    LIVE_EXPORTS.load(Ordering::Relaxed)
}

/// What an export owns until its deleter runs: the tensor (keeping the
/// buffer alive) and the shape and strides the `DLTensor` points into.
pub(crate) struct ExportContext {
    /// Held only for its drop, which releases the buffer.
    #[allow(dead_code)]
    pub(crate) tensor: Tensor,
    pub(crate) shape: Vec<i64>,
    pub(crate) strides: Vec<i64>,
}

/// One allocation per export: the managed struct first (so a pointer to it
/// is a pointer to the whole), then what it points into.
#[repr(C)]
struct Exported<M> {
    managed: M,
    ctx: ExportContext,
}

/// The fields of a `DLTensor` an export fills, apart from shape and strides.
pub(crate) struct ExportHeader {
    pub(crate) data: *mut u8,
    pub(crate) dtype: DLDataType,
}

fn dl_tensor_of(header: &ExportHeader, ctx: &mut ExportContext) -> DLTensor {
    // ndim <= MAX_DIMENSIONS (254), so it fits an i32.
    let ndim = i32::try_from(ctx.shape.len()).unwrap_or(i32::MAX);
    debug_assert_eq!(ctx.shape.len(), ctx.strides.len());
    let (shape, strides) = if ctx.shape.is_empty() {
        (std::ptr::null_mut(), std::ptr::null_mut())
    } else {
        // The Vecs' heap buffers do not move when the context does.
        (ctx.shape.as_mut_ptr(), ctx.strides.as_mut_ptr())
    };
    DLTensor {
        data: header.data.cast(),
        device: DLDevice::CPU,
        ndim,
        dtype: header.dtype,
        shape,
        strides,
        byte_offset: 0,
    }
}

/// A `DLManagedTensorVersioned` exported by this crate, owned until it is
/// handed to a consumer with [`ManagedTensorVersioned::into_raw`]. Dropping it
/// runs the deleter (releases the tensor).
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let t = Tensor::from_vec([2, 3], vec![0u8; 6]).unwrap();
/// let m = dlpack::export(t).unwrap();
/// assert_eq!(m.shape(), &[2, 3]);
/// assert_eq!(m.strides(), &[3, 1]);
/// assert!(!m.is_read_only()); // unique buffer, taken by value
/// ```
pub struct ManagedTensorVersioned(NonNull<DLManagedTensorVersioned>);

/// A legacy `DLManagedTensor` exported by this crate; see
/// [`ManagedTensorVersioned`].
///
/// ```
/// use tftensor::{dlpack, Tensor};
/// let m = dlpack::export_legacy(Tensor::from(7i64)).unwrap();
/// assert_eq!(m.dl_tensor().ndim, 0);
/// ```
pub struct ManagedTensor(NonNull<DLManagedTensor>);

// SAFETY: the handle owns its export exclusively (like a Box); the context
// holds a Tensor, which is Send + Sync, and raw pointers into the context.
unsafe impl Send for ManagedTensorVersioned {}
// SAFETY: as above; `&self` only reads.
unsafe impl Sync for ManagedTensorVersioned {}
// SAFETY: as for ManagedTensorVersioned.
unsafe impl Send for ManagedTensor {}
// SAFETY: as for ManagedTensorVersioned.
unsafe impl Sync for ManagedTensor {}

unsafe extern "C" fn delete_versioned(p: *mut DLManagedTensorVersioned) {
    if p.is_null() {
        return;
    }
    // SAFETY: `p` is the `managed` field, at offset 0 of a `repr(C)`
    // `Exported` that `new_versioned` leaked from a Box; DLPack consumers
    // call the deleter once, so the Box is rebuilt and freed once.
    drop(unsafe { Box::from_raw(p.cast::<Exported<DLManagedTensorVersioned>>()) });
    LIVE_EXPORTS.fetch_sub(1, Ordering::Relaxed);
}

unsafe extern "C" fn delete_legacy(p: *mut DLManagedTensor) {
    if p.is_null() {
        return;
    }
    // SAFETY: as in `delete_versioned`, for `new_legacy`'s Box.
    drop(unsafe { Box::from_raw(p.cast::<Exported<DLManagedTensor>>()) });
    LIVE_EXPORTS.fetch_sub(1, Ordering::Relaxed);
}

impl ManagedTensorVersioned {
    pub(crate) fn new(header: ExportHeader, mut ctx: ExportContext, flags: u64) -> Self {
        let dl_tensor = dl_tensor_of(&header, &mut ctx);
        let boxed = Box::new(Exported {
            managed: DLManagedTensorVersioned {
                version: DLPackVersion {
                    major: DLPACK_MAJOR_VERSION,
                    minor: DLPACK_MINOR_VERSION,
                },
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_versioned),
                flags,
                dl_tensor,
            },
            ctx,
        });
        let raw = Box::into_raw(boxed);
        LIVE_EXPORTS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: `raw` is a live, exclusively owned allocation; the
        // context pointer is the allocation itself (opaque to consumers).
        unsafe { (*raw).managed.manager_ctx = raw.cast() };
        // SAFETY: `Box::into_raw` never returns NULL.
        ManagedTensorVersioned(unsafe { NonNull::new_unchecked(raw.cast()) })
    }

    fn get(&self) -> &DLManagedTensorVersioned {
        // SAFETY: the handle owns a live export until drop or `into_raw`.
        unsafe { self.0.as_ref() }
    }

    /// The `DLTensor` (data, device, dtype, shape and strides pointers).
    pub fn dl_tensor(&self) -> &DLTensor {
        &self.get().dl_tensor
    }

    /// The `FLAG_*` bits.
    pub fn flags(&self) -> u64 {
        self.get().flags
    }

    /// The DLPack version the export reports.
    pub fn version(&self) -> DLPackVersion {
        self.get().version
    }

    /// Whether consumers must not write ([`FLAG_READ_ONLY`]).
    pub fn is_read_only(&self) -> bool {
        self.flags() & FLAG_READ_ONLY != 0
    }

    /// The dimension sizes.
    pub fn shape(&self) -> &[i64] {
        &self.context().shape
    }

    /// The strides, in elements (always filled).
    pub fn strides(&self) -> &[i64] {
        &self.context().strides
    }

    fn context(&self) -> &ExportContext {
        // SAFETY: the managed struct is the first field of a live `Exported`.
        unsafe { &(*self.0.as_ptr().cast::<Exported<DLManagedTensorVersioned>>()).ctx }
    }

    /// Gives up ownership: the consumer now calls the deleter, exactly once.
    ///
    /// ```
    /// use tftensor::{dlpack, Tensor};
    /// let raw = dlpack::export(Tensor::from(1u8)).unwrap().into_raw();
    /// // SAFETY: `raw` is an unconsumed export, handed over once.
    /// let back = unsafe { dlpack::import(raw) }.unwrap();
    /// assert_eq!(back, Tensor::from(1u8));
    /// ```
    pub fn into_raw(self) -> *mut DLManagedTensorVersioned {
        ManuallyDrop::new(self).0.as_ptr()
    }
}

impl Drop for ManagedTensorVersioned {
    fn drop(&mut self) {
        // SAFETY: the handle still owns the export, released once here.
        unsafe { delete_versioned(self.0.as_ptr()) }
    }
}

impl fmt::Debug for ManagedTensorVersioned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManagedTensorVersioned")
            .field("dtype", &self.dl_tensor().dtype)
            .field("shape", &self.shape())
            .field("flags", &self.flags())
            .finish()
    }
}

impl ManagedTensor {
    pub(crate) fn new(header: ExportHeader, mut ctx: ExportContext) -> Self {
        let dl_tensor = dl_tensor_of(&header, &mut ctx);
        let boxed = Box::new(Exported {
            managed: DLManagedTensor {
                dl_tensor,
                manager_ctx: std::ptr::null_mut(),
                deleter: Some(delete_legacy),
            },
            ctx,
        });
        let raw = Box::into_raw(boxed);
        LIVE_EXPORTS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as in `ManagedTensorVersioned::new`.
        unsafe { (*raw).managed.manager_ctx = raw.cast() };
        // SAFETY: `Box::into_raw` never returns NULL.
        ManagedTensor(unsafe { NonNull::new_unchecked(raw.cast()) })
    }

    /// The `DLTensor`.
    pub fn dl_tensor(&self) -> &DLTensor {
        // SAFETY: the handle owns a live export until drop or `into_raw`.
        unsafe { &self.0.as_ref().dl_tensor }
    }

    /// Gives up ownership: the consumer now calls the deleter, exactly once.
    ///
    /// ```
    /// use tftensor::{dlpack, Tensor};
    /// let raw = dlpack::export_legacy(Tensor::from(2u8)).unwrap().into_raw();
    /// // SAFETY: `raw` is an unconsumed export, handed over once.
    /// let back = unsafe { dlpack::import_legacy(raw) }.unwrap();
    /// assert_eq!(back, Tensor::from(2u8));
    /// ```
    pub fn into_raw(self) -> *mut DLManagedTensor {
        ManuallyDrop::new(self).0.as_ptr()
    }
}

impl Drop for ManagedTensor {
    fn drop(&mut self) {
        // SAFETY: the handle still owns the export, released once here.
        unsafe { delete_legacy(self.0.as_ptr()) }
    }
}

impl fmt::Debug for ManagedTensor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManagedTensor")
            .field("dtype", &self.dl_tensor().dtype)
            .field("ndim", &self.dl_tensor().ndim)
            .finish()
    }
}

// ----- import -----

/// A foreign managed tensor this crate has taken ownership of. Dropping it
/// calls the producer's deleter, exactly once.
pub(crate) enum Foreign {
    Versioned(NonNull<DLManagedTensorVersioned>),
    Legacy(NonNull<DLManagedTensor>),
}

// SAFETY: `import`'s contract requires the memory to be readable and the
// deleter callable from any thread; `Foreign` only reads and deletes.
unsafe impl Send for Foreign {}
// SAFETY: as above; shared access only reads.
unsafe impl Sync for Foreign {}

fn dlpack_error(message: impl Into<String>) -> Error {
    Error::invalid_format("DLPack", message)
}

impl Foreign {
    /// Takes ownership of `p` (`None` for NULL, where there is nothing to
    /// own).
    ///
    /// # Safety
    /// `p` is NULL or a valid, unconsumed `DLManagedTensorVersioned` whose
    /// ownership passes to the result (see [`crate::dlpack::import`]).
    pub(crate) unsafe fn versioned(p: *mut DLManagedTensorVersioned) -> Option<Foreign> {
        NonNull::new(p).map(Foreign::Versioned)
    }

    /// # Safety
    /// As [`Foreign::versioned`], for a legacy `DLManagedTensor`.
    pub(crate) unsafe fn legacy(p: *mut DLManagedTensor) -> Option<Foreign> {
        NonNull::new(p).map(Foreign::Legacy)
    }

    /// The header, after the version gate: a versioned tensor whose major
    /// version is not 1 is not read any further (DLPack's rule).
    pub(crate) fn header(&self) -> Result<(DLTensor, u64)> {
        match self {
            Foreign::Versioned(p) => {
                // SAFETY: the constructor's contract: a valid managed
                // tensor; the version is read first and alone.
                let version = unsafe { (*p.as_ptr()).version };
                if version.major != DLPACK_MAJOR_VERSION {
                    return Err(dlpack_error(format!(
                        "unsupported DLPack version {}.{} (this crate reads {}.x)",
                        version.major, version.minor, DLPACK_MAJOR_VERSION
                    )));
                }
                // SAFETY: as above, major version 1 fixes the layout.
                let m = unsafe { p.as_ref() };
                Ok((m.dl_tensor, m.flags))
            }
            // SAFETY: the constructor's contract.
            Foreign::Legacy(p) => Ok((unsafe { p.as_ref() }.dl_tensor, 0)),
        }
    }

    /// The `ndim` dimension sizes. `ndim` was checked by the caller.
    pub(crate) fn shape(&self, t: &DLTensor, ndim: usize) -> Result<&[i64]> {
        self.dims("shape", t.shape, ndim)?
            .ok_or_else(|| dlpack_error(format!("shape is NULL with ndim {ndim}")))
    }

    /// The strides, or `None` when NULL (compact row-major).
    pub(crate) fn strides(&self, t: &DLTensor, ndim: usize) -> Result<Option<&[i64]>> {
        self.dims("strides", t.strides, ndim)
    }

    fn dims(&self, what: &str, p: *mut i64, ndim: usize) -> Result<Option<&[i64]>> {
        if ndim == 0 {
            return Ok(Some(&[]));
        }
        if p.is_null() {
            return Ok(None);
        }
        if !p.cast_const().is_aligned() {
            return Err(dlpack_error(format!("{what} pointer is misaligned")));
        }
        // SAFETY: the constructor's contract: non-NULL shape and strides
        // point to `ndim` values that live until the deleter runs, which
        // `&self` keeps from happening.
        Ok(Some(unsafe { std::slice::from_raw_parts(p, ndim) }))
    }

    /// The `len` bytes starting `start` bytes after `data + byte_offset`, as
    /// `Bytes` that keep this tensor (and so the producer's memory) alive.
    /// `start..start + len` must be the extent the caller computed from the
    /// tensor's own shape, strides and dtype.
    pub(crate) fn into_bytes(self, t: &DLTensor, start: i64, len: usize) -> Result<Bytes> {
        let bad = || dlpack_error("data address out of range");
        let offset = usize::try_from(t.byte_offset).map_err(|_| bad())?;
        let start_abs = (t.data as usize)
            .checked_add(offset)
            .and_then(|a| a.checked_add_signed(isize::try_from(start).ok()?))
            .ok_or_else(bad)?;
        if t.data.is_null() || start_abs == 0 {
            return Err(dlpack_error("data is NULL for a non-empty tensor"));
        }
        if len > isize::MAX as usize || start_abs.checked_add(len).is_none() {
            return Err(bad());
        }
        // Wrapping pointer arithmetic keeps the producer's provenance; the
        // address was range-checked above.
        let ptr = t
            .data
            .cast::<u8>()
            .wrapping_add(offset)
            .wrapping_offset(isize::try_from(start).map_err(|_| bad())?);
        Ok(Bytes::from_owner(ForeignBytes {
            ptr,
            len,
            _owner: self,
        }))
    }
}

impl Drop for Foreign {
    fn drop(&mut self) {
        match self {
            Foreign::Versioned(p) => {
                // SAFETY: we own the managed tensor; DLPack keeps `version`,
                // `manager_ctx` and `deleter` first in every version, so
                // the field is read even past a major-version mismatch.
                let deleter = unsafe { (*p.as_ptr()).deleter };
                if let Some(deleter) = deleter {
                    // SAFETY: called once, here, as the producer expects;
                    // nothing touches `p` afterwards.
                    unsafe { deleter(p.as_ptr()) }
                }
            }
            Foreign::Legacy(p) => {
                // SAFETY: we own the managed tensor.
                let deleter = unsafe { (*p.as_ptr()).deleter };
                if let Some(deleter) = deleter {
                    // SAFETY: as above.
                    unsafe { deleter(p.as_ptr()) }
                }
            }
        }
    }
}

/// Foreign bytes adopted by a tensor (through `Bytes::from_owner`).
struct ForeignBytes {
    ptr: *mut u8,
    len: usize,
    _owner: Foreign,
}

// SAFETY: as for `Foreign`, which owns the memory.
unsafe impl Send for ForeignBytes {}

impl AsRef<[u8]> for ForeignBytes {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: `ptr..ptr + len` is the tensor's extent, inside the
        // producer's allocation (`import`'s contract), non-NULL and
        // range-checked in `into_bytes`; `_owner` keeps it alive. The crate
        // never writes through it: adopted bytes are copy-on-write.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}
