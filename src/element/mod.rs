//! Element types: the Rust type behind each [`DataType`], and the sealed
//! [`Element`] trait that maps one to the other.

mod float4;
mod float8;
mod int2;
mod int4;
mod quantized;
mod resource;
mod sub_byte;
mod variant;

pub use self::float4::Float4E2M1FN;
pub use self::float8::{
    Float8E4M3B11FNUZ, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2, Float8E5M2FNUZ,
};
pub use self::int2::{Int2, UInt2};
pub use self::int4::{Int4, UInt4};
pub use self::quantized::{QInt8, QInt16, QInt32, QUInt8, QUInt16};
pub use self::resource::ResourceHandle;
pub use self::variant::Variant;

use crate::buffer::Stored;
use crate::dtype::DataType;

/// A Rust type that is the element type of one [`DataType`].
///
/// Implemented (and sealed) for `f32`, `f64`, `i8`..`i64`, `u8`..`u64`,
/// `bool`, `Complex<f32>`, `Complex<f64>`, `half::f16`, `half::bf16`, the
/// quantized newtypes ([`QInt8`] ...), the five float8 types,
/// [`Float4E2M1FN`], [`Int4`], [`UInt4`], [`Int2`], [`UInt2`], [`bytes::Bytes`] (`DT_STRING`: byte strings, not necessarily
/// UTF-8), [`ResourceHandle`] and [`Variant`](crate::Variant).
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

/// Compile-time proof that `T` is `bytemuck::Pod`.
pub(crate) const fn assert_pod<T: bytemuck::Pod>() {}

/// The `Element` impls of the row list's `store` column, for the rows whose
/// impl lives in module `$here`: POD elements (any bit pattern is valid,
/// checked at compile time by `assert_pod`, so the buffer may hold them as
/// bytes, and their size is the table's), `bool` (one byte, but only 0 and 1
/// are valid: the buffer checks every byte before it hands out bools), and
/// typed elements, which live in a `Vec` of their own.
macro_rules! element_impls {
    (($here:ident) $( $konst:ident = $num:literal { name: $name:literal, proto_name: $proto:literal,
        size: $size:literal, kind: $kind:ident, rust: $t:ty, store: $store:ident $(($home:ident))?,
        proto: $codec:tt, summary: $summary:ident, doc: $doc:literal } )*) => {
        $( $crate::element::element_impl!($here, $store $(($home))?, $konst, $size, $t); )*
    };
}
pub(crate) use element_impls;

/// One row of [`element_impls!`]: the impls if the row's home is `$here`.
macro_rules! element_impl {
    (element, pod, $konst:ident, $size:literal, $t:ty) => {
        $crate::element::element_impl!(@element $konst, $t);
        impl $crate::element::PodElement for $t {}
        // SAFETY: `$t` is `bytemuck::Pod`, which `assert_pod` checks.
        unsafe impl $crate::buffer::Stored for $t {
            const REPR: $crate::buffer::Repr = {
                $crate::element::assert_pod::<$t>();
                assert!(size_of::<$t>() == $size);
                $crate::buffer::Repr::Pod
            };
        }
    };
    (element, bool, $konst:ident, $size:literal, $t:ty) => {
        $crate::element::element_impl!(@element $konst, $t);
        impl $crate::element::PodElement for $t {}
        // SAFETY: `Repr::Bool` is for `bool`.
        unsafe impl $crate::buffer::Stored for $t {
            const REPR: $crate::buffer::Repr = $crate::buffer::Repr::Bool;
        }
    };
    (element, typed(element), $($row:tt)*) => { $crate::element::element_impl!(@typed $($row)*); };
    (resource, typed(resource), $($row:tt)*) => { $crate::element::element_impl!(@typed $($row)*); };
    (variant, typed(variant), $($row:tt)*) => { $crate::element::element_impl!(@typed $($row)*); };
    ($here:ident, $($other:tt)*) => {};
    (@typed $konst:ident, $size:literal, $t:ty) => {
        $crate::element::element_impl!(@element $konst, $t);
        // Typed elements are not bytes: the table gives them size 0.
        const _: () = assert!($size == 0);
        // SAFETY: `Repr::Typed` promises nothing about bytes.
        unsafe impl $crate::buffer::Stored for $t {
            const REPR: $crate::buffer::Repr = $crate::buffer::Repr::Typed;
        }
    };
    (@element $konst:ident, $t:ty) => {
        impl $crate::element::Element for $t {
            const DTYPE: $crate::dtype::DataType = $crate::dtype::DataType::$konst;
        }
        impl $crate::element::sealed::Sealed for $t {}
    };
}
pub(crate) use element_impl;

crate::for_each_dtype!(element_impls, element);

/// Runs `$body` with `$T` bound to the element type of `$dtype`; evaluates
/// `$other` for dtypes a tensor cannot hold. The one dtype dispatch of the
/// crate, generated from the dtype row list: every per-dtype operation goes
/// through it.
///
/// Not part of the API: exported (hidden) for the crate's tests.
///
/// ```
/// let n = tftensor::dispatch_dtype!(tftensor::DataType::Half, T => std::mem::size_of::<T>(), _ => 0);
/// assert_eq!(n, 2);
/// ```
#[doc(hidden)]
#[macro_export]
macro_rules! dispatch_dtype {
    ($dtype:expr, $T:ident => $body:expr, _ => $other:expr) => {
        $crate::for_each_dtype!([$crate::__dispatch_dtype_rows] $dtype, $T => $body, _ => $other)
    };
}
pub(crate) use dispatch_dtype;

/// The `match` of [`dispatch_dtype!`], one arm per row.
#[doc(hidden)]
#[macro_export]
macro_rules! __dispatch_dtype_rows {
    (($dtype:expr, $T:ident => $body:expr, _ => $other:expr)
        $( $konst:ident = $num:literal { name: $name:literal, proto_name: $proto:literal,
        size: $size:literal, kind: $kind:ident, rust: $t:ty, store: $store:ident $(($home:ident))?,
        proto: $codec:tt, summary: $summary:ident, doc: $doc:literal } )*) => {
        match $dtype {
            $(
                $crate::DataType::$konst => {
                    type $T = $t;
                    $body
                }
            )*
            _ => $other,
        }
    };
}
