//! TensorFlow's 4-bit integer element types (`int4`, `uint4`).
//!
//! TF stores these one value per byte, not packed, and uses ml_dtypes'
//! `intN<4, int8_t>` / `intN<4, uint8_t>`: the value lives in the low four bits
//! and the high four bits are ignored. TF's proto decoder narrows `int_val` to
//! a byte without masking (`-3` is stored as `0xFD`, not `0x0D`), so both
//! types keep the raw byte, and every reading of the value looks only at the
//! low nibble: sign-extended for [`Int4`], zero-extended for [`UInt4`]. This is
//! what TF prints (via `int16`/`uint16`): the byte `0x95` prints as `5` in both
//! types, `0xFD` prints as `-3` (`int4`) or `13` (`uint4`).
//!
//! Equality, ordering and hashing follow the value, as in ml_dtypes, so
//! `Int4::from_bits(0x05) == Int4::from_bits(0x95u8 as i8)`. Use `to_bits` to
//! compare raw bytes.

use super::sub_byte::{signed_sub_byte, unsigned_sub_byte};

/// TensorFlow's `int4` element (`DT_INT4`): a signed 4-bit integer, −8..=7,
/// stored alone in one byte.
///
/// TF stores one value per byte and its proto decoder narrows `int_val` to a
/// byte without masking, so the byte is kept as is; the value is its low
/// nibble, sign-extended (ml_dtypes' `int4`), which is also what TF prints.
/// Equality, ordering and hashing use the value, so bytes that differ only in
/// their high nibble compare equal; compare [`Int4::to_bits`] for raw bytes.
///
/// ```
/// use tftensor::Int4;
/// let v = Int4::new(-3).unwrap();
/// assert_eq!(v.to_bits(), 0x0D); // ml_dtypes' layout: upper bits clear
/// assert_eq!(v.to_i32(), -3);
/// // A byte from a decoded proto may carry extra high bits; they are ignored.
/// let raw = Int4::from_bits(0xFDu8 as i8);
/// assert_eq!(raw.to_i16(), -3);
/// assert_eq!(raw, v);
/// assert_eq!(raw.to_string(), "-3");
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Int4(i8);

/// TensorFlow's `uint4` element (`DT_UINT4`): an unsigned 4-bit integer,
/// 0..=15, stored alone in one byte.
///
/// The byte is kept as is (TF's proto decoder does not mask it); the value is
/// its low nibble (ml_dtypes' `uint4`), which is also what TF prints.
/// Equality, ordering and hashing use the value; compare [`UInt4::to_bits`]
/// for raw bytes.
///
/// ```
/// use tftensor::UInt4;
/// let v = UInt4::new(13).unwrap();
/// assert_eq!(v.to_bits(), 0x0D);
/// let raw = UInt4::from_bits(0xFD);
/// assert_eq!(raw.to_u16(), 13);
/// assert_eq!(raw, v);
/// assert_eq!(raw.to_string(), "13");
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct UInt4(u8);

signed_sub_byte!(Int4, 4, min -8 = 0x08, max 7, mask 0x0F, tf "int4");
unsigned_sub_byte!(UInt4, 4, max 15, tf "uint4");

#[cfg(test)]
mod tests {
    use super::*;
    use std::cmp::Ordering;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    fn hash_of<T: Hash>(v: &T) -> u64 {
        let mut h = DefaultHasher::new();
        v.hash(&mut h);
        h.finish()
    }

