"""tftensor.Tensor: TF names, DebugString, summaries and TensorProto bytes
checked against TensorFlow 2.21's output."""

from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import tftensor

# tf.make_tensor_proto(a).SerializeToString().hex(), TF 2.21.
TF_PROTOS: list[tuple[npt.NDArray[Any], str, str]] = [
    (np.array([[1, 2], [3, 4]], np.float32), "content",
     "08011208120208021202080222100000803f000000400000404000008040"),
    (np.arange(6, dtype=np.int64).reshape(3, 2), "content",
     "0809120812020803120208022230000000000000000001000000000000000200000000000000030000000000000004000000000000000500000000000000"),
    (np.array([True, False, True]), "field", "080a1204120208035a03010001"),
]


@pytest.mark.parametrize("a,form,hexbytes", TF_PROTOS)
def test_to_proto_matches_tensorflow(a: npt.NDArray[Any], form: Any, hexbytes: str) -> None:
    t = tftensor.from_dlpack(a)
    assert t.to_proto(form=form).hex() == hexbytes
    back = tftensor.from_proto(bytes.fromhex(hexbytes))
    assert back == t
    np.testing.assert_array_equal(np.from_dlpack(back), a)


def test_repr_and_summarize() -> None:
    t = tftensor.from_dlpack(np.array([[1, 2], [3, 4]], np.float32))
    # DebugString() shows 3 values, as in TF.
    assert repr(t) == "Tensor<type: float shape: [2,2] values: [1 2][3...]...>"
    assert t.summarize() == "[1 2][3...]..."
    assert t.summarize(max_entries=10) == "[1 2][3 4]"
    assert t.summarize(10, True) == "[[1 2]\n [3 4]]"
    assert t.num_elements == 4


def test_bad_arguments() -> None:
    t = tftensor.from_dlpack(np.zeros(2, np.int8))
    with pytest.raises(ValueError, match="form"):
        t.to_proto(form="packed")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        tftensor.from_proto(b"\xff\xff")
    with pytest.raises(TypeError):
        tftensor.Tensor()
