//! [`DataType`]: TensorFlow's `DataType` enum, with its numbers, names and
//! sizes, all read from one table.

use std::fmt;
use std::str::FromStr;

/// A TensorFlow `DataType`: the proto enum value, kept as its number.
///
/// It is a newtype over the wire number rather than a Rust `enum` because
/// TensorFlow's enum is open: reference types (`DT_FLOAT_REF` = 101, ...)
/// and numbers this crate does not know can arrive over the wire, and must
/// still be named (`"unknown dtype enum (77)"`). The named constants cover
/// every value a tensor can hold, plus [`DataType::Invalid`].
///
/// ```
/// use tftensor::DataType;
/// assert_eq!(DataType::Float.as_i32(), 1);
/// assert_eq!(DataType::BFloat16.name(), "bfloat16");
/// assert_eq!(DataType::Float.as_ref_type().name(), "float_ref");
/// assert_eq!("float32".parse::<DataType>().unwrap(), DataType::Float);
/// assert_eq!(DataType::Half.size(), 2);
/// assert_eq!(DataType::String.size(), 0);
/// assert_eq!(DataType::from_i32(77).name(), "unknown dtype enum (77)");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct DataType(i32);

/// What kind of values a dtype holds; drives `is_floating` and friends.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Kind {
    Invalid,
    Float,
    Int,
    Quantized,
    Complex,
    Bool,
    String,
    Resource,
    Variant,
}

/// One row of the dtype table.
struct Info {
    name: &'static str,
    proto_name: &'static str,
    size: usize,
    kind: Kind,
}

