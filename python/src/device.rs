//! CUDA tensors for Python: `tftensor.DeviceTensor` (what `from_dlpack`
//! returns for a CUDA producer unless `device="cpu"`), its readbacks, and
//! `tftensor.upload`. The CUDA driver is loaded at run time; without it
//! these raise `RuntimeError("no CUDA driver: ...")`.

use std::sync::Mutex;

use pyo3::exceptions::{PyBufferError, PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use tft::device::{self, DeviceTensor, Readback};
use tft::dlpack::{self, DLDeviceType};

use crate::PyTensor;
use crate::capsule;
use crate::errors::{buffer_error, to_py};

/// Driver errors are `RuntimeError`s (the missing driver is no missing
/// file); the rest map as everywhere.
fn device_error(err: tft::Error) -> PyErr {
    match err {
        err @ tft::Error::NotFound { .. } => PyRuntimeError::new_err(err.to_string()),
        other => to_py(other),
    }
}

/// A tensor in CUDA device memory, held zero-copy from a DLPack producer
/// (PyTorch, JAX, CuPy) or uploaded. Read it with `readback()` or
/// `readback_async()`; hand it on with DLPack (`torch.from_dlpack(d)`).
#[pyclass(name = "DeviceTensor", module = "tftensor", frozen)]
pub struct PyDeviceTensor {
    inner: DeviceTensor,
}

#[pymethods]
impl PyDeviceTensor {
    /// The dimension sizes, as a tuple.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.shape().dim_sizes())
    }

    /// TensorFlow's name of the dtype.
    #[getter]
    fn dtype(&self) -> String {
        self.inner.dtype().name().into_owned()
    }

    /// `(device_type, device_id)` as DLPack says: `(2, n)` for CUDA.
    #[getter]
    fn device(&self) -> (i32, i32) {
        let d = self.inner.device();
        (d.device_type.0, d.device_id)
    }

    /// The device address of the first element.
    #[getter]
    fn data_ptr(&self) -> u64 {
        self.inner.data_ptr()
    }

    /// TensorFlow's `DeviceSafeDebugString`.
    fn __repr__(&self) -> String {
        self.inner.to_string()
    }

    /// A host `tftensor.Tensor` with the elements (through pinned memory),
    /// after the producer's work on them. Releases the GIL while copying.
    fn readback(&self, py: Python<'_>) -> PyResult<PyTensor> {
        let d = self.inner.clone();
        let t = py
            .detach(move || d.readback_and_clone())
            .map_err(device_error)?;
        Ok(t.into())
    }

    /// Starts a readback and returns at once: a `Readback` with `is_done()`
    /// and `wait()`.
    fn readback_async(&self) -> PyResult<PyReadback> {
        let r = self
            .inner
            .readback_and_clone_async()
            .map_err(device_error)?;
        Ok(PyReadback {
            inner: Mutex::new(Some(r)),
        })
    }

    /// DLPack export: the device memory, read-only, zero-copy.
    /// `dl_device=(1, 0)` hands a host copy instead. `stream` is the
    /// consumer's CUDA stream (1 legacy default, 2 per-thread default, -1
    /// no synchronisation wanted); the consumer's stream waits for the data.
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<i64>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let versioned = max_version.is_some_and(|(major, _)| major >= 1);
        let own = self.device();
        if dl_device == Some((DLDeviceType::CPU.0, 0)) {
            if copy == Some(false) {
                return Err(PyBufferError::new_err(
                    "copy=False: a device tensor reaches the CPU only as a copy",
                ));
            }
            let d = self.inner.clone();
            let host = py
                .detach(move || d.readback_and_clone())
                .map_err(device_error)?;
            return if versioned {
                capsule::versioned_capsule(py, dlpack::export(host).map_err(buffer_error)?)
            } else {
                capsule::legacy_capsule(py, dlpack::export_legacy(host).map_err(buffer_error)?)
            };
        }
        if let Some(other) = dl_device.filter(|&d| d != own) {
            return Err(PyBufferError::new_err(format!(
                "cannot export a tensor on {own:?} to device {other:?}"
            )));
        }
        if copy == Some(true) {
            return Err(PyBufferError::new_err(
                "copy=True: device-to-device copies are not supported",
            ));
        }
        let stream = match stream {
            None | Some(-1) => None,
            Some(0) => {
                return Err(PyValueError::new_err(
                    "stream 0 is ambiguous for CUDA (DLPack): pass 1 or 2",
                ));
            }
            Some(s) => Some(
                usize::try_from(s)
                    .map_err(|_| PyValueError::new_err(format!("invalid stream {s}")))?,
            ),
        };
        if versioned {
            let m = self.inner.to_dlpack(stream).map_err(device_error)?;
            capsule::versioned_capsule(py, m)
        } else {
            let m = self.inner.to_dlpack_legacy(stream).map_err(device_error)?;
            capsule::legacy_capsule(py, m)
        }
    }

    /// `(device_type, device_id)`.
    fn __dlpack_device__(&self) -> (i32, i32) {
        self.device()
    }
}

