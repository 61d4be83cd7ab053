//! CRC-32C (Castagnoli) and TensorFlow's masked form, shared by tensor
//! bundles and TFRecord framing.
//!
//! TF stores `mask(crc)` rather than the raw CRC, because computing the CRC of
//! a string that itself contains embedded CRCs is error-prone
//! (`tsl/lib/hash/crc32c.h`).

/// The value TF adds after rotating a CRC (`kMaskDelta`).
const MASK_DELTA: u32 = 0xa282_ead8;

/// CRC-32C of `data` (hardware-accelerated where the CPU has it: carry-less
/// multiply with AVX-512 or PCLMULQDQ on x86-64, NEON on arm64). Readers sum
/// each chunk right after reading it, on the core that read it: hot in its
/// cache, this runs at about 4× the speed of the read. (Summing on a second
/// core behind one reader gained at most 5%; two threads that each read and
/// sum pieces of a large read reach the speed of one plain `read()`; see
/// `buffer/read_jobs.rs` and BENCHMARKS.md.)
///
/// ```
/// // The check value of CRC-32C.
/// assert_eq!(tftensor::crc32c::value(b"123456789"), 0xe306_9283);
/// ```
#[must_use]
pub fn value(data: &[u8]) -> u32 {
    crc_fast::crc32_iscsi(data)
}

/// Extends `crc` (the CRC-32C of some prefix) with `data`, as
/// `absl::ExtendCrc32c` does.
///
/// ```
/// use tftensor::crc32c::{extend, value};
/// assert_eq!(extend(value(b"1234"), b"56789"), value(b"123456789"));
/// ```
#[must_use]
pub fn extend(crc: u32, data: &[u8]) -> u32 {
    // The digest's state is the CRC before its final inversion.
    let mut digest =
        crc_fast::Digest::new_with_init_state(crc_fast::CrcAlgorithm::Crc32Iscsi, u64::from(!crc));
    digest.update(data);
    // CRC-32: the value fits in the low 32 bits.
    digest.finalize() as u32
}

/// TF's `crc32c::Mask`: rotate right by 15 bits and add a constant.
///
/// ```
/// use tftensor::crc32c::{mask, unmask};
/// assert_eq!(unmask(mask(0x1234_5678)), 0x1234_5678);
/// assert_ne!(mask(0x1234_5678), 0x1234_5678);
/// ```
#[must_use]
pub const fn mask(crc: u32) -> u32 {
    crc.rotate_right(15).wrapping_add(MASK_DELTA)
}

/// TF's `crc32c::Unmask`, the inverse of [`mask`].
///
/// ```
/// assert_eq!(tftensor::crc32c::unmask(tftensor::crc32c::mask(7)), 7);
/// ```
#[must_use]
pub const fn unmask(masked: u32) -> u32 {
    masked.wrapping_sub(MASK_DELTA).rotate_left(15)
}

/// `mask(value(data))`: the checksum TF stores beside `data`.
///
/// ```
/// // The masked CRC of the 8 length bytes of an empty TFRecord record, as TF writes it.
/// assert_eq!(tftensor::crc32c::masked(&0u64.to_le_bytes()), 0x0798_0329);
/// // ... and of its empty data.
/// assert_eq!(tftensor::crc32c::masked(b""), 0xa282_ead8);
/// ```
#[must_use]
pub fn masked(data: &[u8]) -> u32 {
    mask(value(data))
}
