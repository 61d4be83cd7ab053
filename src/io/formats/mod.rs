//! Each format's [`TensorSource`](super::TensorSource) and
//! [`TensorSink`](super::TensorSink), behind its cargo feature.

#[cfg(feature = "checkpoint")]
pub(crate) mod checkpoint;
#[cfg(feature = "npy")]
pub(crate) mod npy;
#[cfg(feature = "safetensors")]
pub(crate) mod safetensors;
pub(crate) mod tensorproto;
#[cfg(feature = "tfrecord")]
pub(crate) mod tfrecord;
