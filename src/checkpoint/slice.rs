//! Slices of partitioned tensors: TF's `TensorSlice`, its proto form, the
//! binary key a slice entry is stored under (`EncodeTensorNameSlice`, built
//! from `OrderedCode`), and copying the overlap of two slices.

use std::fmt;

use crate::error::{Error, Result};
use crate::pb;
use crate::shape::TensorShape;

/// TF's `TensorSlice`: per dimension, a start and a length, or the whole
/// extent.
///
/// Its text form is TF's: `start,length` per dimension joined by `:`, with
/// `-` for a full dimension (`"0,2:-"` is rows 0..2 of every column).
///
/// ```
/// use tftensor::checkpoint::TensorSlice;
/// let s: TensorSlice = "1,3:-".parse()?;
/// assert_eq!(s.dims(), 2);
/// assert_eq!(s.extent(0), Some((1, Some(3))));
/// assert_eq!(s.extent(1), Some((0, None)));
/// assert_eq!(s.to_string(), "1,3:-");
/// # Ok::<(), tftensor::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TensorSlice {
    /// `(start, length)`, with length `-1` for the full extent (TF's
    /// `kFullExtent`).
    extents: Vec<(i64, i64)>,
}

const FULL: i64 = -1;

impl TensorSlice {
    /// The slice covering every element of a tensor of rank `dims`.
    ///
    /// ```
    /// let s = tftensor::checkpoint::TensorSlice::full(2);
    /// assert!(s.is_full());
    /// assert_eq!(s.to_string(), "-:-");
    /// ```
    pub fn full(dims: usize) -> TensorSlice {
        TensorSlice {
            extents: vec![(0, FULL); dims],
        }
    }

