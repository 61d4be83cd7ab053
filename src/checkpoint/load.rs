//! Reading a `.data` shard once, whole, into one buffer
//! ([`BundleReader::load`](super::BundleReader::load)): every entry's
//! bytes are placed at a 64-byte-aligned offset of a single
//! [`ReadBuf`](crate::buffer::read_policy::ReadBuf) (huge pages when
//! large), so every POD tensor adopts its slice without a copy; each
//! entry's CRC is computed chunk by chunk right after the chunk is read,
//! and a large shard is read by two threads ([`read_jobs`]).

use std::collections::HashMap;
use std::fs::File;

use bytes::Bytes;

use crate::buffer::read_policy::{align_pos, ReadBuf, LARGE};
use crate::crc32c;
use crate::error::{Error, Result};
use crate::ALIGNMENT;

use super::entry::CHUNK;

/// One entry's stored bytes, as the index names them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(super) struct Span {
    pub offset: u64,
    pub size: u64,
}

/// Where a loaded span lies in the shard's buffer, and its CRC when it
/// was computed while reading.
#[derive(Clone, Copy)]
pub(super) struct Place {
    pub start: usize,
    pub crc: Option<u32>,
}

/// A shard read once: the buffer and where each entry's bytes are in it.
pub(super) struct Loaded {
    pub bytes: Bytes,
    pub places: HashMap<Span, Place>,
}

/// Reads the `spans` of the shard `file` (`len` bytes) into one buffer,
/// each at an aligned offset; `crc` says which spans to checksum (POD
/// entries, whose CRC covers exactly their bytes). Spans past the end of
/// the file are left out (their `get` reports it). `None` when the spans
/// overlap or together exceed the file: then the index does not describe
/// a plain TF shard, and the caller reads entry by entry instead (never
/// allocating more than the file backs).
pub(super) fn load_shard(
    file: &File,
    name: &str,
    len: u64,
    spans: &[(Span, bool)],
) -> Result<Option<Loaded>> {
    let mut spans: Vec<(Span, bool)> = spans
        .iter()
        .copied()
        .filter(|(s, _)| s.offset.checked_add(s.size).is_some_and(|end| end <= len))
        .collect();
    spans.sort_unstable();
    spans.dedup_by(|b, a| {
        // Same span twice: checksum it if either wants it.
        if a.0 == b.0 {
            a.1 |= b.1;
            true
        } else {
            false
        }
    });
    let mut total: u64 = 0;
    let mut end_prev = 0u64;
    for (s, _) in &spans {
        if s.offset < end_prev {
            return Ok(None);
        }
        end_prev = s.offset + s.size;
        total = total.saturating_add(s.size);
    }
    if total > len {
        return Ok(None);
    }
    // The spans end here when the buffer starts 64-byte aligned, as a
    // large one (a page-aligned map) does: then it needs no slack, and a
    // whole checkpoint takes exactly its bytes (so a map of its size is
    // reused). A small one (a `Vec`, at any address) gets room for each
    // span's padding, bounded by the index size.
    let aligned_end = spans.iter().fold(0u64, |pos, (s, _)| {
        pos.next_multiple_of(ALIGNMENT as u64)
            .saturating_add(s.size)
    });
    let pad = (spans.len() as u64).saturating_mul(ALIGNMENT as u64);
    let room = if aligned_end >= LARGE as u64 {
        aligned_end
    } else {
        total.saturating_add(pad)
    };
    let room = usize::try_from(room).map_err(|_| Error::AllocationFailed { bytes: usize::MAX })?;
    let mut buf = ReadBuf::new(room)?;
    debug_assert!(room < LARGE || buf.addr() % ALIGNMENT == 0);
    let base = buf.addr();
    // Each span at the next aligned position, in file order.
    let mut starts = Vec::with_capacity(spans.len());
    let mut pos = 0usize;
    for (span, _) in &spans {
        let start = align_pos(base, pos, 0, ALIGNMENT);
        starts.push(start);
        // Within the file (checked above), so the size fits in usize.
        pos = start + span.size as usize;
    }
    let mut jobs = Vec::with_capacity(spans.len());
    let mut rest = buf.as_mut_slice();
    let mut at = 0usize;
    for ((span, want_crc), &start) in spans.iter().zip(&starts) {
        let (dst, after) = std::mem::take(&mut rest)
            .get_mut(start - at..)
            .and_then(|r| r.split_at_mut_checked(span.size as usize))
            .ok_or(Error::AllocationFailed { bytes: room })?;
        rest = after;
        at = start + dst.len();
        jobs.push(Job {
            offset: span.offset,
            dst,
            crc: *want_crc,
        });
    }
    let crcs = read_jobs(file, jobs).map_err(|e| Error::io(name, &e))?;
    let places = spans
        .iter()
        .zip(starts)
        .zip(crcs)
        .map(|((&(span, _), start), crc)| (span, Place { start, crc }))
        .collect();
    let bytes = buf.freeze().map_err(|e| Error::io(name, &e))?;
    Ok(Some(Loaded { bytes, places }))
}

