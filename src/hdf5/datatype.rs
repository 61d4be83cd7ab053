//! Datatype messages (0x03), and the map from HDF5 types to [`DataType`].

use super::{Cursor, invalid, unsupported};
use crate::dtype::DataType;
use crate::error::Result;

/// An HDF5 datatype, as far as this reader understands it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Datatype {
    /// A numeric element that maps onto a TF dtype; `big_endian` elements
    /// are swapped on read (complex per half).
    Numeric { dtype: DataType, big_endian: bool },
    /// Opaque bytes (h5py's bfloat16 and other ml_dtypes).
    Opaque { size: u32 },
    /// A fixed-length string of `size` bytes.
    FixedString { size: u32 },
    /// A variable-length string (global heap).
    VlenString,
}

impl Datatype {
    /// Bytes per element in the file.
    pub(crate) fn size(&self) -> usize {
        match self {
            Datatype::Numeric { dtype, .. } => dtype.size(),
            Datatype::Opaque { size } | Datatype::FixedString { size } => *size as usize,
            Datatype::VlenString => 16,
        }
    }
}

/// Parses one datatype at the cursor (recursively for members and bases).
pub(crate) fn parse(c: &mut Cursor<'_>) -> Result<Datatype> {
    parse_depth(c, 0)
}

fn parse_depth(c: &mut Cursor<'_>, depth: u32) -> Result<Datatype> {
    if depth > 4 {
        return Err(unsupported("nested datatypes deeper than 4"));
    }
    let cv = c.u8()?;
    let (class, version) = (cv & 0x0f, cv >> 4);
    let [b0, b1, _] = c.array::<3>()?;
    let size = c.u32()?;
    let big_endian = b0 & 1 != 0;
    match class {
        0 => {
            let (offset, precision) = (c.u16()?, c.u16()?);
            if offset != 0 || u64::from(precision) != u64::from(size) * 8 {
                return Err(unsupported(format!(
                    "integer with bit offset {offset} and precision {precision}"
                )));
            }
            let signed = b0 & 0x08 != 0;
            let dtype = match (size, signed) {
                (1, true) => DataType::Int8,
                (2, true) => DataType::Int16,
                (4, true) => DataType::Int32,
                (8, true) => DataType::Int64,
                (1, false) => DataType::UInt8,
                (2, false) => DataType::UInt16,
                (4, false) => DataType::UInt32,
                (8, false) => DataType::UInt64,
                _ => return Err(unsupported(format!("{size}-byte integers"))),
            };
            Ok(Datatype::Numeric { dtype, big_endian })
        }
        1 => {
            if b0 & 0x40 != 0 {
                return Err(unsupported("VAX-order floating point"));
            }
            let (offset, precision) = (c.u16()?, c.u16()?);
            let (_exp_loc, exp_size, _mant_loc, mant_size) = (c.u8()?, c.u8()?, c.u8()?, c.u8()?);
            let _bias = c.u32()?;
            let dtype = match (size, exp_size, mant_size) {
                (2, 5, 10) => DataType::Half,
                (2, 8, 7) => DataType::BFloat16,
                (4, 8, 23) => DataType::Float,
                (8, 11, 52) => DataType::Double,
                _ => {
                    return Err(unsupported(format!(
                        "{size}-byte float with {exp_size} exponent and {mant_size} mantissa bits"
                    )));
                }
            };
            if offset != 0 || u64::from(precision) != u64::from(size) * 8 {
                return Err(unsupported(format!("float with bit offset {offset}")));
            }
            Ok(Datatype::Numeric { dtype, big_endian })
        }
        3 => Ok(Datatype::FixedString { size }),
        5 => {
            // The tag: b0 holds its length; NUL-padded to a multiple of 8.
            let tag_len = usize::from(b0);
            c.skip(tag_len)?;
            Ok(Datatype::Opaque { size })
        }
        6 => compound(c, version, u16::from_le_bytes([b0, b1]), size, depth),
        8 => enumeration(c, version, u16::from_le_bytes([b0, b1]), size, depth),
        9 => {
            if b0 & 0x0f != 1 {
                return Err(unsupported("variable-length sequences"));
            }
            parse_depth(c, depth + 1)?; // the character type
            Ok(Datatype::VlenString)
        }
        11 => {
            let base = parse_depth(c, depth + 1)?;
            complex_of(&base, &base, size)
        }
        2 => Err(unsupported("time datatype")),
        4 => Err(unsupported("bitfield datatype")),
        7 => Err(unsupported("reference datatype")),
        10 => Err(unsupported("array datatype")),
        k => Err(invalid(format!("datatype class {k}"))),
    }
}

