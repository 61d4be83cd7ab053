//! MediaPipe `.task` bundles: a zip of `.tflite` models (and vocabularies,
//! labels). Each STORED model is read in place through a [`Window`] over
//! its zip member; a deflated one is inflated once. Entries are named
//! `member.tflite/TENSOR`.

use std::io::Read;
use std::sync::Arc;

use bytes::Bytes;

use super::file::TfliteFile;
use crate::error::{Error, Result};
use crate::io::{Blob, BytesBlob, Entry, Window};
use crate::tensor::Tensor;

/// Deflated members larger than this are refused.
const MAX_INFLATED: u64 = 4 << 30;

/// A `.task` bundle's models.
pub(crate) struct TaskFile {
    /// Each model member: its name and its model.
    members: Vec<(String, TfliteFile)>,
    /// Every entry, with the member and the tensor it reads.
    entries: Vec<(Entry, usize, usize)>,
}

impl TaskFile {
    /// Lists the `.tflite` members of the zip in `blob`.
    pub(crate) fn open(blob: Arc<dyn Blob>) -> Result<TaskFile> {
        let bad = |what: String| Error::data_loss(format!("not a readable .task zip: {what}"));
        let mut zip = zip::ZipArchive::new(blob.reader())
            .map_err(|e| bad(e.to_string()).with_path(blob.id()))?;
        let mut members = Vec::new();
        for i in 0..zip.len() {
            let mut m = zip
                .by_index(i)
                .map_err(|e| bad(e.to_string()).with_path(blob.id()))?;
            let name = m.name().to_string();
            if !name.ends_with(".tflite") || m.is_dir() {
                continue;
            }
            let id = format!("{}/{name}", blob.id());
            let size = m.size();
            let model_blob: Arc<dyn Blob> = match m.compression() {
                zip::CompressionMethod::Stored => {
                    let start = m
                        .data_start()
                        .ok_or_else(|| bad(format!("{name}: no data offset")).with_path(&id))?;
                    Arc::new(Window::new(blob.clone(), start, size, &id)?)
                }
                _ => {
                    if size > MAX_INFLATED || size > m.compressed_size().saturating_mul(1100) {
                        return Err(bad(format!("{name} inflates to {size} bytes")).with_path(id));
                    }
                    let mut data = crate::buffer::try_vec::<u8>(size as usize)?;
                    m.by_ref()
                        .take(size)
                        .read_to_end(&mut data)
                        .map_err(|e| bad(format!("{name}: {e}")).with_path(&id))?;
                    Arc::new(BytesBlob::new(&id, Bytes::from(data)))
                }
            };
            members.push((name, TfliteFile::from_blob(model_blob)?));
        }
        let mut entries = Vec::new();
        for (k, (name, model)) in members.iter().enumerate() {
            for (t, te) in model.tensors().iter().enumerate() {
                let mut e = te.entry.clone();
                e.name = format!("{name}/{}", e.name);
                if let Some(b) = e.quantization.as_mut().and_then(|q| q.blockwise.as_mut()) {
                    b.scales = format!("{name}/{}", b.scales);
                    if let Some(z) = b.zero_points.as_mut() {
                        *z = format!("{name}/{z}");
                    }
                }
                entries.push((e, k, t));
            }
        }
        Ok(TaskFile { members, entries })
    }

    /// Every tensor of every model member.
    pub(crate) fn entries(&self) -> impl Iterator<Item = &Entry> {
        self.entries.iter().map(|(e, _, _)| e)
    }

    /// Reads entry `i`.
    pub(crate) fn read(&self, i: usize) -> Result<Tensor> {
        let (_, member, t) = self
            .entries
            .get(i)
            .ok_or_else(|| Error::not_found(format!("no tensor number {i}")))?;
        let (_, model) = self
            .members
            .get(*member)
            .ok_or_else(|| Error::not_found(format!("no member number {member}")))?;
        model.read(*t)
    }

    /// Reads every entry: each member's tensors as
    /// [`TfliteFile::read_all`] reads them (entries list the members in
    /// order).
    pub(crate) fn read_all(&self) -> Result<Vec<Tensor>> {
        let mut out = Vec::with_capacity(self.entries.len());
        for (_, model) in &self.members {
            out.extend(model.read_all()?);
        }
        debug_assert_eq!(out.len(), self.entries.len());
        Ok(out)
    }

    /// The signatures and ops of each model member.
    pub(crate) fn signatures(&self) -> String {
        self.members
            .iter()
            .map(|(name, m)| format!("{name}:{}", super::signatures_text(m.model())))
            .collect::<Vec<_>>()
            .join("\n")
    }
}
