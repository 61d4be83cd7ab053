#!/usr/bin/env python3
"""A Ray Data pipeline over sharded gzip TFRecords of tf.train.Example, read
through tftensor and through ray.data.read_tfrecords; same map, same
aggregate, results asserted equal, end-to-end times compared. Not run by CI.

Set-up (a venv of its own under target/, so git ignores it; TensorFlow is
there because ray.data.read_tfrecords parses records with tf.train.Example),
from the repository root:

    python3.11 -m venv target/venv-ray
    target/venv-ray/bin/pip install "ray[data]" pyarrow numpy maturin tensorflow-cpu
    v=$PWD/target/venv-ray; (cd python && VIRTUAL_ENV=$v PATH=$v/bin:$PATH \\
        maturin develop --release)
    target/venv-ray/bin/python scripts/check_ray.py [--shards 16] \\
        [--records 4000] [--rounds 3] [--dir /tmp/tftensor-ray]

It writes the shards once (Criteo-like records: an int64 label, 13 int64
features I1..I13, 26 bytes features C1..C26, one value each) under --dir
with TensorFlow's TFRecordWriter, starts a local Ray cluster on this
machine's CPUs, runs one warm-up round of each pipeline, then --rounds
rounds in alternating order, and prints the median times, the CPUs Ray
used and the load average.

The pipeline: read every shard; per row key = label * 8 + I1 % 8 and
x = I1 + ... + I13; then groupby(key) with count and sum(x).
"""

import argparse
import os
import statistics
import sys
import time
from multiprocessing import Pool

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("RAY_DEDUP_LOGS", "0")

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import pyarrow.compute as pc  # noqa: E402

INTS = [f"I{i}" for i in range(1, 14)]
CATS = [f"C{i}" for i in range(1, 27)]


def write_shard(args):
    """Shard `index` of `shards`: `records` Examples, gzip."""
    import tensorflow as tf

    path, index, records = args
    rng = np.random.default_rng(index)
    labels = rng.integers(0, 2, records)
    ints = rng.integers(0, 1 << 20, (records, len(INTS)))
    cats = rng.integers(0, 1 << 32, (records, len(CATS)))
    tmp = path + ".part"
    with tf.io.TFRecordWriter(tmp, options="GZIP") as w:
        for r in range(records):
            f = {"label": tf.train.Feature(int64_list=tf.train.Int64List(value=[labels[r]]))}
            for name, v in zip(INTS, ints[r]):
                f[name] = tf.train.Feature(int64_list=tf.train.Int64List(value=[v]))
            for name, v in zip(CATS, cats[r]):
                f[name] = tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"%08x" % v]))
            w.write(tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString())
    os.replace(tmp, path)
    return path


