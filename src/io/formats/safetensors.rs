//! `.safetensors` as a source (listed from its header) and a sink.

use std::collections::HashMap;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::Arc;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::sink::TensorSink;
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::staged::StagedFile;
use crate::io::{Blob, CreateOptions, Format, Located, OpenOptions};
use crate::safetensors as st;
use crate::shape::TensorShape;
use crate::tensor::Tensor;

impl Format {
    /// A `.safetensors` file.
    pub const SAFETENSORS: Format = Format::named("safetensors");
}

pub(crate) const ROW: Row = Row {
    extensions: &["safetensors"],
    sniff,
    create: Some(create),
    can_hold: st::can_hold,
    ..Row::base(Format::SAFETENSORS, open_at)
};

/// A file that starts with a u64 header length that fits in the file, and
/// the JSON header's `{`.
fn sniff(p: &Probe<'_>) -> Option<Certainty> {
    let len = p.head.get(..8).and_then(|n| <[u8; 8]>::try_from(n).ok());
    let fits = len
        .map(u64::from_le_bytes)
        .and_then(|n| n.checked_add(8))
        .is_some_and(|end| end <= p.len());
    (p.is_file() && fits && p.head.get(8) == Some(&b'{')).then_some(Certainty::Content)
}

/// Lists the file from its header (the first bytes of its blob); each
/// tensor is then read alone, by its range.
fn open_at(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let blob = at.blob(options)?;
    let (header, start) = st::header_of(&*blob)?;
    let entries: Vec<Entry> = header
        .tensors
        .iter()
        .map(|t| Entry::new(t.name.clone(), t.dtype, t.shape.clone()))
        .collect();
    Ok(Box::new(Listed {
        format: Format::SAFETENSORS,
        path: at.path(),
        entries,
        reader: Safetensors {
            blob,
            start,
            tensors: header.tensors,
            metadata: header.metadata,
        },
    }))
}

fn create(at: &Located, options: &CreateOptions) -> Result<Box<dyn TensorSink>> {
    let mut sink = SafetensorsSink::create(&at.local_only()?)?;
    sink.metadata = options.metadata.clone();
    Ok(Box::new(sink))
}

/// A `.safetensors` file's tensors, each read by its own range of the blob
/// when asked for (a slice of a mapped blob: aligned tensors adopted
/// without a copy).
pub(crate) struct Safetensors {
    blob: Arc<dyn Blob>,
    /// Where the data starts.
    start: u64,
    tensors: Vec<st::HeaderTensor>,
    metadata: Vec<(String, String)>,
}

impl ReadEntry for Safetensors {
    fn read_entry(
        &mut self,
        index: usize,
        _entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        let t = self
            .tensors
            .get(index)
            .ok_or_else(|| Error::not_found(format!("no tensor number {index}")))?;
        let (s, e) = t.data_offsets;
        let bytes = self.blob.read_bytes(self.start + s..self.start + e)?;
        st::tensor_of(t, bytes, self.blob.id())
    }

    fn metadata(&self) -> Vec<(String, String)> {
        self.metadata.clone()
    }
}

/// Writes a `.safetensors` file. Planned ([`TensorSink::plan`], as
/// [`copy`](crate::io::copy) does), it writes the header first and each
/// tensor in its place as it is added, so no tensor is held: a large
/// convert reuses one read buffer instead of holding every tensor.
/// Unplanned, it collects the tensors (shared, not copied) and writes the
/// file at the end. Both give [`st::save_with_metadata`]'s bytes.
pub(crate) struct SafetensorsSink {
    staged: StagedFile,
    tensors: Vec<(String, Tensor)>,
    metadata: Vec<(String, String)>,
    /// After a plan: the planned tensors not yet added, and where each goes.
    planned: Option<HashMap<String, (DataType, TensorShape, u64)>>,
}

impl SafetensorsSink {
    fn create(path: &Path) -> Result<SafetensorsSink> {
        Ok(SafetensorsSink {
            staged: StagedFile::new(path)?,
            tensors: Vec::new(),
            metadata: Vec::new(),
            planned: None,
        })
    }

    fn write_at(&mut self, at: u64, bytes: &[u8]) -> std::io::Result<()> {
        let file = self.staged.file();
        file.seek(SeekFrom::Start(at))?;
        file.write_all(bytes)
    }
}

impl TensorSink for SafetensorsSink {
    fn format(&self) -> Format {
        Format::SAFETENSORS
    }

    fn path(&self) -> &Path {
        self.staged.dest()
    }

    fn set_metadata(&mut self, metadata: &[(String, String)]) {
        self.metadata = metadata.to_vec();
    }

    fn plan(&mut self, tensors: &[Entry]) -> Result<()> {
        let dest = self.staged.dest().display().to_string();
        if self.planned.is_some() || !self.tensors.is_empty() {
            return Err(Error::InvalidArgument(
                "safetensors: a plan must come once, before the first tensor".into(),
            ));
        }
        let rows: Vec<_> = tensors
            .iter()
            .map(|e| (e.name.clone(), e.dtype, e.shape.clone()))
            .collect();
        let layout = st::layout(&dest, &rows, &self.metadata)?;
        self.write_at(0, &layout.head)
            .map_err(|e| Error::io(&dest, &e))?;
        self.planned = Some(layout.places);
        Ok(())
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        let Some(planned) = self.planned.as_mut() else {
            self.tensors.push((name.to_string(), tensor.clone()));
            return Ok(());
        };
        let dest = self.staged.dest().display().to_string();
        let (dtype, shape, at) = planned.get(name).cloned().ok_or_else(|| {
            Error::InvalidArgument(format!(
                "safetensors: tensor {name:?} was not planned, or was added twice"
            ))
        })?;
        if tensor.dtype() != dtype || tensor.shape() != &shape {
            return Err(Error::InvalidArgument(format!(
                "safetensors: tensor {name:?} is {} {}, planned as {dtype} {shape}",
                tensor.dtype(),
                tensor.shape()
            )));
        }
        planned.remove(name);
        let data = tensor.tensor_data()?;
        self.write_at(at, data)
            .map_err(|e| Error::io(&dest, &e).with_key(name))
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let dest = self.staged.dest().display().to_string();
        if let Some(planned) = &self.planned {
            if let Some(missing) = planned.keys().min() {
                return Err(Error::InvalidArgument(format!(
                    "safetensors: {} planned tensors were never added, {missing:?} among them",
                    planned.len()
                )));
            }
            return self.staged.commit();
        }
        // The crate writes by path; errors name the destination, not the
        // temporary.
        st::save_with_metadata(
            self.staged.path(),
            self.tensors.iter().map(|(n, t)| (n.as_str(), t)),
            &self.metadata,
        )
        .map_err(|e| match e {
            Error::Io { source, .. } => Error::io(&dest, source),
            other => other,
        })?;
        self.staged.commit()
    }
}
