//! Fixed arrays (`FAHD` header, `FADB` data block, paged or not): the
//! chunk index h5py writes with `libver="latest"` for a chunked dataset
//! with no unlimited dimension; and the element format it shares with
//! extensible arrays.

use super::{Cursor, Source, UNDEF, checksum, data_loss, invalid};
use crate::error::Result;

/// An array element with its chunk number: (number, (address, stored
/// size, filter mask)).
pub(crate) type Numbered = (u64, (u64, u64, u32));

/// One fixed or extensible array element: a chunk's address, and for
/// filtered chunks its stored size and filter mask.
pub(crate) fn entry(e: &[u8], filtered: bool) -> Result<(u64, u64, u32)> {
    let mut c = Cursor::new(e, "a chunk index entry");
    let addr = c.u64()?;
    if !filtered {
        return Ok((addr, 0, 0));
    }
    let width = e.len().saturating_sub(12);
    if width == 0 {
        return Err(invalid("a filtered chunk entry has no size"));
    }
    Ok((addr, c.uint(width)?, c.u32()?))
}

/// The elements of a fixed array (`FAHD`, `FADB`), numbered; a data block
/// of more than 2^page bits elements is split into checksummed pages, of
/// which only those marked in its bitmask are initialized.
pub(crate) fn entries(src: &Source, addr: u64, filtered: bool) -> Result<Vec<Numbered>> {
    let head = src.read_vec(addr, 28, "a fixed array header")?;
    let mut c = Cursor::new(&head, "a fixed array header").at(addr);
    if c.bytes(4)? != b"FAHD" {
        return Err(data_loss("fixed array: no FAHD signature").with_offset(addr));
    }
    c.skip(1)?;
    let client = c.u8()?;
    let entry_size = c.u8()? as usize;
    let page_bits = c.u8()?;
    let n = c.u64()?;
    let data = c.u64()?;
    checksum::verify(&head, c.pos(), "a fixed array header")?;
    if client != u8::from(filtered) || entry_size < 8 || (filtered && entry_size < 13) {
        return Err(invalid("fixed array entries do not fit the filters"));
    }
    if data == UNDEF {
        return Ok(Vec::new());
    }
    // Unpaged when the count fits one page (always for 64 bits or more).
    let page = 1u64.checked_shl(page_bits.into()).unwrap_or(u64::MAX);
    let (npages, mask_len) = if n > page {
        let p = n.div_ceil(page);
        (p, p.div_ceil(8))
    } else {
        (0, 0)
    };
    let prefix = 6 + 8 + mask_len;
    let len = n
        .checked_mul(entry_size as u64)
        .and_then(|b| b.checked_add(prefix + 4 + 4 * npages))
        .ok_or_else(|| invalid("fixed array size overflows"))?;
    let block = src.read_vec(data, len, "a fixed array data block")?;
    if block.get(..4) != Some(b"FADB") {
        return Err(data_loss("a fixed array data block has no FADB signature").with_offset(data));
    }
    // In bounds: prefix < len, both far below usize::MAX (read above).
    let prefix = prefix as usize;
    let mut out = Vec::new();
    if npages == 0 {
        let end = prefix + n as usize * entry_size;
        checksum::verify(&block, end, "a fixed array data block")?;
        #[expect(
            clippy::indexing_slicing,
            reason = "`verify` found a checksum after `end`, and prefix <= end"
        )]
        let body = &block[prefix..end];
        for (i, e) in body.chunks(entry_size).enumerate() {
            out.push((i as u64, entry(e, filtered)?));
        }
        return Ok(out);
    }
    checksum::verify(&block, prefix, "a fixed array data block")?;
    #[expect(
        clippy::indexing_slicing,
        reason = "`verify` found a checksum after `prefix`, which is 14 + the bitmask's bytes"
    )]
    let bitmask = &block[14..prefix];
    let mut at = prefix + 4;
    for p in 0..npages {
        let count = (n - p * page).min(page) as usize;
        let bytes = count * entry_size;
        let body = block
            .get(at..at + bytes + 4)
            .ok_or_else(|| invalid("fixed array page runs past its block"))?;
        at += bytes + 4;
        // H5VM_bit_get: bit 0 is the high bit of byte 0.
        let set = bitmask
            .get((p / 8) as usize)
            .is_some_and(|b| b & (0x80 >> (p % 8)) != 0);
        if !set {
            continue;
        }
        checksum::verify(body, bytes, "a fixed array page")?;
        #[expect(clippy::indexing_slicing, reason = "`body` is `bytes` + 4 long")]
        let entries = &body[..bytes];
        for (i, e) in entries.chunks(entry_size).enumerate() {
            out.push((p * page + i as u64, entry(e, filtered)?));
        }
    }
    Ok(out)
}
