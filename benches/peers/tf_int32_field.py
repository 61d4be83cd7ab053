#!/usr/bin/env python3
"""TensorFlow as a peer for the int32 typed-field rows of suite 3: times TF's
C++ AsProtoField + serialize of an int32 tensor, and tf.io.parse_tensor of a
TensorProto holding the same values in int_val, on the [n / 256, 256]
tensors (64 MiB and 1 MiB) that `benches/proto.rs` (field_direct) uses,
beside a numpy memcpy of the same bytes.

AsProtoField is reached through a TensorList variant: serializing a variant
tensor runs VariantTensorData::ToProto, which writes each element tensor with
Tensor::AsProtoField (int_val varints), then SerializeToString. The list is
built once, outside the timing; its one element is the whole tensor.

Not run by CI. Run:

    python benches/peers/tf_int32_field.py [--short] [--json OUT]

Each figure is the median of `repeats` timed calls after warm-up, the
fastest such median over `--runs` passes (the most generous figure for TF),
eager or tf.function, whichever is faster. `--cpu` times process CPU time
instead of wall time (for a loaded machine, where long calls are preempted).
"""

import argparse
import json
import os
import platform
import statistics
import time

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from tensorflow.core.framework import tensor_pb2  # noqa: E402

MIB = 1024 * 1024


def i32_data(n):
    # Same values as benches/common/mod.rs::i32_data.
    return ((np.arange(n, dtype=np.int64) % 1013) * 31).astype(np.int32)


CLOCK = time.perf_counter


def median_seconds(fn, repeats, warmup=2):
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeats):
        t0 = CLOCK()
        fn()
        times.append(CLOCK() - t0)
    return statistics.median(times)


def bench(nbytes, repeats):
    n = nbytes // 4
    host = i32_data(n).reshape(n // 256, 256)
    t = tf.constant(host)
    lst = tf.raw_ops.TensorListFromTensor(tensor=t[None], element_shape=tf.constant([n // 256, 256]))

    # The int_val form of the tensor, as AsProtoField writes it.
    p = tensor_pb2.TensorProto(dtype=tf.int32.as_datatype_enum)
    for d in host.shape:
        p.tensor_shape.dim.add().size = d
    p.int_val.extend(host.reshape(-1).tolist())
    wire = p.SerializeToString()
    back = tf.io.parse_tensor(wire, tf.int32).numpy()
    assert np.array_equal(back, host)
    # The variant's serialization holds the int_val field of the tensor.
    ser = tf.io.serialize_tensor(lst).numpy()
    assert len(ser) > len(wire) - 64, (len(ser), len(wire))

    ser_fn = tf.function(lambda x: tf.io.serialize_tensor(x))
    par_fn = tf.function(lambda s: tf.io.parse_tensor(s, tf.int32))
    wire_t = tf.constant(wire)
    src = host.reshape(-1).view(np.uint8)
    dst = np.empty_like(src)

    rows = {
        "memcpy": median_seconds(lambda: np.copyto(dst, src), repeats),
        "as_proto_field_serialize_eager": median_seconds(lambda: tf.io.serialize_tensor(lst), repeats),
        "as_proto_field_serialize_function": median_seconds(lambda: ser_fn(lst), repeats),
        "parse_int_val_eager": median_seconds(lambda: tf.io.parse_tensor(wire_t, tf.int32), repeats),
        "parse_int_val_function": median_seconds(lambda: par_fn(wire_t), repeats),
    }
    rows["as_proto_field_serialize"] = min(rows["as_proto_field_serialize_eager"], rows["as_proto_field_serialize_function"])
    rows["parse_int_val"] = min(rows["parse_int_val_eager"], rows["parse_int_val_function"])
    return {"bytes": nbytes, "wire_bytes": len(wire), "seconds": rows}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--short", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--cpu", action="store_true",
                    help="time process CPU time (time.process_time, all threads) instead of wall "
                         "time, as the Rust side does with TFTENSOR_BENCH_CPU_TIME=1")
    args = ap.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    repeats_big, repeats_small = (5, 50) if args.short else (21, 301)
    sizes = {}
    for _ in range(max(1, args.runs)):
        for label, nbytes, repeats in (("64MiB", 64 * MIB, repeats_big), ("1MiB", MIB, repeats_small)):
            r = bench(nbytes, repeats)
            if label in sizes:
                best = sizes[label]["seconds"]
                for k, v in r["seconds"].items():
                    best[k] = min(best[k], v)
            else:
                sizes[label] = r
    clock = "process CPU time" if args.cpu else "wall time"
    print(f"TensorFlow {tf.__version__}, numpy {np.__version__}, Python {platform.python_version()}, {clock}")
    print()
    print("| size | measurement | median | GB/s (tensor bytes) |")
    print("| --- | --- | --- | --- |")
    for label, r in sizes.items():
        for k, s in r["seconds"].items():
            print(f"| {label} | {k} | {s * 1e3:.3f} ms | {r['bytes'] / s / 1e9:.2f} |")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"tensorflow": tf.__version__, "sizes": sizes}, f, indent=2)


if __name__ == "__main__":
    main()
