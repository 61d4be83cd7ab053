//! The tensor itself: construction and allocation, scalars, reshape and
//! flat views, slicing, bit-casting, strings, conversions, misaligned data
//! and writing through borrowed slices.
//!
//! Modules: `construct` (constructors, allocators, scalars), `tf_port`
//! (TF's `tensor_test.cc`, with TF's test names), `convert` (`Vec` and
//! ndarray conversions), `misaligned` (element data at an odd address),
//! `slice_mut` (`TensorMut` sub-tensors that write into the parent),
//! `props` (slicing and bit-casting checked against ndarray on random
//! tensors of every dtype).

mod construct;
mod convert;
mod misaligned;
mod props;
mod slice_mut;
mod tf_port;
