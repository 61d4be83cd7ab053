//! The one policy for buffers that file readers fill (npy, safetensors,
//! checkpoint shards, TFRecord files).
//!
//! Reading a large file from the page cache is bound by first-touch page
//! faults on the destination, not by the copy: a fresh 4 KiB-page buffer
//! takes one fault per 4 KiB, and a zero-fill before the read touches every
//! byte twice. So a destination of at least [`LARGE`] bytes is an anonymous
//! map advised to use transparent huge pages (512 times fewer faults, as
//! NumPy does for its large arrays). Its pages come zeroed from the kernel
//! on first touch, so there is no user-space zero-fill and no uninitialized
//! memory is ever seen. Smaller destinations are a zeroed `Vec` (the zeroing
//! stays in cache and is cheap at that size).
//!
//! A [`ReadBuf`] is written while it is private and handed out read-only,
//! as [`Bytes`], once filled: tensors then adopt slices of it. When the
//! last of those is dropped, the map goes back to a small process-wide
//! [`Pool`] (at most [`POOL_MAX`] bytes), and the next large read of a size
//! it fits takes it: its pages are already faulted in, so that read costs
//! the copy alone, as TF's allocator gives back memory it holds. A large
//! read that no kept map fits first gives back the longest-kept maps until
//! those left and the new read fit in [`POOL_MAX`] together. A reused
//! map holds the bytes of its last read until overwritten: readers only
//! hand out bytes they read (every caller checks how many arrived).

use std::io;
use std::io::Read;
use std::sync::Mutex;

use bytes::Bytes;

use crate::error::Result;

/// At and above this many bytes, a read destination is a huge-page map.
pub(crate) const LARGE: usize = 4 << 20;

/// The transparent huge page size on x86-64 and (4 KiB-page) arm64.
const HUGE_PAGE: usize = 2 << 20;

/// The most bytes of maps the process-wide [`Pool`] keeps for reuse.
pub(crate) const POOL_MAX: usize = 2 << 30;

/// Maps of finished reads, kept for the next large read.
static POOL: Mutex<Pool> = Mutex::new(Pool::new(POOL_MAX));

/// Frozen maps given back by their last owner, at most `max` bytes of them.
pub(crate) struct Pool {
    maps: Vec<memmap2::MmapMut>,
    max: usize,
}

