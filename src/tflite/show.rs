//! A model's signatures and ops as text, in the style of
//! `saved_model_cli show --all`, and its metadata buffers as text.

use std::collections::BTreeSet;
use std::fmt::Write;

use super::dtype::dtype_of;
use super::file::TfliteFile;
use super::model::{Model, OperatorCode, Subgraph};
use super::ops::BUILTIN_OPS;

/// The name an operator code goes by: its builtin name, or its custom
/// code (Flex ops are custom ops named `Flex...`).
///
/// ```
/// let f = tftensor::tflite::TfliteFile::open("tests/data/tflite/float32.tflite")?;
/// let names: Vec<String> = f.model().operator_codes.iter().map(tftensor::tflite::op_name).collect();
/// assert!(names.contains(&"FULLY_CONNECTED".to_string()));
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn op_name(op: &OperatorCode) -> String {
    if let Some(custom) = &op.custom_code {
        return custom.clone();
    }
    usize::try_from(op.builtin_code)
        .ok()
        .and_then(|c| BUILTIN_OPS.get(c))
        .map_or_else(
            || format!("BUILTIN_{}", op.builtin_code),
            |n| (*n).to_string(),
        )
}

/// A signature's tensor, as `saved_model_cli` prints a `TensorInfo`.
fn tensor_info(out: &mut String, kind: &str, key: &str, sub: Option<&Subgraph>, index: u32) {
    let t = sub.and_then(|s| s.tensors.get(index as usize));
    let dtype = t
        .and_then(|t| dtype_of(t.tensor_type))
        .map_or_else(|| "DT_INVALID".to_string(), |d| d.proto_name().to_string());
    let shape = t.map_or_else(
        || "unknown_rank".to_string(),
        |t| {
            let dims = t.shape_signature.as_ref().unwrap_or(&t.shape);
            let parts: Vec<String> = dims.iter().map(i32::to_string).collect();
            match parts.len() {
                1 => format!("({},)", parts.join("")),
                _ => format!("({})", parts.join(", ")),
            }
        },
    );
    let name = t.map_or("", |t| t.name.as_str());
    let _ = writeln!(out, "    {kind}['{key}'] tensor_info:");
    let _ = writeln!(out, "        dtype: {dtype}");
    let _ = writeln!(out, "        shape: {shape}");
    let _ = writeln!(out, "        name: {name}");
}

/// The signatures and ops of `model`.
pub(crate) fn signatures_text(model: &Model) -> String {
    let mut out = String::new();
    out.push_str("\nThe TFLite model contains the following SignatureDefs:\n");
    for sig in &model.signature_defs {
        let sub = model.subgraphs.get(sig.subgraph_index as usize);
        let _ = writeln!(out, "\nsignature_def['{}']:", sig.signature_key);
        out.push_str("  The given TFLite SignatureDef contains the following input(s):\n");
        for (key, index) in &sig.inputs {
            tensor_info(&mut out, "inputs", key, sub, *index);
        }
        out.push_str("  The given TFLite SignatureDef contains the following output(s):\n");
        for (key, index) in &sig.outputs {
            tensor_info(&mut out, "outputs", key, sub, *index);
        }
        let name = sub.map_or("", |s| s.name.as_str());
        let _ = writeln!(out, "  Subgraph is: {} {name}", sig.subgraph_index);
    }
    if model.signature_defs.is_empty() {
        // A model without signatures still has its main graph's inputs
        // and outputs.
        if let Some(sub) = model.subgraphs.first() {
            out.push_str("\nsubgraph 0 (no signature):\n");
            out.push_str("  The subgraph contains the following input(s):\n");
            for &i in &sub.inputs {
                tensor_info(&mut out, "inputs", &i.to_string(), Some(sub), i as u32);
            }
            out.push_str("  The subgraph contains the following output(s):\n");
            for &i in &sub.outputs {
                tensor_info(&mut out, "outputs", &i.to_string(), Some(sub), i as u32);
            }
        }
    }
    let used: BTreeSet<String> = model
        .subgraphs
        .iter()
        .flat_map(|s| s.operators.iter())
        .filter_map(|&i| model.operator_codes.get(i as usize))
        .map(op_name)
        .collect();
    let quoted: Vec<String> = used.iter().map(|n| format!("'{n}'")).collect();
    let _ = writeln!(
        out,
        "The TFLite model contains the following ops: {{{}}}",
        quoted.join(", ")
    );
    out
}

/// The model's metadata as name and text: its version and description,
/// and each metadata buffer (text where it is UTF-8 without control
/// bytes, trailing NULs dropped; else its length and first bytes in hex).
pub(crate) fn metadata_text(file: &TfliteFile) -> Vec<(String, String)> {
    let model = file.model();
    let mut out = vec![
        ("version".to_string(), model.version.to_string()),
        ("description".to_string(), model.description.clone()),
    ];
    for m in &model.metadata {
        let text = match file.metadata_bytes(&m.name) {
            Ok(Some(b)) => {
                let end = b.iter().rposition(|&c| c != 0).map_or(0, |k| k + 1);
                #[expect(
                    clippy::indexing_slicing,
                    reason = "end <= b.len(): rposition's index + 1"
                )]
                let trimmed = &b[..end];
                match std::str::from_utf8(trimmed) {
                    Ok(s) if !s.chars().any(char::is_control) => s.to_string(),
                    _ => {
                        let head: String = b.iter().take(16).map(|c| format!("{c:02x}")).collect();
                        format!("{} bytes: {head}...", b.len())
                    }
                }
            }
            Ok(None) => String::new(),
            Err(e) => format!("unreadable: {e}"),
        };
        out.push((m.name.clone(), text));
    }
    out
}
