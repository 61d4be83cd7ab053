//! TensorFlow's quantized integer element types (`qint8`, `quint8`, `qint16`,
//! `quint16`, `qint32`).
//!
//! TF's `Eigen::QInt8` and friends are plain integers with a distinct type:
//! same size, same bytes, same printing. They are newtypes here so a tensor's
//! element type still tells `DT_QINT8` apart from `DT_INT8`.

use core::fmt;

/// Defines one quantized newtype over a primitive integer.
///
/// One macro keeps the five types identical in everything but the integer.
macro_rules! quantized_int {
    ($name:ident, $int:ty, $tf_name:literal, $dtype:literal) => {
        #[doc = concat!(
            "TensorFlow's `", $tf_name, "` element (`", $dtype, "`): a `", stringify!($int),
            "` with its own type.\n\n",
            "Its bytes are those of the `", stringify!($int), "` it wraps, and it prints as ",
            "that integer.\n\n",
            "```\n",
            "use tftensor::", stringify!($name), ";\n",
            "let q = ", stringify!($name), "::from(-1i8 as ", stringify!($int), ");\n",
            "assert_eq!(q.0, -1i8 as ", stringify!($int), ");\n",
            "assert_eq!(", stringify!($int), "::from(q), q.0);\n",
            "assert_eq!(q.to_string(), (-1i8 as ", stringify!($int), ").to_string());\n",
            "assert_eq!(bytemuck::bytes_of(&q), bytemuck::bytes_of(&q.0));\n",
            "```"
        )]
        #[repr(transparent)]
        #[derive(
            Copy,
            Clone,
            Debug,
            Default,
            PartialEq,
            Eq,
            Hash,
            PartialOrd,
            Ord,
            bytemuck::Pod,
            bytemuck::Zeroable,
        )]
        pub struct $name(pub $int);

        impl $name {
            #[doc = concat!(
                "The smallest value, `", stringify!($int), "::MIN`.\n\n",
                "```\n",
                "use tftensor::", stringify!($name), ";\n",
                "assert_eq!(", stringify!($name), "::MIN.0, ", stringify!($int), "::MIN);\n",
                "```"
            )]
            pub const MIN: Self = Self(<$int>::MIN);

            #[doc = concat!(
                "The largest value, `", stringify!($int), "::MAX`.\n\n",
                "```\n",
                "use tftensor::", stringify!($name), ";\n",
                "assert_eq!(", stringify!($name), "::MAX.0, ", stringify!($int), "::MAX);\n",
                "```"
            )]
            pub const MAX: Self = Self(<$int>::MAX);
        }

        impl From<$int> for $name {
            #[inline]
            fn from(v: $int) -> Self {
                Self(v)
            }
        }

        impl From<$name> for $int {
            #[inline]
            fn from(q: $name) -> Self {
                q.0
            }
        }

        impl From<$name> for i128 {
            #[inline]
            fn from(q: $name) -> Self {
                i128::from(q.0)
            }
        }

        /// Prints the integer, as TF's `SummarizeValue` does.
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                fmt::Display::fmt(&self.0, f)
            }
        }
    };
}