impl Pool {
    pub(crate) const fn new(max: usize) -> Pool {
        Pool {
            maps: Vec::new(),
            max,
        }
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

    /// Drops (unmaps) the longest-kept maps until those left and a new
    /// map of `len` bytes together fit in the pool's max: what the pool
    /// keeps idle beside a new read is bounded by the same max.
    pub(crate) fn make_room(&mut self, len: usize) {
        let mut held: usize = self.maps.iter().map(|m| m.len()).sum();
        let mut evict = 0;
        for m in &self.maps {
            if held.saturating_add(len) <= self.max {
                break;
            }
            held -= m.len();
            evict += 1;
        }
        self.maps.drain(..evict);
    }

    /// Keeps `map`, dropping (unmapping) the longest-kept maps when that
    /// makes room for it; drops `map` itself when it is larger than the
    /// pool's max. Newest kept: a map from a pattern of reads the process
    /// no longer makes ages out.
    pub(crate) fn give(&mut self, map: memmap2::MmapMut) {
        if map.len() <= self.max {
            self.make_room(map.len());
            self.maps.push(map);
        }
    }
}

/// A frozen map: the bytes of one read, read-only; back to the [`POOL`]
/// when dropped.
struct Frozen {
    map: Option<memmap2::Mmap>,
    len: usize,
}

impl AsRef<[u8]> for Frozen {
    fn as_ref(&self) -> &[u8] {
        // `map` is `None` only during drop; `len` is within the map.
        self.map
            .as_deref()
            .and_then(|m| m.get(..self.len))
            .unwrap_or_default()
    }
}

impl Drop for Frozen {
    fn drop(&mut self) {
        // No `Bytes` of it is left: the pages are free for another read.
        // A map that cannot be made writable again is unmapped instead.
        if let Some(map) = self.map.take().and_then(|m| m.make_mut().ok()) {
            if let Ok(mut pool) = POOL.lock() {
                pool.give(map);
            }
        }
    }
}

/// A buffer that reads fill, then frozen into shared read-only [`Bytes`].
pub(crate) struct ReadBuf {
    inner: Inner,
}

enum Inner {
    /// An anonymous map (page-aligned, kernel-zeroed pages) of at least
    /// the length that follows.
    Map(memmap2::MmapMut, usize),
    /// A zeroed `Vec`, for small buffers.
    Vec(Vec<u8>),
}

impl ReadBuf {
    /// A buffer of `len` bytes under the policy above.
    ///
    /// # Errors
    /// [`Error::AllocationFailed`](crate::Error::AllocationFailed) when the
    /// memory cannot be had.
    pub(crate) fn new(len: usize) -> Result<ReadBuf> {
        if len >= LARGE {
            // A whole number of huge pages: the kernel aligns such a map to
            // a huge-page boundary, so no 4 KiB pages are left at its ends.
            let mapped = len
                .checked_next_multiple_of(HUGE_PAGE)
                .ok_or(crate::Error::AllocationFailed { bytes: len })?;
            if let Ok(mut pool) = POOL.lock() {
                if let Some(map) = pool.take(mapped) {
                    return Ok(ReadBuf {
                        inner: Inner::Map(map, len),
                    });
                }
                // None fits: give back kept pages, oldest first, until
                // they and the new ones fit in the pool's max.
                pool.make_room(mapped);
            }
            let map = memmap2::MmapMut::map_anon(mapped)
                .map_err(|_| crate::Error::AllocationFailed { bytes: len })?;
            #[cfg(target_os = "linux")]
            {
                // Only advice: without THP the map still works, with 4 KiB
                // pages.
                let _ = map.advise(memmap2::Advice::HugePage);
            }
            return Ok(ReadBuf {
                inner: Inner::Map(map, len),
            });
        }
        let mut v = super::try_vec::<u8>(len)?;
        v.resize(len, 0);
        Ok(ReadBuf {
            inner: Inner::Vec(v),
        })
    }

    /// The whole buffer, writable while it is private.
    pub(crate) fn as_mut_slice(&mut self) -> &mut [u8] {
        match &mut self.inner {
            // In bounds: the map is `len` rounded up to whole pages.
            Inner::Map(m, len) => m.get_mut(..*len).unwrap_or_default(),
            Inner::Vec(v) => v.as_mut_slice(),
        }
    }

    /// The address of the first byte (stable: the buffer never moves,
    /// [`freeze`](Self::freeze) included), to place data at aligned
    /// offsets.
    #[allow(
        dead_code,
        reason = "used by some formats' readers; a build without them leaves it unused"
    )]
    pub(crate) fn addr(&self) -> usize {
        match &self.inner {
            Inner::Map(m, _) => m.as_ptr() as usize,
            Inner::Vec(v) => v.as_ptr() as usize,
        }
    }

    /// The filled buffer as shared read-only bytes, at the same address.
    ///
    /// # Errors
    /// An I/O error when the map cannot be made read-only.
    pub(crate) fn freeze(self) -> io::Result<Bytes> {
        Ok(match self.inner {
            Inner::Map(m, len) => Bytes::from_owner(Frozen {
                map: Some(m.make_read_only()?),
                len,
            }),
            // `from_owner` keeps the Vec where it is (`Bytes::from` may
            // reallocate to shed spare capacity).
            Inner::Vec(v) => Bytes::from_owner(v),
        })
    }
}