/// The dtype row list: every dtype a tensor can hold, written once. Calls
/// `callback! { (args) rows }` with one row per dtype; the crate generates
/// from it the [`DataType`] constants and table (here), the `Element` impls
/// and `dispatch_dtype!` (`element`), the `ProtoElement` impls
/// (`proto::field`) and the `SummaryElement` impls (`summary::element`).
///
/// Columns: constant `=` proto number, then `name` (TF's `DataTypeString`),
/// `proto_name`, `size` (TF's `DataTypeSize`), `kind` (the predicates),
/// `rust` (the element type), `store` (how a buffer holds it: `pod` bytes,
/// `bool` bytes checked to be 0 or 1, or a `typed` `Vec`, with the module
/// that implements `Element` for it), `proto` (the `TensorProto` field:
/// `repeated` field `=` number, compressed field width, read and write
/// conversions; `complex` pairs; `float8` bytes; `custom` codec), `summary`
/// (how `SummarizeValue` prints an element: `decimal`, `float` via `f32`,
/// `double`, `unprintable` as `?`, or `custom`) and `doc`.
///
/// Not part of the API: exported so that `dispatch_dtype!` works from the
/// crate's tests.
#[doc(hidden)]
#[macro_export]
macro_rules! for_each_dtype {
    ($callback:ident $(, $($args:tt)*)?) => {
        $crate::for_each_dtype! { [$callback] $($($args)*)? }
    };
    ([$($callback:tt)*] $($args:tt)*) => {
        $($callback)*! { ($($args)*)
            Float = 1 { name: "float", proto_name: "DT_FLOAT", size: 4, kind: Float, rust: f32, store: pod,
                proto: [repeated float_val = 5, Some(4), |v| v, |v| v], summary: float,
                doc: "32-bit IEEE float (`f32`)." }
            Double = 2 { name: "double", proto_name: "DT_DOUBLE", size: 8, kind: Float, rust: f64, store: pod,
                proto: [repeated double_val = 6, Some(8), |v| v, |v| v], summary: double,
                doc: "64-bit IEEE float (`f64`)." }
            Int32 = 3 { name: "int32", proto_name: "DT_INT32", size: 4, kind: Int, rust: i32, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| v, |v| v], summary: decimal,
                doc: "Signed 32-bit integer (`i32`)." }
            // Narrow types keep the low bits of int_val (C++ narrowing).
            UInt8 = 4 { name: "uint8", proto_name: "DT_UINT8", size: 1, kind: Int, rust: u8, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| v as u8, |v| i32::from(v)], summary: decimal,
                doc: "Unsigned 8-bit integer (`u8`)." }
            Int16 = 5 { name: "int16", proto_name: "DT_INT16", size: 2, kind: Int, rust: i16, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| v as i16, |v| i32::from(v)], summary: decimal,
                doc: "Signed 16-bit integer (`i16`)." }
            Int8 = 6 { name: "int8", proto_name: "DT_INT8", size: 1, kind: Int, rust: i8, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| v as i8, |v| i32::from(v)], summary: decimal,
                doc: "Signed 8-bit integer (`i8`)." }
            String = 7 { name: "string", proto_name: "DT_STRING", size: 0, kind: String,
                rust: $crate::bytes::Bytes, store: typed(element), proto: [custom], summary: custom,
                doc: "Byte string (`bytes::Bytes`); need not be UTF-8." }
            Complex64 = 8 { name: "complex64", proto_name: "DT_COMPLEX64", size: 8, kind: Complex,
                rust: $crate::num_complex::Complex<f32>, store: pod,
                proto: [complex scomplex_val = 9, f32], summary: unprintable,
                doc: "Complex of two `f32` (`Complex<f32>`)." }
            Int64 = 9 { name: "int64", proto_name: "DT_INT64", size: 8, kind: Int, rust: i64, store: pod,
                proto: [repeated int64_val = 10, Some(8), |v| v, |v| v], summary: decimal,
                doc: "Signed 64-bit integer (`i64`)." }
            Bool = 10 { name: "bool", proto_name: "DT_BOOL", size: 1, kind: Bool, rust: bool, store: bool,
                proto: [repeated bool_val = 11, Some(1), |v| v, |v| v], summary: custom,
                doc: "Boolean, one byte holding 0 or 1 (`bool`)." }
            QInt8 = 11 { name: "qint8", proto_name: "DT_QINT8", size: 1, kind: Quantized,
                rust: $crate::QInt8, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| $crate::QInt8(v as i8), |v| i32::from(v.0)],
                summary: decimal, doc: "Quantized signed 8-bit ([`QInt8`](crate::QInt8))." }
            QUInt8 = 12 { name: "quint8", proto_name: "DT_QUINT8", size: 1, kind: Quantized,
                rust: $crate::QUInt8, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| $crate::QUInt8(v as u8), |v| i32::from(v.0)],
                summary: decimal, doc: "Quantized unsigned 8-bit ([`QUInt8`](crate::QUInt8))." }
            QInt32 = 13 { name: "qint32", proto_name: "DT_QINT32", size: 4, kind: Quantized,
                rust: $crate::QInt32, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| $crate::QInt32(v), |v| v.0],
                summary: unprintable, doc: "Quantized signed 32-bit ([`QInt32`](crate::QInt32))." }
            BFloat16 = 14 { name: "bfloat16", proto_name: "DT_BFLOAT16", size: 2, kind: Float,
                rust: $crate::half::bf16, store: pod,
                proto: [repeated half_val = 13, Some(4), |v| $crate::half::bf16::from_bits(v as u16),
                    |v| i32::from(v.to_bits())],
                summary: float, doc: "Brain float 16 (`half::bf16`)." }
            QInt16 = 15 { name: "qint16", proto_name: "DT_QINT16", size: 2, kind: Quantized,
                rust: $crate::QInt16, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| $crate::QInt16(v as i16), |v| i32::from(v.0)],
                summary: decimal, doc: "Quantized signed 16-bit ([`QInt16`](crate::QInt16))." }
            QUInt16 = 16 { name: "quint16", proto_name: "DT_QUINT16", size: 2, kind: Quantized,
                rust: $crate::QUInt16, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| $crate::QUInt16(v as u16), |v| i32::from(v.0)],
                summary: decimal, doc: "Quantized unsigned 16-bit ([`QUInt16`](crate::QUInt16))." }
            UInt16 = 17 { name: "uint16", proto_name: "DT_UINT16", size: 2, kind: Int, rust: u16, store: pod,
                proto: [repeated int_val = 7, Some(4), |v| v as u16, |v| i32::from(v)], summary: decimal,
                doc: "Unsigned 16-bit integer (`u16`)." }
            Complex128 = 18 { name: "complex128", proto_name: "DT_COMPLEX128", size: 16, kind: Complex,
                rust: $crate::num_complex::Complex<f64>, store: pod,
                proto: [complex dcomplex_val = 12, f64], summary: unprintable,
                doc: "Complex of two `f64` (`Complex<f64>`)." }
            Half = 19 { name: "half", proto_name: "DT_HALF", size: 2, kind: Float,
                rust: $crate::half::f16, store: pod,
                proto: [repeated half_val = 13, Some(4), |v| $crate::half::f16::from_bits(v as u16),
                    |v| i32::from(v.to_bits())],
                summary: float, doc: "IEEE half float (`half::f16`)." }
            Resource = 20 { name: "resource", proto_name: "DT_RESOURCE", size: 0, kind: Resource,
                rust: $crate::ResourceHandle, store: typed(resource), proto: [custom], summary: custom,
                doc: "Resource handle ([`ResourceHandle`](crate::ResourceHandle))." }
            Variant = 21 { name: "variant", proto_name: "DT_VARIANT", size: 0, kind: Variant,
                rust: $crate::Variant, store: typed(variant), proto: [custom], summary: custom,
                doc: "Type-erased value ([`Variant`](crate::Variant))." }
            UInt32 = 22 { name: "uint32", proto_name: "DT_UINT32", size: 4, kind: Int, rust: u32, store: pod,
                proto: [repeated uint32_val = 16, Some(4), |v| v, |v| v], summary: decimal,
                doc: "Unsigned 32-bit integer (`u32`)." }
            UInt64 = 23 { name: "uint64", proto_name: "DT_UINT64", size: 8, kind: Int, rust: u64, store: pod,
                proto: [repeated uint64_val = 17, Some(8), |v| v, |v| v], summary: decimal,
                doc: "Unsigned 64-bit integer (`u64`)." }
            Float8E5M2 = 24 { name: "float8_e5m2", proto_name: "DT_FLOAT8_E5M2", size: 1, kind: Float,
                rust: $crate::Float8E5M2, store: pod, proto: [float8], summary: float,
                doc: "8-bit float, 5 exponent and 2 mantissa bits." }
            Float8E4M3FN = 25 { name: "float8_e4m3fn", proto_name: "DT_FLOAT8_E4M3FN", size: 1, kind: Float,
                rust: $crate::Float8E4M3FN, store: pod, proto: [float8], summary: float,
                doc: "8-bit float, 4 exponent and 3 mantissa bits, finite." }
            Float8E4M3FNUZ = 26 { name: "float8_e4m3fnuz", proto_name: "DT_FLOAT8_E4M3FNUZ", size: 1,
                kind: Float, rust: $crate::Float8E4M3FNUZ, store: pod, proto: [float8],
                summary: unprintable, doc: "8-bit float e4m3, finite, unsigned zero." }
            Float8E4M3B11FNUZ = 27 { name: "float8_e4m3b11fnuz", proto_name: "DT_FLOAT8_E4M3B11FNUZ",
                size: 1, kind: Float, rust: $crate::Float8E4M3B11FNUZ, store: pod, proto: [float8],
                summary: float, doc: "8-bit float e4m3 with exponent bias 11, finite, unsigned zero." }
            Float8E5M2FNUZ = 28 { name: "float8_e5m2fnuz", proto_name: "DT_FLOAT8_E5M2FNUZ", size: 1,
                kind: Float, rust: $crate::Float8E5M2FNUZ, store: pod, proto: [float8],
                summary: unprintable, doc: "8-bit float e5m2, finite, unsigned zero." }
            // int4/uint4 and int2/uint2 are narrowed to a byte, not masked
            // to their bits, as TF does.
            Int4 = 29 { name: "int4", proto_name: "DT_INT4", size: 1, kind: Int, rust: $crate::Int4,
                store: pod, proto: [repeated int_val = 7, None, |v| $crate::Int4::from_bits(v as i8),
                    |v| v.to_i32()],
                summary: decimal,
                doc: "Signed 4-bit integer, stored one per byte ([`Int4`](crate::Int4))." }
            UInt4 = 30 { name: "uint4", proto_name: "DT_UINT4", size: 1, kind: Int, rust: $crate::UInt4,
                store: pod, proto: [repeated int_val = 7, None, |v| $crate::UInt4::from_bits(v as u8),
                    |v| v.to_i32()],
                summary: decimal,
                doc: "Unsigned 4-bit integer, stored one per byte ([`UInt4`](crate::UInt4))." }
            Int2 = 31 { name: "int2", proto_name: "DT_INT2", size: 1, kind: Int, rust: $crate::Int2,
                store: pod, proto: [repeated int_val = 7, None, |v| $crate::Int2::from_bits(v as i8),
                    |v| v.to_i32()],
                summary: decimal,
                doc: "Signed 2-bit integer, stored one per byte ([`Int2`](crate::Int2))." }
            UInt2 = 32 { name: "uint2", proto_name: "DT_UINT2", size: 1, kind: Int, rust: $crate::UInt2,
                store: pod, proto: [repeated int_val = 7, None, |v| $crate::UInt2::from_bits(v as u8),
                    |v| v.to_i32()],
                summary: decimal,
                doc: "Unsigned 2-bit integer, stored one per byte ([`UInt2`](crate::UInt2))." }
            Float4E2M1FN = 33 { name: "float4_e2m1fn", proto_name: "DT_FLOAT4_E2M1FN", size: 1, kind: Float,
                rust: $crate::Float4E2M1FN, store: pod, proto: [float8], summary: float,
                doc: "4-bit float, 2 exponent and 1 mantissa bits, finite ([`Float4E2M1FN`](crate::Float4E2M1FN))." }
        }
    };
}

