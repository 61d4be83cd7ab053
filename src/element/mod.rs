//! Element types: the Rust type behind each [`DataType`], and the sealed
//! [`Element`] trait that maps one to the other.

mod float4;
mod float8;
mod int2;
mod int4;
mod quantized;
mod resource;
mod variant;

pub use self::float4::Float4E2M1FN;
pub use self::float8::{
    Float8E4M3B11FNUZ, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ,
};
pub use self::int2::{Int2, UInt2};
pub use self::int4::{Int4, UInt4};
pub use self::quantized::{QInt16, QInt32, QInt8, QUInt16, QUInt8};
pub use self::resource::ResourceHandle;
pub use self::variant::Variant;

use bytes::Bytes;
use half::{bf16, f16};
use num_complex::Complex;

use crate::buffer::RootBuffer;
use crate::dtype::DataType;

/// A Rust type that is the element type of one [`DataType`].
///
/// Implemented (and sealed) for `f32`, `f64`, `i8`..`i64`, `u8`..`u64`,
/// `bool`, `Complex<f32>`, `Complex<f64>`, `half::f16`, `half::bf16`, the
/// quantized newtypes ([`QInt8`] ...), the five float8 types,
/// [`Float4E2M1FN`], [`Int4`], [`UInt4`], [`Int2`], [`UInt2`], [`bytes::Bytes`] (`DT_STRING`: byte strings, not necessarily
/// UTF-8), [`ResourceHandle`] and [`Variant`].
///
/// ```
/// use tftensor::{DataType, Element, QInt8};
/// assert_eq!(<f32 as Element>::DTYPE, DataType::Float);
/// assert_eq!(<QInt8 as Element>::DTYPE, DataType::QInt8);
/// assert_eq!(<bytes::Bytes as Element>::DTYPE, DataType::String);
/// ```
pub trait Element:
    sealed::Sealed + Clone + Default + Send + Sync + std::fmt::Debug + 'static
{
    /// The dtype whose elements have this type.
    const DTYPE: DataType;
}

/// An [`Element`] stored as plain bytes (every dtype but string, resource
/// and variant). Bit casts and raw byte views need it.
///
/// ```
/// fn bytes_per<T: tftensor::PodElement>() -> usize { std::mem::size_of::<T>() }
/// assert_eq!(bytes_per::<half::bf16>(), 2);
/// ```
pub trait PodElement: Element + Copy {}

pub(crate) mod sealed {
    use super::RootBuffer;

    /// Crate-internal access to a buffer's elements. Not nameable outside
    /// the crate, which seals [`Element`](super::Element).
    pub trait Sealed: Sized {
        /// Views raw bytes as elements; `None` for non-POD types, a
        /// misaligned or ragged slice, or (for bool) a byte other than 0/1.
        fn cast_bytes(_bytes: &[u8]) -> Option<&[Self]> {
            None
        }
        /// Mutable twin of `cast_bytes`.
        fn cast_bytes_mut(_bytes: &mut [u8]) -> Option<&mut [Self]> {
            None
        }
        /// The elements of a typed (non-POD) root.
        fn typed(_root: &RootBuffer) -> Option<&[Self]> {
            None
        }
        /// Mutable twin of `typed`.
        fn typed_mut(_root: &mut RootBuffer) -> Option<&mut [Self]> {
            None
        }
        /// Wraps owned elements as a typed root; `Err` gives the vector back
        /// for POD types, which are copied into an aligned byte buffer.
        fn into_typed_root(v: Vec<Self>) -> Result<RootBuffer, Vec<Self>> {
            Err(v)
        }
        /// The elements as bytes, for POD types.
        fn as_bytes(_v: &[Self]) -> Option<&[u8]> {
            None
        }
        /// Adopts a `Vec` of `bytemuck::Pod` elements as a root without a
        /// copy; `Err` gives it back (bool, non-POD).
        fn adopt_pod_vec(v: Vec<Self>) -> Result<RootBuffer, Vec<Self>> {
            Err(v)
        }
    }
}

