//! TensorFlow's five 8-bit float element types, bit-compatible with
//! ml_dtypes (which TF uses for them).
//!
//! | type | TF dtype | exponent / mantissa bits | bias | inf | NaN | −0 |
//! |---|---|---|---|---|---|---|
//! | [`Float8E5M2`] | `float8_e5m2` | 5 / 2 | 15 | `0x7C`, `0xFC` | `0x7D..=0x7F`, `0xFD..=0xFF` | yes |
//! | [`Float8E4M3FN`] | `float8_e4m3fn` | 4 / 3 | 7 | none | `0x7F`, `0xFF` | yes |
//! | [`Float8E4M3FNUZ`] | `float8_e4m3fnuz` | 4 / 3 | 8 | none | `0x80` only | no |
//! | [`Float8E4M3B11FNUZ`] | `float8_e4m3b11fnuz` | 4 / 3 | 11 | none | `0x80` only | no |
//! | [`Float8E5M2FNUZ`] | `float8_e5m2fnuz` | 5 / 2 | 16 | none | `0x80` only | no |
//!
//! Conversions follow ml_dtypes' default `static_cast` exactly:
//! - to `f32` is exact; NaN becomes the quiet NaN `0x7FC00000` with the
//!   byte's sign bit (so the fnuz NaN `0x80` gives `0xFFC00000`);
//! - from `f32` rounds to nearest, ties to even. A value whose rounded
//!   magnitude exceeds the largest finite value becomes infinity where the
//!   type has one (e5m2) and NaN otherwise, as do ±inf; NaN stays NaN with its
//!   sign where the type has signed NaNs. In the fnuz types, negative values
//!   that round to zero, and −0, become `+0` (`0x00`).
//!
//! The types are defined here rather than taken from the `float8` crate: that
//! crate has only two of the five formats and saturates on overflow, whereas
//! ml_dtypes (and TF) produce inf/NaN.

use core::cmp::Ordering;
use core::fmt;
use core::ops::Neg;

/// How the format uses its top exponent and its sign bit.
#[derive(Clone, Copy)]
enum Kind {
    /// IEEE-754-like: all-ones exponent is inf (mantissa 0) or NaN.
    Ieee,
    /// "Finite, NaN": no inf; only all-ones exponent and mantissa is NaN.
    Fn,
    /// "Finite, NaN, unsigned zero": `0x80` is the only NaN, no −0, no inf.
    Fnuz,
}

/// The parameters that tell the five formats apart.
#[derive(Clone, Copy)]
struct Format {
    /// Mantissa bits; the exponent has the other `7 - man_bits`.
    man_bits: u32,
    /// Exponent bias.
    bias: i32,
    kind: Kind,
}

/// Adds a rounding bias so that shifting right by `roundoff` rounds to
/// nearest, ties to even (ml_dtypes' `RoundBitsToNearestEven`).
const fn round_bits_to_nearest_even(bits: u32, roundoff: u32) -> u32 {
    bits + ((bits >> roundoff) & 1) + (1 << (roundoff - 1)) - 1
}

impl Format {
    const fn man_mask(self) -> u32 {
        (1 << self.man_bits) - 1
    }

    const fn exp_all_ones(self) -> u32 {
        (1 << (7 - self.man_bits)) - 1
    }

    /// ml_dtypes' `highest()`.
    const fn max_finite(self) -> u8 {
        match self.kind {
            Kind::Ieee => ((self.exp_all_ones() << self.man_bits) - 1) as u8,
            Kind::Fn => 0x7E,
            Kind::Fnuz => 0x7F,
        }
    }

    /// ml_dtypes' `quiet_NaN()` (positive where the sign matters).
    const fn quiet_nan(self) -> u8 {
        match self.kind {
            Kind::Ieee => {
                ((self.exp_all_ones() << self.man_bits) | (1 << (self.man_bits - 1))) as u8
            }
            Kind::Fn => 0x7F,
            Kind::Fnuz => 0x80,
        }
    }

    /// ml_dtypes' `infinity()`: NaN in the formats without infinity.
    const fn infinity(self) -> u8 {
        match self.kind {
            Kind::Ieee => (self.exp_all_ones() << self.man_bits) as u8,
            Kind::Fn | Kind::Fnuz => self.quiet_nan(),
        }
    }

