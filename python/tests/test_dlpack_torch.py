"""DLPack exchange with PyTorch, when it is installed (CI does not install it)."""

import gc
from typing import Any

import numpy as np
import pytest

import tftensor
from conftest import tensor_proto

torch = pytest.importorskip("torch", reason="PyTorch is not installed; its DLPack tests are skipped")
from torch.utils import dlpack as torch_dlpack  # noqa: E402

TORCH_DTYPES = [
    (torch.bool, "bool"),
    (torch.int8, "int8"),
    (torch.int16, "int16"),
    (torch.int32, "int32"),
    (torch.int64, "int64"),
    (torch.uint8, "uint8"),
    (torch.float16, "half"),
    (torch.float32, "float"),
    (torch.float64, "double"),
    (torch.bfloat16, "bfloat16"),
    (torch.complex64, "complex64"),
    (torch.complex128, "complex128"),
]
for name, tf_name in [
    ("uint16", "uint16"),
    ("uint32", "uint32"),
    ("uint64", "uint64"),
    ("float8_e5m2", "float8_e5m2"),
    ("float8_e4m3fn", "float8_e4m3fn"),
    ("float8_e4m3fnuz", "float8_e4m3fnuz"),
    ("float8_e5m2fnuz", "float8_e5m2fnuz"),
]:
    if hasattr(torch, name):
        TORCH_DTYPES.append((getattr(torch, name), tf_name))


def torch_sample(dtype: Any) -> Any:
    x = torch.arange(24, dtype=torch.float32).reshape(2, 3, 4)
    if dtype == torch.bool:
        return x.remainder(3) == 0
    if dtype.is_complex:
        return (x - 5).to(dtype)
    return x.remainder(100).to(dtype)


@pytest.mark.parametrize("dtype,tf_name", TORCH_DTYPES, ids=[n for _, n in TORCH_DTYPES])
def test_torch_round_trip_shares_memory(dtype: Any, tf_name: str) -> None:
    x = torch_sample(dtype)
    t = tftensor.from_dlpack(x)
    assert t.dtype == tf_name
    assert t.shape == tuple(x.shape)
    assert t.data_ptr == x.data_ptr()
    y = torch.from_dlpack(t)
    assert y.dtype == dtype
    assert y.data_ptr() == x.data_ptr()
    assert torch.equal(y.view(torch.uint8), x.view(torch.uint8)) if dtype.itemsize == 1 else torch.equal(y, x)


def test_torch_utils_legacy_capsules() -> None:
    x = torch.arange(6, dtype=torch.float32)
    cap = torch_dlpack.to_dlpack(x)
    t = tftensor.from_dlpack(cap)
    assert t.data_ptr == x.data_ptr()
    t = tftensor.from_dlpack(np.arange(3, dtype=np.int32))
    y = torch_dlpack.from_dlpack(t.__dlpack__(copy=True))
    assert y.tolist() == [0, 1, 2]


def test_torch_non_contiguous_and_lifetimes() -> None:
    x = torch.arange(12, dtype=torch.float64).reshape(3, 4)
    t = tftensor.from_dlpack(x.t())
    np.testing.assert_array_equal(np.from_dlpack(t), x.t().numpy())
    live = tftensor.live_exports()
    t = tftensor.from_proto(tensor_proto(14, [4], bytes(range(8))))  # bfloat16
    y = torch.from_dlpack(t)
    assert y.dtype == torch.bfloat16
    del t
    gc.collect()
    assert y.view(torch.int16).tolist() == [0x0100, 0x0302, 0x0504, 0x0706]
    del y
    gc.collect()
    assert tftensor.live_exports() == live
