//! Reading a `.data` shard once, whole, into one buffer
//! ([`BundleReader::load`](super::BundleReader::load)): every entry's
//! bytes are placed at a 64-byte-aligned offset of a single
//! [`ReadBuf`](crate::buffer::read_policy::ReadBuf) (huge pages when
//! large), so every POD tensor adopts its slice without a copy; each
//! entry's CRC is computed chunk by chunk right after the chunk is read,
//! and the whole shard is one [`Blob::read_ranges`] call, one range per
//! entry in file order: a local file reads them on two cores, a remote
//! store merges adjacent ranges into few large requests.

use std::collections::HashMap;

use bytes::Bytes;

use crate::ALIGNMENT;
use crate::buffer::read_policy::{LARGE, ReadBuf, align_pos};
use crate::error::{Error, Result};
use crate::io::{Blob, Checksum, RangeRead};

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

/// Reads the `spans` of the shard `blob` into one buffer,
/// each at an aligned offset; `crc` says which spans to checksum (POD
/// entries, whose CRC covers exactly their bytes). Spans past the end of
/// the file are left out (their `get` reports it). `None` when the spans
/// overlap or together exceed the file: then the index does not describe
/// a plain TF shard, and the caller reads entry by entry instead (never
/// allocating more than the file backs).
pub(super) fn load_shard(blob: &dyn Blob, spans: &[(Span, bool)]) -> Result<Option<Loaded>> {
    let len = blob.len();
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
    // Each span at the next 64-byte-aligned place after the last one,
    // counted from the buffer's first aligned byte; the index size bounds
    // the padding (63 bytes a span at most).
    let mut starts = Vec::with_capacity(spans.len());
    let mut end = 0u64;
    for (span, _) in &spans {
        let start = end.next_multiple_of(ALIGNMENT as u64);
        starts.push(start);
        end = start.saturating_add(span.size);
    }
    // A large buffer is a page-aligned map, so the spans take exactly
    // their bytes (and a map of a checkpoint's size is reused); a small one
    // (a `Vec`, at any address) may need 63 bytes to reach alignment.
    let slack = if end >= LARGE as u64 {
        0
    } else {
        ALIGNMENT as u64
    };
    let room = usize::try_from(end.saturating_add(slack))
        .map_err(|_| Error::AllocationFailed { bytes: usize::MAX })?;
    let mut buf = ReadBuf::new(room)?;
    let skip = align_pos(buf.addr(), 0, 0, ALIGNMENT);
    debug_assert!(skip as u64 <= slack);
    // Each start is at most `end`, and the room (`end` + slack) fits usize.
    let starts: Vec<usize> = starts.into_iter().map(|s| skip + s as usize).collect();
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
        jobs.push(RangeRead {
            offset: span.offset,
            dst,
            sum: want_crc.then_some(Checksum::Crc32c),
        });
    }
    let crcs = blob.read_ranges(jobs)?;
    let places = spans
        .iter()
        .zip(starts)
        .zip(crcs)
        .map(|((&(span, _), start), crc)| (span, Place { start, crc }))
        .collect();
    let bytes = buf.freeze().map_err(|e| Error::io(blob.id(), &e))?;
    Ok(Some(Loaded { bytes, places }))
}
