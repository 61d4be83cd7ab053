//! The read-buffer pool: the memory tftensor keeps after you let go of it,
//! and how to bound it or take it back.
//!
//! A large read (≥ 4 MiB: a `.npy`, a safetensors file, a checkpoint shard,
//! a TFRecord file) lands in a fresh anonymous map of huge pages. On this
//! kind of machine the first touch of fresh memory costs more than the copy
//! itself (BENCHMARKS.md, "Fresh pages"), so when the last tensor over a
//! read's bytes is dropped its map is not unmapped at once: it goes to this
//! process-wide pool, and the next large read of a size it fits takes it
//! with its pages already in memory (that read then costs the copy alone,
//! as TensorFlow's allocator gives back memory it holds).
//!
//! What the pool keeps, and for how long:
//!
//! * at most [`read_pool_limit`] bytes (2 GiB unless set by
//!   [`set_read_pool_limit`] or the `TFTENSOR_READ_POOL_MAX` environment
//!   variable; 0 turns the pool off);
//! * for at most [`READ_POOL_IDLE`] (1 s) after the last read took or gave
//!   a map: then a helper thread (alive only while the pool holds maps)
//!   unmaps them all, so the process's memory falls back by itself;
//! * nothing after [`release_memory`], which unmaps every kept map now.
//!
//! Unmapping is what returns the pages: `MADV_FREE` on a kept map leaves
//! them counted in the process's memory until the kernel needs them, and
//! `MADV_DONTNEED` makes the next read fault them in afresh, which is the
//! cost the pool exists to avoid (both measured; BENCHMARKS.md, "The
//! read-buffer pool").

use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How long the pool keeps maps that no read takes: after this much time
/// without a large read, every kept map is unmapped.
///
/// ```
/// assert_eq!(tftensor::READ_POOL_IDLE, std::time::Duration::from_secs(1));
/// ```
pub const READ_POOL_IDLE: Duration = Duration::from_secs(1);

/// The pool's bound unless the environment or the API sets another.
const DEFAULT_MAX: usize = 2 << 30;

/// The environment variable that sets the bound at the first large read.
const ENV_MAX: &str = "TFTENSOR_READ_POOL_MAX";

/// Maps of finished reads, kept for the next large read.
static POOL: LazyLock<Mutex<Pool>> = LazyLock::new(|| {
    let max = std::env::var(ENV_MAX)
        .ok()
        .and_then(|v| parse_bytes(&v))
        .unwrap_or(DEFAULT_MAX);
    Mutex::new(Pool::new(max))
});

/// The pool, whatever a panicking holder left: a list of maps and a bound
/// are consistent at every step, so a poisoned lock is still good.
fn pool() -> MutexGuard<'static, Pool> {
    POOL.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A byte count as `TFTENSOR_READ_POOL_MAX` spells it: digits, then
/// optionally `K`, `M` or `G` (binary, with or without `B` or `iB`), any
/// case: `0`, `536870912`, `512M`, `1GiB`. `None` for anything else, which
/// leaves the default.
fn parse_bytes(text: &str) -> Option<usize> {
    let text = text.trim();
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let (number, unit) = text.split_at_checked(digits)?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kb" | "kib" => 10,
        "m" | "mb" | "mib" => 20,
        "g" | "gb" | "gib" => 30,
        _ => return None,
    };
    number.parse::<usize>().ok()?.checked_mul(1 << shift)
}

/// The most bytes of maps the pool keeps. 0: the pool is off.
///
/// ```
/// let limit = tftensor::read_pool_limit();
/// assert!(limit <= usize::MAX);
/// ```
pub fn read_pool_limit() -> usize {
    pool().max
}

/// Sets the most bytes of maps the pool keeps; 0 turns it off. Maps past
/// the new bound are unmapped now, the longest-kept first.
///
/// ```
/// let before = tftensor::read_pool_limit();
/// tftensor::set_read_pool_limit(256 << 20);
/// assert_eq!(tftensor::read_pool_limit(), 256 << 20);
/// assert!(tftensor::read_pool_bytes() <= 256 << 20);
/// tftensor::set_read_pool_limit(before);
/// ```
pub fn set_read_pool_limit(bytes: usize) {
    let evicted = {
        let mut pool = pool();
        pool.max = bytes;
        pool.evict_for(0)
    };
    drop(evicted);
}

/// The bytes of maps the pool holds now (0 once they are released).
///
/// ```
/// tftensor::release_memory();
/// assert_eq!(tftensor::read_pool_bytes(), 0);
/// ```
pub fn read_pool_bytes() -> usize {
    pool().held()
}

/// Gives every map the pool keeps back to the system now: after the
/// tensors of large reads are dropped, the process's memory falls by
/// their size. The pool stays on; later reads fill it again. (Without
/// this call it empties itself after [`READ_POOL_IDLE`].)
///
/// ```
/// tftensor::release_memory();
/// assert_eq!(tftensor::read_pool_bytes(), 0);
/// ```
pub fn release_memory() {
    let maps = std::mem::take(&mut pool().maps);
    drop(maps);
}

