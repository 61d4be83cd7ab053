//! Group members: old-style symbol tables (v1 B-tree + local heap +
//! `SNOD`), compact link messages, and dense links (fractal heap + v2
//! B-tree name index, single-leaf trees and direct-block roots only).

use super::object_header::{kind, Message};
use super::{
    btree, checksum, data_loss, heap::LocalHeap, invalid, unsupported, Cursor, Source, UNDEF,
};
use crate::error::Result;

/// A hard link from a group to an object header.
#[derive(Clone, Debug)]
pub(crate) struct Link {
    pub(crate) name: String,
    pub(crate) addr: u64,
}

/// The members of the object with `messages`, or `None` if it is not a group.
pub(crate) fn links(src: &Source, messages: &[Message], path: &str) -> Result<Option<Vec<Link>>> {
    let mut out = Vec::new();
    let mut is_group = false;
    for m in messages {
        match m.kind {
            kind::SYMBOL_TABLE => {
                is_group = true;
                let mut c = Cursor::new(&m.body, "a symbol table message");
                let (tree, heap) = (c.u64()?, c.u64()?);
                symbol_table(src, tree, heap, path, &mut out)?;
            }
            kind::LINK => {
                is_group = true;
                out.push(link(&m.body, path)?);
            }
            kind::LINK_INFO => {
                is_group = true;
                let mut c = Cursor::new(&m.body, "a link info message");
                c.skip(1)?;
                let flags = c.u8()?;
                if flags & 1 != 0 {
                    c.skip(8)?;
                }
                let (fheap, names) = (c.u64()?, c.u64()?);
                if fheap != UNDEF {
                    dense(src, fheap, names, path, &mut out)?;
                }
            }
            _ => {}
        }
    }
    Ok(is_group.then_some(out))
}

fn symbol_table(src: &Source, tree: u64, heap: u64, path: &str, out: &mut Vec<Link>) -> Result<()> {
    let heap = LocalHeap::read(src, heap)?;
    for node in btree::leaves(src, tree, 0, 8)? {
        let mut head = [0u8; 8];
        src.read_into(node.addr, &mut head, "a symbol table node")?;
        let mut c = Cursor::new(&head, "a symbol table node");
        if c.bytes(4)? != b"SNOD" {
            return Err(data_loss(format!(
                "symbol node at {}: no SNOD signature",
                node.addr
            )));
        }
        c.skip(2)?;
        let count = u64::from(c.u16()?);
        let body = src.read_vec(node.addr + 8, count * 40, "a symbol table node")?;
        for e in body.chunks(40) {
            let mut c = Cursor::new(e, "a symbol table entry");
            let name = heap.name(c.u64()?)?;
            let addr = c.u64()?;
            if c.u32()? == 2 {
                return Err(unsupported(format!("soft link ({path}/{name})")));
            }
            out.push(Link { name, addr });
        }
    }
    Ok(())
}

/// A link message (0x06); only hard links are followed.
fn link(body: &[u8], path: &str) -> Result<Link> {
    let mut c = Cursor::new(body, "a link message");
    let version = c.u8()?;
    if version != 1 {
        return Err(unsupported(format!("link message version {version}")));
    }
    let flags = c.u8()?;
    let link_type = if flags & 0x08 != 0 { c.u8()? } else { 0 };
    if flags & 0x04 != 0 {
        c.skip(8)?;
    }
    if flags & 0x10 != 0 {
        c.skip(1)?;
    }
    let len = c.uint(1 << (flags & 3))? as usize;
    let name = String::from_utf8(c.bytes(len)?.to_vec())
        .map_err(|_| invalid("a link name is not UTF-8"))?;
    match link_type {
        0 => Ok(Link {
            name,
            addr: c.u64()?,
        }),
        1 => Err(unsupported(format!("soft link ({path}/{name})"))),
        64 => Err(unsupported(format!("external link ({path}/{name})"))),
        t => Err(unsupported(format!("link type {t} ({path}/{name})"))),
    }
}

