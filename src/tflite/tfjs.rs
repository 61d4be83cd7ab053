//! TF.js `model.json`: its `weightsManifest` (groups of shard files, each
//! group's shards one little-endian buffer, weights one after another in
//! manifest order), with TF.js's dtypes (float32, int32, bool, string,
//! complex64) and quantization (uint8/uint16 with scale and min, float16);
//! and a graph model's `modelTopology` (a GraphDef as JSON), whose `Const`
//! nodes not in the manifest are listed as a frozen graph's are.

use std::sync::Arc;

use bytes::{Bytes, BytesMut};
use serde_json::Value;

use super::file::{Siblings, decode};
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::io::{Blob, Entry, Quantization};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

/// A `model.json` larger than this is refused (the weights are in the
/// shards; the JSON is the topology and the manifest).
const MAX_JSON: u64 = 1 << 30;

/// One weight: where its bytes are in its group's concatenated shards.
#[derive(Clone, Debug)]
struct Weight {
    group: usize,
    offset: u64,
    len: u64,
    stored: DataType,
}

/// Where an entry's values come from.
#[derive(Clone, Debug)]
enum Source {
    Weight(Weight),
    /// A `Const` of the graph topology, by node name.
    Const(String),
}

/// A TF.js model's weights (and a graph model's other constants).
///
/// ```
/// let m = tftensor::tflite::TfjsModel::open("tests/data/tfjs/plain/model.json")?;
/// assert!(!m.entries().is_empty());
/// let t = m.read(0)?;
/// assert_eq!(t.dtype(), m.entries()[0].dtype);
/// # Ok::<(), tftensor::Error>(())
/// ```
pub struct TfjsModel {
    entries: Vec<Entry>,
    sources: Vec<Source>,
    /// Each group's shards, in order.
    groups: Vec<Vec<Arc<dyn Blob>>>,
    #[cfg(feature = "saved_model")]
    graph: Option<crate::saved_model::GraphConstants>,
    format: String,
}

impl std::fmt::Debug for TfjsModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TfjsModel")
            .field("entries", &self.entries.len())
            .finish_non_exhaustive()
    }
}

fn bad(what: impl Into<String>) -> Error {
    Error::data_loss(format!("not a valid TF.js model.json: {}", what.into()))
}

impl TfjsModel {
    /// Opens the `model.json` at `path` and its shards beside it.
    ///
    /// # Errors
    /// [`Error::Io`]; [`Error::DataLoss`] for a manifest that does not
    /// parse or shards shorter than it says.
    pub fn open(path: impl AsRef<std::path::Path>) -> Result<TfjsModel> {
        let path = path.as_ref();
        let (blob, siblings) = super::file::local_with_siblings(path)?;
        TfjsModel::from_blob(&blob, &siblings)
    }

