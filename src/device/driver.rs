//! The CUDA driver API, loaded from `libcuda.so.1` at run time: the handful
//! of symbols this module calls, behind safe wrappers that turn a
//! `CUresult` into an [`Error`].

use std::ffi::{CStr, c_char, c_int, c_uint, c_void};
use std::sync::{Mutex, OnceLock};

use super::{cuda_error, no_driver};
use crate::error::Result;

/// `CUresult`: 0 is success.
type CuResult = c_int;
/// `CUdevice`: an ordinal.
type CuDevice = c_int;
/// `CUdeviceptr`: a device address.
pub(crate) type DevicePtr = u64;
/// `CUcontext`, `CUstream`, `CUevent`: opaque handles.
type Handle = *mut c_void;

const CUDA_SUCCESS: CuResult = 0;
const CUDA_ERROR_NOT_READY: CuResult = 600;
/// `CU_STREAM_NON_BLOCKING`: no implicit sync with the legacy stream.
const CU_STREAM_NON_BLOCKING: c_uint = 1;
/// `CU_EVENT_DISABLE_TIMING`: the cheap kind of event.
const CU_EVENT_DISABLE_TIMING: c_uint = 2;
/// `CU_MEMHOSTALLOC_PORTABLE`: pinned for every context.
const CU_MEMHOSTALLOC_PORTABLE: c_uint = 1;

/// The driver functions, resolved once. Field names are the symbols'.
#[allow(non_snake_case)]
struct Api {
    cuInit: unsafe extern "C" fn(c_uint) -> CuResult,
    cuGetErrorName: unsafe extern "C" fn(CuResult, *mut *const c_char) -> CuResult,
    cuDeviceGet: unsafe extern "C" fn(*mut CuDevice, c_int) -> CuResult,
    cuDeviceGetCount: unsafe extern "C" fn(*mut c_int) -> CuResult,
    cuDevicePrimaryCtxRetain: unsafe extern "C" fn(*mut Handle, CuDevice) -> CuResult,
    cuCtxSetCurrent: unsafe extern "C" fn(Handle) -> CuResult,
    cuMemAlloc: unsafe extern "C" fn(*mut DevicePtr, usize) -> CuResult,
    cuMemFree: unsafe extern "C" fn(DevicePtr) -> CuResult,
    cuMemcpyDtoHAsync: unsafe extern "C" fn(*mut c_void, DevicePtr, usize, Handle) -> CuResult,
    cuMemcpyHtoD: unsafe extern "C" fn(DevicePtr, *const c_void, usize) -> CuResult,
    cuMemHostAlloc: unsafe extern "C" fn(*mut *mut c_void, usize, c_uint) -> CuResult,
    cuMemFreeHost: unsafe extern "C" fn(*mut c_void) -> CuResult,
    cuStreamCreate: unsafe extern "C" fn(*mut Handle, c_uint) -> CuResult,
    cuStreamSynchronize: unsafe extern "C" fn(Handle) -> CuResult,
    cuStreamWaitEvent: unsafe extern "C" fn(Handle, Handle, c_uint) -> CuResult,
    cuEventCreate: unsafe extern "C" fn(*mut Handle, c_uint) -> CuResult,
    cuEventRecord: unsafe extern "C" fn(Handle, Handle) -> CuResult,
    cuEventQuery: unsafe extern "C" fn(Handle) -> CuResult,
    cuEventSynchronize: unsafe extern "C" fn(Handle) -> CuResult,
    cuEventDestroy: unsafe extern "C" fn(Handle) -> CuResult,
    /// Keeps the symbols above valid.
    _lib: libloading::Library,
}

/// Where the driver lives on Linux (the soname the NVIDIA driver installs).
const LIBCUDA: &str = "libcuda.so.1";

static API: OnceLock<std::result::Result<Api, String>> = OnceLock::new();

