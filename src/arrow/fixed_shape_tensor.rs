//! Tensors as Arrow's canonical `arrow.fixed_shape_tensor` extension type,
//! both ways without copying: a `[N, d1..dk]` tensor is a
//! `FixedSizeList<T>[d1*..*dk]` array of N cells whose values buffer *is*
//! the tensor's buffer (kept alive by the Arrow buffer), and an Arrow
//! array's values buffer becomes a tensor's buffer (kept alive by the
//! tensor).

use std::collections::HashMap;
use std::sync::Arc;

use arrow_array::types::{
    Float16Type, Float32Type, Float64Type, Int8Type, Int16Type, Int32Type, Int64Type, UInt8Type,
    UInt16Type, UInt32Type, UInt64Type,
};
use arrow_array::{Array, ArrayRef, ArrowPrimitiveType, FixedSizeListArray, PrimitiveArray};
use arrow_buffer::{Buffer, ScalarBuffer};
use arrow_schema::{DataType as ArrowType, Field};
use bytes::Bytes;

use super::invalid;
use super::tensor_metadata::FixedShapeTensorMetadata;
use crate::{DataType, Result, Tensor};

/// The extension name, in the field metadata under
/// [`EXTENSION_NAME_KEY`].
pub const FIXED_SHAPE_TENSOR: &str = "arrow.fixed_shape_tensor";
/// The field metadata key naming an extension type.
pub const EXTENSION_NAME_KEY: &str = "ARROW:extension:name";
/// The field metadata key of the extension's parameters (JSON).
pub const EXTENSION_METADATA_KEY: &str = "ARROW:extension:metadata";

/// The dtype table, each pair once: TF dtype and Arrow primitive type.
/// Both directions are generated from it. (`bool` is bit-packed in Arrow,
/// so never zero-copy, and is not listed; nor are dtypes Arrow lacks.)
macro_rules! arrow_dtypes {
    ($m:ident) => {
        $m! {
            Float => Float32Type, Double => Float64Type, Half => Float16Type,
            Int8 => Int8Type, Int16 => Int16Type, Int32 => Int32Type, Int64 => Int64Type,
            UInt8 => UInt8Type, UInt16 => UInt16Type, UInt32 => UInt32Type, UInt64 => UInt64Type,
        }
    };
}

/// The Arrow value type of a TF dtype, if it has a zero-copy one.
///
/// ```
/// use tftensor::{arrow::arrow_value_type, DataType};
/// assert_eq!(arrow_value_type(DataType::Float), Some(arrow_schema::DataType::Float32));
/// assert_eq!(arrow_value_type(DataType::BFloat16), None);
/// ```
#[must_use]
pub fn arrow_value_type(dtype: DataType) -> Option<ArrowType> {
    macro_rules! lookup {
        ($($tf:ident => $arrow:ty,)*) => {
            match dtype {
                $(DataType::$tf => Some(<$arrow as ArrowPrimitiveType>::DATA_TYPE),)*
                _ => None,
            }
        };
    }
    arrow_dtypes!(lookup)
}

/// The TF dtype of an Arrow primitive value type (the table read backwards).
fn tf_dtype(value: &ArrowType) -> Option<DataType> {
    macro_rules! lookup {
        ($($tf:ident => $arrow:ty,)*) => {
            $(if *value == <$arrow as ArrowPrimitiveType>::DATA_TYPE {
                return Some(DataType::$tf);
            })*
        };
    }
    arrow_dtypes!(lookup);
    None
}

/// Keeps a tensor alive as the owner of a `bytes::Bytes` over its data.
struct TensorBytes(Tensor);

impl AsRef<[u8]> for TensorBytes {
    fn as_ref(&self) -> &[u8] {
        // `tensor_bytes` checked that `tensor_data` succeeds for this
        // tensor, and checks the result's address and length afterwards.
        self.0.tensor_data().unwrap_or(&[])
    }
}

/// The tensor's data as an Arrow buffer that shares (and keeps alive) the
/// tensor's memory.
fn tensor_buffer(tensor: &Tensor) -> Result<Buffer> {
    let data = tensor.tensor_data()?;
    let (ptr, len) = (data.as_ptr(), data.len());
    let bytes = Bytes::from_owner(TensorBytes(tensor.clone()));
    if len != 0 && (bytes.as_ptr() != ptr || bytes.len() != len) {
        return Err(invalid("tensor data moved while being shared"));
    }
    Ok(Buffer::from(bytes))
}

