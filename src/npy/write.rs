//! Writing a [`Tensor`] as `.npy`: little-endian, C order, the header
//! exactly as `np.save` writes it.

use std::io::Write;

use bytes::Bytes;

use super::header;
use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// The header for `t`, checking that NumPy can hold its elements.
pub(crate) fn header_for(t: &Tensor) -> Result<Vec<u8>> {
    let max_len = if t.dtype() == DataType::String {
        let strings = t.as_slice::<Bytes>()?;
        if let Some(i) = strings.iter().position(|s| s.last() == Some(&0)) {
            return Err(Error::InvalidArgument(format!(
                "npy: string element {i} ends with a NUL byte, which NumPy's 'S' dtype drops on reading"
            )));
        }
        // No strings: width 0 (descr_for widens it to 1).
        strings.iter().map(Bytes::len).fold(0, usize::max)
    } else {
        0
    };
    let descr = header::descr_for(t.dtype(), max_len)?;
    Ok(header::write_header(&descr, t.shape()))
}

/// Bytes the whole `.npy` of `t` takes (header included).
pub(crate) fn encoded_len(t: &Tensor, header_len: usize) -> Result<u64> {
    let data = if t.dtype() == DataType::String {
        let strings = t.as_slice::<Bytes>()?;
        let width = strings.iter().map(Bytes::len).fold(0, usize::max).max(1);
        (strings.len() as u64).saturating_mul(width as u64)
    } else {
        t.tensor_data()?.len() as u64
    };
    Ok(data.saturating_add(header_len as u64))
}

/// Writes header and data to `w`. `what` names the destination in errors.
pub(crate) fn write_to<W: Write>(w: &mut W, t: &Tensor, header: &[u8], what: &str) -> Result<()> {
    let io = |e: std::io::Error| Error::io(what, &e);
    w.write_all(header).map_err(io)?;
    if t.dtype() == DataType::String {
        let strings = t.as_slice::<Bytes>()?;
        // No strings: width 1, as np.save writes `|S1` for an empty array.
        let width = strings.iter().map(Bytes::len).fold(0, usize::max).max(1);
        let zeros = vec![0u8; width];
        for s in strings {
            w.write_all(s).map_err(io)?;
            w.write_all(padding(&zeros, s.len())).map_err(io)?;
        }
    } else {
        // Tensors are little-endian in memory on every supported target.
        w.write_all(t.tensor_data()?).map_err(io)?;
    }
    Ok(())
}

/// The NULs after a string of `len` bytes in an element of `zeros.len()`.
#[expect(
    clippy::indexing_slicing,
    reason = "the width is the longest string's length, so every string is at most that long"
)]
fn padding(zeros: &[u8], len: usize) -> &[u8] {
    &zeros[len..]
}