/// Generates the named constants and the table from the row list.
macro_rules! dtype_table {
    (() $( $konst:ident = $num:literal { name: $name:literal, proto_name: $proto:literal,
        size: $size:literal, kind: $kind:ident, rust: $t:ty, store: $store:ident $(($home:ident))?,
        proto: $codec:tt, summary: $summary:ident, doc: $doc:literal } )*) => {
        #[allow(non_upper_case_globals)]
        impl DataType {
            /// Not a type; no tensor holds it.
            ///
            /// Proto number 0, TF name `INVALID`.
            pub const Invalid: DataType = DataType(0);
            $(
                #[doc = $doc]
                #[doc = ""]
                #[doc = concat!("Proto number ", stringify!($num), ", TF name `", $name, "`.")]
                pub const $konst: DataType = DataType($num);
            )*
        }

        /// Indexed by proto number.
        const TABLE: &[Info] = &[
            Info { name: "INVALID", proto_name: "DT_INVALID", size: 0, kind: Kind::Invalid },
            $( Info { name: $name, proto_name: $proto, size: $size, kind: Kind::$kind }, )*
        ];

        /// Every dtype a tensor can hold, in proto-number order.
        const TENSOR_DTYPES: &[DataType] = &[ $( DataType::$konst, )* ];

        // The table is indexed by number: rows are in order, without gaps.
        const _: () = assert!(numbered_from(TENSOR_DTYPES, 1));
    };
}

