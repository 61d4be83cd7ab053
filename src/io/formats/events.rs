//! A TensorBoard log directory (or one event file) as a source: one entry
//! per (run, tag) series, its values stacked along axis 0, and a
//! `…/steps` entry with the steps. The run `.` (the log directory itself)
//! adds no prefix; a series whose values differ in shape or dtype has an
//! entry per step (`…@STEP`).

use crate::error::{Error, Result};
use crate::events::{SeriesValues, discover_in, is_summary_events_file, series_in};
use crate::io::probe::Probe;
use crate::io::row::{Certainty, Row};
use crate::io::source::{InMemory, TensorSource};
use crate::io::url::store_of;
use crate::io::{Format, Located, OpenOptions};
use crate::tensor::Tensor;

impl Format {
    /// A TensorBoard log directory or event file: one series per run and tag;
    /// read only.
    pub const EVENTS: Format = Format::named("events");
}

pub(crate) const ROW: Row = Row {
    sniff,
    ..Row::base(Format::EVENTS, open_at)
};

/// An event file by its name (`events.out.tfevents.…`), or a folder with
/// event files below it (a log directory of runs).
fn sniff(p: &Probe<'_>) -> Option<Certainty> {
    if p.is_file() {
        return is_summary_events_file(&p.name).then_some(Certainty::Name);
    }
    let has_events = p.tree().is_ok_and(|files| {
        files
            .iter()
            .any(|(path, _)| is_summary_events_file(path.rsplit('/').next().unwrap_or(path)))
    });
    (p.is_dir() && has_events).then_some(Certainty::Magic)
}

fn open_at(at: &Located, _: &OpenOptions) -> Result<Box<dyn TensorSource>> {
    Ok(Box::new(open(at)?))
}

/// Reads every series whole: an entry's shape is its series' length (and
/// whether it stacks at all, or becomes an entry per step, depends on the
/// dtype and shape of every value), so a listing must parse every record
/// of every file of the run, which for the scalars that make up most logs
/// is the whole cost of reading them ([`series`] parses those straight
/// from the file's bytes). A lazy listing would read every file twice to
/// read it once.
fn open(at: &Located) -> Result<InMemory> {
    let mut named = Vec::new();
    for s in series_in(&*at.store, &at.key)? {
        let base = entry_base(&s.run, &s.tag);
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
    Ok(InMemory::new(Format::EVENTS, at.path(), named))
}

/// The name of the entry of a series' values.
fn entry_base(run: &str, tag: &str) -> String {
    if run == "." {
        tag.to_owned()
    } else {
        format!("{run}/{tag}")
    }
}

/// The entries of the series tagged `tag` in a TensorBoard log directory
/// opened as a source ([`Format::EVENTS`]), in the source's order: in each
/// run that has the tag, its values (`RUN/TAG`, just `TAG` in the log
/// directory itself, or `…@STEP` per step when they do not stack) and its
/// steps (`…/steps`).
///
/// # Errors
/// [`Error::InvalidArgument`] for a source that is not a log directory;
/// [`Error::NotFound`] when no run has the tag; [`Error::Io`] when the log
/// directory cannot be listed again.
///
/// ```
/// use tftensor::io::{open, select_series, TensorSource};
/// let src = open("tests/data/events/runs")?;
/// let picked = select_series(src.as_ref(), "metric")?;
/// let names: Vec<&str> = picked.iter().map(|&i| src.entries()[i].name.as_str()).collect();
/// assert_eq!(names, ["eval/sub/metric", "eval/sub/metric/steps", "train/metric", "train/metric/steps"]);
/// assert!(select_series(src.as_ref(), "nope").is_err());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn select_series(source: &dyn TensorSource, tag: &str) -> Result<Vec<usize>> {
    if source.format() != Format::EVENTS {
        return Err(Error::InvalidArgument(format!(
            "series are read from TensorBoard log directories, not from {} input",
            source.format().name()
        )));
    }
    let (store, key) = store_of(source.path(), &crate::io::RemoteOptions::default())?;
    let bases: Vec<String> = discover_in(&*store, &key)?
        .iter()
        .map(|r| entry_base(&r.run, tag))
        .collect();
    let of_tag = |name: &str| {
        bases.iter().any(|base| {
            let Some(rest) = name.strip_prefix(base.as_str()) else {
                return false;
            };
            rest.is_empty()
                || rest == "/steps"
                || rest
                    .strip_prefix('@')
                    .is_some_and(|step| step.parse::<i64>().is_ok())
        })
    };
    let picked: Vec<usize> = source
        .entries()
        .iter()
        .enumerate()
        .filter(|(_, e)| of_tag(&e.name))
        .map(|(i, _)| i)
        .collect();
    if picked.is_empty() {
        return Err(Error::not_found(format!("no series tagged '{tag}'"))
            .with_path(source.path().display()));
    }
    Ok(picked)
}
