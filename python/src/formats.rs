//! The per-format names of earlier versions, as deprecated aliases over
//! `tftensor::io` (each warns with `DeprecationWarning` and names its
//! replacement), and the record-level TFRecord functions that have no
//! `io` equivalent, over the library's TFRecord API.

use std::collections::BTreeMap;

use pyo3::exceptions::{PyDeprecationWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyTuple};
use tft::io::{self, Compression, CreateOptions, Format, OpenOptions};

use crate::PyTensor;
use crate::errors::to_py;
use crate::io::{as_tensor, load_with, named_tensors, parse_dtype, save_with};

/// Warns that `old` is deprecated in favour of `new`.
fn deprecated(py: Python<'_>, old: &str, new: &str) -> PyResult<()> {
    let message =
        std::ffi::CString::new(format!("tftensor.{old} is deprecated; use tftensor.{new}"))
            .map_err(|e| PyValueError::new_err(e.to_string()))?;
    PyErr::warn(py, &py.get_type::<PyDeprecationWarning>(), &message, 1)
}

fn as_format(format: Format) -> OpenOptions {
    OpenOptions::default().with_format(format)
}

fn to_format(format: Format) -> CreateOptions {
    CreateOptions::default().with_format(format)
}

/// Deprecated: `load(path, "checkpoint")`.
#[pyfunction]
pub(crate) fn load_checkpoint<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<Bound<'py, PyDict>> {
    deprecated(py, "load_checkpoint(path)", "load(path, \"checkpoint\")")?;
    load_with(py, &path, &as_format(Format::CHECKPOINT))
}

/// `[(name, dtype, shape), ...]` of a checkpoint, like
/// `tf.train.list_variables`, from its index (`open(path).entries()`
/// without the byte counts).
#[pyfunction]
pub(crate) fn list_variables<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<Bound<'py, PyList>> {
    let source = py
        .detach(|| io::open_with(&path, &as_format(Format::CHECKPOINT)))
        .map_err(to_py)?;
    let list = PyList::empty(py);
    for e in source.entries() {
        let dims = PyTuple::new(py, e.shape.dim_sizes())?;
        list.append((e.name.clone(), e.dtype.name().into_owned(), dims))?;
    }
    Ok(list)
}

/// Deprecated: `save(path, tensors, "checkpoint")`.
#[pyfunction]
pub(crate) fn save_checkpoint(
    py: Python<'_>,
    path: std::path::PathBuf,
    tensors: &Bound<'_, PyAny>,
) -> PyResult<()> {
    deprecated(
        py,
        "save_checkpoint(path, t)",
        "save(path, t, \"checkpoint\")",
    )?;
    let named = named_tensors(py, tensors)?;
    save_with(py, &path, &named, &to_format(Format::CHECKPOINT))
}

/// Deprecated: `open(path, "npy", npy_dtype=dtype)[...]`.
#[pyfunction]
#[pyo3(signature = (path, dtype = None))]
pub(crate) fn load_npy(
    py: Python<'_>,
    path: std::path::PathBuf,
    dtype: Option<&str>,
) -> PyResult<PyTensor> {
    deprecated(py, "load_npy(path)", "load(path)")?;
    let mut opts = as_format(Format::NPY);
    if let Some(name) = dtype {
        opts = opts.with_npy_dtype(parse_dtype(name)?);
    }
    let tensor = py
        .detach(|| io::open_with(&path, &opts)?.read(0))
        .map_err(to_py)?;
    Ok(tensor.into())
}

/// Deprecated: `save(path, {"": tensor}, "npy")`.
#[pyfunction]
pub(crate) fn save_npy(
    py: Python<'_>,
    path: std::path::PathBuf,
    tensor: &Bound<'_, PyAny>,
) -> PyResult<()> {
    deprecated(py, "save_npy(path, t)", "save(path, {\"\": t}, \"npy\")")?;
    let named = [(String::new(), as_tensor(py, tensor)?)];
    save_with(py, &path, &named, &to_format(Format::NPY))
}

