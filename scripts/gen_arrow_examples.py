#!/usr/bin/env python3
"""Writes the fixtures of tests/arrow.rs with TensorFlow 2.21 and tfx-bsl 1.21.

    $PYTHON scripts/gen_arrow_examples.py [OUT_DIR]   # a Python with TF 2.21 and tfx-bsl 1.21

OUT_DIR defaults to tests/data/arrow. Each case is a small batch of
serialized records, written with tf.io.TFRecordWriter as `<case>.tfrecord`
(and GZIP/ZLIB copies of `kinds`), and `<case>.json` with what tfx-bsl's
schema-less decoder returns for the batch: the columns (name, pyarrow type
string, values by row; bytes as "b:<hex>") or the error text.

`spec.tfrecord` / `spec.json` hold tf.io.parse_example's output for a
feature spec (FixedLenFeature with and without defaults, VarLenFeature,
RaggedFeature) and its error texts for wrong lengths and missing features.

Some records are written at the wire level (repeated map keys, two kinds
in one Feature, unpacked floats, unknown fields, garbage) because
tf.train.Example cannot produce them.
"""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import pyarrow as pa  # noqa: E402
import tensorflow as tf  # noqa: E402
from tfx_bsl.coders import example_coder, sequence_example_coder  # noqa: E402


# --- wire-level helpers -------------------------------------------------------
def varint(n):
    n &= (1 << 64) - 1
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def ld(num, payload):
    return varint(num << 3 | 2) + varint(len(payload)) + payload


def entry(key, feature):
    return ld(1, ld(1, key.encode()) + ld(2, feature))


def ints(*v):  # Feature{int64_list}, packed
    return ld(3, ld(1, b"".join(varint(x) for x in v)))


def floats(*v):  # Feature{float_list}, packed
    return ld(2, ld(1, np.array(v, dtype="<f4").tobytes()))


def byts(*v):  # Feature{bytes_list}
    return ld(1, b"".join(ld(1, x) for x in v))


def example(*entries):
    return ld(1, b"".join(entries))


# --- records ------------------------------------------------------------------
def feat(v):
    if v is None:
        return tf.train.Feature()
    kind, vals = v
    if kind == "i":
        return tf.train.Feature(int64_list=tf.train.Int64List(value=vals))
    if kind == "f":
        return tf.train.Feature(float_list=tf.train.FloatList(value=vals))
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=vals))


def ex(**features):
    return tf.train.Example(
        features=tf.train.Features(feature={k: feat(v) for k, v in features.items()})
    ).SerializeToString()


def cases():
    unpacked_floats = ld(2, b"".join(bytes([0x0D]) + np.float32(x).tobytes() for x in [1.5, -2.0]))
    unpacked_ints = ld(3, b"".join(bytes([0x08]) + varint(x) for x in [5, -1]))
    unknown = bytes([0x98, 0x06, 0x01])  # field 99 varint 1
    return {
        # tfx-bsl's README/spec corner batch.
        "corner": [
            ex(a=("i", [1, 2]), b=("f", []), c=("b", [b"x"]), d=None, e=None),
            ex(a=("i", []), c=None, e=("f", [1.5])),
            b"",
        ],
        "kinds": [
            ex(i=("i", [0, -1, 2**63 - 1, -(2**63)]), f=("f", [1.5, -0.0, 3.25e-3]),
               s=("b", [b"", b"\xff\x00", "é".encode()]), B=("i", [7]), **{"é": ("f", [2.0])}),
            ex(i=("i", []), f=("f", []), s=("b", [])),
            ex(s=("b", [b"only"])),
            ex(),
        ],
        "wire": [
            # a repeated key (last wins); two kinds (last wins); unpacked
            # floats and ints; unknown fields; Features given twice (merged).
            example(entry("a", ints(1)), entry("a", ints(7, 8)),
                    entry("k", byts(b"x") + ints(3)),
                    entry("u", unpacked_floats), entry("v", unpacked_ints))
            + unknown + example(entry("w", byts(b"merged"))),
            # the same kind twice in one Feature: merged (values appended).
            example(entry("a", ints(1) + ints(2)), entry("k", ints(4)),
                    entry("u", floats(0.5) + unknown)),
            # an entry without a value: kind unset; without a key: "".
            example(ld(1, ld(1, b"a")), ld(1, ld(2, ints(9)))),
        ],
        "empty": [],
        "empty_records": [b"", b""],
        "conflict": [ex(a=("i", [1])), ex(a=("f", [1.0]))],
        "malformed": [ex(a=("i", [1])), b"\xff\xff\xff"],
        "sequence": sequence_records(),
    }


def sequence_records():
    def fl(*steps):
        return tf.train.FeatureList(feature=[feat(s) for s in steps])

    ex1 = tf.train.SequenceExample(
        context=tf.train.Features(feature={"c": feat(("i", [7]))}),
        feature_lists=tf.train.FeatureLists(feature_list={
            "s": fl(("i", [1, 2]), None, ("i", [])),
            "u": fl(None),
            "c": fl(("b", [b"q"])),
        }),
    )
    ex2 = tf.train.SequenceExample(
        context=tf.train.Features(feature={"c": feat(("i", [8]))}),
        feature_lists=tf.train.FeatureLists(feature_list={"s": fl()}),
    )
    ex3 = tf.train.SequenceExample()
    # a repeated feature_lists key: the last wins.
    dup = ld(2, ld(1, ld(1, b"s") + ld(2, ld(1, ints(5)))) + ld(1, ld(1, b"s") + ld(2, ld(1, ints(6)) + ld(1, ints(7)))))
    return [ex1.SerializeToString(), ex2.SerializeToString(), ex3.SerializeToString(), dup]


