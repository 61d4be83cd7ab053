"""tftensor.DeviceTensor without a GPU: a fake CUDA DLPack producer (built
with ctypes) is held zero-copy, printed, exported and released exactly
once; everything that needs the CUDA driver raises a clear RuntimeError.
The real GPU checks are scripts/check_cuda.sh."""

import ctypes
import gc
from typing import Any

import numpy as np
import pytest

import tftensor
from conftest import capsule_name


def has_driver() -> bool:
    try:
        return tftensor.cuda_device_count() > 0
    except RuntimeError:
        return False


GPU = has_driver()
no_gpu = pytest.mark.skipif(GPU, reason="a CUDA driver is present: the no-driver errors cannot be seen")
asks_producer = pytest.mark.skipif(
    GPU,
    reason='a CUDA driver is present: device="cpu" reads back through it, which a made-up device '
    "address cannot take (scripts/check_cuda.py checks that path)",
)


class DLDevice(ctypes.Structure):
    _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]


class DLDataType(ctypes.Structure):
    _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8), ("lanes", ctypes.c_uint16)]


class DLTensor(ctypes.Structure):
    _fields_ = [
        ("data", ctypes.c_void_p),
        ("device", DLDevice),
        ("ndim", ctypes.c_int32),
        ("dtype", DLDataType),
        ("shape", ctypes.POINTER(ctypes.c_int64)),
        ("strides", ctypes.POINTER(ctypes.c_int64)),
        ("byte_offset", ctypes.c_uint64),
    ]


DELETER = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


class DLManagedTensorVersioned(ctypes.Structure):
    _fields_ = [
        ("major", ctypes.c_uint32),
        ("minor", ctypes.c_uint32),
        ("manager_ctx", ctypes.c_void_p),
        ("deleter", DELETER),
        ("flags", ctypes.c_uint64),
        ("dl_tensor", DLTensor),
    ]


assert ctypes.sizeof(DLManagedTensorVersioned) == 80

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
NAME = b"dltensor_versioned"  # capsules keep the pointer: module lifetime