/// The smallest kept map of at least `len` bytes that fits (see
/// [`Pool::take`]), or `None` after giving back the oldest maps until a new
/// map of `len` bytes fits beside those left.
pub(crate) fn take_or_make_room(len: usize) -> Option<memmap2::MmapMut> {
    let (map, evicted) = {
        let mut pool = pool();
        pool.last_used = Instant::now();
        match pool.take(len) {
            Some(map) => (Some(map), Vec::new()),
            None => (None, pool.evict_for(len)),
        }
    };
    // Unmapped outside the lock.
    drop(evicted);
    map
}

/// Whether a map of `len` bytes would be kept (so is worth making
/// writable again).
pub(crate) fn would_keep(len: usize) -> bool {
    len <= pool().max
}

/// Keeps the map of a finished read for the next one, and makes sure it is
/// unmapped after [`READ_POOL_IDLE`] if no read takes it.
pub(crate) fn give(map: memmap2::MmapMut) {
    let evicted = {
        let mut pool = pool();
        let evicted = pool.give(map);
        pool.last_used = Instant::now();
        if !pool.maps.is_empty() && !pool.reaper_running() && !spawn_reaper() {
            // No thread to give them back later: keep nothing.
            pool.maps.clear();
        }
        if !pool.maps.is_empty() {
            pool.reaper = Some(std::process::id());
        }
        evicted
    };
    drop(evicted);
}

/// Starts the thread that unmaps idle maps; `false` when it cannot start.
fn spawn_reaper() -> bool {
    std::thread::Builder::new()
        .name("tftensor-read-pool".into())
        .spawn(reap)
        .is_ok()
}

/// The helper thread: sleeps until the pool has been idle for
/// [`READ_POOL_IDLE`], unmaps what it holds, and ends (a later read starts
/// another).
fn reap() {
    loop {
        let wait = {
            let mut pool = pool();
            let idle = pool.last_used.elapsed();
            if pool.maps.is_empty() || idle >= READ_POOL_IDLE {
                pool.reaper = None;
                let maps = std::mem::take(&mut pool.maps);
                drop(pool);
                drop(maps);
                return;
            }
            READ_POOL_IDLE.saturating_sub(idle)
        };
        std::thread::sleep(wait);
    }
}

/// Frozen maps given back by their last owner, at most `max` bytes of them.
pub(crate) struct Pool {
    maps: Vec<memmap2::MmapMut>,
    max: usize,
    /// When a read last took or gave a map.
    last_used: Instant,
    /// The process whose helper thread watches the pool (a forked child
    /// has none, though it inherits the maps).
    reaper: Option<u32>,
}

impl Pool {
    pub(crate) fn new(max: usize) -> Pool {
        Pool {
            maps: Vec::new(),
            max,
            last_used: Instant::now(),
            reaper: None,
        }
    }

    fn reaper_running(&self) -> bool {
        self.reaper == Some(std::process::id())
    }

    /// The bytes of the kept maps.
    fn held(&self) -> usize {
        self.maps.iter().map(|m| m.len()).sum()
    }

    /// The smallest kept map of at least `len` bytes and at most twice
    /// that (a larger one would be held, unused, by the tensor). Failing
    /// that, on Linux, the largest kept map of at least half of `len`,
    /// grown to `len` (its faulted pages kept, only the growth new): reads
    /// of nearly the same size then share one map.
    pub(crate) fn take(&mut self, len: usize) -> Option<memmap2::MmapMut> {
        let fits = self
            .maps
            .iter()
            .enumerate()
            .filter(|(_, m)| m.len() >= len && m.len() / 2 <= len)
            .min_by_key(|(_, m)| m.len());
        if let Some((i, _)) = fits {
            return Some(self.maps.remove(i));
        }
        #[cfg(target_os = "linux")]
        {
            let (i, _) = self
                .maps
                .iter()
                .enumerate()
                .filter(|(_, m)| m.len() < len && m.len() >= len / 2)
                .max_by_key(|(_, m)| m.len())?;
            let mut map = self.maps.remove(i);
            let grow = memmap2::RemapOptions::new().may_move(true);
            // SAFETY: an anonymous private map, so the grown range is fresh
            // zeroed memory backed by nothing that can shrink; and the pool
            // owned it alone (no `Bytes` of it is left), so no pointer into
            // it is invalidated if it moves.
            let grown = unsafe { map.remap(len, grow) };
            // On failure it is dropped, and the read maps afresh.
            grown.ok().map(|()| map)
        }
        #[cfg(not(target_os = "linux"))]
        None
    }

    /// Takes out the longest-kept maps until those left and a new map of
    /// `len` bytes together fit in the pool's max, for the caller to drop
    /// (unmap): what the pool keeps idle beside a new read is bounded by
    /// the same max.
    pub(crate) fn evict_for(&mut self, len: usize) -> Vec<memmap2::MmapMut> {
        let mut held = self.held();
        let mut evict = 0;
        for m in &self.maps {
            if held.saturating_add(len) <= self.max {
                break;
            }
            held -= m.len();
            evict += 1;
        }
        self.maps.drain(..evict).collect()
    }

