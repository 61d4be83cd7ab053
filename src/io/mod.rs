//! One tensor-file layer for every format: a [`Format`] row says what a
//! path holds and how to read and write it, a [`TensorSource`] lists its
//! [`Entry`]s from headers alone and reads them one at a time, a
//! [`TensorSink`] writes atomically, and [`copy`] moves tensors from one to
//! the other. Formats read through a [`Blob`] (a local file, a map, bytes,
//! a zip member, a remote object) from a [`Store`]. The CLI and the Python
//! module are fronts over this module and hold no format knowledge.
//!
//! ```
//! use tftensor::io::{self, TensorSource};
//! let mut src = io::open("tests/data/checkpoints/tf2_keras")?;
//! for e in src.entries() {
//!     println!("{} {} {}", e.name, e.dtype, e.shape);
//! }
//! let t = src.read(0)?;
//! assert_eq!(t.dtype(), src.entries()[0].dtype);
//! # Ok::<(), tftensor::Error>(())
//! ```
//!
//! Adding a format: its module under `src/`, one adapter file in
//! `src/io/formats/` holding its row and its source and sink, and the
//! row's line in that folder's `mod.rs`, behind its cargo feature.

mod blob;
mod compression;
mod copy;
mod detect;
mod format;
mod formats;
mod glob;
mod located;
mod open;
mod options;
mod probe;
mod quantization;
#[cfg(feature = "remote")]
mod remote;
mod row;
mod sink;
mod slice;
mod source;
mod staged;
mod store;
mod url;

pub use blob::{
    Blob, BlobReader, BytesBlob, Checksum, LocalFile, RangeRead, SharedBlobReader, Window,
};
pub use compression::Compression;
pub use copy::{CopyEvent, CopyOptions, CopyProgress, CopyReport, copy, dequantize, select};
pub use detect::{detect, detect_in, locate, locate_output};
pub use format::Format;
#[cfg(feature = "events")]
pub use formats::events::select_series;
pub use glob::{expand, expand_with};
pub use located::Located;
pub use open::{
    create, create_as, create_located, create_with, open, open_as, open_located, open_with,
};
pub use options::{CreateOptions, OpenOptions, RemoteOptions};
pub use quantization::{Blockwise, Quantization};
pub use sink::TensorSink;
pub use source::{Entry, InMemory, TensorSource};
#[cfg_attr(not(feature = "tfrecord"), allow(unused_imports))]
pub(crate) use staged::write_whole;
pub use store::{Item, LocalFs, Stat, Store};
#[cfg_attr(not(feature = "tfrecord"), allow(unused_imports))]
pub(crate) use url::open_blob;
