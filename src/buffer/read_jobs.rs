//! Reading byte ranges of a file into memory, checksummed as they arrive
//! ([`read_jobs`]): checkpoint shards and tensors, and TFRecord files of
//! large records. Each 1 MiB piece is summed (CRC-32C) right after its read,
//! on the core that read it, while it is in that core's cache; a large read
//! goes on two threads, each taking a contiguous half of the pieces.

use std::fs::File;

use super::read_policy::READ_CHUNK;
use crate::crc32c;

/// Bytes to read from a file into memory, and whether to checksum them.
pub(crate) struct Job<'d> {
    pub(crate) offset: u64,
    pub(crate) dst: &'d mut [u8],
    pub(crate) crc: bool,
}

/// A read this large goes on two threads when there are two cores.
const PARALLEL_MIN: u64 = 16 << 20;

/// Reads every job in [`READ_CHUNK`]-byte pieces, checksumming each piece
/// right after reading it, while it is in that core's cache; returns each
/// job's CRC-32C (unmasked) where asked. A large read goes on two threads,
/// each taking a contiguous half of the pieces: the copy out of the page
/// cache and the checksum both run on both cores, and the pieces' CRCs are
/// combined in order ([`crc32c::combine`]). On error, the first failing
/// piece's.
pub(crate) fn read_jobs(file: &File, jobs: Vec<Job<'_>>) -> std::io::Result<Vec<Option<u32>>> {
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
        for dst in j.dst.chunks_mut(READ_CHUNK) {
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
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    std::os::unix::fs::FileExt::read_exact_at(file, buf, offset)
}

#[cfg(windows)]
pub(crate) fn read_at(file: &File, mut buf: &mut [u8], mut offset: u64) -> std::io::Result<()> {
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
pub(crate) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> std::io::Result<()> {
    use std::io::{Read, Seek, SeekFrom};
    let mut f = file.try_clone()?;
    f.seek(SeekFrom::Start(offset))?;
    f.read_exact(buf)
}
