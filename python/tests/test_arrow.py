"""tftensor's Arrow functions through the Arrow PyCapsule interface, read
by pyarrow (skipped without pyarrow): tensors as arrow.fixed_shape_tensor
sharing memory, and tf.Example records as tfx-bsl's record batches
(compared with the fixtures tests/data/arrow/*.json that
scripts/gen_arrow_examples.py recorded from tfx-bsl 1.21)."""

import gc
import json
import pathlib
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import tftensor

pa = pytest.importorskip("pyarrow")
if not hasattr(tftensor, "tensor_to_arrow"):  # built without python/src/arrow.rs
    pytest.skip("tftensor built without Arrow", allow_module_level=True)

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "arrow"


def plain(v: Any) -> Any:
    if isinstance(v, bytes):
        return "b:" + v.hex()
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def as_fixture(batch: Any) -> dict[str, Any]:
    return {
        "num_rows": batch.num_rows,
        "columns": [
            {"name": f.name, "type": str(f.type), "values": plain(c.to_pylist())}
            for f, c in zip(batch.schema, batch.columns)
        ],
    }


def records(name: str) -> list[bytes]:
    """The records of an uncompressed TFRecord file (framing only)."""
    out: list[bytes] = []
    raw, i = (DATA / f"{name}.tfrecord").read_bytes(), 0
    while i < len(raw):
        n = int.from_bytes(raw[i:i + 8], "little")
        out.append(raw[i + 12:i + 12 + n])
        i += 16 + n
    return out


def test_tensor_exports_as_fixed_shape_tensor_sharing_memory() -> None:
    a = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
    t = tftensor.from_dlpack(a)
    arr = pa.array(tftensor.tensor_to_arrow(t))
    assert isinstance(arr.type, pa.FixedShapeTensorType)
    assert arr.type.shape == [2, 3]
    assert arr.type.value_type == pa.float32()
    back = arr.to_numpy_ndarray()
    assert back.shape == (4, 2, 3)
    assert np.array_equal(back, a)
    assert np.shares_memory(back, a)
    assert back.ctypes.data == t.data_ptr
    # The Arrow array keeps the buffer alive after the tensor is gone.
    del t, a
    gc.collect()
    assert back[3, 1, 2] == 23.0


def test_rank1_tensor_is_a_plain_array_and_bad_dtypes_refuse() -> None:
    t = tftensor.from_dlpack(np.arange(5, dtype=np.int64))
    arr = pa.array(tftensor.tensor_to_arrow(t))
    assert arr.type == pa.int64()
    assert arr.to_pylist() == [0, 1, 2, 3, 4]
    with pytest.raises(Exception, match="no zero-copy Arrow type"):
        tftensor.tensor_to_arrow(tftensor.from_dlpack(np.zeros((2, 2), dtype=np.bool_)))


@pytest.mark.parametrize("name", ["corner", "kinds", "wire", "empty_records"])
def test_decode_matches_tfx_bsl(name: str) -> None:
    want = json.loads((DATA / f"{name}.json").read_text())
    batch = pa.record_batch(tftensor.decode_examples(records(name)))
    got = as_fixture(batch)
    assert got == want


def test_decode_sequence_examples() -> None:
    want = json.loads((DATA / "sequence.json").read_text())
    batch = pa.record_batch(tftensor.decode_examples(records("sequence"), sequence=True))
    assert as_fixture(batch) == want


def test_decode_errors_are_tfx_bsls_text() -> None:
    with pytest.raises(Exception, match="Unable to parse example"):
        tftensor.decode_examples(records("malformed"))
    with pytest.raises(Exception, match="expected int64_list, found float_list"):
        tftensor.decode_examples(records("conflict"))


def test_stream_reads_files_and_globs() -> None:
    stream = tftensor.read_examples_arrow(str(DATA / "kinds.gz*.tfrecord"), batch_size=3, compression="GZIP")
    table = pa.table(stream)
    assert table.num_rows == 4
    assert table.column_names == ["B", "f", "i", "s", "é"]
    assert table.column("i").to_pylist()[0] == [0, -1, 2**63 - 1, -(2**63)]
    with pytest.raises(Exception, match="already consumed"):
        pa.table(stream)


def test_stream_with_a_tf_io_like_spec() -> None:
    class FixedLenFeature:
        def __init__(self, shape: Sequence[int], dtype: str, default_value: float | None = None) -> None:
            self.shape, self.dtype, self.default_value = shape, dtype, default_value

    class VarLenFeature:
        def __init__(self, dtype: str) -> None:
            self.dtype = dtype

    class RaggedFeature(VarLenFeature):
        pass

    spec = {
        "fi": FixedLenFeature([2], "int64"),
        "ff": FixedLenFeature([], "float32", -1.0),
        "m": FixedLenFeature([2, 2], "float32"),
        "vs": VarLenFeature("string"),
        "r": RaggedFeature("float32"),
    }
    table = pa.table(tftensor.read_examples_arrow([str(DATA / "spec.tfrecord")], spec=spec, batch_size=2))
    want = json.loads((DATA / "spec.json").read_text())["parsed"]
    assert table.column("fi").combine_chunks().to_numpy_ndarray().reshape(-1).tolist() == want["fi"]["values"]
    assert table.column("ff").to_pylist() == want["ff"]["values"]
    m = table.column("m").combine_chunks()
    assert isinstance(m.type, pa.FixedShapeTensorType)
    assert m.to_numpy_ndarray().reshape(-1).tolist() == want["m"]["values"]
    assert table.column("vs").to_pylist() == [[b"p"], [], [b"q", b"r"]]
    assert table.column("r").combine_chunks().offsets.to_pylist() == want["r"]["row_splits"]


def test_pyarrow_fixed_shape_tensor_imports_without_copying() -> None:
    a = np.arange(24, dtype=np.float32).reshape(4, 2, 3)
    arr = pa.FixedShapeTensorArray.from_numpy_ndarray(a)  # writes "permutation":[0,1]
    t = tftensor.tensor_from_arrow(arr)
    assert t.shape == (4, 2, 3) and t.dtype == "float"
    back = np.from_dlpack(t)
    assert np.array_equal(back, a)
    assert np.shares_memory(back, a)
    # pyarrow's slice keeps the offset on the list, not the child.
    s = tftensor.tensor_from_arrow(arr[1:3])
    assert s.shape == (2, 2, 3)
    assert np.array_equal(np.from_dlpack(s), a[1:3])
    assert s.data_ptr == a[1:3].ctypes.data
    # A primitive array; nulls refuse.
    assert np.from_dlpack(tftensor.tensor_from_arrow(pa.array([1, 2, 3], pa.int16()))).tolist() == [1, 2, 3]
    with pytest.raises(Exception, match="nulls"):
        tftensor.tensor_from_arrow(pa.array([1.0, None]))
    del arr, a
    gc.collect()
    assert back[3, 1, 2] == 23.0
