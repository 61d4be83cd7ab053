//! Extensible arrays (`EAHD` header, `EAIB` index block, `EASB` super
//! blocks, `EADB` data blocks): the chunk index h5py writes with
//! `libver="latest"` for a dataset with one unlimited dimension. Every
//! block is checksummed and names its header. Paged data blocks (more
//! than 2^page bits elements each, over a hundred thousand chunks by
//! default) are refused by name.

use super::farray::{Numbered, entry};
use super::{Cursor, Source, UNDEF, checksum, data_loss, invalid, unsupported};
use crate::error::Result;

/// The fixed fields of a block: signature, version, client, header address.
const PREFIX: u64 = 4 + 1 + 1 + 8;

struct Array<'a> {
    src: &'a Source,
    addr: u64,
    filtered: bool,
    elem: usize,
    /// Bytes of a block's offset field.
    off_size: u64,
}

/// Every element of the array at `addr`, numbered: chunk address, and for
/// filtered chunks stored size and filter mask.
pub(crate) fn entries(src: &Source, addr: u64, filtered: bool) -> Result<Vec<Numbered>> {
    let head = src.read_vec(addr, 72, "an extensible array header")?;
    let mut c = Cursor::new(&head, "an extensible array header").at(addr);
    if c.bytes(4)? != b"EAHD" {
        return Err(data_loss("extensible array: no EAHD signature").with_offset(addr));
    }
    let version = c.u8()?;
    let client = c.u8()?;
    let elem = c.u8()? as usize;
    let max_bits = u32::from(c.u8()?);
    let iblk_elmts = u64::from(c.u8()?);
    let dblk_min = u64::from(c.u8()?);
    let sblk_min = u64::from(c.u8()?);
    let page_bits = u32::from(c.u8()?);
    // Counts and sizes of the blocks made so far: derived, not needed.
    c.skip(4 * 8)?;
    let max_idx_set = c.u64()?;
    c.skip(8)?;
    let iblock = c.u64()?;
    checksum::verify(&head, c.pos(), "an extensible array header")?;
    if version != 0 {
        return Err(unsupported(format!("extensible array version {version}")));
    }
    let elem_ok = if filtered {
        (13..=20).contains(&elem)
    } else {
        elem == 8
    };
    if client != u8::from(filtered) || !elem_ok {
        return Err(invalid("extensible array elements do not fit the filters"));
    }
    if !(1..=64).contains(&max_bits)
        || !dblk_min.is_power_of_two()
        || !sblk_min.is_power_of_two()
        || dblk_min.ilog2() > max_bits
    {
        return Err(invalid("extensible array creation parameters"));
    }
    if iblock == UNDEF {
        return Ok(Vec::new());
    }
    // H5EA__hdr_init and H5EA__iblock_alloc.
    let nsblks = u64::from(1 + max_bits - dblk_min.ilog2());
    let iblock_sblks = 2 * u64::from(sblk_min.ilog2());
    let ndblk_addrs = 2 * (sblk_min - 1);
    let nsblk_addrs = nsblks
        .checked_sub(iblock_sblks)
        .ok_or_else(|| invalid("extensible array creation parameters"))?;
    let a = Array {
        src,
        addr,
        filtered,
        elem,
        off_size: u64::from(max_bits.div_ceil(8)),
    };
    // 64 page bits or more: no data block is ever paged.
    let page = 1u64.checked_shl(page_bits).unwrap_or(u64::MAX);

    debug_assert!(nsblks <= 65 && iblock_sblks <= 14);
    let body = iblk_elmts * elem as u64 + (ndblk_addrs + nsblk_addrs) * 8;
    let ib = a.block(
        iblock,
        b"EAIB",
        PREFIX,
        body,
        "an extensible array index block",
    )?;
    let mut c = Cursor::new(&ib, "an extensible array index block");
    c.skip(PREFIX as usize)?;
    let mut out = Vec::new();
    for i in 0..iblk_elmts {
        out.push((i, entry(c.bytes(elem)?, filtered)?));
    }
    let dblk_addrs = (0..ndblk_addrs)
        .map(|_| c.u64())
        .collect::<Result<Vec<_>>>()?;
    let sblk_addrs = (0..nsblk_addrs)
        .map(|_| c.u64())
        .collect::<Result<Vec<_>>>()?;

    let (mut start_idx, mut start_dblk) = (0u64, 0u64);
    for u in 0..nsblks {
        let base = iblk_elmts.saturating_add(start_idx);
        if base >= max_idx_set {
            break;
        }
        // Super block u: 2^(u/2) data blocks of 2^((u+1)/2) * min elements.
        let ndblks = 1u64 << (u / 2);
        let nelmts = (1u64 << u.div_ceil(2)) * dblk_min;
        if nelmts > page {
            return Err(unsupported("paged extensible array data blocks"));
        }
        let dblks: Vec<u64> = if u < iblock_sblks {
            (start_dblk..start_dblk + ndblks)
                .map(|d| {
                    dblk_addrs
                        .get(d as usize)
                        .copied()
                        .ok_or_else(|| invalid("extensible array data block index"))
                })
                .collect::<Result<_>>()?
        } else {
            // In bounds: nsblk_addrs = nsblks - iblock_sblks entries.
            let s = sblk_addrs
                .get((u - iblock_sblks) as usize)
                .copied()
                .unwrap_or(UNDEF);
            a.super_block(s, ndblks)?
        };
        for (d, dblk) in dblks.into_iter().enumerate() {
            let first = base + d as u64 * nelmts;
            if dblk != UNDEF && first < max_idx_set {
                a.data_block(dblk, first, nelmts, &mut out)?;
            }
        }
        let Some(next) = ndblks
            .checked_mul(nelmts)
            .and_then(|n| start_idx.checked_add(n))
        else {
            break;
        };
        start_idx = next;
        start_dblk += ndblks;
    }
    Ok(out)
}

