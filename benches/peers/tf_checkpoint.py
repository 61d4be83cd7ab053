#!/usr/bin/env python3
"""TensorFlow as a peer for suite 6 (checkpoint): writes a float32 bundle of
64 tensors of 16 MiB (1 GiB; --short: 16 tensors, 256 MiB) with
tf.raw_ops.SaveV2, then times `tf.train.load_checkpoint(prefix)` +
`get_tensor` over every key, beside reading the same .data file with
`open().read()` in the same process. Also times SaveV2 itself against
writing the same bytes with `open().write()`.

Not run by CI:

    python benches/peers/tf_checkpoint.py [--short]

Each figure is the median of --repeats timed calls after one warm-up call
(files in the page cache, as in the Rust suite).
"""

import argparse
import os
import shutil
import statistics
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

MIB = 1024 * 1024


def f32_data(n, i):
    # Same values as benches/checkpoint.rs (common::f32_data + i).
    j = np.arange(n, dtype=np.int64)
    return ((j % 1013).astype(np.float32) * np.float32(0.25) - np.float32(100.0) + np.float32(i)).astype(np.float32)


def median_seconds(fn, repeats):
    fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--short", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    count = 16 if args.short else 64
    n = 16 * MIB // 4
    d = tempfile.mkdtemp(prefix="tf-ckpt-bench-")
    try:
        prefix = os.path.join(d, "ckpt")
        names = [f"layer_{i:03d}/kernel/.ATTRIBUTES/VARIABLE_VALUE" for i in range(count)]
        tensors = [tf.constant(f32_data(n, i).reshape(n // 1024, 1024)) for i in range(count)]
        total = count * n * 4

        def save():
            tf.raw_ops.SaveV2(prefix=prefix, tensor_names=names, shape_and_slices=[""] * count, tensors=tensors)

        save()
        data = prefix + ".data-00000-of-00001"
        raw = open(data, "rb").read()

        def load_all():
            r = tf.train.load_checkpoint(prefix)
            return [r.get_tensor(k) for k in names]

        def read_file():
            with open(data, "rb") as f:
                return f.read()

        def write_file():
            with open(os.path.join(d, "plain.bin"), "wb") as f:
                f.write(raw)

        t_load = median_seconds(load_all, args.repeats)
        t_read = median_seconds(read_file, args.repeats)
        t_save = median_seconds(save, args.repeats)
        t_write = median_seconds(write_file, args.repeats)
        gb = total / 1e9
        print(f"TensorFlow {tf.__version__}, {count} x 16 MiB float32 = {total // MIB} MiB")
        print("| operation | TF time | TF GB/s | python file baseline | TF / baseline (bandwidth) |")
        print("|---|---|---|---|---|")
        print(f"| load_checkpoint + get_tensor, all keys | {t_load:.3f} s | {gb / t_load:.2f} | open().read(): {t_read:.3f} s ({gb / t_read:.2f} GB/s) | {t_read / t_load:.2f}x |")
        print(f"| SaveV2 | {t_save:.3f} s | {gb / t_save:.2f} | open().write(): {t_write:.3f} s ({gb / t_write:.2f} GB/s) | {t_write / t_save:.2f}x |")
    finally:
        shutil.rmtree(d)


if __name__ == "__main__":
    main()
