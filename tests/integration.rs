//! The integration tests, as one binary: each file below is a module, so
//! `cargo test` compiles and links the shared helpers and the library's
//! generic code once, not once per file, and runs every test on all cores.
//! Run one file's tests with `cargo test --test integration views::`.
//!
//! Tests that measure the whole process (its allocator, its memory, a
//! process-wide counter) keep binaries of their own: `alloc_failure`,
//! `memory`, `read_pool`, `dlpack_exports`, and the feature-gated
//! `device`, `arrow`, `arrow_stream` and `remote`.
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
#[path = "dtype/main.rs"]
mod dtype;
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
mod shape;
mod sharing;
#[path = "summary/main.rs"]
mod summary;
#[path = "tensor/main.rs"]
mod tensor;
mod tflite;
mod tfrecord;
#[cfg(feature = "tfrecord")]
mod tfrecord_index;
mod threads;
mod typed;
mod views;
