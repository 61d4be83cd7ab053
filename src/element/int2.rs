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

use super::sub_byte::{signed_sub_byte, unsigned_sub_byte};

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

signed_sub_byte!(Int2, 2, min -2 = 0x02, max 1, mask 0x03, tf "int2");
unsigned_sub_byte!(UInt2, 2, max 3, tf "uint2");
