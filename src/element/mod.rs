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

use crate::buffer::{Repr, Stored};
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
    sealed::Sealed + Stored + Clone + Default + Send + Sync + std::fmt::Debug + 'static
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
    /// Not nameable outside the crate, which seals [`Element`](super::Element).
    pub trait Sealed {}
}

/// POD elements: any bit pattern is valid (checked at compile time by the
/// `bytemuck::Pod` bound below), so the buffer may hold them as bytes.
macro_rules! pod_element {
    ($($t:ty => $dt:ident),* $(,)?) => {$(
        impl Element for $t {
            const DTYPE: DataType = DataType::$dt;
        }
        impl PodElement for $t {}
        impl sealed::Sealed for $t {}
        // SAFETY: `$t` is `bytemuck::Pod`, which `assert_pod` checks.
        unsafe impl Stored for $t {
            const REPR: Repr = {
                assert_pod::<$t>();
                Repr::Pod
            };
        }
    )*};
}

/// Compile-time proof that `T` is `bytemuck::Pod`.
const fn assert_pod<T: bytemuck::Pod>() {}

pod_element! {
    f32 => Float, f64 => Double, i32 => Int32, u8 => UInt8, i16 => Int16, i8 => Int8,
    Complex<f32> => Complex64, i64 => Int64, QInt8 => QInt8, QUInt8 => QUInt8, QInt32 => QInt32,
    bf16 => BFloat16, QInt16 => QInt16, QUInt16 => QUInt16, u16 => UInt16,
    Complex<f64> => Complex128, f16 => Half, u32 => UInt32, u64 => UInt64,
    Float8E5M2 => Float8E5M2, Float8E4M3FN => Float8E4M3FN, Float8E4M3FNUZ => Float8E4M3FNUZ,
    Float8E4M3B11FNUZ => Float8E4M3B11FNUZ, Float8E5M2FNUZ => Float8E5M2FNUZ,
    Int4 => Int4, UInt4 => UInt4, Int2 => Int2, UInt2 => UInt2, Float4E2M1FN => Float4E2M1FN,
}

// bool is one byte but only 0 and 1 are valid: the buffer checks every
// byte before it hands out bools.
impl Element for bool {
    const DTYPE: DataType = DataType::Bool;
}
impl PodElement for bool {}
impl sealed::Sealed for bool {}
// SAFETY: `Repr::Bool` is for `bool`.
unsafe impl Stored for bool {
    const REPR: Repr = Repr::Bool;
}

/// Non-POD elements live in a `Vec` of their own.
macro_rules! typed_element {
    ($($t:ty => $dt:ident;)*) => {$(
        impl Element for $t {
            const DTYPE: DataType = DataType::$dt;
        }
        impl sealed::Sealed for $t {}
        // SAFETY: `Repr::Typed` promises nothing about bytes.
        unsafe impl Stored for $t {
            const REPR: Repr = Repr::Typed;
        }
    )*};
}

typed_element! {
    Bytes => String;
    ResourceHandle => Resource;
    Variant => Variant;
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
                <T as Stored>::REPR != Repr::Typed
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
}
