"""The file-format wrappers, against files written by TensorFlow 2.21, NumPy
and safetensors (the repository's fixtures under tests/data) and by round
trips that NumPy reads back."""

import json
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

import tftensor

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"

# The per-format names are deprecated aliases over open/load/save; these
# tests check they still read and write what they did (test_deprecated
# checks the warnings).
pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def expected(area: str, name: str = "expected.json") -> Any:
    return json.loads((DATA / area / name).read_text())


def test_load_checkpoint_matches_tensorflow() -> None:
    exp = expected("checkpoints")["all_dtypes"]
    prefix = str(DATA / "checkpoints" / exp["prefix"])
    ckpt = tftensor.load_checkpoint(prefix)
    names = [name for name, _, _ in exp["list_variables"]]
    assert list(ckpt) == names
    assert tftensor.list_variables(prefix) == [
        (name, tftensor_name(dtype), tuple(shape)) for name, dtype, shape in exp["list_variables"]
    ]
    for name, want in exp["values"].items():
        if "shape" not in want:
            continue  # a sliced string variable TF itself cannot read
        t = ckpt[name]
        assert t.shape == tuple(want["shape"]), name
        if "hex" in want:
            assert t.tensor_data().hex() == want["hex"], name
    a = np.from_dlpack(ckpt["dtype/float32"])
    assert a.dtype == np.float32 and a.shape == (2, 3)
    assert a.tobytes().hex() == exp["values"]["dtype/float32"]["hex"]


def tftensor_name(tf_python_name: str) -> str:
    """TF's Python dtype names (`float32`) as DataTypeString names (`float`)."""
    return {"float32": "float", "float64": "double", "float16": "half"}.get(
        tf_python_name, tf_python_name
    )


def test_checkpoint_round_trip(tmp_path: Path) -> None:
    prefix = str(tmp_path / "model")
    arrays: dict[str, npt.NDArray[Any]] = {
        "w": np.arange(6, dtype=np.float32).reshape(2, 3),
        "b": np.array([1, -2], np.int64),
    }
    tftensor.save_checkpoint(prefix, arrays)
    back = tftensor.load_checkpoint(prefix)
    assert sorted(back) == ["b", "w"]
    for name, a in arrays.items():
        np.testing.assert_array_equal(np.from_dlpack(back[name]), a)


@pytest.mark.parametrize("name", ["float32", "int64", "bool", "complex128", "uint16", "fortran_f4", "be_float32"])
def test_load_npy_matches_numpy(name: str) -> None:
    path = DATA / "npy" / f"{name}.npy"
    want = np.load(path)
    t = tftensor.load_npy(str(path))
    got = np.from_dlpack(t)
    assert got.shape == want.shape
    np.testing.assert_array_equal(got, want)


def test_load_npy_of_ml_dtypes_needs_the_dtype() -> None:
    path = str(DATA / "npy" / "ml_bfloat16.npy")
    # The hint names this front's option, not the Rust API (read_npy_as).
    with pytest.raises(ValueError, match="npy_dtype=") as e:
        tftensor.load_npy(path)
    assert "read_npy_as" not in str(e.value)
    t = tftensor.load_npy(path, dtype="bfloat16")
    assert t.dtype == "bfloat16"
    with pytest.raises(ValueError, match="unknown dtype"):
        tftensor.load_npy(path, dtype="bfloat17")


def test_save_npy_is_np_save(tmp_path: Path) -> None:
    a = np.arange(12, dtype=np.float64).reshape(3, 4)
    tftensor.save_npy(str(tmp_path / "ours.npy"), a)
    np.save(tmp_path / "numpy.npy", a)
    assert (tmp_path / "ours.npy").read_bytes() == (tmp_path / "numpy.npy").read_bytes()
    np.testing.assert_array_equal(np.load(tmp_path / "ours.npy"), a)


@pytest.mark.parametrize("name", ["arrays.npz", "arrays_compressed.npz"])
def test_load_npz_matches_numpy(name: str) -> None:
    path = DATA / "npy" / name
    exp = expected("npy", "npz_expected.json")["arrays"]
    with np.load(path) as want:
        with pytest.raises(ValueError, match="bfloat16"):
            tftensor.load_npz(str(path))  # "bf" is ml_dtypes' opaque '<V2'
        got = tftensor.load_npz(str(path), dtypes={"bf": "bfloat16"})
        assert list(got) == expected("npy", "npz_expected.json")["order"]
        assert sorted(got) == sorted(want.files)
        assert got["bf"].dtype == "bfloat16"
        assert got["bf"].tensor_data().hex() == exp["bf"]["hex"]
        for key in want.files:
            if want[key].dtype.kind in "SUV":
                continue  # strings and ml_dtypes have no DLPack form in NumPy
            np.testing.assert_array_equal(np.from_dlpack(got[key]), want[key])



