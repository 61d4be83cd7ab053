//! File names of a bundle (TF's `tensor_bundle/naming.cc`) and how a user's
//! path becomes a prefix (a checkpoint directory's state file, a
//! SavedModel's `variables/variables`).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

/// `PREFIX.data-%05d-of-%05d`.
pub(crate) fn data_path(prefix: &Path, shard: i32, num_shards: i32) -> PathBuf {
    let mut p = prefix.as_os_str().to_owned();
    p.push(format!(".data-{shard:05}-of-{num_shards:05}"));
    PathBuf::from(p)
}

/// `PREFIX.index`.
pub(crate) fn index_path(prefix: &Path) -> PathBuf {
    let mut p = prefix.as_os_str().to_owned();
    p.push(".index");
    PathBuf::from(p)
}

/// The prefix for `path`: a prefix, an `.index` file, a SavedModel
/// directory or a checkpoint directory.
pub(crate) fn resolve_prefix(path: &Path) -> Result<PathBuf> {
    Ok(find_prefix(path)?.0)
}

/// The checkpoint prefix `path` names, and a note when it was found by a
/// fallback the user should hear about.
///
/// - A SavedModel directory: `variables/variables`.
/// - A directory with a `checkpoint` state file: its
///   `model_checkpoint_path`. An absolute path that does not exist here
///   (the state file came from another machine) falls back to the same file
///   name beside the state file, with a note; TF would fail.
/// - A directory with no state file but exactly one `*.index` (what
///   `tf.train.Checkpoint.write()` leaves): that prefix.
/// - An `.index` or `.data-NNNNN-of-MMMMM` file: its prefix.
///
/// ```
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("find-prefix");
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join("ckpt-1.index"), b"")?;
/// let (prefix, note) = tftensor::checkpoint::find_prefix(&dir)?;
/// assert_eq!(prefix, dir.join("ckpt-1"));
/// assert!(note.is_none());
/// # std::fs::remove_dir_all(&dir).ok();
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`Error::NotFound`] for a directory that holds no checkpoint (saying
/// what was looked for), or several `.index` files and no state file;
/// [`Error::Io`]; [`Error::InvalidFormat`] for a state file without a path.
pub fn find_prefix(path: &Path) -> Result<(PathBuf, Option<String>)> {
    if path.is_dir() {
        let saved_model = path.join("variables").join("variables");
        if index_path(&saved_model).is_file() {
            return Ok((saved_model, None));
        }
        let state = path.join("checkpoint");
        if state.is_file() {
            let text =
                std::fs::read_to_string(&state).map_err(|e| Error::io(state.display(), e))?;
            let latest = latest_checkpoint(&text).ok_or_else(|| {
                Error::invalid_format("checkpoint state", "no model_checkpoint_path")
                    .with_path(state.display())
            })?;
            let latest = PathBuf::from(latest);
            if !latest.is_absolute() {
                return Ok((path.join(latest), None));
            }
            if index_path(&latest).is_file() {
                return Ok((latest, None));
            }
            if let Some(name) = latest.file_name() {
                let beside = path.join(name);
                if index_path(&beside).is_file() {
                    let note = format!(
                        "{}: model_checkpoint_path {} does not exist here; reading {} beside the state file",
                        state.display(),
                        latest.display(),
                        beside.display()
                    );
                    return Ok((beside, Some(note)));
                }
            }
            return Ok((latest, None));
        }
        let mut prefixes = Vec::new();
        for item in std::fs::read_dir(path).map_err(|e| Error::io(path.display(), e))? {
            let item = item.map_err(|e| Error::io(path.display(), e))?;
            let name = item.file_name();
            let name = name.to_string_lossy();
            if let Some(stem) = name.strip_suffix(".index") {
                if item.path().is_file() {
                    prefixes.push(path.join(stem));
                }
            }
        }
        prefixes.sort();
        return match prefixes.len() {
            1 => Ok((prefixes.remove(0), None)),
            0 => Err(Error::not_found(
                "no checkpoint here: looked for a SavedModel (variables/variables.index), a \
                 `checkpoint` state file and a `*.index` file",
            )
            .with_path(path.display())),
            n => Err(Error::not_found(format!(
                "{n} checkpoints ({}) and no `checkpoint` state file to say which: name the prefix",
                prefixes
                    .iter()
                    .filter_map(|p| p.file_name())
                    .map(|n| n.to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .with_path(path.display())),
        };
    }
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    if let Some(name) = name {
        if let Some(stem) = name
            .strip_suffix(".index")
            .or_else(|| data_file_prefix(&name))
        {
            return Ok((path.with_file_name(stem), None));
        }
    }
    Ok((path.to_path_buf(), None))
}

/// `PREFIX` for a file named `PREFIX.data-NNNNN-of-MMMMM` (TF's
/// `DataFilename`).
pub(crate) fn data_file_prefix(name: &str) -> Option<&str> {
    let (prefix, suffix) = name.rsplit_once(".data-")?;
    let (shard, of) = suffix.split_once("-of-")?;
    let digits = |s: &str| s.len() == 5 && s.bytes().all(|b| b.is_ascii_digit());
    (digits(shard) && digits(of)).then_some(prefix)
}

/// `model_checkpoint_path` from a `CheckpointState` text proto.
fn latest_checkpoint(text: &str) -> Option<String> {
    text.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("model_checkpoint_path:")?.trim();
        unquote(rest)
    })
}

/// A text-format string literal: quotes, C escapes, octal bytes.
fn unquote(s: &str) -> Option<String> {
    let q = s.chars().next().filter(|&c| c == '"' || c == '\'')?;
    let inner = s.strip_prefix(q)?.strip_suffix(q)?;
    let mut out = Vec::new();
    let mut bytes = inner.bytes().peekable();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next()? {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            d @ b'0'..=b'7' => {
                let mut v = u32::from(d - b'0');
                for _ in 0..2 {
                    match bytes.peek() {
                        Some(&o @ b'0'..=b'7') => {
                            v = v * 8 + u32::from(o - b'0');
                            bytes.next();
                        }
                        _ => break,
                    }
                }
                out.push(u8::try_from(v).ok()?);
            }
            other => out.push(other),
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn state_file() {
        let text =
            "model_checkpoint_path: \"ckpt-\\\"3\"\nall_model_checkpoint_paths: \"ckpt-1\"\n";
        assert_eq!(latest_checkpoint(text).unwrap(), "ckpt-\"3");
        assert_eq!(
            data_path(Path::new("a/b"), 2, 10),
            PathBuf::from("a/b.data-00002-of-00010")
        );
    }
}