/// Reads exactly `len` bytes of `r` into a new [`ReadBuf`], frozen.
///
/// The reads ask for [`READ_CHUNK`] bytes at a time: a reader that sums
/// what passes through it (a zip member's CRC-32) then sums each chunk
/// while it is still in cache, not the whole buffer in a second pass over
/// memory.
///
/// # Errors
/// The read's error (`UnexpectedEof` when `r` ends early); an allocation
/// failure as `OutOfMemory`.
#[allow(
    dead_code,
    reason = "used by some formats' readers; a build without them leaves it unused"
)]
pub(crate) fn read_exact_new<R: Read>(r: &mut R, len: usize) -> io::Result<Bytes> {
    let mut buf = ReadBuf::new(len).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    for chunk in buf.as_mut_slice().chunks_mut(READ_CHUNK) {
        r.read_exact(chunk)?;
    }
    buf.freeze()
}

/// Bytes read or written at a time where they are also checksummed (as
/// they pass through a zip reader, or by the reader itself): about one
/// core's L2, so the sum finds them there.
pub(crate) const READ_CHUNK: usize = 1 << 20;

/// Fills `dst` from `r` in `chunk`-byte reads, calling `on_chunk` with each
/// chunk right after it arrives (while it is still in cache). Returns how
/// many bytes were read: less than `dst.len()` only when `r` ended.
///
/// # Errors
/// The read's error (`Interrupted` is retried).
#[allow(
    dead_code,
    reason = "used by some formats' readers; a build without them leaves it unused"
)]
pub(crate) fn fill_chunked<R: Read + ?Sized>(
    r: &mut R,
    dst: &mut [u8],
    chunk: usize,
    on_chunk: &mut dyn FnMut(&[u8]),
) -> io::Result<usize> {
    let mut got = 0;
    for piece in dst.chunks_mut(chunk.max(1)) {
        let mut filled = 0;
        while filled < piece.len() {
            // In bounds: filled < piece.len() (the loop's condition).
            let rest = piece.get_mut(filled..).unwrap_or_default();
            match r.read(rest) {
                Ok(0) => break,
                Ok(n) => filled += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        // In bounds: filled <= piece.len().
        on_chunk(piece.get(..filled).unwrap_or_default());
        got += filled;
        if filled < piece.len() {
            break;
        }
    }
    Ok(got)
}

/// The smallest position at or after `pos` whose address in a buffer at
/// `base` plus `skew` is a multiple of `align` (a power of two).
#[allow(
    dead_code,
    reason = "used by some formats' readers; a build without them leaves it unused"
)]
pub(crate) fn align_pos(base: usize, pos: usize, skew: usize, align: usize) -> usize {
    let addr = base.wrapping_add(pos).wrapping_add(skew);
    let pad = addr.wrapping_neg() & (align - 1);
    pos + pad
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn large_buffers_are_page_aligned_maps_and_small_ones_vecs() {
        let big = ReadBuf::new(LARGE).unwrap();
        assert!(matches!(big.inner, Inner::Map(..)));
        assert_eq!(big.addr() % 4096, 0);
        let small = ReadBuf::new(100).unwrap();
        assert!(matches!(small.inner, Inner::Vec(_)));
    }

    #[test]
    fn freeze_keeps_the_address_and_the_bytes() {
        for len in [0usize, 5, LARGE + 3] {
            let mut b = ReadBuf::new(len).unwrap();
            let addr = b.addr();
            for (i, x) in b.as_mut_slice().iter_mut().enumerate() {
                *x = i as u8;
            }
            let frozen = b.freeze().unwrap();
            assert_eq!(frozen.len(), len);
            if len > 0 {
                assert_eq!(frozen.as_ptr() as usize, addr);
            }
            assert!(frozen.iter().enumerate().all(|(i, &x)| x == i as u8));
        }
    }

    #[test]
    fn fill_chunked_sees_every_chunk_once_and_stops_at_the_end() {
        let src: Vec<u8> = (0..=255u8).cycle().take(1000).collect();
        let mut dst = vec![0u8; 1200];
        let mut seen = Vec::new();
        let got = fill_chunked(&mut &src[..], &mut dst, 300, &mut |c| {
            seen.extend_from_slice(c)
        })
        .unwrap();
        assert_eq!(got, 1000);
        assert_eq!(seen, src);
        assert_eq!(&dst[..1000], &src[..]);
    }

    #[test]
    fn align_pos_aligns_the_skewed_address() {
        assert_eq!(align_pos(0x1000, 0, 0, 64), 0);
        assert_eq!(align_pos(0x1000, 1, 0, 64), 64);
        assert_eq!(align_pos(0x1000, 0, 14, 64), 50);
        assert_eq!((0x1000 + align_pos(0x1000, 70, 14, 64) + 14) % 64, 0);
    }
}

