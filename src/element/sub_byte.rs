//! The one implementation of TensorFlow's sub-byte integer element types
//! ([`Int4`](crate::Int4), [`UInt4`](crate::UInt4), [`Int2`](crate::Int2),
//! [`UInt2`](crate::UInt2)).
//!
//! TF stores these one value per byte, not packed, and uses ml_dtypes'
//! `intN<bits, int8_t>` / `intN<bits, uint8_t>`: the value lives in the low
//! bits and the high bits are ignored. TF's proto decoder narrows `int_val`
//! to a byte without masking, so the types keep the raw byte, and every
//! reading of the value looks only at the low bits: sign-extended for the
//! signed types, zero-extended for the unsigned ones. Equality, ordering and
//! hashing follow the value, as in ml_dtypes.

/// The constants, constructors and conversions of a signed sub-byte type
/// `$name(i8)` of `$bits` bits, whose value range is `$min..=$max` and whose
/// most negative value is stored as `$min_bits`; then [`sub_byte_traits!`].
macro_rules! signed_sub_byte {
    ($name:ident, $bits:literal, min $min:literal = $min_bits:literal, max $max:literal,
        mask $mask:literal, tf $tf:literal) => {
        impl $name {
            #[doc = concat!("The smallest value, ", $min, " (stored as `", stringify!($min_bits), "`, as ml_dtypes does).")]
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MIN.to_i32(), ", $min, ");")]
            /// ```
            pub const MIN: Self = Self($min_bits);

            #[doc = concat!("The largest value, ", $max, ".")]
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MAX.to_i32(), ", $max, ");")]
            /// ```
            pub const MAX: Self = Self($max);

            /// Zero.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::ZERO, tftensor::", stringify!($name), "::default());")]
            /// ```
            pub const ZERO: Self = Self(0);

            #[doc = concat!("`v` as an `", stringify!($name), "`, or `None` if it is outside ", $min, "..=", $max, ".")]
            ///
            #[doc = concat!("The byte is stored with the upper bits clear, like ml_dtypes' `", $tf, "(v)` (so `-1` becomes `", stringify!($mask), "`).")]
            ///
            /// ```
            #[doc = concat!("use tftensor::", stringify!($name), " as T;")]
            #[doc = concat!("assert_eq!(T::new(-1).map(T::to_bits), Some(", stringify!($mask), "));")]
            #[doc = concat!("assert_eq!(T::new(", $max, ").map(T::to_i32), Some(", $max, "));")]
            #[doc = concat!("assert_eq!(T::new(", $max, " + 1), None);")]
            #[doc = concat!("assert_eq!(T::new(", $min, " - 1), None);")]
            /// ```
            #[inline]
            pub const fn new(v: i8) -> Option<Self> {
                if v >= $min && v <= $max {
                    Some(Self(v & $mask))
                } else {
                    None
                }
            }

            #[doc = concat!("Wraps a raw byte without changing it; the value is its low ", $bits, " bits.")]
            ///
            #[doc = concat!("TF's proto decoder stores `int_val` this way: `", stringify!($name), "::from_bits(v as i8)`.")]
            ///
            /// ```
            #[doc = concat!("let v = tftensor::", stringify!($name), "::from_bits(0x70 | ", $max, ");")]
            #[doc = concat!("assert_eq!((v.to_bits(), v.to_i32()), (0x70 | ", $max, ", ", $max, "));")]
            /// ```
            #[inline]
            pub const fn from_bits(b: i8) -> Self {
                Self(b)
            }

            /// The raw byte, including any high bits it was created with.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(-1).to_bits(), -1);")]
            /// ```
            #[inline]
            pub const fn to_bits(self) -> i8 {
                self.0
            }

            #[doc = concat!("The low ", $bits, " bits of `v`, as ml_dtypes' `static_cast<", $tf, ">(v)`. The upper bits of the byte are clear.")]
            ///
            /// ```
            #[doc = concat!("use tftensor::", stringify!($name), " as T;")]
            #[doc = concat!("assert_eq!(T::wrapping_from_i32(", $max, " + 1).to_i32(), ", $min, ");")]
            #[doc = concat!("assert_eq!(T::wrapping_from_i32(-1).to_bits(), ", stringify!($mask), ");")]
            /// ```
            #[inline]
            pub const fn wrapping_from_i32(v: i32) -> Self {
                // The mask leaves a value that fits an i8.
                Self((v & $mask) as i8)
            }

            #[doc = concat!("The value: the low ", $bits, " bits, sign-extended (", $min, "..=", $max, ").")]
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0x70 | ", stringify!($min_bits), ").to_i8(), ", $min, ");")]
            /// ```
            #[inline]
            pub const fn to_i8(self) -> i8 {
                // Shift the value bits to the top, then arithmetic-shift back down.
                (self.0 << (8 - $bits)) >> (8 - $bits)
            }

            #[doc = concat!("The value as `i16`, which is how TF prints `", $tf, "`.")]
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0x40 | ", $max, ").to_i16(), ", $max, ");")]
            /// ```
            #[inline]
            pub const fn to_i16(self) -> i16 {
                self.to_i8() as i16
            }

            /// The value as `i32`, as TF writes it to `TensorProto.int_val`.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(", stringify!($min_bits), ").to_i32(), ", $min, ");")]
            /// ```
            #[inline]
            pub const fn to_i32(self) -> i32 {
                self.to_i8() as i32
            }

            /// The value as `i64`.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0x7F).to_i64(), -1);")]
            /// ```
            #[inline]
            pub const fn to_i64(self) -> i64 {
                self.to_i8() as i64
            }
        }

        $crate::element::sub_byte::sub_byte_traits!($name, to_i8, to_i16, [i8, i16, i32, i64, i128]);
    };
}

