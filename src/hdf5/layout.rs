//! Data layout messages (0x08, versions 3 and 4) and every chunk index
//! HDF5 writes: v1 B-tree (layout v3), and for layout v4 single chunk (1),
//! implicit (2), fixed array (3, paged or not), extensible array (4, see
//! `earray`) and v2 B-tree (5, records of type 10 and 11).

use super::{Cursor, Source, UNDEF, bt2, btree, earray, farray, invalid, unsupported};
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
    Implicit(u64),
    FixedArray(u64),
    ExtensibleArray(u64),
    BTreeV2(u64),
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
                2 => Index::Implicit(c.u64()?),
                3 => {
                    // Page bits: the header repeats them.
                    c.skip(1)?;
                    Index::FixedArray(c.u64()?)
                }
                4 => {
                    // Creation parameters: the header repeats them.
                    c.skip(5)?;
                    Index::ExtensibleArray(c.u64()?)
                }
                5 => {
                    // Node size, split and merge percent: the header repeats them.
                    c.skip(6)?;
                    Index::BTreeV2(c.u64()?)
                }
                t => return Err(invalid(format!("chunk index type {t}"))),
            };
            Ok(Layout::Chunked { dims, index })
        }
        3 => Err(unsupported("virtual dataset layout")),
        k => Err(invalid(format!("layout class {k}"))),
    }
}

/// A chunked dataset's geometry: its shape, maximum shape (`UNDEF` for
/// unlimited), chunk dimensions and element size.
pub(crate) struct Grid<'a> {
    shape: &'a [u64],
    max: &'a [u64],
    dims: &'a [u64],
    /// Bytes of one whole chunk, unfiltered.
    chunk_bytes: u64,
}

impl<'a> Grid<'a> {
    pub(crate) fn new(
        shape: &'a [u64],
        max: &'a [u64],
        dims: &'a [u64],
        elem: u64,
    ) -> Result<Self> {
        if max.len() != shape.len() || dims.len() != shape.len() || dims.contains(&0) {
            return Err(invalid("chunk dimensions do not fit the dataspace"));
        }
        if shape.iter().zip(max).any(|(s, m)| s > m) {
            return Err(invalid("a dimension exceeds its maximum"));
        }
        let chunk_bytes = dims
            .iter()
            .try_fold(elem, |a, &d| a.checked_mul(d))
            .ok_or_else(|| invalid("chunk size overflows"))?;
        Ok(Grid {
            shape,
            max,
            dims,
            chunk_bytes,
        })
    }

    /// Chunks along dimension `k` of the maximum shape (`None`: unlimited).
    fn max_chunks(&self, k: usize) -> Option<u64> {
        let (m, d) = (*self.max.get(k)?, *self.dims.get(k)?);
        (m != UNDEF).then(|| m.div_ceil(d))
    }

    /// The dimension of an extensible array's unlimited axis: exactly one.
    fn unlimited(&self) -> Result<usize> {
        let mut it = (0..self.max.len()).filter(|&k| self.max_chunks(k).is_none());
        match (it.next(), it.next()) {
            (Some(k), None) => Ok(k),
            _ => Err(invalid(
                "an extensible array chunk index needs exactly one unlimited dimension",
            )),
        }
    }

    /// Chunks over the maximum shape, all dimensions fixed.
    fn total(&self) -> Result<u64> {
        (0..self.max.len()).try_fold(1u64, |a, k| {
            self.max_chunks(k)
                .and_then(|n| a.checked_mul(n))
                .ok_or_else(|| invalid("a fixed chunk index over an unlimited or huge dataspace"))
        })
    }

    /// The element offsets of chunk `i`, chunks numbered row-major over the
    /// grid of the maximum shape with dimension `first` (an extensible
    /// array's unlimited one) moved to the front (`H5VM_swizzle_coords`);
    /// `None` when the chunk lies outside the current shape.
    fn linear(&self, i: u64, first: Option<usize>) -> Option<Vec<u64>> {
        let rank = self.shape.len();
        let order: Vec<usize> = first
            .into_iter()
            .chain((0..rank).filter(|&k| Some(k) != first))
            .collect();
        let mut offsets = vec![0; rank];
        let mut rem = i;
        for &k in order.iter().rev() {
            let c = match self.max_chunks(k) {
                Some(n) => {
                    // A zero maximum has no chunks: taking it as one keeps
                    // the division defined, and its offset 0 is >= the
                    // (zero) shape, so the chunk is dropped below.
                    let c = rem % n.max(1);
                    rem /= n.max(1);
                    c
                }
                None => std::mem::take(&mut rem),
            };
            let o = c.checked_mul(*self.dims.get(k)?)?;
            if o >= *self.shape.get(k)? {
                return None;
            }
            *offsets.get_mut(k)? = o;
        }
        (rem == 0).then_some(offsets)
    }
}

