//! The constants of a frozen `GraphDef` (`*.pb`) as a source: one entry
//! per `Const` node, decoded when read.

use std::path::Path;

use crate::error::Result;
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::{Format, Located, OpenOptions};

impl Format {
    /// The `Const` nodes of a frozen `GraphDef` `.pb`, or of a TF1
    /// `MetaGraphDef` `.meta`; read only.
    pub const GRAPH_DEF: Format = Format::named("graphdef");
}

pub(crate) const ROW: Row = Row {
    extensions: &["meta"],
    sniff,
    ..Row::base(Format::GRAPH_DEF, open_at)
};

/// A `.pb` whose first field is a message (a `GraphDef`'s `node`; a
/// TensorProto opens with its dtype, a varint), or a TF1 `.meta`
/// (a `MetaGraphDef`, whose first field is its `meta_info_def`).
fn sniff(p: &Probe<'_>) -> Option<Certainty> {
    let named = p.name.ends_with(".pb") || p.name.ends_with(".meta");
    (p.is_file() && named && p.head.first() == Some(&0x0a)).then_some(Certainty::Content)
}

fn open_at(at: &Located, _: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    Ok(Box::new(open(&at.local_only()?)?))
}
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

fn open(path: &Path) -> Result<Listed<GraphConstants>> {
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
        format: Format::GRAPH_DEF,
        path: path.to_path_buf(),
        entries,
        reader,
    })
}
