#!/usr/bin/env python3
"""Writes the TFRecord fixtures of tests/tfrecord.rs with the real TensorFlow.

    python scripts/gen_tfrecord.py [OUT_DIR]     # a Python with TensorFlow 2.21

OUT_DIR defaults to tests/data/tfrecord. For each of three record sets
(`raw`, `tensors`, `examples`) it writes one file per compression with
tf.io.TFRecordWriter (`<set>.tfrecord`, `<set>.zlib.tfrecord`,
`<set>.gzip.tfrecord`) and `<set>.json` with the expected values, so
`cargo test` needs no Python:

* raw: an empty record, short records, and one 300 KiB record (longer than
  the reader's buffer) whose bytes are `(i * 7 + 3) % 251`.
* tensors: `tf.io.serialize_tensor` of tensors of many dtypes; the JSON has
  each record's bytes, dtype, shape and the values (`tensor.numpy()` bytes,
  or each string's bytes).
* examples: `tf.train.Example` records; the JSON has each record's bytes
  and its features (dtype, values; floats as their f32 bits).
"""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402

COMPRESSIONS = {"": "tfrecord", "ZLIB": "zlib.tfrecord", "GZIP": "gzip.tfrecord"}
LARGE_LEN = 300 * 1024


def large_record():
    i = np.arange(LARGE_LEN, dtype=np.int64)
    return ((i * 7 + 3) % 251).astype(np.uint8).tobytes()


def write_all(out, stem, records):
    for ctype, suffix in COMPRESSIONS.items():
        path = os.path.join(out, f"{stem}.{suffix}")
        with tf.io.TFRecordWriter(path, options=tf.io.TFRecordOptions(compression_type=ctype)) as w:
            for r in records:
                w.write(r)


def tensor_cases():
    f32 = np.array([[1.5, -0.0, np.inf], [-np.inf, np.nan, 3.25e-3]], dtype=np.float32)
    return [
        tf.constant(f32),
        tf.constant([1.0, -2.5, 1e300], dtype=tf.float64),
        tf.constant(-7, dtype=tf.int32),
        tf.constant([np.iinfo(np.int64).min, -1, 0, np.iinfo(np.int64).max], dtype=tf.int64),
        tf.constant([0, 1, 127, 128, 255], dtype=tf.uint8),
        tf.constant([[-128, -1], [0, 127]], dtype=tf.int8),
        tf.constant([-32768, 32767], dtype=tf.int16),
        tf.constant([0, 65535], dtype=tf.uint16),
        tf.constant([0, 4294967295], dtype=tf.uint32),
        tf.constant([0, 18446744073709551615], dtype=tf.uint64),
        tf.constant([True, False, True], dtype=tf.bool),
        tf.constant([0.5, -65504.0], dtype=tf.float16),
        tf.constant([1.0, -3.140625], dtype=tf.bfloat16),
        tf.constant([1 + 2j, -0.5j], dtype=tf.complex64),
        tf.constant([3 - 4j], dtype=tf.complex128),
        tf.constant([b"", b"hello", b"\xff\x00\x80", "h\u00e9llo".encode()], dtype=tf.string),
        tf.constant(b"scalar string", dtype=tf.string),
        tf.zeros([0, 4], dtype=tf.float32),
        tf.reshape(tf.range(24, dtype=tf.int32), [2, 3, 4]),
    ]


def tensor_json(t, record):
    entry = {
        "dtype": t.dtype.name,
        "shape": [int(d) for d in t.shape],
        "record_hex": record.hex(),
    }
    if t.dtype == tf.string:
        entry["strings_hex"] = [s.hex() for s in np.asarray(t.numpy()).reshape(-1).tolist()]
    else:
        entry["content_hex"] = np.ascontiguousarray(t.numpy()).tobytes().hex()
    return entry


def feature(kind, values):
    if kind == "bytes":
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    if kind == "float":
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Feature(int64_list=tf.train.Int64List(value=values))


EXAMPLES = [
    {
        "label": ("int64", [7]),
        "weights": ("float", [0.5, -1.25, 3.0e-5]),
        "name": ("bytes", [b"cat"]),
    },
    {
        "ids": ("int64", []),
        "big": ("int64", [-(2**63), 2**63 - 1]),
        "words": ("bytes", [b"a", b"", b"\xff\xfe"]),
        "score": ("float", [-1.5]),
    },
    {},
]


def example_json(features, record):
    out = {}
    for name, (kind, values) in features.items():
        if kind == "bytes":
            out[name] = {"dtype": "string", "values_hex": [v.hex() for v in values]}
        elif kind == "float":
            bits = np.array(values, dtype=np.float32).view(np.uint32).tolist()
            out[name] = {"dtype": "float", "f32_bits": bits}
        else:
            out[name] = {"dtype": "int64", "values": values}
    return {"record_hex": record.hex(), "features": out}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join("tests", "data", "tfrecord")
    os.makedirs(out, exist_ok=True)
    meta = {"tensorflow": tf.__version__, "generator": "scripts/gen_tfrecord.py"}

    raw = [b"", b"hello", large_record(), b"\x00\x00\x00", b"x" * 1000]
    write_all(out, "raw", raw)
    raw_json = [
        {"pattern": "(i * 7 + 3) % 251", "len": len(r)} if len(r) == LARGE_LEN else {"hex": r.hex()}
        for r in raw
    ]
    with open(os.path.join(out, "raw.json"), "w") as f:
        json.dump({**meta, "records": raw_json}, f, indent=1)

    tensors = tensor_cases()
    records = [tf.io.serialize_tensor(t).numpy() for t in tensors]
    # parse_tensor must give the tensor back, or the fixture is wrong.
    for t, r in zip(tensors, records):
        back = tf.io.parse_tensor(r, t.dtype)
        assert back.shape == t.shape and tf.io.serialize_tensor(back).numpy() == r
    write_all(out, "tensors", records)
    with open(os.path.join(out, "tensors.json"), "w") as f:
        json.dump({**meta, "records": [tensor_json(t, r) for t, r in zip(tensors, records)]}, f, indent=1)

    ex_records = []
    for features in EXAMPLES:
        ex = tf.train.Example(
            features=tf.train.Features(feature={k: feature(kind, v) for k, (kind, v) in features.items()})
        )
        ex_records.append(ex.SerializeToString())
    write_all(out, "examples", ex_records)
    with open(os.path.join(out, "examples.json"), "w") as f:
        json.dump({**meta, "records": [example_json(e, r) for e, r in zip(EXAMPLES, ex_records)]}, f, indent=1)

    for name in sorted(os.listdir(out)):
        print(f"{os.path.join(out, name)}: {os.path.getsize(os.path.join(out, name))} bytes")


if __name__ == "__main__":
    main()