    /// ml_dtypes' unary minus: the fnuz formats leave 0 and NaN (`0x80`)
    /// alone because they have no −0.
    const fn negate(self, b: u8) -> u8 {
        match self.kind {
            Kind::Fnuz if b & 0x7F == 0 => b,
            _ => b ^ 0x80,
        }
    }

    const fn is_nan(self, b: u8) -> bool {
        match self.kind {
            Kind::Ieee => (b & 0x7F) as u32 > self.exp_all_ones() << self.man_bits,
            Kind::Fn => b & 0x7F == 0x7F,
            Kind::Fnuz => b == 0x80,
        }
    }

    const fn is_infinite(self, b: u8) -> bool {
        match self.kind {
            Kind::Ieee => (b & 0x7F) as u32 == self.exp_all_ones() << self.man_bits,
            Kind::Fn | Kind::Fnuz => false,
        }
    }

    /// The `f32` bit pattern of `b` (exact).
    const fn decode_to_f32_bits(self, b: u8) -> u32 {
        let sign = ((b >> 7) as u32) << 31;
        if self.is_nan(b) {
            // ml_dtypes returns ±quiet_NaN by the byte's sign bit.
            return sign | 0x7FC0_0000;
        }
        if self.is_infinite(b) {
            return sign | 0x7F80_0000;
        }
        let m = self.man_bits;
        let exp = ((b & 0x7F) as u32) >> m;
        let mut man = (b as u32) & self.man_mask();
        if exp == 0 {
            if man == 0 {
                return sign;
            }
            // Subnormal: normalise so the leading 1 becomes the hidden bit;
            // every float8 subnormal is a normal f32.
            let mut e = 1 - self.bias;
            while man & (1 << m) == 0 {
                man <<= 1;
                e -= 1;
            }
            return sign | (((e + 127) as u32) << 23) | ((man & self.man_mask()) << (23 - m));
        }
        sign | (((exp as i32 - self.bias + 127) as u32) << 23) | (man << (23 - m))
    }

    /// Rounds the `f32` with bits `x` to this format, as ml_dtypes'
    /// `ConvertImpl<float, F, /*kSaturate=*/false, /*kTruncate=*/false>`.
    const fn encode_f32_bits(self, x: u32) -> u8 {
        let negative = x >> 31 != 0;
        let abs = x & 0x7FFF_FFFF;
        let m = self.man_bits;
        let magnitude = if abs == 0x7F80_0000 {
            self.infinity()
        } else if abs > 0x7F80_0000 {
            self.quiet_nan()
        } else {
            let biased_f32_exp = (abs >> 23) as i32;
            // f32 subnormals (exponent 0) are far below half the smallest
            // float8 subnormal, so they take the underflow branch and give 0.
            let biased_to_exp = biased_f32_exp - 127 + self.bias;
            if biased_to_exp <= 0 {
                // Result is subnormal or zero: shift the full significand
                // (hidden bit included) down and round once.
                let shift = (23 - m) + (1 - biased_to_exp) as u32;
                if shift > 24 {
                    0
                } else {
                    let sig = (abs & 0x007F_FFFF) | 0x0080_0000;
                    // A carry into bit `m` yields the smallest normal, which
                    // is the right encoding.
                    (round_bits_to_nearest_even(sig, shift) >> shift) as u8
                }
            } else {
                let shift = 23 - m;
                // Exponent and mantissa in the target's field widths, still
                // with the f32 bias; a rounding carry moves into the exponent.
                let rounded = (round_bits_to_nearest_even(abs, shift) >> shift) as i64;
                let rebiased = rounded - (((127 - self.bias) as i64) << m);
                if rebiased > self.max_finite() as i64 {
                    self.infinity()
                } else {
                    rebiased as u8
                }
            }
        };
        if negative {
            self.negate(magnitude)
        } else {
            magnitude
        }
    }
}

