//! TensorFlow's 4-bit float element type (`float4_e2m1fn`), bit-compatible
//! with ml_dtypes 0.5+ (which TF 2.21 uses for it).
//!
//! One sign bit, two exponent bits (bias 1) and one mantissa bit, stored
//! alone in one byte: the 16 values are ±{0, 0.5, 1, 1.5, 2, 3, 4, 6}. There
//! is no infinity and no NaN ("fn": finite).
//!
//! Conversions follow ml_dtypes' `static_cast` exactly (checked against it
//! on every byte and on every one of the 2^32 `f32` inputs):
//! - to `f32`: the magnitude is the byte's low three bits; the value is
//!   negative when any bit above them is set. TF keeps the raw byte it reads
//!   from `float8_val`, so bytes above `0x0F` occur, and this is how TF
//!   reads them (`0x11` prints as `-0.5`);
//! - from `f32`: round to nearest, ties to even; magnitudes past 6, and
//!   ±inf, saturate to ±6; NaN becomes a zero whose sign is the opposite of
//!   the NaN's sign bit (ml_dtypes' result).

use core::cmp::Ordering;
use core::fmt;
use core::ops::Neg;

/// TensorFlow's `float4_e2m1fn` element (`DT_FLOAT4_E2M1FN`): a 4-bit float
/// with 2 exponent bits and 1 mantissa bit, finite (no inf, no NaN), stored
/// alone in one byte.
///
/// ```
/// use tftensor::Float4E2M1FN;
/// let x = Float4E2M1FN::from_f32(2.7);
/// assert_eq!(x.to_bits(), 0x05);
/// assert_eq!(x.to_f32(), 3.0);
/// assert_eq!(Float4E2M1FN::from_f32(100.0).to_f32(), 6.0); // saturates
/// assert_eq!(Float4E2M1FN::from_bits(0x11).to_f32(), -0.5); // a raw byte from a proto
/// assert_eq!(f32::from(Float4E2M1FN::from_bits(0x0F)), -6.0);
/// ```
#[repr(transparent)]
#[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
pub struct Float4E2M1FN(u8);

