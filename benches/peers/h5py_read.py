#!/usr/bin/env python3
"""h5py as the peer of benches/keras.rs: times opening a `.weights.h5` and
reading every dataset (`ds[()]`), and Python's own read of the same bytes,
page cache warm. Not run by CI; needs h5py (the TF venv has it):

    TFTENSOR_BENCH_KEEP=1 TFTENSOR_BENCH_SHORT=1 cargo bench -p tftensor-benches --bench keras   # prints the path
    python benches/peers/h5py_read.py PATH [--repeats N]

Each figure is the median of N timed calls after two warm-up calls.

With --serve, benches/keras.rs runs this as its interleaved peer (set
TFTENSOR_BENCH_H5PY=/path/to/python): each line on stdin asks for one
read of every dataset, answered by a line with its seconds.
"""
import argparse
import os
import statistics
import time

import h5py


def median_seconds(fn, repeats, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def h5py_all(path):
    out = []
    with h5py.File(path, "r") as f:
        f.visititems(lambda k, o: out.append(o[()]) if isinstance(o, h5py.Dataset) else None)
    return out


def py_read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("--repeats", type=int, default=15)
    ap.add_argument("--serve", action="store_true")
    a = ap.parse_args()
    if a.serve:
        import sys

        for _ in sys.stdin:
            t = time.perf_counter()
            h5py_all(a.path)
            print(f"{time.perf_counter() - t:.9f}", flush=True)
        return
    size = os.path.getsize(a.path)
    mib = size / (1 << 20)
    for name, fn in (("h5py_read_all", h5py_all), ("python_read", py_read)):
        s = median_seconds(lambda: fn(a.path), a.repeats)
        print(f"{name}: {s * 1e3:.1f} ms ({mib / s:.0f} MiB/s) for {mib:.0f} MiB")
    print(f"load average: {os.getloadavg()}")


if __name__ == "__main__":
    main()
