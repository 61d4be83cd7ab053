//! Finding the runs and event files of a log directory, as TensorBoard
//! does (`io_wrapper.IsSummaryEventsFile`, RustBoard's `logdir.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{invalid, io_error};
use crate::Result;

/// The event files of one run, in the order TensorBoard reads them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunFiles {
    /// The run's name: its directory relative to the log directory,
    /// `/`-separated, `"."` for the log directory itself.
    pub run: String,
    /// Its event files, sorted by name (for TF's names, time order).
    pub files: Vec<PathBuf>,
}

/// The runs of `path`: every directory under it (itself included) that
/// directly holds an event file, sorted by run name. A file is an event
/// file when its name contains `tfevents` and does not end in
/// `.profile-empty` (the profiler's stubs, which hold no summaries). When
/// `path` is a file, it is the one file of run `"."`. Symbolic links to
/// directories are not followed.
///
/// # Errors
/// [`crate::Error::Io`] when `path` or a directory under it cannot be read;
/// [`crate::Error::InvalidFormat`] for a path that is neither a file nor a
/// directory.
///
/// ```
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("discover");
/// std::fs::create_dir_all(dir.join("a/b"))?;
/// std::fs::write(dir.join("a/b/events.out.tfevents.1.host"), b"")?;
/// std::fs::write(dir.join("events.out.tfevents.2.host"), b"")?;
/// std::fs::write(dir.join("notes.txt"), b"")?;
/// let runs = tftensor::events::discover(&dir)?;
/// let names: Vec<&str> = runs.iter().map(|r| r.run.as_str()).collect();
/// assert_eq!(names, [".", "a/b"]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn discover(path: impl AsRef<Path>) -> Result<Vec<RunFiles>> {
    let path = path.as_ref();
    let meta = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
    if meta.is_file() {
        return Ok(vec![RunFiles {
            run: ".".to_owned(),
            files: vec![path.to_path_buf()],
        }]);
    }
    if !meta.is_dir() {
        return Err(invalid(path, "neither a file nor a directory"));
    }
    let mut runs = BTreeMap::new();
    let mut stack = vec![(path.to_path_buf(), String::from("."))];
    while let Some((dir, run)) = stack.pop() {
        let mut files = Vec::new();
        for entry in std::fs::read_dir(&dir).map_err(|e| io_error(&dir, e))? {
            let entry = entry.map_err(|e| io_error(&dir, e))?;
            let kind = entry.file_type().map_err(|e| io_error(&entry.path(), e))?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if kind.is_dir() {
                let sub = if run == "." {
                    name.into_owned()
                } else {
                    format!("{run}/{name}")
                };
                stack.push((entry.path(), sub));
            } else if is_summary_events_file(&name) && (kind.is_file() || is_file(&entry.path())) {
                files.push(entry.path());
            }
        }
        if !files.is_empty() {
            files.sort();
            runs.insert(run.clone(), files);
        }
    }
    Ok(runs
        .into_iter()
        .map(|(run, files)| RunFiles { run, files })
        .collect())
}

/// TensorBoard's test: the basename holds `tfevents`, and it is not a
/// profiler stub.
pub(crate) fn is_summary_events_file(name: &str) -> bool {
    name.contains("tfevents") && !name.ends_with(".profile-empty")
}

/// Whether `path` leads to a file (a symbolic link to an event file counts).
fn is_file(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| m.is_file())
}
