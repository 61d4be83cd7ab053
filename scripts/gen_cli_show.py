#!/usr/bin/env python3
"""Records what TensorFlow 2.21 prints for every tensor of the checkpoint
fixtures (tests/data/checkpoints/), for `tftensor show`'s tests.

Each tensor is restored by TF itself (tf.raw_ops.RestoreV2, so every dtype
stays a TF tensor) and printed with tf.strings.format, which is
SummarizeValue(summarize, print_v2=true). Output: cli/tests/data/show_checkpoints.json
with, per fixture path, per key and per summarize value, TF's text as hex.

Run: /path/to/venv/bin/python scripts/gen_cli_show.py
"""
import json
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
import tensorflow as tf  # noqa: E402

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DATA = os.path.join(ROOT, "tests", "data", "checkpoints")
OUT = os.path.join(ROOT, "cli", "tests", "data", "show_checkpoints.json")
FIXTURES = ["tf2_keras", "saved_model", "tf1_partitioned/model", "sharded/ckpt", "all_dtypes/bundle"]
SUMMARIZE = [3, -1, 1]


def prefix_of(fixture):
    path = os.path.join(DATA, fixture)
    if os.path.isdir(path):
        if os.path.exists(os.path.join(path, "saved_model.pb")):
            return os.path.join(path, "variables", "variables")
        return tf.train.latest_checkpoint(path)
    return path


def main():
    out = {"tensorflow": tf.__version__, "fixtures": {}}
    for fixture in FIXTURES:
        prefix = prefix_of(fixture)
        reader = tf.train.load_checkpoint(prefix)
        dtypes = reader.get_variable_to_dtype_map()
        entry = {}
        for key in sorted(dtypes):
            try:
                (t,) = tf.raw_ops.RestoreV2(
                    prefix=prefix, tensor_names=[key], shape_and_slices=[""], dtypes=[dtypes[key]]
                )
                texts = {str(n): tf.strings.format("{}", t, summarize=n).numpy().hex() for n in SUMMARIZE}
            except Exception as ex:  # noqa: BLE001
                entry[key] = {"tf_error": str(ex).splitlines()[0]}
                continue
            entry[key] = texts
        out["fixtures"][fixture] = entry
    with open(OUT, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    skipped = {f: [k for k, v in e.items() if "tf_error" in v] for f, e in out["fixtures"].items()}
    print("wrote", OUT, "skipped:", {f: k for f, k in skipped.items() if k})


if __name__ == "__main__":
    main()
