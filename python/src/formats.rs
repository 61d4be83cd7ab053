//! Thin wrappers over the crate's file formats: TensorFlow checkpoints
//! (tensor bundles), .npy/.npz, safetensors and TFRecord. Every reader
//! returns `tftensor.Tensor`s (NumPy takes them with `np.from_dlpack`);
//! every writer takes `tftensor.Tensor`s or any DLPack producer (NumPy
//! arrays, PyTorch tensors).

use std::collections::BTreeMap;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use tft::Tensor;

use crate::PyTensor;
use crate::errors::to_py;

fn to_dict<'py>(
    py: Python<'py>,
    named: impl IntoIterator<Item = (String, Tensor)>,
) -> PyResult<Bound<'py, PyDict>> {
    let dict = PyDict::new(py);
    for (name, tensor) in named {
        dict.set_item(name, PyTensor::from(tensor))?;
    }
    Ok(dict)
}

/// The compression of the TFRecord at `path`: `name` when given, else
/// what the file's first bytes say (the library's detection).
fn compression_of(path: &str, name: Option<&str>) -> PyResult<tft::io::Compression> {
    match name {
        Some(name) => compression(name),
        None => {
            let as_tfrecord =
                tft::io::OpenOptions::default().with_format(tft::io::Format::TFRECORD);
            Ok(tft::io::locate(path, &as_tfrecord)
                .map_err(to_py)?
                .compression)
        }
    }
}

pub(crate) fn compression(name: &str) -> PyResult<tft::io::Compression> {
    tft::io::Compression::parse(name).map_err(to_py)
}

/// Every variable of a TensorFlow checkpoint (`path` is the prefix, as
/// `tf.train.load_checkpoint` takes it), as a dict name -> Tensor in TF's
/// sorted key order: `load(path, "checkpoint")`.
#[pyfunction]
pub(crate) fn load_checkpoint<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<Bound<'py, PyDict>> {
    crate::io::load(py, path, Some("checkpoint"), None, false, false)
}

/// `[(name, dtype, shape), ...]` of a checkpoint, like
/// `tf.train.list_variables`, without reading the values.
#[pyfunction]
pub(crate) fn list_variables<'py>(py: Python<'py>, path: &str) -> PyResult<Bound<'py, PyList>> {
    let vars = tft::checkpoint::list_variables(path).map_err(to_py)?;
    let list = PyList::empty(py);
    for (name, dtype, shape) in vars {
        let dims = PyTuple::new(py, shape.dim_sizes())?;
        list.append((name, dtype.name().into_owned(), dims))?;
    }
    Ok(list)
}

/// Writes a checkpoint (tensor bundle) at prefix `path` from a dict
/// name -> tensor or array: `save(path, tensors, "checkpoint")`.
#[pyfunction]
pub(crate) fn save_checkpoint(
    py: Python<'_>,
    path: std::path::PathBuf,
    tensors: &Bound<'_, PyAny>,
) -> PyResult<()> {
    crate::io::save(py, path, tensors, Some("checkpoint"))
}

use crate::io::{as_tensor, named_tensors, parse_dtype};

/// Reads a `.npy` file. `dtype` (a TF name such as `"bfloat16"`) says what
/// an ml_dtypes array (stored as opaque `V1`/`V2`) holds.
#[pyfunction]
#[pyo3(signature = (path, dtype = None))]
pub(crate) fn load_npy(path: &str, dtype: Option<&str>) -> PyResult<PyTensor> {
    let tensor = match dtype {
        Some(name) => tft::npy::read_npy_as(path, parse_dtype(name)?),
        None => tft::npy::read_npy(path),
    };
    Ok(tensor.map_err(to_py)?.into())
}

/// Writes a `.npy` file, as `np.save` does.
#[pyfunction]
pub(crate) fn save_npy(py: Python<'_>, path: &str, tensor: &Bound<'_, PyAny>) -> PyResult<()> {
    tft::npy::write_npy(path, &as_tensor(py, tensor)?).map_err(to_py)
}

/// Every array of a `.npz` file, as a dict name -> Tensor. `dtypes` maps
/// the names of ml_dtypes members to their TF dtype names.
#[pyfunction]
#[pyo3(signature = (path, dtypes = None))]
pub(crate) fn load_npz<'py>(
    py: Python<'py>,
    path: &str,
    dtypes: Option<BTreeMap<String, String>>,
) -> PyResult<Bound<'py, PyDict>> {
    let dtypes = dtypes.unwrap_or_default();
    let mut reader = tft::npy::NpzReader::open(path).map_err(to_py)?;
    let names: Vec<String> = reader.names().map(str::to_string).collect();
    let mut named = Vec::new();
    for name in names {
        let tensor = match dtypes.get(&name) {
            Some(dtype) => reader.get_as(&name, parse_dtype(dtype)?),
            None => reader.get(&name),
        }
        .map_err(to_py)?;
        named.push((name, tensor));
    }
    to_dict(py, named)
}

