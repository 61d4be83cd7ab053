//! Arrow for Python through the Arrow PyCapsule interface, so pyarrow (or
//! polars, duckdb, ...) imports without tftensor depending on it. This
//! file only exports what `tftensor::arrow` makes; the schema contract is
//! the library's:
//!
//! * `read_examples_arrow(paths, spec=None, batch_size=1024, compression="",
//!   sequence=False, *, context_features=None, sequence_features=None,
//!   schema=None)` returns an object with `__arrow_c_stream__`
//!   (`pa.table(obj)`, `pa.RecordBatchReader.from_stream(obj)`): the
//!   library's `ExampleBatches`, one schema for the whole stream;
//! * `decode_examples(records, spec=None, sequence=False, *,
//!   context_features=None, sequence_features=None)` returns one batch
//!   with `__arrow_c_array__` (`pa.record_batch(obj)`);
//! * `tensor_to_arrow(tensor)` returns an `arrow.fixed_shape_tensor` array
//!   with `__arrow_c_array__` (`pa.array(obj)`) sharing the tensor's
//!   buffer (the release callback holds the tensor), and
//!   `tensor_from_arrow(obj)` the reverse for any `__arrow_c_array__`
//!   producer, adopting its buffer.
//!
//! Specs are plain dicts or `tf.io` feature objects (`crate::spec`).

use std::sync::{Arc, Mutex};

use arrow_array::ffi::{FFI_ArrowArray, from_ffi, to_ffi};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{Array, ArrayRef, RecordBatch, StructArray, make_array};
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::{ArrowError, Field, Schema};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use tft::arrow::{self as ta, ExampleBatches, FeatureSpec, StreamOptions};

use crate::PyTensor;
use crate::errors::to_py;
use crate::spec::{sequence_spec_of, spec_of};

fn arrow_err(e: ArrowError) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `(schema_capsule, array_capsule)` for `field` and `array`. The capsules
/// hold arrow-rs FFI structs whose `Drop` calls `release` unless a
/// consumer moved them out (and set `release` to NULL), as the protocol
/// asks.
fn array_capsules<'py>(
    py: Python<'py>,
    field: &Field,
    array: &ArrayRef,
) -> PyResult<Bound<'py, PyTuple>> {
    let schema = FFI_ArrowSchema::try_from(field).map_err(arrow_err)?;
    let (ffi_array, _) = to_ffi(&array.to_data()).map_err(arrow_err)?;
    let s = PyCapsule::new_with_value(py, schema, c"arrow_schema")?;
    let a = PyCapsule::new_with_value(py, ffi_array, c"arrow_array")?;
    PyTuple::new(py, [s.into_any(), a.into_any()])
}

/// An Arrow array (a tensor, or a batch as a struct) for
/// `__arrow_c_array__`.
#[pyclass(name = "ArrowArray", module = "tftensor", frozen)]
pub struct PyArrowArray {
    field: Field,
    array: ArrayRef,
}

#[pymethods]
impl PyArrowArray {
    /// The Arrow PyCapsule protocol: `(schema, array)` capsules.
    /// `requested_schema` is accepted and ignored (best effort).
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_array__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyTuple>> {
        let _ = requested_schema;
        array_capsules(py, &self.field, &self.array)
    }

    /// The schema capsule alone.
    fn __arrow_c_schema__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyCapsule>> {
        let schema = FFI_ArrowSchema::try_from(&self.field).map_err(arrow_err)?;
        PyCapsule::new_with_value(py, schema, c"arrow_schema")
    }

    /// Rows (tensor cells, or records).
    fn __len__(&self) -> usize {
        self.array.len()
    }
}

fn batch_array(batch: RecordBatch) -> PyArrowArray {
    let array: ArrayRef = Arc::new(StructArray::from(batch));
    PyArrowArray {
        field: Field::new("", array.data_type().clone(), false),
        array,
    }
}

/// A tensor as an `arrow.fixed_shape_tensor` array (rank ≥ 2) or a plain
/// array (rank 1), sharing its buffer.
#[pyfunction]
fn tensor_to_arrow(tensor: &PyTensor) -> PyResult<PyArrowArray> {
    let (field, array) = ta::tensor_to_arrow(&tensor.inner, "").map_err(to_py)?;
    Ok(PyArrowArray { field, array })
}

/// An Arrow array from any `__arrow_c_array__` producer (pyarrow's
/// `FixedShapeTensorArray`, a primitive array) as a tensor that adopts its
/// values buffer without copying (see `tftensor::arrow::arrow_to_tensor`);
/// the tensor keeps the producer's memory alive through its release
/// callback.
#[pyfunction]
fn tensor_from_arrow(obj: &Bound<'_, PyAny>) -> PyResult<PyTensor> {
    let pair = obj.call_method1("__arrow_c_array__", (obj.py().None(),))?;
    let (schema_cap, array_cap): (Bound<'_, PyCapsule>, Bound<'_, PyCapsule>) = pair.extract()?;
    let schema_ptr = schema_cap
        .pointer_checked(Some(c"arrow_schema"))?
        .cast::<FFI_ArrowSchema>();
    let array_ptr = array_cap
        .pointer_checked(Some(c"arrow_array"))?
        .cast::<FFI_ArrowArray>();
    // SAFETY: per the PyCapsule protocol a capsule named "arrow_array"
    // holds a valid ArrowArray struct; `from_raw` moves it out and leaves
    // `release` NULL in the capsule, as a consumer must, so it is released
    // once, when the imported data drops.
    let ffi_array = unsafe { FFI_ArrowArray::from_raw(array_ptr.as_ptr()) };
    // SAFETY: a capsule named "arrow_schema" holds a valid ArrowSchema
    // struct, which the capsule owns and keeps alive while it is borrowed
    // here (no Python code runs in between).
    let ffi_schema = unsafe { schema_ptr.as_ref() };
    // SAFETY: the array and schema come from the same producer call and
    // describe the same data.
    let data = unsafe { from_ffi(ffi_array, ffi_schema) }.map_err(arrow_err)?;
    let field = Field::try_from(ffi_schema).map_err(arrow_err)?;
    let array = make_array(data);
    let tensor = ta::arrow_to_tensor(&field, array.as_ref()).map_err(to_py)?;
    Ok(PyTensor::from(tensor))
}

