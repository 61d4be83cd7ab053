#!/usr/bin/env python3
"""Makes the TF1 `.meta` fixture under tests/data/saved_model/tf1_saver/.

Run: bash scripts/gen_meta_graph.sh (makes .venv-meta with tensorflow-cpu
2.21.0 from PyPI, then runs this).

A TF1 graph (variables, a few Consts of several dtypes, a train op, a
global step) saved by `tf.compat.v1.train.Saver` at step 5: Saver writes
`model.ckpt-5.meta` (a MetaGraphDef) beside the checkpoint. Only the
`.meta` is kept, with `model.ckpt-5.meta.json`: every Const of its graph
(name, dtype and its enum, shape, the hex and byte count of
`tf.make_ndarray(...).tobytes()`, or the values' hex for strings), its collection names, its ops (as
`saved_model_cli` lists them) and the TF version.
"""
import json
import os
import shutil
import tempfile

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.python.framework import meta_graph as meta_graph_lib  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "saved_model", "tf1_saver")


def const_records(graph_def):
    recs = []
    for node in graph_def.node:
        if node.op not in ("Const", "HostConst"):
            continue
        t = node.attr["value"].tensor
        arr = tf.make_ndarray(t)
        rec = {"name": node.name, "dtype": tf.dtypes.as_dtype(t.dtype).name, "dtype_enum": int(t.dtype), "shape": [int(d) for d in arr.shape]}
        if t.dtype == tf.string.as_datatype_enum:
            rec["values_hex"] = [bytes(v).hex() for v in arr.reshape(-1)]
        else:
            rec["hex"] = np.ascontiguousarray(arr).tobytes().hex()
            rec["nbytes"] = int(arr.nbytes)
        recs.append(rec)
    return recs


def main():
    tf.compat.v1.disable_eager_execution()
    graph = tf.Graph()
    with graph.as_default():
        step = tf.compat.v1.train.get_or_create_global_step()
        x = tf.compat.v1.placeholder(tf.float32, [None, 3], name="x")
        w = tf.compat.v1.get_variable("w", initializer=tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]))
        b = tf.compat.v1.get_variable("b", initializer=tf.constant([0.5, -0.5]))
        scale = tf.constant([2.0, 0.25, -1.0], name="scale")
        tf.constant([7, 8, 9], dtype=tf.int64, name="ids")
        tf.constant(["a", "bc"], name="labels")
        y = tf.identity(tf.matmul(x * scale, w) + b, name="y")
        loss = tf.reduce_mean(tf.square(y), name="loss")
        train_op = tf.compat.v1.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        tf.compat.v1.add_to_collection(tf.compat.v1.GraphKeys.TRAIN_OP, train_op)
        saver = tf.compat.v1.train.Saver()
        tmp = tempfile.mkdtemp()
        with tf.compat.v1.Session(graph=graph) as sess:
            sess.run(tf.compat.v1.global_variables_initializer())
            sess.run(tf.compat.v1.assign(step, 5))
            saver.save(sess, os.path.join(tmp, "model.ckpt"), global_step=5)
    meta_path = os.path.join(tmp, "model.ckpt-5.meta")
    meta = tf.compat.v1.MetaGraphDef()
    with open(meta_path, "rb") as f:
        meta.ParseFromString(f.read())
    os.makedirs(OUT, exist_ok=True)
    shutil.copy(meta_path, os.path.join(OUT, "model.ckpt-5.meta"))
    expected = {
        "tensorflow_version": meta.meta_info_def.tensorflow_version,
        "collections": sorted(meta.collection_def.keys()),
        "ops": sorted(meta_graph_lib.ops_used_by_graph_def(meta.graph_def)),
        "constants": const_records(meta.graph_def),
    }
    with open(os.path.join(OUT, "model.ckpt-5.meta.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
        f.write("\n")
    shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
