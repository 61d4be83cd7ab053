//! `tftensor::io`: detection, listing without reading data, atomic sinks,
//! copy, and errors as fields. Each fault the CLI and Python met as a new
//! user would has a test here or in `cli/tests/`.

mod blobs;
mod detect;
mod sinks;
mod sources;
mod stores;

use std::path::{Path, PathBuf};

pub fn data(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(rel)
}

/// Copies a fixture directory's files (not recursing) into `to`.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for item in std::fs::read_dir(from).unwrap() {
        let item = item.unwrap();
        if item.file_type().unwrap().is_file() {
            std::fs::copy(item.path(), to.join(item.file_name())).unwrap();
        }
    }
}