    /// Keeps `map`, taking out (for the caller to drop) the longest-kept
    /// maps when that makes room for it, or `map` itself when it is larger
    /// than the pool's max. Newest kept: a map from a pattern of reads the
    /// process no longer makes ages out.
    pub(crate) fn give(&mut self, map: memmap2::MmapMut) -> Vec<memmap2::MmapMut> {
        if map.len() > self.max {
            return vec![map];
        }
        let evicted = self.evict_for(map.len());
        self.maps.push(map);
        evicted
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lens(pool: &Pool) -> Vec<usize> {
        pool.maps.iter().map(|m| m.len() >> 20).collect()
    }

    #[test]
    fn the_pool_gives_the_smallest_fitting_map_and_keeps_at_most_its_max() {
        let mut pool = Pool::new(12 << 20);
        for mib in [8usize, 4, 1] {
            pool.give(memmap2::MmapMut::map_anon(mib << 20).unwrap());
        }
        // 13 MiB would pass 12: the oldest (8 MiB) went.
        assert_eq!(lens(&pool), [4, 1]);
        assert_eq!(pool.take(3 << 20).unwrap().len(), 4 << 20);
        // 1 MiB is less than half of 5 MiB: neither given nor grown.
        assert!(pool.take(5 << 20).is_none());
        pool.give(memmap2::MmapMut::map_anon(8 << 20).unwrap());
        // 8 MiB is more than twice 3 MiB: not given for it.
        assert!(pool.take(3 << 20).is_none());
        assert_eq!(pool.take(5 << 20).unwrap().len(), 8 << 20);
        assert!(pool.take(1).is_none());
        // Larger than the max: not kept, and nothing evicted for it.
        let back = pool.give(memmap2::MmapMut::map_anon(13 << 20).unwrap());
        assert_eq!(back.len(), 1);
        assert_eq!(lens(&pool), [1]);
        pool.evict_for(12 << 20);
        assert!(pool.take(1 << 20).is_none());
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_map_a_little_short_is_grown_with_its_bytes() {
        let mut pool = Pool::new(64 << 20);
        let mut small = memmap2::MmapMut::map_anon(8 << 20).unwrap();
        small.fill(5);
        pool.give(small);
        pool.give(memmap2::MmapMut::map_anon(2 << 20).unwrap());
        // 10 MiB: none is that long; the 8 MiB one (at least half) grows.
        let grown = pool.take(10 << 20).unwrap();
        assert_eq!(grown.len(), 10 << 20);
        assert!(grown[..8 << 20].iter().all(|&b| b == 5));
        assert!(grown[8 << 20..].iter().all(|&b| b == 0));
        // 5 MiB: only the 2 MiB map is left, less than half.
        assert!(pool.take(5 << 20).is_none());
        assert_eq!(pool.maps.len(), 1);
    }

    #[test]
    fn a_miss_evicts_the_oldest_maps_until_the_new_one_fits_beside_them() {
        let mut pool = Pool::new(12 << 20);
        for mib in [2usize, 4, 6] {
            pool.give(memmap2::MmapMut::map_anon(mib << 20).unwrap());
        }
        // 12 MiB held: room for 0; a 2 MiB read evicts the oldest (2 MiB).
        assert_eq!(pool.evict_for(2 << 20).len(), 1);
        assert_eq!(lens(&pool), [4, 6]);
        // 10 held + 2 fit: nothing goes.
        assert!(pool.evict_for(2 << 20).is_empty());
        // 5 MiB needs the 4 MiB map gone too (6 + 5 <= 12).
        pool.evict_for(5 << 20);
        assert_eq!(lens(&pool), [6]);
        // Larger than the max: everything goes.
        pool.evict_for(13 << 20);
        assert!(pool.maps.is_empty());
    }

    #[test]
    fn a_pool_of_zero_keeps_nothing() {
        let mut pool = Pool::new(0);
        let back = pool.give(memmap2::MmapMut::map_anon(2 << 20).unwrap());
        assert_eq!(back.len(), 1);
        assert!(pool.maps.is_empty());
        assert!(pool.take(1).is_none());
    }

    #[test]
    fn byte_counts_parse_as_the_variable_spells_them() {
        assert_eq!(parse_bytes("0"), Some(0));
        assert_eq!(parse_bytes(" 536870912 "), Some(512 << 20));
        assert_eq!(parse_bytes("512M"), Some(512 << 20));
        assert_eq!(parse_bytes("1GiB"), Some(1 << 30));
        assert_eq!(parse_bytes("64kb"), Some(64 << 10));
        assert_eq!(parse_bytes("2 g"), Some(2 << 30));
        for bad in ["", "G", "1.5G", "-1", "1T", "one"] {
            assert_eq!(parse_bytes(bad), None, "{bad}");
        }
        assert_eq!(parse_bytes(&format!("{}G", usize::MAX)), None);
    }
}