quantized_int!(QInt8, i8, "qint8", "DT_QINT8");
quantized_int!(QUInt8, u8, "quint8", "DT_QUINT8");
quantized_int!(QInt16, i16, "qint16", "DT_QINT16");
quantized_int!(QUInt16, u16, "quint16", "DT_QUINT16");
quantized_int!(QInt32, i32, "qint32", "DT_QINT32");

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::hash_map::DefaultHasher;
    use std::hash::{Hash, Hasher};

    fn hash_of<T: Hash>(v: &T) -> u64 {
        let mut h = DefaultHasher::new();
        v.hash(&mut h);
        h.finish()
    }

    #[test]
    fn sizes_and_alignment_match_the_integer() {
        assert_eq!(core::mem::size_of::<QInt8>(), 1);
        assert_eq!(core::mem::size_of::<QUInt8>(), 1);
        assert_eq!(core::mem::size_of::<QInt16>(), 2);
        assert_eq!(core::mem::size_of::<QUInt16>(), 2);
        assert_eq!(core::mem::size_of::<QInt32>(), 4);
        assert_eq!(
            core::mem::align_of::<QInt16>(),
            core::mem::align_of::<i16>()
        );
        assert_eq!(
            core::mem::align_of::<QUInt16>(),
            core::mem::align_of::<u16>()
        );
        assert_eq!(
            core::mem::align_of::<QInt32>(),
            core::mem::align_of::<i32>()
        );
    }

    #[test]
    fn from_both_ways() {
        assert_eq!(QInt8::from(-128i8), QInt8(-128));
        assert_eq!(i8::from(QInt8(-5)), -5);
        assert_eq!(QUInt8::from(255u8), QUInt8(255));
        assert_eq!(u8::from(QUInt8(7)), 7);
        assert_eq!(QInt16::from(-32768i16), QInt16(-32768));
        assert_eq!(i16::from(QInt16(1234)), 1234);
        assert_eq!(QUInt16::from(65535u16), QUInt16(65535));
        assert_eq!(u16::from(QUInt16(40000)), 40000);
        assert_eq!(QInt32::from(i32::MIN), QInt32(i32::MIN));
        assert_eq!(i32::from(QInt32(-7)), -7);
    }

    #[test]
    fn display_prints_the_integer() {
        assert_eq!(QInt8(-128).to_string(), "-128");
        assert_eq!(QUInt8(255).to_string(), "255");
        assert_eq!(QInt16(-32768).to_string(), "-32768");
        assert_eq!(QUInt16(65535).to_string(), "65535");
        assert_eq!(QInt32(-2147483648).to_string(), "-2147483648");
        assert_eq!(QInt32(0).to_string(), "0");
        // Formatting flags pass through to the integer.
        assert_eq!(format!("{:>5}", QInt8(-3)), "   -3");
    }

    #[test]
    fn debug_shows_the_wrapper() {
        assert_eq!(format!("{:?}", QInt8(-1)), "QInt8(-1)");
        assert_eq!(format!("{:?}", QUInt16(9)), "QUInt16(9)");
    }

    #[test]
    fn ordering_equality_hash_follow_the_integer() {
        assert!(QInt8(-1) < QInt8(0));
        assert!(QUInt8(200) > QUInt8(100));
        assert_eq!(QInt32(5).cmp(&QInt32(5)), core::cmp::Ordering::Equal);
        assert_eq!(hash_of(&QInt16(42)), hash_of(&QInt16(42)));
        assert_eq!(QInt8::default(), QInt8(0));
        assert_eq!(QUInt16::default(), QUInt16(0));
    }

    #[test]
    fn min_max() {
        assert_eq!(QInt8::MIN, QInt8(-128));
        assert_eq!(QInt8::MAX, QInt8(127));
        assert_eq!(QUInt8::MIN, QUInt8(0));
        assert_eq!(QUInt8::MAX, QUInt8(255));
        assert_eq!(QInt16::MIN, QInt16(-32768));
        assert_eq!(QUInt16::MAX, QUInt16(65535));
        assert_eq!(QInt32::MAX, QInt32(2147483647));
    }

    #[test]
    fn pod_bytes_are_the_integer_bytes() {
        let v = [QInt16(0x0102), QInt16(-2)];
        let bytes: &[u8] = bytemuck::cast_slice(&v);
        assert_eq!(
            bytes,
            [0x0102i16.to_ne_bytes(), (-2i16).to_ne_bytes()].concat()
        );
        let back: &[QUInt8] = bytemuck::cast_slice(&[0u8, 9, 255]);
        assert_eq!(back, [QUInt8(0), QUInt8(9), QUInt8(255)]);
        let q32: QInt32 = bytemuck::cast(0x7fff_ffffi32);
        assert_eq!(q32, QInt32::MAX);
        let z: QInt32 = bytemuck::Zeroable::zeroed();
        assert_eq!(z, QInt32(0));
    }
}
