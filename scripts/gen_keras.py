#!/usr/bin/env python3
"""Makes the Keras / HDF5 fixtures under tests/data/keras/ and expected.json.

Run with the TF venv:  KERAS_BACKEND=tensorflow .venv-check-tf/bin/python scripts/gen_keras.py

Every file is written by the real producer (Keras 3 `save_weights`/`save`,
Keras 3's legacy `.h5` writer, tf_keras when installed, or h5py for the HDF5
features Keras never uses). expected.json records, per file and per dataset
path (as h5py `visititems` names it), the dtype, shape and sha256 of
`ds[()].tobytes()` in little-endian order, plus the root attributes we
expose as metadata.
"""
import hashlib
import io
import json
import os
import sys
import zipfile

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import h5py
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "keras")
os.makedirs(OUT, exist_ok=True)


def path(name):
    return os.path.join(OUT, name)


def le_bytes(a):
    a = np.asarray(a)
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    return np.ascontiguousarray(a).tobytes()


def dtype_name(ds):
    if ds.attrs.get("dtype") == "bfloat16":
        return "bfloat16"
    dt = ds.dtype
    if dt == np.bool_:
        return "bool"
    return np.dtype(dt.newbyteorder("<") if dt.byteorder == ">" else dt).name


def describe_h5(f):
    out = {}

    def visit(name, obj):
        if isinstance(obj, h5py.Dataset):
            v = obj[()]
            out[name] = {
                "dtype": dtype_name(obj),
                "shape": list(obj.shape),
                "sha256": hashlib.sha256(le_bytes(v)).hexdigest(),
            }

    f.visititems(visit)
    return out


def describe_file(p):
    if p.endswith(".keras"):
        with zipfile.ZipFile(p) as z:
            data = z.read("model.weights.h5")
            with h5py.File(io.BytesIO(data), "r") as f:
                return describe_h5(f)
    if p.endswith(".json"):
        d = os.path.dirname(p)
        base = os.path.basename(p).replace(".weights.json", "")
        out = {}
        i = 0
        while os.path.exists(os.path.join(d, f"{base}_{i:05}.weights.h5")):
            with h5py.File(os.path.join(d, f"{base}_{i:05}.weights.h5"), "r") as f:
                out.update(describe_h5(f))
            i += 1
        return out
    with h5py.File(p, "r") as f:
        return describe_h5(f)


def keras_models():
    import keras

    keras.utils.set_random_seed(7)
    x = np.linspace(-1, 1, 32, dtype="float32").reshape(8, 4)
    y = np.linspace(0, 1, 16, dtype="float32").reshape(8, 2)

    seq = keras.Sequential(
        [keras.Input((4,)), keras.layers.Dense(3, name="d1"), keras.layers.BatchNormalization(), keras.layers.Dense(2)],
        name="sequential",
    )
    seq.compile(optimizer="adam", loss="mse")
    seq.fit(x, y, epochs=1, batch_size=8, verbose=0)
    seq.save_weights(path("seq.weights.h5"))
    seq.save(path("seq.keras"))
    seq.save(path("seq_legacy.h5"))  # Keras 3's legacy_h5_format writer
    seq.save_weights(path("shard.weights.json"), max_shard_size=1e-7)

    inp = keras.Input((4,), name="x")
    sub = keras.Sequential([keras.layers.Dense(3)], name="sub")
    h = sub(inp)
    h = keras.layers.Dropout(0.1)(h)
    outp = keras.layers.Dense(2, name="head")(h)
    func = keras.Model(inp, outp, name="func")
    func.save_weights(path("func.weights.h5"))

    for pol, fname in (("bfloat16", "bf16.weights.h5"), ("float16", "f16.weights.h5")):
        keras.config.set_dtype_policy(pol)
        m = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3), keras.layers.Dense(2)])
        m.save_weights(path(fname))
    keras.config.set_dtype_policy("float32")


def tf_keras_legacy():
    try:
        import tf_keras
    except ImportError:
        print("tf_keras not installed: no Keras 2 .h5 fixture")
        return
    m = tf_keras.Sequential([tf_keras.layers.Dense(3, input_shape=(4,), name="d1"), tf_keras.layers.Dense(2, name="d2")])
    m.compile(optimizer="adam", loss="mse")
    m.fit(np.ones((8, 4), "float32"), np.ones((8, 2), "float32"), epochs=1, verbose=0)
    m.save(path("k2.h5"))
    m.save_weights(path("k2_weights.h5"))