crate::for_each_dtype!(dtype_table);

/// Whether `rows` are numbered `first`, `first + 1`, ...
const fn numbered_from(mut rows: &[DataType], mut first: i32) -> bool {
    while let [row, rest @ ..] = rows {
        if row.0 != first {
            return false;
        }
        rows = rest;
        first += 1;
    }
    true
}

/// TF's `kDataTypeRefOffset`.
const REF_OFFSET: i32 = 100;

impl DataType {
    /// Every dtype a [`Tensor`](crate::Tensor) can hold (1 to 33), in number order.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert_eq!(DataType::all().len(), 33);
    /// assert_eq!(DataType::all()[0], DataType::Float);
    /// ```
    pub fn all() -> &'static [DataType] {
        TENSOR_DTYPES
    }

    /// The dtype with proto number `n`, known or not.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert_eq!(DataType::from_i32(19), DataType::Half);
    /// assert!(DataType::from_i32(119).is_ref());
    /// ```
    pub const fn from_i32(n: i32) -> DataType {
        DataType(n)
    }

    /// The proto number.
    ///
    /// ```
    /// assert_eq!(tftensor::DataType::Variant.as_i32(), 21);
    /// ```
    pub const fn as_i32(self) -> i32 {
        self.0
    }

    /// The table row of a known base (non-ref) dtype.
    fn info(self) -> Option<&'static Info> {
        usize::try_from(self.0).ok().and_then(|i| TABLE.get(i))
    }

    /// Whether this is a reference type (`DT_X_REF`, number > 100).
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert!(DataType::Float.as_ref_type().is_ref());
    /// assert!(!DataType::Float.is_ref());
    /// ```
    pub const fn is_ref(self) -> bool {
        self.0 > REF_OFFSET
    }

    /// TF's `BaseType`: strips the reference offset.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert_eq!(DataType::from_i32(101).base_type(), DataType::Float);
    /// ```
    pub const fn base_type(self) -> DataType {
        if self.is_ref() {
            DataType(self.0 - REF_OFFSET)
        } else {
            self
        }
    }

    /// TF's `MakeRefType`: the reference type of a base type (a ref type
    /// stays as it is).
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert_eq!(DataType::Half.as_ref_type().as_i32(), 119);
    /// ```
    pub const fn as_ref_type(self) -> DataType {
        if self.is_ref() {
            self
        } else {
            DataType(self.0 + REF_OFFSET)
        }
    }

    /// Whether a [`Tensor`](crate::Tensor) can hold this dtype: a known,
    /// non-ref value other than `Invalid`.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert!(DataType::UInt4.is_valid_tensor_dtype());
    /// assert!(!DataType::Invalid.is_valid_tensor_dtype());
    /// assert!(!DataType::Float.as_ref_type().is_valid_tensor_dtype());
    /// ```
    pub fn is_valid_tensor_dtype(self) -> bool {
        self.info().is_some_and(|i| i.kind != Kind::Invalid)
    }

    /// TF's `DataTypeString`: `"float"`, `"float_ref"`, or
    /// `"unknown dtype enum (N)"`.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert_eq!(DataType::Float8E4M3FN.name(), "float8_e4m3fn");
    /// assert_eq!(DataType::Invalid.name(), "INVALID");
    /// ```
    pub fn name(self) -> std::borrow::Cow<'static, str> {
        use std::borrow::Cow;
        let base = self.base_type();
        match base.info() {
            Some(info) if self.is_ref() && base.0 >= 0 => Cow::Owned(format!("{}_ref", info.name)),
            Some(info) => Cow::Borrowed(info.name),
            None => Cow::Owned(format!("unknown dtype enum ({})", self.0)),
        }
    }

    /// The proto enum identifier (`"DT_FLOAT"`, `"DT_FLOAT_REF"`), or `""`
    /// for an unknown number, as TF's `DataType_Name` gives it.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert_eq!(DataType::Float.proto_name(), "DT_FLOAT");
    /// assert_eq!(DataType::Float.as_ref_type().proto_name(), "DT_FLOAT_REF");
    /// ```
    pub fn proto_name(self) -> String {
        match self.base_type().info() {
            Some(info) if self.is_ref() => format!("{}_REF", info.proto_name),
            Some(info) => info.proto_name.to_string(),
            None => String::new(),
        }
    }

    /// TF's `DataTypeSize`: bytes per element; 0 for string, resource,
    /// variant, reference types and unknown numbers.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert_eq!(DataType::Complex128.size(), 16);
    /// assert_eq!(DataType::Int4.size(), 1);
    /// assert_eq!(DataType::Float.as_ref_type().size(), 0);
    /// ```
    pub fn size(self) -> usize {
        match self.info() {
            Some(info) => info.size,
            None => 0,
        }
    }

    /// TF's `DataTypeCanUseMemcpy`: whether elements are plain bytes.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert!(DataType::Bool.can_use_memcpy());
    /// assert!(!DataType::String.can_use_memcpy());
    /// ```
    pub fn can_use_memcpy(self) -> bool {
        self.size() > 0
    }

    fn kind(self) -> Kind {
        self.info().map_or(Kind::Invalid, |i| i.kind)
    }

    /// TF's `DataTypeIsQuantized`: qint8, quint8, qint16, quint16, qint32.
    ///
    /// ```
    /// assert!(tftensor::DataType::QInt32.is_quantized());
    /// ```
    pub fn is_quantized(self) -> bool {
        self.kind() == Kind::Quantized
    }

    /// TF's `DataTypeIsFloating`: half, bfloat16, float, double, the
    /// float8 types and float4_e2m1fn.
    ///
    /// ```
    /// assert!(tftensor::DataType::Float8E5M2.is_floating());
    /// assert!(!tftensor::DataType::Complex64.is_floating());
    /// ```
    pub fn is_floating(self) -> bool {
        self.kind() == Kind::Float
    }

    /// TF's `DataTypeIsInteger`: the signed and unsigned integers, int4,
    /// uint4, int2 and uint2 included (not bool, not quantized).
    ///
    /// ```
    /// assert!(tftensor::DataType::UInt64.is_integer());
    /// assert!(!tftensor::DataType::QInt8.is_integer());
    /// ```
    pub fn is_integer(self) -> bool {
        self.kind() == Kind::Int
    }

    /// TF's `DataTypeIsComplex`.
    ///
    /// ```
    /// assert!(tftensor::DataType::Complex128.is_complex());
    /// ```
    pub fn is_complex(self) -> bool {
        self.kind() == Kind::Complex
    }

    /// Whether the elements are real numbers: the floats, integers,
    /// quantized types and bool, the dtypes of
    /// [`Tensor::visit_real`](crate::Tensor::visit_real) and
    /// [`Tensor::stats`](crate::Tensor::stats).
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert!(DataType::Int2.is_real() && DataType::Bool.is_real());
    /// assert!(!DataType::Complex64.is_real() && !DataType::String.is_real());
    /// ```
    pub fn is_real(self) -> bool {
        matches!(
            self.kind(),
            Kind::Float | Kind::Int | Kind::Quantized | Kind::Bool
        )
    }
}

