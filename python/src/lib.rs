//! `tftensor` for Python: TensorFlow's tensor (from the Rust crate
//! `tftensor`) with zero-copy DLPack exchange, TensorProto bytes and TF's
//! summaries.
//!
//! ```python
//! import numpy as np, tftensor
//! t = tftensor.from_dlpack(np.arange(6, dtype=np.float32).reshape(2, 3))
//! print(t.dtype, t.shape, t)          # float (2, 3) Tensor<type: float ...>
//! a = np.from_dlpack(t)               # same memory, read-only
//! ```

mod capsule;
mod errors;
mod formats;
mod io;

use pyo3::exceptions::{PyBufferError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyTuple};
use tft::dlpack::{self, DLDeviceType};
use tft::prost::Message;

use errors::{buffer_error, to_py};

/// A TensorFlow tensor: a dtype and a shape over a refcounted buffer.
///
/// Tensors are immutable from Python. They exchange memory with NumPy,
/// PyTorch and other DLPack libraries without copying: `np.from_dlpack(t)`
/// and `tftensor.from_dlpack(array)`.
#[pyclass(name = "Tensor", module = "tftensor", frozen, eq)]
#[derive(Clone, PartialEq)]
pub struct PyTensor {
    pub(crate) inner: tft::Tensor,
}

impl From<tft::Tensor> for PyTensor {
    fn from(inner: tft::Tensor) -> Self {
        PyTensor { inner }
    }
}

#[pymethods]
impl PyTensor {
    /// The dimension sizes, as a tuple.
    #[getter]
    fn shape<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.shape().dim_sizes())
    }

    /// TensorFlow's name of the dtype (`"float"`, `"int32"`, `"bfloat16"`, ...).
    #[getter]
    fn dtype(&self) -> String {
        self.inner.dtype().name().into_owned()
    }

    /// The number of elements.
    #[getter]
    fn num_elements(&self) -> i64 {
        self.inner.num_elements()
    }

    /// The address of the first element (0 without a buffer).
    #[getter]
    fn data_ptr(&self) -> usize {
        self.inner.data_ptr().map_or(0, |p| p as usize)
    }

    /// Whether another tensor (or a DLPack export) shares this buffer, so an
    /// export of it is read-only.
    #[getter]
    fn is_shared(&self) -> bool {
        self.inner.is_shared()
    }

    /// TensorFlow's `tensor_data()`: the raw little-endian element bytes
    /// (a copy), for dtypes stored as plain memory.
    fn tensor_data<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, self.inner.tensor_data().map_err(to_py)?))
    }

    /// The values as a NumPy array: zero-copy and read-only for the dtypes
    /// NumPy has (through DLPack); a copy of `bytes` objects in an object
    /// array for strings.
    fn numpy<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        let py = slf.py();
        let np = py.import("numpy")?;
        let this = slf.get();
        if this.inner.dtype() != tft::DataType::String {
            return np.call_method1("from_dlpack", (slf,));
        }
        let strings = this.inner.as_slice::<tft::bytes::Bytes>().map_err(to_py)?;
        let items = pyo3::types::PyList::empty(py);
        for s in strings {
            items.append(PyBytes::new(py, s))?;
        }
        let flat = np.call_method1("empty", (strings.len(), "object"))?;
        flat.set_item(pyo3::types::PySlice::full(py), items)?;
        flat.call_method1(
            "reshape",
            (PyTuple::new(py, this.inner.shape().dim_sizes())?,),
        )
    }

    /// NumPy's array protocol, so `np.asarray(t)` is the array of values:
    /// zero-copy and read-only unless `copy=True` or a `dtype` cast needs
    /// one; `copy=False` refuses what needs a copy (strings, casts), as
    /// NumPy 2 asks.
    #[pyo3(signature = (dtype = None, copy = None))]
    fn __array__<'py>(
        slf: &Bound<'py, Self>,
        dtype: Option<Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let is_string = slf.get().inner.dtype() == tft::DataType::String;
        if copy == Some(false) && is_string {
            return Err(PyValueError::new_err(
                "a string tensor becomes an array of bytes objects only by copying",
            ));
        }
        let mut array = PyTensor::numpy(slf)?;
        if let Some(dtype) = dtype {
            let kwargs = PyDict::new(slf.py());
            kwargs.set_item("copy", false)?;
            let cast = array.call_method("astype", (dtype,), Some(&kwargs))?;
            if copy == Some(false) && !cast.is(&array) {
                return Err(PyValueError::new_err(
                    "the dtype asked for needs a copy, and copy=False",
                ));
            }
            array = cast;
        }
        if copy == Some(true) {
            array = array.call_method0("copy")?;
        }
        Ok(array)
    }

    /// The values as nested Python lists (`bytes` for strings), as
    /// `numpy().tolist()`.
    fn tolist<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyAny>> {
        PyTensor::numpy(slf)?.call_method0("tolist")
    }

    /// TensorFlow's `DebugString`.
    fn __repr__(&self) -> String {
        self.inner.debug_string()
    }

    /// TensorFlow's `SummarizeValue(max_entries, print_v2)`.
    #[pyo3(signature = (max_entries = 3, v2 = false))]
    fn summarize(&self, max_entries: i64, v2: bool) -> String {
        self.inner.summarize_value(max_entries, v2)
    }

    /// A serialized `TensorProto`: `form="content"` packs the values into
    /// `tensor_content` (TF's `AsProtoTensorContent`), `form="field"` into
    /// the typed repeated fields (`AsProtoField`).
    #[pyo3(signature = (form = "content"))]
    fn to_proto<'py>(&self, py: Python<'py>, form: &str) -> PyResult<Bound<'py, PyBytes>> {
        let proto = match form {
            "content" => self.inner.as_proto_tensor_content(),
            "field" => self.inner.as_proto_field(),
            other => {
                return Err(PyValueError::new_err(format!(
                    "form must be \"content\" or \"field\", not {other:?}"
                )))
            }
        }
        .map_err(to_py)?;
        Ok(PyBytes::new(py, &proto.encode_to_vec()))
    }

    /// DLPack export (the array API's `__dlpack__`). Zero-copy; read-only
    /// because this tensor keeps its handle on the buffer. `copy=True`
    /// exports a private, writable copy. A legacy capsule (no `max_version`,
    /// or major version 0) can only carry a copy, as it cannot say
    /// read-only.
    #[pyo3(signature = (*, stream = None, max_version = None, dl_device = None, copy = None))]
    fn __dlpack__<'py>(
        &self,
        py: Python<'py>,
        stream: Option<Bound<'py, PyAny>>,
        max_version: Option<(u32, u32)>,
        dl_device: Option<(i32, i32)>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if stream.is_some() {
            return Err(PyValueError::new_err(
                "stream must be None for a CPU tensor",
            ));
        }
        if let Some((device_type, device_id)) = dl_device {
            if (device_type, device_id) != (DLDeviceType::CPU.0, 0) {
                return Err(PyBufferError::new_err(format!(
                    "cannot export to device {} (id {device_id}): tftensor tensors live on the CPU",
                    DLDeviceType(device_type)
                )));
            }
        }
        let versioned = max_version.is_some_and(|(major, _)| major >= 1);
        let copy = copy == Some(true);
        if versioned {
            let managed = if copy {
                dlpack::export_copy(&self.inner)
            } else {
                dlpack::export(self.inner.clone())
            }
            .map_err(buffer_error)?;
            capsule::versioned_capsule(py, managed)
        } else {
            let tensor = if copy {
                self.inner.deep_copy().map_err(to_py)?
            } else {
                self.inner.clone()
            };
            let managed = dlpack::export_legacy(tensor).map_err(buffer_error)?;
            capsule::legacy_capsule(py, managed)
        }
    }

    /// `(device_type, device_id)`: always `(1, 0)`, the CPU.
    fn __dlpack_device__(&self) -> (i32, i32) {
        (DLDeviceType::CPU.0, 0)
    }
}

