#!/usr/bin/env python3
"""TensorFlow reads back bundles written by tftensor's BundleWriter.

Usage: check_with_tf.py OUT_DIR   (after `cargo run --example checkpoint_interop -- OUT_DIR`)
Prints one line per check and exits non-zero on any mismatch.
"""
import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

out = sys.argv[1]
manifest = json.load(open(os.path.join(out, "manifest.json")))
fails = 0


def report(ok, what):
    global fails
    fails += 0 if ok else 1
    print(("OK   " if ok else "FAIL ") + what)


def same(value, want):
    if "strings" in want:
        got = [bytes(s).hex() for s in np.asarray(value, dtype=object).reshape(-1)]
        return list(np.shape(value)) == want["shape"] and got == want["strings"]
    return list(np.shape(value)) == want["shape"] and np.ascontiguousarray(value).tobytes().hex() == want["hex"]


print(f"TensorFlow {tf.__version__}")

# 1. load_checkpoint(...).get_tensor over every key of the all-dtypes bundle.
prefix = os.path.join(out, "bundle")
reader = tf.train.load_checkpoint(prefix)
dmap = reader.get_variable_to_dtype_map()
want = manifest["bundle"]
report(sorted(dmap) == sorted(want), f"bundle: tf lists the {len(want)} keys written")
n_ok = 0
for key, w in want.items():
    if dmap[key].as_datatype_enum != w["dtype_enum"]:
        report(False, f"bundle/{key}: dtype {dmap[key]} vs {w['dtype']}")
        continue
    if key == "variant/list":
        t = tf.raw_ops.RestoreV2(prefix=prefix, tensor_names=[key], shape_and_slices=[""], dtypes=[tf.variant])[0]
        stacked = tf.raw_ops.TensorListStack(input_handle=t, element_dtype=tf.float32, element_shape=[2]).numpy()
        ok = stacked.tolist() == [[1.0, 2.0], [3.0, 4.0]]
    else:
        ok = same(reader.get_tensor(key), w)
    n_ok += ok
    if not ok:
        report(False, f"bundle/{key}: value differs")
report(n_ok == len(want), f"bundle: {n_ok}/{len(want)} tensors equal (get_tensor; variant via RestoreV2 + TensorListStack)")

# 2. Restore into the Keras model through tf.train.Checkpoint.
tf.keras.utils.set_random_seed(1)
model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, activation="relu"), tf.keras.layers.Dense(2)])
step = tf.Variable(0, dtype=tf.int64)
ckpt = tf.train.Checkpoint(model=model, step=step)
status = ckpt.restore(tf.train.latest_checkpoint(os.path.join(out, "tf2")))
status.assert_existing_objects_matched()
w2 = manifest["tf2"]
kernels = [v.numpy() for v in model.weights]
want_k = [w2[k] for k in sorted(w2) if k.startswith("model/")]
ok = all(np.ascontiguousarray(v).tobytes().hex() == w["hex"] for v, w in
         zip(kernels, [w2["model/_functional/_operations/1/_kernel/.ATTRIBUTES/VARIABLE_VALUE"],
                       w2["model/_functional/_operations/1/bias/.ATTRIBUTES/VARIABLE_VALUE"],
                       w2["model/_functional/_operations/2/_kernel/.ATTRIBUTES/VARIABLE_VALUE"],
                       w2["model/_functional/_operations/2/bias/.ATTRIBUTES/VARIABLE_VALUE"]]))
report(ok and int(step.numpy()) == 42 and len(want_k) == 4,
       f"tf2: tf.train.Checkpoint.restore into the Keras model: 4 weights equal, step = {int(step.numpy())}")

# 3. Restore a partitioned variable with a TF1 Saver.
with tf.Graph().as_default():
    part = tf.compat.v1.get_variable("part", shape=[10, 3], dtype=tf.float32,
                                     partitioner=tf.compat.v1.fixed_size_partitioner(3))
    wv = tf.compat.v1.get_variable("w", shape=[2], dtype=tf.float64)
    saver = tf.compat.v1.train.Saver()
    with tf.compat.v1.Session() as sess:
        saver.restore(sess, os.path.join(out, "tf1", "model"))
        got_part = sess.run(tf.concat(list(part), axis=0))
        got_w = sess.run(wv)
ok = same(got_part, manifest["tf1"]["part"]) and same(got_w, manifest["tf1"]["w"])
report(ok, "tf1: Saver.restore of the 3-slice partitioned [10, 3] variable and w: values equal")

# 4. A multi-block .index: TF's SaveV2 with the same keys and order, bytes compared.
names = [f"layer_{i:05d}/a/rather/long/variable/name/.ATTRIBUTES/VARIABLE_VALUE" for i in reversed(range(6000))]
tensors = [tf.constant([i, -i], tf.int32) for i in reversed(range(6000))]
tfprefix = os.path.join(out, "many_tf")
tf.raw_ops.SaveV2(prefix=tfprefix, tensor_names=names, shape_and_slices=[""] * len(names), tensors=tensors)
for suffix in (".index", ".data-00000-of-00001"):
    a = open(os.path.join(out, "many") + suffix, "rb").read()
    b = open(tfprefix + suffix, "rb").read()
    report(a == b, f"many: {suffix} of 6000 keys byte-identical to TF's SaveV2 ({len(a)} bytes)")
r = tf.train.load_checkpoint(os.path.join(out, "many"))
report(r.get_tensor(names[0]).tolist() == [5999, -5999], "many: tf reads the 6000-key bundle")

print("ALL OK" if fails == 0 else f"{fails} FAILURES")
sys.exit(1 if fails else 0)
