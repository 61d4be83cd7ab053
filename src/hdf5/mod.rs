//! A pure-Rust subset of HDF5: enough to read what h5py writes for Keras
//! (and the common HDF5 features around it), and to write the subset h5py
//! writes by default (superblock v0, symbol-table groups, contiguous data).
//!
//! Anything outside the subset is refused by name ("HDF5 feature X not
//! supported"), never misread. Every address and size is checked against
//! the file before it is used or allocated.

mod attribute;
mod bt2;
mod btree;
mod checksum;
mod dataspace;
mod datatype;
mod dense;
mod earray;
mod farray;
mod filters;
mod group;
mod heap;
mod layout;
mod object_header;
mod read;
mod source;
mod superblock;
mod writer;

use std::fmt::Display;

pub use attribute::AttrValue;
pub use read::{Dataset, Hdf5File};
pub(crate) use source::Source;
pub use writer::Hdf5Writer;

pub(crate) use writer::beside;

/// Whether [`Hdf5Writer`] can store `dtype` so it reads back the same.
pub(crate) fn writer_can_hold(dtype: crate::DataType) -> bool {
    writer::can_hold(dtype)
}

use crate::error::Error;

/// HDF5's "undefined address" (all bits set).
pub(crate) const UNDEF: u64 = u64::MAX;

/// A structural problem in the file (bad signature, inconsistent sizes).
pub(crate) fn invalid(message: impl Display) -> Error {
    Error::invalid_format("hdf5", message.to_string())
}

/// A feature of HDF5 outside the subset this crate reads.
pub(crate) fn unsupported(feature: impl Display) -> Error {
    invalid(format!("HDF5 feature {feature} not supported"))
}

/// Bytes the file should hold but does not (truncation, bad checksum).
pub(crate) fn data_loss(message: impl Display) -> Error {
    Error::data_loss(format!("hdf5: {message}"))
}

/// A little-endian cursor over a metadata block; every read is checked.
/// A block read from an address ([`Cursor::at`]) reports where it ran
/// short as an offset (`with_offset`).
#[derive(Clone, Debug)]
pub(crate) struct Cursor<'a> {
    buf: &'a [u8],
    pos: usize,
    what: &'static str,
    /// The address of the block's first byte, when it has one.
    at: Option<u64>,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(buf: &'a [u8], what: &'static str) -> Self {
        Cursor {
            buf,
            pos: 0,
            what,
            at: None,
        }
    }
    /// The block lies at address `addr`: errors name the offset.
    pub(crate) fn at(mut self, addr: u64) -> Self {
        self.at = Some(addr);
        self
    }
    pub(crate) fn pos(&self) -> usize {
        self.pos
    }
    pub(crate) fn remaining(&self) -> usize {
        self.buf.len().saturating_sub(self.pos)
    }
    /// The bytes after the cursor.
    #[expect(
        clippy::indexing_slicing,
        reason = "pos <= buf.len(): it moves only past bytes `bytes` returned, and past the NUL \
                  `cstr` found"
    )]
    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.buf[self.pos..]
    }
    /// `err` at the cursor: the offset of its position, when the block's
    /// address is known.
    fn here(&self, err: Error) -> Error {
        match self.at {
            Some(at) => err.with_offset(at.saturating_add(self.pos as u64)),
            None => err,
        }
    }
    pub(crate) fn bytes(&mut self, n: usize) -> crate::error::Result<&'a [u8]> {
        let end = self.pos.checked_add(n);
        match end.and_then(|e| self.buf.get(self.pos..e)) {
            Some(s) => {
                self.pos += n;
                Ok(s)
            }
            None => Err(self.here(data_loss(format!(
                "{} is truncated: needs {n} bytes, has {}",
                self.what,
                self.remaining()
            )))),
        }
    }
    /// The next `N` bytes as an array.
    pub(crate) fn array<const N: usize>(&mut self) -> crate::error::Result<[u8; N]> {
        let mut out = [0u8; N];
        out.copy_from_slice(self.bytes(N)?);
        Ok(out)
    }
    pub(crate) fn skip(&mut self, n: usize) -> crate::error::Result<()> {
        self.bytes(n).map(|_| ())
    }
    pub(crate) fn u8(&mut self) -> crate::error::Result<u8> {
        Ok(self.uint(1)? as u8)
    }
    pub(crate) fn u16(&mut self) -> crate::error::Result<u16> {
        Ok(self.uint(2)? as u16)
    }
    pub(crate) fn u32(&mut self) -> crate::error::Result<u32> {
        Ok(self.uint(4)? as u32)
    }
    pub(crate) fn u64(&mut self) -> crate::error::Result<u64> {
        self.uint(8)
    }
    /// A little-endian unsigned integer of `n` (≤ 8) bytes.
    pub(crate) fn uint(&mut self, n: usize) -> crate::error::Result<u64> {
        if n > 8 {
            return Err(self.here(invalid(format!("{}: a {n}-byte integer", self.what))));
        }
        let b = self.bytes(n)?;
        Ok(b.iter()
            .rev()
            .fold(0u64, |acc, &x| (acc << 8) | u64::from(x)))
    }
    /// Skips to the next multiple of `align` from the cursor's start.
    pub(crate) fn align(&mut self, align: usize) -> crate::error::Result<()> {
        let pad = (align - self.pos % align) % align;
        self.skip(pad.min(self.remaining()))
    }
    /// A NUL-terminated string (the NUL consumed).
    pub(crate) fn cstr(&mut self) -> crate::error::Result<&'a [u8]> {
        let n = self
            .rest()
            .iter()
            .position(|&b| b == 0)
            .ok_or_else(|| self.here(data_loss(format!("{}: unterminated name", self.what))))?;
        let s = self.bytes(n)?;
        self.pos += 1;
        Ok(s)
    }
}
