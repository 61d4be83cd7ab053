//! Version 2 B-trees (`BTHD` header, `BTIN` internal nodes, `BTLF`
//! leaves): the name index of dense link storage (type 5) and the chunk
//! index of layout v4 (types 10 and 11). Every node is checksummed; depth
//! is capped and no node may be reached twice.

use std::collections::HashSet;

use super::{Cursor, Source, checksum, data_loss, invalid, unsupported};
use crate::error::Result;

/// Trees deeper than this are refused (a depth-8 tree of the smallest
/// nodes already indexes more records than any file here can hold).
const MAX_DEPTH: u16 = 16;

/// The metadata prefix of a node: signature, version, type, checksum.
const PREFIX: u64 = 10;

/// Bytes HDF5 uses to encode values up to `x` (`H5VM_limit_enc_size`).
pub(crate) fn enc_size(x: u64) -> usize {
    (63 - x.max(1).leading_zeros() as usize) / 8 + 1
}

/// Per level: the most records a node holds, and the bytes of the
/// "records below" count stored in pointers to a node of that level.
struct Level {
    max_nrec: u64,
    cum_max_nrec: u64,
    cum_size: usize,
}

struct Tree<'a> {
    src: &'a Source,
    kind: u8,
    record: usize,
    /// Bytes of a child's own record count (from the leaf maximum).
    nrec_size: usize,
    levels: Vec<Level>,
    seen: HashSet<u64>,
}

/// The record size and every record of the tree at `addr`, in key order;
/// `kind` is the B-tree type the caller expects.
pub(crate) fn records(src: &Source, addr: u64, kind: u8) -> Result<(usize, Vec<Vec<u8>>)> {
    let head = src.read_vec(addr, 38, "a v2 B-tree header")?;
    let mut c = Cursor::new(&head, "a v2 B-tree header").at(addr);
    if c.bytes(4)? != b"BTHD" {
        return Err(data_loss("v2 B-tree: no BTHD signature").with_offset(addr));
    }
    let version = c.u8()?;
    let got = c.u8()?;
    let node_size = u64::from(c.u32()?);
    let record = c.u16()? as usize;
    let depth = c.u16()?;
    c.skip(2)?;
    let root = c.u64()?;
    let nrec = u64::from(c.u16()?);
    c.skip(8)?;
    checksum::verify(&head, c.pos(), "a v2 B-tree header")?;
    if version != 0 {
        return Err(unsupported(format!("v2 B-tree version {version}")));
    }
    if got != kind {
        return Err(
            invalid(format!("v2 B-tree has type {got}, expected {kind}")).with_offset(addr),
        );
    }
    if record == 0 || node_size < PREFIX + record as u64 {
        return Err(invalid("v2 B-tree record or node size too small"));
    }
    if depth > MAX_DEPTH {
        return Err(unsupported(format!("v2 B-tree of depth {depth}")));
    }
    // H5B2__hdr_init: a leaf holds (node size - prefix) / record records;
    // a pointer to a child is an address, its record count, and (below
    // level 1) the count of all records under it.
    let leaf_max = (node_size - PREFIX) / record as u64;
    let nrec_size = enc_size(leaf_max);
    let mut levels = vec![Level {
        max_nrec: leaf_max,
        cum_max_nrec: leaf_max,
        cum_size: 0,
    }];
    for d in 1..=usize::from(depth) {
        // In bounds: level d - 1 was pushed on the previous turn.
        let below = levels.get(d - 1).map_or(0, |l| l.cum_size);
        let ptr = 8 + nrec_size as u64 + if d > 1 { below as u64 } else { 0 };
        let max_nrec = node_size.saturating_sub(PREFIX + ptr) / (record as u64 + ptr);
        // In bounds, as above.
        let prev = levels.get(d - 1).map_or(0, |l| l.cum_max_nrec);
        let cum_max_nrec = (max_nrec + 1).saturating_mul(prev).saturating_add(max_nrec);
        levels.push(Level {
            max_nrec,
            cum_max_nrec,
            cum_size: enc_size(cum_max_nrec),
        });
    }
    let mut tree = Tree {
        src,
        kind,
        record,
        nrec_size,
        levels,
        seen: HashSet::new(),
    };
    let mut out = Vec::new();
    if nrec > 0 {
        tree.node(root, depth, nrec, &mut out)?;
    }
    Ok((record, out))
}

impl Tree<'_> {
    fn node(&mut self, addr: u64, depth: u16, nrec: u64, out: &mut Vec<Vec<u8>>) -> Result<()> {
        if !self.seen.insert(addr) {
            return Err(invalid("v2 B-tree node is reached twice (a cycle)").with_offset(addr));
        }
        let level = self.levels.get(usize::from(depth));
        if level.is_none_or(|l| nrec > l.max_nrec) {
            return Err(invalid(format!("v2 B-tree node claims {nrec} records")).with_offset(addr));
        }
        debug_assert!(self.levels.len() > usize::from(depth));
        // In bounds: `levels` has one entry per level up to the root's
        // depth, and `depth` was checked against it above.
        let below = match depth {
            0 | 1 => 0,
            d => self
                .levels
                .get(usize::from(d) - 1)
                .map_or(0, |l| l.cum_size),
        };
        let ptr = if depth == 0 {
            0
        } else {
            8 + self.nrec_size + below
        };
        // nrec is at most the level's maximum, which fits in a node.
        let nrec = nrec as usize;
        let len = 6 + nrec * self.record + if depth == 0 { 0 } else { (nrec + 1) * ptr } + 4;
        let (sig, what): (&[u8], _) = if depth == 0 {
            (b"BTLF", "a v2 B-tree leaf")
        } else {
            (b"BTIN", "a v2 B-tree internal node")
        };
        let node = self.src.read_vec(addr, len as u64, what)?;
        let mut c = Cursor::new(&node, what).at(addr);
        if c.bytes(4)? != sig {
            return Err(data_loss(format!("{what}: bad signature")).with_offset(addr));
        }
        if c.u8()? != 0 || c.u8()? != self.kind {
            return Err(invalid(format!("{what}: bad version or type")).with_offset(addr));
        }
        checksum::verify(&node, len - 4, what)?;
        let recs = c.bytes(nrec * self.record)?;
        if depth == 0 {
            out.extend(recs.chunks(self.record).map(<[u8]>::to_vec));
            return Ok(());
        }
        let mut children = Vec::with_capacity(nrec + 1);
        for _ in 0..=nrec {
            let child = c.u64()?;
            let n = c.uint(self.nrec_size)?;
            c.skip(below)?;
            children.push((child, n));
        }
        let mut recs = recs.chunks(self.record);
        for (child, n) in children {
            self.node(child, depth - 1, n, out)?;
            if let Some(r) = recs.next() {
                out.push(r.to_vec());
            }
        }
        Ok(())
    }
}
