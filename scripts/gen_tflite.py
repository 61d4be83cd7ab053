#!/usr/bin/env python3
"""Makes the TFLite / .task fixtures under tests/data/tflite/ and their
expected values, checked against the real interpreters.

    python3 -m venv .venv-tflite
    .venv-tflite/bin/pip install tensorflow-cpu==2.21.0 ai-edge-litert==2.3.0 \
        ai-edge-quantizer==0.10.0 flatbuffers
    .venv-tflite/bin/pip install --no-deps tensorflowjs==4.22.0
    .venv-tflite/bin/python scripts/gen_tflite.py

Producers: TF 2.21's converter (float32, float16, dynamic-range int8,
full-integer int8 with a representative dataset, 16x8, offset mode,
several signatures, strings/bool/int64 constants) and ai-edge-quantizer
0.10.0 (INT4 blockwise, INT2 channelwise, and automatic offset mode from
256 KiB of packed weights). A `.task` is a STORED zip of two models and a
label file, as MediaPipe bundles them.

The oracle is the interpreter: for every tensor whose buffer holds data
(non-empty `Buffer.data`, `Buffer.offset > 1`), `<model>.json` records
`get_tensor(i, subgraph)` (dtype, shape, sha256 and hex of the bytes) and
`_get_tensor_details(i, subgraph)` field by field (name, index, shape,
shape_signature, dtype, quantization_parameters), with zlib's CRC-32 of
the bytes for `cargo test` (no SHA-256 there). TF 2.21's interpreter
where it reads the model, else ai-edge-litert 2.3's (the INT2 oracle); the
file says which.
"""
import hashlib
import json
import os
import shutil
import sys
import tempfile
import zipfile
import zlib

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
from ai_edge_litert import interpreter as litert  # noqa: E402
from ai_edge_litert import schema_py_generated as schema  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "tflite")


def stored(path):
    """(subgraph, tensor index) of every tensor whose buffer has data."""
    buf = open(path, "rb").read()
    m = schema.Model.GetRootAsModel(buf, 0)
    out = []
    for g in range(m.SubgraphsLength()):
        sg = m.Subgraphs(g)
        for i in range(sg.TensorsLength()):
            t = sg.Tensors(i)
            b = m.Buffers(t.Buffer())
            if b is not None and (b.DataLength() > 0 or b.Offset() > 1):
                out.append((g, i))
    return out


def details_json(d):
    qp = d["quantization_parameters"]
    return {
        "name": d["name"],
        "index": int(d["index"]),
        "shape": [int(x) for x in d["shape"]],
        "shape_signature": [int(x) for x in d["shape_signature"]],
        "dtype": np.dtype(d["dtype"]).name,
        "quantization_parameters": {
            "scales": [float(x) for x in qp["scales"]],
            "zero_points": [int(x) for x in qp["zero_points"]],
            "quantized_dimension": int(qp["quantized_dimension"]),
        },
    }


def record(path, oracle):
    name = os.path.basename(path)
    cls = tf.lite.Interpreter if oracle == "tf" else litert.Interpreter
    interp = cls(model_path=path)
    interp.allocate_tensors()
    tensors = []
    for g, i in stored(path):
        d = details_json(interp._get_tensor_details(i, g))
        v = interp.get_tensor(i, g)
        rec = {"subgraph": g, **d, "value_dtype": v.dtype.name, "value_shape": list(v.shape)}
        if v.dtype.kind in "OSU":
            rec["strings_hex"] = [bytes(s).hex() for s in v.reshape(-1)]
        else:
            raw = np.ascontiguousarray(v).tobytes()
            rec["nbytes"] = len(raw)
            rec["sha256"] = hashlib.sha256(raw).hexdigest()
            rec["crc32"] = zlib.crc32(raw)
            if len(raw) <= 256:
                rec["hex"] = raw.hex()
        tensors.append(rec)
    sigs = {k: {"inputs": sorted(v["inputs"]), "outputs": sorted(v["outputs"])}
            for k, v in interp.get_signature_list().items()}
    exp = {"file": name, "oracle": oracle, "tensors": tensors, "signatures": sigs}
    with open(os.path.join(OUT, name.replace(".tflite", ".json")), "w") as f:
        json.dump(exp, f, indent=1, sort_keys=True)
    print(f"{name}: {os.path.getsize(path)} bytes, {len(tensors)} stored tensors ({oracle})")


