//! `tftensor.open`, `tftensor.load`, `tftensor.save` and `tftensor.formats`:
//! the library's `tftensor::io` layer for Python, with no format knowledge
//! of its own.

use pyo3::exceptions::{PyKeyError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use tft::Tensor;
use tft::io::{self, CreateOptions, Format, OpenOptions, TensorSource};

use crate::PyTensor;
use crate::errors::to_py;

/// A format from its name (`"npz"`, `"safetensors"`, `"checkpoint"`, ...).
pub(crate) fn parse_format(name: &str) -> PyResult<Format> {
    Format::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Format::all().map(Format::name).collect();
        PyValueError::new_err(format!(
            "unknown format {name:?}; one of {}",
            names.join(", ")
        ))
    })
}

/// A dtype from its TensorFlow name (`"bfloat16"`, `"float8_e4m3fn"`, ...).
pub(crate) fn parse_dtype(name: &str) -> PyResult<tft::DataType> {
    name.parse()
        .map_err(|_| PyValueError::new_err(format!("unknown dtype {name:?}")))
}

/// The library's open options from Python's arguments.
pub(crate) fn open_options(
    format: Option<&str>,
    npy_dtype: Option<&str>,
    compression: Option<&str>,
    mmap: bool,
    anonymous: bool,
) -> PyResult<OpenOptions> {
    let mut opts = OpenOptions::default();
    if anonymous {
        opts = opts.with_remote(io::RemoteOptions::default().with_anonymous());
    }
    if let Some(format) = format {
        opts = opts.with_format(parse_format(format)?);
    }
    if let Some(name) = npy_dtype {
        opts = opts.with_npy_dtype(parse_dtype(name)?);
    }
    if let Some(name) = compression {
        opts = opts.with_compression(io::Compression::parse(name).map_err(to_py)?);
    }
    if mmap {
        // SAFETY: `mmap=True` is the caller's promise, documented on
        // `open`, that the file is not changed while tensors from it live.
        opts = unsafe { opts.with_mmap() };
    }
    Ok(opts)
}

/// The library's create options from Python's arguments.
pub(crate) fn create_options(
    format: Option<&str>,
    compression: Option<&str>,
    metadata: Option<Vec<(String, String)>>,
) -> PyResult<CreateOptions> {
    let mut options = CreateOptions::default();
    if let Some(format) = format {
        options = options.with_format(parse_format(format)?);
    }
    if let Some(name) = compression {
        options = options.with_compression(io::Compression::parse(name).map_err(to_py)?);
    }
    if let Some(metadata) = metadata {
        options = options.with_metadata(metadata);
    }
    Ok(options)
}

/// A tensor from a `tftensor.Tensor` (shared, no copy) or any DLPack producer.
pub(crate) fn as_tensor(py: Python<'_>, obj: &Bound<'_, PyAny>) -> PyResult<Tensor> {
    if let Ok(t) = obj.extract::<PyRef<'_, PyTensor>>() {
        return Ok(t.inner.clone());
    }
    Ok(crate::from_dlpack(py, obj)?.inner)
}

/// `(name, tensor)` pairs from a mapping (in its iteration order).
pub(crate) fn named_tensors(
    py: Python<'_>,
    tensors: &Bound<'_, PyAny>,
) -> PyResult<Vec<(String, Tensor)>> {
    let mut out = Vec::new();
    for item in tensors.call_method0("items")?.try_iter()? {
        let (name, value): (String, Bound<'_, PyAny>) = item?.extract()?;
        out.push((name, as_tensor(py, &value)?));
    }
    Ok(out)
}

/// A tensor file opened lazily: a read-only mapping name -> Tensor. Names,
/// dtypes and shapes come from the file's headers; a tensor is read when
/// it is looked up.
#[pyclass(name = "Source", module = "tftensor")]
pub struct PySource {
    inner: std::sync::Mutex<Box<dyn TensorSource>>,
    names: Vec<String>,
}

impl PySource {
    fn lock(&self) -> PyResult<std::sync::MutexGuard<'_, Box<dyn TensorSource>>> {
        self.inner
            .lock()
            .map_err(|_| PyValueError::new_err("the source was poisoned by a panic"))
    }
}

#[pymethods]
impl PySource {
    /// The names, in the file's order.
    fn keys(&self) -> Vec<String> {
        self.names.clone()
    }

