//! [`RemoteStore`]: a bucket (or an HTTP origin) as a [`Store`]. Keys are
//! object names, `/`-separated, without a leading `/`.
//!
//! Asking what is at a key costs one request: a GET of its first 64 KiB,
//! which also serves the format probe and most headers. Where that finds
//! nothing, one listing of the key as a raw prefix tells a folder from
//! nothing, and learns the lengths of the key's siblings (a checkpoint
//! prefix's `.index` and shards) on the way. What a store learned is kept
//! for its life (one open or create), as a local reader sees one file.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use futures::TryStreamExt;
use object_store::list::PaginatedListOptions;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStoreExt};

use super::blob::RemoteBlob;
use super::config::Client;
use super::retry::{Fault, named, within};
use super::runtime;
use crate::error::{Error, Result};
use crate::io::blob::Blob;
use crate::io::store::{Item, Stat, Store};

/// How many first bytes a look at a file fetches.
pub(crate) const HEAD: u64 = 64 << 10;

/// What a store knows of a key.
#[derive(Clone, Debug)]
struct Known {
    stat: Stat,
    head: Option<Bytes>,
}

/// What a look at a key found.
enum Looked {
    File(Known),
    Nothing,
    /// The server answered with an error of its own (5xx, after
    /// retries).
    ServerError(Error),
}

/// A bucket of an object store, or an HTTP origin.
#[derive(Debug)]
pub(crate) struct RemoteStore {
    client: Arc<Client>,
    known: Mutex<HashMap<String, Known>>,
}

impl RemoteStore {
    pub(crate) fn new(client: Arc<Client>) -> RemoteStore {
        RemoteStore {
            client,
            known: Mutex::new(HashMap::new()),
        }
    }

    /// The object path of `key`.
    fn path(&self, key: &str) -> Result<Path> {
        Path::parse(key.trim_matches('/')).map_err(|e| {
            Error::io(
                self.id(key),
                std::io::Error::new(std::io::ErrorKind::InvalidInput, e),
            )
        })
    }

    fn known(&self, key: &str) -> Option<Known> {
        self.known.lock().ok()?.get(key).cloned()
    }

    fn learn(&self, key: &str, known: Known) {
        if let Ok(mut k) = self.known.lock() {
            k.insert(key.to_owned(), known);
        }
    }

    /// A GET of `key`'s first bytes: its length and head, or nothing
    /// there, or an error the server answered.
    fn look(&self, key: &str) -> Result<Looked> {
        let path = self.path(key)?;
        let client = &self.client;
        let fut = within(client.budget, async {
            let options = GetOptions {
                range: Some(GetRange::Bounded(0..HEAD)),
                ..GetOptions::default()
            };
            match client.store.get_opts(&path, options).await {
                Ok(got) => {
                    let len = got.meta.size;
                    let bytes = got.bytes().await.map_err(|e| Fault::Cut {
                        offset: 0,
                        cause: Some(e),
                    })?;
                    if bytes.len() as u64 != len.min(HEAD) {
                        return Err(Fault::Cut {
                            offset: bytes.len() as u64,
                            cause: None,
                        });
                    }
                    Ok(Some(Known {
                        stat: Stat::File { len },
                        head: Some(bytes),
                    }))
                }
                Err(object_store::Error::NotFound { .. }) => Ok(None),
                Err(e) if super::retry::status(&e) == Some(404) => Ok(None),
                // An empty object has no range to give: ask its length.
                Err(e) if super::retry::may_be_range(&e) => match client.store.head(&path).await {
                    Ok(meta) if meta.size == 0 => Ok(Some(Known {
                        stat: Stat::File { len: 0 },
                        head: Some(Bytes::new()),
                    })),
                    _ => Err(Fault::Request(e)),
                },
                Err(e) => Err(Fault::Request(e)),
            }
        });
        Ok(match runtime::block_on(fut)? {
            Ok(Some(known)) => Looked::File(known),
            Ok(None) => Looked::Nothing,
            Err(Fault::Request(e)) if super::retry::status(&e).is_some_and(|s| s >= 500) => {
                Looked::ServerError(super::retry::error(&self.id(key), Fault::Request(e)))
            }
            Err(f) => return Err(super::retry::error(&self.id(key), f)),
        })
    }

