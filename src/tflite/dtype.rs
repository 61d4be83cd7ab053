//! TFLite's `TensorType` ids and their TF dtypes: the one table, both
//! directions derived from it.

use crate::dtype::DataType;

/// `TensorType` id → TF dtype (schema 3d).
const TYPES: &[(i8, &str, DataType)] = &[
    (0, "FLOAT32", DataType::Float),
    (1, "FLOAT16", DataType::Half),
    (2, "INT32", DataType::Int32),
    (3, "UINT8", DataType::UInt8),
    (4, "INT64", DataType::Int64),
    (5, "STRING", DataType::String),
    (6, "BOOL", DataType::Bool),
    (7, "INT16", DataType::Int16),
    (8, "COMPLEX64", DataType::Complex64),
    (9, "INT8", DataType::Int8),
    (10, "FLOAT64", DataType::Double),
    (11, "COMPLEX128", DataType::Complex128),
    (12, "UINT64", DataType::UInt64),
    (13, "RESOURCE", DataType::Resource),
    (14, "VARIANT", DataType::Variant),
    (15, "UINT32", DataType::UInt32),
    (16, "UINT16", DataType::UInt16),
    (17, "INT4", DataType::Int4),
    (18, "BFLOAT16", DataType::BFloat16),
    (19, "INT2", DataType::Int2),
    (20, "UINT4", DataType::UInt4),
    (21, "FLOAT8_E4M3FN", DataType::Float8E4M3FN),
    (22, "FLOAT8_E5M2", DataType::Float8E5M2),
];

/// The TF dtype of a `TensorType` id; `None` for an unknown id.
///
/// ```
/// use tftensor::{tflite, DataType};
/// assert_eq!(tflite::dtype_of(17), Some(DataType::Int4));
/// assert_eq!(tflite::dtype_of(99), None);
/// ```
pub fn dtype_of(tensor_type: i8) -> Option<DataType> {
    TYPES
        .iter()
        .find(|(id, _, _)| *id == tensor_type)
        .map(|&(_, _, dt)| dt)
}

/// The name of a `TensorType` id (`"INT8"`).
///
/// ```
/// assert_eq!(tftensor::tflite::type_name(9), Some("INT8"));
/// ```
pub fn type_name(tensor_type: i8) -> Option<&'static str> {
    TYPES
        .iter()
        .find(|(id, _, _)| *id == tensor_type)
        .map(|&(_, name, _)| name)
}

/// Bits per stored element of the types packed below a byte (INT4, UINT4:
/// two per byte, low nibble first; INT2: four per byte, lowest bits
/// first).
pub(crate) fn packed_bits(dtype: DataType) -> Option<u32> {
    match dtype {
        DataType::Int4 | DataType::UInt4 => Some(4),
        DataType::Int2 | DataType::UInt2 => Some(2),
        _ => None,
    }
}