/// A readback in flight.
#[pyclass(name = "Readback", module = "tftensor", frozen)]
pub struct PyReadback {
    inner: Mutex<Option<Readback>>,
}

#[pymethods]
impl PyReadback {
    /// Whether the copy has finished.
    fn is_done(&self) -> PyResult<bool> {
        let guard = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        match guard.as_ref() {
            Some(r) => r.is_done().map_err(device_error),
            None => Ok(true),
        }
    }

    /// Waits for the copy (releasing the GIL) and returns the host tensor;
    /// only once.
    fn wait(&self, py: Python<'_>) -> PyResult<PyTensor> {
        let taken = self.inner.lock().unwrap_or_else(|p| p.into_inner()).take();
        let r = taken.ok_or_else(|| PyValueError::new_err("wait() was already called"))?;
        let t = py.detach(move || r.wait()).map_err(device_error)?;
        Ok(t.into())
    }
}

/// Copies a host tensor to a CUDA device: `upload(t, "cuda:0")`.
#[pyfunction]
#[pyo3(signature = (tensor, device = "cuda:0"))]
fn upload(py: Python<'_>, tensor: PyRef<'_, PyTensor>, device: &str) -> PyResult<PyDeviceTensor> {
    let ordinal = match device.strip_prefix("cuda") {
        Some("") => 0,
        Some(rest) => rest
            .strip_prefix(':')
            .and_then(|n| n.parse::<i32>().ok())
            .ok_or_else(|| PyValueError::new_err(format!("bad device {device:?}")))?,
        None => {
            return Err(PyValueError::new_err(format!(
                "device must be \"cuda\" or \"cuda:N\", not {device:?}"
            )));
        }
    };
    let t = tensor.inner.clone();
    let inner = py
        .detach(move || device::upload(&t, ordinal))
        .map_err(device_error)?;
    Ok(PyDeviceTensor { inner })
}

/// How many CUDA devices the driver sees (`RuntimeError` without one).
#[pyfunction]
fn cuda_device_count() -> PyResult<usize> {
    device::device_count().map_err(device_error)
}

/// DLPack's stream integer for CUDA's legacy default stream.
const LEGACY_STREAM: usize = 1;

fn is_cuda(kind: DLDeviceType) -> bool {
    kind == DLDeviceType::CUDA || kind == DLDeviceType::CUDA_MANAGED
}

/// For `from_dlpack`: a CUDA (or CUDA managed) producer, asked for its
/// tensor on the legacy default stream (DLPack stream 1, which it makes
/// wait for its own work), or a capsule holding such a tensor (from
/// `torch.utils.dlpack.to_dlpack`; its data is taken as ready on the legacy
/// stream), held as a `DeviceTensor`. `None` for anything else.
pub(crate) fn adopt_device<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    copy: Option<bool>,
) -> PyResult<Option<Bound<'py, PyAny>>> {
    if copy == Some(true) && on_cuda(x)? {
        return Err(PyBufferError::new_err(
            "copy=True of a device tensor: pass device=\"cpu\" for a host copy",
        ));
    }
    let Some(adopted) = adopt(py, x)? else {
        return Ok(None);
    };
    Ok(Some(
        Bound::new(py, PyDeviceTensor { inner: adopted })?.into_any(),
    ))
}