    /// Lists `key` as a raw prefix (one page): whether `key/` holds
    /// objects, and the lengths of the objects named `key...`.
    fn look_around(&self, key: &str) -> Result<Stat> {
        let Some(lister) = &self.client.lister else {
            return Ok(Stat::Missing);
        };
        let prefix = key.trim_matches('/').to_owned();
        let client = &self.client;
        let fut = within(client.budget, async {
            let options = PaginatedListOptions {
                delimiter: Some("/".into()),
                max_keys: Some(1000),
                ..PaginatedListOptions::default()
            };
            lister
                .list_paginated(Some(&prefix), options)
                .await
                .map_err(Fault::Request)
        });
        let page = match runtime::block_on(fut)? {
            Ok(page) => page,
            // A missing bucket is nothing there.
            Err(Fault::Request(e))
                if matches!(e, object_store::Error::NotFound { .. })
                    || super::retry::status(&e) == Some(404) =>
            {
                return Ok(Stat::Missing);
            }
            Err(f) => return named(&self.id(key), Err(f)),
        };
        let dir = format!("{prefix}/");
        let mut stat = Stat::Missing;
        for p in &page.result.common_prefixes {
            if p.as_ref() == prefix {
                stat = Stat::Dir;
            }
        }
        for o in &page.result.objects {
            let name = o.location.as_ref();
            if name.starts_with(&dir) {
                stat = Stat::Dir;
            } else {
                self.learn(
                    name,
                    Known {
                        stat: Stat::File { len: o.size },
                        head: None,
                    },
                );
            }
        }
        // A truncated page may stop before `key/`: ask for it alone.
        if stat == Stat::Missing && page.page_token.is_some() {
            let path = self.path(key)?;
            let fut = within(client.budget, async {
                let mut list = client.store.list(Some(&path));
                list.try_next().await.map_err(Fault::Request)
            });
            if named(&self.id(key), runtime::block_on(fut)?)?.is_some() {
                stat = Stat::Dir;
            }
        }
        Ok(stat)
    }

    /// Lists the raw prefix `prefix` (up to [`LEARN_PAGES`] pages) and
    /// learns the length of every object in it; whether the listing was
    /// complete.
    fn learn_prefix(&self, prefix: &str) -> Result<bool> {
        let Some(lister) = &self.client.lister else {
            return Ok(false);
        };
        let client = &self.client;
        let mut token: Option<String> = None;
        for _ in 0..LEARN_PAGES {
            let options = PaginatedListOptions {
                delimiter: Some("/".into()),
                max_keys: Some(1000),
                page_token: token.take(),
                ..PaginatedListOptions::default()
            };
            let fut = within(client.budget, async {
                lister
                    .list_paginated(Some(prefix), options)
                    .await
                    .map_err(Fault::Request)
            });
            let page = named(&self.id(prefix), runtime::block_on(fut)?)?;
            for o in &page.result.objects {
                let stat = Stat::File { len: o.size };
                self.learn(o.location.as_ref(), Known { stat, head: None });
            }
            match page.page_token {
                Some(t) => token = Some(t),
                None => return Ok(true),
            }
        }
        Ok(false)
    }
}

/// The most pages of 1000 keys [`Store::prepare_open`] lists.
const LEARN_PAGES: usize = 4;

/// The longest common prefix of `keys`, cut at a character boundary.
fn common_prefix<'a>(keys: &[&'a str]) -> &'a str {
    let Some((first, rest)) = keys.split_first() else {
        return "";
    };
    let mut n = first.len();
    for k in rest {
        n = first
            .bytes()
            .zip(k.bytes())
            .take(n)
            .take_while(|(a, b)| a == b)
            .count();
    }
    while !first.is_char_boundary(n) {
        n -= 1;
    }
    first.get(..n).unwrap_or("")
}

impl Store for RemoteStore {
    fn id(&self, key: &str) -> String {
        format!("{}/{}", self.client.root, key.trim_start_matches('/'))
    }

    fn stat(&self, key: &str) -> Result<Stat> {
        if let Some(k) = self.known(key) {
            return Ok(k.stat);
        }
        let trimmed = key.trim_matches('/');
        let known = if trimmed.is_empty() {
            // The bucket itself: a folder when it can be listed.
            self.list(key)
                .map(|_| Known {
                    stat: Stat::Dir,
                    head: None,
                })
                .or_else(|e| {
                    if e.io_kind() == Some(std::io::ErrorKind::NotFound) {
                        Ok(Known {
                            stat: Stat::Missing,
                            head: None,
                        })
                    } else {
                        Err(e)
                    }
                })?
        } else if key.ends_with('/') {
            Known {
                stat: self.look_around(trimmed)?,
                head: None,
            }
        } else {
            match self.look(key)? {
                Looked::File(known) => known,
                Looked::Nothing => Known {
                    stat: self.look_around(key)?,
                    head: None,
                },
                // Some servers fail a GET of a folder (s3s-fs answers
                // 500): a listing tells; anything else is the error.
                Looked::ServerError(e) => match self.look_around(key) {
                    Ok(Stat::Dir) => Known {
                        stat: Stat::Dir,
                        head: None,
                    },
                    _ => return Err(e),
                },
            }
        };
        self.learn(key, known.clone());
        Ok(known.stat)
    }