def make_shards(root, shards, records):
    """The shard paths, written unless already there."""
    os.makedirs(root, exist_ok=True)
    paths = [os.path.join(root, f"part-{i:05d}-of-{shards:05d}-{records}.tfrecord.gz") for i in range(shards)]
    todo = [(p, i, records) for i, p in enumerate(paths) if not os.path.exists(p)]
    if todo:
        t = time.perf_counter()
        with Pool(min(len(todo), os.cpu_count() or 1)) as pool:
            pool.map(write_shard, todo)
        print(f"wrote {len(todo)} shards in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    return paths


# --- the tftensor path: a function from shard paths to Arrow tables ---------


def read_shards(batch):
    """map_batches over rows of paths: each shard's Examples as Arrow
    tables of up to 65536 rows (one Ray block each)."""
    import tftensor

    for path in batch["path"]:
        stream = tftensor.read_examples_arrow(str(path), compression="GZIP", batch_size=65536)
        for b in pa.RecordBatchReader.from_stream(stream):
            yield pa.Table.from_batches([b])


def features_tftensor(t: pa.Table) -> pa.Table:
    """key and x from tfx-bsl-style columns (large_list<int64>, one value)."""
    one = {n: pc.list_flatten(t[n]) for n in ["label"] + INTS}
    return keyed(one)


# --- the ray.data.read_tfrecords path ----------------------------------------


def features_ray(t: pa.Table) -> pa.Table:
    """The same from read_tfrecords' columns (a one-value list is a scalar)."""
    return keyed({n: t[n] for n in ["label"] + INTS})


def keyed(cols) -> pa.Table:
    key = pc.add(pc.multiply(cols["label"], 8), pc.bit_wise_and(cols["I1"], 7))
    x = cols["I1"]
    for n in INTS[1:]:
        x = pc.add(x, cols[n])
    return pa.table({"key": key, "x": x})


def run(ray, how, paths):
    """One end-to-end run: read, map, aggregate; the result as sorted
    (key, count, sum) and the seconds it took."""
    from ray.data.aggregate import Count, Sum

    t = time.perf_counter()
    if how == "tftensor":
        ds = ray.data.from_items([{"path": p} for p in paths], override_num_blocks=len(paths))
        ds = ds.map_batches(read_shards, batch_size=1, batch_format="numpy")
        ds = ds.map_batches(features_tftensor, batch_format="pyarrow", batch_size=None)
    else:
        ds = ray.data.read_tfrecords(paths, arrow_open_stream_args={"compression": "gzip"})
        ds = ds.map_batches(features_ray, batch_format="pyarrow", batch_size=None)
    rows = ds.groupby("key").aggregate(Count(), Sum("x")).take_all()
    seconds = time.perf_counter() - t
    result = sorted((int(r["key"]), int(r["count()"]), int(r["sum(x)"])) for r in rows)
    return result, seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shards", type=int, default=16)
    ap.add_argument("--records", type=int, default=4000, help="records per shard")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--dir", default="/tmp/tftensor-ray")
    args = ap.parse_args()

    paths = make_shards(args.dir, args.shards, args.records)
    mb = sum(os.path.getsize(p) for p in paths) / 1e6

    import ray

    ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    cpus = int(ray.cluster_resources().get("CPU", 0))

    times = {"tftensor": [], "read_tfrecords": []}
    want = None
    for r in range(args.rounds + 1):  # round 0 warms up
        order = list(times) if r % 2 == 0 else list(times)[::-1]
        for how in order:
            result, seconds = run(ray, how, paths)
            if want is None:
                want = result
            assert result == want, f"{how} differs: {result[:3]} vs {want[:3]}"
            print(f"round {r}{' (warm-up)' if r == 0 else ''}: {how} {seconds:.2f} s", file=sys.stderr)
            if r > 0:
                times[how].append(seconds)
    load = open("/proc/loadavg").read().split()[:3]
    ray.shutdown()

    n = args.shards * args.records
    assert sum(c for _, c, _ in want) == n, want
    print(f"{args.shards} gzip shards, {n} Examples (1 label + 13 int64 + 26 bytes features), "
          f"{mb:.1f} MB; Ray {ray.__version__} on {cpus} CPUs; {args.rounds} rounds after a warm-up")
    print(f"results equal: {len(want)} groups, counts sum to {n}")
    # Older Ray had a tfx-bsl fast path behind `tfx_read_options`; say which ran.
    import inspect
    fast = "tfx_read_options" in inspect.signature(ray.data.read_tfrecords).parameters
    print("read_tfrecords path: " + ("tfx-bsl available (not asked for)" if fast else
          "tf.train.Example.ParseFromString + a pyarrow table per record (no tfx-bsl path in this Ray)"))
    print(f"{'pipeline':<34}{'median s':>10}{'Examples/s':>14}  rounds (s)")
    med = {}
    for how, label in [("tftensor", "tftensor.read_examples_arrow"),
                       ("read_tfrecords", "ray.data.read_tfrecords")]:
        med[how] = statistics.median(times[how])
        rounds = " ".join(f"{s:.2f}" for s in times[how])
        print(f"{label:<34}{med[how]:>10.2f}{n / med[how]:>14,.0f}  {rounds}")
    print(f"speed-up: {med['read_tfrecords'] / med['tftensor']:.1f}x; load average {' '.join(load)}")


if __name__ == "__main__":
    main()
