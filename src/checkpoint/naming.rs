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
    if path.is_dir() {
        let saved_model = path.join("variables").join("variables");
        if index_path(&saved_model).is_file() {
            return Ok(saved_model);
        }
        let state = path.join("checkpoint");
        if state.is_file() {
            let text =
                std::fs::read_to_string(&state).map_err(|e| Error::io(state.display(), &e))?;
            let latest = latest_checkpoint(&text).ok_or_else(|| {
                Error::invalid_format("checkpoint state", "no model_checkpoint_path")
                    .with_path(state.display())
            })?;
            let latest = PathBuf::from(latest);
            return Ok(if latest.is_absolute() {
                latest
            } else {
                path.join(latest)
            });
        }
        return Err(Error::not_found("neither a SavedModel (variables/variables.index) nor a checkpoint directory (checkpoint state file)").with_path(path.display()));
    }
    if path.extension().is_some_and(|e| e == "index") && path.is_file() {
        return Ok(path.with_extension(""));
    }
    Ok(path.to_path_buf())
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
