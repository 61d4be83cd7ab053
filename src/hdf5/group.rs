//! Group members: old-style symbol tables (v1 B-tree + local heap +
//! `SNOD`), compact link messages, and dense links (see `dense.rs`).

use super::object_header::{Message, kind};
use super::{Cursor, Source, UNDEF, btree, data_loss, heap::LocalHeap, invalid, unsupported};
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
    let mut seen = std::collections::HashSet::with_capacity(out.len());
    for l in &out {
        // HDF5 refuses these names: a '/' would make two objects one path.
        if l.name.is_empty() || l.name == "." || l.name.contains('/') {
            return Err(invalid(format!(
                "the group has a link named {:?}, which HDF5 does not allow",
                l.name
            ))
            .with_key(group_key(path)));
        }
        if !seen.insert(l.name.as_str()) {
            return Err(
                invalid(format!("the group has two links named {:?}", l.name))
                    .with_key(group_key(path)),
            );
        }
    }
    Ok(is_group.then_some(out))
}

fn symbol_table(src: &Source, tree: u64, heap: u64, path: &str, out: &mut Vec<Link>) -> Result<()> {
    let heap = LocalHeap::read(src, heap)?;
    for node in btree::leaves(src, tree, 0, 8)? {
        let mut head = [0u8; 8];
        src.read_into(node.addr, &mut head, "a symbol table node")?;
        let mut c = Cursor::new(&head, "a symbol table node").at(node.addr);
        if c.bytes(4)? != b"SNOD" {
            return Err(
                data_loss("a symbol table node has no SNOD signature").with_offset(node.addr)
            );
        }
        c.skip(2)?;
        let count = u64::from(c.u16()?);
        let body = src.read_vec(node.addr + 8, count * 40, "a symbol table node")?;
        for e in body.chunks(40) {
            let mut c = Cursor::new(e, "a symbol table entry");
            let name = heap.name(c.u64()?)?;
            let addr = c.u64()?;
            if c.u32()? == 2 {
                return Err(unsupported("soft link").with_key(child_key(path, &name)));
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
        1 => Err(unsupported("soft link").with_key(child_key(path, &name))),
        64 => Err(unsupported("external link").with_key(child_key(path, &name))),
        t => Err(unsupported(format!("link type {t}")).with_key(child_key(path, &name))),
    }
}

fn dense(src: &Source, fheap: u64, names: u64, path: &str, out: &mut Vec<Link>) -> Result<()> {
    for body in super::dense::objects(src, fheap, names, path)? {
        out.push(link(&body, path)?);
    }
    Ok(())
}

/// The key errors give a group: its path, `/` for the root.
fn group_key(path: &str) -> &str {
    if path.is_empty() { "/" } else { path }
}

/// The path of the link `name` in the group at `path`.
fn child_key(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_owned()
    } else {
        format!("{path}/{name}")
    }
}