    /// The model whose `model.json` is `blob`, opening shards by name
    /// with `siblings`.
    pub(crate) fn from_blob(blob: &Arc<dyn Blob>, siblings: &Siblings) -> Result<TfjsModel> {
        let at = |e: Error| e.with_path(blob.id());
        if blob.len() > MAX_JSON {
            return Err(at(bad(format!("{} bytes of JSON", blob.len()))));
        }
        let text = blob.read_all()?;
        let json: Value =
            serde_json::from_slice(&text).map_err(|e| at(bad(format!("JSON: {e}"))))?;
        let manifest = json
            .get("weightsManifest")
            .and_then(Value::as_array)
            .ok_or_else(|| at(bad("no weightsManifest list")))?;
        let mut model = TfjsModel {
            entries: Vec::new(),
            sources: Vec::new(),
            groups: Vec::new(),
            #[cfg(feature = "saved_model")]
            graph: None,
            format: json
                .get("format")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string(),
        };
        for (g, group) in manifest.iter().enumerate() {
            let paths = group
                .get("paths")
                .and_then(Value::as_array)
                .ok_or_else(|| at(bad("a group without paths")))?;
            let shards = paths
                .iter()
                .map(|p| {
                    let name = p
                        .as_str()
                        .ok_or_else(|| at(bad("a path that is not text")))?;
                    siblings(name)
                })
                .collect::<Result<Vec<_>>>()?;
            let total: u64 = shards.iter().map(|s| s.len()).sum();
            model.groups.push(shards);
            let weights = group
                .get("weights")
                .and_then(Value::as_array)
                .ok_or_else(|| at(bad("a group without weights")))?;
            let mut offset = 0u64;
            for w in weights {
                let (entry, weight) = model
                    .weight(w, g, offset)
                    .map_err(|e| at(e).with_offset(offset))?;
                offset = weight
                    .offset
                    .checked_add(weight.len)
                    .filter(|&end| end <= total)
                    .ok_or_else(|| {
                        at(bad(format!(
                            "weight {:?} runs past its group's {total} bytes",
                            entry.name
                        )))
                    })?;
                model.entries.push(entry);
                model.sources.push(Source::Weight(weight));
            }
        }
        #[cfg(feature = "saved_model")]
        if let Some(topology) = json
            .get("modelTopology")
            .filter(|t| t.get("node").is_some())
        {
            let graph = super::tfjs_graph::graph_def(topology).map_err(at)?;
            let consts = crate::saved_model::GraphConstants::from_graph_def(graph).map_err(at)?;
            for c in consts.entries() {
                if model.entries.iter().any(|e| e.name == c.name) {
                    continue;
                }
                let mut e = Entry::new(c.name.clone(), c.dtype, c.shape.clone());
                e.byte_len = c.byte_len;
                model.entries.push(e);
                model.sources.push(Source::Const(c.name.clone()));
            }
            model.graph = Some(consts);
        }
        Ok(model)
    }

    /// A manifest weight at `offset` of group `g`: its entry and place.
    fn weight(&self, w: &Value, g: usize, offset: u64) -> Result<(Entry, Weight)> {
        let name = w
            .get("name")
            .and_then(Value::as_str)
            .ok_or_else(|| bad("a weight without a name"))?;
        let dims = w
            .get("shape")
            .and_then(Value::as_array)
            .ok_or_else(|| bad(format!("{name}: no shape")))?
            .iter()
            .map(|d| {
                d.as_i64()
                    .ok_or_else(|| bad(format!("{name}: a bad dimension")))
            })
            .collect::<Result<Vec<i64>>>()?;
        let shape = TensorShape::new(&dims)?;
        let real = dtype(w.get("dtype").and_then(Value::as_str).unwrap_or(""))
            .ok_or_else(|| bad(format!("{name}: an unknown dtype")))?;
        let quant = w.get("quantization").filter(|q| !q.is_null());
        let stored = match quant {
            Some(q) => dtype(q.get("dtype").and_then(Value::as_str).unwrap_or(""))
                .filter(|d| matches!(*d, DataType::UInt8 | DataType::UInt16 | DataType::Half))
                .ok_or_else(|| bad(format!("{name}: an unknown quantization dtype")))?,
            None => real,
        };
        let mut entry = Entry::new(name, stored, shape.clone());
        if let Some(q) = quant {
            let num = |k: &str| q.get(k).and_then(Value::as_f64);
            let mut params = Quantization::per_tensor(1.0, 0);
            params.zero_point.clear();
            if stored != DataType::Half {
                params.scale = vec![num("scale").ok_or_else(|| bad(format!("{name}: no scale")))?];
                params.min = Some(num("min").ok_or_else(|| bad(format!("{name}: no min")))?);
            }
            params.real_dtype = Some(real);
            entry.quantization = Some(params);
        }
        let n = u64::try_from(shape.num_elements()).unwrap_or(u64::MAX);
        let len = if stored == DataType::String {
            entry.byte_len = None;
            self.strings_len(g, offset, n)?
        } else {
            n.saturating_mul(stored.size() as u64)
        };
        Ok((
            entry,
            Weight {
                group: g,
                offset,
                len,
                stored,
            },
        ))
    }

    /// The bytes of `n` strings at `offset` of group `g` (each a u32
    /// length and its bytes; no strings still take 4 bytes).
    fn strings_len(&self, g: usize, offset: u64, n: u64) -> Result<u64> {
        if n == 0 {
            return Ok(4);
        }
        let mut at = offset;
        for _ in 0..n {
            let word = self.bytes(g, at, 4)?;
            let len = word
                .get(..4)
                .and_then(|w| <[u8; 4]>::try_from(w).ok())
                .map(u32::from_le_bytes)
                .ok_or_else(|| bad("a string length cut short"))?;
            at = at
                .checked_add(4 + u64::from(len))
                .ok_or_else(|| bad("string lengths overflow"))?;
        }
        Ok(at - offset)
    }

