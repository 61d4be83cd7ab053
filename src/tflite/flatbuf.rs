//! A checked FlatBuffers reader over a [`Blob`]: every offset, vtable and
//! vector length is checked against the blob before use, so a hostile file
//! is an error, never a panic or a read out of bounds. Only the bytes the
//! parser touches are read: slices of a map where there is one, else 4 KiB
//! blocks read on demand and kept (a 100 MB model's listing reads its
//! tables, not its weights: the converter writes each `Buffer` table just
//! before its data, so larger blocks would read weights too).

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use bytes::Bytes;

use crate::error::{Error, Result};
use crate::io::Blob;

/// Bytes per cached block of a blob that is not mapped: a page.
const BLOCK: u64 = 4096;

/// At most this many elements in one vector of tables (tensors, buffers,
/// operators): a bound on the work a hostile length can ask for beyond
/// what the file's size already bounds.
const MAX_TABLES: u64 = 1 << 24;

/// The bytes of a flatbuffer, read by range.
pub(crate) struct Fb {
    blob: Arc<dyn Blob>,
    map: Option<Bytes>,
    len: u64,
    blocks: RefCell<HashMap<u64, Bytes>>,
}

/// A table: its position and its vtable's.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Table {
    pos: u64,
    vtable: u64,
    vtable_len: u64,
    object_len: u64,
}

/// A vector's first element and its length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Vector {
    pub(crate) start: u64,
    pub(crate) len: u64,
}

impl Fb {
    pub(crate) fn new(blob: Arc<dyn Blob>) -> Fb {
        Fb {
            map: blob.mapped(),
            len: blob.len(),
            blob,
            blocks: RefCell::new(HashMap::new()),
        }
    }

    /// The error for a structure that does not fit, at `offset`.
    pub(crate) fn bad(&self, what: &str, offset: u64) -> Error {
        Error::data_loss(format!("not a valid TFLite flatbuffer: {what}"))
            .with_path(self.blob.id())
            .with_offset(offset)
    }

    /// `N` bytes at `offset`.
    fn array<const N: usize>(&self, offset: u64) -> Result<[u8; N]> {
        let mut out = [0u8; N];
        self.copy(offset, &mut out)?;
        Ok(out)
    }

    /// Fills `dst` from `offset`, checked against the length.
    pub(crate) fn copy(&self, offset: u64, dst: &mut [u8]) -> Result<()> {
        let n = dst.len() as u64;
        if offset.checked_add(n).is_none_or(|end| end > self.len) {
            return Err(self.bad("an offset runs past the end of the file", offset));
        }
        if let Some(map) = &self.map {
            // In range: checked against the map's length above.
            let src = map.get(offset as usize..(offset + n) as usize);
            dst.copy_from_slice(src.ok_or_else(|| self.bad("out of range", offset))?);
            return Ok(());
        }
        let (first, last) = (offset / BLOCK, (offset + n).saturating_sub(1) / BLOCK);
        if n == 0 {
            return Ok(());
        }
        if first != last {
            return self.blob.read_at(offset, dst);
        }
        let mut blocks = self.blocks.borrow_mut();
        let block = match blocks.get(&first) {
            Some(b) => b.clone(),
            None => {
                let start = first * BLOCK;
                let b = Bytes::from(self.blob.read_upto(start, BLOCK)?);
                blocks.insert(first, b.clone());
                b
            }
        };
        let at = (offset - first * BLOCK) as usize;
        let src = block.get(at..at + dst.len());
        dst.copy_from_slice(src.ok_or_else(|| self.bad("out of range", offset))?);
        Ok(())
    }

    pub(crate) fn u8(&self, offset: u64) -> Result<u8> {
        Ok(self.array::<1>(offset)?[0])
    }

    pub(crate) fn u16(&self, offset: u64) -> Result<u16> {
        Ok(u16::from_le_bytes(self.array(offset)?))
    }

    pub(crate) fn u32(&self, offset: u64) -> Result<u32> {
        Ok(u32::from_le_bytes(self.array(offset)?))
    }

    pub(crate) fn i32(&self, offset: u64) -> Result<i32> {
        Ok(i32::from_le_bytes(self.array(offset)?))
    }

    pub(crate) fn u64(&self, offset: u64) -> Result<u64> {
        Ok(u64::from_le_bytes(self.array(offset)?))
    }

    /// The root table, after checking the file identifier.
    pub(crate) fn root(&self, ident: &[u8; 4]) -> Result<Table> {
        if self.len < 8 || &self.array::<4>(4)? != ident {
            return Err(self.bad("no TFL3 file identifier at bytes 4..8", 4));
        }
        self.table(self.uoffset(0)?)
    }

    /// The position an unsigned offset at `at` points to.
    fn uoffset(&self, at: u64) -> Result<u64> {
        let to = at + u64::from(self.u32(at)?);
        if to >= self.len {
            return Err(self.bad("an offset points past the end of the file", at));
        }
        Ok(to)
    }

    /// The table at `pos`, with its vtable checked.
    fn table(&self, pos: u64) -> Result<Table> {
        let soffset = i64::from(self.i32(pos)?);
        let vtable = i64::try_from(pos)
            .ok()
            .and_then(|p| p.checked_sub(soffset))
            .and_then(|v| u64::try_from(v).ok())
            .ok_or_else(|| self.bad("a vtable before the start of the file", pos))?;
        let vtable_len = u64::from(self.u16(vtable)?);
        let object_len = u64::from(self.u16(vtable + 2)?);
        if vtable_len < 4 || vtable_len % 2 != 0 || vtable + vtable_len > self.len {
            return Err(self.bad("a vtable of a bad size", vtable));
        }
        if object_len < 4 || pos + object_len > self.len {
            return Err(self.bad("a table of a bad size", pos));
        }
        Ok(Table {
            pos,
            vtable,
            vtable_len,
            object_len,
        })
    }

