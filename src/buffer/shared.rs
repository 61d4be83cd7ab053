//! A byte region of a root buffer handed out as a [`Bytes`] that shares it
//! (no copy): how `AsProtoTensorContent` gives out a POD tensor's bytes.

use std::ops::Range;
use std::sync::Arc;

use bytes::Bytes;

use super::Root;

/// Keeps a root buffer alive for a [`Bytes`] over its region.
struct SharedRegion {
    root: Arc<Root>,
    range: Range<usize>,
}

impl AsRef<[u8]> for SharedRegion {
    #[allow(
        clippy::unreachable,
        reason = "share_bytes checked the range, and a shared root never changes"
    )]
    fn as_ref(&self) -> &[u8] {
        match self.root.bytes().and_then(|b| b.get(self.range.clone())) {
            Some(bytes) => bytes,
            // An empty slice here would be a plausible wrong answer.
            None => unreachable!("SharedRegion outside its byte root (a tftensor bug)"),
        }
    }
}

impl Root {
    /// `range` of this byte root as a [`Bytes`] sharing it: a slice of the
    /// input for a root that adopted external bytes, otherwise an owner
    /// holding a reference to the root. A tensor's copy-on-write sees that
    /// reference, so a later write through the tensor copies first and the
    /// `Bytes` never changes. `None` for typed roots and ranges outside the
    /// root.
    pub(crate) fn share_bytes(self: &Arc<Self>, range: Range<usize>) -> Option<Bytes> {
        match self.external_bytes() {
            Some(b) => (range.start <= range.end && range.end <= b.len()).then(|| b.slice(range)),
            None => {
                self.bytes()?.get(range.clone())?;
                Some(Bytes::from_owner(SharedRegion {
                    root: Arc::clone(self),
                    range,
                }))
            }
        }
    }
}
