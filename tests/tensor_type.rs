//! The tensor type itself, over every element type: dtypes, shapes,
//! construction, ndarray views, copy-on-write sharing, `TypedTensor`,
//! threads and printing. One binary, each file a module; the formats are
//! `tests/formats.rs`, and tests that measure the whole process have
//! binaries of their own (`alloc_failure`, `memory`, `read_pool`,
//! `dlpack_exports`). Two binaries rather than one let the two compile at
//! once. Run one file's tests with `cargo test --test tensor_type views::`.
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

#[path = "dtype/main.rs"]
mod dtype;
mod shape;
mod sharing;
#[path = "summary/main.rs"]
mod summary;
#[path = "tensor/main.rs"]
mod tensor;
mod threads;
mod typed;
mod views;
