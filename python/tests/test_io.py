"""tftensor.open / load / save over the library's io layer, and NumPy's view
of a Tensor (np.asarray, numpy(), tolist())."""

from pathlib import Path

import numpy as np
import pytest

import tftensor

DATA = Path(__file__).resolve().parents[2] / "tests" / "data"


def test_open_is_lazy_and_lists_from_headers() -> None:
    src = tftensor.open(DATA / "checkpoints" / "tf2_keras")
    assert src.format == "checkpoint"
    assert "step/.ATTRIBUTES/VARIABLE_VALUE" in src
    entries = {name: (dtype, shape, nbytes) for name, dtype, shape, nbytes in src.entries()}
    assert entries["step/.ATTRIBUTES/VARIABLE_VALUE"] == ("int64", (), 8)
    assert entries["_CHECKPOINTABLE_OBJECT_GRAPH"][2] is None  # a string: size unknown
    assert np.asarray(src["step/.ATTRIBUTES/VARIABLE_VALUE"]).item() == 7
    with pytest.raises(KeyError):
        src["nope"]
    assert list(src) == src.keys() and len(src) == len(src.keys())


def test_load_and_save_round_trip_every_format(tmp_path: Path) -> None:
    t = {"w": np.arange(6, dtype=np.float32).reshape(2, 3)}
    for name in ["a.npz", "a.safetensors", "ckpt/model", "a.npy", "a.pb", "a.tfrecord"]:
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        tftensor.save(path, t)
        back = tftensor.load(path)
        assert len(back) == 1, name
        (value,) = back.values()
        assert np.array_equal(np.asarray(value), t["w"]), name


def test_save_format_overrides_the_name(tmp_path: Path) -> None:
    p = tmp_path / "weights.bin"
    tftensor.save(p, {"x": np.ones(3, np.int64)}, format="safetensors")
    assert tftensor.open(p).format == "safetensors"
    with pytest.raises(ValueError, match="unknown format"):
        tftensor.save(p, {}, format="xls")


def test_safetensors_metadata_is_exposed(tmp_path: Path) -> None:
    p = tmp_path / "m.safetensors"
    pytest.importorskip("safetensors")
    from safetensors.numpy import save_file

    save_file({"x": np.zeros(2, np.float32)}, str(p), metadata={"format": "np"})
    assert tftensor.open(p).metadata == {"format": "np"}


def test_opaque_npy_members_name_the_python_option() -> None:
    with pytest.raises(ValueError, match="npy_dtype="):
        tftensor.open(DATA / "npy" / "arrays.npz")
    src = tftensor.open(DATA / "npy" / "arrays.npz", npy_dtype="bfloat16")
    assert dict((n, d) for n, d, _, _ in src.entries())["bf"] == "bfloat16"


def test_gzip_tfrecords_need_no_compression_argument() -> None:
    # It used to report a checksum error without compression="GZIP".
    plain = list(tftensor.load(str(DATA / "tfrecord" / "tensors.tfrecord")).values())
    gz = list(tftensor.load(str(DATA / "tfrecord" / "tensors.gzip.tfrecord")).values())
    assert len(gz) == len(plain) and all(a == b for a, b in zip(gz, plain))


def test_asarray_is_the_values_zero_copy_and_read_only() -> None:
    t = tftensor.from_dlpack(np.arange(4, dtype=np.int32))
    a = np.asarray(t)
    assert a.dtype == np.int32 and a.tolist() == [0, 1, 2, 3]
    assert a.ctypes.data == t.data_ptr
    assert not a.flags.writeable
    b = np.asarray(t, dtype=np.float64)
    assert b.dtype == np.float64 and b.tolist() == [0.0, 1.0, 2.0, 3.0]
    c = np.array(t, copy=True)
    assert c.ctypes.data != t.data_ptr and c.flags.writeable
    with pytest.raises(ValueError):
        np.asarray(t, dtype=np.float64, copy=False)
    assert t.numpy().tolist() == t.tolist() == [0, 1, 2, 3]


def test_strings_become_bytes() -> None:
    src = tftensor.open(DATA / "tfrecord" / "examples.tfrecord")
    name = src["0/name"]
    assert name.tolist() == [b"cat"]
    arr = name.numpy()
    assert arr.dtype == object and arr.shape == (1,) and arr[0] == b"cat"
    with pytest.raises(ValueError):
        np.asarray(name, copy=False)


def test_keras_graphdef_and_events_load_through_the_same_layer() -> None:
    weights = tftensor.load(DATA / "keras" / "seq.keras")
    assert "layers/dense/vars/0" in weights
    consts = tftensor.load(DATA / "saved_model" / "frozen_v2.pb")
    assert consts and all(isinstance(t, tftensor.Tensor) for t in consts.values())
    series = tftensor.open(DATA / "events" / "runs")
    assert series.format == "events" and "train/metric/steps" in series


def test_saved_model_signatures_without_tensorflow() -> None:
    sm = tftensor.saved_model(DATA / "saved_model" / "module")
    sigs = sm.signatures["serve"]
    assert "serving_default" in sigs
    want = (DATA / "saved_model" / "module.expected" / "show_all.txt").read_text()
    assert sm.show_all().split("contains the following ops")[0] == want.split(
        "contains the following ops"
    )[0]


def test_read_events_and_summary_writer_round_trip(tmp_path: Path) -> None:
    w = tftensor.SummaryWriter(tmp_path)
    for step in range(3):
        w.add_scalar("loss", 1.0 / (step + 1), step)
    w.add_text("note", "hello", 0)
    w.close()
    values = tftensor.read_events(tmp_path)
    loss = [(v["step"], np.asarray(v["value"]).item()) for v in values if v["tag"] == "loss"]
    assert loss == [(0, 1.0), (1, 0.5), (2, pytest.approx(1 / 3))]
    assert any(v["tag"] == "note" for v in values)


def test_tflite_quantization_and_dequantize() -> None:
    src = tftensor.open(DATA / "tflite" / "int8.tflite")
    assert src.format == "tflite"
    q = src.quantization["MatMul"]
    assert set(q) >= {"scale", "zero_point", "quantized_dimension"}
    assert len(q["scale"]) == 32 and q["quantized_dimension"] == 0
    raw = np.asarray(src["MatMul"])
    real = np.asarray(src.dequantize("MatMul"))
    assert raw.dtype == np.int8 and real.dtype == np.float32
    zp = np.asarray(q["zero_point"], np.float64).reshape(-1, 1)
    sc = np.asarray(q["scale"], np.float64).reshape(-1, 1)
    assert np.array_equal(real, ((raw - zp) * sc).astype(np.float32))
    blockwise = tftensor.open(DATA / "tflite" / "int4_blockwise.tflite").quantization
    assert blockwise["MatMul"]["block_size"] == 32
    assert blockwise["MatMul"]["scales"] == "MatMul_scales"
