//! TensorFlow's protobuf messages, generated from the `.proto` files under
//! `proto/tensorflow/core/framework/` by `build.rs`.
//!
//! Field names, numbers and packing match TensorFlow exactly, so bytes
//! written by TensorFlow decode here and [`prost::Message::encode_to_vec`]
//! writes fields in the same order TensorFlow's C++ code does.
//!
//! ```
//! use prost::Message;
//! use tftensor::pb::{DataType, TensorProto, TensorShapeProto};
//!
//! let proto = TensorProto {
//!     dtype: DataType::DtFloat as i32,
//!     tensor_shape: Some(TensorShapeProto::default()),
//!     float_val: vec![1.5],
//!     ..TensorProto::default()
//! };
//! let bytes = proto.encode_to_vec();
//! assert_eq!(bytes, [0x08, 0x01, 0x12, 0x00, 0x2a, 0x04, 0x00, 0x00, 0xc0, 0x3f]);
//! assert_eq!(TensorProto::decode(bytes.as_slice()).unwrap(), proto);
//! ```

// prost's output trips these lints (all off by default); allowed here only,
// in case the crate enables clippy::pedantic or clippy::nursery.
#![allow(
    clippy::derive_partial_eq_without_eq,
    clippy::doc_markdown,
    // oneofs such as `AttrValue.value` hold a whole `TensorProto` inline.
    clippy::large_enum_variant,
    clippy::missing_const_for_fn,
    clippy::must_use_candidate
)]

include!(concat!(env!("OUT_DIR"), "/tensorflow.rs"));

/// TensorBoard's plugin metadata protos (`tensorboard/plugins/*/plugin_data.proto`),
/// the `content` of a [`summary_metadata::PluginData`].
pub mod tensorboard {
    include!(concat!(env!("OUT_DIR"), "/tensorboard.rs"));
}

/// The two protobuf well-known types TensorFlow's SavedModel protos use,
/// written by hand (wire-identical to `google/protobuf/{any,wrappers}.proto`)
/// so the crate needs no `prost-types`.
pub mod wkt {
    /// `google.protobuf.Any`: a message of the type named by `type_url`.
    #[derive(Clone, PartialEq, ::prost::Message)]
    pub struct Any {
        /// The message's type, e.g. `type.googleapis.com/tensorflow.AssetFileDef`.
        #[prost(string, tag = "1")]
        pub type_url: ::prost::alloc::string::String,
        /// The serialized message.
        #[prost(bytes = "bytes", tag = "2")]
        pub value: ::prost::bytes::Bytes,
    }

    /// `google.protobuf.BoolValue`: a `bool` that can be absent.
    #[derive(Clone, Copy, PartialEq, Eq, Hash, ::prost::Message)]
    pub struct BoolValue {
        /// The value.
        #[prost(bool, tag = "1")]
        pub value: bool,
    }
}