impl Float4E2M1FN {
    /// Positive zero (`0x00`).
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::ZERO.to_f32(), 0.0);
    /// ```
    pub const ZERO: Self = Self(0);

    /// Negative zero (`0x08`).
    ///
    /// ```
    /// assert!(tftensor::Float4E2M1FN::NEG_ZERO.to_f32().is_sign_negative());
    /// ```
    pub const NEG_ZERO: Self = Self(0x08);

    /// One (`0x02`).
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::ONE.to_f32(), 1.0);
    /// ```
    pub const ONE: Self = Self(0x02);

    /// The largest value, 6 (`0x07`).
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::MAX.to_f32(), 6.0);
    /// ```
    pub const MAX: Self = Self(0x07);

    /// The most negative value, −6 (`0x0F`).
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::MIN.to_f32(), -6.0);
    /// ```
    pub const MIN: Self = Self(0x0F);

    /// The smallest positive normal value, 1 (exponent bias 1).
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::MIN_POSITIVE.to_f32(), 1.0);
    /// ```
    pub const MIN_POSITIVE: Self = Self(0x02);

    /// The smallest positive subnormal value, 0.5 (`0x01`).
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::MIN_POSITIVE_SUBNORMAL.to_f32(), 0.5);
    /// ```
    pub const MIN_POSITIVE_SUBNORMAL: Self = Self(0x01);

    /// The difference between 1 and the next larger value, 0.5.
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::EPSILON.to_f32(), 0.5);
    /// ```
    pub const EPSILON: Self = Self(0x01);

    /// Wraps a raw byte. Every byte is a valid value (see the module docs
    /// for bytes above `0x0F`).
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::from_bits(0x0D).to_f32(), -3.0);
    /// ```
    #[inline]
    pub const fn from_bits(bits: u8) -> Self {
        Self(bits)
    }

    /// The raw byte.
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::from_bits(0xD5).to_bits(), 0xD5);
    /// ```
    #[inline]
    pub const fn to_bits(self) -> u8 {
        self.0
    }

    /// The exact `f32` value, bit for bit as ml_dtypes' `static_cast<float>`.
    ///
    /// ```
    /// use tftensor::Float4E2M1FN;
    /// assert_eq!(Float4E2M1FN::from_bits(0x05).to_f32(), 3.0);
    /// assert_eq!(Float4E2M1FN::from_bits(0xD5).to_f32(), -3.0);
    /// ```
    #[inline]
    pub const fn to_f32(self) -> f32 {
        let mag = match self.0 & 0x07 {
            0 => 0.0,
            1 => 0.5,
            2 => 1.0,
            3 => 1.5,
            4 => 2.0,
            5 => 3.0,
            6 => 4.0,
            _ => 6.0,
        };
        if self.0 > 0x07 { -mag } else { mag }
    }

    /// The exact `f64` value.
    ///
    /// ```
    /// assert_eq!(tftensor::Float4E2M1FN::MAX.to_f64(), 6.0);
    /// ```
    #[inline]
    pub fn to_f64(self) -> f64 {
        f64::from(self.to_f32())
    }

    /// Rounds `v` to nearest, ties to even, saturating at ±6, exactly as
    /// ml_dtypes' default conversion (±inf give ±6; NaN gives a zero with
    /// the opposite sign of the NaN's sign bit).
    ///
    /// ```
    /// use tftensor::Float4E2M1FN;
    /// assert_eq!(Float4E2M1FN::from_f32(0.25).to_bits(), 0x00); // tie: to even
    /// assert_eq!(Float4E2M1FN::from_f32(0.75).to_bits(), 0x02);
    /// assert_eq!(Float4E2M1FN::from_f32(-5.0).to_f32(), -4.0);
    /// assert_eq!(Float4E2M1FN::from_f32(f32::NEG_INFINITY).to_f32(), -6.0);
    /// ```
    pub const fn from_f32(v: f32) -> Self {
        let bits = v.to_bits();
        let sign = if bits >> 31 != 0 { 0x08 } else { 0x00 };
        if v.is_nan() {
            return Self(sign ^ 0x08);
        }
        let a = f32::from_bits(bits & 0x7FFF_FFFF);
        // Between neighbours, the nearer; on a midpoint (0.25, 0.75, ...,
        // 5), the even code.
        let code = if a <= 0.25 {
            0
        } else if a < 0.75 {
            1
        } else if a <= 1.25 {
            2
        } else if a < 1.75 {
            3
        } else if a <= 2.5 {
            4
        } else if a < 3.5 {
            5
        } else if a <= 5.0 {
            6
        } else {
            7
        };
        Self(sign | code)
    }
}

/// Flips the sign bit (ml_dtypes' negation: bit 3).
impl Neg for Float4E2M1FN {
    type Output = Self;

    #[inline]
    fn neg(self) -> Self {
        Self(self.0 ^ 0x08)
    }
}

/// Compares values: +0 equals −0, and bytes that read as the same value
/// are equal.
impl PartialEq for Float4E2M1FN {
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.to_f32() == other.to_f32()
    }
}

/// Orders values.
impl PartialOrd for Float4E2M1FN {
    #[inline]
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.to_f32().partial_cmp(&other.to_f32())
    }
}

/// Shows the `f32` value.
impl fmt::Debug for Float4E2M1FN {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_f32(), f)
    }
}

/// Shows the `f32` value; TF's `SummarizeValue` formatting is the tensor's
/// job.
impl fmt::Display for Float4E2M1FN {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_f32(), f)
    }
}

impl From<Float4E2M1FN> for f32 {
    #[inline]
    fn from(v: Float4E2M1FN) -> Self {
        v.to_f32()
    }
}

impl From<Float4E2M1FN> for f64 {
    #[inline]
    fn from(v: Float4E2M1FN) -> Self {
        v.to_f64()
    }
}
