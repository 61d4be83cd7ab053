//! Error messages: one line that names the file and says what is wrong.

use std::path::Path;

/// A library error about tensor `name` of `path`: the path and key become
/// the error's fields where it has them, else context around it.
pub fn at_tensor(path: &Path, name: &str, err: tftensor::Error) -> anyhow::Error {
    let err = err.with_path(path.display()).with_key(name);
    if err.path().is_some() {
        anyhow::Error::new(err)
    } else {
        anyhow::Error::new(err).context(format!("{}: tensor '{name}'", path.display()))
    }
}

/// The chain of `err` on one line, for stderr. A `tftensor::Error` already
/// writes its cause (an I/O error's text), so the chain stops there.
pub fn one_line(err: &anyhow::Error) -> String {
    let mut parts = Vec::new();
    for e in err.chain() {
        parts.push(e.to_string());
        if e.downcast_ref::<tftensor::Error>().is_some() {
            break;
        }
    }
    parts.join(": ").replace(['\n', '\r'], " ")
}
