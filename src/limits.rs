//! # Limits
//!
//! Every limit tftensor enforces, in one place. Bytes from another machine
//! (a serialized `TensorProto`, a `tensor_content` blob, a shape) can ask
//! for anything; these limits make sure a malformed or hostile input gets an
//! [`Error`](crate::Error) instead of a panic, an abort, a hang, or an
//! allocation the input did not pay for. Each limit has a test at its
//! boundary in `tests/limits.rs`.
//!
//! | What | Limit | Enforced by | Error |
//! |---|---|---|---|
//! | Memory of the decoded elements | [`FromProtoOptions::DEFAULT_MAX_BYTES`](crate::FromProtoOptions::DEFAULT_MAX_BYTES) = 2 GiB per call, set with [`FromProtoOptions::max_bytes`](crate::FromProtoOptions::max_bytes) | [`Tensor::from_proto`](crate::Tensor::from_proto), [`Tensor::decode`](crate::Tensor::decode) and their `_with` forms | [`Error::LimitExceeded`](crate::Error::LimitExceeded) |
//! | Tensors nested in variants | [`FromProtoOptions::DEFAULT_MAX_DEPTH`](crate::FromProtoOptions::DEFAULT_MAX_DEPTH) = 64 levels, set with [`FromProtoOptions::max_depth`](crate::FromProtoOptions::max_depth) | the same | [`Error::LimitExceeded`](crate::Error::LimitExceeded) |
//! | Message nesting while parsing bytes | 100 messages deep (prost's recursion limit, as C++ protobuf's): 48 levels of variants in `variant_val` (the form TF writes nested tensors in) always parse, 49 may; `tensor_content` starts a fresh parse per element, so there only `max_depth` applies | [`Tensor::decode`](crate::Tensor::decode) | [`Error::InvalidProto`](crate::Error::InvalidProto) |
//! | Size of an encoded `TensorProto` | at most `i32::MAX` bytes (2 GiB − 1), what C++ and Python protobuf accept | [`Tensor::as_proto_field`](crate::Tensor::as_proto_field), [`Tensor::as_proto_tensor_content`](crate::Tensor::as_proto_tensor_content), checked before the values are written | [`Error::LimitExceeded`](crate::Error::LimitExceeded) |
//! | Rank | [`MAX_DIMENSIONS`](crate::MAX_DIMENSIONS) = 254 | [`TensorShape`](crate::TensorShape) (every constructor and mutator), `from_proto` | [`Error::InvalidShape`](crate::Error::InvalidShape); `from_proto`: [`Error::InvalidProto`](crate::Error::InvalidProto) |
//! | Element count | at most `i64::MAX` (2^63 − 1); the product of the non-zero dims must not overflow either | the same | [`Error::Overflow`](crate::Error::Overflow); `from_proto`: [`Error::InvalidProto`](crate::Error::InvalidProto) |
//! | One dimension | `0..=i64::MAX` (−1 only in a [`PartialTensorShape`](crate::PartialTensorShape)) | the same | the same |
//! | One string in `tensor_content` | shorter than 4 GiB: its length is a varint32 | `as_proto_tensor_content` (and the resource and variant list coding) | [`Error::InvalidArgument`](crate::Error::InvalidArgument) |
//! | Length prefixes when decoding a list | each a varint32 of at most 5 bytes and 32 bits; the lengths must add up to exactly the bytes that follow | `from_proto` of string, resource and variant `tensor_content` | [`Error::InvalidProto`](crate::Error::InvalidProto) |
//! | `.npy` header length | at most the bytes that follow the prefix (file length, member size), checked before the header is read | [`npy`](crate::npy) readers | [`Error::DataLoss`](crate::Error::DataLoss) |
//! | `.npy` data | exactly the element count × item size the header declares: fewer bytes is truncation, more is an error too; checked against the file length before allocating. Zero-width `S0`/`U0` elements are refused | the same | [`Error::DataLoss`](crate::Error::DataLoss), [`Error::InvalidFormat`](crate::Error::InvalidFormat) |
//! | `.npz` member size | stored: equal to its compressed size; deflated: at most 1032 × the compressed size + 1 KiB (DEFLATE's best ratio), checked before the member is inflated | [`NpzReader`](crate::npy::NpzReader) | [`Error::InvalidFormat`](crate::Error::InvalidFormat) |
//! | `.safetensors` header | at most 100 MB, offsets contiguous and covering the file exactly (the `safetensors` crate's checks) | [`safetensors`](crate::safetensors) loaders | [`Error::InvalidFormat`](crate::Error::InvalidFormat) |
//! | A tensor in a checkpoint (feature `checkpoint`) | a POD entry's size must equal its shape's bytes and lie inside its data file; strings need a byte and variants five per element; string and variant element handles count against `max_bytes` ([`BundleReader::with_limits`](crate::checkpoint::BundleReader::with_limits)); a partitioned tensor is allocated only after its stored slices were read | [`BundleReader::get`](crate::checkpoint::BundleReader::get), `get_slice` | [`Error::DataLoss`](crate::Error::DataLoss), [`Error::LimitExceeded`](crate::Error::LimitExceeded) |
//! | A TFRecord record's declared length (feature `tfrecord`) | reserved before its bytes arrive only up to `tfrecord::MAX_PREALLOCATION` = 1 MiB, or up to the rest of an uncompressed file opened by path; longer records grow as bytes arrive, and a length past the end of the stream is a truncation | `tfrecord::RecordReader` | [`Error::DataLoss`](crate::Error::DataLoss) |
//! | An allocation | whatever the [`Allocator`](crate::Allocator) gives; a refusal (or a size past `isize::MAX`) is an error, not an abort | every constructor | [`Error::AllocationFailed`](crate::Error::AllocationFailed) |
//!
//! What `max_bytes` counts: for each tensor decoded (the outer one and every
//! tensor nested in a variant element), its element count times the
//! in-memory size of one element (`size_of::<T>()`: 4 for `f32`, 32 for a
//! string's [`bytes::Bytes`] handle, ...), checked before anything is
//! allocated. String payloads, resource handles and variant metadata are not
//! counted: they are slices or copies of the input, which paid for them.
//! Everything else `decode` allocates is linear in the input's length: prost
//! turns every sub-message into a struct, at worst a 128-byte
//! `ResourceHandleProto` for each 2-byte empty `resource_handle_val` entry,
//! in a `Vec` that grows by doubling; counting every reallocation that is at
//! most ~256 bytes allocated per input byte (~128 live). A service that
//! accepts protos from untrusted peers should therefore also cap the length
//! of the bytes it passes to `decode`.
//!
//! So a 20-byte proto that declares shape `[2^40]` with one `float_val` is
//! refused rather than filled:
//!
//! ```
//! use tftensor::pb::{tensor_shape_proto::Dim, TensorProto, TensorShapeProto};
//! use tftensor::{DataType, Error, FromProtoOptions, Tensor};
//!
//! let proto = TensorProto {
//!     dtype: DataType::Float.as_i32(),
//!     tensor_shape: Some(TensorShapeProto {
//!         dim: vec![Dim { size: 1 << 40, name: String::new() }],
//!         unknown_rank: false,
//!     }),
//!     float_val: vec![1.0],
//!     ..Default::default()
//! };
//! assert!(matches!(Tensor::from_proto(&proto), Err(Error::LimitExceeded { .. })));
//!
//! // A tighter budget for a service that expects small tensors.
//! let opts = FromProtoOptions::default().with_max_bytes(64 << 10);
//! let small = Tensor::from_vec([4], vec![1.0f32; 4])?.as_proto_field()?;
//! assert!(Tensor::from_proto_with(&small, &opts).is_ok());
//! # Ok::<(), tftensor::Error>(())
//! ```
//!
//! A consequence of the last two rows, shared with TF: a tensor nested more
//! than 48 levels deep (accepted from `tensor_content` bytes up to
//! `max_depth`) re-encodes into bytes that no protobuf parser accepts,
//! because both encoders write nested tensors in field form.
//!
//! None of TF's own `FromProto` checks is dropped. Where tftensor is
//! stricter than TF (the memory budget, the variant depth, a
//! `[0, 2^62, 2^62]` shape that TF's `IsValid` lets through), the
//! function's docs say so.
