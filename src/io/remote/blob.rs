//! [`RemoteBlob`]: an object read by range. Small reads (headers, index
//! blocks, the scattered metadata of HDF5 and TFLite) go through a cache
//! of 256 KiB blocks; small reads that follow each other (a record
//! stream) are served, once four have followed each other, by a
//! read-ahead of growing ranges (256 KiB up to 16 MiB, up to four in
//! flight as the stream goes on); large reads and [`Blob::read_ranges`] go
//! straight into the caller's buffers, several requests at once.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::{Arc, Mutex};

use bytes::Bytes;
use object_store::path::Path;
use tokio::task::JoinHandle;

use super::config::Client;
use super::fetch;
use super::retry::{Fault, named};
use super::runtime;
use crate::error::{Error, Result};
use crate::io::blob::{Blob, RangeRead};

/// Reads of at most this many bytes go through the block cache.
pub(crate) const SMALL: usize = 64 << 10;
/// The block cache's block size.
const BLOCK: u64 = 256 << 10;
/// How many blocks (or ranges) the cache keeps per object.
const BLOCKS: usize = 32;
/// How many small reads must follow each other before the read-ahead
/// starts.
const STREAK: u32 = 4;
/// The read-ahead's first and largest range.
const AHEAD_FIRST: u64 = 256 << 10;
const AHEAD_MAX: u64 = 16 << 20;
/// The most read-ahead ranges in flight.
const AHEAD_DEPTH: usize = 4;

/// An object of a remote store, read by range.
pub(crate) struct RemoteBlob {
    client: Arc<Client>,
    path: Path,
    id: String,
    len: u64,
    cache: Mutex<Cache>,
    ahead: Mutex<Ahead>,
}

impl std::fmt::Debug for RemoteBlob {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RemoteBlob")
            .field("id", &self.id)
            .field("len", &self.len)
            .finish_non_exhaustive()
    }
}

/// Ranges of the object already fetched, least recently used first.
#[derive(Default)]
struct Cache {
    ranges: VecDeque<(u64, Bytes)>,
}

impl Cache {
    /// Copies what the cache holds of `offset..` into `dst`, in order;
    /// returns how many bytes it copied.
    fn copy(&mut self, offset: u64, dst: &mut [u8]) -> usize {
        let mut done = 0usize;
        while done < dst.len() {
            let pos = offset + done as u64;
            let Some(i) = self
                .ranges
                .iter()
                .position(|(start, b)| *start <= pos && pos < start + b.len() as u64)
            else {
                break;
            };
            let Some(entry) = self.ranges.remove(i) else {
                break;
            };
            let from = (pos - entry.0) as usize;
            let n = (entry.1.len() - from).min(dst.len() - done);
            if let (Some(d), Some(s)) = (dst.get_mut(done..done + n), entry.1.get(from..from + n)) {
                d.copy_from_slice(s);
            }
            done += n;
            self.ranges.push_back(entry);
        }
        done
    }

    fn keep(&mut self, start: u64, bytes: Bytes) {
        if bytes.is_empty() {
            return;
        }
        while self.ranges.len() >= BLOCKS {
            self.ranges.pop_front();
        }
        self.ranges.push_back((start, bytes));
    }
}

/// A range being fetched in the background.
type Fetching = JoinHandle<std::result::Result<Bytes, Fault>>;

/// The read-ahead of a stream of small reads.
#[derive(Default)]
struct Ahead {
    /// Where the last small read ended: a small read starting there
    /// continues a stream.
    expect: Option<u64>,
    /// How many small reads in a row each started where the last ended.
    streak: u32,
    /// How many ranges the stream has served: it keeps that many plus
    /// one in flight (up to [`AHEAD_DEPTH`]).
    consumed: usize,
    /// The range being served.
    current: Option<(u64, Bytes)>,
    /// Ranges requested, in order.
    pending: VecDeque<(Range<u64>, Fetching)>,
    /// Where the next range to request starts, and its length.
    next: u64,
    size: u64,
}

impl Drop for Ahead {
    fn drop(&mut self) {
        for (_, h) in &self.pending {
            h.abort();
        }
    }
}

impl Ahead {
    fn reset(&mut self) {
        for (_, h) in self.pending.drain(..) {
            h.abort();
        }
        self.current = None;
        self.size = 0;
        self.consumed = 0;
    }
}

impl RemoteBlob {
    /// The object at `path`, of `len` bytes, with its first bytes when
    /// known already.
    pub(crate) fn new(
        client: Arc<Client>,
        path: Path,
        id: String,
        len: u64,
        head: Option<Bytes>,
    ) -> RemoteBlob {
        let mut cache = Cache::default();
        if let Some(h) = head {
            cache.keep(0, h);
        }
        RemoteBlob {
            client,
            path,
            id,
            len,
            cache: Mutex::new(cache),
            ahead: Mutex::new(Ahead::default()),
        }
    }

    fn poisoned(&self) -> Error {
        Error::io(
            &self.id,
            std::io::Error::other("a lock was poisoned by a panic"),
        )
    }

