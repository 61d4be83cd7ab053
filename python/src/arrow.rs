//! Arrow for Python through the Arrow PyCapsule interface, so pyarrow (or
//! polars, duckdb, ...) imports without tftensor depending on it:
//!
//! * `read_examples_arrow(paths, spec=None, batch_size=1024, compression="",
//!   sequence=False)` returns an object with `__arrow_c_stream__`
//!   (`pa.table(obj)`, `pa.RecordBatchReader.from_stream(obj)`); without a
//!   spec, later batches take the first batch's schema (features they
//!   lack are null), and a feature new after the first batch is an error;
//! * `decode_examples(records, spec=None, sequence=False)` returns one
//!   batch with `__arrow_c_array__` (`pa.record_batch(obj)`);
//! * `tensor_to_arrow(tensor)` returns an `arrow.fixed_shape_tensor` array
//!   with `__arrow_c_array__` (`pa.array(obj)`) sharing the tensor's
//!   buffer (the release callback holds the tensor), and
//!   `tensor_from_arrow(obj)` the reverse for any `__arrow_c_array__`
//!   producer, adopting its buffer.
//!
//! A spec maps names to `tf.io.FixedLenFeature`, `VarLenFeature` or
//! `RaggedFeature` objects (read by duck typing, so TensorFlow is not
//! needed: any object with `dtype` and, for fixed length, `shape` and
//! `default_value`).

use std::sync::{Arc, Mutex};

use arrow_array::ffi::{FFI_ArrowArray, from_ffi, to_ffi};
use arrow_array::ffi_stream::FFI_ArrowArrayStream;
use arrow_array::{
    Array, ArrayRef, RecordBatch, RecordBatchReader, StructArray, make_array, new_null_array,
};
use arrow_schema::ffi::FFI_ArrowSchema;
use arrow_schema::{ArrowError, Field, SchemaRef};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyCapsule, PyTuple};
use tft::arrow::{self as ta, ExampleBatches, FeatureSpec, StreamOptions};
use tft::{DataType, Tensor};

use crate::PyTensor;
use crate::errors::to_py;

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

/// The batches of a file stream, with one schema (the first batch's).
struct Reader {
    schema: SchemaRef,
    first: Option<RecordBatch>,
    rest: ExampleBatches,
}

impl Iterator for Reader {
    type Item = Result<RecordBatch, ArrowError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(b) = self.first.take() {
            return Some(Ok(b));
        }
        let batch = match self.rest.next()? {
            Ok(b) => b,
            Err(e) => return Some(Err(ArrowError::ExternalError(Box::new(e)))),
        };
        Some(conform(&batch, &self.schema))
    }
}

/// A later schema-less batch in the first batch's schema: a feature it
/// lacks (or has only as `null`) becomes an all-null column of the first
/// batch's type. A new feature or another type is an error (pass a spec
/// for a fixed schema).
fn conform(batch: &RecordBatch, schema: &SchemaRef) -> Result<RecordBatch, ArrowError> {
    if batch.schema() == *schema {
        return Ok(batch.clone());
    }
    for f in batch.schema().fields() {
        let known = schema.field_with_name(f.name()).ok();
        if !known.is_some_and(|k| k.data_type() == f.data_type() || f.data_type().is_null()) {
            return Err(ArrowError::SchemaError(format!(
                "feature {:?} ({}) is not in the first batch's schema; pass a spec for a fixed schema",
                f.name(),
                f.data_type()
            )));
        }
    }
    let columns = schema
        .fields()
        .iter()
        .map(|f| match batch.column_by_name(f.name()) {
            Some(c) if c.data_type() == f.data_type() => c.clone(),
            _ => new_null_array(f.data_type(), batch.num_rows()),
        })
        .collect();
    RecordBatch::try_new(schema.clone(), columns)
}

impl RecordBatchReader for Reader {
    fn schema(&self) -> SchemaRef {
        self.schema.clone()
    }
}

/// A stream of record batches for `__arrow_c_stream__` (consumed once).
#[pyclass(name = "ArrowStream", module = "tftensor", frozen)]
pub struct PyArrowStream {
    reader: Mutex<Option<Reader>>,
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

fn dtype_of(obj: &Bound<'_, PyAny>) -> PyResult<DataType> {
    let dtype = obj.getattr("dtype")?;
    let name: String = match dtype.getattr("name") {
        Ok(n) => n.extract()?,
        Err(_) => dtype.extract()?,
    };
    match name.as_str() {
        "int64" => Ok(DataType::Int64),
        "float32" | "float" => Ok(DataType::Float),
        "string" | "bytes" => Ok(DataType::String),
        other => Err(PyTypeError::new_err(format!(
            "feature dtype must be int64, float32 or string, got {other}"
        ))),
    }
}

/// Flattens a scalar or nested lists into `out`.
fn flatten<'py>(v: &Bound<'py, PyAny>, out: &mut Vec<Bound<'py, PyAny>>) -> PyResult<()> {
    if v.is_instance_of::<pyo3::types::PyList>() || v.is_instance_of::<pyo3::types::PyTuple>() {
        for item in v.try_iter()? {
            flatten(&item?, out)?;
        }
    } else {
        out.push(v.clone());
    }
    Ok(())
}

