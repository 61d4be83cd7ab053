//! TensorFlow's 2-bit integer element types (`int2`, `uint2`).
//!
//! As with [`Int4`](crate::Int4): TF 2.21 stores one value per byte and uses
//! ml_dtypes' `intN<2, int8_t>` / `intN<2, uint8_t>`, whose value is the low
//! two bits of the byte (sign-extended for [`Int2`], zero-extended for
//! [`UInt2`]); the other six bits are ignored. TF's proto decoder narrows
//! `int_val` to a byte without masking, so the raw byte is kept and every
//! reading looks only at the low two bits. TF prints the value (`0xFE` prints
//! as `-2` in `int2`, `2` in `uint2`).
//!
//! Equality, ordering and hashing follow the value, as in ml_dtypes.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use super::int4::nibble_traits;

/// TensorFlow's `int2` element (`DT_INT2`): a signed 2-bit integer, −2..=1,
/// stored alone in one byte.
///
/// The value is the byte's low two bits, sign-extended (ml_dtypes' `int2`);
/// the byte is kept as is. Equality, ordering and hashing use the value.
///
/// ```
/// use tftensor::Int2;
/// let v = Int2::new(-2).unwrap();
/// assert_eq!(v.to_bits(), 0x02); // ml_dtypes' layout: upper bits clear
/// assert_eq!(v.to_i32(), -2);
/// let raw = Int2::from_bits(0x6Fu8 as i8);
/// assert_eq!(raw.to_i8(), -1);
/// assert_eq!(raw.to_string(), "-1");
/// assert_eq!(raw, Int2::new(-1).unwrap());
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Int2(i8);

/// TensorFlow's `uint2` element (`DT_UINT2`): an unsigned 2-bit integer,
/// 0..=3, stored alone in one byte.
///
/// The value is the byte's low two bits (ml_dtypes' `uint2`); the byte is
/// kept as is. Equality, ordering and hashing use the value.
///
/// ```
/// use tftensor::UInt2;
/// let v = UInt2::new(3).unwrap();
/// assert_eq!(v.to_bits(), 0x03);
/// let raw = UInt2::from_bits(0x13);
/// assert_eq!(raw.to_u8(), 3);
/// assert_eq!(raw, v);
/// assert_eq!(raw.to_string(), "3");
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct UInt2(u8);

impl Int2 {
    /// The smallest value, −2 (stored as `0x02`, as ml_dtypes does).
    ///
    /// ```
    /// assert_eq!(tftensor::Int2::MIN.to_i32(), -2);
    /// ```
    pub const MIN: Self = Self(0x02);

    /// The largest value, 1.
    ///
    /// ```
    /// assert_eq!(tftensor::Int2::MAX.to_i32(), 1);
    /// ```
    pub const MAX: Self = Self(0x01);

    /// Zero.
    ///
    /// ```
    /// assert_eq!(tftensor::Int2::ZERO, tftensor::Int2::default());
    /// ```
    pub const ZERO: Self = Self(0);

    /// `v` as an `Int2`, or `None` if it is outside −2..=1. The byte is
    /// stored with the upper six bits clear, like ml_dtypes' `int2(v)`.
    ///
    /// ```
    /// use tftensor::Int2;
    /// assert_eq!(Int2::new(-1).map(Int2::to_bits), Some(0x03));
    /// assert_eq!(Int2::new(2), None);
    /// assert_eq!(Int2::new(-3), None);
    /// ```
    #[inline]
    pub const fn new(v: i8) -> Option<Self> {
        if v >= -2 && v <= 1 {
            Some(Self(v & 0x03))
        } else {
            None
        }
    }

    /// Wraps a raw byte without changing it; the value is its low two bits.
    ///
    /// ```
    /// let v = tftensor::Int2::from_bits(0x2B);
    /// assert_eq!((v.to_bits(), v.to_i32()), (0x2B, -1));
    /// ```
    #[inline]
    pub const fn from_bits(b: i8) -> Self {
        Self(b)
    }

    /// The raw byte, including any high bits it was created with.
    ///
    /// ```
    /// assert_eq!(tftensor::Int2::from_bits(-1).to_bits(), -1);
    /// ```
    #[inline]
    pub const fn to_bits(self) -> i8 {
        self.0
    }

