//! Dataspace messages (0x01): the shape of a dataset or attribute.

use super::{Cursor, unsupported};
use crate::error::Result;

/// The dimensions (empty for a scalar); `None` for a null dataspace.
pub(crate) fn parse(c: &mut Cursor<'_>) -> Result<Option<Vec<u64>>> {
    Ok(parse_max(c)?.map(|(dims, _)| dims))
}

/// The dimensions and the maximum dimensions (`UNDEF` for unlimited; the
/// dimensions themselves when the message stores no maximum, as HDF5 reads
/// it); `None` for a null dataspace.
pub(crate) fn parse_max(c: &mut Cursor<'_>) -> Result<Option<(Vec<u64>, Vec<u64>)>> {
    let version = c.u8()?;
    let rank = c.u8()?;
    let flags = c.u8()?;
    let null = match version {
        1 => {
            c.skip(5)?;
            false
        }
        2 => c.u8()? == 2,
        v => return Err(unsupported(format!("dataspace version {v}"))),
    };
    if flags & 0x02 != 0 {
        return Err(unsupported("dataspace permutation indices"));
    }
    if rank > 32 {
        return Err(unsupported(format!("dataspace of rank {rank}")));
    }
    let mut dims = Vec::with_capacity(usize::from(rank));
    for _ in 0..rank {
        dims.push(c.u64()?);
    }
    let max = if flags & 0x01 != 0 {
        (0..rank).map(|_| c.u64()).collect::<Result<Vec<_>>>()?
    } else {
        dims.clone()
    };
    Ok(if null { None } else { Some((dims, max)) })
}