fn default_tensor(v: &Bound<'_, PyAny>, dtype: DataType, shape: &[usize]) -> PyResult<Tensor> {
    // numpy arrays and tf tensors: through `tolist()`.
    let v = match v.getattr("tolist") {
        Ok(f) => f.call0()?,
        Err(_) => v.clone(),
    };
    let mut flat = Vec::new();
    flatten(&v, &mut flat)?;
    let n = flat.len();
    let dims = if shape.iter().product::<usize>() == n {
        shape.to_vec()
    } else {
        vec![n]
    };
    let t = match dtype {
        DataType::Int64 => Tensor::from_vec(
            dims,
            flat.iter()
                .map(|x| x.extract::<i64>())
                .collect::<PyResult<Vec<_>>>()?,
        ),
        DataType::Float => Tensor::from_vec(
            dims,
            flat.iter()
                .map(|x| x.extract::<f32>())
                .collect::<PyResult<Vec<_>>>()?,
        ),
        _ => Tensor::from_vec(
            dims,
            flat.iter()
                .map(|x| match x.extract::<Vec<u8>>() {
                    Ok(b) => Ok(tft::bytes::Bytes::from(b)),
                    Err(_) => x.extract::<String>().map(tft::bytes::Bytes::from),
                })
                .collect::<PyResult<Vec<_>>>()?,
        ),
    };
    t.map_err(to_py)
}

/// A `{name: tf.io.*Feature}` dict as a spec.
fn spec_of(spec: &Bound<'_, PyAny>) -> PyResult<Vec<(String, FeatureSpec)>> {
    let mut out = Vec::new();
    for item in spec.call_method0("items")?.try_iter()? {
        let (name, feature): (String, Bound<'_, PyAny>) = item?.extract()?;
        let dtype = dtype_of(&feature)?;
        let class: String = feature.get_type().name()?.extract()?;
        let s = if class == "RaggedFeature" {
            FeatureSpec::Ragged { dtype }
        } else if feature.hasattr("default_value")? {
            let shape: Vec<usize> = match feature.getattr("shape")?.call_method0("as_list") {
                Ok(l) => l.extract()?,
                Err(_) => feature.getattr("shape")?.extract()?,
            };
            let default = feature.getattr("default_value")?;
            let default = if default.is_none() {
                None
            } else {
                Some(default_tensor(&default, dtype, &shape)?)
            };
            FeatureSpec::FixedLen {
                dtype,
                shape,
                default,
            }
        } else {
            FeatureSpec::VarLen { dtype }
        };
        out.push((name, s));
    }
    Ok(out)
}

/// Batches of the `tf.train.Example` records of `paths` (a path or a
/// list; file-name globs allowed) as an Arrow stream.
#[pyfunction]
#[pyo3(signature = (paths, spec=None, batch_size=1024, compression="", sequence=false))]
fn read_examples_arrow(
    paths: Bound<'_, PyAny>,
    spec: Option<Bound<'_, PyAny>>,
    batch_size: usize,
    compression: &str,
    sequence: bool,
) -> PyResult<PyArrowStream> {
    let paths: Vec<String> = match paths.extract::<String>() {
        Ok(p) => vec![p],
        Err(_) => paths.extract()?,
    };
    let mut options = StreamOptions::new(batch_size)
        .compression(compression.parse().map_err(to_py)?)
        .sequence(sequence);
    if let Some(s) = spec {
        options = options.spec(spec_of(&s)?);
    }
    let mut batches = ta::read_examples_arrow(&paths, options).map_err(to_py)?;
    let first = batches.next().transpose().map_err(to_py)?;
    let schema = match &first {
        Some(b) => b.schema(),
        None => Arc::new(arrow_schema::Schema::empty()),
    };
    Ok(PyArrowStream {
        reader: Mutex::new(Some(Reader {
            schema,
            first,
            rest: batches,
        })),
    })
}

/// One batch of serialized records (a list of `bytes`) as an Arrow struct
/// array (`pa.record_batch(obj)`).
#[pyfunction]
#[pyo3(signature = (records, spec=None, sequence=false))]
fn decode_examples(
    records: Vec<Vec<u8>>,
    spec: Option<Bound<'_, PyAny>>,
    sequence: bool,
) -> PyResult<PyArrowArray> {
    let batch = match spec {
        Some(s) => {
            let spec = spec_of(&s)?;
            let spec: Vec<(&str, FeatureSpec)> =
                spec.iter().map(|(n, s)| (n.as_str(), s.clone())).collect();
            ta::parse_examples(&records, &spec)
        }
        None if sequence => ta::decode_sequence_examples(&records),
        None => ta::decode_examples(&records),
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
