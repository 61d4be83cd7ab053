//! Generates the TensorFlow protobuf types (`src/pb.rs` includes them).
//!
//! Uses the pure-Rust `protox` compiler so building needs no system `protoc`
//! and no network.

use std::path::PathBuf;

/// The `.proto` files to compile, relative to `proto/`.
const PROTOS: [&str; 33] = [
    "tensorflow/core/example/example.proto",
    "tensorflow/core/example/feature.proto",
    "tensorflow/core/framework/allocation_description.proto",
    "tensorflow/core/framework/attr_value.proto",
    "tensorflow/core/framework/full_type.proto",
    "tensorflow/core/framework/function.proto",
    "tensorflow/core/framework/graph.proto",
    "tensorflow/core/framework/graph_debug_info.proto",
    "tensorflow/core/framework/node_def.proto",
    "tensorflow/core/framework/op_def.proto",
    "tensorflow/core/framework/resource_handle.proto",
    "tensorflow/core/framework/tensor.proto",
    "tensorflow/core/framework/tensor_description.proto",
    "tensorflow/core/framework/tensor_shape.proto",
    "tensorflow/core/framework/tensor_slice.proto",
    "tensorflow/core/framework/types.proto",
    "tensorflow/core/framework/variable.proto",
    "tensorflow/core/framework/versions.proto",
    "tensorflow/core/protobuf/fingerprint.proto",
    "tensorflow/core/protobuf/meta_graph.proto",
    "tensorflow/core/protobuf/saved_model.proto",
    "tensorflow/core/protobuf/saved_object_graph.proto",
    "tensorflow/core/protobuf/saver.proto",
    "tensorflow/core/protobuf/struct.proto",
    "tensorflow/core/protobuf/tensor_bundle.proto",
    "tensorflow/core/framework/histogram.proto",
    "tensorflow/core/framework/summary.proto",
    "tensorflow/core/util/event.proto",
    "tensorboard/plugins/histogram/plugin_data.proto",
    "tensorboard/plugins/image/plugin_data.proto",
    "tensorboard/plugins/scalar/plugin_data.proto",
    "tensorboard/plugins/text/plugin_data.proto",
    "tensorflow/core/protobuf/trackable_object_graph.proto",
];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?).join("proto");
    println!("cargo:rerun-if-changed={}", root.display());

    let fds = protox::compile(PROTOS, [&root])?;
    prost_build::Config::new()
        // `Bytes` lets tensor_content and string values be sliced without copying.
        .bytes(["."])
        // Sorted maps, so an encoded `Features` is deterministic.
        .btree_map(["."])
        // The two well-known types the SavedModel protos use (`Any`,
        // `BoolValue`) are written by hand in `src/pb.rs`, so no new dependency.
        .compile_well_known_types()
        .extern_path(".google.protobuf", "crate::pb::wkt")
        .compile_fds(fds)?;
    Ok(())
}
