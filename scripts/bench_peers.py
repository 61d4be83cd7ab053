#!/usr/bin/env python3
"""The Python peers of `benches/readers.rs`, driven round by round over a pipe.

The Rust harness starts this script once (with the project's TF venv,
.venv-check-tf, or $TFTENSOR_PEER_PYTHON) and sends one JSON line per timed
call; each call is answered with one JSON line, so the peers run interleaved
with the Rust rows in the same run:

    -> {"op": "np_load_npy", "path": "/tmp/.../data.npy"}
    <- {"ok": true, "seconds": 0.051, "cpu": 0.050, "minflt": 130, "bytes": ...}

Ops (each reads the whole file and keeps every array in memory until the
call returns):

* ``np_load_npy``: ``np.load(path)``
* ``np_load_npy_mmap_sum``: ``np.load(path, mmap_mode="r")`` and the sum of
  its 8-byte words (every byte read once)
* ``np_load_npz``: ``np.load(path)[name]`` for every member
* ``st_numpy``: ``safetensors.numpy.load_file(path)``
* ``tf_checkpoint``: ``tf.train.load_checkpoint(prefix)`` + ``get_tensor``
  of every key (``path`` is the prefix)
* ``tf_tfrecord``: ``tf.data.TFRecordDataset(path).map(parse_tensor)``
  drained by ``reduce`` inside a ``tf.function`` (no Python per record;
  traced once per path, before timing), float32 tensors, CRCs checked by TF
* ``tflite_interpreter``: ``tf.lite.Interpreter(model_path)`` +
  ``allocate_tensors()`` + ``get_tensor(i)`` (a copy) of every tensor with a
  buffer (TF 2.21's interpreter; LiteRT's is the same runtime)
* ``tflite_read_model``: ``tensorflow.lite.tools.flatbuffer_utils.read_model``
  (the whole model as Python objects, every buffer's bytes included)

``cpu`` (user + system seconds) and ``minflt`` (minor page faults) are the
process's during the call (``getrusage(RUSAGE_SELF)``, all threads). A first line
``{"ready": true, "versions": {...}}`` is printed once the imports are done;
a missing module leaves its ops answering ``{"ok": false, "error": ...}``.

Run by hand to check the peers on a file: ``bench_peers.py once OP PATH``.
"""

import json
import os
import resource
import sys
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

versions = {"python": sys.version.split()[0]}
try:
    import numpy as np

    versions["numpy"] = np.__version__
except ImportError:  # pragma: no cover - reported through the ops
    np = None
try:
    import safetensors
    import safetensors.numpy

    versions["safetensors"] = safetensors.__version__
except ImportError:
    safetensors = None
try:
    import tensorflow as tf

    versions["tensorflow"] = tf.__version__
except ImportError:
    tf = None

_tfrecord_fns = {}


def np_load_npy(path):
    a = np.load(path)
    return a.nbytes


def np_load_npy_mmap_sum(path):
    a = np.load(path, mmap_mode="r")
    # Every byte read once, as the Rust rows' wrapping sum of 8-byte words.
    int(a.reshape(-1).view(np.uint64).sum())
    return a.nbytes


def np_load_npz(path):
    with np.load(path) as z:
        arrays = [z[k] for k in z.files]
    return sum(a.nbytes for a in arrays)


def st_numpy(path):
    d = safetensors.numpy.load_file(path)
    return sum(a.nbytes for a in d.values())


def tf_checkpoint(prefix):
    r = tf.train.load_checkpoint(prefix)
    tensors = [r.get_tensor(k) for k in r.get_variable_to_shape_map()]
    return sum(t.nbytes for t in tensors)


def _tfrecord_fn(path):
    fn = _tfrecord_fns.get(path)
    if fn is None:
        ds = tf.data.TFRecordDataset(path).map(lambda r: tf.io.parse_tensor(r, tf.float32))

        @tf.function
        def drain():
            return ds.reduce(tf.constant(0, tf.int64), lambda acc, t: acc + tf.size(t, out_type=tf.int64))

        drain()  # trace once, outside the timed calls
        fn = _tfrecord_fns[path] = drain
    return fn


def tf_tfrecord(path):
    return int(_tfrecord_fn(path)()) * 4


def tflite_interpreter(path):
    i = tf.lite.Interpreter(model_path=path)
    i.allocate_tensors()
    arrays = [i.get_tensor(d["index"]) for d in i.get_tensor_details()]
    return sum(a.nbytes for a in arrays)


def tflite_read_model(path):
    from tensorflow.lite.tools import flatbuffer_utils

    m = flatbuffer_utils.read_model(path)
    return sum(len(b.data) for b in m.buffers if b.data is not None)


OPS = {
    "np_load_npy": np_load_npy,
    "np_load_npy_mmap_sum": np_load_npy_mmap_sum,
    "np_load_npz": np_load_npz,
    "st_numpy": st_numpy,
    "tf_checkpoint": tf_checkpoint,
    "tf_tfrecord": tf_tfrecord,
    "tflite_interpreter": tflite_interpreter,
    "tflite_read_model": tflite_read_model,
}
NEEDS = {
    "np_load_npy": lambda: np,
    "np_load_npy_mmap_sum": lambda: np,
    "np_load_npz": lambda: np,
    "st_numpy": lambda: safetensors,
    "tf_checkpoint": lambda: tf,
    "tf_tfrecord": lambda: tf,
    "tflite_interpreter": lambda: tf,
    "tflite_read_model": lambda: tf,
}


def run(op, path):
    if op not in OPS:
        return {"ok": False, "error": f"unknown op {op}"}
    if NEEDS[op]() is None:
        return {"ok": False, "error": f"{op}: module not installed"}
    if op == "tf_tfrecord":
        _tfrecord_fn(path)
    if op == "tflite_read_model":
        from tensorflow.lite.tools import flatbuffer_utils  # noqa: F401 (imported before timing)
    r0 = resource.getrusage(resource.RUSAGE_SELF)
    t0 = time.perf_counter()
    nbytes = OPS[op](path)
    seconds = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_SELF)
    return {
        "ok": True,
        "seconds": seconds,
        "cpu": (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime),
        "minflt": r1.ru_minflt - r0.ru_minflt,
        "bytes": nbytes,
    }


def serve():
    print(json.dumps({"ready": True, "versions": versions}), flush=True)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
            reply = run(req["op"], req["path"])
        except Exception as e:  # report, keep serving
            reply = {"ok": False, "error": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "serve":
        serve()
    elif len(sys.argv) == 4 and sys.argv[1] == "once":
        print(json.dumps(run(sys.argv[2], sys.argv[3])))
    else:
        print(__doc__)
        sys.exit(2)


if __name__ == "__main__":
    main()
