//! Object headers (v1, and v2 `OHDR` with `OCHK` continuation chunks):
//! the list of messages that describe a group or dataset.

use std::collections::HashSet;

use super::{Cursor, Source, checksum, data_loss, invalid, unsupported};
use crate::error::Result;

/// Message types this reader knows.
pub(crate) mod kind {
    pub(crate) const NIL: u16 = 0x00;
    pub(crate) const DATASPACE: u16 = 0x01;
    pub(crate) const LINK_INFO: u16 = 0x02;
    pub(crate) const DATATYPE: u16 = 0x03;
    pub(crate) const FILL_OLD: u16 = 0x04;
    pub(crate) const FILL: u16 = 0x05;
    pub(crate) const LINK: u16 = 0x06;
    pub(crate) const EXTERNAL: u16 = 0x07;
    pub(crate) const LAYOUT: u16 = 0x08;
    pub(crate) const FILTERS: u16 = 0x0B;
    pub(crate) const ATTRIBUTE: u16 = 0x0C;
    pub(crate) const CONTINUATION: u16 = 0x10;
    pub(crate) const SYMBOL_TABLE: u16 = 0x11;
    pub(crate) const ATTRIBUTE_INFO: u16 = 0x15;
}

/// One header message.
#[derive(Clone, Debug)]
pub(crate) struct Message {
    pub(crate) kind: u16,
    pub(crate) flags: u8,
    pub(crate) body: Vec<u8>,
}

impl Message {
    pub(crate) fn is_shared(&self) -> bool {
        self.flags & 0x02 != 0
    }
}

/// At most this many header chunks per object (cycles and bombs).
const MAX_CHUNKS: usize = 4096;

/// Reads every message of the object header at `addr`.
pub(crate) fn read(src: &Source, addr: u64) -> Result<Vec<Message>> {
    let mut sig = [0u8; 4];
    src.read_into(addr, &mut sig, "an object header")?;
    if &sig == b"OHDR" {
        read_v2(src, addr)
    } else {
        read_v1(src, addr)
    }
}

fn read_v1(src: &Source, addr: u64) -> Result<Vec<Message>> {
    let mut head = [0u8; 16];
    src.read_into(addr, &mut head, "an object header")?;
    let mut c = Cursor::new(&head, "an object header").at(addr);
    let version = c.u8()?;
    if version != 1 {
        return Err(unsupported(format!("object header version {version}")).with_offset(addr));
    }
    c.skip(1)?;
    let count = c.u16()? as usize;
    c.skip(4)?;
    let size = u64::from(c.u32()?);
    let mut out = Vec::new();
    let mut chunks = vec![(addr + 16, size)];
    let mut seen = HashSet::new();
    while let Some((at, len)) = chunks.pop() {
        if !seen.insert(at) || seen.len() > MAX_CHUNKS {
            return Err(invalid("object header: continuation cycle").with_offset(addr));
        }
        let block = src.read_vec(at, len, "an object header chunk")?;
        let mut c = Cursor::new(&block, "an object header chunk").at(at);
        while c.remaining() >= 8 && out.len() < count {
            let kind = c.u16()?;
            let size = c.u16()? as usize;
            let flags = c.u8()?;
            c.skip(3)?;
            let body = c.bytes(size)?;
            c.align(8)?;
            push(&mut out, &mut chunks, kind, flags, body)?;
        }
    }
    Ok(out)
}

fn push(
    out: &mut Vec<Message>,
    chunks: &mut Vec<(u64, u64)>,
    kind: u16,
    flags: u8,
    body: &[u8],
) -> Result<()> {
    if kind == kind::CONTINUATION {
        let mut c = Cursor::new(body, "a continuation message");
        chunks.push((c.u64()?, c.u64()?));
    } else if kind != kind::NIL {
        out.push(Message {
            kind,
            flags,
            body: body.to_vec(),
        });
    }
    Ok(())
}

fn read_v2(src: &Source, addr: u64) -> Result<Vec<Message>> {
    let head = src.read_upto(addr, 64, "an object header")?;
    let mut c = Cursor::new(&head, "an object header").at(addr);
    c.skip(4)?;
    let version = c.u8()?;
    if version != 2 {
        return Err(unsupported(format!("OHDR version {version}")).with_offset(addr));
    }
    let flags = c.u8()?;
    if flags & 0x20 != 0 {
        c.skip(16)?; // access, modification, change, birth times
    }
    if flags & 0x10 != 0 {
        c.skip(4)?; // max compact / min dense attributes
    }
    let size_len = 1usize << (flags & 3);
    let size = c.uint(size_len)?;
    let creation_order = flags & 0x04 != 0;
    let first = (addr, c.pos() as u64, size);
    let mut out = Vec::new();
    let mut chunks = vec![first];
    let mut seen = HashSet::new();
    while let Some((at, prefix, len)) = chunks.pop() {
        if !seen.insert(at) || seen.len() > MAX_CHUNKS {
            return Err(invalid("object header: continuation cycle").with_offset(addr));
        }
        // prefix + messages + checksum; an `OCHK` chunk's length includes
        // its signature and checksum.
        let total = prefix
            .checked_add(len)
            .and_then(|n| n.checked_add(if at == addr { 4 } else { 0 }))
            .ok_or_else(|| invalid("object header size overflows"))?;
        let block = src.read_vec(at, total, "an object header chunk")?;
        let n = block.len().saturating_sub(4);
        if at != addr && block.get(..4) != Some(b"OCHK") {
            return Err(
                data_loss("an object header continuation has no OCHK signature").with_offset(at),
            );
        }
        checksum::verify(&block, n, "an object header chunk")?;
        #[expect(
            clippy::indexing_slicing,
            reason = "`prefix` is the 4-byte signature or 0, and `verify` found a checksum after n"
        )]
        let body = &block[prefix as usize..n];
        let mut c = Cursor::new(body, "an object header chunk");
        let head_len = if creation_order { 6 } else { 4 };
        let mut conts = Vec::new();
        while c.remaining() >= head_len {
            let kind = u16::from(c.u8()?);
            let size = c.u16()? as usize;
            let mflags = c.u8()?;
            if creation_order {
                c.skip(2)?;
            }
            let body = c.bytes(size)?;
            push(&mut out, &mut conts, kind, mflags, body)?;
        }
        for (a, l) in conts {
            chunks.push((a, 4, l.saturating_sub(4)));
        }
    }
    Ok(out)
}
