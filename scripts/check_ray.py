#!/usr/bin/env python3
"""A Ray Data pipeline over sharded gzip TFRecords of tf.train.Example, read
through tftensor and through ray.data.read_tfrecords; same map, same
aggregate, results asserted equal, end-to-end times compared. Not run by CI.

Set-up (a venv in the repository, ignored by git; TensorFlow is there
because ray.data.read_tfrecords parses records with tf.train.Example, and
writes the shards):

    python3 -m venv .venv-ray
    .venv-ray/bin/pip install "ray[data]" pyarrow numpy maturin tensorflow-cpu
    (cd python && VIRTUAL_ENV=../.venv-ray PATH=../.venv-ray/bin:$PATH maturin develop --release)
    .venv-ray/bin/python scripts/check_ray.py [--shards 16] [--records 4000] \
        [--rounds 3] [--dir DIR] [--s3]

It writes the shards once (Criteo-like records: an int64 label, 13 int64
features I1..I13, 26 bytes features C1..C26, one value each) under --dir
(default: tftensor-ray in the temporary folder) with TensorFlow's
TFRecordWriter, starts a local Ray cluster on this machine's CPUs, runs
one warm-up round of each pipeline, then --rounds rounds in alternating
order, and prints the median times, the CPUs Ray used and the load
average.

With --s3 the shards are served by an S3 server on 127.0.0.1 (s3s-fs from
.s3s/bin/s3s-fs, built by `cargo install s3s-fs --version 0.14.1 --locked
--features binary --root .s3s`), and both pipelines read them as
s3://tfrecords/... URLs: tftensor configured by the AWS_* environment
(given to Ray's workers), read_tfrecords through a pyarrow S3FileSystem
at the same endpoint.

The pipeline: read every shard; per row key = label * 8 + I1 % 8 and
x = I1 + ... + I13; then groupby(key) with count and sum(x).
"""

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
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


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUCKET = "tfrecords"
KEY, SECRET = "raykey", "raysecret"


class S3sFs:
    """s3s-fs on 127.0.0.1 serving a temporary folder whose folder
    BUCKET holds the shards (s3s-fs's objects are its files)."""

    def __init__(self, paths):
        binary = os.path.join(ROOT, ".s3s", "bin", "s3s-fs")
        if not os.path.exists(binary):
            sys.exit(f"--s3 needs {os.path.relpath(binary, ROOT)}: see this script's doc")
        self.root = tempfile.mkdtemp(prefix="tftensor-ray-s3-")
        os.makedirs(os.path.join(self.root, BUCKET))
        for p in paths:
            shutil.copy(p, os.path.join(self.root, BUCKET, os.path.basename(p)))
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen(
            [binary, "--host", "127.0.0.1", "--port", str(self.port), "--access-key", KEY,
             "--secret-key", SECRET, self.root],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), 0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.env = {"AWS_ENDPOINT_URL": self.endpoint, "AWS_ACCESS_KEY_ID": KEY,
                    "AWS_SECRET_ACCESS_KEY": SECRET, "AWS_REGION": "us-east-1",
                    "AWS_EC2_METADATA_DISABLED": "true"}
        self.urls = [f"s3://{BUCKET}/{os.path.basename(p)}" for p in paths]

    def filesystem(self):
        import pyarrow.fs

        return pyarrow.fs.S3FileSystem(access_key=KEY, secret_key=SECRET, region="us-east-1",
                                       endpoint_override=f"127.0.0.1:{self.port}", scheme="http")

    def close(self):
        self.proc.terminate()
        self.proc.wait(10)
        shutil.rmtree(self.root, ignore_errors=True)


def run(ray, how, paths, fs=None):
    """One end-to-end run: read, map, aggregate; the result as sorted
    (key, count, sum) and the seconds it took."""
    from ray.data.aggregate import Count, Sum

    t = time.perf_counter()
    if how == "tftensor":
        ds = ray.data.from_items([{"path": p} for p in paths], override_num_blocks=len(paths))
        ds = ds.map_batches(read_shards, batch_size=1, batch_format="numpy")
        ds = ds.map_batches(features_tftensor, batch_format="pyarrow", batch_size=None)
    else:
        ds = ray.data.read_tfrecords(paths, filesystem=fs, arrow_open_stream_args={"compression": "gzip"})
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
    ap.add_argument("--dir", default=os.path.join(tempfile.gettempdir(), "tftensor-ray"))
    ap.add_argument("--s3", action="store_true", help="read the shards over s3:// from s3s-fs on 127.0.0.1")
    args = ap.parse_args()

    paths = make_shards(args.dir, args.shards, args.records)
    mb = sum(os.path.getsize(p) for p in paths) / 1e6
    server = S3sFs(paths) if args.s3 else None
    fs = server.filesystem() if server else None
    if server:
        paths = server.urls
        os.environ.update(server.env)

    import ray

    env = {"env_vars": server.env} if server else None
    ray.init(include_dashboard=False, log_to_driver=False, logging_level="ERROR", runtime_env=env)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    cpus = int(ray.cluster_resources().get("CPU", 0))

    times = {"tftensor": [], "read_tfrecords": []}
    want = None
    for r in range(args.rounds + 1):  # round 0 warms up
        order = list(times) if r % 2 == 0 else list(times)[::-1]
        for how in order:
            result, seconds = run(ray, how, paths, fs)
            if want is None:
                want = result
            assert result == want, f"{how} differs: {result[:3]} vs {want[:3]}"
            print(f"round {r}{' (warm-up)' if r == 0 else ''}: {how} {seconds:.2f} s", file=sys.stderr)
            if r > 0:
                times[how].append(seconds)
    load = open("/proc/loadavg").read().split()[:3]
    ray.shutdown()
    if server:
        server.close()

    n = args.shards * args.records
    assert sum(c for _, c, _ in want) == n, want
    where = f"s3:// from s3s-fs on 127.0.0.1 ({paths[0]} ...)" if server else "local files"
    print(f"{args.shards} gzip shards, {n} Examples (1 label + 13 int64 + 26 bytes features), "
          f"{mb:.1f} MB, read from {where}; Ray {ray.__version__} on {cpus} CPUs; "
          f"{args.rounds} rounds after a warm-up")
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