# --- expected values ------------------------------------------------------------
def plain(v):
    if isinstance(v, bytes):
        return "b:" + v.hex()
    if isinstance(v, list):
        return [plain(x) for x in v]
    if isinstance(v, dict):
        return {k: plain(x) for k, x in v.items()}
    return v


def decode(name, records):
    if name == "sequence":
        d = sequence_example_coder.SequenceExamplesToRecordBatchDecoder("##SEQUENCE##")
    else:
        d = example_coder.ExamplesToRecordBatchDecoder()
    try:
        batch = d.DecodeBatch(records)
    except Exception as e:  # noqa: BLE001
        return {"error": str(e)}
    return {
        "num_rows": batch.num_rows,
        "columns": [
            {"name": f.name, "type": str(f.type), "values": plain(col.to_pylist())}
            for f, col in zip(batch.schema, batch.columns)
        ],
    }


def write(path, records, ctype=""):
    with tf.io.TFRecordWriter(path, options=tf.io.TFRecordOptions(compression_type=ctype)) as w:
        for r in records:
            w.write(r)


# --- tf.io.parse_example with a feature spec -----------------------------------
def spec_fixture(out):
    records = [
        ex(fi=("i", [1, 2]), ff=("f", [0.5]), fs=("b", [b"x"]), m=("f", [1, 2, 3, 4]),
           vi=("i", [3, 4, 5]), vs=("b", [b"p"]), r=("f", [1.0])),
        ex(fi=("i", [3, 4]), m=("f", [5, 6, 7, 8]), vi=("i", []), r=("f", [])),
        ex(fi=("i", [5, 6]), m=("f", [0, 0, 0, 1]), vs=("b", [b"q", b"r"]),
           r=("f", [2.0, 3.0]), extra=("b", [b"ignored"])),
    ]
    write(os.path.join(out, "spec.tfrecord"), records)
    spec = {
        "fi": tf.io.FixedLenFeature([2], tf.int64),
        "ff": tf.io.FixedLenFeature([], tf.float32, default_value=-1.0),
        "fs": tf.io.FixedLenFeature([], tf.string, default_value=b"none"),
        "m": tf.io.FixedLenFeature([2, 2], tf.float32),
        "vi": tf.io.VarLenFeature(tf.int64),
        "vs": tf.io.VarLenFeature(tf.string),
        "r": tf.io.RaggedFeature(tf.float32),
    }
    try:
        parsed = tf.io.parse_example(records, spec)
        result = {}
        for k, v in parsed.items():
            if isinstance(v, tf.SparseTensor):
                result[k] = {"indices": v.indices.numpy().tolist(), "values": plain(v.values.numpy().tolist()),
                             "dense_shape": v.dense_shape.numpy().tolist()}
            elif isinstance(v, tf.RaggedTensor):
                result[k] = {"values": plain(v.flat_values.numpy().tolist()),
                             "row_splits": v.row_splits.numpy().tolist()}
            else:
                result[k] = {"shape": list(v.shape), "values": plain(v.numpy().reshape(-1).tolist())}
    except Exception as e:  # noqa: BLE001
        result = {"error": str(e)}
    errors = []
    for label, recs, sp in [
        ("wrong_length", records, {"fi": tf.io.FixedLenFeature([3], tf.int64)}),
        ("missing", records, {"ff": tf.io.FixedLenFeature([], tf.float32)}),
        ("wrong_type", records, {"fi": tf.io.FixedLenFeature([2], tf.float32)}),
        ("empty_with_default", [ex(ff=("f", []))], {"ff": tf.io.FixedLenFeature([], tf.float32, default_value=-1.0)}),
        ("empty_scalar", [ex(ff=("f", []))], {"ff": tf.io.FixedLenFeature([], tf.float32)}),
    ]:
        try:
            got = tf.io.parse_example(recs, sp)
            errors.append({"case": label, "ok": {k: plain(v.numpy().reshape(-1).tolist()) for k, v in got.items()}})
        except Exception as e:  # noqa: BLE001
            msg = getattr(e, "message", str(e)).split("\n")[0]
            # Drop the op wrapper: "{{function_node ...}} <text> [Op:ParseExampleV2]".
            msg = msg.split("}} ", 1)[-1].removesuffix(" [Op:ParseExampleV2]")
            errors.append({"case": label, "error": msg})
    with open(os.path.join(out, "spec.json"), "w") as f:
        json.dump({"parsed": result, "errors": errors}, f, indent=1, sort_keys=True)
        f.write("\n")
    print("spec", json.dumps(errors))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "tests/data/arrow"
    os.makedirs(out, exist_ok=True)
    for name, records in cases().items():
        write(os.path.join(out, f"{name}.tfrecord"), records)
        expected = decode(name, records)
        with open(os.path.join(out, f"{name}.json"), "w") as f:
            json.dump(expected, f, indent=1, sort_keys=True)
            f.write("\n")
        print(name, json.dumps(expected)[:300])
    kinds = cases()["kinds"]
    write(os.path.join(out, "kinds.gzip.tfrecord"), kinds, "GZIP")
    write(os.path.join(out, "kinds.zlib.tfrecord"), kinds, "ZLIB")
    spec_fixture(out)

if __name__ == "__main__":
    main()
