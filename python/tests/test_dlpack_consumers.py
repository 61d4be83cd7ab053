"""tftensor with other DLPack consumers and producers, per the array API's
`from_dlpack(x, /, *, device=None, copy=None)` and `__dlpack__` rules.

NumPy tests always run; JAX (CPU), PyTorch and TensorFlow tests run when
those are importable and are skipped with a reason otherwise
(scripts/check_dlpack_consumers.sh runs them all)."""

import gc
import importlib
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
import pytest

import tftensor
from conftest import capsule_name, sample, tensor_proto


def data_ptr(a: npt.NDArray[Any]) -> int:
    ptr: int = a.__array_interface__["data"][0]
    return ptr


def optional(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except Exception as e:  # an installed but broken package is skipped too
        pytest.skip(f"{name} is not importable ({type(e).__name__}: {e})")


class Recorder:
    """A producer that records how it is asked, and hands over `inner`'s
    capsule (as a GPU producer would hand a host copy when dl_device is the
    CPU)."""

    def __init__(self, inner: Any, device: tuple[int, int] = (1, 0)) -> None:
        self.inner, self.device = inner, device
        self.calls: list[dict[str, Any]] = []

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
        if self.device[0] != 1 and dl_device != (1, 0):
            raise BufferError("this fake GPU producer only hands host copies")
        return self.inner.__dlpack__(max_version=max_version, copy=copy)


class OldProducer:
    """A producer from before the 2023 array API: `__dlpack__(stream=None)`."""

    def __init__(self, inner: tftensor.Tensor, device: tuple[int, int] = (1, 0)) -> None:
        self.inner, self.device, self.calls = inner, device, 0

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.device

    def __dlpack__(self, stream: int | None = None) -> Any:
        self.calls += 1
        return self.inner.__dlpack__(max_version=(1, 0))


# ---- the legacy export with copy=None ---------------------------------------


def test_legacy_export_copies_when_copy_is_none() -> None:
    t = tftensor.from_proto(tensor_proto(1, [2, 3], np.arange(6, dtype=np.float32).tobytes()))
    assert not t.is_shared  # a fresh tensor: only the Python object holds it
    cap = t.__dlpack__()
    assert capsule_name(cap) == "dltensor"
    back = tftensor.from_dlpack(cap)
    assert back == t and back.data_ptr != t.data_ptr
    assert not t.is_shared  # the copy did not keep a handle on `t`


def test_legacy_export_copy_false_and_true() -> None:
    t = tftensor.from_dlpack(np.arange(4, dtype=np.int64))
    with pytest.raises(BufferError, match="copy=False"):
        t.__dlpack__(copy=False)
    cap = t.__dlpack__(copy=True)
    assert capsule_name(cap) == "dltensor"
    assert tftensor.from_dlpack(cap) == t


def test_legacy_only_consumer_gets_a_copy() -> None:
    # NumPy 2.4 always asks for max_version; this producer hides that, as a
    # legacy consumer (JAX, TF, NumPy 1.x) would ask.
    t = tftensor.from_dlpack(sample(np.float64, (3, 2)))
    a = np.from_dlpack(OldLegacy(t))
    np.testing.assert_array_equal(a, sample(np.float64, (3, 2)))
    assert data_ptr(a) != t.data_ptr
    assert not a.flags.writeable  # NumPy >= 2.3 imports legacy read-only


class OldLegacy:
    def __init__(self, t: tftensor.Tensor) -> None:
        self.t = t

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.t.__dlpack__()


def test_fresh_tensor_versioned_export_is_zero_copy_and_read_only() -> None:
    t = tftensor.from_proto(tensor_proto(3, [4], np.arange(4, dtype=np.int32).tobytes()))
    a = np.from_dlpack(t)
    assert data_ptr(a) == t.data_ptr
    # `t` keeps reading the buffer and Python cannot write it: read-only.
    assert not a.flags.writeable
    c = np.from_dlpack(t, copy=True)
    assert c.flags.writeable and data_ptr(c) != t.data_ptr


# ---- from_dlpack(x, *, device, copy) ------------------------------------------


def test_from_dlpack_device_argument() -> None:
    a = sample(np.int32, (2, 3))
    devices: list[Literal["cpu"] | tuple[int, int] | None] = ["cpu", (1, 0), None]
    for device in devices:
        t = tftensor.from_dlpack(a, device=device)
        assert t.data_ptr == data_ptr(a)
    for bad in ["cuda", "cuda:0", (2, 0), (1, 1), 0]:
        with pytest.raises(ValueError, match="unsupported device"):
            tftensor.from_dlpack(a, device=bad)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        tftensor.from_dlpack(a, "cpu")  # type: ignore[call-overload]  # keyword-only, as in the array API


def test_from_dlpack_asks_producers_as_the_array_api_says() -> None:
    a = sample(np.float32, (4,))
    r = Recorder(a)
    tftensor.from_dlpack(r)
    assert r.calls[-1] == dict(stream=None, max_version=(1, 3), dl_device=None, copy=None)
    tftensor.from_dlpack(r, device="cpu", copy=False)
    assert r.calls[-1] == dict(stream=None, max_version=(1, 3), dl_device=(1, 0), copy=False)


def test_from_dlpack_copy_argument() -> None:
    a = sample(np.float32, (3, 4))
    t = tftensor.from_dlpack(a, copy=False)
    assert t.data_ptr == data_ptr(a)
    c = tftensor.from_dlpack(a, copy=True)
    assert c == t and c.data_ptr != data_ptr(a)
    # Non-compact data must be copied: refused with copy=False.
    with pytest.raises(BufferError, match="copy=False"):
        tftensor.from_dlpack(a.T, copy=False)
    assert tftensor.from_dlpack(a.T, copy=True).tensor_data() == np.ascontiguousarray(a.T).tobytes()
    # A tftensor producer: copy=True asks it for a copy (IS_COPIED).
    c2 = tftensor.from_dlpack(t, copy=True)
    assert c2 == t and c2.data_ptr != t.data_ptr
    # Zero-size tensors have nothing to copy.
    assert tftensor.from_dlpack(np.zeros((0, 3), np.int8), copy=False).shape == (0, 3)


def test_old_producers_are_asked_without_keywords() -> None:
    a = sample(np.uint16, (5,))
    old = OldProducer(tftensor.from_dlpack(a))
    t = tftensor.from_dlpack(old)
    assert old.calls == 1 and t.data_ptr == data_ptr(a)
    t = tftensor.from_dlpack(old, device="cpu")
    assert old.calls == 2 and t.data_ptr == data_ptr(a)
    # copy=True is then honoured on our side.
    c = tftensor.from_dlpack(old, copy=True)
    assert old.calls == 3 and c == t and c.data_ptr != data_ptr(a)


def test_gpu_producers_need_device_cpu() -> None:
    a = sample(np.float32, (2, 2))
    # ROCm: CUDA producers become tftensor.DeviceTensor (test_device.py).
    gpu = Recorder(tftensor.from_dlpack(a), device=(10, 0))
    with pytest.raises(BufferError, match='device="cpu"'):
        tftensor.from_dlpack(gpu)
    assert gpu.calls == []  # refused before asking
    t = tftensor.from_dlpack(gpu, device="cpu")
    assert gpu.calls[-1]["dl_device"] == (1, 0)
    assert t.tensor_data() == a.tobytes()
    # An old GPU producer cannot be asked for a host copy: its TypeError
    # stands (no retry without keywords). ROCm again: a CUDA one is read
    # back by tftensor itself where a CUDA driver is present.
    with pytest.raises(TypeError):
        tftensor.from_dlpack(OldProducer(tftensor.from_dlpack(a), device=(10, 0)), device="cpu")


def test_tensorflow_tensor_without_dlpack_gets_a_hint() -> None:
    fake = type("EagerTensor", (), {"__module__": "tensorflow.python.framework.ops"})()
    with pytest.raises(TypeError, match=r"tf\.experimental\.dlpack\.to_dlpack\(t\)"):
        tftensor.from_dlpack(fake)
    with pytest.raises(TypeError, match="__dlpack__"):
        tftensor.from_dlpack([1, 2, 3])  # type: ignore[call-overload]


def test_no_export_leaks() -> None:
    gc.collect()
    assert tftensor.live_exports() == 0


# ---- JAX (CPU) ----------------------------------------------------------------

JAX_DTYPES = ["bool", "int8", "int16", "int32", "uint8", "uint32", "float16", "float32", "complex64"]


@pytest.mark.parametrize("dtype", JAX_DTYPES)
def test_jax_from_tftensor(dtype: str) -> None:
    jnp = optional("jax.numpy")
    a = sample(np.dtype(dtype).type, (2, 3))
    t = tftensor.from_dlpack(a)
    j = jnp.from_dlpack(t)  # JAX asks for a legacy capsule: a copy
    assert j.dtype == np.dtype(dtype) and j.shape == (2, 3)
    np.testing.assert_array_equal(np.asarray(j), a)


def test_jax_bfloat16_from_tftensor() -> None:
    jnp = optional("jax.numpy")
    bits = np.array([0x3F80, 0x4000, 0xC040, 0], np.uint16)  # 1, 2, -3, 0
    t = tftensor.from_proto(tensor_proto(14, [4], bits.tobytes()))
    j = jnp.from_dlpack(t)
    assert j.dtype == jnp.bfloat16
    assert np.asarray(j, np.float32).tolist() == [1.0, 2.0, -3.0, 0.0]


def test_tftensor_from_jax_zero_copy() -> None:
    jnp = optional("jax.numpy")
    jax = optional("jax")
    # On the CPU device: a GPU build of JAX would put it on the GPU, which
    # scripts/check_cuda.py covers.
    j = jax.device_put(jnp.arange(12, dtype=jnp.float32).reshape(3, 4), jax.devices("cpu")[0])
    devices: list[Literal["cpu"] | None] = [None, "cpu"]
    for device in devices:
        t = tftensor.from_dlpack(j, device=device)
        assert t.shape == (3, 4) and t.dtype == "float"
        assert t.data_ptr == j.unsafe_buffer_pointer()
        assert t.tensor_data() == np.asarray(j).tobytes()


# ---- PyTorch (CPU) -----------------------------------------------------------


def test_torch_consumes_tftensor() -> None:
    torch = optional("torch")
    t = tftensor.from_dlpack(sample(np.float32, (2, 3)))
    y = torch.utils.dlpack.from_dlpack(t.__dlpack__())  # legacy: a copy
    assert y.tolist() == sample(np.float32, (2, 3)).tolist()
    assert y.data_ptr() != t.data_ptr
    z = torch.from_dlpack(t)
    assert z.tolist() == y.tolist()
    x = torch.arange(6, dtype=torch.int64)
    assert tftensor.from_dlpack(x, device="cpu", copy=False).data_ptr == x.data_ptr()
    assert tftensor.from_dlpack(x, copy=True).data_ptr != x.data_ptr()


# ---- TensorFlow --------------------------------------------------------------


def test_tensorflow_both_ways() -> None:
    tf = optional("tensorflow")
    v = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    if hasattr(v, "__dlpack__"):  # TF >= 2.18 EagerTensors are producers
        assert tftensor.from_dlpack(v).tensor_data() == v.numpy().tobytes()
    t = tftensor.from_dlpack(tf.experimental.dlpack.to_dlpack(v))
    assert t.tensor_data() == v.numpy().tobytes()
    # TF takes only legacy capsules: with copy=None that is now a copy.
    y = tf.experimental.dlpack.from_dlpack(t.__dlpack__())
    assert y.numpy().tolist() == [[1.0, 2.0], [3.0, 4.0]]
    del y
    gc.collect()
