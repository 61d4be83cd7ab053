//! TensorFlow SavedModels and frozen GraphDefs, read without TensorFlow.
//!
//! * [`SavedModel::open`] reads `saved_model.pb` (and `fingerprint.pb`):
//!   the meta graphs with their tag sets, the [`Signature`]s with their
//!   [`TensorInfo`]s, the fingerprint, the object graph's concrete
//!   function names. Each meta graph's `graph_def` is neither read nor
//!   decoded up front: its place in the file is noted, and
//!   [`MetaGraph::graph_def`], [`MetaGraph::ops`] or
//!   [`MetaGraph::constants`] read it when asked.
//! * [`SavedModel::show_all`] and friends print what TF 2.21's
//!   `saved_model_cli show` prints, byte for byte, up to (not including)
//!   its "Concrete Functions" section, which needs a TF runtime. The ops
//!   line prints TF's Python set sorted (Python's order is random per run).
//! * [`GraphConstants`] lists the `Const` tensors of a frozen `GraphDef`
//!   or of a SavedModel's graph and function library, and decodes them on
//!   demand, equal to `tf.make_ndarray(node.attr["value"].tensor)`.
//!
//! ```no_run
//! use tftensor::saved_model::{GraphConstants, SavedModel};
//!
//! let model = SavedModel::open("my_model")?;
//! for mg in model.meta_graphs() {
//!     for (key, sig) in mg.signatures() {
//!         println!("{:?} {key}: {} inputs", mg.tags(), sig.inputs().len());
//!     }
//! }
//! print!("{}", model.show_all()?);
//!
//! let consts = GraphConstants::open("frozen.pb")?;
//! for e in consts.entries() {
//!     let t = consts.read(&e.name)?;
//!     println!("{} {} {}", e.name, t.dtype(), t.shape());
//! }
//! # Ok::<(), tftensor::Error>(())
//! ```

mod constants;
mod meta_graph;
mod open;
mod ops;
mod py;
mod scan;
mod show;
mod signature;
mod slim;

pub use constants::{ConstEntry, GraphConstants};
pub use meta_graph::MetaGraph;
pub use open::SavedModel;
pub use signature::{Signature, TensorEncoding, TensorInfo};

use crate::error::Error;
use std::fmt::Display;

/// The file name of a binary SavedModel inside its directory.
pub const SAVED_MODEL_FILENAME_PB: &str = "saved_model.pb";
/// The file name of a text-format SavedModel (not read by this crate).
pub const SAVED_MODEL_FILENAME_PBTXT: &str = "saved_model.pbtxt";
/// The file name of a chunked (proto-splitter) SavedModel (not read).
pub const SAVED_MODEL_FILENAME_CPB: &str = "saved_model.cpb";
/// The file name of the fingerprint beside `saved_model.pb`.
pub const FINGERPRINT_FILENAME: &str = "fingerprint.pb";

/// A SavedModel or GraphDef that is not valid, with the file as a field.
fn invalid(path: impl Display, message: impl Display) -> Error {
    Error::invalid_format("saved_model", message.to_string()).with_path(path)
}

/// Something in a SavedModel or GraphDef that is not valid, where the
/// caller adds the location (a node's name as the key).
fn invalid_here(message: impl Display) -> Error {
    Error::invalid_format("saved_model", message.to_string())
}

/// Something asked for (a file, tag set, signature, constant) is absent.
fn not_found(message: impl Display) -> Error {
    Error::not_found(message.to_string())
}