    /// A slice from `(start, length)` pairs; `None` for the full extent.
    ///
    /// # Errors
    /// A negative start or length (TF: `"Expected non-negative start"`).
    ///
    /// ```
    /// use tftensor::checkpoint::TensorSlice;
    /// let s = TensorSlice::new(&[(2, Some(3)), (0, None)])?;
    /// assert_eq!(s.to_string(), "2,3:-");
    /// assert!(TensorSlice::new(&[(-1, Some(3))]).is_err());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn new(extents: &[(i64, Option<i64>)]) -> Result<TensorSlice> {
        let extents = extents
            .iter()
            .map(|&(start, len)| match len {
                None => Ok((0, FULL)),
                Some(len) if start >= 0 && len >= 0 => Ok((start, len)),
                Some(len) => Err(Error::InvalidArgument(format!(
                    "Expected non-negative start and length, got {start},{len}"
                ))),
            })
            .collect::<Result<Vec<_>>>()?;
        Ok(TensorSlice { extents })
    }

    /// The slice's rank.
    ///
    /// ```
    /// assert_eq!(tftensor::checkpoint::TensorSlice::full(3).dims(), 3);
    /// ```
    pub fn dims(&self) -> usize {
        self.extents.len()
    }

    /// Dimension `d` as `(start, Some(length))`, or `(0, None)` when full.
    ///
    /// ```
    /// let s: tftensor::checkpoint::TensorSlice = "4,1".parse().unwrap();
    /// assert_eq!(s.extent(0), Some((4, Some(1))));
    /// assert_eq!(s.extent(1), None);
    /// ```
    pub fn extent(&self, d: usize) -> Option<(i64, Option<i64>)> {
        self.extents
            .get(d)
            .map(|&(s, l)| (s, if l == FULL { None } else { Some(l) }))
    }

    /// Whether every dimension is full (TF's `IsFull`).
    ///
    /// ```
    /// let s: tftensor::checkpoint::TensorSlice = "-:0,1".parse().unwrap();
    /// assert!(!s.is_full());
    /// ```
    pub fn is_full(&self) -> bool {
        self.extents.iter().all(|&(_, l)| l == FULL)
    }

    /// TF's `TensorSlice(const TensorSliceProto&)`.
    ///
    /// # Errors
    /// A negative start or length.
    ///
    /// ```
    /// use tftensor::checkpoint::TensorSlice;
    /// let s = TensorSlice::from_proto(&TensorSlice::full(1).as_proto())?;
    /// assert!(s.is_full());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn from_proto(proto: &pb::TensorSliceProto) -> Result<TensorSlice> {
        use pb::tensor_slice_proto::extent::HasLength;
        let extents: Vec<(i64, Option<i64>)> = proto
            .extent
            .iter()
            .map(|e| match e.has_length {
                Some(HasLength::Length(l)) => (e.start, Some(l)),
                None => (e.start, None),
            })
            .collect();
        // A full extent in the proto still carries its start; TF keeps it
        // (and requires 0), so a non-zero start without length is invalid.
        if extents.iter().any(|&(s, l)| l.is_none() && s != 0) {
            return Err(Error::InvalidArgument(
                "a full extent in a TensorSliceProto must start at 0".to_owned(),
            ));
        }
        TensorSlice::new(&extents)
    }

    /// TF's `TensorSlice::AsProto`: full dimensions are empty extents.
    ///
    /// ```
    /// let s: tftensor::checkpoint::TensorSlice = "-:1,2".parse().unwrap();
    /// let p = s.as_proto();
    /// assert_eq!(p.extent.len(), 2);
    /// assert!(p.extent[0].has_length.is_none());
    /// ```
    pub fn as_proto(&self) -> pb::TensorSliceProto {
        use pb::tensor_slice_proto::{Extent, extent::HasLength};
        pb::TensorSliceProto {
            extent: self
                .extents
                .iter()
                .map(|&(start, len)| {
                    if len == FULL {
                        Extent::default()
                    } else {
                        Extent {
                            start,
                            has_length: Some(HasLength::Length(len)),
                        }
                    }
                })
                .collect(),
        }
    }

    /// `(start, length)` of dimension `d` against `shape` (full extents
    /// resolved).
    fn resolved(&self, d: usize, shape: &TensorShape) -> Option<(i64, i64)> {
        let &(s, l) = self.extents.get(d)?;
        if l == FULL {
            Some((0, shape.dim_size(d).ok()?))
        } else {
            Some((s, l))
        }
    }

    /// Checks that the slice has `shape`'s rank and lies inside it; returns
    /// the shape of the slice (TF's `SliceTensorShape`).
    pub(crate) fn slice_shape(&self, shape: &TensorShape) -> Result<TensorShape> {
        if self.dims() != shape.dims() {
            return Err(Error::InvalidArgument(format!(
                "Mismatching ranks: shape = {}, slice = {}",
                shape.debug_string(),
                self
            )));
        }
        let mut dims = Vec::with_capacity(self.dims());
        for d in 0..self.dims() {
            let (s, l) = self.resolved(d, shape).ok_or_else(|| {
                Error::InvalidArgument(format!("slice {self} has no extent for dim {d}"))
            })?;
            let size = shape.dim_size(d)?;
            if s.checked_add(l).is_none_or(|end| end > size) {
                return Err(Error::InvalidArgument(format!(
                    "Extent in dimension {d} out of bounds: shape = {}, slice = {}",
                    shape.debug_string(),
                    self
                )));
            }
            dims.push(l);
        }
        TensorShape::new(&dims)
    }

    /// The overlap of two slices of a tensor of `shape`, as resolved
    /// `(start, length)` per dimension; `None` if it is empty.
    pub(crate) fn intersect(
        &self,
        other: &TensorSlice,
        shape: &TensorShape,
    ) -> Option<Vec<(i64, i64)>> {
        (0..self.dims())
            .map(|d| {
                let (a, al) = self.resolved(d, shape)?;
                let (b, bl) = other.resolved(d, shape)?;
                let start = a.max(b);
                let end = a.saturating_add(al).min(b.saturating_add(bl));
                (end > start).then_some((start, end - start))
            })
            .collect()
    }
}