class Dense(tf.Module):
    """x @ w + b through relu, and a second signature."""

    def __init__(self, n=32):
        rng = np.random.default_rng(0)
        self.w = tf.Variable(rng.standard_normal((n, n)).astype(np.float32))
        self.b = tf.Variable(rng.standard_normal(n).astype(np.float32))
        self.v = tf.Variable(rng.standard_normal((n, 8)).astype(np.float32))

    @tf.function(input_signature=[tf.TensorSpec([None, 32], tf.float32)])
    def serve(self, x):
        return {"y": tf.nn.relu(tf.matmul(x, self.w) + self.b)}

    @tf.function(input_signature=[tf.TensorSpec([1, 32], tf.float32)])
    def encode(self, x):
        return {"z": tf.matmul(x, self.v)}


def saved_model(tmp, module, signatures):
    d = os.path.join(tmp, "sm")
    if os.path.exists(d):
        shutil.rmtree(d)
    tf.saved_model.save(module, d, signatures=signatures)
    return d


def convert(tmp, name, module, signatures, **opts):
    if len(signatures) > 1:
        # from_saved_model keeps only serving_default (TF 2.21); concrete
        # functions give one signature (and subgraph) each.
        fns = [f.get_concrete_function() for f in signatures.values()]
        conv = tf.lite.TFLiteConverter.from_concrete_functions(fns, module)
    else:
        d = saved_model(tmp, module, signatures)
        conv = tf.lite.TFLiteConverter.from_saved_model(d)
    if opts.get("offset"):
        conv._experimental_use_buffer_offset = True
    if opts.get("float16"):
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        conv.target_spec.supported_types = [tf.float16]
    if opts.get("dynamic"):
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
    if opts.get("full_int8") or opts.get("int16x8"):
        conv.optimizations = [tf.lite.Optimize.DEFAULT]
        rng = np.random.default_rng(1)

        def rep():
            for _ in range(8):
                yield [rng.standard_normal((1, 32)).astype(np.float32)]
        conv.representative_dataset = rep
        if opts.get("full_int8"):
            conv.target_spec.supported_ops = [tf.lite.OpsSet.TFLITE_BUILTINS_INT8]
            conv.inference_input_type = tf.int8
            conv.inference_output_type = tf.int8
        else:
            conv.target_spec.supported_ops = [
                tf.lite.OpsSet.EXPERIMENTAL_TFLITE_BUILTINS_ACTIVATIONS_INT16_WEIGHTS_INT8]
    data = conv.convert()
    path = os.path.join(OUT, name)
    with open(path, "wb") as f:
        f.write(data)
    return path


class Misc(tf.Module):
    """String, bool, int64 and int32 constants."""

    @tf.function(input_signature=[tf.TensorSpec([3], tf.string), tf.TensorSpec([3], tf.int64)])
    def serve(self, s, i):
        eq = tf.equal(s, tf.constant([b"ab", b"", b"\x00c\xff"]))
        both = tf.logical_and(eq, tf.constant([True, False, True]))
        total = i * tf.constant([7, -2, 1 << 40], tf.int64)
        r = tf.reshape(tf.cast(i, tf.float32), tf.constant([1, 3], tf.int32))
        return {"eq": both, "total": total, "r": r}


def quantizer_model(tmp, name, float_path, rec):
    from ai_edge_quantizer import quantizer
    qt = quantizer.Quantizer(float_path)
    qt.load_quantization_recipe(rec)
    res = qt.quantize()
    path = os.path.join(OUT, name)
    if os.path.exists(path):
        os.remove(path)
    res.export_model(path)
    return path


