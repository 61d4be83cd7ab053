//! Range plans: the reads a format asks for become ranged GETs. Reads
//! near each other (a gap of at most [`GAP`]) share a request, large ones
//! are cut into parts of at most [`PART`] bytes, and up to the client's
//! concurrency are in flight at once. Each body is copied straight into
//! the reads' buffers as it arrives, gap bytes dropped; a body that ends
//! before its range is an error, never short data.

use std::ops::Range;

use bytes::Bytes;
use futures::StreamExt;
use object_store::path::Path;
use object_store::{GetOptions, GetRange, ObjectStore};

use super::config::Client;
use super::retry::{Fault, within};
use crate::io::blob::{Checksum, RangeRead};

/// The largest gap between two reads that one request spans (its bytes
/// are fetched and dropped).
pub(crate) const GAP: u64 = 64 << 10;

/// The most bytes one request fetches: a large read is cut into parts
/// of this size, fetched at once.
pub(crate) const PART: u64 = 8 << 20;

/// The least a part is cut to: a read of less than `concurrency` full
/// parts (a 64 MiB tensor) is cut into smaller ones, down to this, so
/// that as many requests are in flight as allowed.
pub(crate) const MIN_PART: u64 = 4 << 20;

/// The part size for reads of `total` bytes at `concurrency` requests
/// in flight: [`PART`], or less (down to [`MIN_PART`]) to fill them, then
/// evened out so the last part is not a sliver.
fn part_for(total: u64, concurrency: usize) -> u64 {
    let part = total
        .div_ceil(concurrency.max(1) as u64)
        .clamp(MIN_PART, PART);
    let parts = total.div_ceil(part).max(1);
    total.div_ceil(parts).max(1)
}

/// A piece of one read: where it is in the object and in its read.
struct Piece<'d> {
    offset: u64,
    dst: &'d mut [u8],
    read: usize,
    at: u64,
}

/// One request: a range and the pieces it fills.
struct Job<'d> {
    range: Range<u64>,
    pieces: Vec<Piece<'d>>,
}

/// A piece's checksum: its read, its place there, its length and sum.
type PieceSum = (usize, u64, u64, u32);

/// A request in flight.
type Pending<'a> =
    std::pin::Pin<Box<dyn std::future::Future<Output = Result<Vec<PieceSum>, Fault>> + Send + 'a>>;

/// Cuts `reads` into requests: sorted by offset, neighbours within [`GAP`]
/// joined, none longer than `part`.
fn plan<'d>(reads: Vec<(usize, u64, &'d mut [u8])>, part: u64) -> Vec<Job<'d>> {
    let mut reads = reads;
    reads.sort_by_key(|r| r.1);
    let mut jobs: Vec<Job<'d>> = Vec::new();
    for (read, offset, dst) in reads {
        let (mut offset, mut dst, mut at) = (offset, dst, 0u64);
        while !dst.is_empty() {
            // Join the last request when near it and it has room.
            let joins = jobs.last().is_some_and(|j| {
                offset >= j.range.end
                    && offset - j.range.end <= GAP
                    && offset < j.range.start.saturating_add(part)
            });
            if !joins {
                jobs.push(Job {
                    range: offset..offset,
                    pieces: Vec::new(),
                });
            }
            let Some(job) = jobs.last_mut() else { break };
            let room = job.range.start.saturating_add(part) - offset;
            let n = usize::try_from(room).map_or(dst.len(), |r| r.min(dst.len()));
            let (head, tail) = std::mem::take(&mut dst).split_at_mut(n);
            job.pieces.push(Piece {
                offset,
                dst: head,
                read,
                at,
            });
            job.range.end = offset + n as u64;
            offset += n as u64;
            at += n as u64;
            dst = tail;
        }
    }
    jobs
}

