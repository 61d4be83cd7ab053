#!/usr/bin/env python3
"""Writes the tensor-bundle fixtures under tests/data/checkpoints/ with real
TensorFlow (2.21), and expected.json holding what TF reads back from them.

Run: /path/to/venv/bin/python scripts/gen_checkpoints.py
The Rust tests (tests/checkpoint.rs) need only the committed output.
"""
import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import ml_dtypes  # noqa: E402
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import dtypes as tf_dtypes  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "checkpoints")


def describe(reader, key, dtype):
    """Expected value of one full tensor as TF's reader returns it."""
    out = {"dtype": dtype.name}
    if dtype == tf.variant:
        return out  # Python cannot convert variants; checked from the source side.
    try:
        v = reader.get_tensor(key)
    except Exception as ex:  # noqa: BLE001 (TF cannot assemble partitioned strings)
        out["tf_error"] = str(ex)
        return out
    v = np.asarray(v, dtype=object) if isinstance(v, bytes) else v
    out["shape"] = list(v.shape)
    if dtype == tf.string:
        out["strings"] = [bytes(s).hex() for s in np.asarray(v, dtype=object).reshape(-1)]
    else:
        out["hex"] = np.ascontiguousarray(v).tobytes().hex()
    return out


def listing(prefix):
    reader = tf.train.load_checkpoint(prefix)
    dmap = reader.get_variable_to_dtype_map()
    variables = [[name, dmap[name].name, list(shape)] for name, shape in tf.train.list_variables(prefix)]
    values = {name: describe(reader, name, dmap[name]) for name, _, _ in variables}
    return {"list_variables": variables, "values": values}


def rel(path):
    return os.path.relpath(path, ROOT)


def tf2_keras(expected):
    d = os.path.join(ROOT, "tf2_keras")
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="relu"), tf.keras.layers.Dense(2)])
    ckpt = tf.train.Checkpoint(model=model, step=tf.Variable(7, dtype=tf.int64))
    path = ckpt.save(os.path.join(d, "ckpt"))
    e = listing(path)
    e["prefix"] = rel(path)
    e["dir"] = rel(d)
    expected["tf2_keras"] = e


def tf1_partitioned(expected):
    d = os.path.join(ROOT, "tf1_partitioned")
    prefix = os.path.join(d, "model")
    slices = {}
    with tf.Graph().as_default():
        part = tf.compat.v1.get_variable(
            "part", shape=[10, 3], dtype=tf.float32,
            initializer=tf.compat.v1.random_uniform_initializer(seed=3),
            partitioner=tf.compat.v1.fixed_size_partitioner(3))
        words = tf.compat.v1.get_variable(
            "words", shape=[5], dtype=tf.string, initializer=tf.compat.v1.zeros_initializer(),
            partitioner=tf.compat.v1.fixed_size_partitioner(2))
        w = tf.compat.v1.get_variable("w", initializer=tf.constant([1.5, -2.0], tf.float64))
        fill = [p.assign(tf.constant([b"a", b"\xff\xfe", b""][: p.shape[0]] + [b"xyz"] * (p.shape[0] - 3 if p.shape[0] > 3 else 0))) for p in words]
        saver = tf.compat.v1.train.Saver()
        with tf.compat.v1.Session() as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(fill)
            saver.save(sess, prefix, write_meta_graph=False)
    # The state file names the prefix relative to its directory, as TF2's CheckpointManager does.
    tf.compat.v1.train.update_checkpoint_state(d, "model")
    e = listing(prefix)
    e["prefix"] = rel(prefix)
    # Slices read the way TF's LookupSlice does (RestoreV2 with a slice spec).
    for key, shape, spec, dt in [("part", [10, 3], "2,5:1,2", tf.float32), ("part", [10, 3], "-:-", tf.float32),
                                 ("words", [5], "1,3", tf.string), ("w", [2], "1,1", tf.float64)]:
        try:
            t = tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=[key], shape_and_slices=[" ".join(map(str, shape)) + " " + spec], dtypes=[dt])[0].numpy()
        except Exception as ex:  # noqa: BLE001
            slices[f"{key} {spec}"] = {"tf_error": str(ex).splitlines()[0]}
            continue
        val = {"shape": list(t.shape)}
        if dt == tf.string:
            val["strings"] = [bytes(s).hex() for s in t.reshape(-1)]
        else:
            val["hex"] = t.tobytes().hex()
        slices[f"{key} {spec}"] = val
    e["slices"] = slices
    expected["tf1_partitioned"] = e


def saved_model(expected):
    d = os.path.join(ROOT, "saved_model")

    class M(tf.Module):
        def __init__(self):
            self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
            self.b = tf.Variable([0.5, -0.5])
            self.name_table = tf.Variable([b"one", b"two"])

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def __call__(self, x):
            return tf.matmul(x, self.w) + self.b

    tf.saved_model.save(M(), d)
    e = listing(os.path.join(d, "variables", "variables"))
    e["dir"] = rel(d)
    expected["saved_model"] = e


def sharded(expected):
    d = os.path.join(ROOT, "sharded")
    ckpt = tf.train.Checkpoint(
        big=tf.Variable(np.arange(40, dtype=np.float32).reshape(8, 5)),
        mid=tf.Variable(np.arange(12, dtype=np.int32)),
        small=tf.Variable(3.25))
    opts = tf.train.CheckpointOptions(
        experimental_sharding_callback=tf.train.experimental.MaxShardSizePolicy(max_shard_size=64))
    path = ckpt.write(os.path.join(d, "ckpt"), options=opts)
    e = listing(path)
    e["prefix"] = rel(path)
    e["data_files"] = sorted(f for f in os.listdir(d) if ".data-" in f)
    expected["sharded"] = e


