//! DLPack capsules: the only `unsafe` of the Python module. Exports are
//! wrapped in `PyCapsule`s named as the DLPack Python spec says; imports
//! take a capsule's managed tensor and rename it so its producer's
//! destructor leaves it alone.

use std::ffi::{CStr, c_void};

use pyo3::exceptions::{PyBufferError, PyTypeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use tft::Tensor;
use tft::dlpack::DLDeviceType;
use tft::dlpack::ManagedTensorVersioned;
use tft::dlpack::{self, DLManagedTensor, DLManagedTensorVersioned, ManagedTensor};

use crate::errors::{buffer_error, to_py};

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

/// What [`consume`] learnt about the producer's memory.
pub(crate) struct Origin {
    /// The tensor shares the producer's memory (no copy was made here).
    pub zero_copy: bool,
    /// The producer says it made the memory as a private copy
    /// (`FLAG_IS_COPIED`, versioned capsules only).
    pub producer_copied: bool,
}

/// The first element's address (`data + byte_offset`) and the flags of an
/// unconsumed managed tensor, read before it is adopted; `None` for a
/// versioned struct of another major version (DLPack: read nothing else).
///
/// # Safety
/// `pointer` is a live managed tensor of the kind `versioned` names.
unsafe fn peek(pointer: *mut c_void, versioned: bool) -> Option<(usize, u64)> {
    // SAFETY: per the contract, `pointer` is a live struct of this kind.
    let (t, flags) = unsafe {
        if versioned {
            let m = &*pointer.cast::<DLManagedTensorVersioned>();
            if m.version.major != dlpack::DLPACK_MAJOR_VERSION {
                return None;
            }
            (&m.dl_tensor, m.flags)
        } else {
            (&(*pointer.cast::<DLManagedTensor>()).dl_tensor, 0)
        }
    };
    let offset = usize::try_from(t.byte_offset).ok()?;
    Some(((t.data as usize).wrapping_add(offset), flags))
}

/// A managed tensor taken out of a capsule (renamed `used_...`): its owner
/// must adopt it (which calls the deleter once).
pub(crate) struct Taken {
    pub pointer: *mut c_void,
    pub versioned: bool,
}

/// Takes the managed tensor out of a DLPack capsule (versioned or legacy):
/// the capsule is renamed `used_...`, so its producer's destructor leaves
/// it alone, and the caller owns the managed tensor.
pub(crate) fn take(py: Python<'_>, capsule: &Bound<'_, PyAny>) -> PyResult<Taken> {
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
    Ok(Taken { pointer, versioned })
}

/// The device of an unconsumed DLPack capsule's tensor, without taking it;
/// `None` for anything else (not a capsule, consumed, another major
/// version).
pub(crate) fn capsule_device(capsule: &Bound<'_, PyAny>) -> Option<dlpack::DLDevice> {
    let cap = capsule.as_ptr();
    for (name, versioned) in [(VERSIONED, true), (LEGACY, false)] {
        // SAFETY: `cap` is a live object and the GIL is held;
        // `PyCapsule_IsValid` is false, without raising, for anything but
        // a capsule of this name with a non-NULL pointer.
        if unsafe { ffi::PyCapsule_IsValid(cap, name.as_ptr()) } != 1 {
            continue;
        }
        // SAFETY: valid with this name (checked above): a live, unconsumed
        // managed tensor of the matching kind, which stays the capsule's.
        return unsafe {
            let pointer = ffi::PyCapsule_GetPointer(cap, name.as_ptr());
            if versioned {
                let m = &*pointer.cast::<DLManagedTensorVersioned>();
                (m.version.major == dlpack::DLPACK_MAJOR_VERSION).then_some(m.dl_tensor.device)
            } else {
                Some((*pointer.cast::<DLManagedTensor>()).dl_tensor.device)
            }
        };
    }
    None
}

/// Takes the managed tensor out of a DLPack capsule (versioned or legacy)
/// and adopts it: the tensor calls the producer's deleter when its buffer
/// is dropped.
pub(crate) fn consume(
    py: Python<'_>,
    capsule: &Bound<'_, PyAny>,
) -> PyResult<tft::Result<(Tensor, Origin)>> {
    let Taken { pointer, versioned } = take(py, capsule)?;
    // SAFETY: `take` hands over a live managed tensor of this kind, which
    // we own and have not handed on yet.
    let peeked = unsafe { peek(pointer, versioned) };
    // SAFETY: `take` hands over an unconsumed managed tensor of the
    // matching kind, whose ownership it took by renaming. The producers
    // this module meets (NumPy, PyTorch, JAX, TF, this crate) keep the
    // memory alive until the deleter and their deleters may run on any
    // thread (NumPy's and PyTorch's take the GIL themselves).
    let tensor = unsafe {
        if versioned {
            dlpack::import(pointer.cast())
        } else {
            dlpack::import_legacy(pointer.cast())
        }
    };
    Ok(tensor.map(|tensor| {
        // `peek` fails only where the import failed too (another major
        // version, an offset past the address space).
        let (address, flags) = peeked.unwrap_or((0, 0));
        let origin = Origin {
            // An empty tensor has no memory to share or copy.
            zero_copy: tensor.num_elements() == 0
                || tensor.data_ptr().map(|p| p as usize) == Some(address),
            producer_copied: flags & dlpack::FLAG_IS_COPIED != 0,
        };
        (tensor, origin)
    }))
}

/// Whether the array API `device` argument of `from_dlpack` asks for the
/// CPU (`"cpu"` or `(1, 0)`); `None` means "where the data is".
pub(crate) fn wants_cpu(device: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let Some(device) = device else {
        return Ok(false);
    };
    if let Ok(name) = device.cast::<PyString>() {
        if name.to_str()? == "cpu" {
            return Ok(true);
        }
    } else if let Ok(pair) = device.extract::<(i32, i32)>() {
        if pair == (DLDeviceType::CPU.0, 0) {
            return Ok(true);
        }
    }
    Err(PyValueError::new_err(format!(
        "unsupported device {}: tftensor.from_dlpack makes CPU tensors; pass device=\"cpu\", \
         (1, 0) or None",
        device.repr()?
    )))
}

/// The capsule of a DLPack producer, asked as the array API says:
/// `max_version`, plus `dl_device=(1, 0)` when `to_cpu` and `copy` when
/// given. A producer that takes no such keywords (a `TypeError`) is asked
/// again the old way, `__dlpack__()`, as NumPy does, when its data is
/// already CPU-readable (the copy request is then honoured on import).
fn ask_producer<'py>(
    py: Python<'py>,
    x: &Bound<'py, PyAny>,
    to_cpu: bool,
    copy: Option<bool>,
) -> PyResult<Bound<'py, PyAny>> {
    let host = match x.getattr("__dlpack_device__") {
        Ok(device) => {
            let (device_type, device_id): (i32, i32) = device.call0()?.extract()?;
            let device_type = DLDeviceType(device_type);
            if !device_type.is_host_readable() && !to_cpu {
                return Err(PyBufferError::new_err(format!(
                    "cannot import a tensor on device {device_type} (id {device_id}): only \
                     CPU-readable memory is supported; pass device=\"cpu\" to have the \
                     producer copy it to the host"
                )));
            }
            device_type.is_host_readable()
        }
        Err(_) => true,
    };
    let kwargs = PyDict::new(py);
    kwargs.set_item(
        "max_version",
        (dlpack::DLPACK_MAJOR_VERSION, dlpack::DLPACK_MINOR_VERSION),
    )?;
    if to_cpu {
        kwargs.set_item("dl_device", (DLDeviceType::CPU.0, 0))?;
    }
    if let Some(copy) = copy {
        kwargs.set_item("copy", copy)?;
    }
    match x.call_method("__dlpack__", (), Some(&kwargs)) {
        // Producers older than the 2023 array API take no keywords.
        Err(e) if host && e.is_instance_of::<PyTypeError>(py) => x.call_method0("__dlpack__"),
        other => other,
    }
}