fn dense(src: &Source, fheap: u64, names: u64, path: &str, out: &mut Vec<Link>) -> Result<()> {
    let h = FractalHeap::read(src, fheap)?;
    // The name index: a v2 B-tree of (hash, heap id) records.
    let head = src.read_upto(names, 64, "a v2 B-tree header")?;
    let mut c = Cursor::new(&head, "a v2 B-tree header");
    if c.bytes(4)? != b"BTHD" {
        return Err(data_loss(format!(
            "v2 B-tree at {names}: no BTHD signature"
        )));
    }
    c.skip(2)?;
    let _node_size = c.u32()?;
    let record = c.u16()? as usize;
    let depth = c.u16()?;
    c.skip(2)?;
    let root = c.u64()?;
    let nrec = c.u16()? as usize;
    c.skip(8)?;
    checksum::verify(&head, c.pos(), "a v2 B-tree header")?;
    if depth != 0 {
        return Err(unsupported(format!(
            "dense link storage with a v2 B-tree of depth {depth} ({path})"
        )));
    }
    if record < 5 {
        return Err(invalid("v2 B-tree record size too small"));
    }
    let len = (6 + nrec * record + 4) as u64;
    let leaf = src.read_vec(root, len, "a v2 B-tree leaf")?;
    if leaf.get(..4) != Some(b"BTLF") {
        return Err(data_loss(format!(
            "v2 B-tree leaf at {root}: no BTLF signature"
        )));
    }
    checksum::verify(&leaf, leaf.len() - 4, "a v2 B-tree leaf")?;
    for r in leaf
        .get(6..6 + nrec * record)
        .unwrap_or_default()
        .chunks(record)
    {
        let id = r.get(4..).unwrap_or_default();
        let obj = h.object(src, id)?;
        out.push(link(&obj, path)?);
    }
    Ok(())
}

struct FractalHeap {
    id_len: usize,
    off_size: usize,
    len_size: usize,
    root: u64,
    root_rows: u16,
    checksummed: bool,
}

fn enc_size(x: u64) -> usize {
    (63 - x.max(1).leading_zeros() as usize) / 8 + 1
}

impl FractalHeap {
    fn read(src: &Source, addr: u64) -> Result<FractalHeap> {
        let head = src.read_upto(addr, 160, "a fractal heap header")?;
        let mut c = Cursor::new(&head, "a fractal heap header");
        if c.bytes(4)? != b"FRHP" {
            return Err(data_loss(format!(
                "fractal heap at {addr}: no FRHP signature"
            )));
        }
        c.skip(1)?;
        let id_len = c.u16()? as usize;
        let filters = c.u16()?;
        let flags = c.u8()?;
        let max_obj = u64::from(c.u32()?);
        c.skip(8 * 12)?;
        let _width = c.u16()?;
        let _start = c.u64()?;
        let max_direct = c.u64()?;
        let max_heap_bits = c.u16()?;
        c.skip(2)?;
        let root = c.u64()?;
        let root_rows = c.u16()?;
        if filters != 0 {
            return Err(unsupported("filtered fractal heap"));
        }
        checksum::verify(&head, c.pos(), "a fractal heap header")?;
        Ok(FractalHeap {
            id_len,
            off_size: usize::from(max_heap_bits).div_ceil(8),
            len_size: enc_size(max_direct).min(enc_size(max_obj)),
            root,
            root_rows,
            checksummed: flags & 0x02 != 0,
        })
    }

    fn object(&self, src: &Source, id: &[u8]) -> Result<Vec<u8>> {
        let mut c = Cursor::new(id.get(..self.id_len).unwrap_or(id), "a heap id");
        let kind = (c.u8()? >> 4) & 3;
        if kind != 0 {
            return Err(unsupported("huge or tiny fractal heap objects"));
        }
        let off = c.uint(self.off_size)?;
        let len = c.uint(self.len_size)?;
        if self.root_rows != 0 {
            return Err(unsupported("fractal heap with an indirect root block"));
        }
        // A direct root block: the offset is from the block's start.
        let prefix = (5 + 8 + self.off_size + if self.checksummed { 4 } else { 0 }) as u64;
        if off < prefix {
            return Err(data_loss("heap object offset inside the block header"));
        }
        let mut sig = [0u8; 4];
        src.read_into(self.root, &mut sig, "a fractal heap direct block")?;
        if &sig != b"FHDB" {
            return Err(data_loss(format!(
                "fractal heap block at {}: no FHDB signature",
                self.root
            )));
        }
        let at = self
            .root
            .checked_add(off)
            .ok_or_else(|| data_loss("heap object offset overflows"))?;
        src.read_vec(at, len, "a fractal heap object")
    }
}