/// Deprecated: `load(path, "npz", npy_dtype=...)`. `dtypes` maps the names
/// of ml_dtypes members to their TF dtype names; each dtype's members are
/// read with that `npy_dtype`.
#[pyfunction]
#[pyo3(signature = (path, dtypes = None))]
pub(crate) fn load_npz<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    dtypes: Option<BTreeMap<String, String>>,
) -> PyResult<Bound<'py, PyDict>> {
    deprecated(py, "load_npz(path)", "load(path, npy_dtype=...)")?;
    let Some(dtypes) = dtypes.filter(|d| !d.is_empty()) else {
        return load_with(py, &path, &as_format(Format::NPZ));
    };
    // The members named in `dtypes`, each read as its dtype (the sources
    // opened with each npy_dtype); the others as the file says.
    let mut by_dtype: BTreeMap<String, Box<dyn io::TensorSource>> = BTreeMap::new();
    for dtype in dtypes.values() {
        if !by_dtype.contains_key(dtype) {
            let opts = as_format(Format::NPZ).with_npy_dtype(parse_dtype(dtype)?);
            let s = py.detach(|| io::open_with(&path, &opts)).map_err(to_py)?;
            by_dtype.insert(dtype.clone(), s);
        }
    }
    let (base_dtype, base) = by_dtype
        .first_key_value()
        .map(|(d, s)| (d.clone(), s.entries().to_vec()))
        .ok_or_else(|| PyValueError::new_err("dtypes is empty"))?;
    let base_dtype = parse_dtype(&base_dtype)?;
    let dict = PyDict::new(py);
    for (i, entry) in base.iter().enumerate() {
        let name = &entry.name;
        if !dtypes.contains_key(name) && entry.dtype == base_dtype {
            // NumPy has no such dtype of its own: an opaque member.
            return Err(PyValueError::new_err(format!(
                "member {name:?} is an opaque ml_dtypes array: name its dtype in dtypes="
            )));
        }
        let source = match dtypes.get(name) {
            Some(d) => by_dtype.get_mut(d),
            // Any source reads a member NumPy describes itself.
            None => by_dtype.values_mut().next(),
        }
        .ok_or_else(|| PyValueError::new_err("dtypes is empty"))?;
        let tensor = py.detach(|| source.read(i)).map_err(to_py)?;
        dict.set_item(name, PyTensor::from(tensor))?;
    }
    Ok(dict)
}

/// Deprecated: `save(path, tensors, "npz")`, deflated with
/// `compression="ZLIB"` (`compressed=True`, as `np.savez_compressed`).
#[pyfunction]
#[pyo3(signature = (path, tensors, compressed = false))]
pub(crate) fn save_npz(
    py: Python<'_>,
    path: std::path::PathBuf,
    tensors: &Bound<'_, PyAny>,
    compressed: bool,
) -> PyResult<()> {
    deprecated(py, "save_npz(path, t)", "save(path, t, \"npz\")")?;
    let named = named_tensors(py, tensors)?;
    let mut options = to_format(Format::NPZ);
    if compressed {
        options = options.with_compression(Compression::Zlib);
    }
    save_with(py, &path, &named, &options)
}

/// Deprecated: `load(path, "safetensors")`.
#[pyfunction]
pub(crate) fn load_safetensors<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<Bound<'py, PyDict>> {
    deprecated(py, "load_safetensors(path)", "load(path)")?;
    load_with(py, &path, &as_format(Format::SAFETENSORS))
}

/// Deprecated: `save(path, tensors, "safetensors")`.
#[pyfunction]
pub(crate) fn save_safetensors(
    py: Python<'_>,
    path: std::path::PathBuf,
    tensors: &Bound<'_, PyAny>,
) -> PyResult<()> {
    deprecated(py, "save_safetensors(path, t)", "save(path, t)")?;
    let named = named_tensors(py, tensors)?;
    save_with(py, &path, &named, &to_format(Format::SAFETENSORS))
}

/// The compression of the TFRecord at `path`: `name` when given, else
/// what the file's first bytes say (the library's detection).
fn compression_of(path: &std::path::Path, name: Option<&str>) -> PyResult<Compression> {
    match name {
        Some(name) => Compression::parse(name).map_err(to_py),
        None => Ok(io::locate(path, &as_format(Format::TFRECORD))
            .map_err(to_py)?
            .compression),
    }
}

/// The raw records of a TFRecord file (`compression`: `""`, `"ZLIB"` or
/// `"GZIP"`; detected from the file when not given).
#[pyfunction]
#[pyo3(signature = (path, compression = None))]
pub(crate) fn read_records<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    compression: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    let compression = compression_of(&path, compression)?;
    let records = py
        .detach(|| {
            tft::tfrecord::RecordReader::open(&path, compression)?.collect::<tft::Result<Vec<_>>>()
        })
        .map_err(to_py)?;
    let list = PyList::empty(py);
    for record in records {
        list.append(PyBytes::new(py, &record))?;
    }
    Ok(list)
}

