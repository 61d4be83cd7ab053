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

// The workspace's lints (Cargo.toml) hold here too; like the library, a
// front never unwraps, panics or indexes outside its tests.
#![cfg_attr(
    not(test),
    deny(
        clippy::unwrap_used,
        clippy::expect_used,
        clippy::panic,
        clippy::indexing_slicing,
        clippy::unreachable
    )
)]

mod arrow;
mod capsule;
mod copy;
mod device;
mod errors;
mod formats;
mod io;
mod records;
mod spec;
mod tf_files;

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
                )));
            }
        }
        .map_err(to_py)?;
        Ok(PyBytes::new(py, &proto.encode_to_vec()))
    }

    /// DLPack export (the array API's `__dlpack__`). Zero-copy and
    /// read-only: this tensor keeps reading the buffer (it is immutable from
    /// Python), so a consumer must not write it. `copy=True` exports a
    /// private, writable copy. A legacy capsule (no `max_version`, or major
    /// version 0) cannot say read-only, so with `copy=None` it carries a
    /// copy ("copy if needed") and with `copy=False` it is refused.
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
        if versioned {
            let managed = if copy == Some(true) {
                dlpack::export_copy(&self.inner)
            } else {
                dlpack::export(self.inner.clone())
            }
            .map_err(buffer_error)?;
            return capsule::versioned_capsule(py, managed);
        }
        let managed = match copy {
            Some(true) => dlpack::export_legacy(self.inner.deep_copy().map_err(to_py)?)
                .map_err(buffer_error)?,
            // The clone shares the buffer with `self`, so this copies.
            None => {
                dlpack::export_legacy_or_copy(self.inner.clone())
                    .map_err(buffer_error)?
                    .0
            }
            Some(false) => {
                return Err(PyBufferError::new_err(
                    "copy=False: cannot export a read-only tensor as a legacy DLPack capsule, \
                     which cannot signal read-only; pass max_version=(1, 0) or copy=None",
                ));
            }
        };
        capsule::legacy_capsule(py, managed)
    }

    /// `(device_type, device_id)`: always `(1, 0)`, the CPU.
    fn __dlpack_device__(&self) -> (i32, i32) {
        (DLDeviceType::CPU.0, 0)
    }
}

/// The tensor behind any DLPack producer (a NumPy array, a PyTorch or JAX
/// tensor, a `tftensor.Tensor`) or a DLPack capsule (what
/// `tf.experimental.dlpack.to_dlpack` returns). Zero-copy when the data is
/// C-contiguous and aligned for its dtype; transposed, strided, reversed or
/// misaligned data is copied into a compact tensor. The producer's memory is
/// never written. As the array API's `from_dlpack`: `device="cpu"` (or
/// `(1, 0)`) makes a host copy of a GPU tensor (read back through pinned
/// memory where a CUDA driver is present, else asked of the producer);
/// `copy=True` always copies, `copy=False` refuses data that must be copied.
/// A CUDA producer gives a `tftensor.DeviceTensor` (zero-copy) unless
/// `device="cpu"`.
#[pyfunction(name = "from_dlpack")]
#[pyo3(signature = (x, /, *, device = None, copy = None))]
fn py_from_dlpack<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    device: Option<&Bound<'py, PyAny>>,
    copy: Option<bool>,
) -> PyResult<Bound<'py, PyAny>> {
    if device.is_none() {
        if let Some(on_device) = device::adopt_device(py, x, copy)? {
            return Ok(on_device);
        }
    } else if capsule::wants_cpu(device)? {
        if let Some(host) = device::read_back_to_host(py, x, copy)? {
            return Ok(Bound::new(py, host)?.into_any());
        }
    }
    let host = PyTensor::from(capsule::from_dlpack(py, x, device, copy)?);
    Ok(Bound::new(py, host)?.into_any())
}

/// `from_dlpack(obj)` with the defaults, to a host tensor, for the other
/// wrappers.
fn from_dlpack(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    Ok(capsule::from_dlpack(py, obj, None, None)?.into())
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

/// Gives the memory of dropped large reads back to the system now: the
/// read-buffer pool keeps the pages of a freed read (up to 2 GiB, for at
/// most a second) so the next large read skips the page faults.
#[pyfunction]
fn release_memory() {
    tft::release_memory();
}

/// TensorFlow's tensor, from Rust: DLPack exchange, TensorProto, summaries.
#[pymodule(name = "tftensor")]
fn tftensor_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyTensor>()?;
    m.add_function(wrap_pyfunction!(py_from_dlpack, m)?)?;
    m.add_function(wrap_pyfunction!(from_proto, m)?)?;
    m.add_function(wrap_pyfunction!(live_exports, m)?)?;
    m.add_function(wrap_pyfunction!(release_memory, m)?)?;
    formats::register(m)?;
    arrow::register(m)?;
    io::register(m)?;
    m.add_function(wrap_pyfunction!(copy::copy, m)?)?;
    records::register(m)?;
    tf_files::register(m)?;
    device::register(m)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("__all__", public_names(m)?)?;
    Ok(())
}

/// `__all__`: every name registered above that does not start with `_`,
/// plus `__version__`, sorted. maturin's `__init__.py` re-exports the
/// extension's names with `from .tftensor import *`, which takes exactly
/// `__all__` when there is one, so `__version__` must be in it to reach
/// the package.
fn public_names(m: &Bound<'_, PyModule>) -> PyResult<Vec<String>> {
    let mut names = vec!["__version__".to_owned()];
    for key in m.dict().keys() {
        let name: String = key.extract()?;
        if !name.starts_with('_') {
            names.push(name);
        }
    }
    names.sort();
    Ok(names)
}
