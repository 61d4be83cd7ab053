//! Pinned (page-locked) host memory for readbacks, from a small caching
//! pool: a host [`Tensor`](crate::Tensor) read back from a device lives in a
//! [`PinnedBlock`], whose drop returns the memory to the pool (which frees
//! its oldest blocks to hold at most [`CACHE_LIMIT`] bytes).

use std::sync::{Mutex, MutexGuard};

use super::driver::{Context, Driver};
use crate::error::Result;

/// The most pinned bytes kept for reuse; more is freed on return.
pub(crate) const CACHE_LIMIT: usize = 1 << 30;

/// Allocation granularity (pinning is page-wise anyway).
const GRANULE: usize = 64 << 10;

/// A free block: its address and capacity.
struct Free {
    ptr: usize,
    cap: usize,
}

struct Pool {
    free: Vec<Free>,
    cached: usize,
}

static POOL: Mutex<Pool> = Mutex::new(Pool {
    free: Vec::new(),
    cached: 0,
});

fn pool() -> MutexGuard<'static, Pool> {
    // The pool's fields are consistent between any two statements of its
    // short critical sections, so a poisoned lock is still usable.
    POOL.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// `len` bytes of pinned host memory (at least one granule), from the pool
/// when a cached block fits without wasting more than a quarter.
pub(crate) struct PinnedBlock {
    ptr: *mut u8,
    len: usize,
    cap: usize,
    driver: Driver,
}

// SAFETY: the block owns its memory exclusively; pinned memory is plain
// host memory, usable from any thread.
unsafe impl Send for PinnedBlock {}
// SAFETY: `&PinnedBlock` only reads.
unsafe impl Sync for PinnedBlock {}

impl PinnedBlock {
    /// A block of `len` bytes.
    pub(crate) fn take(driver: Driver, ctx: &Context, len: usize) -> Result<PinnedBlock> {
        let want = len.max(1).div_ceil(GRANULE).saturating_mul(GRANULE);
        {
            let mut pool = pool();
            let best = pool
                .free
                .iter()
                .enumerate()
                .filter(|(_, f)| f.cap >= want && f.cap - want <= want / 4)
                .min_by_key(|(_, f)| f.cap)
                .map(|(i, _)| i);
            if let Some(i) = best {
                let f = pool.free.swap_remove(i);
                pool.cached -= f.cap;
                return Ok(PinnedBlock {
                    ptr: std::ptr::with_exposed_provenance_mut(f.ptr),
                    len,
                    cap: f.cap,
                    driver,
                });
            }
        }
        let ptr = driver.host_alloc(ctx, want)?;
        Ok(PinnedBlock {
            ptr,
            len,
            cap: want,
            driver,
        })
    }

    /// The start of the block, for the driver to write.
    pub(crate) fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr
    }
}

impl AsRef<[u8]> for PinnedBlock {
    fn as_ref(&self) -> &[u8] {
        // SAFETY: `ptr` points to `cap >= len` bytes of pinned memory this
        // block owns; readers see it only after the copy into it finished
        // (a readback wraps the block once its event completed).
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}

impl Drop for PinnedBlock {
    fn drop(&mut self) {
        // Keep this block, evicting the oldest cached ones to stay under
        // the limit (a workload that moves to another size then reuses
        // its blocks); a block over the limit by itself is freed.
        let mut evicted = Vec::new();
        let keep = self.cap <= CACHE_LIMIT;
        {
            let mut pool = pool();
            if keep {
                while pool.cached + self.cap > CACHE_LIMIT && !pool.free.is_empty() {
                    let old = pool.free.remove(0);
                    pool.cached -= old.cap;
                    evicted.push(old.ptr);
                }
                pool.cached += self.cap;
                pool.free.push(Free {
                    ptr: self.ptr.expose_provenance(),
                    cap: self.cap,
                });
            }
        }
        if !keep {
            evicted.push(self.ptr.expose_provenance());
        }
        if evicted.is_empty() {
            return;
        }
        // Portable pinned memory is freed under any context; device 0's
        // primary context is one every machine with a driver has. A
        // failure here can only leak the blocks.
        if let Ok(ctx) = self.driver.enter(0) {
            for ptr in evicted {
                // SAFETY: each block came from `host_alloc`, left the pool
                // (or was never in it) and is freed once.
                let _ = unsafe {
                    self.driver
                        .host_free(&ctx, std::ptr::with_exposed_provenance_mut(ptr))
                };
            }
        }
    }
}

/// How many pinned bytes the pool keeps for reuse now.
pub(crate) fn cached_bytes() -> usize {
    pool().cached
}