    /// Every distinct (stored byte, printed value) pair in TF 2.21's
    /// `summary-v2/int4/...` and `summary-v2/uint4/...` conformance vectors
    /// (`tests/data/tf-2.21-vectors.jsonl`): the byte comes from
    /// the matching `content/...` or `field/...` parse record, the value from
    /// what `SummarizeValue` printed for it.
    const TF_INT4_PRINTED: &[(u8, i16)] = &[
        (0x00, 0),
        (0x03, 3),
        (0x04, 4),
        (0x07, 7),
        (0x0a, -6),
        (0x0b, -5),
        (0x0c, -4),
        (0x0d, -3),
        (0x0e, -2),
        (0x14, 4),
        (0x17, 7),
        (0x2b, -5),
        (0x38, -8),
        (0x3f, -1),
        (0x44, 4),
        (0x58, -8),
        (0x5d, -3),
        (0x66, 6),
        (0x69, -7),
        (0x81, 1),
        (0x82, 2),
        (0x87, 7),
        (0x95, 5),
        (0xa8, -8),
        (0xbc, -4),
        (0xc2, 2),
        (0xce, -2),
        (0xd3, 3),
        (0xda, -6),
        (0xf8, -8),
        (0xf9, -7),
        (0xfa, -6),
        (0xfb, -5),
        (0xfd, -3),
        (0xfe, -2),
        (0xff, -1),
    ];
    const TF_UINT4_PRINTED: &[(u8, u16)] = &[
        (0x00, 0),
        (0x01, 1),
        (0x03, 3),
        (0x04, 4),
        (0x05, 5),
        (0x09, 9),
        (0x0b, 11),
        (0x0c, 12),
        (0x0e, 14),
        (0x0f, 15),
        (0x10, 0),
        (0x15, 5),
        (0x17, 7),
        (0x24, 4),
        (0x2e, 14),
        (0x5d, 13),
        (0x62, 2),
        (0x66, 6),
        (0x71, 1),
        (0x7a, 10),
        (0x96, 6),
        (0x98, 8),
        (0x9a, 10),
        (0x9f, 15),
        (0xa2, 2),
        (0xa6, 6),
        (0xb3, 3),
        (0xb8, 8),
        (0xba, 10),
        (0xc6, 6),
        (0xea, 10),
        (0xec, 12),
        (0xef, 15),
        (0xf8, 8),
        (0xfa, 10),
        (0xfb, 11),
        (0xfc, 12),
        (0xfd, 13),
        (0xfe, 14),
        (0xff, 15),
    ];

    #[test]
    fn int4_prints_like_tf() {
        for &(byte, printed) in TF_INT4_PRINTED {
            let v = Int4::from_bits(byte as i8);
            assert_eq!(v.to_i16(), printed, "byte {byte:#04x}");
            assert_eq!(v.to_string(), printed.to_string(), "byte {byte:#04x}");
            assert_eq!(v.to_bits(), byte as i8);
        }
    }

    #[test]
    fn uint4_prints_like_tf() {
        for &(byte, printed) in TF_UINT4_PRINTED {
            let v = UInt4::from_bits(byte);
            assert_eq!(v.to_u16(), printed, "byte {byte:#04x}");
            assert_eq!(v.to_string(), printed.to_string(), "byte {byte:#04x}");
            assert_eq!(v.to_bits(), byte);
        }
    }

    #[test]
    fn all_bytes_read_the_low_nibble() {
        for b in 0..=255u8 {
            let nib = b & 0x0F;
            let signed = if nib >= 8 {
                nib as i32 - 16
            } else {
                nib as i32
            };
            let i = Int4::from_bits(b as i8);
            assert_eq!(i.to_i32(), signed);
            assert_eq!(i.to_i64(), signed as i64);
            assert_eq!(i32::from(i), signed);
            assert_eq!(i.to_bits(), b as i8);
            let u = UInt4::from_bits(b);
            assert_eq!(u.to_i32(), nib as i32);
            assert_eq!(u.to_u32(), nib as u32);
            assert_eq!(u64::from(u), nib as u64);
            assert_eq!(u.to_bits(), b);
        }
    }

