//! `.keras` archives: a zip holding `model.weights.h5` (read in place when
//! STORED, as Keras writes it), `config.json` and `metadata.json`.

use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;

use super::invalid;
use crate::error::{Error, Result};
use crate::hdf5::Source;

/// Deflated members larger than this are refused (Keras' bomb guard
/// rejects members over 4 GiB with a ratio over 100).
const MAX_INFLATED: u64 = 4 << 30;

pub(super) fn open(path: &Path) -> Result<(Source, Vec<(String, String)>)> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| Error::io(&name, &e))?;
    let len = file.metadata().map_err(|e| Error::io(&name, &e))?.len();
    let mut zip = zip::ZipArchive::new(file.try_clone().map_err(|e| Error::io(&name, &e))?)
        .map_err(|e| invalid(path, format!("not a readable zip: {e}")))?;
    if zip.index_for_name("model.weights.npz").is_some() {
        return Err(invalid(
            path,
            "the npz variant of .keras (pickled object arrays) is not supported; \
             re-save with weights_format=\"h5\"",
        ));
    }
    let mut metadata = Vec::new();
    for member in ["config.json", "metadata.json"] {
        let mut m = match zip.by_name(member) {
            Ok(m) => m,
            Err(zip::result::ZipError::FileNotFound) => continue,
            Err(e) => return Err(invalid(path, format!("{member}: {e}"))),
        };
        {
            if m.size() > 64 << 20 {
                return Err(invalid(path, format!("{member} is {} bytes", m.size())));
            }
            let mut text = String::new();
            m.read_to_string(&mut text)
                .map_err(|e| invalid(path, format!("{member}: {e}")))?;
            metadata.push((member.to_owned(), text));
        }
    }
    let mut m = zip
        .by_name("model.weights.h5")
        .map_err(|_| invalid(path, "no model.weights.h5 member (not a Keras 3 archive)"))?;
    let size = m.size();
    let src = match m.compression() {
        zip::CompressionMethod::Stored => {
            let start = m
                .data_start()
                .ok_or_else(|| invalid(path, "model.weights.h5: no data offset"))?;
            if start.checked_add(size).is_none_or(|end| end > len) {
                return Err(Error::data_loss(
                    "keras: model.weights.h5 runs past the end of the archive",
                )
                .with_path(name));
            }
            Source::File {
                file: Arc::new(file),
                start,
                len: size,
                name: format!("{name}:model.weights.h5"),
            }
        }
        _ => {
            if size > MAX_INFLATED || size > m.compressed_size().saturating_mul(1100) {
                return Err(invalid(
                    path,
                    format!("model.weights.h5 inflates to {size} bytes"),
                ));
            }
            let mut data = crate::buffer::try_vec::<u8>(size as usize)?;
            m.by_ref().take(size).read_to_end(&mut data).map_err(|e| {
                Error::data_loss(format!("keras: model.weights.h5: {e}")).with_path(name)
            })?;
            Source::Bytes(Bytes::from(data))
        }
    };
    Ok((src, metadata))
}
