//! Generates the TensorFlow protobuf types (`src/pb.rs` includes them).
//!
//! Uses the pure-Rust `protox` compiler so building needs no system `protoc`
//! and no network.

use std::path::PathBuf;

/// The `.proto` files to compile, relative to `proto/`.
const PROTOS: [&str; 18] = [
    "tensorflow/core/example/example.proto",
    "tensorflow/core/example/feature.proto",
    "tensorflow/core/framework/allocation_description.proto",
    "tensorflow/core/framework/resource_handle.proto",
    "tensorflow/core/framework/tensor.proto",
    "tensorflow/core/framework/tensor_description.proto",
    "tensorflow/core/framework/tensor_shape.proto",
    "tensorflow/core/framework/tensor_slice.proto",
    "tensorflow/core/framework/types.proto",
    "tensorflow/core/framework/versions.proto",
    "tensorflow/core/protobuf/tensor_bundle.proto",
    "tensorflow/core/framework/histogram.proto",
    "tensorflow/core/framework/summary.proto",
    "tensorflow/core/util/event.proto",
    "tensorboard/plugins/histogram/plugin_data.proto",
    "tensorboard/plugins/image/plugin_data.proto",
    "tensorboard/plugins/scalar/plugin_data.proto",
    "tensorboard/plugins/text/plugin_data.proto",
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
        .compile_fds(fds)?;
    Ok(())
}