/// Defines one float8 type from its [`Format`].
///
/// The five types share all logic; only the format and docs differ.
macro_rules! float8_type {
    (
        $(#[$attr:meta])*
        $name:ident,
        $format:expr,
        one = $one:literal,
        max = ($max_bits:literal, $max_val:literal),
        min_positive = ($minp_bits:literal, $minp_val:literal),
        min_subnormal = $mins_val:literal,
        epsilon = ($eps_bits:literal, $eps_val:literal),
        nan = $nan_bits:literal,
        example = ($ex_in:literal, $ex_bits:literal, $ex_out:literal),
    ) => {
        $(#[$attr])*
        ///
        /// ```
        #[doc = concat!("use tftensor::", stringify!($name), ";")]
        #[doc = concat!("let x = ", stringify!($name), "::from_f32(", $ex_in, ");")]
        #[doc = concat!("assert_eq!(x.to_bits(), ", $ex_bits, ");")]
        #[doc = concat!("assert_eq!(x.to_f32(), ", $ex_out, ");")]
        #[doc = concat!("assert_eq!(", stringify!($name), "::from_bits(", $ex_bits, "), x);")]
        #[doc = concat!("assert_eq!(f32::from(x), ", $ex_out, ");")]
        /// ```
        #[repr(transparent)]
        #[derive(Clone, Copy, Default, bytemuck::Pod, bytemuck::Zeroable)]
        pub struct $name(u8);

        impl $name {
            const FORMAT: Format = $format;

            /// Positive zero (`0x00`).
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::ZERO.to_bits(), 0);")]
            /// ```
            pub const ZERO: Self = Self(0);

            /// One.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::ONE.to_bits(), ", $one, ");")]
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::ONE.to_f32(), 1.0);")]
            /// ```
            pub const ONE: Self = Self((Self::FORMAT.bias as u8) << Self::FORMAT.man_bits);

            /// The largest finite value.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MAX.to_bits(), ", $max_bits, ");")]
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MAX.to_f32(), ", $max_val, ");")]
            /// ```
            pub const MAX: Self = Self(Self::FORMAT.max_finite());

            /// The most negative finite value.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MIN.to_f32(), -", $max_val, ");")]
            /// ```
            pub const MIN: Self = Self(Self::FORMAT.max_finite() | 0x80);

            /// The smallest positive normal value.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MIN_POSITIVE.to_bits(), ", $minp_bits, ");")]
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MIN_POSITIVE.to_f32(), ", $minp_val, ");")]
            /// ```
            pub const MIN_POSITIVE: Self = Self(1 << Self::FORMAT.man_bits);

            /// The smallest positive subnormal value (`0x01`).
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MIN_POSITIVE_SUBNORMAL.to_f32(), ", $mins_val, ");")]
            /// ```
            pub const MIN_POSITIVE_SUBNORMAL: Self = Self(1);

            /// The difference between 1.0 and the next larger value.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::EPSILON.to_bits(), ", $eps_bits, ");")]
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::EPSILON.to_f32(), ", $eps_val, ");")]
            /// ```
            pub const EPSILON: Self = Self(
                ((Self::FORMAT.bias - Self::FORMAT.man_bits as i32) as u8) << Self::FORMAT.man_bits,
            );

            /// The NaN that `from_f32(f32::NAN)` gives (ml_dtypes' `quiet_NaN()`).
            ///
            /// ```
            #[doc = concat!("let nan = tftensor::", stringify!($name), "::NAN;")]
            #[doc = concat!("assert_eq!(nan.to_bits(), ", $nan_bits, ");")]
            /// assert!(nan.is_nan() && nan != nan);
            /// ```
            pub const NAN: Self = Self(Self::FORMAT.quiet_nan());

            /// Wraps a raw byte. Every byte is a valid value.
            ///
            /// ```
            #[doc = concat!("let x = tftensor::", stringify!($name), "::from_bits(", $ex_bits, ");")]
            #[doc = concat!("assert_eq!(x.to_f32(), ", $ex_out, ");")]
            /// ```
            #[inline]
            pub const fn from_bits(bits: u8) -> Self {
                Self(bits)
            }

            /// The raw byte.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0xAB).to_bits(), 0xAB);")]
            /// ```
            #[inline]
            pub const fn to_bits(self) -> u8 {
                self.0
            }

            /// The exact `f32` value, bit for bit as ml_dtypes' `static_cast<float>`
            /// (NaN is `0x7FC00000` with the byte's sign bit).
            ///
            /// ```
            #[doc = concat!("let x = tftensor::", stringify!($name), "::from_bits(", $ex_bits, ");")]
            #[doc = concat!("assert_eq!(x.to_f32(), ", $ex_out, ");")]
            /// ```
            #[inline]
            pub const fn to_f32(self) -> f32 {
                f32::from_bits(Self::FORMAT.decode_to_f32_bits(self.0))
            }

            /// The exact `f64` value (via the exact `f32`).
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::ONE.to_f64(), 1.0);")]
            /// ```
            #[inline]
            pub fn to_f64(self) -> f64 {
                f64::from(self.to_f32())
            }

            /// Rounds `v` to nearest, ties to even, exactly as ml_dtypes'
            /// default conversion (no saturation: overflow and ±inf give
            /// infinity if the type has it, NaN otherwise).
            ///
            /// ```
            #[doc = concat!("use tftensor::", stringify!($name), ";")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_f32(", $ex_in, ").to_bits(), ", $ex_bits, ");")]
            #[doc = concat!("assert_eq!(", stringify!($name), "::from_f32(1.0), ", stringify!($name), "::ONE);")]
            #[doc = concat!("assert!(", stringify!($name), "::from_f32(f32::NAN).is_nan());")]
            /// ```
            #[inline]
            pub const fn from_f32(v: f32) -> Self {
                Self(Self::FORMAT.encode_f32_bits(v.to_bits()))
            }

            /// Whether this is a NaN.
            ///
            /// ```
            #[doc = concat!("assert!(tftensor::", stringify!($name), "::NAN.is_nan());")]
            #[doc = concat!("assert!(!tftensor::", stringify!($name), "::ONE.is_nan());")]
            /// ```
            #[inline]
            pub const fn is_nan(self) -> bool {
                Self::FORMAT.is_nan(self.0)
            }

            /// Whether this is ±infinity (only `Float8E5M2` has infinities).
            ///
            /// ```
            #[doc = concat!("assert!(!tftensor::", stringify!($name), "::MAX.is_infinite());")]
            /// ```
            #[inline]
            pub const fn is_infinite(self) -> bool {
                Self::FORMAT.is_infinite(self.0)
            }

            /// Whether this is neither NaN nor infinite.
            ///
            /// ```
            #[doc = concat!("assert!(tftensor::", stringify!($name), "::MAX.is_finite());")]
            #[doc = concat!("assert!(!tftensor::", stringify!($name), "::NAN.is_finite());")]
            /// ```
            #[inline]
            pub const fn is_finite(self) -> bool {
                !self.is_nan() && !self.is_infinite()
            }
        }

        /// Flips the sign as ml_dtypes does (in the fnuz types 0 and NaN
        /// stay as they are).
        impl Neg for $name {
            type Output = Self;

            #[inline]
            fn neg(self) -> Self {
                Self(Self::FORMAT.negate(self.0))
            }
        }

        /// Compares values as ml_dtypes does: NaN is unequal to everything,
        /// +0 equals −0.
        impl PartialEq for $name {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                self.to_f32() == other.to_f32()
            }
        }

        /// Orders values as ml_dtypes does; NaN is unordered.
        impl PartialOrd for $name {
            #[inline]
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                self.to_f32().partial_cmp(&other.to_f32())
            }
        }

        /// Shows the `f32` value.
        impl fmt::Debug for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Debug::fmt(&self.to_f32(), f)
            }
        }

        /// Shows the `f32` value (ml_dtypes' `operator<<`); TF's
        /// `SummarizeValue` formatting is the tensor's job.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.to_f32(), f)
            }
        }

        impl From<$name> for f32 {
            #[inline]
            fn from(v: $name) -> Self {
                v.to_f32()
            }
        }

        impl From<$name> for f64 {
            #[inline]
            fn from(v: $name) -> Self {
                v.to_f64()
            }
        }
    };
}

