//! TensorBoard's migration of a summary value to a tensor: first
//! `data_compat.migrate_value` (TF1 `simple_value`, `histo`, `image`,
//! `audio` become tensors with their plugin's metadata), then
//! `dataclass_compat._migrate_value` (the data class, from the first
//! metadata of the tag in the run).

use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;
use prost::Message;

use super::{
    Kind, PLUGIN_AUDIO, PLUGIN_HISTOGRAMS, PLUGIN_HPARAMS, PLUGIN_IMAGES, PLUGIN_KERAS_MODEL,
    PLUGIN_RUN_METADATA, PLUGIN_RUN_METADATA_GRAPH, PLUGIN_SCALARS, PLUGIN_TEXT,
};
use crate::pb::{self, summary::value::Value as Oneof};
use crate::{Error, Tensor};

/// What TensorBoard keeps of the first metadata of a tag in a run.
#[derive(Clone, Debug)]
pub(super) struct TagInfo {
    pub kind: Kind,
    pub plugin_name: Arc<str>,
    /// The data class as written (`Unknown` when unset).
    pub written_class: pb::DataClass,
    /// The data class as TensorBoard takes it.
    pub data_class: pb::DataClass,
}

impl TagInfo {
    pub fn new(metadata: Option<&pb::SummaryMetadata>) -> TagInfo {
        let plugin_name = metadata
            .and_then(|m| m.plugin_data.as_ref())
            .map_or("", |p| p.plugin_name.as_str());
        // An unknown enum number is as good as unset: TensorBoard's Python
        // compares it with DATA_CLASS_UNKNOWN only.
        let written_class = metadata
            .and_then(|m| pb::DataClass::try_from(m.data_class).ok())
            .unwrap_or(pb::DataClass::Unknown);
        let data_class = match written_class {
            pb::DataClass::Unknown => inferred_class(plugin_name),
            known => known,
        };
        TagInfo {
            kind: Kind::from_plugin(plugin_name, data_class),
            plugin_name: Arc::from(plugin_name),
            written_class,
            data_class,
        }
    }
}

/// The data class `dataclass_compat.py` gives a plugin's values.
fn inferred_class(plugin_name: &str) -> pb::DataClass {
    match plugin_name {
        PLUGIN_SCALARS => pb::DataClass::Scalar,
        PLUGIN_HISTOGRAMS | PLUGIN_TEXT | PLUGIN_HPARAMS | "pr_curves" | "mesh"
        | "custom_scalars" => pb::DataClass::Tensor,
        PLUGIN_IMAGES
        | PLUGIN_AUDIO
        | PLUGIN_RUN_METADATA
        | PLUGIN_RUN_METADATA_GRAPH
        | PLUGIN_KERAS_MODEL => pb::DataClass::BlobSequence,
        _ => pb::DataClass::Unknown,
    }
}

/// A value's tensor after `data_compat`: still a proto, or built here.
// One lives on the stack per value; boxing the proto would allocate per value.
#[allow(clippy::large_enum_variant)]
enum Payload {
    Proto(pb::TensorProto),
    Built(Tensor),
}

/// Migrates one value. `Ok(None)` for a value TensorBoard stores no tensor
/// for (no value, or the obsolete histogram field). With `decode` false the
/// tensor is not decoded (an empty tensor stands in), for listings.
pub(super) fn migrate_value(
    value: pb::summary::Value,
    tags: &mut HashMap<Arc<str>, TagInfo>,
    decode: bool,
) -> std::result::Result<Option<(Arc<str>, TagInfo, Tensor)>, String> {
    let pb::summary::Value {
        node_name,
        tag,
        metadata,
        value,
    } = value;
    // EventAccumulator files a value without a tag under its node name.
    let tag = if tag.is_empty() { node_name } else { tag };
    let (metadata, payload) = match value {
        Some(Oneof::Tensor(t)) => (metadata, Some(Payload::Proto(t))),
        Some(Oneof::SimpleValue(v)) => (
            Some(migrated_metadata(
                PLUGIN_SCALARS,
                Bytes::new(),
                &tag,
                metadata.as_ref(),
            )),
            Some(Payload::Built(Tensor::from(v))),
        ),
        Some(Oneof::Histo(h)) => (
            Some(migrated_metadata(
                PLUGIN_HISTOGRAMS,
                Bytes::new(),
                &tag,
                metadata.as_ref(),
            )),
            Some(Payload::Built(if decode {
                histogram(&h)?
            } else {
                Tensor::default()
            })),
        ),
        Some(Oneof::Image(img)) => {
            let content = pb::tensorboard::ImagePluginData {
                version: 0,
                converted_to_tensor: true,
            };
            let blobs = vec![
                Bytes::from(img.width.to_string()),
                Bytes::from(img.height.to_string()),
                img.encoded_image_string,
            ];
            (
                Some(migrated_metadata(
                    PLUGIN_IMAGES,
                    Bytes::from(content.encode_to_vec()),
                    &tag,
                    metadata.as_ref(),
                )),
                Some(Payload::Built(strings(&[3], blobs)?)),
            )
        }
        Some(Oneof::Audio(a)) => {
            // AudioPluginData { encoding: WAV (11), converted_to_tensor: true }.
            let content = Bytes::from_static(&[0x10, 11, 0x18, 1]);
            let blobs = vec![a.encoded_audio_string, Bytes::new()];
            (
                Some(migrated_metadata(
                    PLUGIN_AUDIO,
                    content,
                    &tag,
                    metadata.as_ref(),
                )),
                Some(Payload::Built(strings(&[1, 2], blobs)?)),
            )
        }
        Some(Oneof::ObsoleteOldStyleHistogram(_)) | None => (metadata, None),
    };

    let (tag, info) = match tags.get_key_value(tag.as_str()) {
        Some((tag, info)) => (tag.clone(), info.clone()),
        None => {
            let info = TagInfo::new(metadata.as_ref());
            let tag: Arc<str> = Arc::from(tag);
            tags.insert(tag.clone(), info.clone());
            (tag, info)
        }
    };
    let tensor = match payload {
        None if info.written_class == pb::DataClass::Unknown
            && &*info.plugin_name == PLUGIN_HPARAMS =>
        {
            // hparams' NULL_TENSOR: float32 of shape [0].
            Tensor::from_vec([0], Vec::<f32>::new()).map_err(|e| e.to_string())?
        }
        None => return Ok(None),
        Some(_) if !decode => Tensor::default(),
        Some(Payload::Built(t)) => t,
        Some(Payload::Proto(p)) => Tensor::from_proto(&p).map_err(|e| e.to_string())?,
    };
    let tensor = if decode && info.written_class == pb::DataClass::Unknown {
        match &*info.plugin_name {
            PLUGIN_AUDIO => first_column(tensor)?,
            PLUGIN_RUN_METADATA | PLUGIN_RUN_METADATA_GRAPH | PLUGIN_KERAS_MODEL
                if tensor.dims() == 0 =>
            {
                let mut padded = Tensor::default();
                // A scalar always reshapes to [1].
                if !padded.copy_from(&tensor, [1]) {
                    return Err(format!("tag {tag:?}: cannot pad a scalar to [1]"));
                }
                padded
            }
            _ => tensor,
        }
    } else {
        tensor
    };
    Ok(Some((tag, info, tensor)))
}

