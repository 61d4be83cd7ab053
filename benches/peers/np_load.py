#!/usr/bin/env python3
"""NumPy and safetensors as peers for the `formats` suite: times np.load of
the same 256 MiB float32 .npy the Rust suite reads (written here with
np.save), np.load(mmap_mode="r"), Python's own file read of the same bytes,
and safetensors.numpy.load_file / safe_open of a 256 MiB file of 64 float32
tensors, as benches/formats.rs writes it.

Not run by CI. Needs numpy and safetensors (the TF venv has both):

    python benches/peers/np_load.py [--short] [--dir DIR]

Each figure is the median of `repeats` timed calls after two warm-up calls,
the page cache warm; the best median of --runs passes (most generous).
"""

import argparse
import os
import shutil
import statistics
import tempfile
import time

import numpy as np
import safetensors
import safetensors.numpy

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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--short", action="store_true")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--dir", default=None)
    args = ap.parse_args()
    repeats = 5 if args.short else 15
    nbytes = 256 * MIB
    d = tempfile.mkdtemp(prefix="np-load-", dir=args.dir)
    try:
        npy = os.path.join(d, "big.npy")
        n = nbytes // 4
        np.save(npy, f32_data(n).reshape(n // 256, 256))
        st = os.path.join(d, "big.safetensors")
        per = nbytes // 64 // 4
        safetensors.numpy.save_file({f"layer{i:02}.weight": f32_data(per) for i in range(64)}, st)

        def read_bytes():
            with open(npy, "rb") as f:
                return f.read()

        def st_open():
            with safetensors.safe_open(st, framework="numpy") as f:
                return [f.get_tensor(k) for k in f.keys()]

        cases = [
            ("np.load 256 MiB", lambda: np.load(npy)),
            ("open().read() of the same file", read_bytes),
            ("np.load(mmap_mode='r') 256 MiB", lambda: np.load(npy, mmap_mode="r")),
            ("safetensors.numpy.load_file 256 MiB (64 tensors)", lambda: safetensors.numpy.load_file(st)),
            ("safe_open + get_tensor x64, 256 MiB", st_open),
        ]
        print(f"numpy {np.__version__}, safetensors {safetensors.__version__}; median of {repeats}, best of {args.runs} runs")
        print("| operation | time | GB/s |")
        print("|---|---|---|")
        for name, fn in cases:
            t = min(median_seconds(fn, repeats) for _ in range(args.runs))
            print(f"| {name} | {t * 1e3:.2f} ms | {nbytes / t / 1e9:.2f} |")
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
