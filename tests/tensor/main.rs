//! The tensor itself: construction and allocation, scalars, reshape and
//! flat views, slicing, bit-casting, strings, and the faults issue 11 fixed.
//!
//! Modules: `construct` (constructors, allocators, scalars), `tf_port`
//! (TF's `tensor_test.cc`, with TF's test names), `faults` (one test per
//! fault of the core v2 issue), `props` (slicing and bit-casting checked
//! against ndarray on random tensors of every dtype).

#[path = "../common/arb.rs"]
mod arb;
#[path = "../common/mod.rs"]
mod common;

mod construct;
mod faults;
mod props;
mod tf_port;
