//! `.safetensors` as a source (listed from its header) and a sink.

use std::path::{Path, PathBuf};

use crate::error::Result;
use crate::io::format::Format;
use crate::io::sink::TensorSink;
use crate::io::source::{Entry, Listed, ReadEntry};
use crate::io::staged::StagedFile;
use crate::safetensors as st;
use crate::tensor::Tensor;

/// A `.safetensors` file's tensors: read whole (or mapped) on the first
/// read, then handed out by clone.
pub(crate) struct Safetensors {
    path: PathBuf,
    mmap: bool,
    metadata: Vec<(String, String)>,
    names: Vec<String>,
    loaded: Option<Vec<Tensor>>,
}

/// Lists the file from its header alone.
pub(crate) fn open(path: &Path, mmap: bool) -> Result<Listed<Safetensors>> {
    let header = st::read_header(path)?;
    let entries: Vec<Entry> = header
        .tensors
        .iter()
        .map(|t| Entry::new(t.name.clone(), t.dtype, t.shape.clone()))
        .collect();
    let names = entries.iter().map(|e| e.name.clone()).collect();
    Ok(Listed {
        format: Format::Safetensors,
        path: path.to_path_buf(),
        entries,
        reader: Safetensors {
            path: path.to_path_buf(),
            mmap,
            metadata: header.metadata,
            names,
            loaded: None,
        },
    })
}

impl ReadEntry for Safetensors {
    fn read_entry(
        &mut self,
        index: usize,
        _entry: &Entry,
        _on: &mut dyn FnMut(u64),
    ) -> Result<Tensor> {
        if self.loaded.is_none() {
            let all = if self.mmap {
                // SAFETY: `OpenOptions::with_mmap` (an unsafe fn) is the
                // caller's promise that the file is not changed while mapped.
                unsafe { st::load_mmap(&self.path) }
            } else {
                st::load(&self.path)
            }?;
            // `load` gives file order, as the header listing does; a
            // mismatch means the file changed since it was listed.
            let same = all.len() == self.names.len()
                && all.iter().zip(&self.names).all(|((n, _), name)| n == name);
            if !same {
                return Err(crate::Error::data_loss("changed while being read"));
            }
            self.loaded = Some(all.into_iter().map(|(_, t)| t).collect());
        }
        self.loaded
            .as_ref()
            .and_then(|all| all.get(index))
            .cloned()
            .ok_or_else(|| crate::Error::not_found(format!("no tensor number {index}")))
    }

    fn metadata(&self) -> Vec<(String, String)> {
        self.metadata.clone()
    }
}

/// Collects the tensors (shared, not copied) and writes the file at the
/// end: its header lists every tensor first.
pub(crate) struct SafetensorsSink {
    staged: StagedFile,
    tensors: Vec<(String, Tensor)>,
    metadata: Vec<(String, String)>,
}

impl SafetensorsSink {
    pub(crate) fn create(path: &Path) -> Result<SafetensorsSink> {
        Ok(SafetensorsSink {
            staged: StagedFile::new(path)?,
            tensors: Vec::new(),
            metadata: Vec::new(),
        })
    }
}

impl TensorSink for SafetensorsSink {
    fn format(&self) -> Format {
        Format::Safetensors
    }

    fn set_metadata(&mut self, metadata: &[(String, String)]) {
        self.metadata = metadata.to_vec();
    }

    fn add(&mut self, name: &str, tensor: &Tensor) -> Result<()> {
        self.tensors.push((name.to_string(), tensor.clone()));
        Ok(())
    }

    fn finish(self: Box<Self>) -> Result<()> {
        let dest = self.staged.dest().display().to_string();
        // The crate writes by path; errors name the destination, not the
        // temporary.
        st::save_with_metadata(
            self.staged.path(),
            self.tensors.iter().map(|(n, t)| (n.as_str(), t)),
            &self.metadata,
        )
        .map_err(|e| match e {
            crate::Error::Io { source, .. } => crate::Error::io(&dest, source.get()),
            other => other,
        })?;
        self.staged.commit()
    }
}
