//! Error messages: one line that names the file and says what is wrong.

use std::fmt::Display;
use std::path::Path;

/// An error about `path`: `"PATH: what"`. Messages from the library that
/// already name the path (`"PATH: ..."`, possibly after the format's name)
/// are not prefixed twice.
pub fn at(path: &Path, what: impl Display) -> anyhow::Error {
    let shown = path.display().to_string();
    let what = what.to_string();
    if what.contains(&format!("{shown}: ")) {
        anyhow::anyhow!(what)
    } else {
        anyhow::anyhow!("{shown}: {what}")
    }
}

/// An error about tensor `name` in `path`: `"PATH: tensor 'name': what"`,
/// or the library's message as it is when it names both already.
pub fn at_tensor(path: &Path, name: &str, what: impl Display) -> anyhow::Error {
    let what = what.to_string();
    if what.contains(&format!("{}: ", path.display())) && what.contains(name) {
        anyhow::anyhow!(what)
    } else {
        at(path, format!("tensor '{name}': {what}"))
    }
}

/// The whole chain of `err` on one line, for stderr.
pub fn one_line(err: &anyhow::Error) -> String {
    format!("{err:#}").replace(['\n', '\r'], " ")
}
