//! [`FromProtoOptions`], the caller's limits for decoding untrusted protos,
//! and [`DecodeCtx`], the budget and allocator one decode draws on.

use std::sync::Arc;

use crate::buffer::Allocator;
use crate::error::{Error, Result};

/// Limits for decoding untrusted `TensorProto`s, used by
/// [`Tensor::from_proto_with`](crate::Tensor::from_proto_with) and
/// [`Tensor::decode_with`](crate::Tensor::decode_with).
///
/// A proto can declare a huge shape and carry one value (or none): TF would
/// then allocate the whole tensor. tftensor first checks the memory the
/// decoded elements need — element count × in-memory element size, summed
/// over the tensors nested in variants — against `max_bytes`, and fails with
/// [`Error::LimitExceeded`] before allocating anything past it.
///
/// ```
/// use tftensor::{DataType, Error, FromProtoOptions, Tensor};
/// use tftensor::pb::{TensorProto, TensorShapeProto, tensor_shape_proto::Dim};
///
/// // 2^40 floats from a 20-byte proto.
/// let proto = TensorProto {
///     dtype: DataType::Float.as_i32(),
///     tensor_shape: Some(TensorShapeProto {
///         dim: vec![Dim { size: 1 << 40, name: String::new() }],
///         unknown_rank: false,
///     }),
///     float_val: vec![1.0],
///     ..Default::default()
/// };
/// let err = Tensor::from_proto(&proto).unwrap_err();
/// assert!(matches!(err, Error::LimitExceeded { limit: 2147483648, .. }));
///
/// let mut opts = FromProtoOptions::default();
/// opts.max_bytes = 16;
/// assert!(Tensor::from_proto_with(&proto, &opts).is_err());
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct FromProtoOptions {
    /// Most bytes the decoded elements may occupy (default 2 GiB, protobuf's own message limit,
    /// [`FromProtoOptions::DEFAULT_MAX_BYTES`]).
    pub max_bytes: u64,
    /// Most levels of tensors nested inside variants (default 64,
    /// [`FromProtoOptions::DEFAULT_MAX_DEPTH`]).
    pub max_depth: usize,
}

impl FromProtoOptions {
    /// The default `max_bytes`: 2 GiB (protobuf messages stay under 2 GiB, so whatever tftensor writes, it reads).
    ///
    /// ```
    /// assert_eq!(tftensor::FromProtoOptions::DEFAULT_MAX_BYTES, 1 << 31);
    /// ```
    pub const DEFAULT_MAX_BYTES: u64 = 1 << 31;

    /// The default `max_depth`: 64 levels of variant nesting.
    ///
    /// ```
    /// assert_eq!(tftensor::FromProtoOptions::DEFAULT_MAX_DEPTH, 64);
    /// ```
    pub const DEFAULT_MAX_DEPTH: usize = 64;

    /// These options with `max_bytes` set.
    ///
    /// ```
    /// let o = tftensor::FromProtoOptions::default().with_max_bytes(1 << 20);
    /// assert_eq!(o.max_bytes, 1 << 20);
    /// ```
    #[must_use]
    pub fn with_max_bytes(mut self, max_bytes: u64) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// These options with `max_depth` set.
    ///
    /// ```
    /// let o = tftensor::FromProtoOptions::default().with_max_depth(2);
    /// assert_eq!(o.max_depth, 2);
    /// ```
    #[must_use]
    pub fn with_max_depth(mut self, max_depth: usize) -> Self {
        self.max_depth = max_depth;
        self
    }
}

impl Default for FromProtoOptions {
    /// 2 GiB of elements, 64 levels of variant nesting.
    ///
    /// ```
    /// let o = tftensor::FromProtoOptions::default();
    /// assert_eq!((o.max_bytes, o.max_depth), (1 << 31, 64));
    /// ```
    fn default() -> Self {
        FromProtoOptions {
            max_bytes: Self::DEFAULT_MAX_BYTES,
            max_depth: Self::DEFAULT_MAX_DEPTH,
        }
    }
}

