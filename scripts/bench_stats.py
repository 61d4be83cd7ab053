#!/usr/bin/env python3
"""`tftensor inspect CKPT --stats` against TF + NumPy on the same checkpoint
(issue 24, goal: at least 2x), interleaved round by round in one run.

    .venv-check-tf/bin/python scripts/bench_stats.py [--mib 256] [--rounds 11]

Needs the release CLI (`cargo build --release` in `cli/`) and TF 2.21. The
checkpoint (float32 variables of 64 MiB each, random normal values) is
written once under $TMPDIR/tftensor-bench-stats-<MiB>/ by TF itself.

* ours: the whole `tftensor inspect PREFIX --stats --json` process (start,
  read every tensor, one pass of min/max/mean/NaN/Inf each, print);
* TF + NumPy, in this process (TF already imported, so its import is not
  counted): `tf.train.load_checkpoint` + `get_tensor` of every variable,
  then NaN and Inf counts and min/max/mean of the finite values with
  NumPy, as a user would write it.

Both see the same page cache (warm after the first round). Prints each
side's median and min, the ratio of medians, the load average, and checks
that both give the same min, max and NaN/Inf counts.
"""

import argparse
import json
import os
import pathlib
import statistics
import subprocess
import tempfile
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLI = ROOT / "target" / "release" / "tftensor"


def make(mib):
    d = pathlib.Path(tempfile.gettempdir()) / f"tftensor-bench-stats-{mib}"
    prefix = d / "ckpt"
    if not (d / "ckpt.index").exists():
        d.mkdir(parents=True, exist_ok=True)
        rng = np.random.default_rng(0)
        n = max(1, mib // 64)
        vs = {f"v{i}": tf.Variable(rng.standard_normal(16 << 20, dtype=np.float32)) for i in range(n)}
        tf.train.Checkpoint(**vs).write(str(prefix))
    return str(prefix)


def ours(prefix):
    t0 = time.perf_counter()
    out = subprocess.run([str(CLI), "inspect", prefix, "--stats", "--json"],
                         check=True, capture_output=True).stdout
    dt = time.perf_counter() - t0
    rows = {t["name"]: t for t in json.loads(out)["tensors"] if "min" in t}
    return dt, {k: (r["min"], r["max"], r["nan"], r["inf"]) for k, r in rows.items()}


def peer(prefix):
    t0 = time.perf_counter()
    r = tf.train.load_checkpoint(prefix)
    out = {}
    for key, dtype in r.get_variable_to_dtype_map().items():
        if dtype == tf.string:
            continue
        a = r.get_tensor(key)
        if a.dtype == np.bool_ or a.size == 0:
            continue
        nan = int(np.count_nonzero(np.isnan(a))) if a.dtype.kind == "f" else 0
        inf = int(np.count_nonzero(np.isinf(a))) if a.dtype.kind == "f" else 0
        f = a[np.isfinite(a)] if (nan or inf) else a
        out[key] = (f.min().item(), f.max().item(), nan, inf)
        f.mean(dtype=np.float64)
    return time.perf_counter() - t0, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=11)
    args = ap.parse_args()
    prefix = make(args.mib)
    a, b, loads = [], [], []
    for i in range(args.rounds + 1):
        ta, sa = ours(prefix)
        tb, sb = peer(prefix)
        if i == 0:  # warm-up round, and the check
            for k, v in sb.items():
                assert sa[k] == v, (k, sa[k], v)
            continue
        a.append(ta)
        b.append(tb)
        loads.append(os.getloadavg()[0])
    ma, mb = statistics.median(a), statistics.median(b)
    print(f"checkpoint: {args.mib} MiB of float32, {len(sa)} tensors, {args.rounds} rounds")
    print(f"tftensor inspect --stats (whole process): median {ma*1e3:.0f} ms, min {min(a)*1e3:.0f} ms")
    print(f"TF load_checkpoint + NumPy stats:         median {mb*1e3:.0f} ms, min {min(b)*1e3:.0f} ms")
    print(f"ratio (TF + NumPy / ours, medians): {mb/ma:.2f}x; load average {min(loads):.1f}-{max(loads):.1f}")
    print("same min, max, NaN and Inf counts: yes")


if __name__ == "__main__":
    main()
