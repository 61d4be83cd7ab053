//! [`Quantization`]: how a source's stored values map to real ones (TFLite's
//! scale and zero point, per tensor, per axis or per block; TF.js's scale
//! and min), [`dequantize`](super::dequantize) to float32, and the sidecar tensors that carry
//! the parameters into formats that have no place for them.

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::stats::{Real, RealVisitor};
use crate::tensor::Tensor;

/// How an entry's stored values map to real numbers:
/// `real = (q - zero_point) * scale`, with one scale per tensor, per slice
/// along [`quantized_dimension`](Self::quantized_dimension), or per block
/// ([`blockwise`](Self::blockwise)); or TF.js's `real = q * scale + min`.
/// Field names are TFLite's (`QuantizationParameters`).
///
/// ```
/// use tftensor::{io::Quantization, Tensor};
/// let q = Quantization::per_tensor(0.5, 2);
/// let real = q.apply(&Tensor::from_vec([3], vec![0i8, 2, 6])?, None, None)?;
/// assert_eq!(real.as_slice::<f32>()?, [-1.0, 0.0, 2.0]);
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Quantization {
    /// One scale per tensor, or one per slice along `quantized_dimension`.
    pub scale: Vec<f64>,
    /// The stored value of real zero, as many as `scale` (or one, or none
    /// for zero).
    pub zero_point: Vec<i64>,
    /// The axis the scales run along (per-axis quantization).
    pub quantized_dimension: usize,
    /// TF.js's `min`: `real = q * scale + min` (then `zero_point` is
    /// empty).
    pub min: Option<f64>,
    /// Blockwise quantization: scales per block of the last axis, held in
    /// other entries of the source.
    pub blockwise: Option<Blockwise>,
    /// The dtype of the real values: float32 when `None`; TF.js's
    /// quantized int32 weights are int32 (rounded half to even, as
    /// `tensorflowjs` does).
    pub real_dtype: Option<DataType>,
}

/// Blockwise quantization (TFLite's `BlockwiseQuantization`): the stored
/// tensor's last axis is cut in blocks of `block_size`, each with a scale
/// (and a zero point) held in other entries, shaped as the tensor with its
/// last dimension divided by `block_size`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Blockwise {
    /// Elements per block.
    pub block_size: u64,
    /// The entry holding the scales.
    pub scales: String,
    /// The entry holding the zero points, if any.
    pub zero_points: Option<String>,
}

impl PartialEq for Quantization {
    /// Scales compare by their bits (so that `Entry` stays `Eq`).
    fn eq(&self, other: &Self) -> bool {
        let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        bits(&self.scale) == bits(&other.scale)
            && self.zero_point == other.zero_point
            && self.quantized_dimension == other.quantized_dimension
            && self.min.map(f64::to_bits) == other.min.map(f64::to_bits)
            && self.blockwise == other.blockwise
            && self.real_dtype == other.real_dtype
    }
}

impl Eq for Quantization {}

impl Quantization {
    /// One scale and zero point for the whole tensor.
    ///
    /// ```
    /// let q = tftensor::io::Quantization::per_tensor(0.25, -3);
    /// assert_eq!((q.scale[0], q.zero_point[0]), (0.25, -3));
    /// ```
    pub fn per_tensor(scale: f64, zero_point: i64) -> Quantization {
        Quantization {
            scale: vec![scale],
            zero_point: vec![zero_point],
            ..Quantization::default()
        }
    }

    /// One scale and zero point per slice along `axis`.
    ///
    /// ```
    /// let q = tftensor::io::Quantization::per_axis(vec![1.0, 2.0], vec![0, 0], 1);
    /// assert_eq!(q.quantized_dimension, 1);
    /// ```
    pub fn per_axis(scale: Vec<f64>, zero_point: Vec<i64>, axis: usize) -> Quantization {
        Quantization {
            scale,
            zero_point,
            quantized_dimension: axis,
            ..Quantization::default()
        }
    }