impl Default for DataType {
    /// `Invalid`, the proto default.
    ///
    /// ```
    /// assert_eq!(tftensor::DataType::default(), tftensor::DataType::Invalid);
    /// ```
    fn default() -> Self {
        DataType::Invalid
    }
}

impl fmt::Display for DataType {
    /// The TF name ([`DataType::name`]).
    ///
    /// ```
    /// assert_eq!(tftensor::DataType::Int64.to_string(), "int64");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

impl fmt::Debug for DataType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.base_type().info() {
            Some(_) => write!(f, "DataType({})", self.name()),
            None => write!(f, "DataType({})", self.0),
        }
    }
}

impl From<i32> for DataType {
    /// Any number, known or not (the proto enum is open).
    ///
    /// ```
    /// assert_eq!(tftensor::DataType::from(2), tftensor::DataType::Double);
    /// ```
    fn from(n: i32) -> Self {
        DataType(n)
    }
}

impl From<DataType> for i32 {
    /// The proto number.
    ///
    /// ```
    /// assert_eq!(i32::from(tftensor::DataType::Bool), 10);
    /// ```
    fn from(d: DataType) -> i32 {
        d.0
    }
}

/// The error of parsing a [`DataType`] from a name it does not have
/// (TF's `"Unknown data type: <name>"`).
///
/// ```
/// use tftensor::{DataType, ParseDataTypeError};
/// let err: ParseDataTypeError = "float33".parse::<DataType>().unwrap_err();
/// assert_eq!(err.to_string(), "Unknown data type: float33");
/// assert_eq!(err.input(), "float33");
/// // `?` turns it into `tftensor::Error::InvalidArgument`.
/// let e: tftensor::Error = err.into();
/// assert!(matches!(e, tftensor::Error::InvalidArgument(_)));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseDataTypeError {
    input: String,
}