def external():
    """float32.tflite with its largest buffer moved to a file beside it
    (schema 3d's ExternalBuffer, written with LiteRT's schema object API):
    `external.tflite` + `external.bin`, each tensor's bytes those of
    float32.tflite's (recorded in external.json, with whether LiteRT 2.3
    reads the model itself)."""
    import flatbuffers
    src = open(os.path.join(OUT, "float32.tflite"), "rb").read()
    model = schema.ModelT.InitFromObj(schema.Model.GetRootAsModel(src, 0))
    sg = model.subgraphs[0]
    k = max(range(len(sg.tensors)),
            key=lambda i: len(model.buffers[sg.tensors[i].buffer].data if model.buffers[sg.tensors[i].buffer].data is not None else []))
    t = sg.tensors[k]
    data = bytes(bytearray(model.buffers[t.buffer].data))
    pad = b"\0" * 64  # an offset inside the file, 64-aligned as the host wants
    with open(os.path.join(OUT, "external.bin"), "wb") as f:
        f.write(pad + data)
    model.buffers[t.buffer].data = None
    group = schema.ExternalBufferGroupT()
    group.name = "external.bin"
    ext = schema.ExternalBufferT()
    ext.id, ext.group, ext.offset, ext.length = 0x80000000 | 1, 0, len(pad), len(data)
    model.externalBufferGroups, model.externalBuffers = [group], [ext]
    t.externalBuffer = ext.id
    b = flatbuffers.Builder(1024)
    b.Finish(model.Pack(b), file_identifier=b"TFL3")
    path = os.path.join(OUT, "external.tflite")
    with open(path, "wb") as f:
        f.write(b.Output())
    ref = json.load(open(os.path.join(OUT, "float32.json")))
    try:
        i = litert.Interpreter(model_path=path)
        i.allocate_tensors()
        ok = bool(np.array_equal(i.get_tensor(k).reshape(-1).view(np.uint8), np.frombuffer(data, np.uint8)))
        note = f"LiteRT 2.3 reads it: bytes equal {ok}"
    except Exception as e:  # noqa: BLE001 - recorded, not fatal
        note = f"LiteRT 2.3 refuses it: {type(e).__name__}: {e}"
    exp = {"file": "external.tflite", "external_tensor": t.name.decode(), "litert": note,
           "tensors": ref["tensors"]}
    with open(os.path.join(OUT, "external.json"), "w") as f:
        json.dump(exp, f, indent=1, sort_keys=True)
    print("external.tflite:", note)


def main():
    os.makedirs(OUT, exist_ok=True)
    if sys.argv[1:] == ["--external"]:
        return external()
    with tempfile.TemporaryDirectory() as tmp:
        m = Dense()
        one = {"serving_default": m.serve}
        two = {"serving_default": m.serve, "encode": m.encode}
        record(convert(tmp, "float32.tflite", m, one), "tf")
        record(convert(tmp, "float16.tflite", m, one, float16=True), "tf")
        record(convert(tmp, "dynamic_int8.tflite", m, one, dynamic=True), "tf")
        record(convert(tmp, "int8.tflite", m, one, full_int8=True), "tf")
        record(convert(tmp, "int16x8.tflite", m, one, int16x8=True), "tf")
        record(convert(tmp, "offset.tflite", m, one, offset=True), "tf")
        record(convert(tmp, "signatures.tflite", m, two), "tf")
        misc = Misc()
        record(convert(tmp, "misc.tflite", misc, {"serving_default": misc.serve}), "tf")

        from ai_edge_quantizer import recipe
        float_path = os.path.join(OUT, "float32.tflite")
        p = quantizer_model(tmp, "int4_blockwise.tflite", float_path, recipe.dynamic_wi4b32_afp32())
        record(p, "litert")
        p = quantizer_model(tmp, "int2.tflite", float_path, recipe.dynamic_wi2c_afp32())
        record(p, "litert")
        # 256 KiB of packed int8 weights: ai-edge-quantizer's offset mode.
        class Wide(tf.Module):
            def __init__(self):
                self.w = tf.Variable(np.random.default_rng(3).standard_normal((8320, 32)).astype(np.float32))

            @tf.function(input_signature=[tf.TensorSpec([1, 8320], tf.float32)])
            def serve(self, x):
                return {"y": tf.matmul(x, self.w)}
        wide = Wide()
        wide_path = convert(tmp, "wide_float.tflite", wide, {"serving_default": wide.serve})
        p = quantizer_model(tmp, "quantizer_offset.tflite", wide_path, recipe.dynamic_wi8_afp32())
        os.remove(wide_path)
        record(p, "litert")

        # A MediaPipe-style .task: a STORED zip of models and side files.
        task = os.path.join(OUT, "bundle.task")
        with zipfile.ZipFile(task, "w", zipfile.ZIP_STORED) as z:
            z.write(os.path.join(OUT, "float32.tflite"), "detector.tflite")
            z.write(os.path.join(OUT, "int8.tflite"), "classifier.tflite")
            z.writestr("labels.txt", "cat\ndog\n")
        print(f"bundle.task: {os.path.getsize(task)} bytes")
        external()


if __name__ == "__main__":
    sys.exit(main())
