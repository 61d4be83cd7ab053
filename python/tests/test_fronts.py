"""The Python front over tftensor::io: copy with progress, errors as Python
exceptions with their fields, the deprecated per-format names, and the
format list from the library's rows."""

import json
import os
import pathlib
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import tftensor

DATA = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data"
README = pathlib.Path(__file__).resolve().parents[1] / "README.md"

DEPRECATED = [
    "load_npy", "save_npy", "load_npz", "save_npz", "load_safetensors", "save_safetensors",
    "load_checkpoint", "save_checkpoint", "read_tensors", "write_tensors", "read_examples",
]


def test_copy_converts_and_reports_progress_inside_a_big_tensor(tmp_path: pathlib.Path) -> None:
    src, dst = tmp_path / "big.npy", tmp_path / "big.tfrecord.gz"
    big = np.zeros(6 << 20, np.uint8)
    np.save(src, big)
    seen = []
    report = tftensor.copy(str(src), str(dst), progress=lambda done, total: seen.append((done, total)))
    assert report == {"copied": 1, "skipped": [], "bytes": 6 << 20}
    assert all(total == 6 << 20 for _, total in seen)
    # Reading and writing both report before the tensor is copied.
    midway = [d for d, _ in seen if 0 < d < 6 << 20]
    assert len(midway) >= 4, seen
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert seen[-1] == (6 << 20, 6 << 20)
    back = tftensor.load(str(dst))
    assert np.array_equal(np.asarray(back["0"]), big)


def test_copy_selects_skips_and_names_missing_tensors(tmp_path: pathlib.Path) -> None:
    ckpt = str(DATA / "checkpoints" / "tf2_keras")
    out = tmp_path / "w.safetensors"
    report = tftensor.copy(ckpt, str(out), progress=False, skip_unsupported=True)
    assert report["skipped"] == ["_CHECKPOINTABLE_OBJECT_GRAPH"]
    assert len(tftensor.open(str(out)).keys()) == report["copied"]
    with pytest.raises(KeyError, match="nope"):
        tftensor.copy(ckpt, str(tmp_path / "x.npz"), progress=False, only=["nope"])
    with pytest.raises(TypeError, match="cannot hold"):
        tftensor.copy(ckpt, str(tmp_path / "y.safetensors"), progress=False)
    assert not (tmp_path / "y.safetensors").exists()


def test_errors_carry_their_fields() -> None:
    with pytest.raises(FileNotFoundError) as e:
        tftensor.open("/nonexistent/w.npz")
    assert e.value.filename == "/nonexistent/w.npz"
    with pytest.raises(FileNotFoundError) as e:
        tftensor.load("/nonexistent/ckpt-3")
    assert e.value.filename == "/nonexistent/ckpt-3"
    # A file no format claims names the formats tried.
    with pytest.raises(ValueError, match="not a format tftensor reads") as unknown:
        tftensor.open(str(README))
    assert "npy" in str(unknown.value)
    # A missing tensor is a missing key, not a missing file.
    with pytest.raises(KeyError):
        tftensor.open(str(DATA / "checkpoints" / "tf2_keras"))["nope"]


def test_os_errors_name_the_file(tmp_path: pathlib.Path) -> None:
    with pytest.raises(OSError) as e:
        tftensor.save(str(tmp_path / "no" / "such" / "dir" / "w.npz"), {"a": np.zeros(1)})
    assert e.value.filename is not None


@pytest.mark.parametrize("name", DEPRECATED)
def test_per_format_names_are_deprecated_aliases(name: str, tmp_path: pathlib.Path) -> None:
    fn = getattr(tftensor, name)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            if name.startswith(("load", "read")):
                fn(str(tmp_path / "missing"))
            elif name == "save_npy":
                fn(str(tmp_path / "o.npy"), np.zeros(2))
            elif name == "write_tensors":
                fn(str(tmp_path / "o.tfrecord"), [np.zeros(2)])
            else:
                fn(str(tmp_path / ("o." + name.split("_")[1])), {"a": np.zeros(2)})
        except OSError:
            pass
    warned = [w for w in caught if issubclass(w.category, DeprecationWarning)]
    assert warned, name
    assert f"tftensor.{name}" in str(warned[0].message)
    assert "use tftensor." in str(warned[0].message)


def test_the_readme_lists_the_deprecated_names_once() -> None:
    text = README.read_text()
    section = text.split("## Deprecated names", 1)[1].split("\n## ", 1)[0]
    for name in DEPRECATED:
        assert section.count(f"`{name}`") == 1, name
        assert text.count(f"`{name}") == section.count(f"`{name}"), name


def test_formats_are_the_librarys_rows() -> None:
    rows = tftensor.formats()
    names = [name for name, _, _ in rows]
    assert {"checkpoint", "npy", "npz", "safetensors", "tfrecord", "keras", "events"} <= set(names)
    assert dict((n, w) for n, _, w in rows)["events"] is False
    assert ("npz", ["npz"], True) in rows


