//! The TFLite `Model` (schema 3d, `schema.fbs` beside this file) as plain
//! data, parsed by the checked reader: subgraphs and their tensors, where
//! each buffer's bytes are (never the bytes themselves), operator codes,
//! signatures, metadata and external buffers.

use std::sync::Arc;

use super::flatbuf::{Fb, Table};
use crate::error::Result;
use crate::io::Blob;

/// A model's structure, from its flatbuffer alone.
///
/// ```
/// use std::sync::Arc;
/// use tftensor::io::{Blob, LocalFile};
/// let blob: Arc<dyn Blob> = Arc::new(LocalFile::open("tests/data/tflite/float32.tflite")?);
/// let model = tftensor::tflite::Model::parse(blob)?;
/// assert_eq!(model.version, 3);
/// assert!(!model.subgraphs[0].tensors.is_empty());
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Model {
    /// The schema version (3).
    pub version: u32,
    /// The model's description (the converter's name).
    pub description: String,
    /// The graphs; 0 is the main one.
    pub subgraphs: Vec<Subgraph>,
    /// Where each buffer's bytes are; `buffers[0]` is the empty sentinel.
    pub buffers: Vec<Buffer>,
    /// The operators the graphs use.
    pub operator_codes: Vec<OperatorCode>,
    /// Named metadata buffers (`min_runtime_version`, TFLite Support
    /// metadata, ...).
    pub metadata: Vec<Metadata>,
    /// The signatures.
    pub signature_defs: Vec<SignatureDef>,
    /// External buffer groups: file names relative to the model.
    pub external_buffer_groups: Vec<String>,
    /// External buffers, by id.
    pub external_buffers: Vec<ExternalBuffer>,
}

/// One graph.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Subgraph {
    /// Its name (a signature key, for models with several).
    pub name: String,
    /// Its tensors.
    pub tensors: Vec<TensorInfo>,
    /// The indices of its input tensors.
    pub inputs: Vec<i32>,
    /// The indices of its output tensors.
    pub outputs: Vec<i32>,
    /// Each operator's index into [`Model::operator_codes`].
    pub operators: Vec<u32>,
}

/// One tensor's description.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct TensorInfo {
    /// Its name.
    pub name: String,
    /// Its TFLite `TensorType` id.
    pub tensor_type: i8,
    /// Its shape (empty for a scalar, or where the file has none).
    pub shape: Vec<i32>,
    /// Its shape with -1 for unknown dimensions, where the file has one.
    pub shape_signature: Option<Vec<i32>>,
    /// Its buffer's index.
    pub buffer: u32,
    /// Its quantization, where set and not empty.
    pub quantization: Option<QuantParams>,
    /// Whether it is a variable.
    pub is_variable: bool,
    /// Whether it is stored sparse (its buffer holds the sparse values).
    pub sparse: bool,
    /// Its external buffer id (0 for none).
    pub external_buffer: u32,
}

/// `QuantizationParameters`.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct QuantParams {
    /// Scales.
    pub scale: Vec<f32>,
    /// Zero points.
    pub zero_point: Vec<i64>,
    /// The axis of per-axis quantization.
    pub quantized_dimension: i32,
    /// `BlockwiseQuantization`, if that is the `details`.
    pub blockwise: Option<BlockwiseParams>,
}

/// `BlockwiseQuantization`: tensor indices in the same subgraph.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct BlockwiseParams {
    /// The scales tensor.
    pub scales: i32,
    /// The zero points tensor, or -1.
    pub zero_points: i32,
    /// Elements per block.
    pub block_size: i32,
}

/// Where a buffer's bytes are.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Buffer {
    /// No bytes.
    #[default]
    Empty,
    /// `len` bytes at `offset` of the file: inline `Buffer.data`, or
    /// offset mode's `Buffer.offset/size`.
    At {
        /// From the file's start.
        offset: u64,
        /// Bytes.
        len: u64,
    },
}

