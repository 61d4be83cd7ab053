//! DLPack exchange: hand a [`Tensor`](crate::Tensor) to NumPy, PyTorch, JAX or CuPy (and
//! take theirs) without copying the data.
//!
//! * [`export`] turns a tensor into a DLPack 1.x `DLManagedTensorVersioned`
//!   (and [`export_legacy`] into the pre-1.0 `DLManagedTensor`), zero-copy:
//!   the managed context keeps a handle on the buffer, and owns the shape
//!   and strides (strides are always filled, row-major). Because writes in
//!   this crate are copy-on-write and other handles may share the buffer,
//!   the export of a shared buffer carries [`FLAG_READ_ONLY`]; a tensor
//!   taken by value whose buffer it alone owns is handed over writable.
//!   The legacy form cannot say read-only, so it refuses shared buffers (as
//!   NumPy does); [`export_legacy_or_copy`] copies a shared buffer instead
//!   (the array API's `copy=None`); [`export_copy`] always works, with
//!   [`FLAG_IS_COPIED`].
//! * [`import`] and [`import_legacy`] adopt a producer's CPU (or
//!   CPU-readable host) tensor: a zero-copy tensor whose drop calls the
//!   producer's deleter exactly once, also on every error path.
//!   `byte_offset` is honoured and NULL strides mean row-major. Data that is
//!   not compact row-major (transposed, sliced, negative or zero strides) is
//!   **copied** into a compact tensor, since a [`Tensor`](crate::Tensor) is always compact;
//!   so is data misaligned for its element type. Imported memory is never
//!   written through: a write copies first (copy-on-write), whatever the
//!   `READ_ONLY` flag says.
//! * Devices the CPU cannot read (CUDA, ROCm, ...) are errors naming the
//!   device; dtypes without a DLPack code (strings, quantized, int4,
//!   resource, variant) are errors naming the dtype.
//!
//! The dtype mapping ([`dl_data_type`], [`data_type`]): `bool` (6, 8),
//! signed and unsigned integers (0 and 1, 8 to 64 bits), `half`, `float`,
//! `double` (2, 16/32/64), `bfloat16` (4, 16), `complex64`/`complex128`
//! (5, 64/128), TF's five float8 types (codes 9 to 13) and `float4_e2m1fn`
//! (17, 4 bits). TF keeps one float4 per byte, so it travels with
//! [`FLAG_IS_SUBBYTE_TYPE_PADDED`] (versioned form only; an import without
//! that flag, packed two per byte, is refused).
//!
//! ```
//! use tftensor::{dlpack, Tensor};
//!
//! let t = Tensor::from_vec([2, 2], vec![1.0f32, 2.0, 3.0, 4.0])?;
//! let keep = t.clone(); // the buffer is now shared
//! let m = dlpack::export(t)?;
//! assert!(m.is_read_only());
//! assert_eq!(m.dl_tensor().data.cast_const().cast(), keep.data_ptr().unwrap());
//!
//! // Any consumer takes `m.into_raw()`; this crate's own import is zero-copy.
//! let back = dlpack::from_managed(m)?;
//! assert_eq!(back, keep);
//! assert_eq!(back.data_ptr(), keep.data_ptr());
//! # Ok::<(), tftensor::Error>(())
//! ```

mod export;
mod ffi;
mod import;

pub use export::{export, export_copy, export_legacy, export_legacy_or_copy};
pub use ffi::{
    DLDataType, DLDevice, DLDeviceType, DLManagedTensor, DLManagedTensorVersioned,
    DLPACK_MAJOR_VERSION, DLPACK_MINOR_VERSION, DLPackVersion, DLTensor, FLAG_IS_COPIED,
    FLAG_IS_SUBBYTE_TYPE_PADDED, FLAG_READ_ONLY, ManagedTensor, ManagedTensorVersioned,
    live_exports, type_code,
};
#[cfg(feature = "cuda")]
pub(crate) use ffi::{ExportContext, ExportHeader, Foreign, Owner};
#[cfg(feature = "cuda")]
pub(crate) use import::check_padding;
pub use import::{from_managed, from_managed_legacy, import, import_legacy};

use crate::dtype::DataType;
use crate::error::{Error, Result};