def test_save_compresses_and_keeps_metadata(tmp_path: pathlib.Path) -> None:
    a = {"z": np.zeros(4096, np.float32)}
    tftensor.save(str(tmp_path / "plain.npz"), a)
    tftensor.save(str(tmp_path / "small.npz"), a, compression="ZLIB")
    assert os.path.getsize(tmp_path / "small.npz") < os.path.getsize(tmp_path / "plain.npz") / 4
    tftensor.save(str(tmp_path / "m.safetensors"), a, metadata={"format": "pt"})
    assert tftensor.open(str(tmp_path / "m.safetensors")).metadata == {"format": "pt"}
    tftensor.save(str(tmp_path / "t.tfrecord"), a, compression="GZIP")
    assert (tmp_path / "t.tfrecord").read_bytes()[:2] == b"\x1f\x8b"
    assert np.array_equal(np.asarray(tftensor.load(str(tmp_path / "t.tfrecord"))["0"]), a["z"])


def plain(v: Any) -> Any:
    if isinstance(v, bytes):
        return "b:" + v.hex()
    if isinstance(v, list):
        return [plain(x) for x in v]
    return v


def test_sequence_features_from_plain_dicts_match_tensorflow() -> None:
    """Issue 35, fault 5: specs without TensorFlow, and the sequence parse,
    against tf.io.parse_sequence_example's output on the same records."""
    pa = pytest.importorskip("pyarrow")
    context = {
        "id": {"type": "FixedLenFeature", "shape": [], "dtype": "int64"},
        "label": {"type": "FixedLenFeature", "shape": [], "dtype": "float32", "default_value": -1.0},
        "tags": {"type": "VarLenFeature", "dtype": "string"},
    }
    sequence = {
        "tok": {"type": "FixedLenSequenceFeature", "shape": [], "dtype": "int64"},
        "emb": {"type": "FixedLenSequenceFeature", "shape": [2], "dtype": "float32", "allow_missing": True},
        "words": {"type": "VarLenFeature", "dtype": "string"},
        "r": {"type": "RaggedFeature", "dtype": "float32"},
    }
    want = json.loads((DATA / "arrow" / "sequence_spec.json").read_text())["parsed"]
    stream = tftensor.read_examples_arrow(
        str(DATA / "arrow" / "sequence_spec.tfrecord"), batch_size=3,
        context_features=context, sequence_features=sequence,
    )
    table = pa.table(stream)
    assert table.num_rows == len(want)
    rows = table.to_pylist()
    for got, exp in zip(rows, want):
        for name in context:
            assert plain(got[name]) == exp["context"][name], name
        for name in sequence:
            steps = got["##SEQUENCE##"][name]
            assert plain(steps) == exp["sequence"][name], name
    # A feature list TF requires is an error with TF's text.
    missing = str(DATA / "arrow" / "sequence_spec_missing.tfrecord")
    stream = tftensor.read_examples_arrow(missing, sequence_features={"tok": sequence["tok"]})
    with pytest.raises(Exception, match="Feature list 'tok' is required"):
        pa.table(stream)
    records = [(DATA / "arrow" / "sequence_spec_missing.tfrecord").read_bytes()[12:-4]]
    with pytest.raises(ValueError, match="Feature list 'tok' is required"):
        tftensor.decode_examples(records, sequence_features={"tok": sequence["tok"]})


def test_dict_and_object_specs_are_the_same_spec() -> None:
    pa = pytest.importorskip("pyarrow")

    class FixedLenFeature:
        def __init__(self, shape: Sequence[int], dtype: str, default_value: float | None = None) -> None:
            self.shape, self.dtype, self.default_value = shape, dtype, default_value

    path = str(DATA / "arrow" / "spec.tfrecord")
    by_object = pa.table(tftensor.read_examples_arrow(path, spec={"ff": FixedLenFeature([], "float32", -1.0)}))
    by_dict = pa.table(tftensor.read_examples_arrow(
        path, spec={"ff": {"type": "FixedLenFeature", "shape": [], "dtype": "float32", "default_value": -1.0}}))
    assert by_object.equals(by_dict)
    with pytest.raises(TypeError, match="FixedLenFeature, VarLenFeature"):
        tftensor.read_examples_arrow(path, spec={"ff": {"type": "Dense", "dtype": "float32"}})


def test_the_stream_has_one_schema_from_the_files() -> None:
    pa = pytest.importorskip("pyarrow")
    # Two files with different features: every batch has every column.
    paths = [str(DATA / "arrow" / "kinds.tfrecord"), str(DATA / "arrow" / "spec.tfrecord")]
    reader = pa.RecordBatchReader.from_stream(tftensor.read_examples_arrow(paths, batch_size=2))
    names = reader.schema.names
    assert names == sorted(names) and {"B", "i", "ff", "vs"} <= set(names)
    batches = list(reader)
    assert all(b.schema == reader.schema for b in batches)
    first, last = batches[0], batches[-1]
    assert first.column(names.index("ff")).null_count == first.num_rows
    assert last.column(names.index("B")).null_count == last.num_rows
