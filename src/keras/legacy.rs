//! Legacy Keras 2 `.h5` (`save_model_to_hdf5`, `save_weights_to_hdf5_group`):
//! the datasets are ordinary (`model_weights/<layer>/<layer>/<w>:0`); what
//! this adds is the metadata in the root and `model_weights` attributes.

use crate::hdf5::{AttrValue, Hdf5File};

/// String attributes of the root and `model_weights`, as `(name, text)`;
/// string lists (`layer_names`, chunked `layer_names0`, …) joined by `\n`.
pub(super) fn metadata(f: &Hdf5File) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for group in ["", "model_weights"] {
        let Some(attrs) = f.group_attrs(group) else {
            continue;
        };
        for (k, v) in attrs {
            let key = if group.is_empty() {
                k.clone()
            } else {
                format!("{group}/{k}")
            };
            match v {
                AttrValue::Str(s) => out.push((key, s.clone())),
                AttrValue::Strs(list) => out.push((key, list.join("\n"))),
                AttrValue::Other => {}
            }
        }
    }
    out
}
