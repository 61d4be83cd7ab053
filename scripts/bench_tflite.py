#!/usr/bin/env python3
"""Listing a TFLite model (issue 37), in one run, rounds interleaved:

  - `tftensor inspect PATH` and `tftensor inspect --json PATH` as whole
    processes (wall time; bytes read by strace);
  - in an already-imported Python (TF 2.21): `tf.lite.Interpreter(path)`
    + `get_tensor_details()` (open + list), the same + `allocate_tensors()`
    + `get_tensor` of every tensor, and `flatbuffer_utils.read_model`;

over a ~100 MB model inline (64 float32 tensors, 16-aligned data), the same
in offset mode, and a 2.4 GB offset-mode model whose payloads are holes of a
sparse file (listed by tftensor without reading them; the Python peers read
it whole, so they are left out there unless --huge-peers).

The models come from `examples/tflite_synthetic.rs` (TF's interpreter opens
them). Medians of --rounds; the load average is printed with the table.

    cargo build --release -p tftensor-cli
    cargo build --release --example tflite_synthetic
    .venv-tflite/bin/python scripts/bench_tflite.py
"""
import argparse
import os
import re
import shutil
import statistics
import subprocess
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")


def strace_bytes(cmd):
    if not shutil.which("strace"):
        return None
    log = subprocess.run(
        ["strace", "-f", "-e", "trace=read,pread64,readv,preadv", "-o", "/dev/stderr", *cmd],
        capture_output=True,
        text=True,
    ).stderr
    return sum(int(m.group(1)) for m in re.finditer(r"\) = (\d+)$", log, re.M))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dir", default="/tmp/tftensor-bench-tflite")
    ap.add_argument("--rounds", type=int, default=11)
    ap.add_argument("--cli", default="target/release/tftensor")
    ap.add_argument("--gen", default="target/release/examples/tflite_synthetic")
    ap.add_argument("--huge-peers", action="store_true")
    args = ap.parse_args()

    import tensorflow as tf
    from tensorflow.lite.tools import flatbuffer_utils

    os.makedirs(args.dir, exist_ok=True)
    models = {
        "100 MB inline": ("m100.tflite", ["64", "409600"]),
        "100 MB offset mode": ("m100_off.tflite", ["64", "409600", "offset"]),
        "2.4 GB offset mode, sparse": ("huge_off.tflite", ["40", "15000000", "offset", "sparse"]),
    }
    paths = {}
    for label, (name, gen) in models.items():
        p = os.path.join(args.dir, name)
        if not os.path.exists(p):
            subprocess.run([args.gen, p, *gen], check=True, capture_output=True)
        paths[label] = p

    def interp_list(p):
        return len(tf.lite.Interpreter(model_path=p).get_tensor_details())

    def interp_read(p):
        i = tf.lite.Interpreter(model_path=p)
        i.allocate_tensors()
        return sum(i.get_tensor(d["index"]).nbytes for d in i.get_tensor_details())

    def read_model(p):
        return len(flatbuffer_utils.read_model(p).buffers)

    rows = {("-", "`tftensor --version` (process: start-up alone)"): ("cli", [args.cli, "--version"])}
    for label, p in paths.items():
        rows[(label, "`tftensor inspect` (process)")] = ("cli", [args.cli, "inspect", p])
        rows[(label, "`tftensor inspect --json` (process)")] = ("cli", [args.cli, "inspect", "--json", p])
        if "sparse" not in label or args.huge_peers:
            rows[(label, "Interpreter(path) + get_tensor_details()")] = ("py", lambda p=p: interp_list(p))
            rows[(label, "Interpreter + allocate + get_tensor of every tensor")] = ("py", lambda p=p: interp_read(p))
            rows[(label, "flatbuffer_utils.read_model")] = ("py", lambda p=p: read_model(p))
    times = {k: [] for k in rows}
    for r in range(args.rounds + 1):
        for key, (kind, what) in rows.items():
            t0 = time.perf_counter()
            if kind == "cli":
                subprocess.run(what, check=True, capture_output=True)
            else:
                what()
            if r > 0:  # the first round warms the page cache
                times[key].append(time.perf_counter() - t0)
    print(f"{args.rounds} interleaved rounds (after one warm-up), warm page cache, "
          f"load {os.getloadavg()[0]:.1f}, TF {tf.__version__}")
    print()
    print("| model | call | median | best | bytes read |")
    print("|---|---|---|---|---|")
    for (label, call), ts in times.items():
        kind, what = rows[(label, call)]
        b = strace_bytes(what) if kind == "cli" else None
        print(f"| {label} | {call} | {statistics.median(ts) * 1e3:.2f} ms | {min(ts) * 1e3:.2f} ms | "
              f"{'-' if b is None else f'{b:,}'} |")


if __name__ == "__main__":
    main()