def h5py_files():
    import ml_dtypes

    # Every dtype as Keras' H5IOStore writes it (group[key] = value; bf16 via create_dataset + attr).
    with h5py.File(path("dtypes.weights.h5"), "w") as f:
        g = f.create_group("layers/all/vars")
        g.attrs["name"] = "all"
        vals = [
            np.arange(6, dtype="float16").reshape(2, 3) / 3,
            np.arange(6, dtype="float32").reshape(3, 2) / 7,
            np.arange(4, dtype="float64") / 9,
            np.array([-128, -1, 0, 127], dtype="int8"),
            np.array([-32768, 7, 32767], dtype="int16"),
            np.array([-(2**31), 5, 2**31 - 1], dtype="int32"),
            np.array(-(2**63), dtype="int64"),  # scalar
            np.array([0, 255], dtype="uint8"),
            np.array([65535, 1], dtype="uint16"),
            np.array([2**32 - 1], dtype="uint32"),
            np.array([2**64 - 1, 3], dtype="uint64"),
            np.array([[True, False], [False, True]]),
            np.array([1 + 2j, -3.5j], dtype="complex64"),
            np.array([1e300 - 1j], dtype="complex128"),
            np.zeros((0, 3), dtype="float32"),
        ]
        for i, v in enumerate(vals):
            g[str(i)] = v
        b = np.array([1.5, -2.0, 3.25], dtype=ml_dtypes.bfloat16)
        ds = g.create_dataset(str(len(vals)), data=b)
        ds.attrs["dtype"] = "bfloat16"

    rng = np.random.default_rng(3)
    big = rng.standard_normal((64, 33)).astype("float32")
    with h5py.File(path("features.h5"), "w") as f:
        f.create_dataset("chunked", data=big, chunks=(16, 10), compression="gzip", shuffle=True, fletcher32=True)
        f.create_dataset("gzip_only", data=np.arange(1000, dtype="int32"), chunks=(300,), compression="gzip")
        dcpl = h5py.h5p.create(h5py.h5p.DATASET_CREATE)
        dcpl.set_layout(h5py.h5d.COMPACT)
        sid = h5py.h5s.create_simple((5,))
        did = h5py.h5d.create(f.id, b"compact", h5py.h5t.STD_I16LE, sid, dcpl)
        did.write(h5py.h5s.ALL, h5py.h5s.ALL, np.arange(5, dtype="<i2"))
        f.create_dataset("big_endian", data=np.arange(6, dtype=">f4").reshape(2, 3))
        f.create_dataset("big_endian_i", data=np.array([1, -2], dtype=">i8"))
        f.create_dataset("empty_undef", shape=(3,), dtype="float32")  # never written: fill value
        f.create_dataset("fill_written", data=np.arange(3, dtype="int32"), fillvalue=7)
    with h5py.File(path("latest.h5"), "w", libver="latest") as f:
        g = f.create_group("optimizer/vars")
        for i in range(12):  # > 8 links: dense link storage
            g[str(i)] = np.full((2,), i, dtype="float32")
        f.create_dataset("layers/d/vars/0", data=rng.standard_normal((5, 3)).astype("float64"))
        f.create_dataset("chunk", data=np.arange(40, dtype="int64").reshape(8, 5), chunks=(8, 5))
        f["layers/d/vars"].attrs["name"] = "d"
        g = f.create_group("many/vars")
        for i in range(120):  # a fractal heap with an indirect root, a v2 B-tree of depth 1
            g[str(i)] = np.array([i], dtype="int16")
    with h5py.File(path("track_order.h5"), "w", track_order=True) as f:
        f["b"] = np.array([1, 2], dtype="int32")
        f["a"] = np.array([3.0], dtype="float32")
    with h5py.File(path("userblock.h5"), "w", userblock_size=512) as f:
        f["x"] = np.arange(4, dtype="float32")
    with open(path("userblock.h5"), "r+b") as f:
        f.write(b"a userblock: anything the writer likes")
    with h5py.File(path("v108.h5"), "w", libver="v108") as f:
        f["g/x"] = np.arange(3, dtype="uint16")


def main():
    want_keras = "--no-keras" not in sys.argv
    if want_keras:
        keras_models()
        tf_keras_legacy()
    h5py_files()
    expected = {}
    for name in sorted(os.listdir(OUT)):
        p = path(name)
        if name == "expected.json" or (name.endswith(".h5") and "_0000" in name):
            continue
        entry = {"datasets": describe_file(p)}
        expected[name] = entry
    with open(path("expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
    total = sum(os.path.getsize(path(n)) for n in os.listdir(OUT))
    for name, e in expected.items():
        print(f"{name}: {len(e['datasets'])} datasets")
    print(f"total {total} bytes in {OUT}")


if __name__ == "__main__":
    main()