    fn open(&self, key: &str) -> Result<Arc<dyn Blob>> {
        let id = self.id(key);
        let len = match self.stat(key)? {
            Stat::File { len } => len,
            Stat::Dir => {
                return Err(Error::io(
                    id,
                    std::io::Error::new(
                        std::io::ErrorKind::IsADirectory,
                        "is a folder (a prefix of objects)",
                    ),
                ));
            }
            _ => {
                return Err(Error::io(
                    id,
                    std::io::Error::new(std::io::ErrorKind::NotFound, "no such object or bucket"),
                ));
            }
        };
        let head = self.known(key).and_then(|k| k.head);
        Ok(Arc::new(RemoteBlob::new(
            Arc::clone(&self.client),
            self.path(key)?,
            id,
            len,
            head,
        )))
    }

    /// Several unknown keys: one listing of their common prefix learns
    /// their lengths (a checkpoint's shards: one request, not one each).
    /// A key the complete listing lacks is known missing; a failed
    /// listing (a bucket that may be read but not listed) teaches
    /// nothing, and each key is asked for when opened.
    fn prepare_open(&self, keys: &[String]) {
        let unknown: Vec<&str> = keys
            .iter()
            .map(|k| k.as_str())
            .filter(|k| !k.ends_with('/') && self.known(k).is_none())
            .collect();
        if unknown.len() < 2 {
            return;
        }
        let prefix = common_prefix(&unknown).trim_start_matches('/');
        if let Ok(true) = self.learn_prefix(prefix) {
            for k in unknown {
                if self.known(k).is_none() {
                    let stat = Stat::Missing;
                    self.learn(k, Known { stat, head: None });
                }
            }
        }
    }

    fn list(&self, key: &str) -> Result<Vec<Item>> {
        let trimmed = key.trim_matches('/');
        let path = if trimmed.is_empty() {
            None
        } else {
            Some(self.path(trimmed)?)
        };
        let client = &self.client;
        let fut = within(client.budget, async {
            client
                .store
                .list_with_delimiter(path.as_ref())
                .await
                .map_err(Fault::Request)
        });
        let listed = named(&self.id(key), runtime::block_on(fut)?)?;
        let mut items = Vec::new();
        for p in &listed.common_prefixes {
            if let Some(name) = p.filename() {
                items.push(Item {
                    name: name.to_owned(),
                    stat: Stat::Dir,
                });
            }
        }
        for o in &listed.objects {
            let stat = Stat::File { len: o.size };
            self.learn(o.location.as_ref(), Known { stat, head: None });
            if let Some(name) = o.location.filename() {
                items.push(Item {
                    name: name.to_owned(),
                    stat,
                });
            }
        }
        items.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(items)
    }

    fn join(&self, dir: &str, name: &str) -> String {
        let dir = dir.trim_end_matches('/');
        if dir.is_empty() {
            name.to_owned()
        } else {
            format!("{dir}/{name}")
        }
    }

    fn upload(&self, key: &str, from: &std::path::Path) -> Result<()> {
        let path = self.path(key)?;
        super::upload_file(&self.client, &path, &self.id(key), from)?;
        // What was known of the key is stale now.
        if let Ok(mut k) = self.known.lock() {
            k.remove(key);
        }
        Ok(())
    }

    fn split(&self, key: &str) -> (String, String) {
        let key = key.trim_end_matches('/');
        match key.rsplit_once('/') {
            Some((dir, name)) => (dir.to_owned(), name.to_owned()),
            None => (String::new(), key.to_owned()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::common_prefix;

    #[test]
    fn common_prefixes_stop_at_the_first_difference() {
        let shards = ["d/m.data-00000-of-00004", "d/m.data-00003-of-00004"];
        assert_eq!(common_prefix(&shards), "d/m.data-0000");
        assert_eq!(common_prefix(&["a/x"]), "a/x");
        assert_eq!(common_prefix(&[]), "");
        // Never inside a character: "é" is two bytes that differ last.
        assert_eq!(common_prefix(&["aé", "aè"]), "a");
    }
}
