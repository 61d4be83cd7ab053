//! [`Located`]: a path (or URL) resolved to a format, a store and a key.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::Compression;
use super::blob::Blob;
use super::format::Format;
use super::options::OpenOptions;
use super::store::{LocalFs, Store, path_key};
use crate::error::{Error, Result};

/// A path with its format, resolved for reading or writing: what
/// [`open_located`](crate::io::open_located) and
/// [`create_located`](crate::io::create_located) act on.
///
/// ```
/// let at = tftensor::io::detect("tests/data/npy/float32.npy")?;
/// assert_eq!(at.format, tftensor::io::Format::NPY);
/// assert_eq!(at.id(), "tests/data/npy/float32.npy");
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct Located {
    /// The format.
    pub format: Format,
    /// Where its files are.
    pub store: Arc<dyn Store>,
    /// The key the format's reader or writer takes in the store (for a
    /// local file, its path; for a checkpoint, its prefix).
    pub key: String,
    /// A TFRecord's compression (`None` for other formats).
    pub compression: Compression,
    /// Something the user should hear about how the path was resolved (a
    /// fallback taken); fronts print it as a warning.
    pub note: Option<String>,
}

impl Located {
    /// The local `path` as `format`, with nothing resolved.
    ///
    /// ```
    /// use tftensor::io::{Format, Located};
    /// let at = Located::new(Format::NPZ, "w.npz");
    /// assert_eq!(at.key, "w.npz");
    /// ```
    pub fn new(format: Format, path: impl AsRef<Path>) -> Located {
        Located::in_store(format, LocalFs::shared(), path_key(path.as_ref()))
    }

    /// `key` of `store` as `format`.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tftensor::io::{Format, LocalFs, Located};
    /// let at = Located::in_store(Format::NPY, Arc::new(LocalFs::new()), "x.npy");
    /// assert_eq!(at.id(), "x.npy");
    /// ```
    pub fn in_store(format: Format, store: Arc<dyn Store>, key: impl Into<String>) -> Located {
        Located {
            format,
            store,
            key: key.into(),
            compression: Compression::None,
            note: None,
        }
    }

    /// The path or URL, as messages show it.
    pub fn id(&self) -> String {
        self.store.id(&self.key)
    }

    /// [`id`](Self::id) as a path (a URL stays its text).
    pub fn path(&self) -> PathBuf {
        PathBuf::from(self.id())
    }

    /// The local path, when the store is the local file system.
    pub fn local_path(&self) -> Option<PathBuf> {
        self.store.local_path(&self.key)
    }

    /// The local path, for readers and writers that work on local files
    /// only.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a location in a remote store.
    pub(crate) fn local_only(&self) -> Result<PathBuf> {
        self.local_path().ok_or_else(|| {
            Error::InvalidArgument(format!(
                "{} is read and written in local files only",
                self.format
            ))
        })
    }

    /// The file at the key, for reading by range: mapped when `options`
    /// say so and the store can map.
    ///
    /// # Errors
    /// As [`Store::open`].
    pub fn blob(&self, options: &OpenOptions) -> Result<Arc<dyn Blob>> {
        self.open_key(&self.key, options)
    }

    /// The file at another key of the same store (a checkpoint's shard),
    /// mapped when `options` say so and the store can map.
    ///
    /// # Errors
    /// As [`Store::open`].
    pub fn open_key(&self, key: &str, options: &OpenOptions) -> Result<Arc<dyn Blob>> {
        if options.mmap() {
            // SAFETY: `OpenOptions::with_mmap` (an unsafe fn) is the
            // caller's promise that the files are not changed while mapped.
            if let Some(mapped) = unsafe { self.store.open_mapped(key) } {
                return mapped;
            }
        }
        self.store.open(key)
    }
}