/// Fetches `job`'s range and copies its body into the pieces.
async fn run(
    store: &dyn ObjectStore,
    path: &Path,
    job: Job<'_>,
    sums: &[Option<Checksum>],
) -> Result<Vec<PieceSum>, Fault> {
    let Job { range, mut pieces } = job;
    let options = GetOptions {
        range: Some(GetRange::Bounded(range.clone())),
        ..GetOptions::default()
    };
    let got = store
        .get_opts(path, options)
        .await
        .map_err(Fault::Request)?;
    if got.range != range {
        return Err(Fault::Range {
            asked: range,
            got: got.range,
        });
    }
    let mut body = got.into_stream();
    let mut pos = range.start;
    let mut next = 0usize; // the first piece not yet filled
    while let Some(chunk) = body.next().await {
        let chunk = chunk.map_err(|e| Fault::Cut {
            offset: pos,
            cause: Some(e),
        })?;
        scatter(&chunk, pos, &mut pieces, &mut next);
        pos += chunk.len() as u64;
        if pos > range.end {
            return Err(Fault::Range {
                asked: range.clone(),
                got: range.start..pos,
            });
        }
    }
    if pos != range.end {
        return Err(Fault::Cut {
            offset: pos,
            cause: None,
        });
    }
    Ok(pieces
        .iter()
        .filter_map(|p| {
            let sum = sums.get(p.read).copied().flatten()?;
            Some((p.read, p.at, p.dst.len() as u64, sum.of(p.dst)))
        })
        .collect())
}

