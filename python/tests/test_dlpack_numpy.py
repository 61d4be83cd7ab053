"""DLPack exchange with NumPy: values, shared memory, read-only flags,
layouts, and lifetimes in both directions."""

import gc
import sys
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import tftensor
from conftest import NUMPY_DTYPES, capsule_name, sample, tensor_proto


def data_ptr(a: npt.NDArray[Any]) -> int:
    ptr: int = a.__array_interface__["data"][0]
    return ptr


@pytest.mark.parametrize("dtype,tf_name", NUMPY_DTYPES, ids=[n for _, n in NUMPY_DTYPES])
def test_round_trip_every_numpy_dtype_shares_memory(dtype: type[np.generic], tf_name: str) -> None:
    a = sample(dtype)
    t = tftensor.from_dlpack(a)
    assert t.dtype == tf_name
    assert t.shape == a.shape
    assert t.data_ptr == data_ptr(a)  # zero-copy import

    b = np.from_dlpack(t)
    assert b.dtype == a.dtype
    assert b.shape == a.shape
    np.testing.assert_array_equal(b, a)
    assert data_ptr(b) == data_ptr(a)  # zero-copy export
    assert not b.flags.writeable  # t shares the buffer

    # And back again: still the same memory.
    t2 = tftensor.from_dlpack(b)
    assert t2.data_ptr == data_ptr(a)
    assert t2 == t


def test_export_is_read_only_exactly_when_shared() -> None:
    # A strided import is a fresh copy that this tensor alone owns.
    t = tftensor.from_dlpack(np.arange(8, dtype=np.float32)[::2])
    assert not t.is_shared
    a = np.from_dlpack(t)
    # The Python tensor keeps its handle, so the export shares the buffer.
    assert t.is_shared
    assert not a.flags.writeable
    with pytest.raises(ValueError):
        a[0] = 1
    del a
    gc.collect()
    assert not t.is_shared

    # copy=True hands over a private, writable copy.
    c = np.from_dlpack(t, copy=True)
    assert c.flags.writeable
    assert data_ptr(c) != t.data_ptr
    c[0] = 42
    np.testing.assert_array_equal(np.from_dlpack(t), [0, 2, 4, 6])
    assert not t.is_shared