/// The tensor behind any DLPack producer (a NumPy array, a PyTorch tensor, a
/// `tftensor.Tensor`) or a DLPack capsule. Zero-copy when the data is
/// C-contiguous and aligned for its dtype; transposed, strided, reversed or
/// misaligned data is copied into a compact tensor. The producer's memory is
/// never written.
#[pyfunction]
fn from_dlpack(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let capsule = if obj.hasattr("__dlpack__")? {
        if let Ok(device) = obj.getattr("__dlpack_device__") {
            let (device_type, device_id): (i32, i32) = device.call0()?.extract()?;
            let device_type = DLDeviceType(device_type);
            if !device_type.is_host_readable() {
                return Err(PyBufferError::new_err(format!(
                    "cannot import a tensor on device {device_type} (id {device_id}): only \
                     CPU-readable memory is supported"
                )));
            }
        }
        let kwargs = PyDict::new(py);
        kwargs.set_item(
            "max_version",
            (dlpack::DLPACK_MAJOR_VERSION, dlpack::DLPACK_MINOR_VERSION),
        )?;
        match obj.call_method("__dlpack__", (), Some(&kwargs)) {
            Ok(capsule) => capsule,
            // Producers older than the 2023 array API take no keywords.
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyTypeError>(py) => {
                obj.call_method0("__dlpack__")?
            }
            Err(e) => return Err(e),
        }
    } else {
        obj.clone()
    };
    let tensor = capsule::consume(py, &capsule)?.map_err(buffer_error)?;
    Ok(tensor.into())
}

/// Parses a serialized `TensorProto` (TF's `Tensor::FromProto`).
#[pyfunction]
fn from_proto(data: &[u8]) -> PyResult<PyTensor> {
    let tensor = tft::Tensor::decode(tft::bytes::Bytes::copy_from_slice(data)).map_err(to_py)?;
    Ok(tensor.into())
}

/// How many DLPack exports of this module are still held by consumers (for
/// leak checks: 0 once every exported array is gone).
#[pyfunction]
fn live_exports() -> usize {
    dlpack::live_exports()
}

/// TensorFlow's tensor, from Rust: DLPack exchange, TensorProto, summaries.
#[pymodule(name = "tftensor")]
fn tftensor_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTensor>()?;
    m.add_function(wrap_pyfunction!(from_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(from_proto, m)?)?;
    m.add_function(wrap_pyfunction!(live_exports, m)?)?;
    formats::register(m)?;
    io::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
