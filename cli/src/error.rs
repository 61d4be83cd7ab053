//! Errors: one line on stderr that names the file once and says what is
//! wrong. The library's errors carry their path, key and offset as fields
//! and print them once; the CLI adds them where it knows them
//! ([`at`]) and never writes them into text.

use std::path::Path;

/// `err`, located at tensor `name` of `path` where it does not say already.
pub fn at(path: &Path, name: &str, err: tftensor::Error) -> anyhow::Error {
    anyhow::Error::new(err.with_path(path.display()).with_key(name))
}
