//! TF's deployment formats as sources: a TFLite `.tflite` model, a
//! MediaPipe `.task` bundle of them, and a TF.js `model.json`; all read
//! through the located [`Blob`](crate::io::Blob) (siblings, external
//! buffers and shards, through the same store).

use std::path::PathBuf;
use std::sync::Arc;

use crate::error::Result;
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::source::{Entry, Listed, ReadEntry, TensorSource};
use crate::io::{Blob, Format, Located, OpenOptions};
use crate::tensor::Tensor;
use crate::tflite::{Siblings, TaskFile, TfjsModel, TfliteFile, metadata_text, signatures_text};

impl Format {
    /// A TFLite / LiteRT `.tflite` model (its stored tensors); read only.
    pub const TFLITE: Format = Format::named("tflite");
    /// A MediaPipe `.task` bundle: a zip of `.tflite` models; read only.
    pub const TASK: Format = Format::named("task");
    /// A TF.js `model.json` and its weight shards; read only.
    pub const TFJS: Format = Format::named("tfjs");
}

pub(crate) const TFLITE_ROW: Row = Row {
    extensions: &["tflite", "lite"],
    sniff: sniff_tflite,
    ..Row::base(Format::TFLITE, open_tflite)
};

pub(crate) const TASK_ROW: Row = Row {
    extensions: &["task"],
    sniff: sniff_task,
    ..Row::base(Format::TASK, open_task)
};

pub(crate) const TFJS_ROW: Row = Row {
    sniff: sniff_tfjs,
    ..Row::base(Format::TFJS, open_tfjs)
};

/// The file identifier `TFL3` at bytes 4..8.
fn sniff_tflite(p: &Probe<'_>) -> Option<Certainty> {
    (p.is_file() && p.head.get(4..8) == Some(b"TFL3")).then_some(Certainty::Magic)
}

/// A zip named `.task`, or a zip whose first member is a `.tflite`.
fn sniff_task(p: &Probe<'_>) -> Option<Certainty> {
    let named = p.name.to_ascii_lowercase().ends_with(".task");
    if p.is_file() && named && p.head.starts_with(b"PK") {
        return Some(Certainty::Name);
    }
    let model = p
        .first_zip_member()
        .is_some_and(|m| m.ends_with(b".tflite"));
    model.then_some(Certainty::Content)
}

/// `model.json`, or a JSON file whose first bytes name a TF.js key.
fn sniff_tfjs(p: &Probe<'_>) -> Option<Certainty> {
    if !p.is_file() || !p.name.ends_with(".json") {
        return None;
    }
    let head = String::from_utf8_lossy(&p.head);
    if p.name == "model.json" {
        return Some(Certainty::Name);
    }
    [
        "\"modelTopology\"",
        "\"weightsManifest\"",
        "\"format\": \"graph-model\"",
    ]
    .iter()
    .any(|k| head.contains(k))
    .then_some(Certainty::Content)
}

/// Opens files beside the located key, by name, through its store.
fn siblings(at: &Located, options: &OpenOptions) -> Siblings {
    let (at, options) = (at.clone(), options.clone());
    Box::new(move |name| {
        let (dir, _) = at.store.split(&at.key);
        at.open_key(&at.store.join(&dir, name), &options)
    })
}

/// A source over one of the three readers.
pub(crate) enum Model {
    Tflite(TfliteFile),
    Task(TaskFile),
    Tfjs(TfjsModel),
}

impl ReadEntry for Model {
    fn read_entry(&mut self, index: usize, _: &Entry, _: &mut dyn FnMut(u64)) -> Result<Tensor> {
        match self {
            Model::Tflite(f) => f.read(index),
            Model::Task(f) => f.read(index),
            Model::Tfjs(f) => f.read(index),
        }
    }

    fn read_all_entries(&mut self) -> Option<Result<Vec<Tensor>>> {
        match self {
            Model::Tflite(f) => Some(f.read_all()),
            Model::Task(f) => Some(f.read_all()),
            Model::Tfjs(_) => None,
        }
    }

    fn metadata(&self) -> Vec<(String, String)> {
        match self {
            Model::Tflite(f) => metadata_text(f),
            Model::Tfjs(f) if !f.format().is_empty() => {
                vec![("format".to_string(), f.format().to_string())]
            }
            _ => Vec::new(),
        }
    }

    /// Signatures and ops, as `saved_model_cli show --all` shows a
    /// SavedModel's.
    fn signatures(&self) -> Option<Result<String>> {
        match self {
            Model::Tflite(f) => Some(Ok(signatures_text(f.model()))),
            Model::Task(f) => Some(Ok(f.signatures())),
            Model::Tfjs(_) => None,
        }
    }
}

fn listed(at: &Located, format: Format, model: Model) -> Box<dyn TensorSource> {
    let entries = match &model {
        Model::Tflite(f) => f.tensors().iter().map(|t| t.entry.clone()).collect(),
        Model::Task(f) => f.entries().cloned().collect(),
        Model::Tfjs(f) => f.entries().to_vec(),
    };
    Box::new(Listed {
        format,
        path: PathBuf::from(at.id()),
        entries,
        reader: model,
    })
}

fn open_tflite(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let blob: Arc<dyn Blob> = at.blob(options)?;
    let file = TfliteFile::with_siblings(blob, Some(siblings(at, options)))?;
    Ok(listed(at, Format::TFLITE, Model::Tflite(file)))
}

fn open_task(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let file = TaskFile::open(at.blob(options)?)?;
    Ok(listed(at, Format::TASK, Model::Task(file)))
}

fn open_tfjs(at: &Located, options: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    let model = TfjsModel::from_blob(&at.blob(options)?, &siblings(at, options))?;
    Ok(listed(at, Format::TFJS, Model::Tfjs(model)))
}
