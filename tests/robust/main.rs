//! The never-panics sweep: malformed and hostile input to every decoder
//! gives `Ok` or `Err`, never a panic, and never allocates more than the
//! input justifies.
//!
//! Modules: `arrow` (tf.Example records to Arrow, mutated; fixed_shape_tensor
//! metadata JSON), `proto` (TensorProto bytes: mutated conformance vectors,
//! structural attacks, huge shapes, nested variants), `formats` (`.npy`,
//! `.npz`, `.safetensors`), `tfrecord` (records, tensors and `Example`s in
//! every compression), `checkpoint` (tensor bundles: index and data), `events`
//! (TensorBoard event files, cut and changed), `saved_model` (SavedModel and
//! frozen GraphDef protos), `dlpack` (foreign
//! tensors that describe their elements wrongly),
//! `props` (random tensors sliced at any index and
//! summarized with any `max_entries`; random and mutated TensorProto bytes).
//!
//! Allocation is measured with the tracking allocator installed as this
//! binary's global allocator.

mod arrow;
mod checkpoint;
mod dlpack;
mod events;
mod formats;
mod keras;
mod props;
mod proto;
mod saved_model;
mod tfrecord;
