//! `RecordFile`: a TFRecord file's records by number, for PyTorch
//! map-style datasets and Grain's random-access sources, local or remote.

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple};

use crate::errors::to_py;
use tft::io::RemoteOptions;
use tft::tfrecord::{RecordFile, write_index};

/// A TFRecord file's records by number: `len(f)`, `f[i]` (the record's
/// bytes, both CRCs checked). `index` is a DALI `.idx` file (path or URL)
/// or a list of `(offset, length)` pairs; without it the file is indexed
/// when opened (at read speed). `anonymous=True` reads public buckets
/// without credentials. GZIP files have no random access: a clear error.
/// Usable as a PyTorch map-style `Dataset` and a Grain
/// `RandomAccessDataSource`; it pickles (path, index) for worker
/// processes.
#[pyclass(name = "RecordFile", module = "tftensor", frozen)]
pub(crate) struct PyRecordFile {
    inner: RecordFile,
    path: String,
    anonymous: bool,
}

fn remote(anonymous: bool) -> RemoteOptions {
    let r = RemoteOptions::default();
    if anonymous { r.with_anonymous() } else { r }
}

#[pymethods]
impl PyRecordFile {
    #[new]
    #[pyo3(signature = (path, index = None, anonymous = false))]
    fn new(
        py: Python<'_>,
        path: std::path::PathBuf,
        index: Option<Bound<'_, PyAny>>,
        anonymous: bool,
    ) -> PyResult<Self> {
        let path = path.to_string_lossy().into_owned();
        let opts = remote(anonymous);
        let inner = match index {
            None => py.detach(|| RecordFile::open_with(&path, None, &opts)),
            Some(i) => match i.extract::<std::path::PathBuf>() {
                Ok(idx) => py.detach(|| RecordFile::open_with(&path, Some(&idx), &opts)),
                Err(_) => {
                    let entries: Vec<(u64, u64)> = i.extract()?;
                    py.detach(|| RecordFile::with_index(&path, entries, &opts))
                }
            },
        }
        .map_err(to_py)?;
        Ok(PyRecordFile {
            inner,
            path,
            anonymous,
        })
    }

    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, i: isize) -> PyResult<Bound<'py, PyBytes>> {
        let n = self.inner.len() as isize;
        let j = if i < 0 { i + n } else { i };
        if j < 0 || j >= n {
            return Err(PyIndexError::new_err(format!("record {i} of {n}")));
        }
        let data = py.detach(|| self.inner.get(j as usize)).map_err(to_py)?;
        Ok(PyBytes::new(py, &data))
    }

    /// The records at `indices` (a list of ints), read at once.
    fn get_many<'py>(&self, py: Python<'py>, indices: Vec<usize>) -> PyResult<Bound<'py, PyList>> {
        let got = py.detach(|| self.inner.get_many(&indices)).map_err(to_py)?;
        PyList::new(py, got.iter().map(|b| PyBytes::new(py, b)))
    }

    /// Each record's `(offset, length)`, the 16 framing bytes included.
    #[getter]
    fn index(&self) -> Vec<(u64, u64)> {
        self.inner.index().to_vec()
    }

    /// Writes the index as a DALI `.idx` file (a path or URL).
    fn save_index(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        let opts = remote(self.anonymous);
        py.detach(|| write_index(&path, self.inner.index(), &opts))
            .map_err(to_py)
    }

    fn __repr__(&self) -> String {
        format!("RecordFile({:?}, {} records)", self.path, self.inner.len())
    }

    /// Pickles as `RecordFile(path, index, anonymous)`, so worker processes
    /// reopen the file without indexing it again.
    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let me = slf.get();
        let args = (me.path.clone(), me.inner.index().to_vec(), me.anonymous).into_pyobject(py)?;
        Ok((slf.get_type().into_any(), args))
    }
}

/// Adds `RecordFile`.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRecordFile>()
}
