//! [`DataType`]: TensorFlow's `DataType` enum, with its numbers, names and
//! sizes, all read from one table.

use std::fmt;
use std::str::FromStr;

use crate::error::Error;

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

/// Generates the named constants and the table from one list, so a dtype's
/// number, names and size are written exactly once.
macro_rules! dtype_table {
    ($( $konst:ident = $num:literal, $name:literal, $proto:literal, $size:literal, $kind:ident, $doc:literal; )*) => {
        #[allow(non_upper_case_globals)]
        impl DataType {
            $(
                #[doc = $doc]
                #[doc = ""]
                #[doc = concat!("Proto number ", stringify!($num), ", TF name `", $name, "`.")]
                pub const $konst: DataType = DataType($num);
            )*
        }

        const TABLE: &[Info] = &[
            $( Info { name: $name, proto_name: $proto, size: $size, kind: Kind::$kind }, )*
        ];

        /// Every dtype a tensor can hold, in proto-number order.
        const TENSOR_DTYPES: &[DataType] = &[ $( DataType::$konst, )* ];
    };
}

dtype_table! {
    Invalid = 0, "INVALID", "DT_INVALID", 0, Invalid, "Not a type; no tensor holds it.";
    Float = 1, "float", "DT_FLOAT", 4, Float, "32-bit IEEE float (`f32`).";
    Double = 2, "double", "DT_DOUBLE", 8, Float, "64-bit IEEE float (`f64`).";
    Int32 = 3, "int32", "DT_INT32", 4, Int, "Signed 32-bit integer (`i32`).";
    UInt8 = 4, "uint8", "DT_UINT8", 1, Int, "Unsigned 8-bit integer (`u8`).";
    Int16 = 5, "int16", "DT_INT16", 2, Int, "Signed 16-bit integer (`i16`).";
    Int8 = 6, "int8", "DT_INT8", 1, Int, "Signed 8-bit integer (`i8`).";
    String = 7, "string", "DT_STRING", 0, String, "Byte string (`bytes::Bytes`); need not be UTF-8.";
    Complex64 = 8, "complex64", "DT_COMPLEX64", 8, Complex, "Complex of two `f32` (`Complex<f32>`).";
    Int64 = 9, "int64", "DT_INT64", 8, Int, "Signed 64-bit integer (`i64`).";
    Bool = 10, "bool", "DT_BOOL", 1, Bool, "Boolean, one byte holding 0 or 1 (`bool`).";
    QInt8 = 11, "qint8", "DT_QINT8", 1, Quantized, "Quantized signed 8-bit ([`QInt8`](crate::QInt8)).";
    QUInt8 = 12, "quint8", "DT_QUINT8", 1, Quantized, "Quantized unsigned 8-bit ([`QUInt8`](crate::QUInt8)).";
    QInt32 = 13, "qint32", "DT_QINT32", 4, Quantized, "Quantized signed 32-bit ([`QInt32`](crate::QInt32)).";
    BFloat16 = 14, "bfloat16", "DT_BFLOAT16", 2, Float, "Brain float 16 (`half::bf16`).";
    QInt16 = 15, "qint16", "DT_QINT16", 2, Quantized, "Quantized signed 16-bit ([`QInt16`](crate::QInt16)).";
    QUInt16 = 16, "quint16", "DT_QUINT16", 2, Quantized, "Quantized unsigned 16-bit ([`QUInt16`](crate::QUInt16)).";
    UInt16 = 17, "uint16", "DT_UINT16", 2, Int, "Unsigned 16-bit integer (`u16`).";
    Complex128 = 18, "complex128", "DT_COMPLEX128", 16, Complex, "Complex of two `f64` (`Complex<f64>`).";
    Half = 19, "half", "DT_HALF", 2, Float, "IEEE half float (`half::f16`).";
    Resource = 20, "resource", "DT_RESOURCE", 0, Resource, "Resource handle ([`ResourceHandle`](crate::ResourceHandle)).";
    Variant = 21, "variant", "DT_VARIANT", 0, Variant, "Type-erased value ([`Variant`](crate::Variant)).";
    UInt32 = 22, "uint32", "DT_UINT32", 4, Int, "Unsigned 32-bit integer (`u32`).";
    UInt64 = 23, "uint64", "DT_UINT64", 8, Int, "Unsigned 64-bit integer (`u64`).";
    Float8E5M2 = 24, "float8_e5m2", "DT_FLOAT8_E5M2", 1, Float, "8-bit float, 5 exponent and 2 mantissa bits.";
    Float8E4M3FN = 25, "float8_e4m3fn", "DT_FLOAT8_E4M3FN", 1, Float, "8-bit float, 4 exponent and 3 mantissa bits, finite.";
    Float8E4M3FNUZ = 26, "float8_e4m3fnuz", "DT_FLOAT8_E4M3FNUZ", 1, Float, "8-bit float e4m3, finite, unsigned zero.";
    Float8E4M3B11FNUZ = 27, "float8_e4m3b11fnuz", "DT_FLOAT8_E4M3B11FNUZ", 1, Float, "8-bit float e4m3 with exponent bias 11, finite, unsigned zero.";
    Float8E5M2FNUZ = 28, "float8_e5m2fnuz", "DT_FLOAT8_E5M2FNUZ", 1, Float, "8-bit float e5m2, finite, unsigned zero.";
    Int4 = 29, "int4", "DT_INT4", 1, Int, "Signed 4-bit integer, stored one per byte ([`Int4`](crate::Int4)).";
    UInt4 = 30, "uint4", "DT_UINT4", 1, Int, "Unsigned 4-bit integer, stored one per byte ([`UInt4`](crate::UInt4)).";
    Int2 = 31, "int2", "DT_INT2", 1, Int, "Signed 2-bit integer, stored one per byte ([`Int2`](crate::Int2)).";
    UInt2 = 32, "uint2", "DT_UINT2", 1, Int, "Unsigned 2-bit integer, stored one per byte ([`UInt2`](crate::UInt2)).";
    Float4E2M1FN = 33, "float4_e2m1fn", "DT_FLOAT4_E2M1FN", 1, Float, "4-bit float, 2 exponent and 1 mantissa bits, finite ([`Float4E2M1FN`](crate::Float4E2M1FN)).";
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
        // TENSOR_DTYPES starts with Invalid.
        TENSOR_DTYPES.get(1..).unwrap_or(&[])
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

    /// Checks that a tensor can hold this dtype; TF's `"Type not set"` and
    /// `"Unexpected type: <DT_NAME>"` otherwise.
    pub(crate) fn check_tensor_dtype(self) -> crate::Result<()> {
        if self == DataType::Invalid {
            Err(Error::unsupported(self, "Type not set"))
        } else if self.is_valid_tensor_dtype() {
            Ok(())
        } else {
            Err(Error::unsupported(
                self,
                format!(
                    "Unexpected type: {}",
                    match self.proto_name() {
                        n if n.is_empty() => self.0.to_string(),
                        n => n,
                    }
                ),
            ))
        }
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

impl FromStr for DataType {
    type Err = Error;

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
    fn from_str(s: &str) -> Result<Self, Error> {
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
            None => Err(Error::InvalidArgument(format!("Unknown data type: {s}"))),
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
        assert_eq!(
            DataType::Invalid
                .check_tensor_dtype()
                .unwrap_err()
                .to_string(),
            "Type not set"
        );
        assert_eq!(
            DataType::Float
                .as_ref_type()
                .check_tensor_dtype()
                .unwrap_err()
                .to_string(),
            "Unexpected type: DT_FLOAT_REF"
        );
        assert_eq!(
            DataType::from_i32(999)
                .check_tensor_dtype()
                .unwrap_err()
                .to_string(),
            "Unexpected type: 999"
        );
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
