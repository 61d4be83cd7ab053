#!/usr/bin/env python3
"""Writes the fixtures of tests/arrow_sequence_spec.rs with TensorFlow 2.21:
SequenceExamples written by tf.io.TFRecordWriter and what
tf.io.parse_sequence_example makes of them with context and sequence
feature specs (FixedLenFeature, VarLenFeature, FixedLenSequenceFeature
with and without allow_missing, RaggedFeature), and its error texts.

    python3 scripts/gen_sequence_spec.py [OUT_DIR]

Run with any python3: without TensorFlow it makes its own venv in
.venv-tf-spec/ (ignored by git) from PyPI and runs itself there. OUT_DIR
defaults to tests/data/arrow. It writes `sequence_spec.tfrecord` (the
records), `sequence_spec.json` (the parsed values per record: context
features, each sequence feature's steps, bytes as "b:<hex>") and one
`sequence_spec_<case>.tfrecord` per error case, whose text is in the JSON.
"""

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VENV = os.path.join(ROOT, ".venv-tf-spec")

try:
    import tensorflow as tf  # noqa: E402
except ImportError:
    if sys.prefix == VENV:
        raise
    if not os.path.exists(os.path.join(VENV, "bin", "python")):
        subprocess.check_call([sys.executable, "-m", "venv", VENV])
    subprocess.check_call(
        [os.path.join(VENV, "bin", "pip"), "install", "-q", "tensorflow-cpu==2.21.0"]
    )
    os.execv(os.path.join(VENV, "bin", "python"), [os.path.join(VENV, "bin", "python")] + sys.argv)

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")


def feature(values):
    if values is None:
        return tf.train.Feature()
    if all(isinstance(v, bytes) for v in values) and values:
        return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
    if all(isinstance(v, int) for v in values) and values:
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    return tf.train.Feature(float_list=tf.train.FloatList(value=values))


def typed(kind, values):
    """A Feature of `kind` ("int64", "float", "bytes") even when empty."""
    if kind == "int64":
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))
    if kind == "float":
        return tf.train.Feature(float_list=tf.train.FloatList(value=values))
    return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))


def sequence_example(context, lists):
    """`context`: name -> (kind, values); `lists`: name -> (kind, [steps])."""
    ex = tf.train.SequenceExample()
    for name, (kind, values) in context.items():
        ex.context.feature[name].CopyFrom(typed(kind, values))
    for name, (kind, steps) in lists.items():
        fl = ex.feature_lists.feature_list[name]
        for step in steps:
            fl.feature.add().CopyFrom(typed(kind, step))
    return ex.SerializeToString()


RECORDS = [
    sequence_example(
        {"id": ("int64", [1]), "label": ("float", [0.5]), "tags": ("bytes", [b"a", b"b"])},
        {
            "tok": ("int64", [[1], [2], [3]]),
            "emb": ("float", [[1.0, 2.0], [3.0, 4.0]]),
            "words": ("bytes", [[b"x", b"y"], [b"z"]]),
            "r": ("float", [[0.25], [], [0.5, 0.75]]),
        },
    ),
    sequence_example(
        {"id": ("int64", [2]), "tags": ("bytes", [])},
        {
            "tok": ("int64", [[4]]),
            "words": ("bytes", [[], [b"w"]]),
        },
    ),
    sequence_example(
        {"id": ("int64", [3]), "label": ("float", [1.5])},
        {
            "tok": ("int64", []),
            "emb": ("float", [[5.0, 6.0]]),
            "r": ("float", [[1.0]]),
        },
    ),
    sequence_example(
        {"id": ("int64", [4])},
        {"tok": ("int64", [[5], [6]]), "emb": ("float", [[7.0, 8.0], [9.0, 10.0]])},
    ),
]


def spec():
    context = {
        "id": tf.io.FixedLenFeature([], tf.int64),
        "label": tf.io.FixedLenFeature([], tf.float32, default_value=-1.0),
        "tags": tf.io.VarLenFeature(tf.string),
    }
    sequence = {
        "tok": tf.io.FixedLenSequenceFeature([], tf.int64),
        "emb": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
        "words": tf.io.VarLenFeature(tf.string),
        "r": tf.io.RaggedFeature(tf.float32),
    }
    return context, sequence


def plain(v):
    if isinstance(v, bytes):
        return "b:" + v.hex()
    if isinstance(v, float):
        return float(v)
    return v