/// The values of `tensor` as a primitive Arrow array sharing its buffer
/// (copied once only when the data is not aligned for its element type,
/// which tftensor's own buffers always are).
fn values_array(tensor: &Tensor) -> Result<ArrayRef> {
    if arrow_value_type(tensor.dtype()).is_none() {
        return Err(unsupported(tensor.dtype()));
    }
    let n = usize::try_from(tensor.num_elements()).map_err(|_| invalid("negative size"))?;
    let buffer = tensor_buffer(tensor)?;
    macro_rules! build {
        ($($tf:ident => $arrow:ty,)*) => {
            match tensor.dtype() {
                $(DataType::$tf => primitive::<$arrow>(buffer, n),)*
                other => Err(unsupported(other)),
            }
        };
    }
    arrow_dtypes!(build)
}

fn primitive<T: ArrowPrimitiveType>(buffer: Buffer, n: usize) -> Result<ArrayRef> {
    let size = std::mem::size_of::<T::Native>();
    let aligned = buffer
        .as_ptr()
        .align_offset(std::mem::align_of::<T::Native>())
        == 0;
    let buffer = if aligned {
        buffer
    } else {
        Buffer::from_slice_ref(buffer.as_slice())
    };
    if buffer.len() != n.saturating_mul(size) {
        return Err(invalid("tensor byte length does not match its shape"));
    }
    Ok(Arc::new(PrimitiveArray::<T>::new(
        ScalarBuffer::new(buffer, 0, n),
        None,
    )))
}

fn unsupported(dtype: DataType) -> crate::Error {
    invalid(format!(
        "{dtype} has no zero-copy Arrow type (supported: float, double, half, \
         int8/16/32/64, uint8/16/32/64)"
    ))
}

/// A tensor as an Arrow column named `name`, sharing its buffer.
///
/// A tensor of shape `[N, d1, .., dk]` (rank ≥ 2) becomes an
/// `arrow.fixed_shape_tensor` array of N elements of shape `[d1..dk]`
/// (storage `FixedSizeList<T>[d1*..*dk]`, child `item` non-nullable, field
/// metadata `{"shape":[d1,..,dk]}`, the form pyarrow and arrow-rs both
/// read); a rank-1 tensor becomes a plain primitive array (pyarrow refuses
/// 1-D fixed-shape tensors). The values buffer is the tensor's buffer.
///
/// # Errors
/// A scalar, or a dtype without a zero-copy Arrow type (bool, bfloat16,
/// float8, int4, complex, string, quantized, resource, variant).
///
/// ```
/// use tftensor::{arrow::tensor_to_arrow, Tensor};
/// let t = Tensor::from_vec([2, 3], vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0])?;
/// let (field, array) = tensor_to_arrow(&t, "x")?;
/// assert_eq!(array.len(), 2);
/// assert_eq!(field.metadata()["ARROW:extension:metadata"], r#"{"shape":[3]}"#);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn tensor_to_arrow(tensor: &Tensor, name: &str) -> Result<(Field, ArrayRef)> {
    let dims: Vec<usize> = tensor
        .shape()
        .dim_sizes()
        .into_iter()
        .map(usize::try_from)
        .collect::<std::result::Result<_, _>>()
        .map_err(|_| invalid("negative dimension"))?;
    let values = values_array(tensor)?;
    let Some((&n, cell)) = dims.split_first() else {
        return Err(invalid(
            "a scalar has no Arrow array form; reshape it to [1]",
        ));
    };
    if cell.is_empty() {
        let field = Field::new(name, values.data_type().clone(), false);
        return Ok((field, values));
    }
    let size = cell.iter().product::<usize>();
    let size = i32::try_from(size).map_err(|_| invalid("tensor cell exceeds i32 elements"))?;
    let item = Arc::new(Field::new("item", values.data_type().clone(), false));
    let array = FixedSizeListArray::try_new_with_length(Arc::clone(&item), size, values, None, n)
        .map_err(|e| invalid(format!("building the fixed-size list: {e}")))?;
    let metadata = FixedShapeTensorMetadata {
        shape: cell.to_vec(),
        ..FixedShapeTensorMetadata::default()
    };
    let field = Field::new(name, array.data_type().clone(), true).with_metadata(HashMap::from([
        (EXTENSION_NAME_KEY.to_owned(), FIXED_SHAPE_TENSOR.to_owned()),
        (EXTENSION_METADATA_KEY.to_owned(), metadata.to_json()),
    ]));
    Ok((field, Arc::new(array)))
}

