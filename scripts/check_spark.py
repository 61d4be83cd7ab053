#!/usr/bin/env python3
"""Runs README's PySpark snippet for real: tftensor inside df.mapInArrow
reads sharded gzip TFRecords of tf.train.Example into a Spark DataFrame,
then a groupBy aggregate is checked against the same computed with
pyarrow alone. Not run by CI.

    target/venv-ray/bin/pip install pyspark      # check_ray.py's venv; and a Java 17+ runtime
    target/venv-ray/bin/python scripts/check_spark.py [--shards 16] \\
        [--records 4000] [--dir /tmp/tftensor-ray]

The shards are check_ray.py's (written there once if missing).

Prints the Spark result's size, whether it equals pyarrow's, and the time.
"""

import argparse
import os
import sys
import time

import pyarrow as pa
import pyarrow.compute as pc

import tftensor
from check_ray import make_shards  # the same shards (written once, with TF)

INTS = [f"I{i}" for i in range(1, 14)]
CATS = [f"C{i}" for i in range(1, 27)]


# --- README's snippet --------------------------------------------------------
# Spark's Arrow columns are list<> and binary, tftensor's (tfx-bsl's)
# large_list<> and large_binary: the batches are cast on the way out.
ARROW = pa.schema([(n, pa.list_(pa.int64())) for n in ["label"] + INTS]
                  + [(n, pa.list_(pa.binary())) for n in CATS])
SPARK = ", ".join([f"{n} array<bigint>" for n in ["label"] + INTS]
                  + [f"{n} array<binary>" for n in CATS])


def read_shards(batches):
    """mapInArrow: RecordBatches of file paths in, Example batches out."""
    for b in batches:
        for path in b.column("path").to_pylist():
            stream = tftensor.read_examples_arrow(path, compression="GZIP", batch_size=65536)
            for rb in pa.RecordBatchReader.from_stream(stream):
                yield rb.select(ARROW.names).cast(ARROW)
# ------------------------------------------------------------------------------


def expected(paths):
    """(key, count, sum(x)) with pyarrow alone."""
    t = pa.concat_tables(
        pa.table(tftensor.read_examples_arrow(p, compression="GZIP")) for p in paths)
    col = {n: pc.list_flatten(t[n]) for n in ["label"] + INTS}
    key = pc.add(pc.multiply(col["label"], 8), pc.bit_wise_and(col["I1"], 7))
    x = col["I1"]
    for n in INTS[1:]:
        x = pc.add(x, col[n])
    g = pa.table({"key": key, "x": x}).group_by("key").aggregate([("x", "count"), ("x", "sum")])
    return sorted(zip(g["key"].to_pylist(), g["x_count"].to_pylist(), g["x_sum"].to_pylist()))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dir", default="/tmp/tftensor-ray")
    ap.add_argument("--shards", type=int, default=16)
    ap.add_argument("--records", type=int, default=4000, help="records per shard")
    args = ap.parse_args()
    paths = make_shards(args.dir, args.shards, args.records)

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # workers import tftensor
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    spark = (SparkSession.builder.master("local[*]").appName("tftensor")
             .config("spark.ui.enabled", "false").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    t = time.perf_counter()
    df = (spark.createDataFrame([(p,) for p in paths], "path string")
          .repartition(len(paths))
          .mapInArrow(read_shards, SPARK))

    keyed = df.selectExpr("label[0] * 8 + (I1[0] & 7) AS key",
                          " + ".join(f"{n}[0]" for n in INTS) + " AS x")
    rows = keyed.groupBy("key").agg(F.count("*").alias("n"), F.sum("x").alias("s")).collect()
    got = sorted((r["key"], r["n"], r["s"]) for r in rows)
    seconds = time.perf_counter() - t
    spark.stop()
    want = expected(paths)
    assert got == want, (got[:3], want[:3])
    n = sum(c for _, c, _ in got)
    print(f"Spark mapInArrow over {len(paths)} shards: {n} Examples, {len(got)} groups, "
          f"equal to pyarrow's; {seconds:.1f} s including the first job's start-up")


if __name__ == "__main__":
    main()