def make(dt, values):
    """A TF tensor of dtype `dt` holding `values`, by whatever route TF 2.21 allows."""
    name = dt.name
    if name in ("qint8", "quint8", "qint16", "quint16", "qint32"):
        base = {"qint8": tf.int8, "quint8": tf.uint8, "qint16": tf.int16, "quint16": tf.uint16, "qint32": tf.int32}[name]
        return tf.bitcast(tf.constant(values, base), dt)
    if name in ("float8_e4m3fnuz", "float8_e4m3b11fnuz", "float8_e5m2fnuz", "int4", "uint4"):
        arr = np.array(values, dtype=getattr(ml_dtypes, name))
        return tf.constant(arr, dtype=dt)
    return tf.cast(tf.constant(values, tf.float64 if dt.is_floating or dt.is_complex else tf.int64), dt)


def all_dtypes(expected):
    """One SaveV2 call with a known tensor order: every dtype, strings with
    non-UTF-8 bytes, empty and scalar tensors, a variant, and slices."""
    d = os.path.join(ROOT, "all_dtypes")
    os.makedirs(d, exist_ok=True)
    prefix = os.path.join(d, "bundle")
    names, specs, tensors, skipped = [], [], [], {}
    dts = [tf.float32, tf.float64, tf.int32, tf.uint8, tf.int16, tf.int8, tf.complex64, tf.int64, tf.bool,
           tf.qint8, tf.quint8, tf.qint32, tf.bfloat16, tf.qint16, tf.quint16, tf.uint16, tf.complex128,
           tf.float16, tf.uint32, tf.uint64, tf_dtypes.float8_e5m2, tf_dtypes.float8_e4m3fn,
           tf_dtypes.float8_e4m3fnuz, tf_dtypes.float8_e4m3b11fnuz, tf_dtypes.float8_e5m2fnuz,
           tf_dtypes.int4, tf_dtypes.uint4]
    for dt in dts:
        try:
            if dt == tf.bool:
                t = tf.constant([[True, False, True], [False, False, True]])
            elif dt.is_complex:
                t = tf.complex(tf.constant([[1.0, -2.5, 3.0], [0.0, 4.0, -1.0]], dt.real_dtype), tf.constant([[0.5, 1.0, -1.0], [2.0, 0.0, 3.0]], dt.real_dtype))
            elif dt.name in ("int4",):
                t = make(dt, [[1, -2, 3], [-8, 7, 0]])
            elif dt.name in ("uint4",):
                t = make(dt, [[1, 2, 3], [15, 7, 0]])
            elif dt.is_unsigned or dt.name.startswith("qu"):
                t = make(dt, [[1, 2, 3], [200 if dt.size == 1 else 60000 if dt.size == 2 else 4000000000, 5, 6]])
            else:
                t = make(dt, [[1, -2, 3], [-4, 5, -6]])
            names.append("dtype/" + dt.name)
            specs.append("")
            tensors.append(t)
        except Exception as ex:  # noqa: BLE001
            skipped[dt.name] = str(ex).splitlines()[0]
    extra = [
        ("strings/mixed", tf.constant([[b"hello", b""], [b"\xff\x00\xfe", "\u00e9t\u00e9".encode()]])),
        ("strings/scalar", tf.constant(b"a scalar string")),
        ("strings/long", tf.constant([b"x" * 300, b"y"])),
        ("strings/empty", tf.constant([], tf.string)),
        ("scalar/float", tf.constant(2.5)),
        ("scalar/int64", tf.constant(-9, tf.int64)),
        ("empty/float", tf.zeros([0, 3])),
        ("empty/int32", tf.zeros([4, 0], tf.int32)),
        ("a_first_in_index", tf.constant([1, 2], tf.int16)),
    ]
    for n, t in extra:
        names.append(n)
        specs.append("")
        tensors.append(t)
    # Slices of a [6, 2] float tensor and a [4] string tensor, written as TF1's partitioned save does.
    full = np.arange(12, dtype=np.float32).reshape(6, 2)
    for spec, part in [("0,2:-", full[0:2]), ("2,4:-", full[2:6])]:
        names.append("sliced/f")
        specs.append("6 2 " + spec)
        tensors.append(tf.constant(part))
    for spec, part in [("0,1", [b"s0"]), ("1,3", [b"s1", b"\x80s2", b"s3"])]:
        names.append("sliced/s")
        specs.append("4 " + spec)
        tensors.append(tf.constant(part))
    # A variant: a TensorList of two float vectors.
    names.append("variant/list")
    specs.append("")
    tensors.append(tf.raw_ops.TensorListFromTensor(tensor=tf.constant([[1.0, 2.0], [3.0, 4.0]]), element_shape=tf.constant([2])))
    tf.raw_ops.SaveV2(prefix=prefix, tensor_names=names, shape_and_slices=specs, tensors=tensors)
    e = listing(prefix)
    e["prefix"] = rel(prefix)
    e["save_order"] = [[n, s] for n, s in zip(names, specs)]
    e["skipped_dtypes"] = skipped
    expected["all_dtypes"] = e


def main():
    if os.path.exists(ROOT):
        shutil.rmtree(ROOT)
    os.makedirs(ROOT)
    expected = {"tensorflow": tf.__version__}
    for f in (all_dtypes, tf2_keras, tf1_partitioned, saved_model, sharded):
        f(expected)
        print("wrote", f.__name__, file=sys.stderr)
    with open(os.path.join(ROOT, "expected.json"), "w") as fh:
        json.dump(expected, fh, indent=1, sort_keys=True)
        fh.write("\n")
    total = sum(os.path.getsize(os.path.join(dp, f)) for dp, _, fs in os.walk(ROOT) for f in fs)
    print(f"fixtures: {total} bytes", file=sys.stderr)


if __name__ == "__main__":
    main()
