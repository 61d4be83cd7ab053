//! DLPack capsules: the only `unsafe` of the Python module. Exports are
//! wrapped in `PyCapsule`s named as the DLPack Python spec says; imports
//! take a capsule's managed tensor and rename it so its producer's
//! destructor leaves it alone.

use std::ffi::{c_void, CStr};

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use tft::dlpack::ManagedTensorVersioned;
use tft::dlpack::{self, DLManagedTensor, DLManagedTensorVersioned, ManagedTensor};
use tft::Tensor;

// Capsules keep the name pointer, so the names are statics.
const VERSIONED: &CStr = c"dltensor_versioned";
const USED_VERSIONED: &CStr = c"used_dltensor_versioned";
const LEGACY: &CStr = c"dltensor";
const USED_LEGACY: &CStr = c"used_dltensor";

/// Runs when a capsule we made is collected: frees the export unless a
/// consumer renamed the capsule (took ownership, and calls the deleter).
unsafe extern "C" fn destroy_versioned(capsule: *mut ffi::PyObject) {
    // SAFETY: called by Python with a live capsule and the GIL held;
    // `PyCapsule_IsValid` sets no exception on a name mismatch.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, VERSIONED.as_ptr()) != 1 {
            return;
        }
        let managed = ffi::PyCapsule_GetPointer(capsule, VERSIONED.as_ptr())
            .cast::<DLManagedTensorVersioned>();
        if let Some(deleter) = managed.as_ref().and_then(|m| m.deleter) {
            deleter(managed);
        }
    }
}

unsafe extern "C" fn destroy_legacy(capsule: *mut ffi::PyObject) {
    // SAFETY: as in `destroy_versioned`.
    unsafe {
        if ffi::PyCapsule_IsValid(capsule, LEGACY.as_ptr()) != 1 {
            return;
        }
        let managed = ffi::PyCapsule_GetPointer(capsule, LEGACY.as_ptr()).cast::<DLManagedTensor>();
        if let Some(deleter) = managed.as_ref().and_then(|m| m.deleter) {
            deleter(managed);
        }
    }
}

fn new_capsule<'py>(
    py: Python<'py>,
    pointer: *mut c_void,
    name: &'static CStr,
    destructor: unsafe extern "C" fn(*mut ffi::PyObject),
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `pointer` is a live export and `name` a static C string; the
    // capsule owns the export from here on (its destructor frees it).
    let capsule = unsafe { ffi::PyCapsule_New(pointer, name.as_ptr(), Some(destructor)) };
    if capsule.is_null() {
        return Err(PyErr::fetch(py));
    }
    // SAFETY: `PyCapsule_New` returned a new, non-NULL reference.
    Ok(unsafe { Bound::from_owned_ptr(py, capsule) })
}

/// A `"dltensor_versioned"` capsule owning `managed`.
pub(crate) fn versioned_capsule(
    py: Python<'_>,
    managed: ManagedTensorVersioned,
) -> PyResult<Bound<'_, PyAny>> {
    let raw = managed.into_raw();
    new_capsule(py, raw.cast(), VERSIONED, destroy_versioned).inspect_err(|_| {
        // SAFETY: the capsule was not made, so we still own `raw`; import
        // takes it back and drops it, which runs the deleter once.
        drop(unsafe { dlpack::import(raw) });
    })
}

/// A `"dltensor"` (legacy) capsule owning `managed`.
pub(crate) fn legacy_capsule(py: Python<'_>, managed: ManagedTensor) -> PyResult<Bound<'_, PyAny>> {
    let raw = managed.into_raw();
    new_capsule(py, raw.cast(), LEGACY, destroy_legacy).inspect_err(|_| {
        // SAFETY: as in `versioned_capsule`.
        drop(unsafe { dlpack::import_legacy(raw) });
    })
}

/// Takes the managed tensor out of a DLPack capsule (versioned or legacy)
/// and adopts it: the capsule is renamed `used_...`, and the tensor calls
/// the producer's deleter when its buffer is dropped.
pub(crate) fn consume(py: Python<'_>, capsule: &Bound<'_, PyAny>) -> PyResult<tft::Result<Tensor>> {
    let cap = capsule.as_ptr();
    // SAFETY: `cap` is a live object (borrowed from `capsule`) and the GIL
    // is held; `PyCapsule_IsValid` is false for non-capsules and wrong
    // names, without raising.
    let (versioned, legacy) = unsafe {
        (
            ffi::PyCapsule_IsValid(cap, VERSIONED.as_ptr()) == 1,
            ffi::PyCapsule_IsValid(cap, LEGACY.as_ptr()) == 1,
        )
    };
    let (name, used) = match (versioned, legacy) {
        (true, _) => (VERSIONED, USED_VERSIONED),
        (_, true) => (LEGACY, USED_LEGACY),
        _ => {
            // SAFETY: as above.
            let is_capsule = unsafe { ffi::PyCapsule_CheckExact(cap) } == 1;
            return Err(if is_capsule {
                PyValueError::new_err(
                    "DLPack capsule is already consumed or not named 'dltensor_versioned' \
                     or 'dltensor'",
                )
            } else {
                PyTypeError::new_err("expected a DLPack capsule or an object with __dlpack__")
            });
        }
    };
    // SAFETY: the capsule is valid with this name (checked above).
    let pointer = unsafe { ffi::PyCapsule_GetPointer(cap, name.as_ptr()) };
    if pointer.is_null() {
        return Err(PyErr::fetch(py));
    }
    // Take ownership: from now on the producer's destructor does nothing.
    // SAFETY: `used` is a static C string.
    if unsafe { ffi::PyCapsule_SetName(cap, used.as_ptr()) } != 0 {
        return Err(PyErr::fetch(py));
    }
    // SAFETY: a valid capsule of this name holds an unconsumed managed
    // tensor of the matching kind, whose ownership we took by renaming. The
    // producers this module meets (NumPy, PyTorch, this crate) keep the
    // memory alive until the deleter and their deleters may run on any
    // thread (NumPy's and PyTorch's take the GIL themselves).
    Ok(unsafe {
        if versioned {
            dlpack::import(pointer.cast())
        } else {
            dlpack::import_legacy(pointer.cast())
        }
    })
}