float8_type!(
    /// TensorFlow's `float8_e5m2` element (`DT_FLOAT8_E5M2`): 5 exponent bits,
    /// 2 mantissa bits, bias 15, IEEE-style infinities and NaNs, ±0.
    Float8E5M2,
    Format { man_bits: 2, bias: 15, kind: Kind::Ieee },
    one = "0x3C",
    max = ("0x7B", "57344.0"),
    min_positive = ("0x04", "6.1035156e-5"),
    min_subnormal = "1.5258789e-5",
    epsilon = ("0x34", "0.25"),
    nan = "0x7E",
    example = ("0.3", "0x35", "0.3125"),
);

float8_type!(
    /// TensorFlow's `float8_e4m3fn` element (`DT_FLOAT8_E4M3FN`): 4 exponent
    /// bits, 3 mantissa bits, bias 7, no infinities, NaN only at `0x7F`/`0xFF`,
    /// ±0.
    Float8E4M3FN,
    Format { man_bits: 3, bias: 7, kind: Kind::Fn },
    one = "0x38",
    max = ("0x7E", "448.0"),
    min_positive = ("0x08", "0.015625"),
    min_subnormal = "0.001953125",
    epsilon = ("0x20", "0.125"),
    nan = "0x7F",
    example = ("0.3", "0x2A", "0.3125"),
);