impl ParseDataTypeError {
    /// The text that is not a dtype name.
    ///
    /// ```
    /// let err = "nope".parse::<tftensor::DataType>().unwrap_err();
    /// assert_eq!(err.input(), "nope");
    /// ```
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ParseDataTypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Unknown data type: {}", self.input)
    }
}

impl std::error::Error for ParseDataTypeError {}

impl FromStr for DataType {
    type Err = ParseDataTypeError;

    /// TF's `DataTypeFromString`: the names, the aliases `float32`,
    /// `float64`, `float16`, and a `_ref` suffix.
    ///
    /// ```
    /// use tftensor::DataType;
    /// assert_eq!("float16".parse::<DataType>().unwrap(), DataType::Half);
    /// assert_eq!("int32_ref".parse::<DataType>().unwrap(), DataType::Int32.as_ref_type());
    /// assert!("int32_ref_ref".parse::<DataType>().is_err());
    /// assert!("INVALID".parse::<DataType>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, ParseDataTypeError> {
        let (base, is_ref) = match s.strip_suffix("_ref") {
            Some(b) => (b, true),
            None => (s, false),
        };
        let base_dt = match base {
            "float32" => Some(DataType::Float),
            "float64" => Some(DataType::Double),
            "float16" => Some(DataType::Half),
            _ => DataType::all().iter().copied().find(|d| d.name() == base),
        };
        match base_dt {
            Some(d) if is_ref => Ok(d.as_ref_type()),
            Some(d) => Ok(d),
            None => Err(ParseDataTypeError {
                input: s.to_string(),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// TF's `DataType` numbers (types.proto) with `DataTypeString` names and
    /// `DataTypeSize` sizes.
    const TF_TABLE: &[(i32, &str, usize)] = &[
        (1, "float", 4),
        (2, "double", 8),
        (3, "int32", 4),
        (4, "uint8", 1),
        (5, "int16", 2),
        (6, "int8", 1),
        (7, "string", 0),
        (8, "complex64", 8),
        (9, "int64", 8),
        (10, "bool", 1),
        (11, "qint8", 1),
        (12, "quint8", 1),
        (13, "qint32", 4),
        (14, "bfloat16", 2),
        (15, "qint16", 2),
        (16, "quint16", 2),
        (17, "uint16", 2),
        (18, "complex128", 16),
        (19, "half", 2),
        (20, "resource", 0),
        (21, "variant", 0),
        (22, "uint32", 4),
        (23, "uint64", 8),
        (24, "float8_e5m2", 1),
        (25, "float8_e4m3fn", 1),
        (26, "float8_e4m3fnuz", 1),
        (27, "float8_e4m3b11fnuz", 1),
        (28, "float8_e5m2fnuz", 1),
        (29, "int4", 1),
        (30, "uint4", 1),
        (31, "int2", 1),
        (32, "uint2", 1),
        (33, "float4_e2m1fn", 1),
    ];

    #[test]
    fn table_matches_tf() {
        assert_eq!(DataType::all().len(), TF_TABLE.len());
        for (&(num, name, size), &dt) in TF_TABLE.iter().zip(DataType::all()) {
            assert_eq!(dt.as_i32(), num);
            assert_eq!(dt.name(), name);
            assert_eq!(dt.size(), size);
            assert_eq!(dt.can_use_memcpy(), size > 0);
            assert_eq!(name.parse::<DataType>().unwrap(), dt);
            assert!(dt.is_valid_tensor_dtype());
            let r = dt.as_ref_type();
            assert_eq!(r.as_i32(), num + 100);
            assert_eq!(r.name(), format!("{name}_ref"));
            assert_eq!(r.size(), 0);
            assert!(!r.can_use_memcpy());
            assert_eq!(format!("{name}_ref").parse::<DataType>().unwrap(), r);
            assert_eq!(r.base_type(), dt);
        }
    }

    #[test]
    fn unknown_and_invalid() {
        assert_eq!(DataType::from_i32(34).name(), "unknown dtype enum (34)");
        assert_eq!(DataType::from_i32(-5).name(), "unknown dtype enum (-5)");
        assert_eq!(DataType::from_i32(99).size(), 0);
        assert_eq!(DataType::Invalid.name(), "INVALID");
        // 100 is not a ref type (TF: IsRefType is `> 100`).
        assert_eq!(DataType::from_i32(100).name(), "unknown dtype enum (100)");
    }

    #[test]
    fn aliases_and_predicates() {
        assert_eq!("float32".parse::<DataType>().unwrap(), DataType::Float);
        assert_eq!("float64".parse::<DataType>().unwrap(), DataType::Double);
        assert_eq!("float16".parse::<DataType>().unwrap(), DataType::Half);
        assert!("float16_ref_ref".parse::<DataType>().is_err());
        assert!("nope".parse::<DataType>().is_err());
        let floating: Vec<_> = DataType::all().iter().filter(|d| d.is_floating()).collect();
        assert_eq!(floating.len(), 10);
        let quantized = DataType::all().iter().filter(|d| d.is_quantized()).count();
        assert_eq!(quantized, 5);
        let complex = DataType::all().iter().filter(|d| d.is_complex()).count();
        assert_eq!(complex, 2);
        let ints = DataType::all().iter().filter(|d| d.is_integer()).count();
        assert_eq!(ints, 12);
        assert!(!DataType::Bool.is_integer());
    }
}
