//! tftensor errors as Python exceptions.

use pyo3::PyErr;
use pyo3::exceptions::{
    PyBufferError, PyFileNotFoundError, PyMemoryError, PyOSError, PyRuntimeError, PyTypeError,
    PyValueError,
};
use tft::Error;

/// The Python exception for a tftensor error: `TypeError` for dtypes,
/// `OSError` (`FileNotFoundError`) for I/O and missing files,
/// `MemoryError` for a failed allocation, `ValueError` for bad input
/// (including sizes that overflow, as NumPy's "array is too big").
pub(crate) fn to_py(err: Error) -> PyErr {
    let msg = err.to_string();
    match err.inner().clone() {
        Error::UnsupportedDataType { .. } | Error::DataTypeMismatch { .. } => {
            PyTypeError::new_err(msg)
        }
        Error::Io { source, .. } if source.kind() == std::io::ErrorKind::NotFound => {
            PyFileNotFoundError::new_err(msg)
        }
        Error::Io { .. } => PyOSError::new_err(msg),
        // The library's text names no API; this front names its own knob.
        Error::OpaqueDtype { .. } => PyValueError::new_err(format!(
            "{msg}: pass npy_dtype=, e.g. npy_dtype=\"bfloat16\" (dtype= to load_npy)"
        )),
        // The wrappers look names up only in files they read whole, so a
        // missing thing is a missing file (TF's NOT_FOUND).
        Error::NotFound { .. } => PyFileNotFoundError::new_err(msg),
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
        | Error::InvalidFormat { .. } => PyValueError::new_err(msg),
        _ => PyRuntimeError::new_err(msg),
    }
}

/// DLPack refusals are `BufferError`s, as in NumPy; allocation failures stay
/// `MemoryError`.
pub(crate) fn buffer_error(err: Error) -> PyErr {
    match err {
        Error::AllocationFailed { .. } => to_py(err),
        _ => PyBufferError::new_err(err.to_string()),
    }
}
