//! Finding the runs and event files of a log directory, as TensorBoard
//! does (`io_wrapper.IsSummaryEventsFile`, RustBoard's `logdir.rs`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::Result;
use crate::io::{LocalFs, Stat, Store};

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
/// [`crate::Error::Io`] when `path` or a directory under it cannot be read
/// (kind `NotFound` when nothing is there).
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
    let store = LocalFs::new();
    let key = path.as_ref().to_string_lossy();
    Ok(discover_in(&store, &key)?
        .into_iter()
        .map(|run| RunFiles {
            files: run
                .keys
                .iter()
                .map(|k| PathBuf::from(store.id(k)))
                .collect(),
            run: run.run,
        })
        .collect())
}

/// The event files of one run, as keys of a [`Store`].
pub(crate) struct RunKeys {
    /// The run's name (see [`RunFiles::run`]).
    pub(crate) run: String,
    /// Its event files, sorted by name.
    pub(crate) keys: Vec<String>,
}

/// [`discover`] of `key` in `store`: the folders below it listed with
/// [`Store::list`], so a log directory in any store is found the same way.
///
/// # Errors
/// As [`discover`]; [`crate::Error::Io`] (kind `NotFound`) when nothing
/// is at `key`.
pub(crate) fn discover_in(store: &dyn Store, key: &str) -> Result<Vec<RunKeys>> {
    match store.stat(key)? {
        Stat::File { .. } => {
            return Ok(vec![RunKeys {
                run: ".".to_owned(),
                keys: vec![key.to_owned()],
            }]);
        }
        Stat::Dir => {}
        Stat::Missing => {
            let gone = std::io::Error::from(std::io::ErrorKind::NotFound);
            return Err(crate::Error::io(store.id(key), gone));
        }
    }
    let mut runs = BTreeMap::new();
    let mut stack = vec![(key.to_owned(), String::from("."))];
    while let Some((dir, run)) = stack.pop() {
        let mut keys = Vec::new();
        // Sorted by name, so the run's files are in TensorBoard's order.
        for item in store.list(&dir)? {
            let name = &item.name;
            match item.stat {
                Stat::Dir => {
                    let sub = if run == "." {
                        name.clone()
                    } else {
                        format!("{run}/{name}")
                    };
                    stack.push((store.join(&dir, name), sub));
                }
                Stat::File { .. } if is_summary_events_file(name) => {
                    keys.push(store.join(&dir, name));
                }
                Stat::File { .. } | Stat::Missing => {}
            }
        }
        if !keys.is_empty() {
            runs.insert(run, keys);
        }
    }
    Ok(runs
        .into_iter()
        .map(|(run, keys)| RunKeys { run, keys })
        .collect())
}

/// TensorBoard's test: the basename holds `tfevents`, and it is not a
/// profiler stub.
pub(crate) fn is_summary_events_file(name: &str) -> bool {
    name.contains("tfevents") && !name.ends_with(".profile-empty")
}