@pytest.mark.parametrize("compressed", [False, True])
def test_save_npz_reads_in_numpy(tmp_path: Path, compressed: bool) -> None:
    arrays: dict[str, npt.NDArray[Any]] = {"x": np.arange(5, dtype=np.int32), "y": np.eye(2)}
    tftensor.save_npz(str(tmp_path / "a.npz"), arrays, compressed=compressed)
    with np.load(tmp_path / "a.npz") as back:
        for key, a in arrays.items():
            np.testing.assert_array_equal(back[key], a)


def test_safetensors_fixtures_and_round_trip(tmp_path: Path) -> None:
    exp = expected("safetensors")["all_dtypes"]
    got = tftensor.load_safetensors(str(DATA / "safetensors" / "all_dtypes.safetensors"))
    assert list(got) == exp["order"]
    for name, want in exp["tensors"].items():
        assert got[name].dtype == want["dtype"], name
        assert got[name].shape == tuple(want["shape"]), name
        assert got[name].tensor_data().hex() == want["hex"], name
    arrays = {"a": np.arange(4, dtype=np.float16), "b": np.array([[True, False]])}
    tftensor.save_safetensors(str(tmp_path / "m.safetensors"), arrays)
    back = tftensor.load_safetensors(str(tmp_path / "m.safetensors"))
    for name, a in arrays.items():
        np.testing.assert_array_equal(np.from_dlpack(back[name]), a)


@pytest.mark.parametrize("suffix,compression", [("", ""), (".zlib", "ZLIB"), (".gzip", "GZIP")])
def test_tfrecord_tensors_match_tensorflow(suffix: str, compression: str) -> None:
    exp = expected("tfrecord", "tensors.json")["records"]
    tensors = tftensor.read_tensors(str(DATA / "tfrecord" / f"tensors{suffix}.tfrecord"), compression)
    assert len(tensors) == len(exp)
    for t, want in zip(tensors, exp):
        assert t.shape == tuple(want["shape"])
        if "content_hex" in want:
            assert t.tensor_data().hex() == want["content_hex"]
    records = tftensor.read_records(str(DATA / "tfrecord" / f"tensors{suffix}.tfrecord"), compression)
    assert [r.hex() for r in records] == [w["record_hex"] for w in exp]


def test_tfrecord_raw_records_and_round_trip(tmp_path: Path) -> None:
    exp = expected("tfrecord", "raw.json")["records"]
    records = tftensor.read_records(str(DATA / "tfrecord" / "raw.tfrecord"))
    assert len(records) == len(exp)
    for r, want in zip(records, exp):
        if "hex" in want:
            assert r.hex() == want["hex"]
        else:
            assert len(r) == want["len"]
    arrays: list[npt.NDArray[Any]] = [np.arange(3, dtype=np.float32), np.array([[1, 2]], np.int64)]
    path = str(tmp_path / "t.tfrecord")
    tftensor.write_tensors(path, arrays, "GZIP")
    back = tftensor.read_tensors(path, compression="GZIP")
    for t, a in zip(back, arrays):
        np.testing.assert_array_equal(np.from_dlpack(t), a)
    with pytest.raises(ValueError, match="compression"):
        tftensor.read_records(path, "LZ4")


def test_tfrecord_examples_match_tensorflow() -> None:
    exp = expected("tfrecord", "examples.json")["records"]
    examples = tftensor.read_examples(str(DATA / "tfrecord" / "examples.tfrecord"))
    assert len(examples) == len(exp)
    for got, want in zip(examples, exp):
        assert sorted(got) == sorted(want["features"])
        for name, feature in want["features"].items():
            t = got[name]
            if "values" in feature and feature["dtype"] == "int64":
                assert np.from_dlpack(t).tolist() == feature["values"]
            elif "f32_bits" in feature:
                assert np.from_dlpack(t).view(np.uint32).tolist() == feature["f32_bits"]


def test_missing_files_raise_with_the_filename() -> None:
    with pytest.raises(FileNotFoundError) as e:
        tftensor.load_npy("/nonexistent/x.npy")
    assert e.value.filename == "/nonexistent/x.npy"
    with pytest.raises(FileNotFoundError) as e:
        tftensor.load_checkpoint("/nonexistent/model")
    assert e.value.filename == "/nonexistent/model"


def test_read_examples_refuses_sequence_examples_by_name() -> None:
    """Issue 35, fault 2: record 0 of a SequenceExample file came back as its
    context alone (['c']), its feature_lists dropped without a word."""
    path = DATA / "arrow" / "sequence.tfrecord"
    with pytest.raises(ValueError, match="SequenceExample") as e:
        tftensor.read_examples(str(path))
    assert "record 0" in str(e.value)
    assert "sequence=True" in str(e.value)
    # The Arrow reader reads them.
    stream = tftensor.read_examples_arrow(str(path), sequence=True)
    assert stream is not None