/// Every stored chunk of a dataset.
pub(crate) fn chunks(
    src: &Source,
    index: &Index,
    grid: &Grid,
    filtered: bool,
) -> Result<Vec<Chunk>> {
    let rank = grid.shape.len();
    let linear = |list: Vec<farray::Numbered>, first: Option<usize>| {
        list.into_iter()
            .filter(|(_, (addr, _, _))| *addr != UNDEF)
            .filter_map(|(i, (addr, size, mask))| {
                Some(Chunk {
                    offsets: grid.linear(i, first)?,
                    size,
                    mask,
                    addr,
                })
            })
            .collect()
    };
    match *index {
        Index::BTreeV1(addr) => {
            if addr == UNDEF {
                return Ok(Vec::new());
            }
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
            if addr == UNDEF {
                return Ok(Vec::new());
            }
            Ok(vec![Chunk {
                offsets: vec![0; rank],
                // Unfiltered: the reader takes the whole chunk's bytes.
                size: size.unwrap_or(grid.chunk_bytes),
                mask,
                addr,
            }])
        }
        Index::Implicit(addr) => {
            if addr == UNDEF {
                return Ok(Vec::new());
            }
            if filtered {
                return Err(invalid("an implicit chunk index with filters"));
            }
            // H5Dnone.c: chunk i of the maximum grid at addr + i * chunk size,
            // all allocated at once; the whole extent must be in the file,
            // which bounds the count.
            let n = grid.total()?;
            let span = n
                .checked_mul(grid.chunk_bytes)
                .ok_or_else(|| invalid("implicit chunk storage overflows"))?;
            src.check(addr, span, "implicit chunk storage")?;
            Ok(linear(
                (0..n)
                    .map(|i| (i, (addr + i * grid.chunk_bytes, 0, 0)))
                    .collect(),
                None,
            ))
        }
        Index::FixedArray(addr) => {
            if addr == UNDEF {
                return Ok(Vec::new());
            }
            Ok(linear(farray::entries(src, addr, filtered)?, None))
        }
        Index::ExtensibleArray(addr) => {
            if addr == UNDEF {
                return Ok(Vec::new());
            }
            let first = grid.unlimited()?;
            Ok(linear(earray::entries(src, addr, filtered)?, Some(first)))
        }
        Index::BTreeV2(addr) => {
            if addr == UNDEF {
                return Ok(Vec::new());
            }
            btree_v2(src, addr, grid, filtered)
        }
    }
}

/// v2 B-tree records: address, (filtered: size, filter mask), then the
/// chunk's offsets scaled by the chunk dimensions, 8 bytes each.
fn btree_v2(src: &Source, addr: u64, grid: &Grid, filtered: bool) -> Result<Vec<Chunk>> {
    let kind = if filtered { 11 } else { 10 };
    let (record, records) = bt2::records(src, addr, kind)?;
    let rank = grid.shape.len();
    let fixed = 8 + 8 * rank + if filtered { 4 } else { 0 };
    let width = match record.checked_sub(fixed) {
        Some(w) if (filtered && (1..=8).contains(&w)) || (!filtered && w == 0) => w,
        _ => return Err(invalid(format!("chunk B-tree records of {record} bytes"))),
    };
    let mut out = Vec::with_capacity(records.len());
    for r in records {
        let mut c = Cursor::new(&r, "a chunk B-tree record");
        let addr = c.u64()?;
        let (size, mask) = if filtered {
            (c.uint(width)?, c.u32()?)
        } else {
            (0, 0)
        };
        let mut offsets = Vec::with_capacity(rank);
        for d in grid.dims {
            offsets.push(
                c.u64()?
                    .checked_mul(*d)
                    .ok_or_else(|| invalid("a chunk offset overflows"))?,
            );
        }
        if addr != UNDEF {
            out.push(Chunk {
                offsets,
                size,
                mask,
                addr,
            });
        }
    }
    Ok(out)
}