/// `OperatorCode`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct OperatorCode {
    /// The builtin operator (the larger of the two code fields).
    pub builtin_code: i32,
    /// A custom op's name (Flex ops start with `Flex`).
    pub custom_code: Option<String>,
    /// The op's version.
    pub version: i32,
}

/// `Metadata`: a named buffer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Metadata {
    /// Its name.
    pub name: String,
    /// Its buffer.
    pub buffer: u32,
}

/// `SignatureDef`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct SignatureDef {
    /// The signature's key.
    pub signature_key: String,
    /// Inputs: name and tensor index in the subgraph.
    pub inputs: Vec<(String, u32)>,
    /// Outputs: name and tensor index in the subgraph.
    pub outputs: Vec<(String, u32)>,
    /// The subgraph it runs.
    pub subgraph_index: u32,
}

/// `ExternalBuffer` (schema 3d).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExternalBuffer {
    /// Its id (`Tensor.external_buffer`).
    pub id: u32,
    /// Its group (file).
    pub group: u32,
    /// From the group file's start.
    pub offset: u64,
    /// Bytes.
    pub length: u64,
    /// How it is packed (empty: as the tensor's type says).
    pub packing: String,
}

/// `Tensor`'s fields.
mod tensor_field {
    pub(super) const SHAPE: u64 = 0;
    pub(super) const TYPE: u64 = 1;
    pub(super) const BUFFER: u64 = 2;
    pub(super) const NAME: u64 = 3;
    pub(super) const QUANTIZATION: u64 = 4;
    pub(super) const IS_VARIABLE: u64 = 5;
    pub(super) const SPARSITY: u64 = 6;
    pub(super) const SHAPE_SIGNATURE: u64 = 7;
    pub(super) const EXTERNAL_BUFFER: u64 = 10;
}

/// `QuantizationDetails`' member `BlockwiseQuantization`.
const DETAILS_BLOCKWISE: u8 = 2;

impl Model {
    /// Parses the flatbuffer at the start of `blob`, reading only its
    /// tables (no buffer's bytes).
    ///
    /// # Errors
    /// [`Error::DataLoss`](crate::Error::DataLoss) with the offset for
    /// anything that does not fit the file or the schema.
    pub fn parse(blob: Arc<dyn Blob>) -> Result<Model> {
        let fb = Fb::new(blob);
        let root = fb.root(b"TFL3")?;
        let buffers = fb
            .field_tables(root, 4)?
            .into_iter()
            .map(|b| buffer(&fb, b))
            .collect::<Result<_>>()?;
        let operator_codes = fb
            .field_tables(root, 1)?
            .into_iter()
            .map(|op| {
                let old = i32::from(fb.field_u8(op, 0, 0)? as i8);
                Ok(OperatorCode {
                    builtin_code: fb.field_i32(op, 3, 0)?.max(old),
                    custom_code: fb.field_str(op, 1)?,
                    version: fb.field_i32(op, 2, 1)?,
                })
            })
            .collect::<Result<_>>()?;
        let subgraphs = fb
            .field_tables(root, 2)?
            .into_iter()
            .map(|g| subgraph(&fb, g))
            .collect::<Result<_>>()?;
        let metadata = fb
            .field_tables(root, 6)?
            .into_iter()
            .map(|m| {
                Ok(Metadata {
                    name: fb.field_string(m, 0)?,
                    buffer: fb.field_u32(m, 1, 0)?,
                })
            })
            .collect::<Result<_>>()?;
        let tensor_maps = |t: Table, id: u64| -> Result<Vec<(String, u32)>> {
            fb.field_tables(t, id)?
                .into_iter()
                .map(|m| Ok((fb.field_string(m, 0)?, fb.field_u32(m, 1, 0)?)))
                .collect()
        };
        let signature_defs = fb
            .field_tables(root, 7)?
            .into_iter()
            .map(|s| {
                Ok(SignatureDef {
                    inputs: tensor_maps(s, 0)?,
                    outputs: tensor_maps(s, 1)?,
                    signature_key: fb.field_string(s, 2)?,
                    subgraph_index: fb.field_u32(s, 4, 0)?,
                })
            })
            .collect::<Result<_>>()?;
        let external_buffer_groups = fb
            .field_tables(root, 8)?
            .into_iter()
            .map(|g| fb.field_string(g, 0))
            .collect::<Result<_>>()?;
        let external_buffers = fb
            .field_tables(root, 9)?
            .into_iter()
            .map(|e| {
                Ok(ExternalBuffer {
                    id: fb.field_u32(e, 0, 0)?,
                    group: fb.field_u32(e, 1, 0)?,
                    offset: fb.field_u64(e, 2)?,
                    length: fb.field_u64(e, 3)?,
                    packing: fb.field_string(e, 4)?,
                })
            })
            .collect::<Result<_>>()?;
        Ok(Model {
            version: fb.field_u32(root, 0, 0)?,
            description: fb.field_string(root, 3)?,
            subgraphs,
            buffers,
            operator_codes,
            metadata,
            signature_defs,
            external_buffer_groups,
            external_buffers,
        })
    }
}