class FakeCuda:
    """A CUDA producer of float32 [2, 3] at a made-up device address. It
    counts deleter calls and records how it was asked; with dl_device=(1, 0)
    it hands a host copy (from NumPy) as GPU libraries do."""

    def __init__(self, device: tuple[int, int] = (2, 0)) -> None:
        self.device = device
        self.calls: list[dict[str, Any]] = []
        self.deleted = 0
        self.keep: list[Any] = []

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device

    def __dlpack__(
        self,
        *,
        stream: int | None = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        self.calls.append(dict(stream=stream, max_version=max_version, dl_device=dl_device, copy=copy))
        if dl_device == (1, 0):
            return np.arange(6, dtype=np.float32).reshape(2, 3).__dlpack__(max_version=(1, 0))
        shape = (ctypes.c_int64 * 2)(2, 3)
        strides = (ctypes.c_int64 * 2)(3, 1)

        def delete(_: object) -> None:
            self.deleted += 1

        deleter = DELETER(delete)
        m = DLManagedTensorVersioned(1, 3, None, deleter, 0)
        m.dl_tensor = DLTensor(0x7F0000000000, DLDevice(*self.device), 2, DLDataType(2, 32, 1), shape, strides, 0)
        self.keep += [shape, strides, deleter, m]
        return _capsule_new(ctypes.addressof(m), NAME, None)


def test_cuda_producer_becomes_a_device_tensor_held_once() -> None:
    fake = FakeCuda()
    d = tftensor.from_dlpack(fake)
    assert isinstance(d, tftensor.DeviceTensor)
    assert fake.calls == [dict(stream=1, max_version=(1, 3), dl_device=None, copy=None)]
    assert d.shape == (2, 3) and d.dtype == "float" and d.device == (2, 0)
    assert d.data_ptr == 0x7F0000000000
    assert repr(d) == "Tensor<type: float shape: [2,3]>"
    assert d.__dlpack_device__() == (2, 0)
    # Re-export: same stream as the data is ready on, so no driver needed.
    cap = d.__dlpack__(max_version=(1, 0))
    assert fake.deleted == 0
    del d
    gc.collect()
    assert fake.deleted == 0  # the capsule still holds it
    if not GPU:  # with a driver, device="cpu" reads the (made-up) address back
        with pytest.raises(BufferError, match="CUDA"):
            tftensor.from_dlpack(cap, device="cpu")  # a host import refuses it, and releases it
    del cap
    gc.collect()
    assert fake.deleted == 1
    assert tftensor.live_exports() == 0


def test_managed_memory_is_a_device_tensor_too() -> None:
    fake = FakeCuda(device=(13, 1))
    d = tftensor.from_dlpack(fake)
    assert isinstance(d, tftensor.DeviceTensor)
    assert d.device == (13, 1)
    del d
    gc.collect()
    assert fake.deleted == 1


@asks_producer
def test_device_cpu_asks_for_a_host_copy() -> None:
    fake = FakeCuda()
    t = tftensor.from_dlpack(fake, device="cpu")
    assert isinstance(t, tftensor.Tensor)
    assert fake.calls[-1]["dl_device"] == (1, 0)
    assert t.tensor_data() == np.arange(6, dtype=np.float32).tobytes()
    with pytest.raises(BufferError, match='device="cpu"'):
        tftensor.from_dlpack(FakeCuda(), copy=True)


def test_device_cpu_without_a_copy_is_refused_before_asking() -> None:
    fake = FakeCuda()
    with pytest.raises(BufferError, match="copy=False"):
        tftensor.from_dlpack(fake, device="cpu", copy=False)
    assert fake.calls == [] and fake.deleted == 0


def test_device_export_arguments() -> None:
    fake = FakeCuda()
    d = tftensor.from_dlpack(fake)
    assert isinstance(d, tftensor.DeviceTensor)
    with pytest.raises(ValueError, match="ambiguous"):
        d.__dlpack__(stream=0)
    with pytest.raises(BufferError, match="copy=True"):
        d.__dlpack__(copy=True)
    with pytest.raises(BufferError, match="copy=False"):
        d.__dlpack__(dl_device=(1, 0), copy=False)
    with pytest.raises(BufferError, match="cannot export"):
        d.__dlpack__(dl_device=(2, 1))
    legacy = d.__dlpack__()
    del d, legacy
    gc.collect()
    assert fake.deleted == 1


@no_gpu
def test_no_driver_errors() -> None:
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        tftensor.cuda_device_count()
    t = tftensor.from_dlpack(np.arange(3, dtype=np.int32))
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        tftensor.upload(t, "cuda:0")
    fake = FakeCuda()
    d = tftensor.from_dlpack(fake)
    assert isinstance(d, tftensor.DeviceTensor)
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        d.readback()
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        d.readback_async()
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        d.__dlpack__(stream=5)  # another stream needs an event
    with pytest.raises(RuntimeError, match="no CUDA driver"):
        d.__dlpack__(dl_device=(1, 0))  # a host copy needs a readback
    del d
    gc.collect()
    assert fake.deleted == 1


def test_upload_device_argument() -> None:
    t = tftensor.from_dlpack(np.arange(3, dtype=np.int32))
    for bad in ["gpu", "cuda:", "cuda:x", "cpu"]:
        with pytest.raises(ValueError):
            tftensor.upload(t, bad)


def test_a_raw_cuda_capsule_becomes_a_device_tensor() -> None:
    fake = FakeCuda()
    cap = fake.__dlpack__(max_version=(1, 0))
    d = tftensor.from_dlpack(cap)
    assert isinstance(d, tftensor.DeviceTensor) and d.shape == (2, 3)
    with pytest.raises(ValueError, match="consumed"):
        tftensor.from_dlpack(cap)
    del d
    gc.collect()
    assert fake.deleted == 1
    cap = fake.__dlpack__()
    with pytest.raises(BufferError, match='device="cpu"'):
        tftensor.from_dlpack(cap, copy=True)
    assert capsule_name(cap) == "dltensor_versioned"  # refused before taking it
    assert tftensor.from_dlpack(cap).shape == (2, 3)
    gc.collect()
    assert fake.deleted == 2