def rows_of_sparse(sp, batch):
    """A [batch, steps, values] SparseTensor as per-record lists of steps."""
    shape = sp.dense_shape.numpy().tolist()
    out = [[[] for _ in range(shape[1])] for _ in range(batch)]
    for (i, s, _), v in zip(sp.indices.numpy().tolist(), sp.values.numpy().tolist()):
        out[i][s].append(plain(v))
    return out


def parse_one(record, context, sequence):
    """Parses one record, so each record's steps are its own (no padding)."""
    ctx, seq, lengths = tf.io.parse_sequence_example([record], context, sequence)
    got = {"context": {}, "sequence": {}}
    for name, t in ctx.items():
        if isinstance(t, tf.SparseTensor):
            got["context"][name] = [plain(v) for v in t.values.numpy().tolist()]
        else:
            got["context"][name] = plain(t.numpy().tolist()[0])
    for name, t in seq.items():
        if isinstance(t, tf.SparseTensor):
            steps = rows_of_sparse(t, 1)[0]
        elif isinstance(t, tf.RaggedTensor):
            steps = [[plain(v) for v in step] for step in t.to_list()[0]]
        else:
            n = int(lengths[name].numpy()[0])
            steps = [
                (plain(s) if not isinstance(s, list) else [plain(v) for v in s])
                for s in t.numpy().tolist()[0][:n]
            ]
        got["sequence"][name] = steps
    return got


def write(path, records):
    with tf.io.TFRecordWriter(path) as w:
        for r in records:
            w.write(r)


def error_of(records, context, sequence):
    try:
        tf.io.parse_sequence_example(records, context, sequence)
    except tf.errors.InvalidArgumentError as e:
        # Eager errors wrap the kernel's text: "{{function_node ...}} TEXT [Op:...]".
        text = e.message
        if text.startswith("{{"):
            text = text.split("}} ", 1)[1]
        return text.rsplit(" [Op:", 1)[0]
    raise AssertionError("no error")


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests", "data", "arrow")
    context, sequence = spec()
    write(os.path.join(out, "sequence_spec.tfrecord"), RECORDS)
    parsed = [parse_one(r, context, sequence) for r in RECORDS]
    # The whole batch parses too (TF pads; the per-record values above are
    # what the padding hides).
    tf.io.parse_sequence_example(RECORDS, context, sequence)

    cases = {
        # `tok` is required: not allow_missing.
        "missing": (
            [sequence_example({"id": ("int64", [1])}, {"emb": ("float", [[1.0, 2.0]])})],
            {"id": context["id"]},
            {"tok": sequence["tok"]},
        ),
        # `emb` steps of 1 and 3 values for shape [2]: the total (4) fits
        # the shape, so TF checks each step and names step 0.
        "wrong_length_step": (
            [sequence_example({}, {"emb": ("float", [[1.0], [2.0, 3.0, 4.0]])})],
            {},
            {"emb": sequence["emb"]},
        ),
        # `emb` steps of 2 and 3 values for shape [2]: TF checks the
        # record's total (5) first.
        "wrong_length": (
            [sequence_example({}, {"emb": ("float", [[1.0, 2.0], [1.0, 2.0, 3.0]])})],
            {},
            {"emb": sequence["emb"]},
        ),
        # A scalar sequence feature with a step of two values.
        "wrong_length_scalar": (
            [sequence_example({}, {"tok": ("int64", [[1], [2, 3]])})],
            {},
            {"tok": tf.io.FixedLenSequenceFeature([], tf.int64)},
        ),
        # `tok` steps of floats for an int64 spec.
        "wrong_type": (
            [sequence_example({}, {"tok": ("float", [[1.0]])})],
            {},
            {"tok": sequence["tok"]},
        ),
    }
    errors = []
    for case, (records, ctx, seq) in cases.items():
        write(os.path.join(out, f"sequence_spec_{case}.tfrecord"), records)
        errors.append({"case": case, "error": error_of(records, ctx, seq)})
    with open(os.path.join(out, "sequence_spec.json"), "w") as f:
        json.dump({"tensorflow": tf.__version__, "parsed": parsed, "errors": errors}, f, indent=1)
        f.write("\n")
    print(json.dumps(errors, indent=1))


if __name__ == "__main__":
    main()
