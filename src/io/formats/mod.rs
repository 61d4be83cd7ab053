//! Each format's [`TensorSource`](super::TensorSource) and
//! [`TensorSink`](super::TensorSink), behind its cargo feature.

#[cfg(feature = "checkpoint")]
pub(crate) mod checkpoint;
#[cfg(feature = "events")]
pub(crate) mod events;
#[cfg(feature = "saved_model")]
pub(crate) mod graph_def;
#[cfg(feature = "keras")]
pub(crate) mod keras;
#[cfg(feature = "npy")]
pub(crate) mod npy;
#[cfg(feature = "safetensors")]
pub(crate) mod safetensors;
pub(crate) mod tensorproto;
#[cfg(feature = "tfrecord")]
pub(crate) mod tfrecord;
