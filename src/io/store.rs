//! [`Store`]: where a format's files are. A format of several files (a
//! checkpoint's index and shards, a log directory, a sharded Keras save)
//! opens its siblings and lists its folders through the store its main file
//! came from, so the same reader works on a local folder and on a bucket.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::blob::{Blob, BytesBlob, LocalFile};
use crate::error::{Error, Result};

/// What is at a key of a [`Store`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stat {
    /// Nothing.
    Missing,
    /// A file (an object) of this many bytes.
    File {
        /// Its length.
        len: u64,
    },
    /// A folder (a prefix with objects under it).
    Dir,
}

/// One item of a folder ([`Store::list`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Item {
    /// Its name in the folder (no `/`).
    pub name: String,
    /// A file or a folder.
    pub stat: Stat,
}

impl Item {
    /// The item `name` (no `/`) of a folder, a file or a folder as `stat`
    /// says: what a [`Store::list`] of a store outside this crate returns.
    ///
    /// ```
    /// use tftensor::io::{Item, Stat};
    /// let item = Item::new("w.npy", Stat::File { len: 128 });
    /// assert_eq!(item.name, "w.npy");
    /// ```
    pub fn new(name: impl Into<String>, stat: Stat) -> Item {
        Item {
            name: name.into(),
            stat,
        }
    }
}

/// Files and folders addressed by key: the local file system (keys are
/// paths) or an object store (keys are object names, `/`-separated).
///
/// ```
/// use tftensor::io::{LocalFs, Stat, Store};
/// let fs = LocalFs::new();
/// assert_eq!(fs.stat("tests/data/npy")?, Stat::Dir);
/// assert!(fs.list("tests/data/npy")?.iter().any(|i| i.name == "float32.npy"));
/// let blob = fs.open("tests/data/npy/float32.npy")?;
/// assert_eq!(blob.id(), "tests/data/npy/float32.npy");
/// # Ok::<(), tftensor::Error>(())
/// ```
pub trait Store: Send + Sync + fmt::Debug {
    /// The path or URL of `key`, as messages show it.
    fn id(&self, key: &str) -> String;

    /// What is at `key`.
    ///
    /// # Errors
    /// [`Error::Io`] when the store cannot be asked.
    fn stat(&self, key: &str) -> Result<Stat>;

    /// The file at `key`, for reading by range.
    ///
    /// # Errors
    /// [`Error::Io`] (kind `NotFound` when there is none).
    fn open(&self, key: &str) -> Result<Arc<dyn Blob>>;

    /// The file at `key` mapped into memory, where the store can map
    /// (a local file); `None` where it cannot.
    ///
    /// # Safety
    /// The file must not change while the blob, or anything read from it,
    /// is alive.
    ///
    /// # Errors
    /// As [`open`](Store::open).
    unsafe fn open_mapped(&self, key: &str) -> Option<Result<Arc<dyn Blob>>> {
        let _ = key;
        None
    }

    /// Says that the files at `keys` (neighbours, such as a checkpoint's
    /// shards) are about to be opened, so a store that pays per request
    /// can learn their lengths together: a remote store lists their
    /// common prefix once instead of asking for each. Nothing is
    /// reported: a key still unknown is asked for when opened. The local
    /// file system does nothing.
    ///
    /// ```
    /// use tftensor::io::{LocalFs, Store};
    /// let fs = LocalFs::new();
    /// fs.prepare_open(&["tests/data/npy/float32.npy".to_owned()]);
    /// assert_eq!(fs.open("tests/data/npy/float32.npy")?.len(), 152);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    fn prepare_open(&self, keys: &[String]) {
        let _ = keys;
    }

    /// The items directly in the folder `key`, sorted by name.
    ///
    /// # Errors
    /// [`Error::Io`] when it cannot be listed.
    fn list(&self, key: &str) -> Result<Vec<Item>>;

    /// The key of `name` in the folder `dir`.
    fn join(&self, dir: &str, name: &str) -> String;

    /// The folder holding `key`, and `key`'s name in it.
    fn split(&self, key: &str) -> (String, String);

    /// The local path of `key`, for a store whose keys are local paths.
    /// Writers that need a local file (and memory maps) use it.
    fn local_path(&self, key: &str) -> Option<PathBuf> {
        let _ = key;
        None
    }

    /// Writes the complete local file `from` under `key`, which shows it
    /// only once it is all there (an object store's multipart upload). A
    /// store with local paths never needs it: its outputs are renamed
    /// into place.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a store that cannot write;
    /// [`Error::Io`] when the upload fails (it is then aborted).
    ///
    /// ```
    /// use tftensor::io::{LocalFs, Store};
    /// // Local outputs are renamed into place instead.
    /// assert!(LocalFs::new().upload("out.npy", "staged.npy".as_ref()).is_err());
    /// ```
    fn upload(&self, key: &str, from: &Path) -> Result<()> {
        let _ = from;
        Err(Error::InvalidArgument(format!(
            "{}: this store cannot be written",
            self.id(key)
        )))
    }
}

/// The local file system: keys are paths as the OS takes them.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalFs;

