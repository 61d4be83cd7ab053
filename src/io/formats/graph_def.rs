//! The constants of a frozen `GraphDef` (`*.pb`) as a source: one entry
//! per `Const` node, decoded when read.

use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::io::format::Format;
use crate::io::source::{no_index, Entry, TensorSource};
use crate::saved_model::GraphConstants;
use crate::tensor::Tensor;

pub(crate) struct GraphDef {
    path: PathBuf,
    constants: GraphConstants,
    entries: Vec<Entry>,
}

pub(crate) fn open(path: &Path) -> Result<GraphDef> {
    let constants = GraphConstants::open(path)?;
    let entries = constants
        .entries()
        .iter()
        .map(|c| {
            let mut entry = Entry::new(c.name.clone(), c.dtype, c.shape.clone());
            entry.byte_len = c.byte_len;
            entry
        })
        .collect();
    Ok(GraphDef {
        path: path.to_path_buf(),
        constants,
        entries,
    })
}

impl TensorSource for GraphDef {
    fn format(&self) -> Format {
        Format::GraphDef
    }

    fn path(&self) -> &Path {
        &self.path
    }

    fn entries(&self) -> &[Entry] {
        &self.entries
    }

    fn read(&mut self, index: usize) -> Result<Tensor> {
        let e = self
            .entries
            .get(index)
            .ok_or_else(|| no_index(index, &self.path))?;
        self.constants
            .read(&e.name)
            .map_err(|err| err.with_path(self.path.display()).with_key(&e.name))
    }
}