/// Every dtype with a DLPack code: (dtype, type code, bits). One lane each.
const DTYPES: &[(DataType, u8, u8)] = &[
    (DataType::Bool, type_code::BOOL, 8),
    (DataType::Int8, type_code::INT, 8),
    (DataType::Int16, type_code::INT, 16),
    (DataType::Int32, type_code::INT, 32),
    (DataType::Int64, type_code::INT, 64),
    (DataType::UInt8, type_code::UINT, 8),
    (DataType::UInt16, type_code::UINT, 16),
    (DataType::UInt32, type_code::UINT, 32),
    (DataType::UInt64, type_code::UINT, 64),
    (DataType::Half, type_code::FLOAT, 16),
    (DataType::Float, type_code::FLOAT, 32),
    (DataType::Double, type_code::FLOAT, 64),
    (DataType::BFloat16, type_code::BFLOAT, 16),
    (DataType::Complex64, type_code::COMPLEX, 64),
    (DataType::Complex128, type_code::COMPLEX, 128),
    (
        DataType::Float8E4M3B11FNUZ,
        type_code::FLOAT8_E4M3B11FNUZ,
        8,
    ),
    (DataType::Float8E4M3FN, type_code::FLOAT8_E4M3FN, 8),
    (DataType::Float8E4M3FNUZ, type_code::FLOAT8_E4M3FNUZ, 8),
    (DataType::Float8E5M2, type_code::FLOAT8_E5M2, 8),
    (DataType::Float8E5M2FNUZ, type_code::FLOAT8_E5M2FNUZ, 8),
    // TF keeps one float4 per byte: exported with `FLAG_IS_SUBBYTE_TYPE_PADDED`.
    (DataType::Float4E2M1FN, type_code::FLOAT4_E2M1FN, 4),
];

/// Whether DLPack's type for `dtype` is narrower than TF's one byte per
/// element, so the data is sub-byte padded (`FLAG_IS_SUBBYTE_TYPE_PADDED`).
fn is_padded(dtype: DataType, dl: DLDataType) -> bool {
    usize::from(dl.bits) < dtype.size() * 8
}

/// The DLPack type of a dtype.
///
/// # Errors
/// [`Error::UnsupportedDataType`] naming the dtype when DLPack has no code
/// for it (string, quantized, int4/uint4, resource, variant).
///
/// ```
/// use tftensor::dlpack::{dl_data_type, type_code, DLDataType};
/// use tftensor::DataType;
/// assert_eq!(
///     dl_data_type(DataType::BFloat16).unwrap(),
///     DLDataType { code: type_code::BFLOAT, bits: 16, lanes: 1 }
/// );
/// assert_eq!(
///     dl_data_type(DataType::String).unwrap_err().to_string(),
///     "DLPack has no type for string"
/// );
/// ```
pub fn dl_data_type(dtype: DataType) -> Result<DLDataType> {
    DTYPES
        .iter()
        .find(|&&(dt, _, _)| dt == dtype)
        .map(|&(_, code, bits)| DLDataType {
            code,
            bits,
            lanes: 1,
        })
        .ok_or_else(|| Error::unsupported(dtype, format!("DLPack has no type for {dtype}")))
}

/// The dtype of a DLPack type.
///
/// # Errors
/// [`Error::UnsupportedDataType`] for more than one lane, or a code and
/// width this crate has no dtype for (e.g. float8_e8m0fnu, int4).
///
/// ```
/// use tftensor::dlpack::{data_type, type_code, DLDataType};
/// use tftensor::DataType;
/// let bool8 = DLDataType { code: type_code::BOOL, bits: 8, lanes: 1 };
/// assert_eq!(data_type(bool8).unwrap(), DataType::Bool);
/// let int4 = DLDataType { code: type_code::INT, bits: 4, lanes: 1 };
/// assert!(data_type(int4).is_err());
/// ```
pub fn data_type(dl: DLDataType) -> Result<DataType> {
    if dl.lanes != 1 {
        return Err(Error::UnsupportedDataType {
            dtype: None,
            message: format!(
                "DLPack type with {} lanes (code {}, {} bits); only 1 lane is supported",
                dl.lanes, dl.code, dl.bits
            ),
        });
    }
    DTYPES
        .iter()
        .find(|&&(_, code, bits)| code == dl.code && bits == dl.bits)
        .map(|&(dt, _, _)| dt)
        .ok_or_else(|| Error::UnsupportedDataType {
            dtype: None,
            message: format!(
                "DLPack type code {} with {} bits has no TensorFlow dtype",
                dl.code, dl.bits
            ),
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_consistent() {
        for &(dt, _, bits) in DTYPES {
            let padded = dt == DataType::Float4E2M1FN;
            assert_eq!(usize::from(bits) == dt.size() * 8, !padded, "{dt}");
            assert_eq!(data_type(dl_data_type(dt).unwrap()).unwrap(), dt);
        }
        let mapped = DataType::all()
            .iter()
            .filter(|dt| dl_data_type(**dt).is_ok())
            .count();
        assert_eq!(mapped, DTYPES.len());
        for dt in [
            DataType::String,
            DataType::QInt8,
            DataType::QUInt16,
            DataType::Int4,
            DataType::UInt4,
            DataType::Resource,
            DataType::Variant,
        ] {
            let msg = dl_data_type(dt).unwrap_err().to_string();
            assert!(msg.contains(&dt.to_string()), "{msg}");
        }
    }
}
