#!/usr/bin/env python3
"""Writes the TensorBoard event-file fixtures of tests/events.rs with the real
TensorFlow, and what TensorBoard's EventAccumulator reads from them.

    .venv-check-tf/bin/python scripts/gen_events.py [OUT_DIR]   # TF 2.21 + tensorboard (scripts/check_with_tf.sh makes the venv)

OUT_DIR defaults to tests/data/events. It writes three log directories:

* tf2/: one TF2 `tf.summary` run (the root, run "."): scalars, histograms
  (default and 3 buckets, a constant and an empty one), text (scalar and
  [2] strings), an image, audio (2 clips), and a raw `tf.summary.write`
  with no metadata.
* tf1/: one TF1 `tf.compat.v1.summary.FileWriter` run in graph mode:
  `simple_value` scalars, `HistogramProto` histograms, a TF1 image, TF1
  audio, the graph (a `graph_def` event), a session log and tagged run
  metadata.
* runs/: two runs, `train` and `eval/sub`, TF2 scalars.

and for each `<dir>.json`: EventMultiplexer's view (plugin_event_multiplexer,
every tensor kept) as {run: {tag: {plugin_name, data_class, events: [{step,
wall_time, dtype, shape, values}]}}}; floats (values and wall times) as
Python repr() strings (exact), string values as hex.
"""

import json
import os
import shutil
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorboard.backend.event_processing import plugin_event_multiplexer as pem  # noqa: E402
from tensorboard.compat.proto import summary_pb2  # noqa: E402
from tensorboard.util import tensor_util  # noqa: E402


def write_tf2(logdir):
    w = tf.summary.create_file_writer(logdir)
    with w.as_default():
        for s in range(4):
            tf.summary.scalar("loss", 1.0 / (s + 1), step=s)
            tf.summary.scalar("lr", 0.1 * 0.5**s, step=s)
        for s in (0, 7):
            tf.summary.histogram("weights", np.linspace(-1.0, 2.0, 17) * (s + 1), step=s)
        tf.summary.histogram("small", np.array([0, 0.5, 1, 1, 2], np.float32), step=1, buckets=3)
        tf.summary.histogram("const", np.array([3.0, 3.0]), step=1, buckets=4)
        tf.summary.histogram("empty", np.zeros([0]), step=1, buckets=2)
        tf.summary.text("note", "hello **world**", step=1)
        tf.summary.text("pair", tf.constant(["a", "bé"]), step=2)
        img = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(1, 2, 3, 3)
        tf.summary.image("img", img, step=1)
        tf.summary.write("raw_tensor", tf.constant([[1, 2], [3, 4]], tf.int32), step=1)
        tf.summary.audio("sound", tf.zeros([2, 4, 1]), 8000, step=3)
    w.close()


def write_tf1(logdir):
    g = tf.Graph()
    with g.as_default():
        x = tf.compat.v1.placeholder(tf.float32, [], name="x")
        v = tf.compat.v1.placeholder(tf.float32, [None], name="v")
        i = tf.compat.v1.placeholder(tf.uint8, [1, 2, 2, 3], name="i")
        s_acc = tf.compat.v1.summary.scalar("acc", x)
        s_h = tf.compat.v1.summary.histogram("h", v)
        s_img = tf.compat.v1.summary.image("pic", i)
        s_audio = tf.compat.v1.summary.audio("snd", tf.zeros([1, 4, 1]), 8000)
        with tf.compat.v1.Session(graph=g) as sess:
            fw = tf.compat.v1.summary.FileWriter(logdir, graph=g)
            for step in range(3):
                a, h = sess.run([s_acc, s_h], {x: 0.25 * (step + 1), v: [0.0, 0.5, 1.0, 1.0, 2.0 + step]})
                fw.add_summary(a, step)
                fw.add_summary(h, step)
            fw.add_summary(sess.run(s_img, {i: np.full([1, 2, 2, 3], 200, np.uint8)}), 5)
            fw.add_summary(sess.run(s_audio), 6)
            fw.add_session_log(tf.compat.v1.SessionLog(status=tf.compat.v1.SessionLog.CHECKPOINT, checkpoint_path="ckpt-6"), 6)
            meta = tf.compat.v1.RunMetadata()
            meta.step_stats.dev_stats.add(device="/cpu:0")
            fw.add_run_metadata(meta, "step6", 6)
            fw.close()


def write_runs(logdir):
    for run, scale in (("train", 1.0), ("eval/sub", -1.0)):
        w = tf.summary.create_file_writer(os.path.join(logdir, run))
        with w.as_default():
            for s in (0, 10, 20):
                tf.summary.scalar("metric", scale * s / 10.0, step=s)
        w.close()


def value_json(t):
    a = tensor_util.make_ndarray(t)
    if a.dtype == object or a.dtype.kind in "SU":
        vals = [bytes(x).hex() for x in a.reshape(-1)]
    else:
        # Floats as repr() strings: exact, where JSON number parsers may not be.
        vals = [repr(float(x)) if a.dtype.kind == "f" else x.item() for x in a.reshape(-1)]
    return {"dtype": tf.dtypes.as_dtype(t.dtype).name, "shape": list(a.shape), "values": vals}


def expected(logdir):
    mux = pem.EventMultiplexer(size_guidance={"tensors": 0})
    mux.AddRunsFromDirectory(logdir)
    mux.Reload()
    out = {}
    for run, tags in sorted(mux.Runs().items()):
        out[run] = {}
        for tag in sorted(tags["tensors"]):
            # A value written without metadata has none (plugin "", class 0).
            acc = mux.GetAccumulator(run)
            md = acc.summary_metadata.get(tag, summary_pb2.SummaryMetadata())
            events = [
                {"step": e.step, "wall_time": repr(e.wall_time), **value_json(e.tensor_proto)}
                for e in mux.Tensors(run, tag)
            ]
            out[run][tag] = {
                "plugin_name": md.plugin_data.plugin_name,
                "data_class": int(md.data_class),
                "events": events,
            }
    return out


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "tests", "data", "events")
    for name, fn in (("tf2", write_tf2), ("tf1", write_tf1), ("runs", write_runs)):
        d = os.path.join(out, name)
        shutil.rmtree(d, ignore_errors=True)
        fn(d)
        with open(os.path.join(out, f"{name}.json"), "w") as f:
            json.dump(expected(d), f, indent=1, sort_keys=True)
            f.write("\n")
        files = sorted(os.path.relpath(os.path.join(r, n), out) for r, _, ns in os.walk(d) for n in ns)
        print(name, [(p, os.path.getsize(os.path.join(out, p))) for p in files])


if __name__ == "__main__":
    main()