/// The budget one decode (a tensor and everything nested in it) draws on,
/// and the allocator its element buffers come from.
pub(crate) struct DecodeCtx {
    limit: u64,
    used: u64,
    max_depth: usize,
    depth_left: usize,
    /// The caller's allocator (`from_proto_in`): every POD buffer is
    /// allocated from it, and input bytes are never adopted.
    allocator: Option<Arc<dyn Allocator>>,
}

impl DecodeCtx {
    pub(crate) fn new(opts: &FromProtoOptions) -> Self {
        DecodeCtx {
            limit: opts.max_bytes,
            used: 0,
            max_depth: opts.max_depth,
            depth_left: opts.max_depth,
            allocator: None,
        }
    }

    pub(crate) fn with_allocator(opts: &FromProtoOptions, allocator: Arc<dyn Allocator>) -> Self {
        DecodeCtx {
            allocator: Some(allocator),
            ..Self::new(opts)
        }
    }

    /// The caller's allocator, if one was given.
    pub(crate) fn allocator(&self) -> Option<&Arc<dyn Allocator>> {
        self.allocator.as_ref()
    }

    /// A context without limits, for re-reading fields whose size the proto
    /// itself bounds (compression).
    pub(crate) fn unlimited() -> Self {
        DecodeCtx {
            limit: u64::MAX,
            used: 0,
            max_depth: usize::MAX,
            depth_left: usize::MAX,
            allocator: None,
        }
    }

    /// Reserves `n` elements of `T` from the byte budget.
    pub(crate) fn charge<T>(&mut self, n: i64) -> Result<()> {
        let bytes = u64::try_from(n)
            .unwrap_or(u64::MAX)
            .saturating_mul(size_of::<T>() as u64);
        let used = self.used.saturating_add(bytes);
        if used > self.limit {
            return Err(Error::LimitExceeded {
                what: "decoded tensor bytes (FromProtoOptions::max_bytes)",
                limit: self.limit,
                requested: used,
            });
        }
        self.used = used;
        Ok(())
    }

    /// Runs `f` one variant-nesting level deeper.
    pub(crate) fn nested<R>(&mut self, f: impl FnOnce(&mut Self) -> Result<R>) -> Result<R> {
        let Some(left) = self.depth_left.checked_sub(1) else {
            return Err(Error::LimitExceeded {
                what: "variant nesting depth (FromProtoOptions::max_depth)",
                limit: self.max_depth as u64,
                requested: (self.max_depth as u64).saturating_add(1),
            });
        };
        let saved = self.depth_left;
        self.depth_left = left;
        let r = f(self);
        self.depth_left = saved;
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_ctx_budget_and_depth() {
        let mut ctx = DecodeCtx::new(
            &FromProtoOptions::default()
                .with_max_bytes(16)
                .with_max_depth(1),
        );
        ctx.charge::<u32>(3).unwrap();
        assert_eq!(ctx.used, 12);
        assert_eq!(
            ctx.charge::<u32>(2).unwrap_err(),
            Error::LimitExceeded {
                what: "decoded tensor bytes (FromProtoOptions::max_bytes)",
                limit: 16,
                requested: 20,
            }
        );
        ctx.charge::<u8>(4).unwrap();
        assert!(ctx.charge::<u8>(i64::MAX).is_err());
        let depth = ctx.nested(|c| Ok(c.depth_left)).unwrap();
        assert_eq!(depth, 0);
        assert_eq!(
            ctx.nested(|c| c.nested(|_| Ok(()))),
            Err(Error::LimitExceeded {
                what: "variant nesting depth (FromProtoOptions::max_depth)",
                limit: 1,
                requested: 2,
            })
        );
        assert_eq!(ctx.depth_left, 1);
    }
}
