//! The superblock: format version, sizes, base address and the root group.

use super::{Cursor, Source, checksum, data_loss, invalid, unsupported};
use crate::error::Result;

pub(crate) const MAGIC: [u8; 8] = [0x89, b'H', b'D', b'F', 0x0d, 0x0a, 0x1a, 0x0a];

#[derive(Clone, Debug)]
pub(crate) struct Superblock {
    /// Absolute position of address 0.
    pub(crate) base: u64,
    /// The root group's object header address (relative to `base`).
    pub(crate) root: u64,
}

/// Finds the superblock at 0, 512, 1024, 2048, … and parses it.
pub(crate) fn read(src: &Source) -> Result<Superblock> {
    let mut at = 0u64;
    loop {
        let mut sig = [0u8; 8];
        if src.check(at, 8, "the superblock signature").is_err() {
            return Err(invalid("no HDF5 signature (not an HDF5 file)"));
        }
        src.read_into(at, &mut sig, "the superblock signature")?;
        if sig == MAGIC {
            return parse(src, at);
        }
        at = if at == 0 { 512 } else { at * 2 };
    }
}

fn parse(src: &Source, at: u64) -> Result<Superblock> {
    let buf = src.read_upto(at, 128, "the superblock")?;
    let mut c = Cursor::new(&buf, "the superblock").at(at);
    c.skip(8)?;
    let version = c.u8()?;
    let (base, eof, root) = match version {
        0 | 1 => {
            c.skip(4)?; // free-space, root symbol table, reserved, shared header versions
            let (o, l) = (c.u8()?, c.u8()?);
            check_sizes(o, l)?;
            c.skip(1 + 2 + 2 + 4)?; // reserved, leaf K, internal K, flags
            if version == 1 {
                c.skip(4)?; // indexed storage K, reserved
            }
            let base = c.u64()?;
            c.skip(8)?; // free space
            let eof = c.u64()?;
            c.skip(8 + 8)?; // driver info, root entry's link name offset
            let root = c.u64()?;
            (base, eof, root)
        }
        2 | 3 => {
            let (o, l) = (c.u8()?, c.u8()?);
            check_sizes(o, l)?;
            c.skip(1)?; // file consistency flags
            let base = c.u64()?;
            c.skip(8)?; // superblock extension
            let eof = c.u64()?;
            let root = c.u64()?;
            checksum::verify(&buf, c.pos(), "the superblock")?;
            (base, eof, root)
        }
        v => return Err(unsupported(format!("superblock version {v}"))),
    };
    // h5py records the superblock's own position as the base address when
    // there is a userblock; 0 with the superblock at 0.
    let base = if base == 0 { at } else { base };
    if base > src.len() {
        return Err(data_loss(format!(
            "base address {base} lies past the end of the file"
        )));
    }
    // As libhdf5 does: a file shorter than its end-of-file address was cut.
    // (With a userblock, h5py's end of file counts the userblock too:
    // observed 2576 for a 2576-byte file with a 512-byte userblock.)
    if src.len() < eof {
        return Err(data_loss(format!(
            "truncated file: the superblock's end of file is {eof}, the file holds {}",
            src.len()
        )));
    }
    Ok(Superblock { base, root })
}

fn check_sizes(offsets: u8, lengths: u8) -> Result<()> {
    if offsets == 8 && lengths == 8 {
        Ok(())
    } else {
        Err(unsupported(format!(
            "size of offsets {offsets} / size of lengths {lengths} (only 8/8)"
        )))
    }
}
