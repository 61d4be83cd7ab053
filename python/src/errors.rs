//! tftensor errors as Python exceptions.

use pyo3::exceptions::{
    PyBufferError, PyFileNotFoundError, PyMemoryError, PyOSError, PyRuntimeError, PyTypeError,
    PyValueError,
};
use pyo3::prelude::PyAnyMethods;
use pyo3::{PyErr, Python};
use tft::Error;

/// The Python exception for a tftensor error, by its kind (looking
/// through the location wrapper): `TypeError` for dtypes; `OSError` for
/// I/O and `FileNotFoundError` for a missing file (or checkpoint prefix,
/// data shard, glob with no match), as Python's own: `errno`, `strerror`
/// (the text without the location) and `filename` (the error's path
/// field); `MemoryError` for a failed allocation; `ValueError` for bad
/// input, a file no format claims, and sizes that overflow (as NumPy's
/// "array is too big"). A missing tensor is a `KeyError` where the front
/// looks names up (`Source[name]`, `copy(only=...)`).
pub(crate) fn to_py(err: Error) -> PyErr {
    let msg = err.to_string();
    match err.inner() {
        Error::UnsupportedDataType { .. } | Error::DataTypeMismatch { .. } => {
            PyTypeError::new_err(msg)
        }
        Error::Io { source, .. } => {
            let errno = source.get().raw_os_error();
            os_error(&err, source.kind(), errno, source.get().to_string())
        }
        // The library's text names no API; this front names its own knob.
        Error::OpaqueDtype { .. } => PyValueError::new_err(format!(
            "{msg}: pass npy_dtype=, e.g. npy_dtype=\"bfloat16\""
        )),
        Error::NotFound { message, .. } => {
            os_error(&err, std::io::ErrorKind::NotFound, None, message.clone())
        }
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

/// An `OSError` made as Python makes its own, `OSError(errno, strerror,
/// filename)`, so `str()` is `[Errno 2] No such file ...: 'path'`: the
/// errno the system gave, else the one of the error's kind (from Python's
/// `errno` module); `strerror` the text without the path, the key (a
/// tensor, a record) before it.
fn os_error(err: &Error, kind: std::io::ErrorKind, errno: Option<i32>, text: String) -> PyErr {
    use std::io::ErrorKind as K;
    let strerror = match err.key() {
        Some(key) => format!("'{key}': {text}"),
        None => text,
    };
    let path = err.path().map(str::to_owned);
    let errno = errno.or_else(|| {
        let name = match kind {
            K::NotFound => "ENOENT",
            K::PermissionDenied => "EACCES",
            K::AlreadyExists => "EEXIST",
            K::IsADirectory => "EISDIR",
            K::NotADirectory => "ENOTDIR",
            _ => "EIO",
        };
        Python::attach(|py| {
            py.import("errno")
                .and_then(|m| m.getattr(name))
                .and_then(|v| v.extract::<i32>())
                .ok()
        })
    });
    let args = (errno, strerror, path);
    if kind == K::NotFound {
        PyFileNotFoundError::new_err(args)
    } else {
        PyOSError::new_err(args)
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
