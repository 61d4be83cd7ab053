#!/usr/bin/env python3
"""Header-only listing, side by side in one process (issue 23): the time and
the bytes read (`rchar` from /proc/self/io) to list the tensors of a large
.safetensors and a large .npz, for

  - tftensor.open(path).entries()          (this crate's io layer, via Python)
  - safetensors.safe_open(path, "np").keys()
  - np.load(path).files  (npz)

and the `tftensor inspect --json` process as a whole (wall time; bytes read
by strace when it is installed). Rounds are interleaved; the medians are
printed as a Markdown table. The files are made once under --dir: the
safetensors file sparse (its data is holes, which read as zeros), the npz by
np.savez (real bytes).

Needs a venv with tftensor (python/ci.sh makes target/python-venv),
numpy and safetensors:

    target/python-venv/bin/pip install safetensors
    cargo build --release -p tftensor-cli
    target/python-venv/bin/python scripts/bench_inspect.py --size-gib 4
"""
import argparse
import json
import os
import re
import shutil
import statistics
import struct
import subprocess
import time
import zipfile

import numpy as np


def rchar():
    with open("/proc/self/io") as f:
        return int(re.search(r"rchar: (\d+)", f.read()).group(1))


def make_safetensors(path, n_tensors, tensor_bytes):
    header, offset = {}, 0
    for i in range(n_tensors):
        header[f"layer{i}.weight"] = {
            "dtype": "F32",
            "shape": [tensor_bytes // 4],
            "data_offsets": [offset, offset + tensor_bytes],
        }
        offset += tensor_bytes
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)))
        f.write(text)
        f.truncate(8 + len(text) + offset)


def make_npz(path, n_tensors, tensor_bytes):
    arrays = {f"layer{i}": np.zeros(tensor_bytes // 4, np.float32) for i in range(n_tensors)}
    np.savez(path, **arrays)


def timed(fn):
    before, t0 = rchar(), time.perf_counter()
    out = fn()
    return time.perf_counter() - t0, rchar() - before, out


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
    ap.add_argument("--dir", default="/tmp/tftensor-bench-inspect")
    ap.add_argument("--size-gib", type=float, default=4)
    ap.add_argument("--tensors", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--cli", default="target/release/tftensor")
    args = ap.parse_args()

    import tftensor
    from safetensors import safe_open

    os.makedirs(args.dir, exist_ok=True)
    tensor_bytes = int(args.size_gib * (1 << 30)) // args.tensors // 4 * 4
    st = os.path.join(args.dir, f"big-{args.size_gib}g.safetensors")
    npz = os.path.join(args.dir, f"big-{args.size_gib}g.npz")
    if not os.path.exists(st):
        make_safetensors(st, args.tensors, tensor_bytes)
    if not os.path.exists(npz):
        make_npz(npz, args.tensors, tensor_bytes)

    rows = {
        ("safetensors", "tftensor.open(p).entries()"): lambda: tftensor.open(st).entries(),
        ("safetensors", "safe_open(p).keys()"): lambda: safe_open(st, "np").keys(),
        ("npz", "tftensor.open(p).entries()"): lambda: tftensor.open(npz).entries(),
        ("npz", "np.load(p).files"): lambda: np.load(npz).files,
    }
    cli = os.path.exists(args.cli)
    times = {k: [] for k in rows}
    bytes_read = {}
    for _ in range(args.rounds):
        for key, fn in rows.items():
            dt, nbytes, out = timed(fn)
            assert len(out) == args.tensors, (key, out)
            times[key].append(dt)
            bytes_read[key] = nbytes
        if cli:
            for kind, path in (("safetensors", st), ("npz", npz)):
                t0 = time.perf_counter()
                subprocess.run([args.cli, "inspect", "--json", path], check=True, capture_output=True)
                times.setdefault((kind, "`tftensor inspect --json` (process)"), []).append(
                    time.perf_counter() - t0
                )
    if cli:
        for kind, path in (("safetensors", st), ("npz", npz)):
            bytes_read[(kind, "`tftensor inspect --json` (process)")] = strace_bytes(
                [args.cli, "inspect", "--json", path]
            )
    size = os.path.getsize(st)
    print(f"{args.size_gib} GiB files ({size} bytes safetensors, {os.path.getsize(npz)} bytes npz), "
          f"{args.rounds} interleaved rounds, warm page cache, load {os.getloadavg()[0]:.1f}")
    print()
    print("| file | call | median time | bytes read |")
    print("|---|---|---|---|")
    for (kind, what), ts in times.items():
        b = bytes_read.get((kind, what))
        print(f"| {kind} | {what} | {statistics.median(ts) * 1e3:.2f} ms | "
              f"{'-' if b is None else f'{b:,}'} |")


if __name__ == "__main__":
    main()
