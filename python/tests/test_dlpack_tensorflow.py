"""DLPack exchange with TensorFlow itself (tf.experimental.dlpack), when it
is installed (CI does not install it). TF speaks only legacy capsules."""

import gc

import numpy as np
import pytest

import tftensor

tf = pytest.importorskip("tensorflow", reason="TensorFlow is not installed; its DLPack tests are skipped")


@pytest.mark.parametrize(
    "dtype", ["float32", "float64", "float16", "bfloat16", "int8", "int64", "uint16", "uint64", "bool", "complex128"]
)
def test_tensorflow_to_tftensor(dtype: str) -> None:
    v = tf.cast(tf.reshape(tf.range(6), (2, 3)), dtype)
    t = tftensor.from_dlpack(tf.experimental.dlpack.to_dlpack(v))
    assert t.shape == (2, 3)
    assert t.tensor_data() == v.numpy().tobytes()
    assert tftensor.from_proto(tf.make_tensor_proto(v).SerializeToString()) == t


def test_tftensor_to_tensorflow_takes_a_legacy_copy() -> None:
    t = tftensor.from_dlpack(np.arange(6, dtype=np.float32).reshape(2, 3))
    y = tf.experimental.dlpack.from_dlpack(t.__dlpack__(copy=True))
    assert y.numpy().tolist() == [[0, 1, 2], [3, 4, 5]]
    with pytest.raises(BufferError):
        t.__dlpack__(copy=False)  # a legacy capsule of a shared buffer
    del y
    gc.collect()
