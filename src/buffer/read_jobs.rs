//! Reading byte ranges of a file into memory, checksummed as they arrive
//! ([`read_jobs`]): checkpoint shards and tensors, TFRecord files of large
//! records, and large stored `.npz` members. Each 1 MiB piece is summed
//! (CRC-32C, or zip's CRC-32) right after its read,
//! on the core that read it, while it is in that core's cache; a large read
//! goes on two threads, each taking the next piece when it is free.

use std::fs::File;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, PoisonError};

use super::read_policy::READ_CHUNK;

/// Bytes to read into memory: where from, where to, and the checksum to
/// take of them, if any ([`Blob::read_ranges`](crate::io::Blob::read_ranges)).
///
/// ```
/// use tftensor::io::{Checksum, RangeRead};
/// let mut dst = [0u8; 16];
/// let r = RangeRead { offset: 64, dst: &mut dst, sum: Some(Checksum::Crc32c) };
/// assert_eq!(r.dst.len(), 16);
/// ```
#[derive(Debug)]
pub struct RangeRead<'d> {
    /// Where the bytes start in the blob.
    pub offset: u64,
    /// Where they go; its length is how many to read.
    pub dst: &'d mut [u8],
    /// The checksum to take of them as they arrive.
    pub sum: Option<Checksum>,
}

/// A checksum taken of bytes as they are read.
///
/// ```
/// use tftensor::io::Checksum;
/// assert_eq!(Checksum::Crc32c.of(b"123456789"), 0xe306_9283);
/// assert_eq!(Checksum::Crc32.of(b"123456789"), 0xcbf4_3926);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum Checksum {
    /// CRC-32C, unmasked (TF's checkpoints and TFRecord).
    Crc32c,
    /// CRC-32 (zip's, ISO-HDLC).
    Crc32,
}

impl Checksum {
    /// The checksum of `data`.
    pub fn of(self, data: &[u8]) -> u32 {
        match self {
            Checksum::Crc32c => crate::crc32c::value(data),
            // CRC-32: the value fits in the low 32 bits.
            Checksum::Crc32 => {
                crc_fast::checksum(crc_fast::CrcAlgorithm::Crc32IsoHdlc, data) as u32
            }
        }
    }

    /// The checksum of `a ‖ b` from those of `a` and `b` and the length of
    /// `b`, as zlib's `crc32_combine`: `a` times x^(8·len_b) modulo the
    /// polynomial, plus `b`. A table of x^(2^k) makes that one product per
    /// set bit of `len_b` (one for a 1 MiB piece): 49 ns here, where
    /// `crc_fast::checksum_combine` took 8 µs, which for the 256 pieces of
    /// a 256 MiB read was 6–8% of its CPU time, all of it after both
    /// threads had finished.
    pub fn combine(self, a: u32, b: u32, len_b: u64) -> u32 {
        let (poly, powers) = match self {
            Checksum::Crc32c => (CRC32C_POLY, &CRC32C_POWERS),
            Checksum::Crc32 => (CRC32_POLY, &CRC32_POWERS),
        };
        // x^(8·len_b) = the product of x^(2^(k+3)) over the set bits k.
        let mut shift = 1 << 31; // x^0
        for (k, &power) in powers.iter().skip(3).enumerate() {
            if len_b >> k == 0 {
                break;
            }
            if len_b >> k & 1 == 1 {
                shift = mul_mod(power, shift, poly);
            }
        }
        mul_mod(shift, a, poly) ^ b
    }
}

/// The reflected polynomials: CRC-32C (Castagnoli) and CRC-32 (zip's).
const CRC32C_POLY: u32 = 0x82f6_3b78;
const CRC32_POLY: u32 = 0xedb8_8320;
/// x^(2^k) modulo each polynomial, k < 67 (lengths below 2^64).
static CRC32C_POWERS: [u32; 67] = powers_of_x(CRC32C_POLY);
static CRC32_POWERS: [u32; 67] = powers_of_x(CRC32_POLY);