impl fmt::Display for TensorSlice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, &(s, l)) in self.extents.iter().enumerate() {
            if i > 0 {
                f.write_str(":")?;
            }
            if l == FULL {
                f.write_str("-")?;
            } else {
                write!(f, "{s},{l}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for TensorSlice {
    type Err = Error;

    /// TF's `TensorSlice::Parse`.
    fn from_str(s: &str) -> Result<TensorSlice> {
        let bad = || Error::InvalidArgument(format!("Invalid tensor slice specification {s}"));
        if s.is_empty() {
            return Ok(TensorSlice::full(0));
        }
        let extents = s
            .split(':')
            .map(|part| {
                if part == "-" {
                    return Ok((0, None));
                }
                let (a, b) = part.split_once(',').ok_or_else(bad)?;
                let start: i64 = a.parse().map_err(|_| bad())?;
                let len: i64 = b.parse().map_err(|_| bad())?;
                Ok((start, Some(len)))
            })
            .collect::<Result<Vec<_>>>()?;
        TensorSlice::new(&extents)
    }
}

/// `OrderedCode::WriteNumIncreasing`: a length byte, then the value
/// big-endian without leading zeros.
#[expect(
    clippy::indexing_slicing,
    reason = "a u64 has at most 8 leading zero bytes of its 8"
)]
fn write_num_increasing(out: &mut Vec<u8>, v: u64) {
    let bytes = v.to_be_bytes();
    let tail = &bytes[(v.leading_zeros() / 8) as usize..];
    out.push(tail.len() as u8);
    out.extend_from_slice(tail);
}

/// `OrderedCode::WriteString`: 0x00 escaped as 00 ff, 0xff as ff 00, then
/// the terminator 00 01.
fn write_string(out: &mut Vec<u8>, s: &[u8]) {
    for &b in s {
        match b {
            0x00 => out.extend_from_slice(&[0x00, 0xff]),
            0xff => out.extend_from_slice(&[0xff, 0x00]),
            b => out.push(b),
        }
    }
    out.extend_from_slice(&[0x00, 0x01]);
}

/// `OrderedCode::WriteSignedNumIncreasing`: `len` bytes whose leading bits
/// (1s for positive, 0s for negative, `len` of them) give the length.
fn write_signed_num_increasing(out: &mut Vec<u8>, v: i64) {
    let x = if v < 0 { !v } else { v } as u64;
    // Bits needed for `x` plus a sign bit, in 7-bit groups (TF's kBitsToLength).
    let bits = 64 - x.leading_zeros() as usize;
    let len = if bits >= 63 { 10 } else { bits / 7 + 1 };
    let sign = if v < 0 { 0xffu8 } else { 0 };
    let mut buf = [sign; 10];
    if let Some(tail) = buf.get_mut(2..) {
        tail.copy_from_slice(&v.to_be_bytes());
    }
    // Header bits: `len` ones (for len 9 and 10 spilling into the second byte).
    let header: [u8; 2] = match len {
        1..=8 => [!(0xffu8 >> len), 0],
        9 => [0xff, 0x80],
        _ => [0xff, 0xc0],
    };
    let begin = 10 - len;
    if let Some(b) = buf.get_mut(begin) {
        *b ^= header[0];
    }
    if len >= 2 {
        if let Some(b) = buf.get_mut(begin + 1) {
            *b ^= header[1];
        }
    }
    out.extend_from_slice(tail_of(&buf, begin));
}

/// `buf` from `begin`: `begin` is 10 - len with len in 1..=10, and `buf`
/// holds 10.
#[expect(
    clippy::indexing_slicing,
    reason = "`begin` is at most 9 of the 10 bytes"
)]
fn tail_of(buf: &[u8; 10], begin: usize) -> &[u8] {
    &buf[begin..]
}

/// TF's `checkpoint::EncodeTensorNameSlice`: the key a stored slice of
/// `name` is filed under.
pub(crate) fn encode_tensor_name_slice(name: &[u8], slice: &TensorSlice) -> Vec<u8> {
    let mut out = Vec::with_capacity(name.len() + 8 + 4 * slice.dims());
    write_num_increasing(&mut out, 0);
    write_string(&mut out, name);
    write_num_increasing(&mut out, slice.dims() as u64);
    for &(start, len) in &slice.extents {
        write_signed_num_increasing(&mut out, start);
        write_signed_num_increasing(&mut out, len);
    }
    out
}

/// Row-major strides (in elements) of `dims`.
fn strides(dims: &[i64]) -> Vec<usize> {
    let mut s = vec![1usize; dims.len()];
    for d in (0..dims.len().saturating_sub(1)).rev() {
        // In bounds: d + 1 < dims.len() == s.len().
        let next = s.get(d + 1).copied().unwrap_or(1);
        let size = dims.get(d + 1).copied().unwrap_or(1) as usize;
        if let Some(v) = s.get_mut(d) {
            *v = next.saturating_mul(size);
        }
    }
    s
}