/// Bytes to read from a file into memory, and whether to checksum them.
pub(super) struct Job<'d> {
    pub offset: u64,
    pub dst: &'d mut [u8],
    pub crc: bool,
}

/// A read this large goes on two threads when there are two cores.
const PARALLEL_MIN: u64 = 32 << 20;

/// Reads every job in [`CHUNK`]-byte pieces, checksumming each piece
/// right after reading it, while it is in that core's cache; returns each
/// job's CRC-32C (unmasked) where asked. A large read goes on two threads,
/// each taking a contiguous half of the pieces: the copy out of the page
/// cache and the checksum both run on both cores, and the pieces' CRCs are
/// combined in order ([`crc32c::combine`]). On error, the first failing
/// piece's.
pub(super) fn read_jobs(file: &File, jobs: Vec<Job<'_>>) -> std::io::Result<Vec<Option<u32>>> {
    struct Piece<'d> {
        job: usize,
        at: u64,
        dst: &'d mut [u8],
        crc: bool,
    }
    fn work(file: &File, pieces: &mut [Piece<'_>]) -> std::io::Result<Vec<u32>> {
        pieces
            .iter_mut()
            .map(|p| {
                read_at(file, p.dst, p.at)?;
                Ok(if p.crc { crc32c::value(p.dst) } else { 0 })
            })
            .collect()
    }
    let mut out: Vec<Option<u32>> = jobs.iter().map(|j| j.crc.then_some(0)).collect();
    let mut pieces = Vec::new();
    let mut total = 0u64;
    for (job, j) in jobs.into_iter().enumerate() {
        let mut at = j.offset;
        for dst in j.dst.chunks_mut(CHUNK) {
            let len = dst.len() as u64;
            pieces.push(Piece {
                job,
                at,
                dst,
                crc: j.crc,
            });
            at += len;
            total += len;
        }
    }
    let sums = if total >= PARALLEL_MIN && two_cores() {
        // The first piece past half the bytes starts the second half.
        let mut seen = 0u64;
        let half = pieces
            .iter()
            .position(|p| {
                seen += p.dst.len() as u64;
                seen > total / 2
            })
            .unwrap_or(pieces.len());
        let (first, second) = pieces.split_at_mut(half);
        std::thread::scope(|s| {
            let other = s.spawn(|| work(file, second));
            let mine = work(file, first);
            let theirs = other
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            let mut sums = mine?;
            sums.extend(theirs?);
            Ok::<_, std::io::Error>(sums)
        })?
    } else {
        work(file, &mut pieces)?
    };
    for (p, sum) in pieces.iter().zip(sums) {
        if let Some(Some(crc)) = out.get_mut(p.job) {
            *crc = crc32c::combine(*crc, sum, p.dst.len() as u64);
        }
    }
    Ok(out)
}

/// Whether this process may run on more than one core.
fn two_cores() -> bool {
    static TWO: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *TWO.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
}

#[cfg(unix)]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
pub(super) fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
    while !buf.is_empty() {
        let n = std::os::windows::fs::FileExt::seek_read(file, buf, offset)?;
        if n == 0 {
            return Err(std::io::ErrorKind::UnexpectedEof.into());
        }
        // In bounds: a read returns at most `buf.len()` bytes.
        buf = buf.get_mut(n..).unwrap_or_default();
        offset += n as u64;
    }
    Ok(())
}

#[cfg(not(any(unix, windows)))]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = file.try_clone()?;
    f.seek(SeekFrom::Start(offset))?;
    f.read_exact(buf)
}