/// POD elements: bytemuck does every cast, with size and alignment checked.
macro_rules! pod_element {
    ($($t:ty => $dt:ident),* $(,)?) => {$(
        impl Element for $t {
            const DTYPE: DataType = DataType::$dt;
        }
        impl PodElement for $t {}
        impl sealed::Sealed for $t {
            fn cast_bytes(bytes: &[u8]) -> Option<&[Self]> {
                bytemuck::try_cast_slice(bytes).ok()
            }
            fn cast_bytes_mut(bytes: &mut [u8]) -> Option<&mut [Self]> {
                bytemuck::try_cast_slice_mut(bytes).ok()
            }
            fn as_bytes(v: &[Self]) -> Option<&[u8]> {
                Some(bytemuck::cast_slice(v))
            }
            fn adopt_pod_vec(v: Vec<Self>) -> Result<RootBuffer, Vec<Self>> {
                Ok(RootBuffer::Vec(Box::new(v)))
            }
        }
    )*};
}

pod_element! {
    f32 => Float, f64 => Double, i32 => Int32, u8 => UInt8, i16 => Int16, i8 => Int8,
    Complex<f32> => Complex64, i64 => Int64, QInt8 => QInt8, QUInt8 => QUInt8, QInt32 => QInt32,
    bf16 => BFloat16, QInt16 => QInt16, QUInt16 => QUInt16, u16 => UInt16,
    Complex<f64> => Complex128, f16 => Half, u32 => UInt32, u64 => UInt64,
    Float8E5M2 => Float8E5M2, Float8E4M3FN => Float8E4M3FN, Float8E4M3FNUZ => Float8E4M3FNUZ,
    Float8E4M3B11FNUZ => Float8E4M3B11FNUZ, Float8E5M2FNUZ => Float8E5M2FNUZ,
    Int4 => Int4, UInt4 => UInt4, Int2 => Int2, UInt2 => UInt2, Float4E2M1FN => Float4E2M1FN,
}

// bool is one byte but only 0 and 1 are valid, so casts go through bytemuck's
// checked casts, which reject any other byte instead of creating an invalid
// bool.
impl Element for bool {
    const DTYPE: DataType = DataType::Bool;
}
impl PodElement for bool {}
impl sealed::Sealed for bool {
    fn cast_bytes(bytes: &[u8]) -> Option<&[Self]> {
        bytemuck::checked::try_cast_slice(bytes).ok()
    }
    fn cast_bytes_mut(bytes: &mut [u8]) -> Option<&mut [Self]> {
        bytemuck::checked::try_cast_slice_mut(bytes).ok()
    }
    fn as_bytes(v: &[Self]) -> Option<&[u8]> {
        Some(bytemuck::cast_slice(v))
    }
    // `adopt_pod_vec` stays `Err`: bool is not `Pod`, and writes through raw
    // bytes of an adopted `Vec<bool>` could create invalid bools.
}

