#!/usr/bin/env python3
"""Checks that TensorFlow reads what tftensor's Arrow write direction wrote.

    cargo run --example arrow_write --features arrow -- target/w.tfrecord.gz
    .venv-check-tf/bin/python scripts/check_arrow_with_tf.py target/w.tfrecord.gz

The file holds the 4 records of tests/data/arrow/kinds.tfrecord (decoded to
a RecordBatch and written back) and 4 records of a [4, 2, 3] float tensor
column `t` (values i * 0.5). Prints "ok" when TF parses both as expected.
"""

import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402


def main():
    path = sys.argv[1]
    here = os.path.dirname(os.path.abspath(__file__))
    original = [r.numpy() for r in tf.data.TFRecordDataset(os.path.join(here, "../tests/data/arrow/kinds.tfrecord"))]
    written = [r.numpy() for r in tf.data.TFRecordDataset(path, compression_type="GZIP")]
    assert len(written) == 8, len(written)
    for a, b in zip(original, written[:4]):
        ea, eb = tf.train.Example.FromString(a), tf.train.Example.FromString(b)
        # An empty Features and none hold the same data.
        assert ea.features == eb.features, (ea, eb)
    parsed = tf.io.parse_example(written[4:], {"t": tf.io.FixedLenFeature([2, 3], tf.float32)})
    want = (np.arange(24, dtype=np.float32) * 0.5).reshape(4, 2, 3)
    assert np.array_equal(parsed["t"].numpy(), want), parsed["t"]
    print("ok: TF reads 8 records; Examples equal the originals; t parses as [4, 2, 3]")


if __name__ == "__main__":
    main()
