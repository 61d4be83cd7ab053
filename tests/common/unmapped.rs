//! A blob whose bytes are in memory but that says they are not: every
//! read goes through `read_at`, as a file's or a remote object's does
//! (so readers take their read path, not slices of a map). Shared by
//! `tests/tflite.rs` and the `tflite` fuzz target.

use tftensor::io::{Blob, BytesBlob};

/// Bytes read through `read_at` only.
#[derive(Debug)]
pub struct Unmapped(pub BytesBlob);

impl Blob for Unmapped {
    fn id(&self) -> &str {
        self.0.id()
    }
    fn len(&self) -> u64 {
        self.0.len()
    }
    fn read_at(&self, offset: u64, dst: &mut [u8]) -> tftensor::Result<()> {
        self.0.read_at(offset, dst)
    }
}