/// An Arrow column as a tensor sharing its values buffer.
///
/// An `arrow.fixed_shape_tensor` array of N elements of shape `[d1..dk]`
/// becomes a `[N, d1..dk]` tensor in physical (row-major) order (a
/// `permutation` in the metadata is not applied; read it with
/// [`fixed_shape_tensor_metadata`]); a `FixedSizeList` without the
/// extension a `[N, list_size]` tensor; a primitive array a `[N]` one. The
/// tensor adopts the Arrow buffer (Arrow buffers are aligned for their
/// element type), slices included.
///
/// # Errors
/// Nulls anywhere (a tensor cannot hold them), a value type outside the
/// dtype table, metadata that does not parse or whose shape does not
/// multiply to the list size.
///
/// ```
/// use tftensor::{arrow::{arrow_to_tensor, tensor_to_arrow}, Tensor};
/// let t = Tensor::from_vec([2, 2], vec![1i64, 2, 3, 4])?;
/// let (field, array) = tensor_to_arrow(&t, "x")?;
/// let back = arrow_to_tensor(&field, array.as_ref())?;
/// assert_eq!(back, t);
/// assert_eq!(back.data_ptr(), t.data_ptr()); // the same memory
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn arrow_to_tensor(field: &Field, array: &dyn Array) -> Result<Tensor> {
    if array.null_count() != 0 {
        return Err(invalid(format!(
            "column {:?} has {} nulls; a tensor cannot hold them",
            field.name(),
            array.null_count()
        )));
    }
    if let Some(list) = array.as_any().downcast_ref::<FixedSizeListArray>() {
        let size = usize::try_from(list.value_length())
            .map_err(|_| invalid("negative fixed-size list length"))?;
        let cell = match fixed_shape_tensor_metadata(field)? {
            Some(m) => {
                if m.shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)) != Some(size) {
                    return Err(invalid(format!(
                        "fixed_shape_tensor shape {:?} does not hold {size} values",
                        m.shape
                    )));
                }
                m.shape
            }
            None => vec![size],
        };
        let values = list.values();
        if values.null_count() != 0 {
            return Err(invalid(format!(
                "column {:?} has null values",
                field.name()
            )));
        }
        // arrow-rs slices the child with the list, so the list's values
        // start at the child's start.
        let needed = list
            .len()
            .checked_mul(size)
            .ok_or_else(|| invalid("fixed-size list too long"))?;
        let values = values.slice(0, needed.min(values.len()));
        let mut shape = Vec::with_capacity(cell.len() + 1);
        shape.push(list.len());
        shape.extend(cell);
        return primitive_tensor(values.as_ref(), shape);
    }
    primitive_tensor(array, vec![array.len()])
}

/// A primitive array's values as a tensor of `shape`, adopting its buffer.
fn primitive_tensor(array: &dyn Array, shape: Vec<usize>) -> Result<Tensor> {
    let dtype = tf_dtype(array.data_type()).ok_or_else(|| {
        invalid(format!(
            "Arrow type {} has no tensor dtype (supported: float16/32/64, int8..int64, uint8..uint64)",
            array.data_type()
        ))
    })?;
    macro_rules! values {
        ($($tf:ident => $arrow:ty,)*) => {
            match dtype {
                $(DataType::$tf => array
                    .as_any()
                    .downcast_ref::<PrimitiveArray<$arrow>>()
                    .map(|a| a.values().inner().clone()),)*
                _ => None,
            }
        };
    }
    let buffer = arrow_dtypes!(values).ok_or_else(|| invalid("not a primitive array"))?;
    Tensor::from_buffer(dtype, shape, Bytes::from_owner(ArrowBytes(buffer)))
}

/// Keeps an Arrow buffer alive as the owner of a tensor's bytes.
struct ArrowBytes(Buffer);

impl AsRef<[u8]> for ArrowBytes {
    fn as_ref(&self) -> &[u8] {
        self.0.as_slice()
    }
}

/// The `arrow.fixed_shape_tensor` parameters of a field, or `None` when
/// the field has no such extension.
///
/// # Errors
/// The extension is named but its metadata is missing or does not parse
/// (see [`FixedShapeTensorMetadata::parse`]).
///
/// ```
/// use std::collections::HashMap;
/// use arrow_schema::{DataType, Field};
/// use tftensor::arrow::fixed_shape_tensor_metadata;
/// let item = Field::new("item", DataType::Float32, true);
/// let f = Field::new("t", DataType::FixedSizeList(item.into(), 6), true).with_metadata(HashMap::from([
///     ("ARROW:extension:name".to_owned(), "arrow.fixed_shape_tensor".to_owned()),
///     ("ARROW:extension:metadata".to_owned(), r#"{"shape":[2,3],"permutation":[0,1]}"#.to_owned()),
/// ]));
/// assert_eq!(fixed_shape_tensor_metadata(&f)?.unwrap().shape, [2, 3]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn fixed_shape_tensor_metadata(field: &Field) -> Result<Option<FixedShapeTensorMetadata>> {
    let md = field.metadata();
    if md.get(EXTENSION_NAME_KEY).map(String::as_str) != Some(FIXED_SHAPE_TENSOR) {
        return Ok(None);
    }
    let json = md.get(EXTENSION_METADATA_KEY).ok_or_else(|| {
        invalid(format!(
            "field {:?} is an {FIXED_SHAPE_TENSOR} without {EXTENSION_METADATA_KEY}",
            field.name()
        ))
    })?;
    FixedShapeTensorMetadata::parse(json).map(Some)
}
