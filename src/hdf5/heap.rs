//! Local heaps (`HEAP`: a group's link names) and global heap collections
//! (`GCOL`: variable-length string data).

use super::{Cursor, Source, data_loss, unsupported};
use crate::error::Result;

/// A local heap's data segment.
pub(crate) struct LocalHeap {
    data: Vec<u8>,
}

impl LocalHeap {
    pub(crate) fn read(src: &Source, addr: u64) -> Result<LocalHeap> {
        let mut head = [0u8; 32];
        src.read_into(addr, &mut head, "a local heap")?;
        let mut c = Cursor::new(&head, "a local heap").at(addr);
        if c.bytes(4)? != b"HEAP" {
            return Err(data_loss("local heap: no HEAP signature").with_offset(addr));
        }
        let version = c.u8()?;
        if version != 0 {
            return Err(unsupported(format!("local heap version {version}")));
        }
        c.skip(3)?;
        let size = c.u64()?;
        c.skip(8)?; // free list head
        let data_addr = c.u64()?;
        let data = src.read_vec(data_addr, size, "a local heap's data")?;
        Ok(LocalHeap { data })
    }

    /// The NUL-terminated name at `offset`.
    pub(crate) fn name(&self, offset: u64) -> Result<String> {
        let rest = usize::try_from(offset)
            .ok()
            .and_then(|o| self.data.get(o..))
            .ok_or_else(|| {
                data_loss(format!(
                    "link name offset {offset} lies outside its local heap"
                ))
            })?;
        let mut c = Cursor::new(rest, "a link name");
        let name = c.cstr()?;
        String::from_utf8(name.to_vec()).map_err(|_| super::invalid("a link name is not UTF-8"))
    }
}

/// Object `index` of the global heap collection at `addr`.
pub(crate) fn global_object(src: &Source, addr: u64, index: u32) -> Result<Vec<u8>> {
    let mut head = [0u8; 16];
    src.read_into(addr, &mut head, "a global heap collection")?;
    let mut c = Cursor::new(&head, "a global heap collection").at(addr);
    if c.bytes(4)? != b"GCOL" {
        return Err(data_loss("global heap: no GCOL signature").with_offset(addr));
    }
    c.skip(4)?;
    let size = c.u64()?;
    let coll = src.read_vec(addr, size, "a global heap collection")?;
    let mut c = Cursor::new(&coll, "a global heap collection").at(addr);
    c.skip(16)?;
    while c.remaining() >= 16 {
        let idx = c.u16()?;
        c.skip(6)?;
        let len = c.u64()?;
        if idx == 0 {
            break; // free space: the rest of the collection
        }
        let len = usize::try_from(len).map_err(|_| data_loss("global heap object too large"))?;
        let data = c.bytes(len)?;
        if u32::from(idx) == index {
            return Ok(data.to_vec());
        }
        c.align(8)?;
    }
    Err(data_loss(format!("global heap collection has no object {index}")).with_offset(addr))
}