float8_type!(
    /// TensorFlow's `float8_e4m3fnuz` element (`DT_FLOAT8_E4M3FNUZ`): 4
    /// exponent bits, 3 mantissa bits, bias 8, no infinities, `0x80` is the
    /// only NaN, no −0.
    Float8E4M3FNUZ,
    Format { man_bits: 3, bias: 8, kind: Kind::Fnuz },
    one = "0x40",
    max = ("0x7F", "240.0"),
    min_positive = ("0x08", "0.0078125"),
    min_subnormal = "0.0009765625",
    epsilon = ("0x28", "0.125"),
    nan = "0x80",
    example = ("0.3", "0x32", "0.3125"),
);

float8_type!(
    /// TensorFlow's `float8_e4m3b11fnuz` element (`DT_FLOAT8_E4M3B11FNUZ`): 4
    /// exponent bits, 3 mantissa bits, bias 11, no infinities, `0x80` is the
    /// only NaN, no −0.
    Float8E4M3B11FNUZ,
    Format { man_bits: 3, bias: 11, kind: Kind::Fnuz },
    one = "0x58",
    max = ("0x7F", "30.0"),
    min_positive = ("0x08", "0.0009765625"),
    min_subnormal = "0.00012207031",
    epsilon = ("0x40", "0.125"),
    nan = "0x80",
    example = ("0.3", "0x4A", "0.3125"),
);

float8_type!(
    /// TensorFlow's `float8_e5m2fnuz` element (`DT_FLOAT8_E5M2FNUZ`): 5
    /// exponent bits, 2 mantissa bits, bias 16, no infinities, `0x80` is the
    /// only NaN, no −0.
    Float8E5M2FNUZ,
    Format { man_bits: 2, bias: 16, kind: Kind::Fnuz },
    one = "0x40",
    max = ("0x7F", "57344.0"),
    min_positive = ("0x04", "3.0517578e-5"),
    min_subnormal = "7.6293945e-6",
    epsilon = ("0x38", "0.25"),
    nan = "0x80",
    example = ("0.3", "0x39", "0.3125"),
);

impl Float8E5M2 {
    /// Positive infinity (`0x7C`).
    ///
    /// ```
    /// use tftensor::Float8E5M2;
    /// assert_eq!(Float8E5M2::INFINITY.to_f32(), f32::INFINITY);
    /// assert_eq!(Float8E5M2::from_f32(1e6), Float8E5M2::INFINITY);
    /// ```
    pub const INFINITY: Self = Self(0x7C);

    /// Negative infinity (`0xFC`).
    ///
    /// ```
    /// use tftensor::Float8E5M2;
    /// assert_eq!(Float8E5M2::NEG_INFINITY.to_f32(), f32::NEG_INFINITY);
    /// ```
    pub const NEG_INFINITY: Self = Self(0xFC);

    /// Negative zero (`0x80`).
    ///
    /// ```
    /// use tftensor::Float8E5M2;
    /// assert_eq!(Float8E5M2::NEG_ZERO.to_f32().to_bits(), (-0.0f32).to_bits());
    /// assert_eq!(Float8E5M2::NEG_ZERO, Float8E5M2::ZERO);
    /// ```
    pub const NEG_ZERO: Self = Self(0x80);
}

impl Float8E4M3FN {
    /// Negative zero (`0x80`).
    ///
    /// ```
    /// use tftensor::Float8E4M3FN;
    /// assert_eq!(Float8E4M3FN::NEG_ZERO.to_f32().to_bits(), (-0.0f32).to_bits());
    /// assert_eq!(Float8E4M3FN::NEG_ZERO, Float8E4M3FN::ZERO);
    /// ```
    pub const NEG_ZERO: Self = Self(0x80);
}