fn complex_of(r: &Datatype, i: &Datatype, size: u32) -> Result<Datatype> {
    match (r, i) {
        (
            Datatype::Numeric {
                dtype: a,
                big_endian: ea,
            },
            Datatype::Numeric {
                dtype: b,
                big_endian: eb,
            },
        ) if a == b && ea == eb && (a.size() * 2) as u32 == size => {
            let dtype = match *a {
                DataType::Float => DataType::Complex64,
                DataType::Double => DataType::Complex128,
                _ => return Err(unsupported(format!("complex of {a}"))),
            };
            Ok(Datatype::Numeric {
                dtype,
                big_endian: *ea,
            })
        }
        _ => Err(unsupported(
            "compound datatype other than {r, i} of two equal floats",
        )),
    }
}

/// A member name: NUL-terminated; padded to 8 bytes in versions 1 and 2.
fn member_name<'a>(c: &mut Cursor<'a>, version: u8) -> Result<&'a [u8]> {
    let start = c.pos();
    let name = c.cstr()?;
    if version < 3 {
        let used = c.pos() - start;
        c.skip((8 - used % 8) % 8)?;
    }
    Ok(name)
}

fn compound(c: &mut Cursor<'_>, version: u8, n: u16, size: u32, depth: u32) -> Result<Datatype> {
    if n != 2 {
        return Err(unsupported(format!("compound datatype with {n} members")));
    }
    let mut members = Vec::new();
    for _ in 0..n {
        let name = member_name(c, version)?.to_vec();
        let offset = match version {
            1 => {
                let off = c.u32()?;
                let rank = c.u8()?;
                c.skip(3 + 4 + 4 + 16)?;
                if rank != 0 {
                    return Err(unsupported("array members in compound datatypes"));
                }
                u64::from(off)
            }
            2 => u64::from(c.u32()?),
            3 => {
                let width = match size {
                    0..=0xff => 1,
                    0x100..=0xffff => 2,
                    0x1_0000..=0xff_ffff => 3,
                    _ => 4,
                };
                c.uint(width)?
            }
            v => return Err(unsupported(format!("compound datatype version {v}"))),
        };
        let t = parse_depth(c, depth + 1)?;
        members.push((name, offset, t));
    }
    match members.as_slice() {
        [(rn, 0, r), (inm, io, i)]
            if rn.as_slice() == b"r" && inm.as_slice() == b"i" && *io == r.size() as u64 =>
        {
            complex_of(r, i, size)
        }
        _ => Err(unsupported(
            "compound datatype other than {r, i} of two equal floats",
        )),
    }
}

fn enumeration(c: &mut Cursor<'_>, version: u8, n: u16, size: u32, depth: u32) -> Result<Datatype> {
    let base = parse_depth(c, depth + 1)?;
    let mut names = Vec::new();
    for _ in 0..n.min(16) {
        names.push(member_name(c, version)?.to_vec());
    }
    let mut values = Vec::new();
    for _ in 0..n.min(16) {
        values.push(c.uint(size as usize)?);
    }
    let is_int8 = matches!(
        base,
        Datatype::Numeric {
            dtype: DataType::Int8 | DataType::UInt8,
            ..
        }
    );
    // h5py's bool: FALSE = 0, TRUE = 1 over a 1-byte integer.
    if n == 2
        && size == 1
        && is_int8
        && names == [b"FALSE".to_vec(), b"TRUE".to_vec()]
        && values == [0, 1]
    {
        Ok(Datatype::Numeric {
            dtype: DataType::Bool,
            big_endian: false,
        })
    } else {
        Err(unsupported("enum datatype other than h5py's bool"))
    }
}
