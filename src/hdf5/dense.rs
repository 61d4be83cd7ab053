//! Dense link storage: a fractal heap (`FRHP`) holding link messages and
//! a v2 B-tree (`BTHD`, type 5, see `bt2`) indexing them by name hash.
//! Supported: a heap whose root is a direct block or an
//! indirect block of direct blocks (a few thousand links); deeper
//! structures are refused by name.

use super::bt2::enc_size;
use super::{Cursor, Source, checksum, data_loss, invalid, unsupported};
use crate::error::Result;

/// The raw link messages of a dense group, in name-index order.
pub(crate) fn objects(src: &Source, fheap: u64, names: u64, path: &str) -> Result<Vec<Vec<u8>>> {
    let heap = FractalHeap::read(src, fheap)?;
    let (record, records) = super::bt2::records(src, names, 5)?;
    if record < 5 {
        return Err(invalid(format!(
            "the group's link name index has records of {record} bytes"
        ))
        .with_key(if path.is_empty() { "/" } else { path }));
    }
    records
        .iter()
        .map(|r| {
            #[expect(
                clippy::indexing_slicing,
                reason = "every record is `record` >= 5 bytes long (checked above)"
            )]
            let id = &r[4..];
            heap.object(src, id)
        })
        .collect()
}

struct FractalHeap {
    addr: u64,
    id_len: usize,
    off_size: usize,
    len_size: usize,
    width: u64,
    start: u64,
    max_direct: u64,
    root: u64,
    root_rows: u16,
    checksummed: bool,
}

impl FractalHeap {
    fn read(src: &Source, addr: u64) -> Result<FractalHeap> {
        let head = src.read_upto(addr, 160, "a fractal heap header")?;
        let mut c = Cursor::new(&head, "a fractal heap header").at(addr);
        if c.bytes(4)? != b"FRHP" {
            return Err(data_loss("fractal heap: no FRHP signature").with_offset(addr));
        }
        c.skip(1)?;
        let id_len = c.u16()? as usize;
        let filters = c.u16()?;
        let flags = c.u8()?;
        let max_obj = u64::from(c.u32()?);
        c.skip(8 * 12)?;
        let width = u64::from(c.u16()?);
        let start = c.u64()?;
        let max_direct = c.u64()?;
        let max_heap_bits = c.u16()?;
        c.skip(2)?;
        let root = c.u64()?;
        let root_rows = c.u16()?;
        if filters != 0 {
            return Err(unsupported("filtered fractal heap"));
        }
        checksum::verify(&head, c.pos(), "a fractal heap header")?;
        if width == 0 || start == 0 || max_direct < start || max_heap_bits > 64 {
            return Err(invalid("fractal heap: bad doubling table").with_offset(addr));
        }
        Ok(FractalHeap {
            addr,
            id_len,
            off_size: usize::from(max_heap_bits).div_ceil(8),
            len_size: enc_size(max_direct).min(enc_size(max_obj)),
            width,
            start,
            max_direct,
            root,
            root_rows,
            checksummed: flags & 0x02 != 0,
        })
    }

    /// Block size of row `r` of the doubling table.
    fn row_size(&self, r: u32) -> Option<u64> {
        if r == 0 {
            Some(self.start)
        } else {
            self.start.checked_mul(1u64.checked_shl(r - 1)?)
        }
    }

    /// The address and heap offset of the direct block holding heap offset `off`.
    fn block_of(&self, src: &Source, off: u64) -> Result<(u64, u64)> {
        if self.root_rows == 0 {
            return Ok((self.root, 0));
        }
        // Rows of direct blocks: those whose size is at most max_direct.
        let mut row_start = 0u64;
        let mut entry = 0u64;
        for r in 0..u32::from(self.root_rows) {
            let size = self
                .row_size(r)
                .ok_or_else(|| invalid("fractal heap block size overflows"))?;
            if size > self.max_direct {
                return Err(unsupported("fractal heap with nested indirect blocks"));
            }
            let row_len = size
                .checked_mul(self.width)
                .ok_or_else(|| invalid("fractal heap row size overflows"))?;
            if off < row_start.saturating_add(row_len) {
                let col = (off - row_start) / size;
                let index = entry + col;
                // FHIB: signature, version, heap address, block offset, then
                // one address per entry (no filters: checked at open).
                let at = 5 + 8 + self.off_size as u64 + index * 8;
                let mut a = [0u8; 8];
                let pos = self
                    .root
                    .checked_add(at)
                    .ok_or_else(|| data_loss("fractal heap entry address overflows"))?;
                src.read_into(pos, &mut a, "a fractal heap indirect block")?;
                let mut sig = [0u8; 4];
                src.read_into(self.root, &mut sig, "a fractal heap indirect block")?;
                if &sig != b"FHIB" {
                    return Err(data_loss("a fractal heap has no FHIB root").with_offset(self.addr));
                }
                return Ok((u64::from_le_bytes(a), row_start + col * size));
            }
            row_start = row_start
                .checked_add(row_len)
                .ok_or_else(|| invalid("fractal heap offset overflows"))?;
            entry += self.width;
        }
        Err(data_loss(format!(
            "heap offset {off} lies outside the fractal heap"
        )))
    }

    fn object(&self, src: &Source, id: &[u8]) -> Result<Vec<u8>> {
        let id = id
            .get(..self.id_len)
            .ok_or_else(|| invalid("a fractal heap id shorter than the heap's id length"))?;
        let mut c = Cursor::new(id, "a heap id");
        if (c.u8()? >> 4) & 3 != 0 {
            return Err(unsupported("huge or tiny fractal heap objects"));
        }
        let off = c.uint(self.off_size)?;
        let len = c.uint(self.len_size)?;
        let (block, block_off) = self.block_of(src, off)?;
        let mut sig = [0u8; 4];
        src.read_into(block, &mut sig, "a fractal heap direct block")?;
        if &sig != b"FHDB" {
            return Err(data_loss("fractal heap block: no FHDB signature").with_offset(block));
        }
        // The object's offset within its block counts from the block's start.
        let within = off - block_off;
        let prefix = (5 + 8 + self.off_size + if self.checksummed { 4 } else { 0 }) as u64;
        if within < prefix {
            return Err(data_loss("heap object offset inside the block header"));
        }
        let at = block
            .checked_add(within)
            .ok_or_else(|| data_loss("heap object offset overflows"))?;
        src.read_vec(at, len, "a fractal heap object")
    }
}