    #[test]
    fn new_is_checked_and_stores_masked() {
        for v in i8::MIN..=i8::MAX {
            match Int4::new(v) {
                Some(x) => {
                    assert!((-8..=7).contains(&v));
                    assert_eq!(x.to_i8(), v);
                    assert_eq!(x.to_bits(), v & 0x0F);
                }
                None => assert!(!(-8..=7).contains(&v)),
            }
        }
        for v in 0..=255u8 {
            match UInt4::new(v) {
                Some(x) => {
                    assert!(v <= 15);
                    assert_eq!(x.to_bits(), v);
                }
                None => assert!(v > 15),
            }
        }
        assert_eq!(Int4::new(-8).map(Int4::to_bits), Some(0x08));
        assert_eq!(Int4::MIN.to_bits(), 0x08);
        assert_eq!(Int4::MAX.to_bits(), 0x07);
        assert_eq!(UInt4::MAX.to_bits(), 0x0F);
    }

    #[test]
    fn wrapping_from_i32_matches_ml_dtypes() {
        // ml_dtypes: np.array([-3, 5, -8, 7, 300, -1]).astype(int4 / uint4)
        // .view(uint8) == [13, 5, 8, 7, 12, 15] for both types.
        let input = [-3, 5, -8, 7, 300, -1];
        let bytes = [13u8, 5, 8, 7, 12, 15];
        for (v, b) in input.into_iter().zip(bytes) {
            assert_eq!(Int4::wrapping_from_i32(v).to_bits(), b as i8);
            assert_eq!(UInt4::wrapping_from_i32(v).to_bits(), b);
        }
        assert_eq!(Int4::wrapping_from_i32(i32::MIN).to_i32(), 0);
        assert_eq!(Int4::wrapping_from_i32(i32::MAX).to_i32(), -1);
        assert_eq!(UInt4::wrapping_from_i32(i32::MAX).to_i32(), 15);
    }

    #[test]
    fn equality_hash_order_follow_the_value() {
        let a = Int4::from_bits(0x05);
        let b = Int4::from_bits(0x95u8 as i8);
        assert_eq!(a, b);
        assert_eq!(hash_of(&a), hash_of(&b));
        assert_ne!(a.to_bits(), b.to_bits());
        assert!(Int4::from_bits(0x08) < Int4::from_bits(0x07));
        assert!(Int4::from_bits(0x0F) < Int4::ZERO);
        assert_eq!(Int4::MIN.cmp(&Int4::new(-8).unwrap()), Ordering::Equal);
        let u = UInt4::from_bits(0xF3);
        assert_eq!(u, UInt4::from_bits(0x03));
        assert_eq!(hash_of(&u), hash_of(&UInt4::from_bits(0x03)));
        assert!(UInt4::from_bits(0x0F) > UInt4::from_bits(0xF0));
        let mut v: Vec<Int4> = [3, -8, 7, -1, 0]
            .iter()
            .map(|&x| Int4::wrapping_from_i32(x))
            .collect();
        v.sort();
        let sorted: Vec<i32> = v.iter().map(|x| x.to_i32()).collect();
        assert_eq!(sorted, [-8, -1, 0, 3, 7]);
    }

    #[test]
    fn debug_and_display() {
        assert_eq!(format!("{:?}", Int4::from_bits(0xFDu8 as i8)), "Int4(-3)");
        assert_eq!(format!("{:?}", UInt4::from_bits(0xFD)), "UInt4(13)");
        assert_eq!(Int4::MIN.to_string(), "-8");
        assert_eq!(UInt4::MAX.to_string(), "15");
        assert_eq!(format!("{:>3}", Int4::from_bits(0x0F)), " -1");
    }

    #[test]
    fn pod_layout() {
        assert_eq!(core::mem::size_of::<Int4>(), 1);
        assert_eq!(core::mem::size_of::<UInt4>(), 1);
        let raw = [0x95u8, 0xfd, 0x08];
        let v: &[Int4] = bytemuck::cast_slice(&raw);
        let vals: Vec<i16> = v.iter().map(|x| x.to_i16()).collect();
        assert_eq!(vals, [5, -3, -8]);
        let back: &[u8] = bytemuck::cast_slice(v);
        assert_eq!(back, raw);
        let u: &[UInt4] = bytemuck::cast_slice(&raw);
        let uvals: Vec<u16> = u.iter().map(|x| x.to_u16()).collect();
        assert_eq!(uvals, [5, 13, 8]);
    }
}
