#!/usr/bin/env python3
"""TensorFlow as a peer for suite 7 (saved_model): builds the bench's ~100 MiB
SavedModel (tests/data/saved_model/module plus 100 Const nodes of 1 MiB,
`byte_data` as DT_FLOAT tensor_content, the same nodes benches/saved_model.rs
adds) and times, interleaved, in the same run:

* `saved_model_cli show --all --dir D` (TF 2.21's real CLI, a subprocess);
* this crate's `examples/saved_model_show.rs` (`--all` text, and `--list`),
  a subprocess too (build it first: cargo build --release --example saved_model_show);
* in-process, generous to TF: `saved_model_utils.read_saved_model(D)` plus a
  walk over the signatures (the parse alone, no TF import, no printing).

It also checks that both CLIs print the same text (ops line as a set) up to
TF's "Concrete Functions" section. Not run by CI. With the project's TF venv:

    python benches/peers/tf_saved_model_cli.py [--consts 100] [--runs 5]
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
from tensorflow.core.protobuf import saved_model_pb2  # noqa: E402
from tensorflow.python.tools import saved_model_utils  # noqa: E402

MIB = 1024 * 1024
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def byte_data(n):
    # Same bytes as benches/common/mod.rs::byte_data.
    i = np.arange(n, dtype=np.uint64)
    return ((i * np.uint64(31)) >> np.uint64(3)).astype(np.uint8)


def build(d, n):
    sm = saved_model_pb2.SavedModel()
    with open(os.path.join(ROOT, "tests/data/saved_model/module/saved_model.pb"), "rb") as f:
        sm.ParseFromString(f.read())
    content = byte_data(MIB).tobytes()
    g = sm.meta_graphs[0].graph_def
    for i in range(n):
        node = g.node.add(name="big_%d" % i, op="Const")
        node.attr["dtype"].type = 1
        t = node.attr["value"].tensor
        t.dtype = 1
        t.tensor_shape.dim.add(size=MIB // 4)
        t.tensor_content = content
    with open(os.path.join(d, "saved_model.pb"), "wb") as f:
        f.write(sm.SerializeToString())
    return os.path.getsize(os.path.join(d, "saved_model.pb"))


def timed(cmd):
    t = time.perf_counter()
    out = subprocess.run(cmd, capture_output=True, check=True).stdout
    return time.perf_counter() - t, out


def normalize(text):
    text = text.split(b"\nConcrete Functions:")[0]
    lines = []
    for line in text.split(b"\n"):
        key = b" contains the following ops: "
        if line.startswith(b"The MetaGraph with tag set ") and key in line:
            head, ops = line.split(key)
            lines.append((head, frozenset(ops.strip(b"{}").split(b", "))))
        else:
            lines.append((line, None))
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--consts", type=int, default=100)
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    cli = os.path.join(os.path.dirname(sys.executable), "saved_model_cli")
    ours = os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")),
                        "release/examples/saved_model_show")
    d = tempfile.mkdtemp(prefix="tftensor-peer-sm-")
    try:
        size = build(d, args.consts)
        print(f"saved_model.pb: {size} bytes; load average {os.getloadavg()}")
        rows = {"saved_model_cli --all": [], "ours --all": [], "ours --list": [], "TF read_saved_model + walk": []}
        tf_text = ours_text = None
        for r in range(args.runs):
            for name in (list(rows) if r % 2 == 0 else list(reversed(rows))):
                if name == "saved_model_cli --all":
                    t, tf_text = timed([cli, "show", "--all", "--dir", d])
                elif name == "ours --all":
                    t, ours_text = timed([ours, d])
                elif name == "ours --list":
                    t, _ = timed([ours, d, "--list"])
                else:
                    t0 = time.perf_counter()
                    sm = saved_model_utils.read_saved_model(d)
                    n = sum(len(s.inputs) + len(s.outputs) for mg in sm.meta_graphs for s in mg.signature_def.values())
                    t = time.perf_counter() - t0
                    assert n > 0
                rows[name].append(t)
        print("same text (ops as a set):", normalize(tf_text) == normalize(ours_text))
        for name, ts in rows.items():
            print(f"  {name:28s} median {statistics.median(ts) * 1e3:9.1f} ms  min {min(ts) * 1e3:9.1f} ms")
        print(f"load average after: {os.getloadavg()}")
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