/// `a · b` modulo `poly`, in the reflected bit order (zlib's `multmodp`:
/// bit 31 is x^0).
const fn mul_mod(a: u32, mut b: u32, poly: u32) -> u32 {
    let mut product = 0;
    let mut m = 1u32 << 31;
    while m != 0 {
        if a & m != 0 {
            product ^= b;
        }
        m >>= 1;
        b = if b & 1 == 1 { (b >> 1) ^ poly } else { b >> 1 };
    }
    product
}

/// x^(2^k) modulo `poly` for every k < 67, each the square of the last.
const fn powers_of_x(poly: u32) -> [u32; 67] {
    let mut table = [0; 67];
    let mut p = 1 << 30; // x^1
    let mut rest: &mut [u32] = &mut table;
    while let [first, tail @ ..] = rest {
        *first = p;
        p = mul_mod(p, p, poly);
        rest = tail;
    }
    table
}

/// A read this large goes on two threads when there are two cores.
const PARALLEL_MIN: u64 = 16 << 20;

/// Reads every job in [`READ_CHUNK`]-byte pieces, checksumming each piece
/// right after reading it, while it is in that core's cache; returns each
/// job's checksum (CRC-32C unmasked) where asked. A large read goes on two
/// threads, each taking the next piece when it is free: the copy out of
/// the page cache and the checksum both run on both cores, and the pieces'
/// checksums are combined in order ([`Checksum::combine`]). On error, the first
/// failing piece's.
pub(crate) fn read_jobs(
    file: &File,
    jobs: Vec<RangeRead<'_>>,
) -> std::io::Result<Vec<Option<u32>>> {
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
        on_two_threads(file, &mut pieces)?
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

/// One piece of a job: at most [`READ_CHUNK`] bytes at `at`.
struct Piece<'d> {
    job: usize,
    at: u64,
    dst: &'d mut [u8],
    sum: Option<Checksum>,
}

impl Piece<'_> {
    /// Reads the piece and returns its checksum (0 when none is asked).
    fn read(&mut self, file: &File) -> std::io::Result<u32> {
        read_at(file, self.dst, self.at)?;
        Ok(self.sum.map_or(0, |sum| sum.of(self.dst)))
    }
}

