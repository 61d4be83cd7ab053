//! A box of a tensor: one range of indices per dimension, what
//! [`TensorSource::read_slice`](super::TensorSource::read_slice) reads.

use std::ops::Range;

use ndarray::{IxDyn, Slice};

use crate::element::dispatch_dtype;
use crate::error::{Error, Result};
use crate::shape::TensorShape;
use crate::tensor::Tensor;

/// Checks `ranges` against `shape`: one non-decreasing range per
/// dimension, each within it.
pub(crate) fn check(shape: &TensorShape, ranges: &[Range<u64>]) -> Result<()> {
    let dims = shape.dim_sizes();
    if ranges.len() != dims.len() {
        return Err(Error::InvalidArgument(format!(
            "a slice of a rank-{} tensor needs {} ranges, got {}",
            dims.len(),
            dims.len(),
            ranges.len()
        )));
    }
    for (d, (r, &n)) in ranges.iter().zip(&dims).enumerate() {
        // Dims are never negative, so this is the dim itself.
        let n = n.unsigned_abs();
        if r.start > r.end || r.end > n {
            return Err(Error::InvalidArgument(format!(
                "slice {}..{} of dimension {d} is not within 0..{n}",
                r.start, r.end
            )));
        }
    }
    Ok(())
}

/// The elements of `t` in `ranges` (checked by [`check`]), as a new tensor.
pub(crate) fn cut(t: &Tensor, ranges: &[Range<u64>]) -> Result<Tensor> {
    check(t.shape(), ranges)?;
    dispatch_dtype!(t.dtype(), T => {
        let view = t.tensor::<T, IxDyn>()?;
        let part = view.slice_each_axis(|ax| {
            // In range: `check` bounded each end by a dim, which fits isize.
            let r = ranges.get(ax.axis.index()).cloned().unwrap_or(0..0);
            let to_isize = |v: u64| isize::try_from(v).unwrap_or(isize::MAX);
            Slice::from(to_isize(r.start)..to_isize(r.end))
        });
        Tensor::try_from(part)
    }, _ => Err(Error::unsupported(t.dtype(), "cannot slice a tensor of this dtype")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[allow(clippy::single_range_in_vec_init)] // one range: a rank-1 box
    fn a_box_of_a_matrix_and_the_errors() {
        let t = Tensor::from_vec([3, 4], (0..12).collect::<Vec<i32>>()).unwrap();
        let s = cut(&t, &[1..3, 2..4]).unwrap();
        assert_eq!(s.shape().dim_sizes(), [2, 2]);
        assert_eq!(s.as_slice::<i32>().unwrap(), [6, 7, 10, 11]);
        let strings =
            Tensor::from_vec([3], vec![bytes::Bytes::from("a"), "b".into(), "c".into()]).unwrap();
        let s = cut(&strings, &[2..3]).unwrap();
        assert_eq!(s.as_slice::<bytes::Bytes>().unwrap(), ["c"]);
        let one_range = [0..1];
        assert!(matches!(
            cut(&t, &one_range),
            Err(Error::InvalidArgument(_))
        ));
        assert!(matches!(
            cut(&t, &[0..4, 0..1]),
            Err(Error::InvalidArgument(_))
        ));
        #[allow(clippy::reversed_empty_ranges)]
        let backwards = [2..1, 0..1];
        assert!(matches!(
            cut(&t, &backwards),
            Err(Error::InvalidArgument(_))
        ));
        assert_eq!(cut(&t, &[1..1, 0..4]).unwrap().num_elements(), 0);
    }
}
