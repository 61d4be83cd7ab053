#!/usr/bin/env python3
"""Makes the SavedModel / frozen GraphDef fixtures under tests/data/saved_model/.

Run with the TF 2.21 venv:  .venv-check-tf/bin/python scripts/gen_saved_model.py

For every SavedModel it stores what TF 2.21's real `saved_model_cli` printed
(`show --all`, `show --dir`, `--tag_set`, `--tag_set --signature_def`) and a
`expected.json` with the fingerprint, the object graph's concrete function
names and, for every Const (top-level graph and function library, named
`function/node`), dtype, shape and the sha256 of
`tf.make_ndarray(node.attr["value"].tensor).tobytes()` (hex values for
DT_STRING). Frozen GraphDefs get `<name>.json` with the same Const records.
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "saved_model")
CLI = os.path.join(os.path.dirname(sys.executable), "saved_model_cli")


def const_records(graph_def):
    recs = []

    def add(name, node):
        if node.op not in ("Const", "HostConst"):
            return
        t = node.attr["value"].tensor
        arr = tf.make_ndarray(t)
        rec = {"name": name, "dtype": tf.dtypes.as_dtype(t.dtype).name, "dtype_enum": int(t.dtype), "shape": [int(d) for d in arr.shape]}
        if t.dtype == tf.string.as_datatype_enum:
            rec["values_hex"] = [bytes(v).hex() for v in arr.reshape(-1)]
        else:
            raw = np.ascontiguousarray(arr).tobytes()
            rec["sha256"] = hashlib.sha256(raw).hexdigest()
            rec["hex"] = raw.hex()
            rec["nbytes"] = int(arr.nbytes)
        recs.append(rec)

    for node in graph_def.node:
        add(node.name, node)
    for fn in graph_def.library.function:
        for node in fn.node_def:
            add(fn.signature.name + "/" + node.name, node)
    return recs


def cli(*args):
    r = subprocess.run([CLI, "show", *args], capture_output=True, check=True)
    return r.stdout


def record_saved_model(name, keep_variables=True):
    d = os.path.join(OUT, name)
    from tensorflow.core.protobuf import saved_model_pb2, fingerprint_pb2
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(d, "saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    exp_dir = os.path.join(OUT, name + ".expected")
    shutil.rmtree(exp_dir, ignore_errors=True)
    os.makedirs(exp_dir)
    with open(os.path.join(exp_dir, "show_all.txt"), "wb") as f:
        f.write(cli("--all", "--dir", d))
    with open(os.path.join(exp_dir, "show_dir.txt"), "wb") as f:
        f.write(cli("--dir", d))
    expected = {"meta_graphs": []}
    for i, mg in enumerate(sm.meta_graphs):
        tags = list(mg.meta_info_def.tags)
        tag_arg = ",".join(tags)
        with open(os.path.join(exp_dir, "tag_set_%d.txt" % i), "wb") as f:
            f.write(cli("--dir", d, "--tag_set", tag_arg))
        for key in sorted(mg.signature_def):
            with open(os.path.join(exp_dir, "sig_%d_%s.txt" % (i, key)), "wb") as f:
                f.write(cli("--dir", d, "--tag_set", tag_arg, "--signature_def", key))
        expected["meta_graphs"].append({
            "tags": tags,
            "signature_keys": sorted(mg.signature_def),
            "method_names": {k: v.method_name for k, v in mg.signature_def.items()},
            "concrete_functions": sorted(mg.object_graph_def.concrete_functions),
            "has_object_graph": mg.HasField("object_graph_def"),
            "tensorflow_version": mg.meta_info_def.tensorflow_version,
            "constants": const_records(mg.graph_def),
        })
    fp = os.path.join(d, "fingerprint.pb")
    if os.path.exists(fp):
        fd = fingerprint_pb2.FingerprintDef()
        with open(fp, "rb") as f:
            fd.ParseFromString(f.read())
        expected["fingerprint"] = {
            "saved_model_checksum": str(fd.saved_model_checksum),
            "graph_def_program_hash": str(fd.graph_def_program_hash),
            "signature_def_hash": str(fd.signature_def_hash),
            "saved_object_graph_hash": str(fd.saved_object_graph_hash),
            "checkpoint_hash": str(fd.checkpoint_hash),
            "producer": fd.version.producer,
            "uuid": fd.uuid,
        }
    with open(os.path.join(exp_dir, "expected.json"), "w") as f:
        json.dump(expected, f, indent=1, sort_keys=True)
    print(name, "meta graphs:", len(sm.meta_graphs), "pb bytes:", os.path.getsize(os.path.join(d, "saved_model.pb")))


def keras_export():
    import keras
    keras.utils.set_random_seed(1)
    inp = keras.Input(shape=(3,), name="features")
    out = keras.layers.Dense(2, name="dense")(inp)
    model = keras.Model(inp, out)
    d = os.path.join(OUT, "keras_export")
    shutil.rmtree(d, ignore_errors=True)
    model.export(d, verbose=False)
    record_saved_model("keras_export")


class TwoSigs(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], name="w")
        # A captured eager constant: saved as a top-level Const.
        self.bias = tf.constant([[0.5, -0.5], [0.25, -0.25]])

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32, name="x")])
    def serve(self, x):
        y = tf.matmul(x, self.w) + tf.reduce_sum(self.bias, axis=0) + tf.constant([1.5, 2.5])
        return {"y": y, "argmax": tf.argmax(y, axis=1)}

    @tf.function(input_signature=[
        tf.TensorSpec([None], tf.string, name="text"),
        tf.TensorSpec(None, tf.float32, name="anything"),
        tf.TensorSpec([], tf.int32, name="k"),
    ])
    def classify(self, text, anything, k):
        return {"len": tf.strings.length(text) + k, "sum": tf.reduce_sum(anything)}

    @tf.function(input_signature=[tf.TensorSpec([None, None, 2], tf.float64, name="img")])
    def unknown_dims(self, img):
        return {"mean": tf.reduce_mean(img, axis=[1, 2]) * tf.constant(3, tf.float64)}


def module_two_sigs():
    m = TwoSigs()
    d = os.path.join(OUT, "module")
    shutil.rmtree(d, ignore_errors=True)
    tf.saved_model.save(m, d, signatures={
        "serving_default": m.serve,
        "classify": m.classify,
        "unknown_dims": m.unknown_dims,
    })
    record_saved_model("module")


def tf1_builder():
    v1 = tf.compat.v1
    d = os.path.join(OUT, "tf1_builder")
    shutil.rmtree(d, ignore_errors=True)
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None, 4], name="x")
        sp = v1.sparse_placeholder(tf.int64, [None, 10], name="sp")
        rg = tf.RaggedTensor.from_row_splits(
            v1.placeholder(tf.float32, [None], name="rg_values"),
            v1.placeholder(tf.int64, [None], name="rg_splits"))
        w = v1.get_variable("W", initializer=tf.constant(
            np.arange(8, dtype=np.float32).reshape(4, 2)))
        scale = v1.placeholder_with_default(tf.constant(2.0), [], name="scale")
        y = tf.identity(tf.matmul(x, w) * scale, name="y")
        s = tf.identity(tf.sparse.reduce_sum(sp), name="s")
        r = tf.identity(tf.reduce_sum(rg.flat_values), name="r")
        q = v1.placeholder(tf.string, None, name="q")
        ql = tf.identity(tf.strings.length(q), name="ql")
        info = v1.saved_model.utils.build_tensor_info
        predict = v1.saved_model.signature_def_utils.build_signature_def(
            inputs={"x": info(x), "sp": info(sp), "rg": info(rg)},
            outputs={"y": info(y), "s": info(s), "r": info(r)},
            method_name="tensorflow/serving/predict")
        regress = v1.saved_model.signature_def_utils.build_signature_def(
            inputs={"q": info(q)}, outputs={"ql": info(ql)},
            method_name="tensorflow/serving/regress")
        with v1.Session(graph=g) as sess:
            sess.run(v1.global_variables_initializer())
            b = v1.saved_model.Builder(d)
            b.add_meta_graph_and_variables(sess, ["serve"], signature_def_map={
                "predict": predict, "regress": regress})
            b.add_meta_graph(["serve", "gpu"], signature_def_map={"regress": regress})
            b.save()
    record_saved_model("tf1_builder")


def frozen_tf1():
    v1 = tf.compat.v1
    g = tf.Graph()
    with g.as_default():
        x = v1.placeholder(tf.float32, [None, 4], name="x")
        w = tf.constant(np.arange(8, dtype=np.float32).reshape(4, 2) / 7, name="W")
        b = tf.constant(0.25, name="b")
        n = tf.constant(7, tf.int32, name="n")
        h = tf.constant(np.array([1, -2, 3], np.float16), name="h")
        fill = tf.constant(3, tf.int64, shape=[2, 3], name="fill")  # one int64_val, repeated
        c = tf.constant([[1 + 2j, 3 - 4j]], tf.complex64, name="c")
        s = tf.constant([b"ab", b"", b"\xff\x00"], name="s")
        tf.identity(tf.matmul(x, w) + b, name="y")
        tf.identity(n, name="n_out")
        tf.identity(h, name="h_out")
        tf.identity(fill, name="fill_out")
        tf.identity(c, name="c_out")
        tf.identity(s, name="s_out")
    tf.io.write_graph(g.as_graph_def(), OUT, "frozen_tf1.pb", as_text=False)
    record_graph("frozen_tf1.pb")


def frozen_v2():
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2
    v = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5)
    k = tf.Variable(np.array([3, 1, 4], np.int32))

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        y = tf.matmul(x, v) * tf.cast(k, tf.float32)
        return tf.cond(tf.reduce_sum(y) > 0, lambda: y * 2.0, lambda: y - 1.0)

    frozen = convert_variables_to_constants_v2(f.get_concrete_function())
    tf.io.write_graph(frozen.graph.as_graph_def(), OUT, "frozen_v2.pb", as_text=False)
    record_graph("frozen_v2.pb")


def record_graph(name):
    gd = tf.compat.v1.GraphDef()
    with open(os.path.join(OUT, name), "rb") as f:
        gd.ParseFromString(f.read())
    with open(os.path.join(OUT, name[:-3] + ".json"), "w") as f:
        json.dump({"constants": const_records(gd)}, f, indent=1, sort_keys=True)
    print(name, "bytes:", os.path.getsize(os.path.join(OUT, name)), "consts:", len(const_records(gd)))


def main():
    os.makedirs(OUT, exist_ok=True)
    frozen_tf1()
    frozen_v2()
    tf1_builder()
    module_two_sigs()
    keras_export()
    total = 0
    for root, _, files in os.walk(OUT):
        total += sum(os.path.getsize(os.path.join(root, f)) for f in files)
    print("total fixture bytes:", total)


if __name__ == "__main__":
    main()
