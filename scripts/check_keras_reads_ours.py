#!/usr/bin/env python3
"""Checks that h5py and Keras read what tftensor's Keras writer writes.

Run from the repository root with the TF venv (.venv-check-tf, made by scripts/check_with_tf.sh):
    KERAS_BACKEND=tensorflow .venv-check-tf/bin/python scripts/check_keras_reads_ours.py

1. Every dtype Keras writes (and a scalar, a zero-size tensor, and a group of
   300 datasets, which needs a two-level B-tree) goes through .npy files into
   `cargo run --example keras_write`; h5py must read back the same values,
   with the `dtype` attribute on bf16 datasets.
2. A Keras Sequential's weights, written by us, are loaded with
   `model.load_weights` (float32 and a bfloat16 policy) and as a `.keras`
   archive with `keras.saving.load_model`; every weight must be equal.
"""
import json
import os
import subprocess
import sys
import tempfile

os.environ.setdefault("KERAS_BACKEND", "tensorflow")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import h5py
import ml_dtypes
import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def write(out, tensors, config=None, groups=()):
    """tensors: {name: array}; writes each to .npy and runs the example."""
    d = tempfile.mkdtemp(dir=os.path.dirname(out))
    args = []
    for i, (name, a) in enumerate(tensors.items()):
        p = os.path.join(d, f"{i}.npy")
        np.save(p, a)
        suffix = ":bf16" if a.dtype == ml_dtypes.bfloat16 else ""
        args.append(f"{name}{suffix}={p}")
    args += [g + "/" for g in groups]
    cmd = ["cargo", "run", "-q", "--example", "keras_write", "--"]
    if config is not None:
        cp = os.path.join(d, "config.json")
        with open(cp, "w") as f:
            f.write(config)
        cmd += ["--config", cp]
    subprocess.run(cmd + [out] + args, check=True, cwd=ROOT)


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    return a.shape == b.shape and a.dtype == b.dtype and a.tobytes() == b.tobytes()


def check_h5py(tmp):
    rng = np.random.default_rng(5)
    t = {
        "layers/all/vars/0": rng.standard_normal((2, 3)).astype("float16"),
        "layers/all/vars/1": rng.standard_normal((3, 2)).astype("float32"),
        "layers/all/vars/2": rng.standard_normal((4,)).astype("float64"),
        "layers/all/vars/3": np.array([-128, 5, 127], "int8"),
        "layers/all/vars/4": np.array([-32768, 32767], "int16"),
        "layers/all/vars/5": np.array([[-(2**31)], [2**31 - 1]], "int32"),
        "layers/all/vars/6": np.array(-(2**63), "int64"),
        "layers/all/vars/7": np.array([255], "uint8"),
        "layers/all/vars/8": np.array([65535], "uint16"),
        "layers/all/vars/9": np.array([2**32 - 1], "uint32"),
        "layers/all/vars/10": np.array([2**64 - 1], "uint64"),
        "layers/all/vars/11": np.array([True, False, True]),
        "layers/all/vars/12": np.array([1 + 2j], "complex64"),
        "layers/all/vars/13": np.array([[3 - 4j]], "complex128"),
        "layers/all/vars/14": np.zeros((0, 3), "float32"),
        "layers/all/vars/15": np.array([1.5, -2, 3.25], ml_dtypes.bfloat16),
    }
    for i in range(300):
        t[f"many/vars/{i}"] = np.full((2,), i, "float32")
    out = os.path.join(tmp, "ours.weights.h5")
    write(out, t, groups=["vars", "layers/empty/vars"])
    n = 0
    with h5py.File(out, "r") as f:
        names = []
        f.visititems(lambda k, o: names.append(k) if isinstance(o, h5py.Dataset) else None)
        assert sorted(names) == sorted(t), "dataset names differ"
        for name, want in t.items():
            ds = f[name]
            got = ds[()]
            if want.dtype == ml_dtypes.bfloat16:
                assert ds.attrs["dtype"] == "bfloat16", name
                got = np.array(got).view(ml_dtypes.bfloat16)
            assert same(got, want), f"{name}: {got!r} != {want!r}"
            n += 1
        assert "vars" in f and "layers/empty/vars" in f
    print(f"h5py: {n} datasets (16 dtypes/shapes + 300 in one group) equal, empty groups present")


def model(keras):
    return keras.Sequential(
        [keras.Input((4,)), keras.layers.Dense(3, name="d1"), keras.layers.BatchNormalization(), keras.layers.Dense(2)]
    )


def weights_of(m):
    # Keras' own paths for each layer's variables.
    out = {}
    for layer, path in zip(m.layers, ["layers/dense", "layers/batch_normalization", "layers/dense_1"]):
        for i, v in enumerate(layer.weights):
            out[f"{path}/vars/{i}"] = v
    return out


def check_keras(tmp):
    import keras

    rng = np.random.default_rng(9)
    for policy in ("float32", "bfloat16"):
        keras.config.set_dtype_policy(policy)
        m = model(keras)
        want = {}
        for name, v in weights_of(m).items():
            dt = ml_dtypes.bfloat16 if policy == "bfloat16" else np.float32
            want[name] = (rng.standard_normal(tuple(v.shape)) + 2).astype(dt)
        out = os.path.join(tmp, f"{policy}.weights.h5")
        write(out, want, groups=["vars"])
        fresh = model(keras)
        fresh.load_weights(out)
        for name, v in weights_of(fresh).items():
            got = np.asarray(keras.ops.convert_to_numpy(v))
            assert same(got, want[name]), f"{policy} {name}"
        print(f"keras load_weights ({policy}): {len(want)} weights equal")
        if policy == "float32":
            config = json.dumps(keras.saving.serialize_keras_object(m))
            kp = os.path.join(tmp, "ours.keras")
            write(kp, want, config=config, groups=["vars"])
            loaded = keras.saving.load_model(kp)
            for name, v in weights_of(loaded).items():
                assert same(np.asarray(v), want[name]), f".keras {name}"
            print(f"keras load_model(.keras): {len(want)} weights equal")
    keras.config.set_dtype_policy("float32")


def main():
    subprocess.run(["cargo", "build", "-q", "--example", "keras_write"], check=True, cwd=ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        check_h5py(tmp)
        check_keras(tmp)
    print("OK")


if __name__ == "__main__":
    sys.exit(main())