    /// The real values of `q` as float32. Blockwise quantization needs the
    /// block scales (and zero points) read from their entries
    /// ([`dequantize`](super::dequantize) reads them).
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the parameters do not fit the
    /// tensor (a scale count other than the quantized dimension's size,
    /// block scales of the wrong shape) or its dtype has no real values.
    ///
    /// ```
    /// use tftensor::{io::Quantization, Tensor};
    /// let q = Quantization::per_axis(vec![1.0, 10.0], vec![0, 1], 0);
    /// let real = q.apply(&Tensor::from_vec([2, 2], vec![1u8, 2, 3, 4])?, None, None)?;
    /// assert_eq!(real.as_slice::<f32>()?, [1.0, 2.0, 20.0, 30.0]);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn apply(
        &self,
        q: &Tensor,
        blocks: Option<&Tensor>,
        block_zero_points: Option<&Tensor>,
    ) -> Result<Tensor> {
        let values = reals(q)?;
        let dims: Vec<u64> = q.shape().dim_sizes().iter().map(|&d| d as u64).collect();
        let n = values.len() as u64;
        let out: Vec<f64> = if let Some(b) = &self.blockwise {
            let scales = blocks.ok_or_else(|| {
                Error::InvalidArgument(format!(
                    "blockwise quantization needs its scales ({})",
                    b.scales
                ))
            })?;
            let (s, z) = (reals(scales)?, block_zero_points.map(reals).transpose()?);
            let last = dims.last().copied().unwrap_or(1).max(1);
            let per_row = last.div_ceil(b.block_size.max(1));
            if b.block_size == 0 || s.len() as u64 != (n / last) * per_row {
                return Err(Error::InvalidArgument(format!(
                    "{} block scales for {n} values in blocks of {} along an axis of {last}",
                    s.len(),
                    b.block_size
                )));
            }
            if z.as_ref().is_some_and(|z| z.len() != s.len()) {
                return Err(Error::InvalidArgument(
                    "block zero points and scales differ in count".into(),
                ));
            }
            values
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let i = i as u64;
                    // In range: i < n, so the block index < (n / last) * per_row.
                    let k = ((i / last) * per_row + (i % last) / b.block_size) as usize;
                    let scale = s.get(k).copied().unwrap_or(f64::NAN);
                    let zp = z.as_ref().and_then(|z| z.get(k).copied()).unwrap_or(0.0);
                    (v - zp) * scale
                })
                .collect()
        } else {
            let channels = self.scale.len() as u64;
            let inner: u64 = dims
                .iter()
                .skip(self.quantized_dimension + 1)
                .product::<u64>()
                .max(1);
            let axis_len = dims.get(self.quantized_dimension).copied();
            let fits = channels == 1 || (axis_len == Some(channels) && channels > 0);
            let zp_fits =
                self.zero_point.len() as u64 <= 1 || self.zero_point.len() as u64 == channels;
            if !fits || !zp_fits {
                return Err(Error::InvalidArgument(format!(
                    "{channels} scales and {} zero points for axis {} of shape {}",
                    self.zero_point.len(),
                    self.quantized_dimension,
                    q.shape()
                )));
            }
            let min = self.min;
            values
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let c = if channels == 1 {
                        0
                    } else {
                        ((i as u64 / inner) % channels) as usize
                    };
                    // `fits` and `zp_fits` above: c < channels = scales,
                    // and 0, 1 or `channels` zero points.
                    #[expect(clippy::indexing_slicing, reason = "fits and zp_fits, checked above")]
                    let (scale, zp) = (
                        self.scale[c],
                        match self.zero_point.len() {
                            0 => 0,
                            1 => self.zero_point[0],
                            _ => self.zero_point[c],
                        },
                    );
                    match min {
                        Some(min) => v * scale + min,
                        None => (v - zp as f64) * scale,
                    }
                })
                .collect()
        };
        if self.real_dtype == Some(DataType::Int32) {
            let ints = out.iter().map(|&v| v.round_ties_even() as i32).collect();
            return Tensor::from_vec(q.shape().clone(), ints);
        }
        // One rounding, from the exact product to float32 (TFLite's
        // reference Dequantize and `tensorflowjs` compute in double too).
        let floats: Vec<f32> = out.iter().map(|&v| v as f32).collect();
        Tensor::from_vec(q.shape().clone(), floats)
    }

    /// The parameters as tensors, for a format with no place for them:
    /// `NAME.scale` (float32 where every scale is one, else float64),
    /// `NAME.zero_point` (int64) and, for TF.js, `NAME.min`. Blockwise
    /// scales are entries of their own already, so give none.
    ///
    /// ```
    /// let q = tftensor::io::Quantization::per_tensor(0.5, 3);
    /// let s = q.sidecars("w");
    /// assert_eq!(s[0].0, "w.scale");
    /// assert_eq!(s[1].1.as_slice::<i64>().unwrap(), [3]);
    /// ```
    pub fn sidecars(&self, name: &str) -> Vec<(String, Tensor)> {
        let mut out = Vec::new();
        if self.blockwise.is_some() {
            return out;
        }
        let n = self.scale.len();
        let narrow: Vec<f32> = self.scale.iter().map(|&s| s as f32).collect();
        let exact = narrow
            .iter()
            .zip(&self.scale)
            .all(|(&a, &b)| f64::from(a) == b);
        let scale = if exact {
            Tensor::from_vec([n], narrow)
        } else {
            Tensor::from_vec([n], self.scale.clone())
        };
        out.extend(scale.ok().map(|t| (format!("{name}.scale"), t)));
        if !self.zero_point.is_empty() {
            let zp = Tensor::from_vec([self.zero_point.len()], self.zero_point.clone());
            out.extend(zp.ok().map(|t| (format!("{name}.zero_point"), t)));
        }
        if let Some(min) = self.min {
            out.extend(
                Tensor::from_vec([1], vec![min])
                    .ok()
                    .map(|t| (format!("{name}.min"), t)),
            );
        }
        out
    }
}

