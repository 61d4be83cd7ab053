//! Version 1 B-trees (`TREE`): group nodes (type 0, children are `SNOD`
//! symbol nodes) and raw-data chunk nodes (type 1, children are chunks).

use std::collections::HashSet;

use super::{Cursor, Source, data_loss, invalid};
use crate::error::Result;

/// One leaf-level child: the key on its left and its address.
pub(crate) struct Child {
    pub(crate) key: Vec<u8>,
    pub(crate) addr: u64,
}

/// Walks the tree at `root` (node type `kind`, keys of `key_size` bytes)
/// and returns every level-0 child, left to right.
pub(crate) fn leaves(src: &Source, root: u64, kind: u8, key_size: usize) -> Result<Vec<Child>> {
    let mut out = Vec::new();
    let mut seen = HashSet::new();
    walk(src, root, kind, key_size, None, &mut seen, &mut out)?;
    Ok(out)
}

fn walk(
    src: &Source,
    addr: u64,
    kind: u8,
    key_size: usize,
    want_level: Option<u8>,
    seen: &mut HashSet<u64>,
    out: &mut Vec<Child>,
) -> Result<()> {
    if !seen.insert(addr) {
        return Err(invalid("B-tree node is reached twice (a cycle)").with_offset(addr));
    }
    let mut head = [0u8; 24];
    src.read_into(addr, &mut head, "a B-tree node")?;
    let mut c = Cursor::new(&head, "a B-tree node").at(addr);
    if c.bytes(4)? != b"TREE" {
        return Err(data_loss("B-tree node: no TREE signature").with_offset(addr));
    }
    let (node_kind, level, entries) = (c.u8()?, c.u8()?, c.u16()? as usize);
    if node_kind != kind {
        return Err(
            invalid(format!("B-tree node has type {node_kind}, expected {kind}")).with_offset(addr),
        );
    }
    if want_level.is_some_and(|w| w != level) {
        return Err(invalid(format!(
            "B-tree node has level {level}, expected one below its parent"
        ))
        .with_offset(addr));
    }
    let len = (entries * (key_size + 8) + key_size) as u64;
    let body = src.read_vec(addr + 24, len, "a B-tree node")?;
    let mut c = Cursor::new(&body, "a B-tree node").at(addr + 24);
    for _ in 0..entries {
        let key = c.bytes(key_size)?;
        let child = c.u64()?;
        if level == 0 {
            out.push(Child {
                key: key.to_vec(),
                addr: child,
            });
        } else {
            walk(src, child, kind, key_size, Some(level - 1), seen, out)?;
        }
    }
    Ok(())
}
