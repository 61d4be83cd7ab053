//! File names of a bundle (TF's `tensor_bundle/naming.cc`) and how a user's
//! path becomes a prefix (a checkpoint directory's state file, a
//! SavedModel's `variables/variables`).

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::io::{LocalFs, Stat, Store};

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

/// `PREFIX.data-%05d-of-%05d`, as a store key.
pub(crate) fn data_key(prefix: &str, shard: i32, num_shards: i32) -> String {
    format!("{prefix}.data-{shard:05}-of-{num_shards:05}")
}

/// `PREFIX.index`, as a store key.
pub(crate) fn index_key(prefix: &str) -> String {
    format!("{prefix}.index")
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
    let (prefix, note) = find_prefix_in(&LocalFs::new(), &path.to_string_lossy())?;
    Ok((PathBuf::from(prefix), note))
}

/// [`find_prefix`] for `key` of `store`: the same rules, asked of the
/// store (`stat`, `list`, and the state file read through it), so a
/// checkpoint folder in any store resolves as a local one does.
pub(crate) fn find_prefix_in(store: &dyn Store, key: &str) -> Result<(String, Option<String>)> {
    let is_file = |k: &str| -> Result<bool> { Ok(matches!(store.stat(k)?, Stat::File { .. })) };
    if store.stat(key)? != Stat::Dir {
        let prefix = key
            .strip_suffix(".index")
            .or_else(|| data_file_prefix(key))
            .unwrap_or(key);
        return Ok((prefix.to_owned(), None));
    }
    let saved_model = store.join(&store.join(key, "variables"), "variables");
    if is_file(&index_key(&saved_model))? {
        return Ok((saved_model, None));
    }
    let state = store.join(key, "checkpoint");
    if is_file(&state)? {
        return from_state_file(store, key, &state);
    }
    let prefixes: Vec<String> = store
        .list(key)?
        .into_iter()
        .filter(|i| matches!(i.stat, Stat::File { .. }))
        .filter_map(|i| i.name.strip_suffix(".index").map(str::to_owned))
        .collect();
    match prefixes.as_slice() {
        [one] => Ok((store.join(key, one), None)),
        [] => Err(Error::not_found(
            "no checkpoint here: looked for a SavedModel (variables/variables.index), a \
             `checkpoint` state file and a `*.index` file",
        )
        .with_path(store.id(key))),
        many => Err(Error::not_found(format!(
            "{} checkpoints ({}) and no `checkpoint` state file to say which: name the prefix",
            many.len(),
            many.join(", ")
        ))
        .with_path(store.id(key))),
    }
}

/// The prefix a `checkpoint` state file (`state`, in the folder `dir`)
/// names as the latest.
fn from_state_file(store: &dyn Store, dir: &str, state: &str) -> Result<(String, Option<String>)> {
    let bytes = store.open(state)?.read_all()?;
    let latest = std::str::from_utf8(&bytes)
        .ok()
        .and_then(latest_checkpoint)
        .ok_or_else(|| {
            Error::invalid_format("checkpoint state", "no model_checkpoint_path")
                .with_path(store.id(state))
        })?;
    if !Path::new(&latest).is_absolute() {
        return Ok((store.join(dir, &latest), None));
    }
    if matches!(store.stat(&index_key(&latest))?, Stat::File { .. }) {
        return Ok((latest, None));
    }
    let name = store.split(&latest).1;
    if !name.is_empty() {
        let beside = store.join(dir, &name);
        if matches!(store.stat(&index_key(&beside))?, Stat::File { .. }) {
            let note = format!(
                "{}: model_checkpoint_path {latest} does not exist here; reading {} beside the state file",
                store.id(state),
                store.id(&beside)
            );
            return Ok((beside, Some(note)));
        }
    }
    Ok((latest, None))
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