/// A `Buffer`: inline data, or offset mode's offset and size (valid only
/// when the offset is over 1).
fn buffer(fb: &Fb, b: Table) -> Result<Buffer> {
    if let Some(v) = fb.field_vector(b, 0, 1)? {
        if v.len > 0 {
            return Ok(Buffer::At {
                offset: v.start,
                len: v.len,
            });
        }
    }
    let offset = fb.field_u64(b, 1)?;
    if offset > 1 {
        return Ok(Buffer::At {
            offset,
            len: fb.field_u64(b, 2)?,
        });
    }
    Ok(Buffer::Empty)
}

fn subgraph(fb: &Fb, g: Table) -> Result<Subgraph> {
    use tensor_field as f;
    let tensors = fb
        .field_tables(g, 0)?
        .into_iter()
        .map(|t| {
            Ok(TensorInfo {
                name: fb.field_string(t, f::NAME)?,
                tensor_type: fb.field_u8(t, f::TYPE, 0)? as i8,
                shape: fb.field_i32_vec(t, f::SHAPE)?,
                shape_signature: fb.field_i32s(t, f::SHAPE_SIGNATURE)?,
                buffer: fb.field_u32(t, f::BUFFER, 0)?,
                quantization: match fb.field_table(t, f::QUANTIZATION)? {
                    Some(q) => quant(fb, q)?,
                    None => None,
                },
                is_variable: fb.field_u8(t, f::IS_VARIABLE, 0)? != 0,
                sparse: fb.field_table(t, f::SPARSITY)?.is_some(),
                external_buffer: fb.field_u32(t, f::EXTERNAL_BUFFER, 0)?,
            })
        })
        .collect::<Result<_>>()?;
    let operators = fb
        .field_tables(g, 3)?
        .into_iter()
        .map(|op| fb.field_u32(op, 0, 0))
        .collect::<Result<_>>()?;
    Ok(Subgraph {
        name: fb.field_string(g, 4)?,
        tensors,
        inputs: fb.field_i32_vec(g, 1)?,
        outputs: fb.field_i32_vec(g, 2)?,
        operators,
    })
}

/// `QuantizationParameters`; `None` when empty (ai-edge-quantizer writes
/// an empty table on every tensor).
fn quant(fb: &Fb, q: Table) -> Result<Option<QuantParams>> {
    let blockwise = match fb.field_u8(q, 4, 0)? {
        DETAILS_BLOCKWISE => match fb.field_table(q, 5)? {
            Some(b) => Some(BlockwiseParams {
                scales: fb.field_i32(b, 0, 0)?,
                zero_points: fb.field_i32(b, 1, 0)?,
                block_size: fb.field_i32(b, 2, 0)?,
            }),
            None => None,
        },
        _ => None,
    };
    let params = QuantParams {
        scale: fb.field_f32s(q, 2)?,
        zero_point: fb.field_i64s(q, 3)?,
        quantized_dimension: fb.field_i32(q, 6, 0)?,
        blockwise,
    };
    let empty = params.scale.is_empty() && params.blockwise.is_none();
    Ok((!empty).then_some(params))
}
