//! A TensorBoard log directory (or one event file) as a source: one entry
//! per (run, tag) series, its values stacked along axis 0, and a
//! `…/steps` entry with the steps. The run `.` (the log directory itself)
//! adds no prefix; a series whose values differ in shape or dtype has an
//! entry per step (`…@STEP`).

use std::path::Path;

use crate::error::Result;
use crate::events::{series, SeriesValues};
use crate::io::format::Format;
use crate::io::source::InMemory;
use crate::tensor::Tensor;

pub(crate) fn open(path: &Path) -> Result<InMemory> {
    let mut named = Vec::new();
    for s in series(path)? {
        let base = if s.run == "." {
            s.tag.clone()
        } else {
            format!("{}/{}", s.run, s.tag)
        };
        match s.values {
            SeriesValues::Stacked(t) => named.push((base.clone(), t)),
            SeriesValues::Ragged(ts) => {
                for (step, t) in s.steps.iter().zip(ts) {
                    named.push((format!("{base}@{step}"), t));
                }
            }
        }
        let n = s.steps.len();
        named.push((format!("{base}/steps"), Tensor::from_vec([n], s.steps)?));
    }
    Ok(InMemory::new(Format::Events, path, named))
}