/// Copies the region `inter` (absolute `(start, len)` per dimension) from
/// `src`, a tensor holding the slice starting at `src_start` with dims
/// `src_dims`, into `dst` (slice at `dst_start`, dims `dst_dims`). Elements
/// are runs of `T`; the innermost dimension is copied as one run.
pub(crate) fn copy_overlap<T: Clone>(
    src: &[T],
    src_start: &[i64],
    src_dims: &[i64],
    dst: &mut [T],
    dst_start: &[i64],
    dst_dims: &[i64],
    inter: &[(i64, i64)],
) -> Result<()> {
    let corrupt = || Error::InvalidArgument("slice copy out of bounds".to_owned());
    let rank = inter.len();
    let ss = strides(src_dims);
    let ds = strides(dst_dims);
    if rank == 0 {
        let v = src.first().ok_or_else(corrupt)?;
        *dst.first_mut().ok_or_else(corrupt)? = v.clone();
        return Ok(());
    }
    let run = inter.last().map_or(1, |&(_, l)| l as usize);
    let outer: Vec<i64> = inter.iter().take(rank - 1).map(|&(_, l)| l).collect();
    let mut idx = vec![0i64; rank - 1];
    let count: i64 = outer.iter().product();
    for _ in 0..count {
        let mut so = 0usize;
        let mut dof = 0usize;
        for d in 0..rank {
            let (start, _) = inter.get(d).copied().ok_or_else(corrupt)?;
            let i = if d + 1 < rank {
                idx.get(d).copied().ok_or_else(corrupt)?
            } else {
                0
            };
            let abs = start + i;
            // Every list has the slice's rank; a shorter one is corrupt,
            // not a zero offset.
            let s_rel = abs - src_start.get(d).copied().ok_or_else(corrupt)?;
            let d_rel = abs - dst_start.get(d).copied().ok_or_else(corrupt)?;
            so += s_rel as usize * ss.get(d).copied().ok_or_else(corrupt)?;
            dof += d_rel as usize * ds.get(d).copied().ok_or_else(corrupt)?;
        }
        let from = src.get(so..so + run).ok_or_else(corrupt)?;
        dst.get_mut(dof..dof + run)
            .ok_or_else(corrupt)?
            .clone_from_slice(from);
        // Odometer over the outer dimensions.
        for d in (0..rank - 1).rev() {
            if let (Some(i), Some(&n)) = (idx.get_mut(d), outer.get(d)) {
                *i += 1;
                if *i < n {
                    break;
                }
                *i = 0;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signed(v: i64) -> Vec<u8> {
        let mut out = Vec::new();
        write_signed_num_increasing(&mut out, v);
        out
    }

    /// Values from TF's `ordered_code_test.cc`.
    #[test]
    fn signed_num_increasing_matches_tf() {
        assert_eq!(signed(0), [0x80]);
        assert_eq!(signed(-1), [0x7f]);
        assert_eq!(signed(63), [0xbf]);
        assert_eq!(signed(-64), [0x40]);
        assert_eq!(signed(64), [0xc0, 0x40]);
        assert_eq!(signed(-65), [0x3f, 0xbf]);
        assert_eq!(signed(8191), [0xdf, 0xff]);
        assert_eq!(signed(8192), [0xe0, 0x20, 0x00]);
        assert_eq!(
            signed(i64::MAX),
            [0xff, 0xc0, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]
        );
        assert_eq!(signed(i64::MIN), [0x00, 0x3f, 0x80, 0, 0, 0, 0, 0, 0, 0]);
        // Order is preserved across lengths.
        let vals = [
            i64::MIN,
            -70000,
            -65,
            -64,
            -1,
            0,
            1,
            63,
            64,
            8191,
            8192,
            1 << 40,
            i64::MAX,
        ];
        for w in vals.windows(2) {
            assert!(signed(w[0]) < signed(w[1]), "{w:?}");
        }
    }

    #[test]
    fn parse_and_print() {
        let s: TensorSlice = "-:0,2".parse().unwrap();
        assert_eq!(s.to_string(), "-:0,2");
        assert!("1".parse::<TensorSlice>().is_err());
        assert!("a,b".parse::<TensorSlice>().is_err());
    }
}
