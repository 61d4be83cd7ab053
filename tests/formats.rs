//! The formats and the I/O layer: TensorProto (TF's conformance vectors,
//! limits), DLPack, checkpoints, TFRecord, events, Keras, `.npy`,
//! safetensors, SavedModel, TFLite, `io`, and the never-panics sweeps over
//! all of them. One binary, each file a module; the tensor type is
//! `tests/tensor_type.rs`, and tests that measure the whole process have
//! binaries of their own. Run one file's tests with
//! `cargo test --test formats robust::`.
//!
//! Allocation is measured with the tracking allocator installed as this
//! binary's global allocator; tests read their own thread's count
//! (`TrackingAllocator::thread_allocated_bytes`), so they may run at once.

#[global_allocator]
static GLOBAL: tftensor::TrackingAllocator = tftensor::TrackingAllocator::new();

#[macro_use]
mod common;
#[path = "common/arb.rs"]
mod arb;
#[path = "common/sha256.rs"]
mod sha256;

mod checkpoint;
mod conformance;
#[cfg(feature = "dlpack")]
mod dlpack;
mod events;
#[cfg(all(
    feature = "checkpoint",
    feature = "events",
    feature = "keras",
    feature = "npy",
    feature = "safetensors",
    feature = "saved_model",
    feature = "tfrecord"
))]
#[path = "io/main.rs"]
mod io;
#[path = "keras/main.rs"]
mod keras;
mod limits;
mod npy;
#[path = "proto/main.rs"]
mod proto;
mod read_once;
#[path = "robust/main.rs"]
mod robust;
mod safetensors;
mod saved_model;
mod tflite;
mod tfrecord;
#[cfg(feature = "tfrecord")]
mod tfrecord_index;