/// Copies the bytes of `chunk` (at `pos` in the object) into the pieces
/// they belong to; bytes between pieces are dropped.
fn scatter(chunk: &[u8], pos: u64, pieces: &mut [Piece<'_>], next: &mut usize) {
    let end = pos + chunk.len() as u64;
    while let Some(p) = pieces.get_mut(*next) {
        let p_end = p.offset + p.dst.len() as u64;
        if p.offset >= end {
            break;
        }
        let from = p.offset.max(pos);
        let to = p_end.min(end);
        if from < to {
            // In range: `from..to` lies in both the piece and the chunk.
            let src = chunk.get((from - pos) as usize..(to - pos) as usize);
            let dst = p
                .dst
                .get_mut((from - p.offset) as usize..(to - p.offset) as usize);
            if let (Some(src), Some(dst)) = (src, dst) {
                dst.copy_from_slice(src);
            }
        }
        if p_end <= end {
            *next += 1;
        } else {
            break;
        }
    }
}

/// Reads every range of `path` through `client`, at most
/// `client.concurrency` requests at once, each within the budget, and
/// returns each read's checksum where asked.
pub(crate) async fn read_ranges(
    client: &Client,
    path: &Path,
    reads: Vec<RangeRead<'_>>,
) -> Result<Vec<Option<u32>>, Fault> {
    let sums: Vec<Option<Checksum>> = reads.iter().map(|r| r.sum).collect();
    let lens: Vec<u64> = reads.iter().map(|r| r.dst.len() as u64).collect();
    let part = part_for(lens.iter().sum(), client.concurrency);
    let jobs = plan(
        reads
            .into_iter()
            .enumerate()
            .map(|(i, r)| (i, r.offset, r.dst))
            .collect(),
        part,
    );
    let store = &*client.store;
    let sums_ref = &sums;
    // Boxed before they are streamed: a closure's type in the stream
    // would defeat the `Send` proof of the future that holds it.
    let mut futs: Vec<Pending<'_>> = Vec::with_capacity(jobs.len());
    for job in jobs {
        futs.push(Box::pin(within(
            client.budget,
            run(store, path, job, sums_ref),
        )));
    }
    let mut done = futures::stream::iter(futs).buffer_unordered(client.concurrency);
    let mut pieces: Vec<PieceSum> = Vec::new();
    while let Some(r) = done.next().await {
        pieces.extend(r?);
    }
    pieces.sort_unstable_by_key(|p| (p.0, p.1));
    // Each read's sum: its pieces' sums combined in order (an empty read
    // has no pieces: the sum of nothing).
    let mut out: Vec<Option<u32>> = sums.iter().map(|s| s.map(|s| s.of(&[]))).collect();
    let mut covered = vec![0u64; sums.len()];
    for (read, at, len, sum) in pieces {
        if let (Some(Some(acc)), Some(Some(kind)), Some(c)) =
            (out.get_mut(read), sums.get(read), covered.get_mut(read))
        {
            debug_assert_eq!(*c, at, "pieces of a read are contiguous");
            *acc = if *c == 0 {
                sum
            } else {
                kind.combine(*acc, sum, len)
            };
            *c += len;
        }
    }
    debug_assert!(
        sums.iter()
            .zip(&covered)
            .zip(&lens)
            .all(|((s, c), l)| s.is_none() || c == l),
        "every summed read is covered"
    );
    Ok(out)
}

/// Fetches `range` of `path` into new bytes (one request, within the
/// budget): the block cache's and the read-ahead's fetch.
pub(crate) async fn fetch(client: &Client, path: &Path, range: Range<u64>) -> Result<Bytes, Fault> {
    let len = usize::try_from(range.end - range.start).map_err(|_| Fault::Range {
        asked: range.clone(),
        got: range.clone(),
    })?;
    let mut buf = vec![0u8; len];
    for j in plan(vec![(0, range.start, &mut buf[..])], u64::MAX) {
        within(client.budget, run(&*client.store, path, j, &[])).await?;
    }
    Ok(Bytes::from(buf))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_join_near_reads_and_cut_large_ones() {
        let (mut a, mut b, mut c) = (vec![0u8; 10], vec![0u8; 10], vec![0u8; 25]);
        let jobs = plan(
            vec![
                (2, 100, &mut c[..]),
                (0, 0, &mut a[..]),
                (1, 15, &mut b[..]),
            ],
            20,
        );
        let ranges: Vec<_> = jobs.iter().map(|j| j.range.clone()).collect();
        // 0..10 and 15..25 share a request up to the part size of 20; the
        // 25-byte read at 100 is cut in two parts.
        assert_eq!(ranges, [0..20, 20..25, 100..120, 120..125]);
        assert_eq!(jobs[0].pieces.len(), 2);
        assert_eq!((jobs[1].pieces[0].read, jobs[1].pieces[0].at), (1, 5));
    }

    #[test]
    fn parts_shrink_to_fill_the_requests_in_flight() {
        const MIB: u64 = 1 << 20;
        // A whole 1 GiB object: 8 MiB parts; a 64 MiB tensor: 16 of 4 MiB;
        // a 4 MiB one: one request; 20 MiB and a bit: 6 even parts, not 5
        // and a sliver.
        assert_eq!(part_for(1024 * MIB, 16), PART);
        assert_eq!(part_for(64 * MIB, 16), 4 * MIB);
        assert_eq!(part_for(4 * MIB, 16), 4 * MIB);
        assert_eq!(part_for(100 * MIB, 16), 100 * MIB / 16);
        assert_eq!(part_for(20 * MIB + 100, 16), (20 * MIB + 100).div_ceil(6));
        assert_eq!(part_for(10, 16), 10);
        assert_eq!(part_for(0, 0), 1);
    }

    #[test]
    fn scatter_drops_gap_bytes() {
        let (mut a, mut b) = (vec![0u8; 3], vec![0u8; 3]);
        let mut pieces = vec![
            Piece {
                offset: 10,
                dst: &mut a,
                read: 0,
                at: 0,
            },
            Piece {
                offset: 15,
                dst: &mut b,
                read: 1,
                at: 0,
            },
        ];
        let mut next = 0;
        let body: Vec<u8> = (10..18).collect();
        scatter(&body[..4], 10, &mut pieces, &mut next);
        scatter(&body[4..], 14, &mut pieces, &mut next);
        assert_eq!(next, 2);
        drop(pieces);
        assert_eq!((a, b), (vec![10, 11, 12], vec![15, 16, 17]));
    }
}
