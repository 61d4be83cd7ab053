//! TF's deployment formats, read without TensorFlow: TFLite / LiteRT
//! `.tflite` models, MediaPipe `.task` bundles of them, and TF.js
//! `model.json` weights.
//!
//! A `.tflite` is a FlatBuffer (`schema.fbs` beside this file, schema
//! 3d). It is read by a checked hand reader ([`Model::parse`]): every
//! offset, vtable and vector length is checked against the file before
//! use, so a hostile file is an error, never a panic, and only the tables
//! are read to list it (not the weights: a 100 MB model's listing reads a
//! few 4 KiB blocks, or nothing when mapped). Every tensor of every
//! subgraph with stored data is an entry, named `SUBGRAPH/NAME` past
//! subgraph 0; payloads are read in place from inline buffers, offset
//! mode's payloads after the flatbuffer, or external buffer files.
//!
//! Tensors stay as stored (int4/uint4/int2 unpacked to one value per
//! byte); [`dequantize`] gives their float32 values.
//!
//! ```
//! use tftensor::io::{self, TensorSource};
//! let mut src = io::open("tests/data/tflite/int8.tflite")?;
//! let i = src.entries().iter().position(|e| e.quantization.is_some()).unwrap();
//! let raw = src.read(i)?;
//! let real = tftensor::tflite::dequantize(&src.entries()[i], &raw)?;
//! assert_eq!(real.dtype(), tftensor::DataType::Float);
//! # Ok::<(), tftensor::Error>(())
//! ```

mod dtype;
mod file;
mod flatbuf;
mod model;
mod ops;
mod show;
mod task;
mod tfjs;
mod tfjs_graph;

pub use dtype::{dtype_of, type_name};
pub(crate) use file::Siblings;
pub use file::{TensorEntry, TfliteFile};
pub use model::{
    BlockwiseParams, Buffer, ExternalBuffer, Metadata, Model, OperatorCode, QuantParams,
    SignatureDef, Subgraph, TensorInfo,
};
pub use show::op_name;
pub(crate) use show::{metadata_text, signatures_text};
pub(crate) use task::TaskFile;
pub use tfjs::TfjsModel;

use crate::error::{Error, Result};
use crate::io::Entry;
use crate::tensor::Tensor;

/// The float32 values of a quantized tensor read as `entry` says:
/// `(q - zero_point) * scale`, per tensor or per axis; an entry with no
/// quantization gives the tensor as it is. Blockwise quantization needs
/// its scale tensor: use [`io::dequantize`](crate::io::dequantize), which
/// reads it, or [`Quantization::apply`](crate::io::Quantization::apply).
///
/// # Errors
/// [`Error::InvalidArgument`] for parameters that do not fit the tensor,
/// or a blockwise entry.
///
/// ```
/// use tftensor::{io::{Entry, Quantization}, DataType, Tensor, TensorShape};
/// let mut e = Entry::new("w", DataType::Int8, TensorShape::new(&[2])?);
/// e.quantization = Some(Quantization::per_tensor(0.5, 1));
/// let real = tftensor::tflite::dequantize(&e, &Tensor::from_vec([2], vec![1i8, 5])?)?;
/// assert_eq!(real.as_slice::<f32>()?, [0.0, 2.0]);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub fn dequantize(entry: &Entry, tensor: &Tensor) -> Result<Tensor> {
    match &entry.quantization {
        None => Ok(tensor.clone()),
        Some(q) if q.blockwise.is_some() => Err(Error::InvalidArgument(format!(
            "{} is quantized blockwise: its scales are another tensor (io::dequantize reads them)",
            entry.name
        ))),
        Some(q) => q.apply(tensor, None, None),
    }
}
