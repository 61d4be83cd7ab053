#!/usr/bin/env python3
"""Writes the SavedModel .proto files under proto/ from TF 2.21's own descriptors.

The TF wheel ships the compiled descriptors (`*_pb2.py`) but not the `.proto`
sources, so this prints each file back from its `FileDescriptorProto`: same
package, names, numbers, labels, oneofs, maps and packing (comments are not in
descriptors). Run with the TF venv: .venv-check-tf/bin/python scripts/vendor_saved_model_protos.py
"""
import importlib
import os
import sys

from google.protobuf import descriptor_pb2

# Files to vendor (their imports that the crate already has are left alone).
MODULES = [
    "tensorflow.core.protobuf.saved_model_pb2",
    "tensorflow.core.protobuf.meta_graph_pb2",
    "tensorflow.core.protobuf.saver_pb2",
    "tensorflow.core.protobuf.struct_pb2",
    "tensorflow.core.protobuf.saved_object_graph_pb2",
    "tensorflow.core.protobuf.trackable_object_graph_pb2",
    "tensorflow.core.protobuf.fingerprint_pb2",
    "tensorflow.core.framework.graph_pb2",
    "tensorflow.core.framework.graph_debug_info_pb2",
    "tensorflow.core.framework.node_def_pb2",
    "tensorflow.core.framework.attr_value_pb2",
    "tensorflow.core.framework.function_pb2",
    "tensorflow.core.framework.op_def_pb2",
    "tensorflow.core.framework.variable_pb2",
    "tensorflow.core.framework.full_type_pb2",
]

F = descriptor_pb2.FieldDescriptorProto
SCALAR = {
    F.TYPE_DOUBLE: "double", F.TYPE_FLOAT: "float", F.TYPE_INT64: "int64",
    F.TYPE_UINT64: "uint64", F.TYPE_INT32: "int32", F.TYPE_FIXED64: "fixed64",
    F.TYPE_FIXED32: "fixed32", F.TYPE_BOOL: "bool", F.TYPE_STRING: "string",
    F.TYPE_BYTES: "bytes", F.TYPE_UINT32: "uint32", F.TYPE_SFIXED32: "sfixed32",
    F.TYPE_SFIXED64: "sfixed64", F.TYPE_SINT32: "sint32", F.TYPE_SINT64: "sint64",
}


def type_name(f):
    if f.type in (F.TYPE_MESSAGE, F.TYPE_ENUM):
        return f.type_name  # fully qualified, leading dot
    return SCALAR[f.type]


def field_opts(f):
    opts = []
    if f.options.HasField("packed"):
        opts.append("packed = %s" % ("true" if f.options.packed else "false"))
    if f.options.deprecated:
        opts.append("deprecated = true")
    return " [%s]" % ", ".join(opts) if opts else ""


def doc(ind, out, text):
    # Descriptors carry no comments; this line names the TF item so every
    # generated Rust item has a doc (the crate denies missing_docs).
    out.append("%s// %s" % (ind, text))


def print_enum(e, ind, out, scope):
    full = scope + "." + e.name
    doc(ind, out, "TF's enum `%s`." % full)
    out.append("%senum %s {" % (ind, e.name))
    if e.options.allow_alias:
        out.append("%s  option allow_alias = true;" % ind)
    for v in e.value:
        dep = " [deprecated = true]" if v.options.deprecated else ""
        doc(ind + "  ", out, "`%s` = %d." % (v.name, v.number))
        out.append("%s  %s = %d%s;" % (ind, v.name, v.number, dep))
    for r in e.reserved_range:
        out.append("%s  reserved %d to %d;" % (ind, r.start, r.end))
    for n in e.reserved_name:
        out.append('%s  reserved "%s";' % (ind, n))
    out.append("%s}" % ind)


def print_message(m, ind, out, syntax, scope):
    full = scope + "." + m.name
    doc(ind, out, "TF's message `%s`." % full)
    out.append("%smessage %s {" % (ind, m.name))
    maps = {n.name: n for n in m.nested_type if n.options.map_entry}
    for n in m.nested_type:
        if not n.options.map_entry:
            print_message(n, ind + "  ", out, syntax, full)
    for e in m.enum_type:
        print_enum(e, ind + "  ", out, full)
    real_oneofs = {}
    for f in m.field:
        if f.HasField("oneof_index") and not f.proto3_optional:
            real_oneofs.setdefault(f.oneof_index, []).append(f)
    done_oneofs = set()
    for f in m.field:
        if f.HasField("oneof_index") and not f.proto3_optional:
            i = f.oneof_index
            if i in done_oneofs:
                continue
            done_oneofs.add(i)
            doc(ind + "  ", out, "Oneof `%s` of `%s`." % (m.oneof_decl[i].name, full))
            out.append("%s  oneof %s {" % (ind, m.oneof_decl[i].name))
            for g in real_oneofs[i]:
                doc(ind + "    ", out, "Field `%s = %d` of `%s`." % (g.name, g.number, full))
                out.append("%s    %s %s = %d%s;" % (ind, type_name(g), g.name, g.number, field_opts(g)))
            out.append("%s  }" % ind)
            continue
        doc(ind + "  ", out, "Field `%s = %d` of `%s`." % (f.name, f.number, full))
        entry = maps.get(f.type_name.rsplit(".", 1)[-1]) if f.type == F.TYPE_MESSAGE else None
        if entry is not None and f.label == F.LABEL_REPEATED and f.type_name.endswith("." + m.name + "." + entry.name):
            k, v = entry.field[0], entry.field[1]
            out.append("%s  map<%s, %s> %s = %d%s;" % (ind, type_name(k), type_name(v), f.name, f.number, field_opts(f)))
            continue
        if f.label == F.LABEL_REPEATED:
            label = "repeated "
        elif syntax == "proto2":
            label = "required " if f.label == F.LABEL_REQUIRED else "optional "
        elif f.proto3_optional:
            label = "optional "
        else:
            label = ""
        out.append("%s  %s%s %s = %d%s;" % (ind, label, type_name(f), f.name, f.number, field_opts(f)))
    for r in m.reserved_range:
        out.append("%s  reserved %d to %d;" % (ind, r.start, r.end - 1))
    for n in m.reserved_name:
        out.append('%s  reserved "%s";' % (ind, n))
    out.append("%s}" % ind)


def main():
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "proto")
    import tensorflow as tf  # noqa: F401  (registers every descriptor)
    for mod in MODULES:
        d = importlib.import_module(mod).DESCRIPTOR
        fd = descriptor_pb2.FileDescriptorProto()
        d.CopyToProto(fd)
        syntax = fd.syntax or "proto2"
        out = [
            "// Wire-compatible with TensorFlow's %s (TF %s)," % (fd.name, tf.__version__),
            "// printed from TF's own descriptor by scripts/vendor_saved_model_protos.py.",
            "// Names, numbers and packing must not change.",
            'syntax = "%s";' % syntax,
            "",
            "package %s;" % fd.package,
            "",
        ]
        for dep in fd.dependency:
            out.append('import "%s";' % dep)
        if fd.dependency:
            out.append("")
        for e in fd.enum_type:
            print_enum(e, "", out, fd.package)
            out.append("")
        for m in fd.message_type:
            print_message(m, "", out, syntax, fd.package)
            out.append("")
        path = os.path.join(root, fd.name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as fh:
            fh.write("\n".join(out).rstrip() + "\n")
        print("wrote", fd.name, "deps:", list(fd.dependency))


if __name__ == "__main__":
    sys.exit(main())