    /// Where field `id` of `t` is, if set, with `size` bytes inside the
    /// table.
    fn field(&self, t: Table, id: u64, size: u64) -> Result<Option<u64>> {
        let slot = 4 + 2 * id;
        if slot + 2 > t.vtable_len {
            return Ok(None);
        }
        let at = u64::from(self.u16(t.vtable + slot)?);
        if at == 0 {
            return Ok(None);
        }
        if at + size > t.object_len {
            return Err(self.bad("a field outside its table", t.pos + at));
        }
        Ok(Some(t.pos + at))
    }

    pub(crate) fn field_u8(&self, t: Table, id: u64, default: u8) -> Result<u8> {
        self.field(t, id, 1)?.map_or(Ok(default), |at| self.u8(at))
    }

    pub(crate) fn field_i32(&self, t: Table, id: u64, default: i32) -> Result<i32> {
        self.field(t, id, 4)?.map_or(Ok(default), |at| self.i32(at))
    }

    pub(crate) fn field_u32(&self, t: Table, id: u64, default: u32) -> Result<u32> {
        self.field(t, id, 4)?.map_or(Ok(default), |at| self.u32(at))
    }

    pub(crate) fn field_u64(&self, t: Table, id: u64) -> Result<u64> {
        self.field(t, id, 8)?.map_or(Ok(0), |at| self.u64(at))
    }

    /// The sub-table of field `id`.
    pub(crate) fn field_table(&self, t: Table, id: u64) -> Result<Option<Table>> {
        match self.field(t, id, 4)? {
            Some(at) => Ok(Some(self.table(self.uoffset(at)?)?)),
            None => Ok(None),
        }
    }

    /// The vector of field `id`, of elements of `elem` bytes, checked to
    /// lie inside the file.
    pub(crate) fn field_vector(&self, t: Table, id: u64, elem: u64) -> Result<Option<Vector>> {
        let Some(at) = self.field(t, id, 4)? else {
            return Ok(None);
        };
        let pos = self.uoffset(at)?;
        let len = u64::from(self.u32(pos)?);
        let start = pos + 4;
        let fits = len
            .checked_mul(elem)
            .and_then(|n| n.checked_add(start))
            .is_some_and(|end| end <= self.len);
        if !fits {
            return Err(self.bad("a vector runs past the end of the file", pos));
        }
        Ok(Some(Vector { start, len }))
    }

    /// A string field (bytes read as UTF-8, invalid sequences replaced).
    pub(crate) fn field_str(&self, t: Table, id: u64) -> Result<Option<String>> {
        match self.field_vector(t, id, 1)? {
            Some(v) => {
                let bytes = self.bytes_of(v)?;
                Ok(Some(String::from_utf8_lossy(&bytes).into_owned()))
            }
            None => Ok(None),
        }
    }

    /// A string field, `""` when absent: FlatBuffers' default for a string
    /// field the schema gives no default (as flatc's object API reads it).
    pub(crate) fn field_string(&self, t: Table, id: u64) -> Result<String> {
        Ok(self.field_str(t, id)?.unwrap_or_default())
    }

    /// A vector of `i32` field, empty when absent (FlatBuffers' default for
    /// a vector field, as flatc's object API reads it).
    pub(crate) fn field_i32_vec(&self, t: Table, id: u64) -> Result<Vec<i32>> {
        Ok(self.field_i32s(t, id)?.unwrap_or_default())
    }

    /// A vector's bytes (of a vector of bytes).
    pub(crate) fn bytes_of(&self, v: Vector) -> Result<Vec<u8>> {
        let mut out = crate::buffer::try_vec::<u8>(v.len as usize)?;
        out.resize(v.len as usize, 0);
        self.copy(v.start, &mut out)?;
        Ok(out)
    }

    /// A vector of `i32` field.
    pub(crate) fn field_i32s(&self, t: Table, id: u64) -> Result<Option<Vec<i32>>> {
        self.field_vector(t, id, 4)?
            .map(|v| (0..v.len).map(|k| self.i32(v.start + 4 * k)).collect())
            .transpose()
    }

    /// A vector of `f32` field.
    pub(crate) fn field_f32s(&self, t: Table, id: u64) -> Result<Vec<f32>> {
        Ok(self
            .field_i32_vec(t, id)?
            .into_iter()
            .map(|b| f32::from_bits(b as u32))
            .collect())
    }

    /// A vector of `i64` field.
    pub(crate) fn field_i64s(&self, t: Table, id: u64) -> Result<Vec<i64>> {
        match self.field_vector(t, id, 8)? {
            Some(v) => (0..v.len)
                .map(|k| Ok(self.u64(v.start + 8 * k)? as i64))
                .collect(),
            None => Ok(Vec::new()),
        }
    }

    /// The tables of a vector-of-tables field (empty when unset).
    pub(crate) fn field_tables(&self, t: Table, id: u64) -> Result<Vec<Table>> {
        let Some(v) = self.field_vector(t, id, 4)? else {
            return Ok(Vec::new());
        };
        if v.len > MAX_TABLES {
            return Err(self.bad("too many tables in one vector", v.start));
        }
        (0..v.len)
            .map(|k| self.table(self.uoffset(v.start + 4 * k)?))
            .collect()
    }
}
