//! Feature specs from Python: plain dicts (`{"type": "FixedLenFeature",
//! "shape": [2], "dtype": "int64", "default_value": [0, 0]}`) or
//! `tf.io.FixedLenFeature`, `VarLenFeature`, `RaggedFeature` and
//! `FixedLenSequenceFeature` objects (read by class name and attributes,
//! so TensorFlow is not needed), as the library's `FeatureSpec`s.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};
use tft::arrow::{FeatureSpec, SequenceSpec};
use tft::{DataType, Tensor};

use crate::errors::to_py;

/// One attribute of a spec: a dict's item or an object's attribute.
fn item<'py>(spec: &Bound<'py, PyAny>, name: &str) -> PyResult<Option<Bound<'py, PyAny>>> {
    if let Ok(d) = spec.cast::<PyDict>() {
        return d.get_item(name);
    }
    match spec.getattr(name) {
        Ok(v) => Ok(Some(v)),
        Err(_) => Ok(None),
    }
}

fn required<'py>(
    spec: &Bound<'py, PyAny>,
    name: &str,
    feature: &str,
) -> PyResult<Bound<'py, PyAny>> {
    item(spec, name)?.filter(|v| !v.is_none()).ok_or_else(|| {
        PyValueError::new_err(format!("feature {feature:?}: the spec has no {name}"))
    })
}

fn dtype_of(dtype: &Bound<'_, PyAny>, feature: &str) -> PyResult<DataType> {
    // A tf.DType (or a NumPy dtype) has a name; a string is one.
    let name: String = match dtype.getattr("name") {
        Ok(n) if !dtype.is_instance_of::<pyo3::types::PyString>() => n.extract()?,
        _ => dtype.extract()?,
    };
    match name.as_str() {
        "int64" => Ok(DataType::Int64),
        "float32" | "float" => Ok(DataType::Float),
        "string" | "bytes" | "str" => Ok(DataType::String),
        other => Err(PyTypeError::new_err(format!(
            "feature {feature:?}: dtype must be int64, float32 or string, got {other}"
        ))),
    }
}

fn shape_of(spec: &Bound<'_, PyAny>, feature: &str) -> PyResult<Vec<usize>> {
    let Some(shape) = item(spec, "shape")?.filter(|v| !v.is_none()) else {
        return Ok(Vec::new());
    };
    // A tf.TensorShape lists itself; a list or tuple is one.
    let shape = match shape.call_method0("as_list") {
        Ok(l) => l,
        Err(_) => shape,
    };
    shape.extract().map_err(|_| {
        PyValueError::new_err(format!(
            "feature {feature:?}: shape must be a list of sizes, got {shape}"
        ))
    })
}

/// Flattens a scalar or nested lists into `out`.
fn flatten<'py>(v: &Bound<'py, PyAny>, out: &mut Vec<Bound<'py, PyAny>>) -> PyResult<()> {
    if v.is_instance_of::<PyList>() || v.is_instance_of::<PyTuple>() {
        for item in v.try_iter()? {
            flatten(&item?, out)?;
        }
    } else {
        out.push(v.clone());
    }
    Ok(())
}

fn default_tensor(v: &Bound<'_, PyAny>, dtype: DataType, shape: &[usize]) -> PyResult<Tensor> {
    // NumPy arrays and tf tensors: through `tolist()`.
    let v = match v.getattr("tolist") {
        Ok(f) => f.call0()?,
        Err(_) => v.clone(),
    };
    let mut flat = Vec::new();
    flatten(&v, &mut flat)?;
    let n = flat.len();
    // A scalar default of a shaped feature is TF's too: the library checks
    // the count and names the feature.
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

/// One feature's spec.
fn feature_of(name: &str, spec: &Bound<'_, PyAny>) -> PyResult<FeatureSpec> {
    let kind: String = match item(spec, "type")? {
        Some(t) if spec.is_instance_of::<PyDict>() => t.extract()?,
        _ => spec.get_type().name()?.extract()?,
    };
    let dtype = dtype_of(&required(spec, "dtype", name)?, name)?;
    Ok(match kind.as_str() {
        "FixedLenFeature" => {
            let shape = shape_of(spec, name)?;
            let default = match item(spec, "default_value")?.filter(|v| !v.is_none()) {
                Some(v) => Some(default_tensor(&v, dtype, &shape)?),
                None => None,
            };
            FeatureSpec::FixedLen {
                dtype,
                shape,
                default,
            }
        }
        "VarLenFeature" => FeatureSpec::VarLen { dtype },
        "RaggedFeature" => {
            // Partitions would make more ragged dimensions than one.
            let partitions = item(spec, "partitions")?.filter(|v| !v.is_none());
            if let Some(p) = partitions {
                if p.len()? > 0 {
                    return Err(PyValueError::new_err(format!(
                        "feature {name:?}: RaggedFeature partitions are not supported"
                    )));
                }
            }
            // The values are the feature of the spec's own name.
            if let Some(key) = item(spec, "value_key")?.filter(|v| !v.is_none()) {
                if key.extract::<String>()? != name {
                    return Err(PyValueError::new_err(format!(
                        "feature {name:?}: a RaggedFeature value_key other than its name is \
                         not supported"
                    )));
                }
            }
            FeatureSpec::Ragged { dtype }
        }
        "FixedLenSequenceFeature" => FeatureSpec::FixedLenSequence {
            dtype,
            shape: shape_of(spec, name)?,
            allow_missing: item(spec, "allow_missing")?
                .map(|v| v.is_truthy())
                .transpose()?
                .unwrap_or(false),
        },
        other => {
            return Err(PyTypeError::new_err(format!(
                "feature {name:?}: a spec is a FixedLenFeature, VarLenFeature, RaggedFeature \
                 or FixedLenSequenceFeature (an object or a dict with \"type\"), got {other}"
            )));
        }
    })
}

/// A `{name: spec}` mapping as the library's spec, in its order.
pub(crate) fn spec_of(spec: &Bound<'_, PyAny>) -> PyResult<Vec<(String, FeatureSpec)>> {
    let mut out = Vec::new();
    for pair in spec.call_method0("items")?.try_iter()? {
        let (name, feature): (String, Bound<'_, PyAny>) = pair?.extract()?;
        let s = feature_of(&name, &feature)?;
        out.push((name, s));
    }
    Ok(out)
}

/// `context_features` and `sequence_features` as a `SequenceSpec`.
pub(crate) fn sequence_spec_of(
    context: Option<&Bound<'_, PyAny>>,
    sequence: Option<&Bound<'_, PyAny>>,
) -> PyResult<SequenceSpec> {
    Ok(SequenceSpec {
        context: context.map(spec_of).transpose()?.unwrap_or_default(),
        sequence: sequence.map(spec_of).transpose()?.unwrap_or_default(),
    })
}