def test_dlpack_protocol_arguments() -> None:
    t = tftensor.from_dlpack(np.arange(3, dtype=np.int32))
    assert t.__dlpack_device__() == (1, 0)
    cap = t.__dlpack__(max_version=(1, 0))
    assert capsule_name(cap) == "dltensor_versioned"
    del cap
    # Legacy capsules cannot say read-only: only a copy goes that way.
    with pytest.raises(BufferError, match="read-only"):
        t.__dlpack__(copy=False)
    legacy = t.__dlpack__(copy=True)
    assert capsule_name(legacy) == "dltensor"
    back = tftensor.from_dlpack(legacy)
    assert capsule_name(legacy) == "used_dltensor"
    assert back == t and back.data_ptr != t.data_ptr
    with pytest.raises(ValueError, match="consumed"):
        tftensor.from_dlpack(legacy)
    with pytest.raises(BufferError, match="CUDA"):
        t.__dlpack__(max_version=(1, 0), dl_device=(2, 0))
    assert np.from_dlpack(t, device="cpu").shape == (3,)
    with pytest.raises(ValueError, match="stream"):
        t.__dlpack__(stream=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        tftensor.from_dlpack([1, 2, 3])  # type: ignore[call-overload]


@pytest.mark.parametrize(
    "name,make",
    [
        ("transposed", lambda: sample(np.float32, (3, 4)).T),
        ("reversed", lambda: sample(np.int16, (5, 3))[::-1]),
        ("reversed_1d", lambda: sample(np.float64, (7,))[::-1]),
        ("strided", lambda: sample(np.int32, (4, 6))[:, ::2]),
        ("column", lambda: sample(np.complex64, (4, 3))[:, 1]),
        ("broadcast", lambda: np.broadcast_to(sample(np.uint8, (3,)), (2, 3))),
        ("bool_strided", lambda: sample(np.bool_, (6,))[::2]),
    ],
)
def test_non_compact_arrays_are_copied_correctly(name: str, make: Callable[[], npt.NDArray[Any]]) -> None:
    a = make()
    assert not a.flags.c_contiguous
    before = sys.getrefcount(a)
    t = tftensor.from_dlpack(a)
    # Copied: NumPy's reference is released at once.
    assert sys.getrefcount(a) == before
    assert t.shape == a.shape
    np.testing.assert_array_equal(np.from_dlpack(t), a)


def test_sliced_rows_are_zero_copy() -> None:
    base = sample(np.float32, (6, 4))
    a = base[2:5]
    assert a.flags.c_contiguous
    t = tftensor.from_dlpack(a)
    assert t.data_ptr == data_ptr(a) == data_ptr(base) + 2 * 4 * 4
    np.testing.assert_array_equal(np.from_dlpack(t), a)


def test_zero_size_and_0d() -> None:
    empty: list[npt.NDArray[Any]] = [np.zeros((0, 3), np.float32), np.zeros((2, 0), np.int64), np.zeros(0, np.bool_)]
    for a in empty:
        t = tftensor.from_dlpack(a)
        assert t.shape == a.shape
        b = np.from_dlpack(t)
        assert b.shape == a.shape and b.dtype == a.dtype
    s = np.array(3.5)
    t = tftensor.from_dlpack(s)
    assert t.shape == ()
    assert t.dtype == "double"
    assert t.data_ptr == data_ptr(s)
    b = np.from_dlpack(t)
    assert b.shape == () and b[()] == 3.5


def test_misaligned_data_is_copied_aligned() -> None:
    raw = np.zeros(4 * 10 + 1, np.uint8)
    a = raw[1:].view(np.float32)
    a[:] = np.arange(10)
    assert not a.flags.aligned
    before = sys.getrefcount(raw)
    t = tftensor.from_dlpack(a)
    # Copied, and NumPy's export released at once.
    assert sys.getrefcount(raw) == before
    assert t.data_ptr != data_ptr(a)
    assert t.data_ptr % 4 == 0
    np.testing.assert_array_equal(np.from_dlpack(t), np.arange(10, dtype=np.float32))


def test_numpy_refcount_returns_after_import() -> None:
    a = sample(np.float32, (100,))
    before = sys.getrefcount(a)
    t = tftensor.from_dlpack(a)
    assert sys.getrefcount(a) > before  # NumPy's export holds the array
    u = tftensor.from_dlpack(np.from_dlpack(t))
    del t
    gc.collect()
    assert sys.getrefcount(a) > before  # still held, through u
    del u
    gc.collect()
    assert sys.getrefcount(a) == before


def test_numpy_producer_dropped_first() -> None:
    a = sample(np.int64, (50,))
    expected = a.copy()
    ref = weakref.ref(a)
    t = tftensor.from_dlpack(a)
    del a
    gc.collect()
    assert ref() is not None  # kept alive by the tensor
    np.testing.assert_array_equal(np.from_dlpack(t), expected)
    del t
    gc.collect()
    assert ref() is None


def test_tftensor_producer_dropped_first_and_last() -> None:
    live = tftensor.live_exports()
    t = tftensor.from_dlpack(sample(np.float64, (20,)))
    expected = np.from_dlpack(t).copy()
    gc.collect()
    assert tftensor.live_exports() == live

    a = np.from_dlpack(t)
    assert tftensor.live_exports() == live + 1
    del t  # producer first
    gc.collect()
    np.testing.assert_array_equal(a, expected)
    del a
    gc.collect()
    assert tftensor.live_exports() == live

    t = tftensor.from_dlpack(expected)
    a = np.from_dlpack(t)
    del a  # consumer first
    gc.collect()
    assert tftensor.live_exports() == live
    np.testing.assert_array_equal(np.from_dlpack(t), expected)

    # An unconsumed capsule frees its export when collected.
    cap = t.__dlpack__(max_version=(1, 0))
    assert tftensor.live_exports() == live + 1
    del cap
    gc.collect()
    assert tftensor.live_exports() == live


def test_dtypes_numpy_lacks_stay_in_dlpack() -> None:
    # bfloat16 (14) and the float8 types (24-28): NumPy < 2.5 refuses them,
    # tftensor exchanges them with itself without a copy.
    for enum, name, size in [
        (14, "bfloat16", 2),
        (24, "float8_e5m2", 1),
        (25, "float8_e4m3fn", 1),
        (26, "float8_e4m3fnuz", 1),
        (27, "float8_e4m3b11fnuz", 1),
        (28, "float8_e5m2fnuz", 1),
    ]:
        content = bytes(range(7, 7 + 6 * size))
        t = tftensor.from_proto(tensor_proto(enum, [2, 3], content))
        assert t.dtype == name
        u = tftensor.from_dlpack(t)
        assert u.data_ptr == t.data_ptr
        assert u.to_proto() == t.to_proto()
        try:
            a = np.from_dlpack(t)
        except (BufferError, RuntimeError) as e:  # NumPy 2.4 raises RuntimeError
            assert "Unsupported dtype" in str(e)
        else:  # NumPy >= 2.5 with ml_dtypes registered
            assert a.tobytes() == content
    with pytest.raises(BufferError, match="string"):
        np.from_dlpack(tftensor.from_proto(b"\x08\x07\x12\x00B\x01x"))
