#!/usr/bin/env python3
"""Makes the TF.js fixtures under tests/data/tfjs/ and their expected
values, with tensorflowjs 4.22.0's own writer and reader.

    .venv-tflite/bin/python scripts/gen_tfjs.py   (the venv of gen_tflite.py)

- plain/: `write_weights` of two groups (float32, int32, bool, string,
  complex64) with 64-byte shards, so weights straddle shard files.
- quantized/: the same writer with `quantization_dtype_map` (uint8, uint16,
  float16, and an int32 weight quantized to uint8).
- graph/: a graph model: TF 2.21's frozen GraphDef of a small function as
  the converter writes it (`json_format.MessageToDict`), its large `Const`
  values moved to `write_weights` shards and stripped from the topology,
  one small `Const` left inline. (tensorflowjs' converter itself cannot be
  imported without JAX, Flax and TF-DF, so this mirrors its
  `extract_weights` step.)

Each folder's `expected.json` holds, per weight, `read_weights`' dtype,
shape and the hex of its values (strings: each one's hex); quantized ones
are recorded dequantized, as `read_weights` returns them.
"""
import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import importlib.util  # noqa: E402
import types  # noqa: E402

import numpy as np  # noqa: E402

# tensorflowjs' __init__ imports its converters, which need JAX and TF-DF;
# its reader and writer need neither: load the package without __init__.
_pkg = types.ModuleType("tensorflowjs")
_pkg.__path__ = importlib.util.find_spec("tensorflowjs").submodule_search_locations
sys.modules["tensorflowjs"] = _pkg
from tensorflowjs import read_weights, write_weights  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "tfjs")


def value_json(v):
    v = np.asarray(v)
    if v.dtype == object:
        return {"dtype": "string", "shape": list(v.shape), "strings_hex": [bytes(s).hex() for s in v.reshape(-1)]}
    return {"dtype": v.dtype.name, "shape": list(v.shape), "hex": np.ascontiguousarray(v).tobytes().hex()}


def write(name, groups, quant=None, topology=None, fmt=None):
    d = os.path.join(OUT, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    manifest = write_weights.write_weights(groups, d, shard_size_bytes=64,
                                           write_manifest=False, quantization_dtype_map=quant)
    model = {"weightsManifest": manifest}
    if fmt:
        model["format"] = fmt
    if topology is not None:
        model["modelTopology"] = topology
    with open(os.path.join(d, "model.json"), "w") as f:
        json.dump(model, f)
    got = read_weights.read_weights(manifest, d, flatten=True)
    exp = {"weights": [{"name": w["name"], **value_json(w["data"])} for w in got]}
    with open(os.path.join(d, "expected.json"), "w") as f:
        json.dump(exp, f, indent=1)
    print(name, sorted(os.listdir(d)))


def main():
    rng = np.random.default_rng(0)
    g0 = [
        {"name": "dense/kernel", "data": rng.standard_normal((4, 5)).astype(np.float32)},
        {"name": "dense/bias", "data": rng.standard_normal(5).astype(np.float32)},
        {"name": "steps", "data": np.array([3, -7, 1 << 30], np.int32)},
        {"name": "mask", "data": np.array([[True, False], [False, True]])},
    ]
    g1 = [
        {"name": "vocab", "data": np.array([b"cat", b"", b"\xffdog\x00"], dtype=object)},
        {"name": "z", "data": (rng.standard_normal(3) + 1j * rng.standard_normal(3)).astype(np.complex64)},
        {"name": "scalar", "data": np.array(2.5, np.float32)},
    ]
    write("plain", [g0, g1])
    q = [
        {"name": "w8", "data": rng.standard_normal((6, 7)).astype(np.float32)},
        {"name": "w16", "data": rng.standard_normal((3, 9)).astype(np.float32)},
        {"name": "h", "data": rng.standard_normal(11).astype(np.float32)},
        {"name": "ids", "data": np.array([0, 5, -300, 1000], np.int32)},
        {"name": "keep", "data": np.array([1.5, -2.0], np.float32)},
    ]
    write("quantized", [q], quant={"uint8": ["w8", "ids"], "uint16": ["w16"], "float16": ["h"]})
    graph()


def graph():
    import tensorflow as tf
    from google.protobuf import json_format
    from tensorflow.python.framework.convert_to_constants import convert_variables_to_constants_v2

    rng = np.random.default_rng(5)
    w = tf.Variable(rng.standard_normal((3, 4)).astype(np.float32), name="w")
    b = tf.Variable(rng.standard_normal(4).astype(np.float32), name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return tf.nn.relu(tf.matmul(x, w) + b) * tf.constant(2.0)

    gd = convert_variables_to_constants_v2(f.get_concrete_function()).graph.as_graph_def()
    weights = []
    for node in gd.node:
        if node.op == "Const":
            arr = tf.make_ndarray(node.attr["value"].tensor)
            if arr.size > 1:
                weights.append({"name": node.name, "data": arr})
                # As the converter does: the value moves to the shards.
                node.attr["value"].tensor.ClearField("tensor_content")
    topology = json_format.MessageToDict(gd)
    write("graph", [weights], topology=topology, fmt="graph-model")
    consts = [n for n in gd.node if n.op == "Const" and tf.make_ndarray(n.attr["value"].tensor).size <= 1]
    exp_path = os.path.join(OUT, "graph", "expected.json")
    exp = json.load(open(exp_path))
    exp["graph_consts"] = [{"name": n.name, **value_json(tf.make_ndarray(n.attr["value"].tensor))} for n in consts]
    json.dump(exp, open(exp_path, "w"), indent=1)


if __name__ == "__main__":
    sys.exit(main())
