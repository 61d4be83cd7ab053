//! A TF.js graph model's `modelTopology`, a `GraphDef` in protobuf's JSON
//! mapping, back to a `GraphDef`: the nodes with their names and ops, and
//! the `value` and `dtype` attrs of `Const` nodes (all that
//! `GraphConstants` reads), for the graph and its function library.

use serde_json::Value;

use crate::error::{Error, Result};
use crate::pb;

fn bad(what: impl Into<String>) -> Error {
    Error::data_loss(format!("TF.js modelTopology: {}", what.into()))
}

/// The `GraphDef` of a graph model's topology.
pub(crate) fn graph_def(topology: &Value) -> Result<pb::GraphDef> {
    let mut graph = pb::GraphDef {
        node: nodes(topology.get("node"))?,
        ..Default::default()
    };
    if let Some(fns) = topology
        .get("library")
        .and_then(|l| l.get("function"))
        .and_then(Value::as_array)
    {
        let mut library = pb::FunctionDefLibrary::default();
        for f in fns {
            let name = f
                .get("signature")
                .and_then(|s| s.get("name"))
                .and_then(Value::as_str)
                .unwrap_or("");
            library.function.push(pb::FunctionDef {
                signature: Some(pb::OpDef {
                    name: name.to_string(),
                    ..Default::default()
                }),
                node_def: nodes(f.get("nodeDef"))?,
                ..Default::default()
            });
        }
        graph.library = Some(library);
    }
    Ok(graph)
}

fn nodes(list: Option<&Value>) -> Result<Vec<pb::NodeDef>> {
    let Some(list) = list.and_then(Value::as_array) else {
        return Ok(Vec::new());
    };
    list.iter()
        .map(|n| {
            let text = |k: &str| n.get(k).and_then(Value::as_str).unwrap_or("").to_string();
            let mut node = pb::NodeDef {
                name: text("name"),
                op: text("op"),
                ..Default::default()
            };
            if matches!(node.op.as_str(), "Const" | "HostConst") {
                if let Some(t) = n
                    .get("attr")
                    .and_then(|a| a.get("value"))
                    .and_then(|v| v.get("tensor"))
                {
                    let value = pb::AttrValue {
                        value: Some(pb::attr_value::Value::Tensor(tensor(t)?)),
                    };
                    node.attr.insert("value".into(), value);
                }
            }
            Ok(node)
        })
        .collect()
}

/// A `TensorProto` from its JSON mapping.
fn tensor(t: &Value) -> Result<pb::TensorProto> {
    let dtype = t
        .get("dtype")
        .and_then(Value::as_str)
        .unwrap_or("DT_INVALID");
    let dtype = pb::DataType::from_str_name(dtype)
        .ok_or_else(|| bad(format!("an unknown dtype {dtype}")))?;
    let dims = t
        .get("tensorShape")
        .and_then(|s| s.get("dim"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|d| {
            // proto3's JSON mapping leaves a zero size out.
            let size = d.get("size").map_or(Some(0), int);
            size.map(|size| pb::tensor_shape_proto::Dim {
                size,
                ..Default::default()
            })
            .ok_or_else(|| bad("a dimension size that is not an integer"))
        })
        .collect::<Result<Vec<_>>>()?;
    let list = |k: &str| {
        t.get(k)
            .and_then(Value::as_array)
            .map_or(&[][..], Vec::as_slice)
    };
    let floats = |k: &str| {
        list(k)
            .iter()
            .map(|v| match v {
                // proto3's JSON mapping writes non-finite floats as text.
                Value::String(s) => match s.as_str() {
                    "NaN" => Some(f64::NAN),
                    "Infinity" => Some(f64::INFINITY),
                    "-Infinity" => Some(f64::NEG_INFINITY),
                    _ => None,
                },
                _ => v.as_f64(),
            })
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| bad(format!("{k}: a value that is not a number")))
    };
    let ints = |k: &str| {
        list(k)
            .iter()
            .map(int)
            .collect::<Option<Vec<i64>>>()
            .ok_or_else(|| bad(format!("{k}: a value that is not an integer")))
    };
    let b64 = |v: &Value| {
        base64(
            v.as_str()
                .ok_or_else(|| bad("bytes that are not base64 text"))?,
        )
    };
    Ok(pb::TensorProto {
        dtype: dtype as i32,
        tensor_shape: Some(pb::TensorShapeProto {
            dim: dims,
            ..Default::default()
        }),
        tensor_content: t
            .get("tensorContent")
            .map(b64)
            .transpose()?
            // Proto3 JSON leaves out an empty bytes field.
            .unwrap_or_default()
            .into(),
        float_val: floats("floatVal")?.into_iter().map(|v| v as f32).collect(),
        double_val: floats("doubleVal")?,
        int_val: int32s(ints("intVal")?)?,
        half_val: int32s(ints("halfVal")?)?,
        int64_val: ints("int64Val")?,
        bool_val: list("boolVal")
            .iter()
            .map(Value::as_bool)
            .collect::<Option<Vec<bool>>>()
            .ok_or_else(|| bad("boolVal: a value that is not a bool"))?,
        string_val: list("stringVal")
            .iter()
            .map(|v| b64(v).map(Into::into))
            .collect::<Result<_>>()?,
        ..Default::default()
    })
}

/// int32 fields' values, each checked to fit.
fn int32s(v: Vec<i64>) -> Result<Vec<i32>> {
    v.into_iter()
        .map(|x| i32::try_from(x).map_err(|_| bad(format!("{x} does not fit an int32 field"))))
        .collect()
}

/// An int64 written as JSON text (protobuf's JSON mapping) or a number.
fn int(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| v.as_str()?.parse().ok())
}

/// Standard base64 (padding optional).
fn base64(s: &str) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in s.bytes().filter(|&c| c != b'=') {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return Err(bad("bad base64")),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Ok(out)
}
