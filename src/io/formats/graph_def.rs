//! The constants of a frozen `GraphDef` (`*.pb`) as a source: one entry
//! per `Const` node, decoded when read.

use std::sync::Arc;

use crate::error::Result;
use crate::io::Blob;
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::{Format, Located, OpenOptions};
use crate::saved_model::{GraphConstants, MetaGraph};
use crate::tensor::Tensor;

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

fn open_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let blob = at.blob(options)?;
    if at.key.ends_with(".meta") {
        return Ok(Box::new(open_meta(blob, at)?));
    }
    let reader = GraphConstants::from_bytes(blob.read_all()?)?;
    Ok(Box::new(listed(reader, at, reader_entries)))
}

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

/// A TF1 `.meta` (a `MetaGraphDef`): its graph's constants, read as a
/// frozen graph's are; its signatures (`saved_model_cli` text) and its
/// collection names come with it.
struct MetaSource {
    graph: MetaGraph,
    constants: GraphConstants,
}

impl ReadEntry for MetaSource {
    fn read_entry(
        &mut self,
        index: usize,
        entry: &Entry,
        on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        self.constants.read_entry(index, entry, on)
    }

    /// The collection names (`collections`, one a line) and the
    /// TensorFlow version that wrote the graph.
    fn metadata(&self) -> Vec<(String, String)> {
        let mut out = vec![(
            "collections".to_owned(),
            self.graph.collection_names().join("\n"),
        )];
        let version = self.graph.tensorflow_version();
        if !version.is_empty() {
            out.push(("tensorflow_version".to_owned(), version.to_owned()));
        }
        out
    }

    fn signatures(&self) -> Option<Result<String>> {
        Some(self.graph.show())
    }
}

fn open_meta(blob: Arc<dyn Blob>, at: &Located) -> Result<Listed<MetaSource>> {
    let graph = MetaGraph::from_blob(blob)?;
    let constants = graph.constants()?;
    Ok(listed(MetaSource { graph, constants }, at, |m| {
        reader_entries(&m.constants)
    }))
}

/// The entries of a graph's constants.
fn reader_entries(reader: &GraphConstants) -> Vec<Entry> {
    reader
        .entries()
        .iter()
        .map(|c| {
            let mut entry = Entry::new(c.name.clone(), c.dtype, c.shape.clone());
            entry.byte_len = c.byte_len;
            entry
        })
        .collect()
}

fn listed<R>(reader: R, at: &Located, entries: impl Fn(&R) -> Vec<Entry>) -> Listed<R> {
    Listed {
        format: Format::GRAPH_DEF,
        path: at.path(),
        entries: entries(&reader),
        reader,
    }
}
