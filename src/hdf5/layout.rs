//! Data layout messages (0x08, versions 3 and 4) and chunk indexes: v1
//! B-tree (type 1), single chunk, implicit, and unpaged fixed arrays.

use super::{btree, checksum, data_loss, invalid, unsupported, Cursor, Source, UNDEF};
use crate::error::Result;

/// Where a dataset's elements live.
#[derive(Clone, Debug)]
pub(crate) enum Layout {
    Compact(Vec<u8>),
    Contiguous { addr: u64, size: u64 },
    Chunked { dims: Vec<u64>, index: Index },
}

#[derive(Clone, Debug)]
pub(crate) enum Index {
    BTreeV1(u64),
    Single {
        addr: u64,
        size: Option<u64>,
        mask: u32,
    },
    Implicit,
    FixedArray(u64),
}

/// One stored chunk: its element offsets, size on disk, filter mask, address.
pub(crate) struct Chunk {
    pub(crate) offsets: Vec<u64>,
    pub(crate) size: u64,
    pub(crate) mask: u32,
    pub(crate) addr: u64,
}

pub(crate) fn parse(body: &[u8]) -> Result<Layout> {
    let mut c = Cursor::new(body, "a layout message");
    let version = c.u8()?;
    if !(3..=4).contains(&version) {
        return Err(unsupported(format!("data layout version {version}")));
    }
    match c.u8()? {
        0 => {
            let n = c.u16()? as usize;
            Ok(Layout::Compact(c.bytes(n)?.to_vec()))
        }
        1 => Ok(Layout::Contiguous {
            addr: c.u64()?,
            size: c.u64()?,
        }),
        2 if version == 3 => {
            let rank = c.u8()?;
            let addr = c.u64()?;
            let dims = (0..rank)
                .map(|_| c.u32().map(u64::from))
                .collect::<Result<Vec<_>>>()?;
            Ok(Layout::Chunked {
                dims,
                index: Index::BTreeV1(addr),
            })
        }
        2 => {
            let flags = c.u8()?;
            let rank = c.u8()?;
            let width = c.u8()? as usize;
            let dims = (0..rank)
                .map(|_| c.uint(width))
                .collect::<Result<Vec<_>>>()?;
            let index = match c.u8()? {
                1 => {
                    let (size, mask) = if flags & 0x02 != 0 {
                        (Some(c.u64()?), c.u32()?)
                    } else {
                        (None, 0)
                    };
                    Index::Single {
                        addr: c.u64()?,
                        size,
                        mask,
                    }
                }
                2 => Index::Implicit,
                3 => {
                    c.skip(1)?;
                    Index::FixedArray(c.u64()?)
                }
                4 => return Err(unsupported("extensible array chunk index")),
                5 => return Err(unsupported("v2 B-tree chunk index")),
                t => return Err(invalid(format!("chunk index type {t}"))),
            };
            Ok(Layout::Chunked { dims, index })
        }
        3 => Err(unsupported("virtual dataset layout")),
        k => Err(invalid(format!("layout class {k}"))),
    }
}

/// Every stored chunk of a dataset with `shape` and chunk `dims`
/// (`dims` excludes the element-size dimension).
pub(crate) fn chunks(
    src: &Source,
    index: &Index,
    shape: &[u64],
    dims: &[u64],
    filtered: bool,
) -> Result<Vec<Chunk>> {
    let chunk_bytes = |elem: u64| dims.iter().try_fold(elem, |a, &d| a.checked_mul(d));
    match *index {
        Index::BTreeV1(addr) => {
            if addr == UNDEF {
                return Ok(Vec::new());
            }
            let rank = shape.len();
            let key = 8 + 8 * (rank + 1);
            let mut out = Vec::new();
            for child in btree::leaves(src, addr, 1, key)? {
                let mut c = Cursor::new(&child.key, "a chunk key");
                let size = u64::from(c.u32()?);
                let mask = c.u32()?;
                let offsets = (0..rank).map(|_| c.u64()).collect::<Result<Vec<_>>>()?;
                out.push(Chunk {
                    offsets,
                    size,
                    mask,
                    addr: child.addr,
                });
            }
            Ok(out)
        }
        Index::Single { addr, size, mask } => {
            let size = match size {
                Some(s) => s,
                None => chunk_bytes(1).ok_or_else(|| invalid("chunk size overflows"))?,
            };
            Ok(vec![Chunk {
                offsets: vec![0; shape.len()],
                size,
                mask,
                addr,
            }])
        }
        Index::Implicit => Err(unsupported("implicit chunk index")),
        Index::FixedArray(addr) => fixed_array(src, addr, shape, dims, filtered),
    }
}

fn grid(shape: &[u64], dims: &[u64]) -> Result<Vec<u64>> {
    shape
        .iter()
        .zip(dims)
        .map(|(&s, &d)| {
            if d == 0 {
                Err(invalid("a chunk dimension is 0"))
            } else {
                Ok(s.div_ceil(d))
            }
        })
        .collect()
}

fn fixed_array(
    src: &Source,
    addr: u64,
    shape: &[u64],
    dims: &[u64],
    filtered: bool,
) -> Result<Vec<Chunk>> {
    if addr == UNDEF {
        return Ok(Vec::new());
    }
    let head = src.read_upto(addr, 64, "a fixed array header")?;
    let mut c = Cursor::new(&head, "a fixed array header");
    if c.bytes(4)? != b"FAHD" {
        return Err(data_loss(format!(
            "fixed array at {addr}: no FAHD signature"
        )));
    }
    c.skip(2)?;
    let entry = c.u8()? as usize;
    let page_bits = c.u8()?;
    let n = c.u64()?;
    let data = c.u64()?;
    checksum::verify(&head, c.pos(), "a fixed array header")?;
    if n > (1u64 << page_bits) {
        return Err(unsupported("paged fixed array chunk index"));
    }
    if entry < 8 || (filtered && entry < 16) {
        return Err(invalid("fixed array entry size too small"));
    }
    let len = n
        .checked_mul(entry as u64)
        .and_then(|b| b.checked_add(6 + 8 + 4))
        .ok_or_else(|| invalid("fixed array size overflows"))?;
    let block = src.read_vec(data, len, "a fixed array data block")?;
    if block.get(..4) != Some(b"FADB") {
        return Err(data_loss(format!(
            "fixed array data block at {data}: no FADB signature"
        )));
    }
    checksum::verify(&block, block.len() - 4, "a fixed array data block")?;
    let grid = grid(shape, dims)?;
    let full = dims.iter().product::<u64>();
    let mut out = Vec::new();
    // In bounds: the block was read at its full length, at least 18 bytes.
    for (i, e) in block
        .get(14..block.len() - 4)
        .unwrap_or_default()
        .chunks(entry)
        .enumerate()
    {
        let mut c = Cursor::new(e, "a fixed array entry");
        let addr = c.u64()?;
        let (size, mask) = if filtered {
            (c.uint(entry - 12)?, c.u32()?)
        } else {
            (full, 0)
        };
        if addr == UNDEF {
            continue;
        }
        // Chunk i in row-major order over the chunk grid.
        let mut rem = i as u64;
        let mut offsets = vec![0; grid.len()];
        for (k, g) in grid.iter().enumerate().rev() {
            let g = (*g).max(1);
            if let (Some(o), Some(d)) = (offsets.get_mut(k), dims.get(k)) {
                *o = (rem % g) * d;
            }
            rem /= g;
        }
        out.push(Chunk {
            offsets,
            size,
            mask,
            addr,
        });
    }
    Ok(out)
}