/// The metadata `data_compat` gives a migrated TF1 value: the plugin's,
/// with the old display name (or the tag) and description.
fn migrated_metadata(
    plugin: &str,
    content: Bytes,
    tag: &str,
    old: Option<&pb::SummaryMetadata>,
) -> pb::SummaryMetadata {
    let display_name = old.map_or("", |m| m.display_name.as_str());
    pb::SummaryMetadata {
        plugin_data: Some(pb::summary_metadata::PluginData {
            plugin_name: plugin.to_owned(),
            content,
        }),
        display_name: if display_name.is_empty() {
            tag
        } else {
            display_name
        }
        .to_owned(),
        // As data_compat.py: no old metadata, an empty description.
        summary_description: old
            .map(|m| m.summary_description.clone())
            .unwrap_or_default(),
        data_class: 0,
    }
}

/// `data_compat._migrate_histogram_value`: float32 `[k, 3]` rows of
/// `(left, right, count)`, empty buckets at both ends dropped, `min` and
/// `max` as the outer edges.
fn histogram(h: &pb::HistogramProto) -> std::result::Result<Tensor, String> {
    let counts = &h.bucket;
    let Some(start) = counts.iter().position(|&c| c > 0.0) else {
        return Tensor::from_vec([0, 3], Vec::<f32>::new()).map_err(|e| e.to_string());
    };
    // A non-empty bucket exists (`start`), so rposition finds one.
    let end = counts.iter().rposition(|&c| c > 0.0).unwrap_or(start);
    let (Some(kept), Some(inner)) = (counts.get(start..=end), h.bucket_limit.get(start..end))
    else {
        return Err(format!(
            "a histogram with {} buckets has {} bucket limits",
            counts.len(),
            h.bucket_limit.len()
        ));
    };
    let lefts = std::iter::once(h.min).chain(inner.iter().copied());
    let rights = inner.iter().copied().chain(std::iter::once(h.max));
    let mut rows = Vec::with_capacity(kept.len() * 3);
    for ((l, r), c) in lefts.zip(rights).zip(kept) {
        // numpy's float64 -> float32 cast: round to nearest.
        rows.extend([l as f32, r as f32, *c as f32]);
    }
    Tensor::from_vec([kept.len() as i64, 3], rows).map_err(|e| e.to_string())
}

fn strings(shape: &[i64], blobs: Vec<Bytes>) -> std::result::Result<Tensor, String> {
    Tensor::from_vec(shape, blobs).map_err(|e| e.to_string())
}

/// `dataclass_compat._migrate_audio_value`: keep the clips (column 0) of a
/// `[n, ...]` string tensor.
fn first_column(t: Tensor) -> std::result::Result<Tensor, String> {
    if t.dims() <= 1 {
        return Ok(t);
    }
    let rows = t.dim_size(0).map_err(|e| e.to_string())?;
    let all = t
        .as_slice::<Bytes>()
        .map_err(|e: Error| format!("audio: {e}"))?;
    let stride = all.len() / usize::try_from(rows.max(1)).map_err(|e| e.to_string())?;
    let clips: Vec<Bytes> = all.iter().step_by(stride.max(1)).cloned().collect();
    strings(&[clips.len() as i64], clips)
}