    fn __len__(&self) -> usize {
        self.names.len()
    }

    fn __contains__(&self, name: &str) -> bool {
        self.names.iter().any(|n| n == name)
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(PyList::new(py, &self.names)?
            .as_any()
            .try_iter()?
            .into_any())
    }

    /// Reads the tensor `name`.
    fn __getitem__(&self, py: Python<'_>, name: &str) -> PyResult<PyTensor> {
        let Some(index) = self.names.iter().position(|n| n == name) else {
            return Err(PyKeyError::new_err(name.to_string()));
        };
        let tensor = py.detach(|| -> PyResult<tft::Tensor> {
            let mut source = self.lock()?;
            source.read(index).map_err(to_py)
        })?;
        Ok(tensor.into())
    }

    /// `[(name, dtype, shape, nbytes), ...]` from the headers; `nbytes` is
    /// None where dtype and shape do not say it (strings).
    fn entries<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let source = self.lock()?;
        let list = PyList::empty(py);
        for e in source.entries() {
            let shape = PyTuple::new(py, e.shape.dim_sizes())?;
            list.append((
                e.name.clone(),
                e.dtype.name().into_owned(),
                shape,
                e.byte_len,
            ))?;
        }
        Ok(list)
    }

    /// How quantized entries' stored values map to real ones (TFLite,
    /// TF.js), as `{name: {"scale": [..], "zero_point": [..],
    /// "quantized_dimension": k, ...}}` with TFLite's field names, plus
    /// `block_size` and `scales` (the scale tensor's name) for blockwise
    /// quantization and TF.js's `min`; entries that are not quantized are
    /// absent.
    #[getter]
    fn quantization<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for e in self.lock()?.entries() {
            let Some(q) = &e.quantization else { continue };
            let d = PyDict::new(py);
            d.set_item("scale", q.scale.clone())?;
            d.set_item("zero_point", q.zero_point.clone())?;
            d.set_item("quantized_dimension", q.quantized_dimension)?;
            if let Some(b) = &q.blockwise {
                d.set_item("block_size", b.block_size)?;
                d.set_item("scales", b.scales.clone())?;
                if let Some(z) = &b.zero_points {
                    d.set_item("zero_points", z.clone())?;
                }
            }
            if let Some(min) = q.min {
                d.set_item("min", min)?;
            }
            if let Some(dt) = q.real_dtype {
                d.set_item("real_dtype", dt.name().into_owned())?;
            }
            dict.set_item(e.name.clone(), d)?;
        }
        Ok(dict)
    }

    /// Reads the tensor `name` as real values: float32 through its
    /// quantization (as `source.quantization[name]` says), or as stored
    /// when it has none.
    fn dequantize(&self, py: Python<'_>, name: &str) -> PyResult<PyTensor> {
        let Some(index) = self.names.iter().position(|n| n == name) else {
            return Err(PyKeyError::new_err(name.to_string()));
        };
        let tensor = py.detach(|| -> PyResult<tft::Tensor> {
            let mut source = self.lock()?;
            io::dequantize(&mut **source, index).map_err(to_py)
        })?;
        Ok(tensor.into())
    }

    /// What the format knows beyond the tensors (safetensors'
    /// `__metadata__`, ...), as a dict.
    #[getter]
    fn metadata<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (k, v) in self.lock()?.metadata() {
            dict.set_item(k, v)?;
        }
        Ok(dict)
    }

    /// The detected format's name.
    #[getter]
    fn format(&self) -> PyResult<&'static str> {
        Ok(self.lock()?.format().name())
    }

    fn __repr__(&self) -> PyResult<String> {
        let source = self.lock()?;
        Ok(format!(
            "<tftensor.Source {} ({}, {} tensors)>",
            source.path().display(),
            source.format(),
            self.names.len()
        ))
    }
}

