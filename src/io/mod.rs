//! One tensor-file layer for every format: [`Format`] says what a path
//! holds, a [`TensorSource`] lists its [`Entry`]s from headers alone and
//! reads them one at a time, a [`TensorSink`] writes atomically, and
//! [`copy`] moves tensors from one to the other. The CLI and the Python
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
//! Adding a format: its module under `src/`, one row in [`Format`], and its
//! source and sink in `src/io/formats/`, behind its cargo feature.

mod copy;
mod detect;
mod format;
mod formats;
mod open;
mod sink;
mod slice;
mod source;
mod staged;

pub use copy::{CopyEvent, CopyOptions, CopyReport, copy, select};
#[cfg(feature = "tfrecord")]
pub use detect::tfrecord_compression;
pub use detect::{Located, detect, output_format};
pub use format::Format;
#[cfg(feature = "events")]
pub use formats::events::select_series;
pub use open::{create, create_as, create_located, locate, open, open_as, open_located};
pub use sink::TensorSink;
pub use source::{Entry, InMemory, OpenOptions, TensorSource};
