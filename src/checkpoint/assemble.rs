//! Partitioned tensors (TF's `GetSliceValue`): a request is served by the
//! stored slices that overlap it, each read and its overlap copied into
//! the result.

use bytes::Bytes;

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::pb;
use crate::tensor::Tensor;

use super::BundleReader;
use super::index::{bad, entry_meta};
use super::slice::{TensorSlice, copy_overlap, encode_tensor_name_slice};

impl BundleReader {
    /// TF's `GetSliceValue`.
    pub(super) fn assemble(
        &self,
        key: &str,
        entry: &pb::BundleEntryProto,
        want: &TensorSlice,
    ) -> Result<Tensor> {
        let (dtype, full_shape) = entry_meta(key, entry)?;
        let target_shape = want.slice_shape(&full_shape)?;
        let stored: Vec<TensorSlice> = if entry.slices.is_empty() {
            vec![TensorSlice::full(full_shape.dims())]
        } else {
            entry
                .slices
                .iter()
                .map(TensorSlice::from_proto)
                .collect::<Result<_>>()?
        };
        // The stored slices that overlap the request, with the overlap.
        let mut parts = Vec::new();
        let mut covered: i64 = 0;
        for s in &stored {
            s.slice_shape(&full_shape).map_err(|e| {
                bad(format!("stored slice {s}: {e}"))
                    .with_path(&self.prefix)
                    .with_key(key)
            })?;
            if let Some(inter) = want.intersect(s, &full_shape) {
                covered = covered.saturating_add(inter.iter().map(|&(_, l)| l).product::<i64>());
                parts.push((s, inter));
            }
        }
        // Overlapping stored slices would write some elements twice.
        for (i, (a, ia)) in parts.iter().enumerate() {
            for (b, ib) in parts.iter().skip(i + 1) {
                let overlap = ia
                    .iter()
                    .zip(ib)
                    .all(|(&(s1, l1), &(s2, l2))| s1.max(s2) < (s1 + l1).min(s2 + l2));
                if overlap {
                    return Err(bad(format!(
                        "overlapping slices: existing slice = {a}, new slice = {b}"
                    ))
                    .with_path(&self.prefix)
                    .with_key(key));
                }
            }
        }
        if covered != target_shape.num_elements() {
            return Err(Error::InvalidArgument(format!(
                "Does not have sufficient slices for partitioned tensor to restore in slice_spec: {want}"
            ))
            .with_key(key));
        }
        let want_start: Vec<i64> = (0..want.dims())
            .map(|d| want.extent(d).map_or(0, |(s, _)| s))
            .collect();
        // Read every overlapping stored slice before allocating the result,
        // so the result's size is backed by data the file really holds.
        let mut stored_parts = Vec::with_capacity(parts.len());
        for (s, inter) in parts {
            let stored_t = if s.is_full() && entry.slices.is_empty() {
                self.read_entry(key, entry)?
            } else {
                let skey = encode_tensor_name_slice(key.as_bytes(), s);
                let sentry = self
                    .position(&skey)
                    .and_then(|i| self.entries.get(i))
                    .map(|(_, e)| e)
                    .ok_or_else(|| {
                        Error::not_found(format!("slice {s} not found in checkpoint")).with_key(key)
                    })?;
                let t = self.read_entry(key, sentry)?;
                let expect = s.slice_shape(&full_shape)?;
                if t.dtype() != dtype || t.shape() != &expect {
                    return Err(bad(format!(
                        "slice {s} holds {} {} instead of {dtype} {}",
                        t.dtype(),
                        t.shape().debug_string(),
                        expect.debug_string()
                    ))
                    .with_path(&self.prefix)
                    .with_key(key));
                }
                t
            };
            // TF's shortcut: the stored slice is exactly the request.
            if s == want || (s.is_full() && want.is_full()) {
                return Ok(stored_t);
            }
            stored_parts.push((s, inter, stored_t));
        }
        let mut out = Tensor::new(dtype, target_shape)?;
        for (s, inter, stored_t) in stored_parts {
            let src_start: Vec<i64> = (0..s.dims())
                .map(|d| s.extent(d).map_or(0, |(st, _)| st))
                .collect();
            copy_into(&stored_t, &src_start, &mut out, &want_start, &inter)?;
        }
        Ok(out)
    }
}

/// Copies the overlap `inter` of a stored slice `src` (starting at
/// `src_start`) into `dst` (the requested slice, starting at `dst_start`).
fn copy_into(
    src: &Tensor,
    src_start: &[i64],
    dst: &mut Tensor,
    dst_start: &[i64],
    inter: &[(i64, i64)],
) -> Result<()> {
    let src_dims = src.shape().dim_sizes();
    let dst_dims = dst.shape().dim_sizes();
    let dtype = src.dtype();
    if dtype.can_use_memcpy() {
        // Bytes, with each element as an extra innermost dimension.
        let size = dtype.size() as i64;
        let ext = |v: &[i64], last: i64| v.iter().copied().chain([last]).collect::<Vec<_>>();
        let mut inter = inter.to_vec();
        inter.push((0, size));
        return copy_overlap(
            src.tensor_data()?,
            &ext(src_start, 0),
            &ext(&src_dims, size),
            dst.raw_bytes_mut()?,
            &ext(dst_start, 0),
            &ext(&dst_dims, size),
            &inter,
        );
    }
    match dtype {
        DataType::String => copy_overlap(
            src.as_slice::<Bytes>()?,
            src_start,
            &src_dims,
            dst.as_mut_slice::<Bytes>()?,
            dst_start,
            &dst_dims,
            inter,
        ),
        DataType::Variant => copy_overlap(
            src.as_slice::<crate::element::Variant>()?,
            src_start,
            &src_dims,
            dst.as_mut_slice::<crate::element::Variant>()?,
            dst_start,
            &dst_dims,
            inter,
        ),
        other => Err(Error::unsupported(
            other,
            format!("Dtype {other} not supported."),
        )),
    }
}