/// Every piece in order on this thread; stops at the first error.
fn work(file: &File, pieces: &mut [Piece<'_>]) -> std::io::Result<Vec<u32>> {
    pieces.iter_mut().map(|p| p.read(file)).collect()
}

/// Every piece on this thread and one more, each taking the next piece
/// when it is free: a thread that loses its core for a while leaves the
/// rest to the other, where a fixed split would wait for it. Pieces are
/// taken in order, so every piece before a failed one was read: the lowest
/// failed piece is the first in the file, and its error is returned.
fn on_two_threads(file: &File, pieces: &mut [Piece<'_>]) -> std::io::Result<Vec<u32>> {
    let n = pieces.len();
    let queue = Mutex::new(pieces.iter_mut().enumerate());
    let failed = AtomicBool::new(false);
    let run = || {
        let mut done = Vec::new();
        while !failed.load(Ordering::Relaxed) {
            // The iterator is consistent between `next` calls: a poisoned
            // lock is usable.
            let next = queue.lock().unwrap_or_else(PoisonError::into_inner).next();
            let Some((i, piece)) = next else { break };
            let sum = piece.read(file);
            if sum.is_err() {
                failed.store(true, Ordering::Relaxed);
            }
            done.push((i, sum));
        }
        done
    };
    let (mine, theirs) = std::thread::scope(|s| {
        let other = s.spawn(run);
        let mine = run();
        let theirs = other
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (mine, theirs)
    });
    // In piece order, every piece before the first failure was read (see
    // above), so the sums are complete when no piece failed.
    let mut done: Vec<_> = mine.into_iter().chain(theirs).collect();
    done.sort_unstable_by_key(|&(i, _)| i);
    let sums = done
        .into_iter()
        .map(|(_, sum)| sum)
        .collect::<std::io::Result<Vec<u32>>>()?;
    debug_assert_eq!(sums.len(), n, "a piece was neither read nor failed");
    Ok(sums)
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
        // A read returns at most `buf.len()` bytes; more is the system's
        // error, not a reason to read on from nowhere.
        buf = std::mem::take(&mut buf)
            .get_mut(n..)
            .ok_or_else(|| std::io::Error::from(std::io::ErrorKind::InvalidData))?;
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
        assert_eq!(Checksum::Crc32c.of(b"123456789"), 0xe306_9283);
        assert_eq!(Checksum::Crc32.of(b"123456789"), 0xcbf4_3926);
        let data: Vec<u8> = (0..10_000u32).map(|i| (i * 7 + i / 13) as u8).collect();
        for sum in [Checksum::Crc32c, Checksum::Crc32] {
            for cut in [0, 1, 4096, 9_999, 10_000] {
                let (a, b) = data.split_at(cut);
                assert_eq!(
                    sum.combine(sum.of(a), sum.of(b), b.len() as u64),
                    sum.of(&data)
                );
            }
        }
    }

    #[test]
    fn two_threads_read_every_piece_in_place_and_report_the_first_failure() {
        // 20 MiB and a bit: over PARALLEL_MIN, with a short last piece.
        let len = (20 << 20) + 12_345;
        let data: Vec<u8> = (0..len).map(|i| (i * 31 + i / 4099) as u8).collect();
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("read-jobs");
        std::fs::write(&path, &data).unwrap();
        let file = File::open(&path).unwrap();
        // Two jobs, one without a sum, out of file order.
        let (mut a, mut b) = (vec![0u8; len - (3 << 20)], vec![0u8; 3 << 20]);
        let sums = read_jobs(
            &file,
            vec![
                RangeRead {
                    offset: (len - (3 << 20)) as u64,
                    dst: &mut b,
                    sum: None,
                },
                RangeRead {
                    offset: 0,
                    dst: &mut a,
                    sum: Some(Checksum::Crc32c),
                },
            ],
        )
        .unwrap();
        assert_eq!(
            sums,
            vec![None, Some(Checksum::Crc32c.of(&data[..len - (3 << 20)]))]
        );
        assert!(a == data[..len - (3 << 20)] && b == data[len - (3 << 20)..]);
        // Past the end: the pieces that cross it fail, and the error is
        // the read's, not a sum.
        let mut c = vec![0u8; 18 << 20];
        let err = read_jobs(
            &file,
            vec![RangeRead {
                offset: 4 << 20,
                dst: &mut c,
                sum: Some(Checksum::Crc32),
            }],
        )
        .unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::UnexpectedEof);
        assert_eq!(c[..(16 << 20)], data[4 << 20..(20 << 20)]);
        drop(file);
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn combine_agrees_with_crc_fast_at_every_length_scale() {
        use crc_fast::CrcAlgorithm::{Crc32Iscsi, Crc32IsoHdlc};
        for (sum, algorithm) in [
            (Checksum::Crc32c, Crc32Iscsi),
            (Checksum::Crc32, Crc32IsoHdlc),
        ] {
            let (a, b) = (sum.of(b"left part"), sum.of(b"right"));
            let lengths = [
                0,
                1,
                5,
                1 << 20,
                (1 << 20) + 3,
                (1 << 33) + 7,
                u64::MAX / 3,
                u64::MAX,
            ];
            for len in lengths {
                let expected =
                    crc_fast::checksum_combine(algorithm, u64::from(a), u64::from(b), len);
                assert_eq!(u64::from(sum.combine(a, b, len)), expected, "{sum:?} {len}");
            }
        }
    }
}
