//! `.keras` archives: a zip holding `model.weights.h5`, `config.json` and
//! `metadata.json`. The zip is read through the archive's byte source; a
//! STORED member (as Keras writes `model.weights.h5`) is a [`Window`] of
//! it, read in place by range; a deflated one is inflated into memory.

use std::io::Read;
use std::sync::Arc;

use super::invalid;
use crate::error::{Error, Result};
use crate::io::{Blob, BytesBlob, Window};

/// Deflated members larger than this are refused (Keras' bomb guard
/// rejects members over 4 GiB with a ratio over 100).
const MAX_INFLATED: u64 = 4 << 30;

/// Text members larger than this are refused (real configs are kilobytes).
const MAX_TEXT: u64 = 64 << 20;

/// The zip over `blob`.
type Zip<'b> = zip::ZipArchive<crate::io::BlobReader<'b>>;

/// Text members, as (name, text).
type Texts = Vec<(String, String)>;

/// The archive's weights (`model.weights.h5`) as a blob, and its
/// `config.json` and `metadata.json` as text.
///
/// # Errors
/// [`Error::InvalidFormat`] for anything that is not a Keras 3 archive of
/// HDF5 weights; [`Error::DataLoss`] for a member that runs past the end
/// of the archive or does not inflate.
pub(super) fn open(blob: &Arc<dyn Blob>) -> Result<(Arc<dyn Blob>, Texts)> {
    let name = blob.id();
    let mut zip = zip::ZipArchive::new(blob.reader())
        .map_err(|e| invalid(name, format!("not a readable zip: {e}")))?;
    if zip.index_for_name("model.weights.npz").is_some() {
        return Err(invalid(
            name,
            "the npz variant of .keras (pickled object arrays) is not supported; \
             re-save with weights_format=\"h5\"",
        ));
    }
    let mut metadata = Vec::new();
    for text in ["config.json", "metadata.json"] {
        let Some(member) = member(&mut zip, blob, text, MAX_TEXT)? else {
            continue;
        };
        let bytes = member.read_all()?;
        let s = std::str::from_utf8(&bytes)
            .map_err(|e| invalid(name, format!("{text}: {e}")).with_key(text))?;
        metadata.push((text.to_owned(), s.to_owned()));
    }
    let weights = member(&mut zip, blob, "model.weights.h5", MAX_INFLATED)?
        .ok_or_else(|| invalid(name, "no model.weights.h5 member (not a Keras 3 archive)"))?;
    Ok((weights, metadata))
}

/// The member `member` of the zip over `blob`, as a blob: a [`Window`] of
/// the archive when STORED, else inflated into memory (at most `max`
/// bytes, and at most what the deflate ratio allows). `None` when there
/// is no such member.
///
/// # Errors
/// As [`open`].
fn member(
    zip: &mut Zip<'_>,
    blob: &Arc<dyn Blob>,
    member: &str,
    max: u64,
) -> Result<Option<Arc<dyn Blob>>> {
    let name = blob.id();
    let mut m = match zip.by_name(member) {
        Ok(m) => m,
        Err(zip::result::ZipError::FileNotFound) => return Ok(None),
        Err(e) => return Err(invalid(name, e).with_key(member)),
    };
    let size = m.size();
    let id = format!("{name}:{member}");
    if m.compression() == zip::CompressionMethod::Stored {
        let start = m
            .data_start()
            .ok_or_else(|| invalid(name, "the member has no data offset").with_key(member))?;
        let window = Window::new(blob.clone(), start, size, id)
            .map_err(|e| e.with_path(name).with_key(member))?;
        return Ok(Some(Arc::new(window)));
    }
    if size > max || size > m.compressed_size().saturating_mul(1100) {
        return Err(invalid(name, format!("the member inflates to {size} bytes")).with_key(member));
    }
    // Bounded by `max` above.
    let mut data = crate::buffer::try_vec::<u8>(size as usize)?;
    m.by_ref().take(size).read_to_end(&mut data).map_err(|e| {
        Error::data_loss(format!("keras: the member does not inflate: {e}"))
            .with_path(name)
            .with_key(member)
    })?;
    if data.len() as u64 != size {
        return Err(Error::data_loss(format!(
            "keras: the member inflates to {} bytes, not the {size} its header says",
            data.len()
        ))
        .with_path(name)
        .with_key(member));
    }
    Ok(Some(Arc::new(BytesBlob::new(id, data))))
}