    /// `len` bytes at `offset` of group `g`'s concatenated shards: a
    /// slice of one shard, or gathered across shards.
    fn bytes(&self, g: usize, offset: u64, len: u64) -> Result<Bytes> {
        let shards = self.groups.get(g).ok_or_else(|| bad("no such group"))?;
        let (mut start, end) = (offset, offset.saturating_add(len));
        let mut base = 0u64;
        let mut parts = Vec::new();
        for s in shards {
            let (lo, hi) = (base, base + s.len());
            if start < hi && start < end {
                let to = end.min(hi);
                parts.push(s.read_bytes(start - lo..to - lo)?);
                start = to;
            }
            base = hi;
        }
        if start < end {
            return Err(bad(format!("{len} bytes at {offset} run past the shards")));
        }
        match parts.len() {
            1 => parts.pop().ok_or_else(|| bad("no part")),
            _ => {
                let mut all = BytesMut::with_capacity(len as usize);
                parts.iter().for_each(|p| all.extend_from_slice(p));
                Ok(all.freeze())
            }
        }
    }

    /// Every weight (and graph constant), in manifest order.
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The model's `format` (`"graph-model"`, `"layers-model"`, or empty).
    pub fn format(&self) -> &str {
        &self.format
    }

    /// Reads entry `i` as stored (quantized values stay quantized;
    /// [`io::dequantize`](crate::io::dequantize) gives the real ones).
    ///
    /// # Errors
    /// [`Error::NotFound`] for no such entry; [`Error::DataLoss`] for
    /// bytes past the shards.
    pub fn read(&self, i: usize) -> Result<Tensor> {
        let (e, src) = self
            .entries
            .get(i)
            .zip(self.sources.get(i))
            .ok_or_else(|| Error::not_found(format!("no tensor number {i}")))?;
        match src {
            Source::Weight(w) => {
                let bytes = self.bytes(w.group, w.offset, w.len)?;
                if w.stored == DataType::String {
                    return tfjs_strings(&e.shape, &bytes);
                }
                decode(w.stored, &e.shape, bytes)
            }
            #[cfg(feature = "saved_model")]
            Source::Const(name) => match &self.graph {
                Some(g) => g.read(name),
                None => Err(Error::not_found("no graph")),
            },
            #[cfg(not(feature = "saved_model"))]
            Source::Const(_) => Err(Error::not_found("no graph")),
        }
    }
}

/// TF.js's strings: each a u32 length and its bytes.
fn tfjs_strings(shape: &TensorShape, bytes: &Bytes) -> Result<Tensor> {
    let n = usize::try_from(shape.num_elements())
        .map_err(|_| bad("more strings than this machine can address"))?;
    let mut out = crate::buffer::try_vec::<Bytes>(n.min(bytes.len() / 4))?;
    let mut at = 0usize;
    for _ in 0..n {
        let len = bytes
            .get(at..at + 4)
            .and_then(|w| <[u8; 4]>::try_from(w).ok())
            .map(u32::from_le_bytes)
            .ok_or_else(|| bad("a string cut short"))? as usize;
        let s = at + 4;
        if s.checked_add(len).is_none_or(|e| e > bytes.len()) {
            return Err(bad("a string past its weight"));
        }
        out.push(bytes.slice(s..s + len));
        at = s + len;
    }
    Tensor::from_vec(shape.clone(), out)
}

/// A TF.js dtype name's dtype.
fn dtype(name: &str) -> Option<DataType> {
    Some(match name {
        "float32" => DataType::Float,
        "int32" => DataType::Int32,
        "bool" => DataType::Bool,
        "string" => DataType::String,
        "complex64" => DataType::Complex64,
        "uint8" => DataType::UInt8,
        "uint16" => DataType::UInt16,
        "float16" => DataType::Half,
        _ => return None,
    })
}