impl Array<'_> {
    /// Reads a block of `head + body` bytes and its checksum, checks its
    /// signature, version, client and header address.
    fn block(
        &self,
        at: u64,
        sig: &[u8; 4],
        head: u64,
        body: u64,
        what: &'static str,
    ) -> Result<Vec<u8>> {
        let len = head
            .checked_add(body)
            .and_then(|n| n.checked_add(4))
            .ok_or_else(|| invalid(format!("{what} size overflows")))?;
        let b = self.src.read_vec(at, len, what)?;
        let mut c = Cursor::new(&b, what).at(at);
        if c.bytes(4)? != sig {
            return Err(data_loss(format!("{what}: bad signature")).with_offset(at));
        }
        let (version, client, owner) = (c.u8()?, c.u8()?, c.u64()?);
        if version != 0 || client != u8::from(self.filtered) || owner != self.addr {
            return Err(invalid(format!("{what} does not belong to its array")).with_offset(at));
        }
        checksum::verify(&b, b.len() - 4, what)?;
        Ok(b)
    }

    /// The data block addresses of super block `at` (all undefined when
    /// it was never allocated).
    fn super_block(&self, at: u64, ndblks: u64) -> Result<Vec<u64>> {
        if at == UNDEF {
            return Ok(Vec::new());
        }
        let body = ndblks
            .checked_mul(8)
            .ok_or_else(|| invalid("extensible array super block size overflows"))?;
        let what = "an extensible array super block";
        let b = self.block(at, b"EASB", PREFIX + self.off_size, body, what)?;
        let mut c = Cursor::new(&b, what);
        c.skip((PREFIX + self.off_size) as usize)?;
        (0..ndblks).map(|_| c.u64()).collect()
    }

    fn data_block(&self, at: u64, first: u64, nelmts: u64, out: &mut Vec<Numbered>) -> Result<()> {
        let what = "an extensible array data block";
        let body = nelmts
            .checked_mul(self.elem as u64)
            .ok_or_else(|| invalid("extensible array data block size overflows"))?;
        let b = self.block(at, b"EADB", PREFIX + self.off_size, body, what)?;
        let mut c = Cursor::new(&b, what);
        c.skip((PREFIX + self.off_size) as usize)?;
        for i in 0..nelmts {
            out.push((first + i, entry(c.bytes(self.elem)?, self.filtered)?));
        }
        Ok(())
    }
}