/// The elements of a real-number tensor as `f64`s.
fn reals(t: &Tensor) -> Result<Vec<f64>> {
    struct AsF64;
    impl RealVisitor for AsF64 {
        type Output = Vec<f64>;
        fn visit<T: Real>(self, values: &[T]) -> Vec<f64> {
            values.iter().map(|v| v.to_f64()).collect()
        }
    }
    t.visit_real(AsF64)?.ok_or_else(|| {
        Error::unsupported(
            t.dtype(),
            format!("{} values have no real number to dequantize", t.dtype()),
        )
    })
}

/// A 4- or 2-bit integer tensor as int8 or uint8 (one value per element,
/// exactly), for formats that cannot hold the narrow types; `None` for
/// other dtypes.
pub(crate) fn widen(t: &Tensor) -> Option<Result<Tensor>> {
    struct Vals;
    impl RealVisitor for Vals {
        type Output = Vec<f64>;
        fn visit<T: Real>(self, values: &[T]) -> Vec<f64> {
            values.iter().map(|v| v.to_f64()).collect()
        }
    }
    let to = widened(t.dtype())?;
    Some((|| {
        let v = t.visit_real(Vals)?.ok_or_else(|| {
            Error::unsupported(t.dtype(), "a narrow integer tensor without values")
        })?;
        // Exact: every value is within -8..=15.
        match to {
            DataType::Int8 => {
                Tensor::from_vec(t.shape().clone(), v.iter().map(|&x| x as i8).collect())
            }
            _ => Tensor::from_vec(t.shape().clone(), v.iter().map(|&x| x as u8).collect()),
        }
    })())
}

/// The dtype a narrow integer dtype widens to.
pub(crate) fn widened(dtype: DataType) -> Option<DataType> {
    match dtype {
        DataType::Int4 | DataType::Int2 => Some(DataType::Int8),
        DataType::UInt4 | DataType::UInt2 => Some(DataType::UInt8),
        _ => None,
    }
}