/// Opens a tensor file, directory or checkpoint, or a URL (`s3://`,
/// `gs://`, `az://`, `https://`; configured by the environment, as
/// `AWS_ENDPOINT_URL`): the format is detected unless `format` names it.
/// `npy_dtype` says what NumPy's opaque `V` arrays hold (ml_dtypes'
/// bfloat16, float8, int4); `mmap=True` maps checkpoints and safetensors
/// files, which must then not change; `compression` a TFRecord's
/// (`"GZIP"`, `"ZLIB"`, `""`) instead of what its bytes say;
/// `anonymous=True` reads public buckets without credentials.
#[pyfunction]
#[pyo3(signature = (path, format = None, *, npy_dtype = None, compression = None, mmap = false, anonymous = false))]
pub(crate) fn open(
    py: Python<'_>,
    path: std::path::PathBuf,
    format: Option<&str>,
    npy_dtype: Option<&str>,
    compression: Option<&str>,
    mmap: bool,
    anonymous: bool,
) -> PyResult<PySource> {
    let opts = open_options(format, npy_dtype, compression, mmap, anonymous)?;
    let source = py.detach(|| io::open_with(&path, &opts)).map_err(to_py)?;
    let names = source.entries().iter().map(|e| e.name.clone()).collect();
    Ok(PySource {
        inner: std::sync::Mutex::new(source),
        names,
    })
}

/// Reads every tensor of a file into a dict name -> Tensor (in the file's
/// order); arguments as `open`.
#[pyfunction]
#[pyo3(signature = (path, format = None, *, npy_dtype = None, compression = None, mmap = false, anonymous = false))]
pub(crate) fn load<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
    format: Option<&str>,
    npy_dtype: Option<&str>,
    compression: Option<&str>,
    mmap: bool,
    anonymous: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let opts = open_options(format, npy_dtype, compression, mmap, anonymous)?;
    load_with(py, &path, &opts)
}

/// Every tensor of `path` opened with `opts`, as a dict.
pub(crate) fn load_with<'py>(
    py: Python<'py>,
    path: &std::path::Path,
    opts: &OpenOptions,
) -> PyResult<Bound<'py, PyDict>> {
    let (source, tensors) = py
        .detach(|| {
            let mut source = io::open_with(path, opts)?;
            let tensors = source.read_all()?;
            Ok::<_, tft::Error>((source, tensors))
        })
        .map_err(to_py)?;
    let dict = PyDict::new(py);
    for (e, tensor) in source.entries().iter().zip(tensors) {
        dict.set_item(&e.name, PyTensor::from(tensor))?;
    }
    Ok(dict)
}

/// Writes a dict name -> tensor (or any DLPack array) to `path`, in
/// `format` or the one the name says (see `formats()`: `.safetensors`,
/// `.npz`, `.npy`, `.pb`, `.tfrecord[.gz]`, `.h5`/`.keras`, a trailing
/// `/`, a checkpoint prefix). `compression` compresses a TFRecord
/// (`"GZIP"`, `"ZLIB"`) or deflates an `.npz`'s members; `metadata` (a
/// dict of strings) is kept where the format has a place for it
/// (safetensors' `__metadata__`). The file appears only once complete.
#[pyfunction]
#[pyo3(signature = (path, tensors, format = None, *, compression = None, metadata = None))]
pub(crate) fn save(
    py: Python<'_>,
    path: std::path::PathBuf,
    tensors: &Bound<'_, PyAny>,
    format: Option<&str>,
    compression: Option<&str>,
    metadata: Option<std::collections::BTreeMap<String, String>>,
) -> PyResult<()> {
    let named = named_tensors(py, tensors)?;
    let options = create_options(
        format,
        compression,
        metadata.map(|m| m.into_iter().collect()),
    )?;
    save_with(py, &path, &named, &options)
}

/// Writes `named` to `path` with `options`.
pub(crate) fn save_with(
    py: Python<'_>,
    path: &std::path::Path,
    named: &[(String, Tensor)],
    options: &CreateOptions,
) -> PyResult<()> {
    py.detach(|| {
        let mut sink = io::create_with(path, options)?;
        for (name, tensor) in named {
            sink.add(name, tensor)?;
        }
        sink.finish()
    })
    .map_err(to_py)
}

/// `[(name, extensions, writable), ...]`: the formats this build reads,
/// from the library's rows.
#[pyfunction]
pub(crate) fn formats() -> Vec<(&'static str, Vec<&'static str>, bool)> {
    Format::all()
        .map(|f| (f.name(), f.extensions().to_vec(), f.can_write()))
        .collect()
}

/// Adds `open`, `load`, `save`, `formats` and the `Source` class to the
/// module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySource>()?;
    m.add_function(wrap_pyfunction!(open, m)?)?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(save, m)?)?;
    m.add_function(wrap_pyfunction!(formats, m)?)?;
    Ok(())
}
