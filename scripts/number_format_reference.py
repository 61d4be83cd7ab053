#!/usr/bin/env python3
"""Writes and checks tests/data/summary/number_format.json, the reference cases
tests/summary/number_format.rs runs through tftensor's number and string printing.

  printf_g    [f64 bits, precision, C's "%.<precision>g" text]; recomputed
              here with Python's '%.*g', which rounds exactly like glibc.
  tf_float    [f32 bits, TF's text, source dtype]: elements printed in the
              TF 2.21 `summarize` conformance vectors (half, bfloat16 and
              float8 values after their exact widening to f32).
  tf_double   [f64 bits, TF's text]: the same for double.
  tf_strings  [element hex, printed hex]: string elements and the bytes TF
              prints for them (absl::Utf8SafeCEscape, without print_v2's quotes).

The inputs are kept; `printf_g` outputs are recomputed. With --check the
tf_* rows are also compared with what TensorFlow itself prints for a scalar
(`tf.strings.format("{}", x)`, which quotes strings), so the file is checked
against both producers.

Usage (in an environment with numpy, and tensorflow for --check):
  python scripts/number_format_reference.py          # rewrite printf_g
  python scripts/number_format_reference.py --check  # exit 1 on any difference
"""
import json
import pathlib
import struct
import sys

PATH = pathlib.Path(__file__).resolve().parent.parent / "tests/data/summary/number_format.json"


def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", int(bits, 16)))[0]


def f32(bits):
    return struct.unpack("<f", struct.pack("<I", int(bits, 16)))[0]


def printf_g(rows):
    return [[b, p, "%.*g" % (p, f64(b))] for b, p, _ in rows]


def dump(d):
    out = ["{"]
    keys = list(d)
    for i, k in enumerate(keys):
        out.append(f"  {json.dumps(k)}: [")
        rows = d[k]
        out += [f"    {json.dumps(r)}{',' if j < len(rows) - 1 else ''}" for j, r in enumerate(rows)]
        out.append("  ]" + ("," if i < len(keys) - 1 else ""))
    return "\n".join(out + ["}"]) + "\n"


def check_against_tf(d):
    import numpy as np
    import tensorflow as tf

    def show(x):
        return tf.strings.format("{}", x).numpy()

    bad = 0
    for b, want, _ in d["tf_float"]:
        got = show(tf.constant(np.float32(f32(b)), dtype=tf.float32)).decode()
        bad += got != want
    for b, want in d["tf_double"]:
        got = show(tf.constant(np.float64(f64(b)), dtype=tf.float64)).decode()
        bad += got != want
    for elem, want in d["tf_strings"]:
        got = show(tf.constant(bytes.fromhex(elem)))
        bad += got != b'"' + bytes.fromhex(want) + b'"'
    n = len(d["tf_float"]) + len(d["tf_double"]) + len(d["tf_strings"])
    print(f"TensorFlow {tf.__version__}: {n - bad}/{n} tf_* rows match")
    return bad == 0


def main():
    d = json.loads(PATH.read_text())
    fresh = printf_g(d["printf_g"])
    if "--check" in sys.argv:
        same = fresh == d["printf_g"]
        print(f"printf_g: {len(fresh)} rows {'match' if same else 'DIFFER from'} Python's %g")
        ok = check_against_tf(d) and same
        sys.exit(0 if ok else 1)
    d["printf_g"] = fresh
    PATH.write_text(dump(d))
    print(f"wrote {PATH.name}")


if __name__ == "__main__":
    main()