/// Deprecated: `list(load(path, "tfrecord", compression=...).values())`.
#[pyfunction]
#[pyo3(signature = (path, compression = None))]
pub(crate) fn read_tensors(
    py: Python<'_>,
    path: std::path::PathBuf,
    compression: Option<&str>,
) -> PyResult<Vec<PyTensor>> {
    deprecated(py, "read_tensors(path)", "load(path).values()")?;
    let mut opts = as_format(Format::TFRECORD);
    if let Some(name) = compression {
        opts = opts.with_compression(Compression::parse(name).map_err(to_py)?);
    }
    let tensors = py
        .detach(|| io::open_with(&path, &opts)?.read_all())
        .map_err(to_py)?;
    Ok(tensors.into_iter().map(PyTensor::from).collect())
}

/// Deprecated: `save(path, {"0": t0, ...}, "tfrecord", compression=...)`.
#[pyfunction]
#[pyo3(signature = (path, tensors, compression = ""))]
pub(crate) fn write_tensors(
    py: Python<'_>,
    path: std::path::PathBuf,
    tensors: &Bound<'_, PyAny>,
    compression: &str,
) -> PyResult<()> {
    deprecated(py, "write_tensors(path, ts)", "save(path, {\"0\": t, ...})")?;
    let mut named = Vec::new();
    for (i, item) in tensors.try_iter()?.enumerate() {
        named.push((i.to_string(), as_tensor(py, &item?)?));
    }
    let options = to_format(Format::TFRECORD)
        .with_compression(Compression::parse(compression).map_err(to_py)?);
    save_with(py, &path, &named, &options)
}

/// Deprecated: `load(path)` (each feature named `RECORD/FEATURE`) or
/// `read_examples_arrow(path)`. The `tf.train.Example` records of a
/// TFRecord file, each a dict feature name -> Tensor (int64, float or
/// string); compression detected when not given. A
/// `tf.train.SequenceExample` record is refused by name: its
/// `feature_lists` have no place in a dict of tensors (read them with
/// `read_examples_arrow(path, sequence=True)` or with
/// `sequence_features=`).
#[pyfunction]
#[pyo3(signature = (path, compression = None))]
pub(crate) fn read_examples<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    compression: Option<&str>,
) -> PyResult<Bound<'py, PyList>> {
    deprecated(
        py,
        "read_examples(path)",
        "load(path) (features named \"RECORD/FEATURE\") or tftensor.read_examples_arrow(path)",
    )?;
    let compression = compression_of(&path, compression)?;
    let examples = py
        .detach(|| -> tft::Result<Vec<BTreeMap<String, tft::Tensor>>> {
            let shown = path.display().to_string();
            let mut out = Vec::new();
            for (index, record) in
                tft::tfrecord::RecordReader::open(&path, compression)?.enumerate()
            {
                let record = tft::bytes::Bytes::from(record?);
                if is_sequence_example(&record) {
                    return Err(tft::Error::invalid_format(
                        "tfrecord",
                        "a tf.train.SequenceExample, whose feature_lists a dict of tensors \
                         would drop: read it with read_examples_arrow(path, sequence=True) \
                         or with sequence_features=",
                    )
                    .with_path(&shown)
                    .with_key(format!("record {index}")));
                }
                out.push(
                    tft::tfrecord::parse_example(record)
                        .map_err(|e| e.with_path(&shown).with_key(format!("record {index}")))?,
                );
            }
            Ok(out)
        })
        .map_err(to_py)?;
    let list = PyList::empty(py);
    for example in examples {
        let dict = PyDict::new(py);
        for (name, tensor) in example {
            dict.set_item(name, PyTensor::from(tensor))?;
        }
        list.append(dict)?;
    }
    Ok(list)
}

/// Whether a record is a `SequenceExample` with feature lists (an
/// `Example` has no field 2; a `SequenceExample`'s context is its field 1,
/// as an `Example`'s features are).
fn is_sequence_example(record: &[u8]) -> bool {
    use tft::prost::Message;
    tft::pb::SequenceExample::decode(record)
        .is_ok_and(|s| s.feature_lists.is_some_and(|l| !l.feature_list.is_empty()))
}

/// Adds the functions to the module.
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
