//! Attribute messages (0x0C, versions 1–3): the string attributes Keras
//! writes (`name`, `dtype`, `keras_version`, `layer_names`, …).

use super::datatype::{self, Datatype};
use super::{Cursor, Source, dataspace, heap, unsupported};
use crate::error::Result;

/// An attribute's value, as far as Keras files need it.
#[derive(Clone, Debug, PartialEq)]
pub enum AttrValue {
    /// A scalar string (vlen or fixed-length).
    Str(String),
    /// A 1-D array of strings; an empty numeric array reads as empty
    /// (h5py stores `[]` as float64 `(0,)`).
    Strs(Vec<String>),
    /// Any other type: present, but not interpreted.
    Other,
}

/// Parses one attribute message into its name and value.
pub(crate) fn parse(src: &Source, body: &[u8]) -> Result<(String, AttrValue)> {
    let mut c = Cursor::new(body, "an attribute");
    let version = c.u8()?;
    let flags = c.u8()?;
    if !(1..=3).contains(&version) {
        return Err(unsupported(format!("attribute message version {version}")));
    }
    if version > 1 && flags & 0x03 != 0 {
        return Err(unsupported("shared datatype or dataspace in an attribute"));
    }
    let name_len = c.u16()? as usize;
    let type_len = c.u16()? as usize;
    let space_len = c.u16()? as usize;
    if version == 3 {
        c.skip(1)?; // name character set
    }
    let pad = |n: usize| if version == 1 { (n + 7) & !7 } else { n };
    let name_bytes = c.bytes(pad(name_len))?;
    #[expect(
        clippy::indexing_slicing,
        reason = "`name_bytes` holds `pad(name_len) >= name_len` bytes; the NUL is dropped"
    )]
    let name = String::from_utf8_lossy(&name_bytes[..name_len.saturating_sub(1)]).into_owned();
    let type_bytes = c.bytes(pad(type_len))?;
    let space_bytes = c.bytes(pad(space_len))?;
    let data = c.rest();
    let value = match (
        datatype::parse(&mut Cursor::new(type_bytes, "an attribute datatype")),
        dataspace::parse(&mut Cursor::new(space_bytes, "an attribute dataspace"))?,
    ) {
        (Ok(t), Some(dims)) => value(src, &t, &dims, data)?,
        _ => AttrValue::Other,
    };
    Ok((name, value))
}

fn value(src: &Source, t: &Datatype, dims: &[u64], data: &[u8]) -> Result<AttrValue> {
    let n: u64 = dims.iter().product();
    if dims.len() > 1 {
        return Ok(AttrValue::Other);
    }
    if n == 0 && matches!(t, Datatype::Numeric { .. }) && dims.len() == 1 {
        return Ok(AttrValue::Strs(Vec::new()));
    }
    let size = t.size();
    let strings = match t {
        Datatype::VlenString | Datatype::FixedString { .. } => {
            // Each element needs at least `size` bytes of the message.
            if n.saturating_mul(size as u64) > data.len() as u64 {
                return Err(super::data_loss("attribute data shorter than its shape"));
            }
            let mut out = Vec::new();
            for e in data.chunks(size.max(1)).take(n as usize) {
                out.push(string(src, t, e)?);
            }
            out
        }
        _ => return Ok(AttrValue::Other),
    };
    Ok(if dims.is_empty() {
        // A scalar has one element (n = 1), unless its strings take no
        // bytes at all.
        let first = strings.into_iter().next();
        AttrValue::Str(
            first.ok_or_else(|| super::data_loss("a scalar string attribute of 0 bytes"))?,
        )
    } else {
        AttrValue::Strs(strings)
    })
}

fn string(src: &Source, t: &Datatype, e: &[u8]) -> Result<String> {
    let bytes = if *t == Datatype::VlenString {
        let mut c = Cursor::new(e, "a variable-length string");
        let len = c.u32()?;
        let addr = c.u64()?;
        let index = c.u32()?;
        if len == 0 {
            Vec::new()
        } else {
            let mut obj = heap::global_object(src, addr, index)?;
            obj.truncate(len as usize);
            obj
        }
    } else {
        // Fixed-length: null-padded (or null-terminated).
        e.iter().copied().take_while(|&b| b != 0).collect()
    };
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