impl LocalFs {
    /// The local file system.
    ///
    /// ```
    /// let fs = tftensor::io::LocalFs::new();
    /// # let _ = fs;
    /// ```
    pub fn new() -> LocalFs {
        LocalFs
    }

    /// The local file system as a shared store.
    pub(crate) fn shared() -> Arc<dyn Store> {
        static FS: std::sync::OnceLock<Arc<dyn Store>> = std::sync::OnceLock::new();
        Arc::clone(FS.get_or_init(|| Arc::new(LocalFs)))
    }
}

impl Store for LocalFs {
    fn id(&self, key: &str) -> String {
        key.to_owned()
    }

    fn stat(&self, key: &str) -> Result<Stat> {
        match std::fs::metadata(key) {
            Ok(m) if m.is_dir() => Ok(Stat::Dir),
            Ok(m) => Ok(Stat::File { len: m.len() }),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Stat::Missing),
            // A path through a file (`a.npy/x`) names nothing.
            Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => Ok(Stat::Missing),
            Err(e) => Err(Error::io(key, e)),
        }
    }

    fn open(&self, key: &str) -> Result<Arc<dyn Blob>> {
        // A pipe or a device (a FIFO, `/dev/stdin`) has no length to read
        // by range: its bytes are read once, whole, as a stream.
        if std::fs::metadata(key).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
            let bytes = std::fs::read(key).map_err(|e| Error::io(key, e))?;
            return Ok(Arc::new(BytesBlob::new(key, bytes)));
        }
        Ok(Arc::new(LocalFile::open(key)?))
    }

    unsafe fn open_mapped(&self, key: &str) -> Option<Result<Arc<dyn Blob>>> {
        // SAFETY: forwarded to the caller (this function's contract).
        let mapped = unsafe { BytesBlob::map(key) };
        Some(mapped.map(|b| Arc::new(b) as Arc<dyn Blob>))
    }

    fn list(&self, key: &str) -> Result<Vec<Item>> {
        let io = |e| Error::io(key, e);
        let mut items = Vec::new();
        for entry in std::fs::read_dir(key).map_err(io)? {
            let entry = entry.map_err(io)?;
            // Symbolic links are followed for files, not for folders (a
            // link cycle must not make a walk endless).
            let kind = entry.file_type().map_err(io)?;
            let stat = if kind.is_dir() {
                Stat::Dir
            } else if kind.is_symlink() {
                match std::fs::metadata(entry.path()) {
                    Ok(m) if m.is_file() => Stat::File { len: m.len() },
                    _ => continue,
                }
            } else {
                // Removed since listed: skip it, as it is no longer here.
                match entry.metadata() {
                    Ok(m) => Stat::File { len: m.len() },
                    Err(_) => continue,
                }
            };
            items.push(Item {
                name: entry.file_name().to_string_lossy().into_owned(),
                stat,
            });
        }
        items.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(items)
    }

    fn join(&self, dir: &str, name: &str) -> String {
        Path::new(dir).join(name).to_string_lossy().into_owned()
    }

    fn split(&self, key: &str) -> (String, String) {
        let p = Path::new(key);
        let name = match p.file_name() {
            Some(n) => n.to_string_lossy().into_owned(),
            // A key with no last part (`/`, `..`) names no entry.
            None => String::new(),
        };
        let dir = match p.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_string_lossy().into_owned(),
            _ => ".".to_owned(),
        };
        (dir, name)
    }

    fn local_path(&self, key: &str) -> Option<PathBuf> {
        Some(PathBuf::from(key))
    }
}

/// A local path as a store key.
pub(crate) fn path_key(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_keys_join_and_split_as_paths() {
        let fs = LocalFs;
        assert_eq!(fs.join("a/b", "c.npy"), "a/b/c.npy");
        assert_eq!(
            fs.split("a/b/c.npy"),
            ("a/b".to_owned(), "c.npy".to_owned())
        );
        assert_eq!(fs.split("c.npy"), (".".to_owned(), "c.npy".to_owned()));
        assert_eq!(fs.stat("Cargo.toml/x").unwrap(), Stat::Missing);
        assert_eq!(fs.stat("no-such-file").unwrap(), Stat::Missing);
    }

    /// A FIFO has no length to read by range: it is read whole, as the
    /// stream readers of the formats did before they read by range.
    #[cfg(unix)]
    #[test]
    fn a_fifo_is_read_whole() {
        let tmp = tempfile::tempdir().unwrap();
        let fifo = tmp.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        if !made.is_ok_and(|s| s.success()) {
            return; // no mkfifo here
        }
        let bytes: Vec<u8> = (0..10_000u32).map(|i| (i * 7) as u8).collect();
        let feeder = {
            let (fifo, bytes) = (fifo.clone(), bytes.clone());
            std::thread::spawn(move || std::fs::write(fifo, bytes).unwrap())
        };
        let blob = LocalFs.open(&path_key(&fifo)).unwrap();
        feeder.join().unwrap();
        assert_eq!(blob.read_all().unwrap(), bytes);
    }
}