/// The constants, constructors and conversions of an unsigned sub-byte type
/// `$name(u8)` of `$bits` bits (`0..=$max`, `$max` being also the mask);
/// then [`sub_byte_traits!`].
macro_rules! unsigned_sub_byte {
    ($name:ident, $bits:literal, max $max:literal, tf $tf:literal) => {
        impl $name {
            /// The smallest value, 0.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MIN.to_u8(), 0);")]
            /// ```
            pub const MIN: Self = Self(0);

            #[doc = concat!("The largest value, ", $max, ".")]
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::MAX.to_u8(), ", $max, ");")]
            /// ```
            pub const MAX: Self = Self($max);

            /// Zero.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::ZERO, tftensor::", stringify!($name), "::default());")]
            /// ```
            pub const ZERO: Self = Self(0);

            #[doc = concat!("`v` as a `", stringify!($name), "`, or `None` if it is above ", $max, ".")]
            ///
            /// ```
            #[doc = concat!("use tftensor::", stringify!($name), " as T;")]
            #[doc = concat!("assert_eq!(T::new(", $max, ").map(T::to_bits), Some(", $max, "));")]
            #[doc = concat!("assert_eq!(T::new(", $max, " + 1), None);")]
            /// ```
            #[inline]
            pub const fn new(v: u8) -> Option<Self> {
                if v <= $max {
                    Some(Self(v))
                } else {
                    None
                }
            }

            #[doc = concat!("Wraps a raw byte without changing it; the value is its low ", $bits, " bits.")]
            ///
            #[doc = concat!("TF's proto decoder stores `int_val` this way: `", stringify!($name), "::from_bits(v as u8)`.")]
            ///
            /// ```
            #[doc = concat!("let v = tftensor::", stringify!($name), "::from_bits(0xF0 | 1);")]
            /// assert_eq!((v.to_bits(), v.to_u8()), (0xF1, 1));
            /// ```
            #[inline]
            pub const fn from_bits(b: u8) -> Self {
                Self(b)
            }

            /// The raw byte, including any high bits it was created with.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0xFF).to_bits(), 0xFF);")]
            /// ```
            #[inline]
            pub const fn to_bits(self) -> u8 {
                self.0
            }

            #[doc = concat!("The low ", $bits, " bits of `v`, as ml_dtypes' `static_cast<", $tf, ">(v)`. The upper bits of the byte are clear.")]
            ///
            /// ```
            #[doc = concat!("use tftensor::", stringify!($name), " as T;")]
            #[doc = concat!("assert_eq!(T::wrapping_from_i32(-1).to_u8(), ", $max, ");")]
            #[doc = concat!("assert_eq!(T::wrapping_from_i32(", $max, " + 2).to_bits(), 1);")]
            /// ```
            #[inline]
            pub const fn wrapping_from_i32(v: i32) -> Self {
                // The mask leaves a value that fits a u8.
                Self((v & $max) as u8)
            }

            #[doc = concat!("The value: the low ", $bits, " bits (0..=", $max, ").")]
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0xF0 | ", $max, ").to_u8(), ", $max, ");")]
            /// ```
            #[inline]
            pub const fn to_u8(self) -> u8 {
                self.0 & $max
            }

            #[doc = concat!("The value as `u16`, which is how TF prints `", $tf, "`.")]
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0x42).to_u16(), 2);")]
            /// ```
            #[inline]
            pub const fn to_u16(self) -> u16 {
                self.to_u8() as u16
            }

            /// The value as `u32`.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0xF0 | ", $max, ").to_u32(), ", $max, ");")]
            /// ```
            #[inline]
            pub const fn to_u32(self) -> u32 {
                self.to_u8() as u32
            }

            /// The value as `i32`, as TF writes it to `TensorProto.int_val`.
            ///
            /// ```
            #[doc = concat!("assert_eq!(tftensor::", stringify!($name), "::from_bits(0xFF).to_i32(), ", $max, ");")]
            /// ```
            #[inline]
            pub const fn to_i32(self) -> i32 {
                self.to_u8() as i32
            }
        }

        $crate::element::sub_byte::sub_byte_traits!(
            $name,
            to_u8,
            to_u16,
            [u8, u16, u32, u64, u128, i16, i32, i64, i128]
        );
    };
}

/// Value-based comparison, hashing, formatting and widening conversions.
macro_rules! sub_byte_traits {
    ($name:ident, $value:ident, $print:ident, [$($wide:ty),*]) => {
        impl PartialEq for $name {
            #[inline]
            fn eq(&self, other: &Self) -> bool {
                self.$value() == other.$value()
            }
        }

        impl Eq for $name {}

        impl core::hash::Hash for $name {
            fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
                // Hash the value, not the byte, to agree with `Eq`.
                self.$value().hash(state);
            }
        }

        impl PartialOrd for $name {
            #[inline]
            fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
                Some(self.cmp(other))
            }
        }

        impl Ord for $name {
            #[inline]
            fn cmp(&self, other: &Self) -> core::cmp::Ordering {
                self.$value().cmp(&other.$value())
            }
        }

        /// Shows the value, e.g. `Int4(-3)`.
        impl core::fmt::Debug for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.$value()).finish()
            }
        }

        /// Prints the value in decimal, as TF's `SummarizeValue` does.
        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                core::fmt::Display::fmt(&self.$print(), f)
            }
        }

        $(
            impl From<$name> for $wide {
                #[inline]
                fn from(v: $name) -> Self {
                    <$wide>::from(v.$value())
                }
            }
        )*
    };
}

pub(super) use {signed_sub_byte, sub_byte_traits, unsigned_sub_byte};
