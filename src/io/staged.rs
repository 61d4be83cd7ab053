//! Outputs written under a temporary name in the destination's directory
//! and renamed when complete, so that an interrupted run never leaves a
//! half-written file under the final name. A staged output dropped without
//! `commit` is deleted; one whose process is killed stays as a hidden
//! `.NAME.XXXXXX.tftensor-tmp` beside the destination.
//!
//! An output in a store without local paths (a bucket) is staged in the
//! system's temporary folder and uploaded on `commit` ([`Store::upload`]:
//! it appears under its key only once complete); format code does not
//! know the difference.

use std::fs::{self, File, Permissions};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tempfile::{Builder, NamedTempFile, TempDir};

use super::located::Located;
use super::store::{Stat, Store};
use crate::error::{Error, Result};

/// Where a staged output goes when committed: a rename, or an upload.
enum Dest {
    Local,
    Store { store: Arc<dyn Store>, key: String },
}

/// An error about the destination `dest`.
fn at(dest: &Path, e: impl Into<crate::IoSource>) -> Error {
    Error::io(dest.display(), e)
}

/// Uploads every file below `dir` under `key`'s prefix, in name order.
fn upload_tree(store: &dyn Store, key: &str, dir: &Path, dest: &Path) -> Result<()> {
    let mut entries: Vec<_> = fs::read_dir(dir)
        .map_err(|e| at(dest, e))?
        .collect::<std::io::Result<_>>()
        .map_err(|e| at(dest, e))?;
    entries.sort_by_key(fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        let child = store.join(key, &name);
        let kind = entry.file_type().map_err(|e| at(dest, e))?;
        if kind.is_dir() {
            upload_tree(store, &child, &entry.path(), dest)?;
        } else {
            store.upload(&child, &entry.path())?;
        }
    }
    Ok(())
}

fn other(msg: String) -> std::io::Error {
    std::io::Error::other(msg)
}

const SUFFIX: &str = ".tftensor-tmp";

/// The directory a destination lives in, and the temporary-name prefix.
fn parent_and_prefix(dest: &Path) -> Result<(PathBuf, String)> {
    let name = dest
        .file_name()
        .ok_or_else(|| at(dest, other("not a file name".into())))?
        .to_string_lossy()
        .into_owned();
    let parent = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    if !parent.is_dir() {
        return Err(at(
            dest,
            std::io::Error::new(std::io::ErrorKind::NotFound, "its directory does not exist"),
        ));
    }
    Ok((parent, format!(".{name}.")))
}

/// The mode to create outputs with, as `cp` or `File::create` would
/// (narrowed by the umask); temporary files are otherwise owner-only.
fn output_permissions(dir: bool) -> Option<Permissions> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        Some(Permissions::from_mode(if dir { 0o777 } else { 0o666 }))
    }
    #[cfg(not(unix))]
    {
        let _ = dir;
        None
    }
}

/// A builder for a temporary beside `dest`, created with output permissions.
fn builder<'a>(prefix: &'a str, dir: bool) -> Builder<'a, 'static> {
    let mut b = Builder::new();
    b.prefix(prefix).suffix(SUFFIX);
    if let Some(p) = output_permissions(dir) {
        b.permissions(p);
    }
    b
}

/// A file being written under a temporary name.
pub(crate) struct StagedFile {
    tmp: NamedTempFile,
    dest: PathBuf,
    to: Dest,
    /// The mode it was created with, restored before the rename in case a
    /// writer replaced the file (the safetensors crate renames its own
    /// owner-only temporary over it).
    mode: Permissions,
}

impl StagedFile {
    /// Starts a temporary file beside `dest`.
    pub(crate) fn new(dest: &Path) -> Result<StagedFile> {
        let (parent, prefix) = parent_and_prefix(dest)?;
        if dest.is_dir() {
            return Err(at(dest, other("is a directory".into())));
        }
        let tmp = builder(&prefix, false)
            .tempfile_in(&parent)
            .map_err(|e| at(dest, e))?;
        let mode = tmp
            .as_file()
            .metadata()
            .map_err(|e| at(dest, e))?
            .permissions();
        Ok(StagedFile {
            tmp,
            dest: dest.to_path_buf(),
            to: Dest::Local,
            mode,
        })
    }

    /// Starts the output at `at`: beside it where it has a local path,
    /// else in the system's temporary folder, to be uploaded on commit.
    #[allow(dead_code, reason = "used by the sinks as they move to stores")]
    pub(crate) fn at(located: &Located) -> Result<StagedFile> {
        StagedFile::in_store(&located.store, &located.key)
    }