/// A stream of record batches for `__arrow_c_stream__` (consumed once).
#[pyclass(name = "ArrowStream", module = "tftensor", frozen)]
pub struct PyArrowStream {
    reader: Mutex<Option<ExampleBatches>>,
}

#[pymethods]
impl PyArrowStream {
    /// The Arrow PyCapsule protocol: an `arrow_array_stream` capsule.
    #[pyo3(signature = (requested_schema=None))]
    fn __arrow_c_stream__<'py>(
        &self,
        py: Python<'py>,
        requested_schema: Option<Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyCapsule>> {
        let _ = requested_schema;
        let reader = self
            .reader
            .lock()
            .map_err(|_| PyValueError::new_err("stream lock poisoned"))?
            .take()
            .ok_or_else(|| PyValueError::new_err("the stream was already consumed"))?;
        let stream = FFI_ArrowArrayStream::new(Box::new(reader));
        PyCapsule::new_with_value(py, stream, c"arrow_array_stream")
    }
}

/// A schema from any `__arrow_c_schema__` producer (a `pa.Schema`).
fn schema_of(obj: &Bound<'_, PyAny>) -> PyResult<Schema> {
    let capsule = obj.call_method0("__arrow_c_schema__")?;
    let capsule = capsule.cast::<PyCapsule>()?;
    let ptr = capsule
        .pointer_checked(Some(c"arrow_schema"))?
        .cast::<FFI_ArrowSchema>();
    // SAFETY: a capsule named "arrow_schema" holds a valid ArrowSchema
    // struct, which the capsule owns and keeps alive while it is borrowed
    // here (no Python code runs in between); nothing is moved out.
    let ffi = unsafe { ptr.as_ref() };
    Schema::try_from(ffi).map_err(arrow_err)
}

/// Batches of the `tf.train.Example` records of `paths` (a path or a
/// list; file-name globs allowed) as an Arrow stream with one schema: the
/// spec's, `schema`'s (any `__arrow_c_schema__` producer), or else the one
/// a first pass over the files finds. `context_features` and
/// `sequence_features` read `SequenceExample`s as
/// `tf.io.parse_sequence_example` does.
#[pyfunction]
#[pyo3(signature = (
    paths, spec=None, batch_size=1024, compression="", sequence=false, *,
    context_features=None, sequence_features=None, schema=None,
))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
fn read_examples_arrow(
    py: Python<'_>,
    paths: Bound<'_, PyAny>,
    spec: Option<Bound<'_, PyAny>>,
    batch_size: usize,
    compression: &str,
    sequence: bool,
    context_features: Option<Bound<'_, PyAny>>,
    sequence_features: Option<Bound<'_, PyAny>>,
    schema: Option<Bound<'_, PyAny>>,
) -> PyResult<PyArrowStream> {
    let paths: Vec<String> = match paths.extract::<String>() {
        Ok(p) => vec![p],
        Err(_) => paths.extract()?,
    };
    let mut options = StreamOptions::new(batch_size)
        .compression(tft::io::Compression::parse(compression).map_err(to_py)?)
        .sequence(sequence);
    if let Some(s) = spec {
        options = options.spec(spec_of(&s)?);
    }
    if context_features.is_some() || sequence_features.is_some() {
        options = options.sequence_spec(sequence_spec_of(
            context_features.as_ref(),
            sequence_features.as_ref(),
        )?);
    }
    if let Some(s) = schema {
        options = options.schema(Arc::new(schema_of(&s)?));
    }
    let batches = py
        .detach(|| ta::read_examples_arrow(&paths, options))
        .map_err(to_py)?;
    Ok(PyArrowStream {
        reader: Mutex::new(Some(batches)),
    })
}

/// One batch of serialized records (a list of `bytes`) as an Arrow struct
/// array (`pa.record_batch(obj)`); specs as `read_examples_arrow`.
#[pyfunction]
#[pyo3(signature = (records, spec=None, sequence=false, *, context_features=None, sequence_features=None))]
fn decode_examples(
    records: Vec<Vec<u8>>,
    spec: Option<Bound<'_, PyAny>>,
    sequence: bool,
    context_features: Option<Bound<'_, PyAny>>,
    sequence_features: Option<Bound<'_, PyAny>>,
) -> PyResult<PyArrowArray> {
    let batch = if context_features.is_some() || sequence_features.is_some() {
        let spec = sequence_spec_of(context_features.as_ref(), sequence_features.as_ref())?;
        ta::parse_sequence_examples(&records, &spec)
    } else {
        match spec {
            Some(s) => {
                let spec = spec_of(&s)?;
                let spec: Vec<(&str, FeatureSpec)> =
                    spec.iter().map(|(n, s)| (n.as_str(), s.clone())).collect();
                ta::parse_examples(&records, &spec)
            }
            None if sequence => ta::decode_sequence_examples(&records),
            None => ta::decode_examples(&records),
        }
    }
    .map_err(to_py)?;
    Ok(batch_array(batch))
}

/// Adds the Arrow functions and classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyArrowArray>()?;
    m.add_class::<PyArrowStream>()?;
    m.add_function(wrap_pyfunction!(tensor_to_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(tensor_from_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(read_examples_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(decode_examples, m)?)?;
    Ok(())
}