/// Writes a `.npz` file (deflated with `compressed=True`, as `np.savez_compressed`).
#[pyfunction]
#[pyo3(signature = (path, tensors, compressed = false))]
pub(crate) fn save_npz(
    py: Python<'_>,
    path: &str,
    tensors: &Bound<'_, PyAny>,
    compressed: bool,
) -> PyResult<()> {
    let named = named_tensors(py, tensors)?;
    let mut writer = if compressed {
        tft::npy::NpzWriter::create_compressed(path)
    } else {
        tft::npy::NpzWriter::create(path)
    }
    .map_err(to_py)?;
    for (name, tensor) in &named {
        writer.add(name, tensor).map_err(to_py)?;
    }
    writer.finish().map_err(to_py)
}

/// Every tensor of a `.safetensors` file, as a dict name -> Tensor in file
/// order: `load(path, "safetensors")`.
#[pyfunction]
pub(crate) fn load_safetensors<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<Bound<'py, PyDict>> {
    crate::io::load(py, path, Some("safetensors"), None, false, false)
}

/// Writes a `.safetensors` file from a dict name -> tensor or array:
/// `save(path, tensors, "safetensors")`.
#[pyfunction]
pub(crate) fn save_safetensors(
    py: Python<'_>,
    path: std::path::PathBuf,
    tensors: &Bound<'_, PyAny>,
) -> PyResult<()> {
    crate::io::save(py, path, tensors, Some("safetensors"))
}

/// The raw records of a TFRecord file (`compression`: `""`, `"ZLIB"` or
/// `"GZIP"`; detected from the file when not given).
#[pyfunction]
#[pyo3(signature = (path, compression = None))]
pub(crate) fn read_records<'py>(
    py: Python<'py>,
    path: &str,
    compression: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let reader = tft::tfrecord::RecordReader::open(path, compression_of(path, compression)?)
        .map_err(to_py)?;
    let list = PyList::empty(py);
    for record in reader {
        list.append(PyBytes::new(py, &record.map_err(to_py)?))?;
    }
    Ok(list)
}

/// The tensors of a TFRecord file of serialized TensorProtos
/// (`tf.io.serialize_tensor` records); compression detected when not given.
#[pyfunction]
#[pyo3(signature = (path, compression = None))]
pub(crate) fn read_tensors(path: &str, compression: Option<&str>) -> PyResult<Vec<PyTensor>> {
    let tensors =
        tft::tfrecord::read_tensors(path, compression_of(path, compression)?).map_err(to_py)?;
    Ok(tensors.into_iter().map(PyTensor::from).collect())
}

/// Writes tensors (or arrays) as a TFRecord file of serialized TensorProtos.
#[pyfunction]
#[pyo3(signature = (path, tensors, compression = ""))]
pub(crate) fn write_tensors(
    py: Python<'_>,
    path: &str,
    tensors: &Bound<'_, PyAny>,
    compression: &str,
) -> PyResult<()> {
    let mut list = Vec::new();
    for item in tensors.try_iter()? {
        list.push(as_tensor(py, &item?)?);
    }
    tft::tfrecord::write_tensors(path, self::compression(compression)?, &list).map_err(to_py)
}

/// The `tf.train.Example` records of a TFRecord file, each a dict
/// feature name -> Tensor (int64, float or string); compression detected
/// when not given.
#[pyfunction]
#[pyo3(signature = (path, compression = None))]
pub(crate) fn read_examples<'py>(
    py: Python<'py>,
    path: &str,
    compression: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let examples: Vec<BTreeMap<String, Tensor>> =
        tft::tfrecord::read_examples(path, compression_of(path, compression)?).map_err(to_py)?;
    let list = PyList::empty(py);
    for example in examples {
        list.append(to_dict(py, example)?)?;
    }
    Ok(list)
}

/// Adds the wrappers to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(load_checkpoint, m)?)?;
    m.add_function(wrap_pyfunction!(list_variables, m)?)?;
    m.add_function(wrap_pyfunction!(save_checkpoint, m)?)?;
    m.add_function(wrap_pyfunction!(load_npy, m)?)?;
    m.add_function(wrap_pyfunction!(save_npy, m)?)?;
    m.add_function(wrap_pyfunction!(load_npz, m)?)?;
    m.add_function(wrap_pyfunction!(save_npz, m)?)?;
    m.add_function(wrap_pyfunction!(load_safetensors, m)?)?;
    m.add_function(wrap_pyfunction!(save_safetensors, m)?)?;
    m.add_function(wrap_pyfunction!(read_records, m)?)?;
    m.add_function(wrap_pyfunction!(read_tensors, m)?)?;
    m.add_function(wrap_pyfunction!(write_tensors, m)?)?;
    m.add_function(wrap_pyfunction!(read_examples, m)?)?;
    Ok(())
}
