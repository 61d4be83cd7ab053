#!/usr/bin/env python3
"""TensorFlow as a peer for suite 3 (proto): times tf.io.serialize_tensor and
tf.io.parse_tensor in-process on the same 64 MiB and 1 MiB f32 tensors the
Rust `proto` suite uses, beside a numpy memcpy of the same bytes.

Not run by CI. Setup (once):

    python3 -m venv .venv-check-tf && .venv-check-tf/bin/pip install tensorflow-cpu
    .venv-check-tf/bin/python benches/peers/tf_serialize.py [--short] [--json OUT]

Each figure is the median of `repeats` timed calls (after warm-up), and the
fastest such median over `--runs` passes (3 by default). Both the eager ops
and the same ops inside a `tf.function` are timed; the faster of the two is
TF's figure. Both choices are the most generous to TF. Results go to stdout as a
markdown table, and with --json to a file that benches/report.py reads.
"""

import argparse
import json
import os
import platform
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

MIB = 1024 * 1024


def f32_data(n):
    # Same values as benches/common/mod.rs::f32_data.
    i = np.arange(n, dtype=np.int64)
    return ((i % 1013).astype(np.float32) * np.float32(0.25) - np.float32(100.0)).astype(np.float32)


def median_seconds(fn, repeats, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def bench(nbytes, repeats):
    n = nbytes // 4
    # A [rows, 256] matrix, as in the Rust suite.
    host = f32_data(n).reshape(n // 256, 256)
    t = tf.constant(host)
    serialized = tf.io.serialize_tensor(t)
    wire_len = len(serialized.numpy())

    ser_fn = tf.function(lambda x: tf.io.serialize_tensor(x))
    par_fn = tf.function(lambda s: tf.io.parse_tensor(s, tf.float32))

    # Materialize results (`.numpy()` on the string is a copy; avoid it, but
    # make sure the op really ran by touching the output's shape/dtype).
    def eager_ser():
        return tf.io.serialize_tensor(t)

    def graph_ser():
        return ser_fn(t)

    def eager_par():
        return tf.io.parse_tensor(serialized, tf.float32)

    def graph_par():
        return par_fn(serialized)

    src = host.reshape(-1).view(np.uint8)
    dst = np.empty_like(src)

    def memcpy():
        np.copyto(dst, src)

    # Sanity: the round trip gives the same data.
    back = par_fn(serialized).numpy()
    assert back.shape == host.shape and np.array_equal(back, host)

    rows = {}
    rows["memcpy"] = median_seconds(memcpy, repeats)
    rows["serialize_eager"] = median_seconds(eager_ser, repeats)
    rows["serialize_function"] = median_seconds(graph_ser, repeats)
    rows["parse_eager"] = median_seconds(eager_par, repeats)
    rows["parse_function"] = median_seconds(graph_par, repeats)
    rows["serialize"] = min(rows["serialize_eager"], rows["serialize_function"])
    rows["parse"] = min(rows["parse_eager"], rows["parse_function"])
    return {
        "bytes": nbytes,
        "wire_bytes": wire_len,
        "seconds": rows,
        "gb_per_s": {k: nbytes / v / 1e9 for k, v in rows.items()},
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--short", action="store_true", help="fewer repeats")
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--runs", type=int, default=3,
                    help="repeat everything this many times and keep each measurement's fastest median "
                         "(the most generous figure for TF on a shared, noisy machine)")
    args = ap.parse_args()
    repeats_big, repeats_small = (5, 50) if args.short else (21, 301)

    sizes = {}
    for _ in range(max(1, args.runs)):
        for label, nbytes, repeats in (("64MiB", 64 * MIB, repeats_big), ("1MiB", MIB, repeats_small)):
            r = bench(nbytes, repeats)
            if label in sizes:
                best = sizes[label]["seconds"]
                for k, v in r["seconds"].items():
                    best[k] = min(best[k], v)
                sizes[label]["gb_per_s"] = {k: nbytes / v / 1e9 for k, v in best.items()}
            else:
                sizes[label] = r
    results = {
        "tensorflow": tf.__version__,
        "numpy": np.__version__,
        "python": platform.python_version(),
        "runs": args.runs,
        "sizes": sizes,
    }
    print(f"TensorFlow {tf.__version__}, numpy {np.__version__}, Python {platform.python_version()}")
    print()
    print("| size | measurement | median | GB/s | vs numpy memcpy |")
    print("| --- | --- | --- | --- | --- |")
    for label, r in results["sizes"].items():
        mem = r["seconds"]["memcpy"]
        for k, s in r["seconds"].items():
            print(f"| {label} | {k} | {s * 1e6:.1f} µs | {r['gb_per_s'][k]:.2f} | {mem / s:.2f}× |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
