//! SavedModel signatures and TensorBoard logs for Python: thin wrappers of
//! `tftensor::saved_model` and `tftensor::events`, with no format logic.

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::PyTensor;
use crate::errors::to_py;

fn tensor_info<'py>(
    py: Python<'py>,
    info: &tft::saved_model::TensorInfo,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("name", info.name())?;
    d.set_item("dtype", info.dtype().name().into_owned())?;
    d.set_item("shape", info.dims().map(<[i64]>::to_vec))?;
    Ok(d)
}

/// A SavedModel's signatures, without TensorFlow: `signatures` maps each
/// tag set (`"serve"`, ...) to its signature keys, each a dict with
/// `method_name`, `inputs` and `outputs` (name -> `{name, dtype, shape}`;
/// `shape` is None for an unknown rank, -1 for an unknown dim).
#[pyclass(name = "SavedModel", module = "tftensor")]
pub struct PySavedModel {
    inner: tft::saved_model::SavedModel,
}

#[pymethods]
impl PySavedModel {
    /// Tag set -> signature key -> signature, as plain dicts.
    #[getter]
    fn signatures<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let out = PyDict::new(py);
        for mg in self.inner.meta_graphs() {
            let sigs = PyDict::new(py);
            for (key, sig) in mg.signatures() {
                let d = PyDict::new(py);
                d.set_item("method_name", sig.method_name())?;
                for (field, map) in [("inputs", sig.inputs()), ("outputs", sig.outputs())] {
                    let m = PyDict::new(py);
                    for (name, info) in map {
                        m.set_item(name, tensor_info(py, info)?)?;
                    }
                    d.set_item(field, m)?;
                }
                sigs.set_item(key, d)?;
            }
            out.set_item(mg.tags().join(","), sigs)?;
        }
        Ok(out)
    }

    /// TF's `saved_model_cli show --all` text, up to "Concrete Functions".
    fn show_all(&self) -> PyResult<String> {
        self.inner.show_all().map_err(to_py)
    }
}

/// Opens the SavedModel directory `path` (reads `saved_model.pb`, not the
/// variables).
#[pyfunction]
pub(crate) fn saved_model(path: std::path::PathBuf) -> PyResult<PySavedModel> {
    let inner = tft::saved_model::SavedModel::open(path).map_err(to_py)?;
    Ok(PySavedModel { inner })
}

/// Every summary value of a TensorBoard event file or log directory, as
/// dicts `{run, tag, step, wall_time, kind, value}` (`value` a Tensor), read
/// as TensorBoard's EventAccumulator reads them.
#[pyfunction]
pub(crate) fn read_events<'py>(
    py: Python<'py>,
    path: std::path::PathBuf,
) -> PyResult<Bound<'py, PyList>> {
    let values = py
        .detach(|| -> tft::Result<Vec<tft::events::EventValue>> {
            tft::events::EventReader::open(path)?.collect()
        })
        .map_err(to_py)?;
    let out = PyList::empty(py);
    for v in values {
        if !v.kind.is_summary() {
            continue;
        }
        let d = PyDict::new(py);
        d.set_item("run", &*v.run)?;
        d.set_item("tag", &*v.tag)?;
        d.set_item("step", v.step)?;
        d.set_item("wall_time", v.wall_time)?;
        d.set_item("kind", format!("{:?}", v.kind).to_lowercase())?;
        d.set_item("value", PyTensor::from(v.value))?;
        out.append(d)?;
    }
    Ok(out)
}

/// Writes TensorBoard logs as `tf.summary` does: `add_scalar`,
/// `add_histogram`, `add_text`, `flush`, `close`.
#[pyclass(name = "SummaryWriter", module = "tftensor")]
pub struct PySummaryWriter {
    inner: std::sync::Mutex<Option<tft::events::SummaryWriter>>,
}

impl PySummaryWriter {
    fn with<T>(
        &self,
        f: impl FnOnce(&mut tft::events::SummaryWriter) -> tft::Result<T>,
    ) -> PyResult<T> {
        let mut guard = self
            .inner
            .lock()
            .map_err(|_| pyo3::exceptions::PyValueError::new_err("writer poisoned"))?;
        let w = guard
            .as_mut()
            .ok_or_else(|| pyo3::exceptions::PyValueError::new_err("the writer is closed"))?;
        f(w).map_err(to_py)
    }
}

#[pymethods]
impl PySummaryWriter {
    #[new]
    fn new(logdir: std::path::PathBuf) -> PyResult<Self> {
        let w = tft::events::SummaryWriter::create(logdir).map_err(to_py)?;
        Ok(PySummaryWriter {
            inner: std::sync::Mutex::new(Some(w)),
        })
    }

    /// A float32 scalar, as `tf.summary.scalar`.
    fn add_scalar(&self, tag: &str, value: f32, step: i64) -> PyResult<()> {
        self.with(|w| w.add_scalar(tag, step, value))
    }

    /// A histogram of `values` in TensorBoard's bucket format.
    #[pyo3(signature = (tag, values, step, buckets = 30))]
    fn add_histogram(
        &self,
        tag: &str,
        values: Vec<f64>,
        step: i64,
        buckets: usize,
    ) -> PyResult<()> {
        self.with(|w| w.add_histogram(tag, step, &values, buckets))
    }

    /// Text, as `tf.summary.text`.
    fn add_text(&self, tag: &str, text: &str, step: i64) -> PyResult<()> {
        self.with(|w| w.add_text(tag, step, text))
    }

    /// Writes what is buffered to the file.
    fn flush(&self) -> PyResult<()> {
        self.with(|w| w.flush())
    }

    /// Flushes and closes the file.
    fn close(&self) -> PyResult<()> {
        let w = self
            .inner
            .lock()
            .map_err(|_| pyo3::exceptions::PyValueError::new_err("writer poisoned"))?
            .take();
        match w {
            Some(w) => w.close().map_err(to_py),
            None => Ok(()),
        }
    }
}

/// Adds the SavedModel and TensorBoard wrappers to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PySavedModel>()?;
    m.add_class::<PySummaryWriter>()?;
    m.add_function(wrap_pyfunction!(saved_model, m)?)?;
    m.add_function(wrap_pyfunction!(read_events, m)?)?;
    Ok(())
}