#[cfg(test)]
mod pool_tests {
    use super::*;

    #[test]
    fn the_pool_gives_the_smallest_fitting_map_and_keeps_at_most_its_max() {
        let mut pool = Pool::new(12 << 20);
        for mib in [8usize, 4, 1] {
            pool.give(memmap2::MmapMut::map_anon(mib << 20).unwrap());
        }
        // 13 MiB would pass 12: the oldest (8 MiB) went.
        assert_eq!(
            pool.maps.iter().map(|m| m.len() >> 20).collect::<Vec<_>>(),
            [4, 1]
        );
        assert_eq!(pool.take(3 << 20).unwrap().len(), 4 << 20);
        // 1 MiB is less than half of 5 MiB: neither given nor grown.
        assert!(pool.take(5 << 20).is_none());
        pool.give(memmap2::MmapMut::map_anon(8 << 20).unwrap());
        // 8 MiB is more than twice 3 MiB: not given for it.
        assert!(pool.take(3 << 20).is_none());
        assert_eq!(pool.take(5 << 20).unwrap().len(), 8 << 20);
        assert!(pool.take(1).is_none());
        // Larger than the max: not kept, and nothing evicted for it.
        pool.give(memmap2::MmapMut::map_anon(13 << 20).unwrap());
        assert_eq!(
            pool.maps.iter().map(|m| m.len() >> 20).collect::<Vec<_>>(),
            [1]
        );
        pool.make_room(12 << 20);
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
        pool.make_room(2 << 20);
        assert_eq!(
            pool.maps.iter().map(|m| m.len() >> 20).collect::<Vec<_>>(),
            [4, 6]
        );
        // 10 held + 2 fit: nothing goes.
        pool.make_room(2 << 20);
        assert_eq!(pool.maps.len(), 2);
        // 5 MiB needs the 4 MiB map gone too (6 + 5 <= 12).
        pool.make_room(5 << 20);
        assert_eq!(
            pool.maps.iter().map(|m| m.len() >> 20).collect::<Vec<_>>(),
            [6]
        );
        // Larger than the max: everything goes.
        pool.make_room(13 << 20);
        assert!(pool.maps.is_empty());
    }

    #[test]
    fn a_dropped_read_is_reused_and_a_reused_buffer_reads_right() {
        // A size no other test asks for, so the reuse is ours.
        let len = (37 << 20) + 123;
        let mut a = ReadBuf::new(len).unwrap();
        a.as_mut_slice().fill(7);
        let bytes = a.freeze().unwrap();
        assert_eq!(bytes.len(), len);
        let first = bytes.as_ptr() as usize;
        let kept = bytes.slice(10..20);
        drop(bytes);
        // A slice still holds it: not back in the pool yet.
        let mut b = ReadBuf::new(len).unwrap();
        assert_ne!(b.addr(), first);
        assert_eq!(&kept[..], [7; 10]);
        b.as_mut_slice().fill(1);
        let second = b.addr();
        drop((kept, b.freeze().unwrap()));
        let mut c = ReadBuf::new(len).unwrap();
        assert!([first, second].contains(&c.addr()));
        c.as_mut_slice().fill(9);
        let c = c.freeze().unwrap();
        assert!(c.iter().all(|&x| x == 9));
    }
}
