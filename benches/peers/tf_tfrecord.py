#!/usr/bin/env python3
"""TensorFlow as a peer for suite 6 (tfrecord): times tf.data.TFRecordDataset
reading a file of 1 MiB records (1 GiB by default; the same records the Rust
`tfrecord` bench writes), beside a plain Python read of the same file.

Not run by CI. With the project's TF venv:

    python benches/peers/tf_tfrecord.py [--mib 1024] [--runs 3] [--json OUT]

The file is written once with tf.io.TFRecordWriter into a temporary
directory and removed at the end. Each figure is the median of `repeats`
full passes over the file (after one warm-up pass, so the file is in the
page cache, as in the Rust bench), and the fastest median over `--runs`.
TF's figure is the faster of two ways to drain the dataset, both generous to
TF: `ds.reduce` inside a tf.function (no Python per record), and a Python
loop over the eager iterator. Buffer size is TF's default (256 KiB); a
larger one (16 MiB) is also tried and the faster kept.
"""

import argparse
import json
import os
import platform
import shutil
import statistics
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

MIB = 1024 * 1024


def byte_data(n):
    # Same bytes as benches/common/mod.rs::byte_data.
    i = np.arange(n, dtype=np.uint64)
    return ((i * np.uint64(31)) >> np.uint64(3)).astype(np.uint8)


def write_file(path, n):
    base = byte_data(MIB)
    with tf.io.TFRecordWriter(path) as w:
        for i in range(n):
            rec = base.copy()
            rec[:8] = np.frombuffer(np.uint64(i).tobytes(), dtype=np.uint8)
            w.write(rec.tobytes())


def median_seconds(fn, repeats):
    fn()  # warm-up: page cache, graph tracing
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mib", type=int, default=1024, help="file size in MiB (1 MiB records)")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--json", help="also write the results here")
    args = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="tftensor-peer-tfrecord-")
    try:
        path = os.path.join(tmp, "records.tfrecord")
        write_file(path, args.mib)
        nbytes = os.path.getsize(path)

        def python_read():
            with open(path, "rb") as f:
                return len(f.read())

        def reduce_fn(buffer_size):
            ds = tf.data.TFRecordDataset(path, buffer_size=buffer_size)
            f = tf.function(lambda: ds.reduce(tf.constant(0, tf.int64),
                                              lambda acc, r: acc + tf.cast(tf.strings.length(r), tf.int64)))
            return lambda: int(f())

        def eager_loop(buffer_size):
            def run():
                total = 0
                for r in tf.data.TFRecordDataset(path, buffer_size=buffer_size):
                    total += 1
                return total
            return run

        assert reduce_fn(None)() == args.mib * MIB
        rows = {}
        for _ in range(max(1, args.runs)):
            r = {
                "python_read": median_seconds(python_read, args.repeats),
                "tf_reduce_default_buffer": median_seconds(reduce_fn(None), args.repeats),
                "tf_reduce_16MiB_buffer": median_seconds(reduce_fn(16 * MIB), args.repeats),
                "tf_eager_loop_default_buffer": median_seconds(eager_loop(None), args.repeats),
            }
            for k, v in r.items():
                rows[k] = min(rows.get(k, v), v)
        rows["tf_best"] = min(v for k, v in rows.items() if k.startswith("tf_"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"TensorFlow {tf.__version__}, numpy {np.__version__}, Python {platform.python_version()}")
    print(f"file: {args.mib} records of 1 MiB ({nbytes} bytes)")
    print()
    print("| measurement | median | GB/s |")
    print("| --- | --- | --- |")
    for k, s in rows.items():
        print(f"| {k} | {s * 1e3:.1f} ms | {nbytes / s / 1e9:.2f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tensorflow": tf.__version__, "bytes": nbytes, "seconds": rows}, f, indent=2)


if __name__ == "__main__":
    main()