/// Non-POD elements live in a typed root of their own.
macro_rules! typed_element {
    ($($t:ty => $dt:ident, $variant:ident;)*) => {$(
        impl Element for $t {
            const DTYPE: DataType = DataType::$dt;
        }
        impl sealed::Sealed for $t {
            fn typed(root: &RootBuffer) -> Option<&[Self]> {
                match root {
                    RootBuffer::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn typed_mut(root: &mut RootBuffer) -> Option<&mut [Self]> {
                match root {
                    RootBuffer::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn into_typed_root(v: Vec<Self>) -> Result<RootBuffer, Vec<Self>> {
                Ok(RootBuffer::$variant(v))
            }
        }
    )*};
}

typed_element! {
    Bytes => String, Strings;
    ResourceHandle => Resource, Resources;
    Variant => Variant, Variants;
}

/// Runs `$body` with `$T` bound to the element type of `$dtype`; evaluates
/// `$other` for dtypes a tensor cannot hold. The one dtype dispatch of the
/// crate: every per-dtype operation goes through it.
///
/// ```text
/// let n = dispatch_dtype!(dt, T => std::mem::size_of::<T>(), _ => 0);
/// ```
macro_rules! dispatch_dtype {
    ($dtype:expr, $T:ident => $body:expr, _ => $other:expr) => {{
        use $crate::dtype::DataType as __Dt;
        #[allow(unused_imports)]
        use $crate::element::*;
        match $dtype {
            __Dt::Float => {
                type $T = f32;
                $body
            }
            __Dt::Double => {
                type $T = f64;
                $body
            }
            __Dt::Int32 => {
                type $T = i32;
                $body
            }
            __Dt::UInt8 => {
                type $T = u8;
                $body
            }
            __Dt::Int16 => {
                type $T = i16;
                $body
            }
            __Dt::Int8 => {
                type $T = i8;
                $body
            }
            __Dt::String => {
                type $T = ::bytes::Bytes;
                $body
            }
            __Dt::Complex64 => {
                type $T = ::num_complex::Complex<f32>;
                $body
            }
            __Dt::Int64 => {
                type $T = i64;
                $body
            }
            __Dt::Bool => {
                type $T = bool;
                $body
            }
            __Dt::QInt8 => {
                type $T = QInt8;
                $body
            }
            __Dt::QUInt8 => {
                type $T = QUInt8;
                $body
            }
            __Dt::QInt32 => {
                type $T = QInt32;
                $body
            }
            __Dt::BFloat16 => {
                type $T = ::half::bf16;
                $body
            }
            __Dt::QInt16 => {
                type $T = QInt16;
                $body
            }
            __Dt::QUInt16 => {
                type $T = QUInt16;
                $body
            }
            __Dt::UInt16 => {
                type $T = u16;
                $body
            }
            __Dt::Complex128 => {
                type $T = ::num_complex::Complex<f64>;
                $body
            }
            __Dt::Half => {
                type $T = ::half::f16;
                $body
            }
            __Dt::Resource => {
                type $T = ResourceHandle;
                $body
            }
            __Dt::Variant => {
                type $T = Variant;
                $body
            }
            __Dt::UInt32 => {
                type $T = u32;
                $body
            }
            __Dt::UInt64 => {
                type $T = u64;
                $body
            }
            __Dt::Float8E5M2 => {
                type $T = Float8E5M2;
                $body
            }
            __Dt::Float8E4M3FN => {
                type $T = Float8E4M3FN;
                $body
            }
            __Dt::Float8E4M3FNUZ => {
                type $T = Float8E4M3FNUZ;
                $body
            }
            __Dt::Float8E4M3B11FNUZ => {
                type $T = Float8E4M3B11FNUZ;
                $body
            }
            __Dt::Float8E5M2FNUZ => {
                type $T = Float8E5M2FNUZ;
                $body
            }
            __Dt::Int4 => {
                type $T = Int4;
                $body
            }
            __Dt::UInt4 => {
                type $T = UInt4;
                $body
            }
            __Dt::Int2 => {
                type $T = Int2;
                $body
            }
            __Dt::UInt2 => {
                type $T = UInt2;
                $body
            }
            __Dt::Float4E2M1FN => {
                type $T = Float4E2M1FN;
                $body
            }
            _ => $other,
        }
    }};
}
pub(crate) use dispatch_dtype;

#[cfg(test)]
mod tests {
    use super::*;

    /// The dispatch and the Element impls agree on every dtype, and POD
    /// sizes equal the table's.
    #[test]
    fn dispatch_matches_element_dtype_and_size() {
        for &dt in DataType::all() {
            let (d, size, pod) = dispatch_dtype!(dt, T => (
                <T as Element>::DTYPE,
                std::mem::size_of::<T>(),
                <T as sealed::Sealed>::as_bytes(&[]).is_some()
            ), _ => unreachable!());
            assert_eq!(d, dt);
            assert_eq!(pod, dt.can_use_memcpy(), "{dt}");
            if pod {
                assert_eq!(size, dt.size(), "{dt}");
            }
        }
        let other =
            dispatch_dtype!(DataType::Invalid, T => <T as Element>::DTYPE, _ => DataType::Invalid);
        assert_eq!(other, DataType::Invalid);
    }

    #[test]
    fn bool_cast_rejects_invalid_bytes() {
        use sealed::Sealed;
        assert_eq!(bool::cast_bytes(&[0, 1, 1]), Some(&[false, true, true][..]));
        assert_eq!(bool::cast_bytes(&[0, 2]), None);
        let mut b = [1u8, 0];
        assert_eq!(bool::cast_bytes_mut(&mut b).map(|s| s.len()), Some(2));
        assert_eq!(bool::cast_bytes_mut(&mut [7u8]).map(|s| s.len()), None);
    }

    #[test]
    fn pod_cast_checks_alignment_and_length() {
        use sealed::Sealed;
        let words = [1u32, 2, 3];
        let bytes: &[u8] = bytemuck::cast_slice(&words);
        assert_eq!(u32::cast_bytes(bytes), Some(&words[..]));
        assert_eq!(u32::cast_bytes(&bytes[1..5]), None);
        assert_eq!(u32::cast_bytes(&bytes[..5]), None);
    }
}
