#!/usr/bin/env python3
"""tfx-bsl 1.21's schema-less ExamplesToRecordBatchDecoder on the records
benches/arrow.rs writes (target/arrow-bench/{criteo,float180}.tfrecord,
4096 records each): examples/s of DecodeBatch on one thread, the best and
the median of --repeats timings of --runs calls each.

    TFTENSOR_BENCH_SHORT=1 cargo bench -p tftensor-benches --bench arrow
    $PYTHON benches/peers/tfx_bsl_decode.py   # a Python with tfx-bsl==1.21.0
"""

import argparse
import os
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import tensorflow as tf  # noqa: E402
from tfx_bsl.coders import example_coder  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--repeats", type=int, default=7)
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ["criteo", "float180"]:
        path = os.path.join(here, "../../target/arrow-bench", f"{name}.tfrecord")
        records = [r.numpy() for r in tf.data.TFRecordDataset(path)]
        decoder = example_coder.ExamplesToRecordBatchDecoder()
        decoder.DecodeBatch(records)  # warm up
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            for _ in range(args.runs):
                decoder.DecodeBatch(records)
            times.append((time.perf_counter() - t0) / args.runs)
        n = len(records)
        print(f"tfx-bsl {name}: best {n / min(times):,.0f} examples/s, "
              f"median {n / statistics.median(times):,.0f} examples/s ({n} records/batch)")


if __name__ == "__main__":
    main()