    /// A small read: from the cache, the read-ahead, or a block fetch.
    fn small(&self, offset: u64, dst: &mut [u8]) -> Result<()> {
        let end = offset + dst.len() as u64;
        let mut ahead = self.ahead.lock().map_err(|_| self.poisoned())?;
        let streaming = ahead.expect == Some(offset);
        ahead.expect = Some(end);
        ahead.streak = if streaming {
            ahead.streak.saturating_add(1)
        } else {
            0
        };
        let active = ahead.current.is_some() || !ahead.pending.is_empty();
        if (active || ahead.streak >= STREAK) && self.serve_stream(&mut ahead, offset, dst)? {
            return Ok(());
        }
        drop(ahead);
        let done = self
            .cache
            .lock()
            .map_err(|_| self.poisoned())?
            .copy(offset, dst);
        if done == dst.len() {
            return Ok(());
        }
        let pos = offset + done as u64;
        let start = pos / BLOCK * BLOCK;
        let stop = end.div_ceil(BLOCK).saturating_mul(BLOCK).min(self.len);
        let client = &self.client;
        let bytes = named(
            &self.id,
            runtime::block_on(fetch::fetch(client, &self.path, start..stop))?,
        )?;
        let mut cache = self.cache.lock().map_err(|_| self.poisoned())?;
        cache.keep(start, bytes);
        let (_, rest) = dst.split_at_mut_checked(done).ok_or_else(|| {
            Error::data_loss("the cache copied more than asked").with_path(&self.id)
        })?;
        let n = cache.copy(pos, rest);
        debug_assert_eq!(n, rest.len(), "the block just fetched covers the read");
        Ok(())
    }

    /// Serves a read of a stream from the read-ahead, starting it where
    /// needed; `false` when the read is not where the stream is (the
    /// stream is then dropped).
    fn serve_stream(&self, ahead: &mut Ahead, offset: u64, dst: &mut [u8]) -> Result<bool> {
        let start = match (&ahead.current, ahead.pending.front()) {
            (Some((s, _)), _) => Some(*s),
            (None, Some((r, _))) => Some(r.start),
            (None, None) => None,
        };
        match start {
            Some(s) if s <= offset && offset < ahead.next => {}
            Some(_) => {
                ahead.reset();
                return Ok(false);
            }
            None => {
                ahead.next = offset;
                ahead.size = AHEAD_FIRST;
                ahead.consumed = 0;
            }
        }
        let mut done = 0usize;
        while done < dst.len() {
            let pos = offset + done as u64;
            if let Some((s, b)) = &ahead.current {
                if *s <= pos && pos < s + b.len() as u64 {
                    let from = (pos - s) as usize;
                    let n = (b.len() - from).min(dst.len() - done);
                    if let (Some(d), Some(src)) =
                        (dst.get_mut(done..done + n), b.get(from..from + n))
                    {
                        d.copy_from_slice(src);
                    }
                    done += n;
                    continue;
                }
            }
            self.top_up(ahead)?;
            let Some((range, handle)) = ahead.pending.pop_front() else {
                break;
            };
            if range.end <= pos {
                // Skipped over: not waited for.
                handle.abort();
                continue;
            }
            let joined = runtime::block_on(handle)?;
            let got = joined.map_err(|e| Error::io(&self.id, std::io::Error::other(e)))?;
            let bytes = named(&self.id, got)?;
            ahead.current = Some((range.start, bytes));
            ahead.consumed += 1;
            self.top_up(ahead)?;
        }
        Ok(done == dst.len())
    }

    /// Requests ranges until one more than the stream has served (at most
    /// [`AHEAD_DEPTH`]) are in flight, each twice the last up to
    /// [`AHEAD_MAX`].
    fn top_up(&self, ahead: &mut Ahead) -> Result<()> {
        let handle = runtime::handle()?;
        let depth = (ahead.consumed + 1).min(AHEAD_DEPTH);
        while ahead.pending.len() < depth && ahead.next < self.len {
            let range = ahead.next..(ahead.next + ahead.size).min(self.len);
            ahead.next = range.end;
            ahead.size = (ahead.size * 2).min(AHEAD_MAX);
            let (client, path, r) = (Arc::clone(&self.client), self.path.clone(), range.clone());
            let task = handle.spawn(async move { fetch::fetch(&client, &path, r).await });
            ahead.pending.push_back((range, task));
        }
        Ok(())
    }
}

impl Blob for RemoteBlob {
    fn id(&self) -> &str {
        &self.id
    }

    fn len(&self) -> u64 {
        self.len
    }

    fn read_at(&self, offset: u64, dst: &mut [u8]) -> Result<()> {
        (self as &dyn Blob).check(offset, dst.len() as u64)?;
        if dst.is_empty() {
            return Ok(());
        }
        if dst.len() <= SMALL {
            return self.small(offset, dst);
        }
        self.read_ranges(vec![RangeRead {
            offset,
            dst,
            sum: None,
        }])
        .map(|_| ())
    }

    fn read_ranges(&self, reads: Vec<RangeRead<'_>>) -> Result<Vec<Option<u32>>> {
        for r in &reads {
            (self as &dyn Blob).check(r.offset, r.dst.len() as u64)?;
        }
        // Reads the cache holds (a header within the first bytes) are
        // served from it; the rest are fetched.
        let mut out = vec![None; reads.len()];
        let mut fetch_these = Vec::with_capacity(reads.len());
        let mut places = Vec::with_capacity(reads.len());
        {
            let mut cache = self.cache.lock().map_err(|_| self.poisoned())?;
            for (i, r) in reads.into_iter().enumerate() {
                if r.dst.len() <= SMALL && cache.copy(r.offset, r.dst) == r.dst.len() {
                    if let Some(slot) = out.get_mut(i) {
                        *slot = r.sum.map(|s| s.of(r.dst));
                    }
                } else {
                    places.push(i);
                    fetch_these.push(r);
                }
            }
        }
        if fetch_these.is_empty() {
            return Ok(out);
        }
        let fut = fetch::read_ranges(&self.client, &self.path, fetch_these);
        let sums = named(&self.id, runtime::block_on(fut)?)?;
        for (i, s) in places.into_iter().zip(sums) {
            if let Some(slot) = out.get_mut(i) {
                *slot = s;
            }
        }
        Ok(out)
    }
}
