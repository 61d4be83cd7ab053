//! The constants of a frozen `GraphDef` (`*.pb`) as a source: one entry
//! per `Const` node, decoded when read.

use std::path::Path;

use crate::error::Result;
use crate::io::format::Format;
use crate::io::source::{Entry, Listed, ReadEntry};
use crate::saved_model::GraphConstants;
use crate::tensor::Tensor;

impl ReadEntry for GraphConstants {
    fn read_entry(
        &mut self,
        _index: usize,
        entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        self.read(&entry.name)
    }
}

pub(crate) fn open(path: &Path) -> Result<Listed<GraphConstants>> {
    let reader = GraphConstants::open(path)?;
    let entries = reader
        .entries()
        .iter()
        .map(|c| {
            let mut entry = Entry::new(c.name.clone(), c.dtype, c.shape.clone());
            entry.byte_len = c.byte_len;
            entry
        })
        .collect();
    Ok(Listed {
        format: Format::GraphDef,
        path: path.to_path_buf(),
        entries,
        reader,
    })
}
