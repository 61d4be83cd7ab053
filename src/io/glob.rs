//! [`expand`]: the one glob of the library and its fronts. A path whose
//! file name has `*` or `?` names the matching files of its folder, in a
//! local folder or under a remote prefix alike.

use std::path::{Path, PathBuf};

use super::store::Stat;
use super::url::store_of;
use crate::error::{Error, Result};

/// The files `path` names: itself, or, when its file name has `*` (any
/// run) or `?` (one character) and nothing is there by that name, the
/// matching files of its folder, sorted by name.
///
/// # Errors
/// [`Error::NotFound`] for a glob that matches nothing; the store's error
/// when the folder cannot be listed.
///
/// ```
/// let shards = tftensor::io::expand("tests/data/npy/*.npz")?;
/// assert!(shards.iter().all(|p| p.extension().is_some_and(|e| e == "npz")));
/// assert!(tftensor::io::expand("tests/data/npy/*.nothing").is_err());
/// assert_eq!(tftensor::io::expand("a/b.npy")?, [std::path::PathBuf::from("a/b.npy")]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn expand(path: impl AsRef<Path>) -> Result<Vec<PathBuf>> {
    expand_with(path, &super::options::RemoteOptions::default())
}

/// [`expand`], reaching URLs as `remote` says (anonymously, ...).
///
/// # Errors
/// As [`expand`].
///
/// ```
/// use tftensor::io::{expand_with, RemoteOptions};
/// let found = expand_with("tests/data/npy/*.npz", &RemoteOptions::default())?;
/// assert!(!found.is_empty());
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn expand_with(
    path: impl AsRef<Path>,
    remote: &super::options::RemoteOptions,
) -> Result<Vec<PathBuf>> {
    let path = path.as_ref();
    let (store, key) = store_of(path, remote)?;
    let (dir, pattern) = store.split(&key);
    if !pattern.contains(['*', '?']) || store.stat(&key)? != Stat::Missing {
        return Ok(vec![path.to_path_buf()]);
    }
    let pattern: Vec<char> = pattern.chars().collect();
    let mut out: Vec<PathBuf> = store
        .list(&dir)?
        .into_iter()
        .filter(|item| item.stat != Stat::Dir)
        .filter(|item| matches(&pattern, &item.name.chars().collect::<Vec<_>>()))
        .map(|item| PathBuf::from(store.id(&store.join(&dir, &item.name))))
        .collect();
    if out.is_empty() {
        return Err(Error::not_found("no file matches").with_path(path.display()));
    }
    out.sort();
    Ok(out)
}

/// Shell-style matching of `*` and `?` (no brackets), iterative
/// backtracking: linear in practice, never exponential.
fn matches(pattern: &[char], name: &[char]) -> bool {
    let (mut p, mut n) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while n < name.len() {
        match (pattern.get(p), name.get(n)) {
            (Some('*'), _) => {
                star = Some((p, n));
                p += 1;
            }
            (Some(&c), Some(&d)) if c == '?' || c == d => {
                p += 1;
                n += 1;
            }
            _ => match star {
                Some((sp, sn)) => {
                    star = Some((sp, sn + 1));
                    p = sp + 1;
                    n = sn + 1;
                }
                None => return false,
            },
        }
    }
    pattern
        .get(p..)
        .is_some_and(|rest| rest.iter().all(|&c| c == '*'))
}

#[cfg(test)]
mod tests {
    use super::matches;

    fn m(p: &str, n: &str) -> bool {
        matches(
            &p.chars().collect::<Vec<_>>(),
            &n.chars().collect::<Vec<_>>(),
        )
    }

    #[test]
    fn globs() {
        assert!(m("*.tfrecord", "a.tfrecord"));
        assert!(m("part-?-*", "part-1-of-3"));
        assert!(m("s?_*", "s1_x"));
        assert!(m("*", ""));
        assert!(!m("*.npy", "a.npz"));
        assert!(!m("?", ""));
        assert!(m("é?", "éa"));
        // Many stars against a long name that fails stays quick.
        let long = "a".repeat(10_000);
        assert!(!m("*a*a*a*a*a*b", &long));
    }
}
