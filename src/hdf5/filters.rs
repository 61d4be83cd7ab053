//! Filter pipeline messages (0x0B) and the filters this reader applies:
//! deflate (1), shuffle (2) and fletcher32 (3).

use std::io::Read;

use super::{Cursor, data_loss, unsupported};
use crate::error::Result;

/// One filter of a pipeline.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Filter {
    pub(crate) id: u16,
    pub(crate) params: Vec<u32>,
}

/// Parses a filter pipeline message, refusing filters it cannot apply.
pub(crate) fn parse(body: &[u8]) -> Result<Vec<Filter>> {
    let mut c = Cursor::new(body, "a filter pipeline");
    let version = c.u8()?;
    let n = c.u8()?;
    if version == 1 {
        c.skip(6)?;
    } else if version != 2 {
        return Err(unsupported(format!("filter pipeline version {version}")));
    }
    let mut out = Vec::new();
    for _ in 0..n {
        let id = c.u16()?;
        let name_len = if version == 1 || id >= 256 {
            c.u16()?
        } else {
            0
        };
        let _flags = c.u16()?;
        let nvalues = c.u16()?;
        let name = c.bytes(usize::from(name_len))?;
        if version == 1 {
            c.skip((8 - usize::from(name_len) % 8) % 8)?;
        }
        let mut params = Vec::new();
        for _ in 0..nvalues {
            params.push(c.u32()?);
        }
        if version == 1 && nvalues % 2 == 1 {
            c.skip(4)?;
        }
        if !matches!(id, 1..=3) {
            let name: Vec<u8> = name.iter().copied().take_while(|&b| b != 0).collect();
            let name = String::from_utf8_lossy(&name);
            return Err(unsupported(format!("filter {id} ({name})")));
        }
        out.push(Filter { id, params });
    }
    Ok(out)
}

/// Undoes the pipeline on one chunk. Bit `i` of `mask` set means filter `i`
/// was skipped for this chunk. `expected` bounds what inflating may produce.
pub(crate) fn decode(
    filters: &[Filter],
    mask: u32,
    mut data: Vec<u8>,
    expected: usize,
    elem_size: usize,
) -> Result<Vec<u8>> {
    for (i, f) in filters.iter().enumerate().rev() {
        if i < 32 && mask & (1 << i) != 0 {
            continue;
        }
        data = match f.id {
            1 => inflate(&data, expected)?,
            2 => unshuffle(&data, f.params.first().map_or(elem_size, |&s| s as usize)),
            3 => fletcher32_check(data)?,
            id => return Err(unsupported(format!("filter {id}"))),
        };
    }
    Ok(data)
}

fn inflate(data: &[u8], expected: usize) -> Result<Vec<u8>> {
    let mut out = crate::buffer::try_vec::<u8>(expected)?;
    // One byte past `expected` shows a chunk that inflates to too much.
    flate2::read::ZlibDecoder::new(data)
        .take(expected as u64 + 1)
        .read_to_end(&mut out)
        .map_err(|e| data_loss(format!("deflate: {e}")))?;
    Ok(out)
}

fn unshuffle(data: &[u8], size: usize) -> Vec<u8> {
    if size <= 1 || data.len() < size {
        return data.to_vec();
    }
    let n = data.len() / size;
    let mut out = data.to_vec();
    for (b, plane) in data.chunks(n).take(size).enumerate() {
        for (e, &byte) in plane.iter().enumerate() {
            if let Some(slot) = out.get_mut(e * size + b) {
                *slot = byte;
            }
        }
    }
    out
}

/// HDF5's Fletcher-32 (`H5_checksum_fletcher32`) over 16-bit big-endian words.
pub(crate) fn fletcher32(data: &[u8]) -> u32 {
    let (mut s1, mut s2) = (0xffffu32, 0xffffu32);
    for block in data.chunks(360 * 2) {
        for w in block.chunks(2) {
            let word = match w {
                [a, b] => (u32::from(*a) << 8) | u32::from(*b),
                [a] => u32::from(*a) << 8,
                _ => 0,
            };
            s1 += word;
            s2 += s1;
        }
        s1 = (s1 & 0xffff) + (s1 >> 16);
        s2 = (s2 & 0xffff) + (s2 >> 16);
    }
    s1 = (s1 & 0xffff) + (s1 >> 16);
    s2 = (s2 & 0xffff) + (s2 >> 16);
    (s2 << 16) | s1
}

fn fletcher32_check(mut data: Vec<u8>) -> Result<Vec<u8>> {
    let n = data
        .len()
        .checked_sub(4)
        .ok_or_else(|| data_loss("fletcher32: chunk shorter than its checksum"))?;
    // n = len - 4 (checked above): the last 4 bytes.
    let (_, tail) = data.split_at(n);
    let stored = tail
        .iter()
        .rev()
        .fold(0u32, |a, &b| (a << 8) | u32::from(b));
    data.truncate(n);
    let computed = fletcher32(&data);
    if stored == computed {
        Ok(data)
    } else {
        Err(data_loss(format!(
            "fletcher32 mismatch (stored {stored:#010x}, computed {computed:#010x})"
        )))
    }
}