/// `tftensor.from_dlpack(x, *, device, copy)`: the tensor behind a DLPack
/// producer or capsule, with the array API's `device` and `copy` rules
/// (`copy=True` always copies, `copy=False` never does and refuses data
/// that must be copied, `None` copies only if needed).
pub(crate) fn from_dlpack(
    py: Python<'_>,
    x: &Bound<'_, PyAny>,
    device: Option<&Bound<'_, PyAny>>,
    copy: Option<bool>,
) -> PyResult<Tensor> {
    let to_cpu = wants_cpu(device)?;
    let capsule = if x.hasattr("__dlpack__")? {
        ask_producer(py, x, to_cpu, copy)?
    } else if is_tensorflow(x)? {
        return Err(PyTypeError::new_err(format!(
            "a TensorFlow {} has no __dlpack__ in this TensorFlow version: pass \
             tf.experimental.dlpack.to_dlpack(t) instead",
            x.get_type().name()?
        )));
    } else {
        x.clone()
    };
    let (tensor, origin) = consume(py, &capsule)?.map_err(buffer_error)?;
    match copy {
        Some(true) if origin.zero_copy && !origin.producer_copied => {
            tensor.deep_copy().map_err(to_py)
        }
        Some(false) if !origin.zero_copy => Err(PyBufferError::new_err(
            "copy=False, but the data had to be copied (it is not compact row-major, or it is \
             misaligned for its dtype)",
        )),
        _ => Ok(tensor),
    }
}

/// Whether `x` is a TensorFlow object (its type comes from `tensorflow.`).
fn is_tensorflow(x: &Bound<'_, PyAny>) -> PyResult<bool> {
    let module = x.get_type().module()?;
    Ok(module.to_str()?.starts_with("tensorflow"))
}
