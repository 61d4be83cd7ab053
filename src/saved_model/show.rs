//! `saved_model_cli show` text, as TF 2.21's saved_model_cli.py prints it.

use super::invalid_here;
use super::meta_graph::MetaGraph;
use super::open::SavedModel;
use super::py::{py_str, py_str_list};
use super::signature::{Signature, TensorInfo};
use crate::error::Result;
use crate::pb;
use std::fmt::Write;

impl SavedModel {
    /// `saved_model_cli show --all --dir D`, up to and including the last
    /// ops line: byte-identical to TF 2.21 except that the ops (a Python set,
    /// whose order changes from run to run) are printed sorted. TF's
    /// "Concrete Functions" section, which needs a TF runtime, is left out.
    ///
    /// # Errors
    /// [`Error::InvalidFormat`](crate::Error::InvalidFormat) when a graph
    /// does not decode, or a TensorInfo's dtype has no `DataType` name (TF's
    /// CLI fails with a `KeyError` there).
    pub fn show_all(&self) -> Result<String> {
        let mut out = String::new();
        let mut graphs: Vec<&MetaGraph> = self.meta_graphs().iter().collect();
        // Python's sorted(key=list(tags)): stable, lexicographic by code point.
        graphs.sort_by(|a, b| a.tags().cmp(b.tags()));
        for mg in graphs {
            out.push_str(&mg.show()?);
        }
        Ok(out)
    }

    /// `saved_model_cli show --dir D`: the tag sets.
    pub fn show_tag_sets(&self) -> String {
        let mut sets: Vec<&[String]> = self.tag_sets();
        sets.sort();
        let mut out = String::from("The given SavedModel contains the following tag-sets:\n");
        for tags in sets {
            let mut sorted: Vec<&str> = tags.iter().map(String::as_str).collect();
            sorted.sort_unstable();
            out.push_str(&py_str(&sorted.join(", ")));
            out.push('\n');
        }
        out
    }

    /// `saved_model_cli show --dir D --tag_set T`: the signature keys.
    ///
    /// # Errors
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown tag set.
    pub fn show_signature_keys(&self, tag_set: &str) -> Result<String> {
        let mg = self.meta_graph(tag_set)?;
        let mut out = String::from(
            "The given SavedModel MetaGraphDef contains SignatureDefs with the following keys:\n",
        );
        for key in mg.signatures().keys() {
            let _ = writeln!(out, "SignatureDef key: \"{key}\"");
        }
        Ok(out)
    }

    /// `saved_model_cli show --dir D --tag_set T --signature_def S`.
    ///
    /// # Errors
    /// [`Error::NotFound`](crate::Error::NotFound) for an unknown tag set or
    /// key; [`Error::InvalidFormat`](crate::Error::InvalidFormat) for a dtype
    /// without a name.
    pub fn show_signature(&self, tag_set: &str, key: &str) -> Result<String> {
        let sig = self.meta_graph(tag_set)?.signature(key)?;
        let mut out = String::new();
        write_inputs_outputs(&mut out, sig, 0)?;
        Ok(out)
    }
}

impl MetaGraph {
    /// What `saved_model_cli show --all` prints for this meta graph: its
    /// tag set, its signatures, and the ops its graph uses (sorted).
    ///
    /// # Errors
    /// As [`SavedModel::show_all`].
    ///
    /// ```
    /// use tftensor::saved_model::SavedModel;
    /// let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/saved_model/module");
    /// let text = SavedModel::open(dir)?.meta_graph("serve")?.show()?;
    /// assert!(text.starts_with("\nMetaGraphDef with tag-set: 'serve' contains the following SignatureDefs:"));
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn show(&self) -> Result<String> {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "\nMetaGraphDef with tag-set: '{}' contains the following SignatureDefs:",
            self.tags().join(", ")
        );
        for (key, sig) in self.signatures() {
            let _ = writeln!(out, "\nsignature_def['{key}']:");
            write_inputs_outputs(&mut out, sig, 1)?;
        }
        let ops: Vec<String> = self.ops()?.iter().map(|o| py_str(o)).collect();
        let set = if ops.is_empty() {
            "set()".to_owned()
        } else {
            format!("{{{}}}", ops.join(", "))
        };
        let _ = writeln!(
            out,
            "The MetaGraph with tag set {} contains the following ops: {set}",
            py_str_list(self.tags())
        );
        Ok(out)
    }
}

/// `_show_inputs_outputs_mgd`.
fn write_inputs_outputs(out: &mut String, sig: &Signature, indent: usize) -> Result<()> {
    let p = "  ".repeat(indent);
    let _ = writeln!(
        out,
        "{p}The given SavedModel SignatureDef contains the following input(s):"
    );
    for (key, info) in sig.inputs() {
        let _ = writeln!(out, "{p}  inputs['{key}'] tensor_info:");
        write_tensor_info(out, info, indent + 1)?;
    }
    let _ = writeln!(
        out,
        "{p}The given SavedModel SignatureDef contains the following output(s):"
    );
    for (key, info) in sig.outputs() {
        let _ = writeln!(out, "{p}  outputs['{key}'] tensor_info:");
        write_tensor_info(out, info, indent + 1)?;
    }
    let _ = writeln!(out, "{p}Method name is: {}", sig.method_name());
    Ok(())
}

/// `_print_tensor_info`.
fn write_tensor_info(out: &mut String, info: &TensorInfo, indent: usize) -> Result<()> {
    let q = "  ".repeat(indent);
    let n = info.dtype().as_i32();
    let dtype = pb::DataType::try_from(n)
        .map_err(|_| invalid_here(format!("a TensorInfo's dtype {n} has no DataType name")))?;
    let shape = match info.dims() {
        None => "unknown_rank".to_owned(),
        Some(dims) => {
            let dims: Vec<String> = dims.iter().map(i64::to_string).collect();
            format!("({})", dims.join(", "))
        }
    };
    let _ = writeln!(out, "{q}    dtype: {}", dtype.as_str_name());
    let _ = writeln!(out, "{q}    shape: {shape}");
    let _ = writeln!(out, "{q}    name: {}", info.name());
    Ok(())
}