    /// [`at`](Self::at) for `key` of `store`.
    pub(crate) fn in_store(store: &Arc<dyn Store>, key: &str) -> Result<StagedFile> {
        if let Some(path) = store.local_path(key) {
            return StagedFile::new(&path);
        }
        let dest = PathBuf::from(store.id(key));
        if store.stat(key)? == Stat::Dir {
            return Err(at(&dest, other("is a folder (a prefix of objects)".into())));
        }
        let name = store.split(key).1;
        let prefix = format!(".{name}.");
        let tmp = builder(&prefix, false)
            .tempfile()
            .map_err(|e| at(&dest, e))?;
        let mode = tmp
            .as_file()
            .metadata()
            .map_err(|e| at(&dest, e))?
            .permissions();
        Ok(StagedFile {
            tmp,
            dest,
            to: Dest::Store {
                store: Arc::clone(store),
                key: key.to_owned(),
            },
            mode,
        })
    }

    /// The temporary file's path, for writers that open paths.
    #[cfg_attr(not(feature = "safetensors"), allow(dead_code))] // the safetensors sink writes by path
    pub(crate) fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// The temporary file, open for writing.
    pub(crate) fn file(&mut self) -> &mut File {
        self.tmp.as_file_mut()
    }

    /// The final name.
    pub(crate) fn dest(&self) -> &Path {
        &self.dest
    }

    /// Flushes the complete file to disk and renames it to its final name
    /// (replacing a file there).
    pub(crate) fn commit(self) -> Result<()> {
        let dest = self.dest;
        if let Dest::Store { store, key } = &self.to {
            use std::io::Write;
            self.tmp.as_file().flush().map_err(|e| at(&dest, e))?;
            return store.upload(key, self.tmp.path());
        }
        fs::set_permissions(self.tmp.path(), self.mode).map_err(|e| at(&dest, e))?;
        self.tmp.as_file().sync_all().map_err(|e| at(&dest, e))?;
        self.tmp.persist(&dest).map_err(|e| at(&dest, e.error))?;
        Ok(())
    }
}

/// A directory being filled under a temporary name.
pub(crate) struct StagedDir {
    tmp: TempDir,
    dest: PathBuf,
    to: Dest,
}

impl StagedDir {
    /// Starts a temporary directory beside `dest`, which must not exist or
    /// be an empty directory.
    pub(crate) fn new(dest: &Path) -> Result<StagedDir> {
        let (parent, prefix) = parent_and_prefix(dest)?;
        if let Ok(meta) = fs::symlink_metadata(dest) {
            let empty_dir =
                meta.is_dir() && fs::read_dir(dest).is_ok_and(|mut d| d.next().is_none());
            if !empty_dir {
                return Err(at(
                    dest,
                    std::io::Error::new(
                        std::io::ErrorKind::AlreadyExists,
                        "exists (the output directory must be new or empty)",
                    ),
                ));
            }
        }
        let tmp = builder(&prefix, true)
            .tempdir_in(&parent)
            .map_err(|e| at(dest, e))?;
        Ok(StagedDir {
            tmp,
            dest: dest.to_path_buf(),
            to: Dest::Local,
        })
    }

    /// Starts the output folder at `at`: beside it where it has a local
    /// path, else in the system's temporary folder, each file to be
    /// uploaded under the key's prefix on commit (each object appears
    /// whole; the folder fills as they do).
    #[allow(dead_code, reason = "used by the sinks as they move to stores")]
    pub(crate) fn at(located: &Located) -> Result<StagedDir> {
        if let Some(path) = located.local_path() {
            return StagedDir::new(&path);
        }
        let dest = located.path();
        if located.store.stat(&located.key)? != Stat::Missing {
            return Err(at(
                &dest,
                std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "exists (the output folder must be new)",
                ),
            ));
        }
        let tmp = builder(".tftensor.", true)
            .tempdir()
            .map_err(|e| at(&dest, e))?;
        Ok(StagedDir {
            tmp,
            dest,
            to: Dest::Store {
                store: Arc::clone(&located.store),
                key: located.key.trim_end_matches('/').to_owned(),
            },
        })
    }

    /// The temporary directory.
    pub(crate) fn path(&self) -> &Path {
        self.tmp.path()
    }

    /// Renames the complete directory to its final name (uploads each
    /// file, for a store).
    pub(crate) fn commit(self) -> Result<()> {
        if let Dest::Store { store, key } = &self.to {
            return upload_tree(&**store, key, self.tmp.path(), &self.dest);
        }
        let tmp = self.tmp.keep();
        if let Err(e) = fs::rename(&tmp, &self.dest) {
            // Best effort: the error below is what matters.
            let _ = fs::remove_dir_all(&tmp);
            return Err(at(&self.dest, e));
        }
        Ok(())
    }
}

/// Writes `bytes` to the file or object at `path` as a whole: it appears
/// only once complete (a rename, or an upload).
///
/// # Errors
/// As [`StagedFile::at`] and its commit.
#[allow(dead_code, reason = "used by the TFRecord index (feature tfrecord)")]
pub(crate) fn write_whole(
    path: &Path,
    bytes: &[u8],
    remote: &super::options::RemoteOptions,
) -> Result<()> {
    use std::io::Write;
    let (store, key) = super::url::store_of(path, remote)?;
    let mut staged = StagedFile::in_store(&store, &key)?;
    staged
        .file()
        .write_all(bytes)
        .map_err(|e| at(staged.dest(), e))?;
    staged.commit()
}
