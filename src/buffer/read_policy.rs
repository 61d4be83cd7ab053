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
//! last of those is dropped, the map goes back to the process-wide read
//! pool ([`super::read_pool`]: bounded, emptied after a second idle or on
//! request), and the next large read of a size it fits takes it: its pages
//! are already faulted in, so that read costs the copy alone. A large read
//! that no kept map fits first gives back the longest-kept maps until those
//! left and the new read fit in the pool's bound together. A reused map
//! holds the bytes of its last read until overwritten: readers only hand
//! out bytes they read (every caller checks how many arrived).

use std::io;
use std::io::Read;

use bytes::Bytes;

use super::read_pool;
use crate::error::Result;

/// At and above this many bytes, a read destination is a huge-page map.
pub(crate) const LARGE: usize = 4 << 20;

/// The transparent huge page size on x86-64 and (4 KiB-page) arm64.
const HUGE_PAGE: usize = 2 << 20;

/// A frozen map: the bytes of one read, read-only; back to the read pool
/// when dropped.
struct Frozen {
    /// `None` only inside `drop`, when no `Bytes` can read it any more.
    map: Option<memmap2::Mmap>,
    /// The bytes read, at most the map's length (`freeze` made it so).
    len: usize,
}

impl AsRef<[u8]> for Frozen {
    #[allow(
        clippy::unreachable,
        reason = "the map is taken only by drop, after the last Bytes"
    )]
    fn as_ref(&self) -> &[u8] {
        match self.map.as_deref().and_then(|m| m.get(..self.len)) {
            Some(bytes) => bytes,
            // An empty slice here would be a plausible wrong answer.
            None => unreachable!("a frozen read buffer outside its map (a tftensor bug)"),
        }
    }
}

impl Drop for Frozen {
    fn drop(&mut self) {
        // No `Bytes` of it is left: the pages are free for another read.
        // A map the pool would not keep, or that cannot be made writable
        // again, is unmapped instead.
        let Some(map) = self.map.take() else {
            return;
        };
        if read_pool::would_keep(map.len()) {
            if let Ok(map) = map.make_mut() {
                read_pool::give(map);
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
            // A kept map that fits, else room made for a new one: kept
            // pages given back, oldest first, until they and the new ones
            // fit in the pool's bound.
            if let Some(map) = read_pool::take_or_make_room(mapped) {
                return Ok(ReadBuf {
                    inner: Inner::Map(map, len),
                });
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
            #[expect(
                clippy::indexing_slicing,
                reason = "`new` made the map `len` bytes rounded up to whole huge pages, \
                          or took a kept map at least that long"
            )]
            Inner::Map(m, len) => &mut m[..*len],
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
        while let Some(rest) = piece.get_mut(filled..).filter(|r| !r.is_empty()) {
            match r.read(rest) {
                Ok(0) => break,
                Ok(n) if n <= rest.len() => filled += n,
                Ok(_) => {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        "a read returned more bytes than it was given room for",
                    ));
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        #[expect(
            clippy::indexing_slicing,
            reason = "filled <= piece.len(): each read adds at most the room it was given"
        )]
        on_chunk(&piece[..filled]);
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
