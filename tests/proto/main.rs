//! The TensorProto codec: `as_proto_field` / `as_proto_tensor_content` and
//! `from_proto` / `decode` (TF's `AsProtoField`, `AsProtoTensorContent`,
//! `FromProto`), the caller's allocator, `compress_tensor_proto_in_place`,
//! and C++ protobuf's wire-type leniency.
//!
//! Modules: `as_proto` (encoding, TF's TestCopies round trips),
//! `from_proto` (decoding rules), `allocator` (`from_proto_in`),
//! `compress`, `wire_types` (against TF 2.21's `parse_tensor`).

mod allocator;
mod as_proto;
mod compress;
mod from_proto;
mod props;
mod wire_types;
