"""Shared helpers for the tftensor Python tests."""

import struct
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

# Every dtype NumPy exchanges through DLPack, with TensorFlow's name.
NUMPY_DTYPES: list[tuple[type[np.generic], str]] = [
    (np.bool_, "bool"),
    (np.int8, "int8"),
    (np.int16, "int16"),
    (np.int32, "int32"),
    (np.int64, "int64"),
    (np.uint8, "uint8"),
    (np.uint16, "uint16"),
    (np.uint32, "uint32"),
    (np.uint64, "uint64"),
    (np.float16, "half"),
    (np.float32, "float"),
    (np.float64, "double"),
    (np.complex64, "complex64"),
    (np.complex128, "complex128"),
]


def sample(dtype: type[np.generic], shape: tuple[int, ...] = (2, 3, 4)) -> npt.NDArray[Any]:
    """Distinct values of `dtype` (0/1 for bool) in a fresh C-contiguous array."""
    n = int(np.prod(shape))
    i = np.arange(n)
    if dtype is np.bool_:
        values = i % 3 == 0
    elif np.issubdtype(dtype, np.complexfloating):
        values = (i - 5.5) + 1j * (i * 0.25)
    elif np.issubdtype(dtype, np.floating):
        values = (i - 7) * 0.5
    else:
        values = (i * 37 + 11) % 100
    return np.ascontiguousarray(values.astype(dtype).reshape(shape))


def _varint(n: int) -> bytes:
    out = b""
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out += bytes([byte | 0x80])
        else:
            return out + bytes([byte])


def _field(tag: int, payload: bytes) -> bytes:
    return _varint(tag << 3 | 2) + _varint(len(payload)) + payload


def tensor_proto(dtype_enum: int, shape: Sequence[int], content: bytes) -> bytes:
    """A serialized TensorProto with `tensor_content` (for dtypes NumPy lacks)."""
    dims = b"".join(_field(2, b"\x08" + _varint(d)) for d in shape)
    return b"\x08" + _varint(dtype_enum) + _field(2, dims) + _field(4, content)


def capsule_name(capsule: object) -> str:
    """The name of a PyCapsule (via the C API)."""
    import ctypes

    get_name = ctypes.pythonapi.PyCapsule_GetName
    get_name.restype = ctypes.c_char_p
    get_name.argtypes = [ctypes.py_object]
    name: bytes = get_name(capsule)
    return name.decode()


__all__ = ["NUMPY_DTYPES", "sample", "tensor_proto", "capsule_name", "struct"]