/// For `from_dlpack(x, device="cpu")` of a CUDA producer, when this machine
/// has a CUDA driver: the tensor read back through this crate's pinned
/// staging (tens of GB/s), instead of the producer's own host copy (which
/// lands in fresh pageable pages, at about 1.5 GB/s). `None` when `x` is no
/// CUDA tensor, or when there is no driver (the producer is asked then).
/// `copy=False` of CUDA device memory is a `BufferError`: the host cannot
/// reach it without a copy (managed memory is left to the producer).
pub(crate) fn read_back_to_host(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    copy: Option<bool>,
) -> PyResult<Option<PyTensor>> {
    match cuda_kind(x)? {
        None => return Ok(None),
        Some(DLDeviceType::CUDA) if copy == Some(false) => {
            return Err(PyBufferError::new_err(
                "copy=False, but a CUDA tensor reaches the host only by a copy: pass copy=None",
            ));
        }
        Some(_) if copy == Some(false) || !device::device_count().is_ok_and(|n| n > 0) => {
            return Ok(None);
        }
        Some(_) => {}
    }
    let Some(adopted) = adopt(py, x)? else {
        return Ok(None);
    };
    let t = py
        .detach(move || adopted.readback_and_clone())
        .map_err(device_error)?;
    Ok(Some(t.into()))
}

/// Whether `x` is a CUDA producer or an unconsumed capsule of CUDA memory.
fn on_cuda(x: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(cuda_kind(x)?.is_some())
}

/// `x`'s device type when it is CUDA or CUDA managed memory, from a
/// producer's `__dlpack_device__` or an unconsumed capsule.
fn cuda_kind(x: &Bound<'_, PyAny>) -> PyResult<Option<DLDeviceType>> {
    let kind = match x.getattr("__dlpack_device__") {
        Ok(device) => {
            let (device_type, _): (i32, i32) = device.call0()?.extract()?;
            DLDeviceType(device_type)
        }
        Err(_) => match capsule::capsule_device(x) {
            Some(d) => d.device_type,
            None => return Ok(None),
        },
    };
    Ok(is_cuda(kind).then_some(kind))
}

/// The CUDA tensor behind `x` (see [`adopt_device`]), or `None`.
fn adopt(py: Python<'_>, x: &Bound<'_, PyAny>) -> PyResult<Option<DeviceTensor>> {
    if !on_cuda(x)? {
        return Ok(None);
    }
    if !x.hasattr("__dlpack_device__")? {
        return adopt_capsule(py, x).map(Some);
    }
    let kwargs = PyDict::new(py);
    kwargs.set_item("stream", LEGACY_STREAM)?;
    kwargs.set_item(
        "max_version",
        (dlpack::DLPACK_MAJOR_VERSION, dlpack::DLPACK_MINOR_VERSION),
    )?;
    let cap = match x.call_method("__dlpack__", (), Some(&kwargs)) {
        Err(e) if e.is_instance_of::<PyTypeError>(py) => {
            let old = PyDict::new(py);
            old.set_item("stream", LEGACY_STREAM)?;
            x.call_method("__dlpack__", (), Some(&old))?
        }
        other => other?,
    };
    adopt_capsule(py, &cap).map(Some)
}

/// A capsule's CUDA tensor as a `DeviceTensor`, ready on the legacy stream.
fn adopt_capsule(py: Python<'_>, cap: &Bound<'_, PyAny>) -> PyResult<DeviceTensor> {
    let taken = capsule::take(py, cap)?;
    // SAFETY: `take` hands over an unconsumed managed tensor of this kind;
    // GPU producers (PyTorch, JAX, CuPy) keep the device memory until the
    // deleter, which may run on any thread (it takes the GIL itself).
    unsafe {
        if taken.versioned {
            DeviceTensor::from_dlpack(taken.pointer.cast(), LEGACY_STREAM)
        } else {
            DeviceTensor::from_dlpack_legacy(taken.pointer.cast(), LEGACY_STREAM)
        }
    }
    .map_err(buffer_error)
}

/// Adds the classes and functions to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyDeviceTensor>()?;
    m.add_class::<PyReadback>()?;
    m.add_function(wrap_pyfunction!(upload, m)?)?;
    m.add_function(wrap_pyfunction!(cuda_device_count, m)?)?;
    Ok(())
}