    /// The low two bits of `v`, as ml_dtypes' `static_cast<int2>(v)`:
    /// `5` wraps to `1`, `-3` to `1`, `2` to `-2`.
    ///
    /// ```
    /// use tftensor::Int2;
    /// assert_eq!(Int2::wrapping_from_i32(5).to_i32(), 1);
    /// assert_eq!(Int2::wrapping_from_i32(-3).to_i32(), 1);
    /// assert_eq!(Int2::wrapping_from_i32(2).to_bits(), 0x02);
    /// ```
    #[inline]
    pub const fn wrapping_from_i32(v: i32) -> Self {
        // `& 0x03` leaves 0..=3, which fits an i8.
        Self((v & 0x03) as i8)
    }

    /// The value: the low two bits, sign-extended (−2..=1).
    ///
    /// ```
    /// assert_eq!(tftensor::Int2::from_bits(0x0E).to_i8(), -2);
    /// ```
    #[inline]
    pub const fn to_i8(self) -> i8 {
        (self.0 << 6) >> 6
    }

    /// The value as `i16`, which is how TF prints `int2`.
    ///
    /// ```
    /// assert_eq!(tftensor::Int2::from_bits(0x05).to_i16(), 1);
    /// ```
    #[inline]
    pub const fn to_i16(self) -> i16 {
        self.to_i8() as i16
    }

    /// The value as `i32`, as TF writes it to `TensorProto.int_val`.
    ///
    /// ```
    /// assert_eq!(tftensor::Int2::from_bits(0x02).to_i32(), -2);
    /// ```
    #[inline]
    pub const fn to_i32(self) -> i32 {
        self.to_i8() as i32
    }

    /// The value as `i64`.
    ///
    /// ```
    /// assert_eq!(tftensor::Int2::from_bits(0x7F).to_i64(), -1);
    /// ```
    #[inline]
    pub const fn to_i64(self) -> i64 {
        self.to_i8() as i64
    }
}

impl UInt2 {
    /// The smallest value, 0.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::MIN.to_u8(), 0);
    /// ```
    pub const MIN: Self = Self(0);

    /// The largest value, 3.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::MAX.to_u8(), 3);
    /// ```
    pub const MAX: Self = Self(0x03);

    /// Zero.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::ZERO, tftensor::UInt2::default());
    /// ```
    pub const ZERO: Self = Self(0);

    /// `v` as a `UInt2`, or `None` if it is above 3.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::new(3).map(|v| v.to_bits()), Some(3));
    /// assert_eq!(tftensor::UInt2::new(4), None);
    /// ```
    #[inline]
    pub const fn new(v: u8) -> Option<Self> {
        if v <= 3 {
            Some(Self(v))
        } else {
            None
        }
    }

    /// Wraps a raw byte without changing it; the value is its low two bits.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::from_bits(0xFE).to_u8(), 2);
    /// ```
    #[inline]
    pub const fn from_bits(b: u8) -> Self {
        Self(b)
    }

    /// The raw byte.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::from_bits(0xFE).to_bits(), 0xFE);
    /// ```
    #[inline]
    pub const fn to_bits(self) -> u8 {
        self.0
    }

    /// The low two bits of `v`, as ml_dtypes' `static_cast<uint2>(v)`.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::wrapping_from_i32(-1).to_u8(), 3);
    /// assert_eq!(tftensor::UInt2::wrapping_from_i32(5).to_u8(), 1);
    /// ```
    #[inline]
    pub const fn wrapping_from_i32(v: i32) -> Self {
        // `& 0x03` leaves 0..=3, which fits a u8.
        Self((v & 0x03) as u8)
    }

    /// The value: the low two bits (0..=3).
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::from_bits(0x13).to_u8(), 3);
    /// ```
    #[inline]
    pub const fn to_u8(self) -> u8 {
        self.0 & 0x03
    }

    /// The value as `u16`, which is how TF prints `uint2`.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::from_bits(0x42).to_u16(), 2);
    /// ```
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.to_u8() as u16
    }

    /// The value as `u32`.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::from_bits(0x07).to_u32(), 3);
    /// ```
    #[inline]
    pub const fn to_u32(self) -> u32 {
        self.to_u8() as u32
    }

    /// The value as `i32`, as TF writes it to `TensorProto.int_val`.
    ///
    /// ```
    /// assert_eq!(tftensor::UInt2::from_bits(0xFF).to_i32(), 3);
    /// ```
    #[inline]
    pub const fn to_i32(self) -> i32 {
        self.to_u8() as i32
    }
}

nibble_traits!(Int2, to_i8, to_i16, [i8, i16, i32, i64]);
nibble_traits!(UInt2, to_u8, to_u16, [u8, u16, u32, u64, i16, i32, i64]);
