#!/usr/bin/env bash
# The other direction of the TFRecord fixtures: the crate writes TFRecord
# files (tensors and tf.train.Examples, each compression), and the real
# TensorFlow reads them with tf.data.TFRecordDataset + tf.io.parse_tensor /
# tf.io.parse_single_example and compares every value with what the crate
# meant to write (a manifest JSON). Exits non-zero on any mismatch.
#
#   scripts/check_tfrecord_with_tf.sh          # makes .venv-check-tf on first use
#   VENV=/path/to/venv scripts/check_tfrecord_with_tf.sh   # any venv with TF 2.21
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=${VENV:-${TF_VENV:-.venv-check-tf}}
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet 'tensorflow-cpu==2.21.*' numpy
fi
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

TFTENSOR_TFRECORD_OUT="$out" cargo test -q --test formats -- --ignored tfrecord::write_files_for_tf >/dev/null
echo "crate wrote: $(cd "$out" && ls | tr '\n' ' ')"

TF_CPP_MIN_LOG_LEVEL=2 "$VENV/bin/python" - "$out" <<'PY'
import json, os, sys
import numpy as np
import tensorflow as tf

out = sys.argv[1]
manifest = json.load(open(os.path.join(out, "manifest.json")))
failures = 0
print(f"tensorflow {tf.__version__}")
for ctype, suffix in [("", "tfrecord"), ("ZLIB", "zlib.tfrecord"), ("GZIP", "gzip.tfrecord")]:
    label = ctype or "NONE"
    # Tensors: parse_tensor, values and shape; serialize_tensor gives back the same bytes.
    records = [r.numpy() for r in tf.data.TFRecordDataset(os.path.join(out, f"tensors.{suffix}"), compression_type=ctype)]
    ok = 0
    for i, (rec, want) in enumerate(zip(records, manifest["tensors"])):
        dtype = tf.dtypes.as_dtype(want["dtype_enum"])
        t = tf.io.parse_tensor(rec, dtype)
        same = list(t.shape) == want["shape"]
        if dtype == tf.string:
            same &= [s.hex() for s in np.asarray(t.numpy()).reshape(-1).tolist()] == want["strings_hex"]
        else:
            same &= np.ascontiguousarray(t.numpy()).tobytes().hex() == want["content_hex"]
        same &= tf.io.serialize_tensor(t).numpy() == rec
        if same:
            ok += 1
        else:
            failures += 1
            print(f"  MISMATCH {label} tensor {i} ({want['dtype']}): got {t!r}")
    if len(records) != len(manifest["tensors"]):
        failures += 1
        print(f"  MISMATCH {label}: {len(records)} tensor records, expected {len(manifest['tensors'])}")
    print(f"{label:4} tensors:  {ok}/{len(manifest['tensors'])} records parse_tensor to the expected dtype, shape and values "
          f"(serialize_tensor gives the same bytes)")

    # Examples: parse_single_example with VarLenFeature of each feature's dtype.
    records = [r.numpy() for r in tf.data.TFRecordDataset(os.path.join(out, f"examples.{suffix}"), compression_type=ctype)]
    ok = 0
    for i, (rec, want) in enumerate(zip(records, manifest["examples"])):
        spec = {k: tf.io.VarLenFeature({"string": tf.string, "float32": tf.float32, "int64": tf.int64}[v["dtype"]])
                for k, v in want.items()}
        parsed = tf.io.parse_single_example(rec, spec)
        same = True
        for k, v in want.items():
            vals = parsed[k].values.numpy()
            if v["dtype"] == "string":
                same &= [s.hex() for s in vals.tolist()] == v["values_hex"]
            elif v["dtype"] == "float32":
                same &= vals.astype(np.float32).view(np.uint32).tolist() == v["f32_bits"]
            else:
                same &= vals.tolist() == v["values"]
        if same:
            ok += 1
        else:
            failures += 1
            print(f"  MISMATCH {label} example {i}: {parsed}")
    if len(records) != len(manifest["examples"]):
        failures += 1
    print(f"{label:4} examples: {ok}/{len(manifest['examples'])} records parse_single_example to the expected features")
print("OK: TensorFlow read everything the crate wrote" if failures == 0 else f"FAILED: {failures} mismatches")
sys.exit(1 if failures else 0)
PY
