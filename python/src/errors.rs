//! tftensor errors as Python exceptions.

use pyo3::exceptions::{
    PyBufferError, PyFileNotFoundError, PyKeyError, PyMemoryError, PyOSError, PyRuntimeError,
    PyTypeError, PyValueError,
};
use pyo3::prelude::PyAnyMethods;
use pyo3::{PyErr, Python};
use tft::Error;

/// The Python exception for a tftensor error, by its kind (looking
/// through the location wrapper): `TypeError` for dtypes, `OSError` for
/// I/O (`FileNotFoundError` for a missing file), with `filename` set from
/// the error's path field and `errno` where the system gave one;
/// `KeyError` for a missing tensor (a `NotFound` that names its key);
/// `MemoryError` for a failed allocation; `ValueError` for bad input,
/// a file no format claims, and sizes that overflow (as NumPy's "array is
/// too big").
pub(crate) fn to_py(err: Error) -> PyErr {
    let msg = err.to_string();
    let path = err.path().map(str::to_owned);
    match err.inner() {
        Error::UnsupportedDataType { .. } | Error::DataTypeMismatch { .. } => {
            PyTypeError::new_err(msg)
        }
        Error::Io { source, .. } => {
            let errno = source.get().raw_os_error();
            let e = if source.kind() == std::io::ErrorKind::NotFound {
                PyFileNotFoundError::new_err(msg)
            } else {
                PyOSError::new_err(msg)
            };
            with_os_fields(e, errno, path)
        }
        // The library's text names no API; this front names its own knob.
        Error::OpaqueDtype { .. } => PyValueError::new_err(format!(
            "{msg}: pass npy_dtype=, e.g. npy_dtype=\"bfloat16\""
        )),
        // A missing tensor (the error names it as its key, in a file that
        // is there) is a missing key of the mapping; anything else missing
        // is a missing file (a checkpoint prefix, a data shard, a glob
        // with no match), named by the path.
        Error::NotFound { .. }
            if err.key().is_some()
                && path
                    .as_deref()
                    .is_none_or(|p| std::path::Path::new(p).exists()) =>
        {
            PyKeyError::new_err(msg)
        }
        Error::NotFound { .. } => with_os_fields(PyFileNotFoundError::new_err(msg), None, path),
        Error::AllocationFailed { .. } => PyMemoryError::new_err(msg),
        Error::InvalidShape(_)
        | Error::InvalidArgument(_)
        | Error::SizeMismatch { .. }
        | Error::Misaligned { .. }
        | Error::OutOfRange(_)
        | Error::Overflow(_)
        | Error::LimitExceeded { .. }
        | Error::InvalidProto { .. }
        | Error::DataLoss { .. }
        | Error::InvalidFormat { .. }
        | Error::UnknownFormat { .. } => PyValueError::new_err(msg),
        _ => PyRuntimeError::new_err(msg),
    }
}

/// An `OSError` with `filename` (and `errno`) set, as Python's own.
fn with_os_fields(err: PyErr, errno: Option<i32>, path: Option<String>) -> PyErr {
    Python::attach(|py| {
        let value = err.value(py);
        // Setting attributes of a fresh OSError cannot fail.
        if let Some(path) = path {
            let _ = value.setattr("filename", path);
        }
        if let Some(errno) = errno {
            let _ = value.setattr("errno", errno);
        }
    });
    err
}

/// DLPack refusals are `BufferError`s, as in NumPy; allocation failures stay
/// `MemoryError`.
pub(crate) fn buffer_error(err: Error) -> PyErr {
    match err {
        Error::AllocationFailed { .. } => to_py(err),
        _ => PyBufferError::new_err(err.to_string()),
    }
}