fn load() -> std::result::Result<Api, String> {
    // SAFETY: loading libcuda runs its initialisers, which have no
    // preconditions; it is the library every CUDA program loads.
    let lib = unsafe { libloading::Library::new(LIBCUDA) }
        .map_err(|e| format!("cannot load {LIBCUDA} ({e})"))?;
    macro_rules! sym {
        ($name:literal) => {
            // SAFETY: the field's type is the driver API's prototype of
            // this symbol (cuda.h; `_v2` names are the 64-bit ABI ones).
            *unsafe { lib.get(concat!($name, "\0").as_bytes()) }
                .map_err(|e| format!("{LIBCUDA} lacks {} ({e})", $name))?
        };
    }
    let api = Api {
        cuInit: sym!("cuInit"),
        cuGetErrorName: sym!("cuGetErrorName"),
        cuDeviceGet: sym!("cuDeviceGet"),
        cuDeviceGetCount: sym!("cuDeviceGetCount"),
        cuDevicePrimaryCtxRetain: sym!("cuDevicePrimaryCtxRetain"),
        cuCtxSetCurrent: sym!("cuCtxSetCurrent"),
        cuMemAlloc: sym!("cuMemAlloc_v2"),
        cuMemFree: sym!("cuMemFree_v2"),
        cuMemcpyDtoHAsync: sym!("cuMemcpyDtoHAsync_v2"),
        cuMemcpyHtoD: sym!("cuMemcpyHtoD_v2"),
        cuMemHostAlloc: sym!("cuMemHostAlloc"),
        cuMemFreeHost: sym!("cuMemFreeHost"),
        cuStreamCreate: sym!("cuStreamCreate"),
        cuStreamSynchronize: sym!("cuStreamSynchronize"),
        cuStreamWaitEvent: sym!("cuStreamWaitEvent"),
        cuEventCreate: sym!("cuEventCreate"),
        cuEventRecord: sym!("cuEventRecord"),
        cuEventQuery: sym!("cuEventQuery"),
        cuEventSynchronize: sym!("cuEventSynchronize"),
        cuEventDestroy: sym!("cuEventDestroy_v2"),
        _lib: lib,
    };
    // SAFETY: cuInit(0) is the driver's documented first call.
    let rc = unsafe { (api.cuInit)(0) };
    if rc != CUDA_SUCCESS {
        return Err(format!("cuInit failed: {}", api.name(rc)));
    }
    Ok(api)
}

impl Api {
    fn name(&self, rc: CuResult) -> String {
        let mut s: *const c_char = std::ptr::null();
        // SAFETY: cuGetErrorName writes a static string or leaves NULL.
        let known = unsafe { (self.cuGetErrorName)(rc, &mut s) } == CUDA_SUCCESS;
        if known && !s.is_null() {
            // SAFETY: a NUL-terminated static string from the driver.
            let name = unsafe { CStr::from_ptr(s) };
            format!("{} ({rc})", name.to_string_lossy())
        } else {
            format!("CUresult {rc}")
        }
    }

    fn check(&self, call: &str, rc: CuResult) -> Result<()> {
        if rc == CUDA_SUCCESS {
            Ok(())
        } else {
            Err(cuda_error(format!("{call} failed: {}", self.name(rc))))
        }
    }
}

