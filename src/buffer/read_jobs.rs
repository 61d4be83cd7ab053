//! Reading byte ranges of a file into memory, checksummed as they arrive
//! ([`read_jobs`]): checkpoint shards and tensors, TFRecord files of large
//! records, and large stored `.npz` members. Each 1 MiB piece is summed
//! (CRC-32C, or zip's CRC-32) right after its read,
//! on the core that read it, while it is in that core's cache; a large read
//! goes on two threads, each taking a contiguous half of the pieces.

use std::fs::File;

use super::read_policy::READ_CHUNK;

/// Bytes to read from a file into memory, and the checksum to take of
/// them, if any.
pub(crate) struct Job<'d> {
    pub(crate) offset: u64,
    pub(crate) dst: &'d mut [u8],
    pub(crate) sum: Option<Sum>,
}

/// A checksum [`read_jobs`] takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Sum {
    /// CRC-32C (TF's checkpoints and TFRecord).
    #[cfg_attr(
        not(any(feature = "checkpoint", feature = "tfrecord")),
        allow(dead_code)
    )]
    Crc32c,
    /// CRC-32 (zip's, ISO-HDLC).
    #[cfg_attr(not(feature = "npy"), allow(dead_code))]
    Crc32,
}

impl Sum {
    fn algorithm(self) -> crc_fast::CrcAlgorithm {
        match self {
            Sum::Crc32c => crc_fast::CrcAlgorithm::Crc32Iscsi,
            Sum::Crc32 => crc_fast::CrcAlgorithm::Crc32IsoHdlc,
        }
    }

    /// The checksum of `data`.
    pub(crate) fn of(self, data: &[u8]) -> u32 {
        // CRC-32: the value fits in the low 32 bits.
        crc_fast::checksum(self.algorithm(), data) as u32
    }

    /// The checksum of `a ‖ b` from those of `a` and `b` and the length of
    /// `b` (as zlib's `crc32_combine`).
    pub(crate) fn combine(self, a: u32, b: u32, len_b: u64) -> u32 {
        let c = crc_fast::checksum_combine(self.algorithm(), u64::from(a), u64::from(b), len_b);
        // CRC-32: the value fits in the low 32 bits.
        c as u32
    }
}

/// A read this large goes on two threads when there are two cores.
const PARALLEL_MIN: u64 = 16 << 20;

/// Reads every job in [`READ_CHUNK`]-byte pieces, checksumming each piece
/// right after reading it, while it is in that core's cache; returns each
/// job's checksum (CRC-32C unmasked) where asked. A large read goes on two
/// threads, each taking a contiguous half of the pieces: the copy out of
/// the page cache and the checksum both run on both cores, and the pieces'
/// checksums are combined in order ([`Sum::combine`]). On error, the first
/// failing piece's.
pub(crate) fn read_jobs(file: &File, jobs: Vec<Job<'_>>) -> std::io::Result<Vec<Option<u32>>> {
    struct Piece<'d> {
        job: usize,
        at: u64,
        dst: &'d mut [u8],
        sum: Option<Sum>,
    }
    fn work(file: &File, pieces: &mut [Piece<'_>]) -> std::io::Result<Vec<u32>> {
        pieces
            .iter_mut()
            .map(|p| {
                read_at(file, p.dst, p.at)?;
                Ok(p.sum.map_or(0, |sum| sum.of(p.dst)))
            })
            .collect()
    }
    let mut out: Vec<Option<u32>> = jobs.iter().map(|j| j.sum.map(|_| 0)).collect();
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
                sum: j.sum,
            });
            at += len;
            total += len;
        }
    }
    let sums = if total >= PARALLEL_MIN && two_cores() {
        // The first piece past half the bytes starts the second half
        // (total > 0, so one does: the default is never taken).
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
    for (p, piece_sum) in pieces.iter().zip(sums) {
        if let (Some(Some(acc)), Some(sum)) = (out.get_mut(p.job), p.sum) {
            *acc = sum.combine(*acc, piece_sum, p.dst.len() as u64);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_are_crc32c_and_zip_crc32_and_combine() {
        assert_eq!(Sum::Crc32c.of(b"123456789"), 0xe306_9283);
        assert_eq!(Sum::Crc32.of(b"123456789"), 0xcbf4_3926);
        let data: Vec<u8> = (0..10_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for sum in [Sum::Crc32c, Sum::Crc32] {
            for cut in [0, 1, 4096, 9_999, 10_000] {
                let (a, b) = data.split_at(cut);
                assert_eq!(
                    sum.combine(sum.of(a), sum.of(b), b.len() as u64),
                    sum.of(&data)
                );
            }
        }
        assert_eq!(Sum::Crc32c.of(&data), crate::crc32c::value(&data));
    }
}
