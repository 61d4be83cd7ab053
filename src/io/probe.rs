//! [`Probe`]: what detection knows of a path, built once and asked by
//! every format's row: the name, a file's first bytes and length, a
//! folder's items and the files below it.

use std::cell::OnceCell;

use super::store::{Item, Stat, Store};
use crate::error::Result;

/// What detection knows of a path: built once, asked by every row.
#[allow(
    dead_code,
    reason = "each format's row asks what it needs; a build without some formats leaves some parts unasked"
)]
pub(crate) struct Probe<'a> {
    /// Where the path is.
    pub(crate) store: &'a dyn Store,
    /// Its key.
    pub(crate) key: &'a str,
    /// Its last part (the file or folder name).
    pub(crate) name: String,
    /// A file, a folder, or nothing.
    pub(crate) stat: Stat,
    /// A file's first [`HEAD`] bytes (fewer if it is shorter).
    pub(crate) head: Vec<u8>,
    items: OnceCell<Result<Vec<Item>>>,
    tree: OnceCell<Result<Vec<(String, Stat)>>>,
}

/// How many first bytes a probe reads: enough for every row's magic and
/// header check.
pub(crate) const HEAD: u64 = 64;

/// How deep [`Probe::tree`] looks below a folder.
const TREE_DEPTH: usize = 64;

#[allow(
    dead_code,
    reason = "each format's row asks what it needs; a build without some formats leaves some parts unasked"
)]
impl<'a> Probe<'a> {
    pub(crate) fn new(store: &'a dyn Store, key: &'a str) -> Result<Probe<'a>> {
        let stat = store.stat(key)?;
        let head = match stat {
            Stat::File { len } if len > 0 => store.open(key)?.read_vec(0, len.min(HEAD))?,
            _ => Vec::new(),
        };
        Ok(Probe {
            store,
            key,
            name: store.split(key).1,
            stat,
            head,
            items: OnceCell::new(),
            tree: OnceCell::new(),
        })
    }

    /// Whether the path is a file.
    pub(crate) fn is_file(&self) -> bool {
        matches!(self.stat, Stat::File { .. })
    }

    /// Whether the path is a folder.
    pub(crate) fn is_dir(&self) -> bool {
        self.stat == Stat::Dir
    }

    /// The name of a zip file's first member, from the local header at
    /// its start (`PK\x03\x04`, the name's length at 26, the name at 30);
    /// `None` when the file does not start with one or the name is not in
    /// the bytes read.
    pub(crate) fn first_zip_member(&self) -> Option<&[u8]> {
        let head = self.head.as_slice();
        if !self.is_file() || !head.starts_with(b"PK\x03\x04") {
            return None;
        }
        let len = usize::from(u16::from_le_bytes([*head.get(26)?, *head.get(27)?]));
        head.get(30..30 + len)
    }

    /// A file's length (0 for anything else).
    pub(crate) fn len(&self) -> u64 {
        match self.stat {
            Stat::File { len } => len,
            _ => 0,
        }
    }

    /// The items of a folder (none for a file).
    ///
    /// # Errors
    /// As [`Store::list`].
    pub(crate) fn items(&self) -> Result<&[Item]> {
        let items = self.items.get_or_init(|| {
            if self.is_dir() {
                self.store.list(self.key)
            } else {
                Ok(Vec::new())
            }
        });
        items.as_deref().map_err(Clone::clone)
    }

    /// Whether the folder holds a file named `name`.
    pub(crate) fn has_file(&self, name: &str) -> bool {
        self.items()
            .is_ok_and(|items| items.iter().any(|i| i.name == name && i.stat != Stat::Dir))
    }

    /// What is at another key of the store (a checkpoint's `.index`
    /// beside its prefix); nothing when it cannot be asked.
    pub(crate) fn stat_of(&self, key: &str) -> Stat {
        self.store.stat(key).unwrap_or(Stat::Missing)
    }

    /// Every file below a folder (at most [`TREE_DEPTH`] levels down), as
    /// `/`-separated paths relative to it.
    ///
    /// # Errors
    /// As [`Store::list`].
    pub(crate) fn tree(&self) -> Result<&[(String, Stat)]> {
        let tree = self.tree.get_or_init(|| {
            let mut out = Vec::new();
            if self.is_dir() {
                walk(self.store, self.key, "", 0, &mut out)?;
            }
            Ok(out)
        });
        tree.as_deref().map_err(Clone::clone)
    }
}

fn walk(
    store: &dyn Store,
    key: &str,
    rel: &str,
    depth: usize,
    out: &mut Vec<(String, Stat)>,
) -> Result<()> {
    for item in store.list(key)? {
        let path = if rel.is_empty() {
            item.name.clone()
        } else {
            format!("{rel}/{}", item.name)
        };
        if item.stat == Stat::Dir {
            if depth < TREE_DEPTH {
                walk(store, &store.join(key, &item.name), &path, depth + 1, out)?;
            }
        } else {
            out.push((path, item.stat));
        }
    }
    Ok(())
}