/// The loaded driver: every device call goes through this.
#[derive(Clone, Copy)]
pub(crate) struct Driver(&'static Api);

/// Proof that a device's primary context was made current on this thread
/// (so it is not `Send`).
pub(crate) struct Context(std::marker::PhantomData<*const ()>);

impl Driver {
    /// The driver, loaded and initialised on first use.
    ///
    /// # Errors
    /// The "no CUDA driver" error when `libcuda.so.1` cannot be loaded,
    /// lacks a symbol, or `cuInit` fails (no GPU, driver/kernel mismatch).
    pub(crate) fn get() -> Result<Driver> {
        match API.get_or_init(load) {
            Ok(api) => Ok(Driver(api)),
            Err(why) => Err(no_driver(why)),
        }
    }

    /// How many devices the driver sees.
    pub(crate) fn device_count(self) -> Result<usize> {
        let mut n: c_int = 0;
        // SAFETY: writes one int.
        let rc = unsafe { (self.0.cuDeviceGetCount)(&mut n) };
        self.0.check("cuDeviceGetCount", rc)?;
        usize::try_from(n).map_err(|_| cuda_error("cuDeviceGetCount: negative count"))
    }

    /// Makes device `ordinal`'s primary context current on this thread.
    /// Primary contexts are retained once per process and never released:
    /// they live as long as the driver does.
    pub(crate) fn enter(self, ordinal: i32) -> Result<Context> {
        let ctx = self.primary_context(ordinal)?;
        // SAFETY: `ctx` is a live, retained context.
        let rc = unsafe { (self.0.cuCtxSetCurrent)(ctx) };
        self.0.check("cuCtxSetCurrent", rc)?;
        Ok(Context(std::marker::PhantomData))
    }

    /// Device `ordinal`'s primary context, retained on first use.
    fn primary_context(self, ordinal: i32) -> Result<Handle> {
        static RETAINED: Mutex<Vec<(i32, usize)>> = Mutex::new(Vec::new());
        // The list is valid between statements: a poisoned lock is usable.
        let mut retained = RETAINED.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(&(_, ctx)) = retained.iter().find(|(o, _)| *o == ordinal) {
            return Ok(std::ptr::with_exposed_provenance_mut(ctx));
        }
        let mut dev: CuDevice = 0;
        // SAFETY: writes one CUdevice.
        self.0.check("cuDeviceGet", unsafe {
            (self.0.cuDeviceGet)(&mut dev, ordinal)
        })?;
        let mut ctx: Handle = std::ptr::null_mut();
        // SAFETY: writes one context handle; retaining again is a refcount.
        self.0.check("cuDevicePrimaryCtxRetain", unsafe {
            (self.0.cuDevicePrimaryCtxRetain)(&mut ctx, dev)
        })?;
        retained.push((ordinal, ctx.expose_provenance()));
        Ok(ctx)
    }

    /// Allocates `len` bytes on the current context's device.
    pub(crate) fn mem_alloc(self, _: &Context, len: usize) -> Result<DevicePtr> {
        let mut p: DevicePtr = 0;
        // SAFETY: writes one device pointer.
        let rc = unsafe { (self.0.cuMemAlloc)(&mut p, len) };
        self.0.check("cuMemAlloc", rc)?;
        Ok(p)
    }

    /// Frees [`Driver::mem_alloc`] memory.
    ///
    /// # Safety
    /// `p` came from `mem_alloc` and no pending work uses it.
    pub(crate) unsafe fn mem_free(self, _: &Context, p: DevicePtr) -> Result<()> {
        // SAFETY: the caller's contract.
        self.0.check("cuMemFree", unsafe { (self.0.cuMemFree)(p) })
    }

    /// Enqueues a copy of `len` bytes from `src` to pinned `dst` on `stream`.
    ///
    /// # Safety
    /// `dst..dst + len` is pinned host memory and `src..src + len` device
    /// memory, both kept alive and untouched until the stream passes it.
    pub(crate) unsafe fn copy_dtoh_async(
        self,
        _: &Context,
        dst: *mut u8,
        src: DevicePtr,
        len: usize,
        stream: &Stream,
    ) -> Result<()> {
        // SAFETY: the caller's contract; `stream` is live.
        self.0.check("cuMemcpyDtoHAsync", unsafe {
            (self.0.cuMemcpyDtoHAsync)(dst.cast(), src, len, stream.0)
        })
    }

    /// Copies `src` to device address `dst` (synchronous).
    ///
    /// # Safety
    /// `dst..dst + src.len()` is writable device memory nobody else uses.
    pub(crate) unsafe fn copy_htod(self, _: &Context, dst: DevicePtr, src: &[u8]) -> Result<()> {
        // SAFETY: the caller's contract; `src` is readable host memory.
        self.0.check("cuMemcpyHtoD", unsafe {
            (self.0.cuMemcpyHtoD)(dst, src.as_ptr().cast(), src.len())
        })
    }

    /// Allocates `len` bytes of pinned (page-locked) host memory.
    pub(crate) fn host_alloc(self, _: &Context, len: usize) -> Result<*mut u8> {
        let mut p: *mut c_void = std::ptr::null_mut();
        // SAFETY: writes one pointer.
        self.0.check("cuMemHostAlloc", unsafe {
            (self.0.cuMemHostAlloc)(&mut p, len, CU_MEMHOSTALLOC_PORTABLE)
        })?;
        if p.is_null() {
            return Err(cuda_error("cuMemHostAlloc returned NULL"));
        }
        Ok(p.cast())
    }

    /// Frees [`Driver::host_alloc`] memory.
    ///
    /// # Safety
    /// `p` came from `host_alloc` and nothing uses it any more.
    pub(crate) unsafe fn host_free(self, _: &Context, p: *mut u8) -> Result<()> {
        // SAFETY: the caller's contract.
        self.0
            .check("cuMemFreeHost", unsafe { (self.0.cuMemFreeHost)(p.cast()) })
    }

    /// A new non-blocking stream on the current context.
    pub(crate) fn stream(self, _: &Context) -> Result<Stream> {
        let mut s: Handle = std::ptr::null_mut();
        // SAFETY: writes one stream handle.
        self.0.check("cuStreamCreate", unsafe {
            (self.0.cuStreamCreate)(&mut s, CU_STREAM_NON_BLOCKING)
        })?;
        Ok(Stream(s))
    }

    /// Waits until all work on `stream` is done.
    pub(crate) fn sync_stream(self, stream: &Stream) -> Result<()> {
        // SAFETY: `stream` is live (or a special handle).
        self.0.check("cuStreamSynchronize", unsafe {
            (self.0.cuStreamSynchronize)(stream.0)
        })
    }

    /// An event recorded on `stream` now (its work so far).
    pub(crate) fn record(self, _: &Context, stream: &Stream) -> Result<Event> {
        let mut e: Handle = std::ptr::null_mut();
        // SAFETY: writes one event handle.
        self.0.check("cuEventCreate", unsafe {
            (self.0.cuEventCreate)(&mut e, CU_EVENT_DISABLE_TIMING)
        })?;
        let event = Event(e, self);
        // SAFETY: both handles are live.
        self.0.check("cuEventRecord", unsafe {
            (self.0.cuEventRecord)(e, stream.0)
        })?;
        Ok(event)
    }

    /// Makes later work on `stream` wait for `event`.
    pub(crate) fn wait_event(self, stream: &Stream, event: &Event) -> Result<()> {
        // SAFETY: both handles are live.
        self.0.check("cuStreamWaitEvent", unsafe {
            (self.0.cuStreamWaitEvent)(stream.0, event.0, 0)
        })
    }
}

/// A CUDA stream handle. Streams this crate made ([`Driver::stream`]) are
/// never destroyed: there is one per device, reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Stream(Handle);

// SAFETY: a stream handle is a plain driver token, usable from any thread.
unsafe impl Send for Stream {}
// SAFETY: as above.
unsafe impl Sync for Stream {}

impl Stream {
    /// A stream from DLPack's integer form: 1 is the legacy default stream,
    /// 2 the per-thread default stream, anything else a `CUstream` handle
    /// (`cudaStream_t` is the same handle). 0 is not allowed by DLPack for
    /// CUDA (it is ambiguous) and reads as the legacy stream.
    pub(crate) fn from_dlpack(stream: usize) -> Stream {
        // `CU_STREAM_LEGACY` is the handle 0x1, `CU_STREAM_PER_THREAD` 0x2.
        Stream(std::ptr::without_provenance_mut(stream.max(1)))
    }
}

/// A recorded CUDA event, destroyed on drop.
pub(crate) struct Event(Handle, Driver);

// SAFETY: as for `Stream`.
unsafe impl Send for Event {}
// SAFETY: as for `Stream`.
unsafe impl Sync for Event {}

impl Event {
    /// Whether the work before the event is done.
    pub(crate) fn is_done(&self) -> Result<bool> {
        let api = self.1.0;
        // SAFETY: the event is live.
        match unsafe { (api.cuEventQuery)(self.0) } {
            CUDA_SUCCESS => Ok(true),
            CUDA_ERROR_NOT_READY => Ok(false),
            rc => api.check("cuEventQuery", rc).map(|()| false),
        }
    }

    /// Blocks until the work before the event is done.
    pub(crate) fn wait(&self) -> Result<()> {
        let api = self.1.0;
        // SAFETY: the event is live.
        api.check("cuEventSynchronize", unsafe {
            (api.cuEventSynchronize)(self.0)
        })
    }
}

impl Drop for Event {
    fn drop(&mut self) {
        // SAFETY: the event is live and dropped once; destroying an event
        // with pending work is allowed (the driver frees it when done).
        unsafe { (self.1.0.cuEventDestroy)(self.0) };
    }
}
