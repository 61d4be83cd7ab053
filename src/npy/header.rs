//! The `.npy` header: the magic and version, the header length, and the
//! Python dict literal `{'descr': ..., 'fortran_order': ..., 'shape': ...}`,
//! parsed without evaluating anything and written byte for byte as
//! `np.save` writes it (NumPy's `numpy/lib/_format_impl.py`).

use crate::dtype::DataType;
use crate::error::{Error, Result};
use crate::shape::TensorShape;

/// `\x93NUMPY`.
pub(crate) const MAGIC: &[u8; 6] = b"\x93NUMPY";

/// NumPy's `ARRAY_ALIGN`: the data starts at a multiple of 64.
const ARRAY_ALIGN: usize = 64;

/// NumPy's `GROWTH_AXIS_MAX_DIGITS`: spare spaces so the first dimension can
/// grow in place.
const GROWTH_AXIS_MAX_DIGITS: usize = 21;

/// How the bytes of one element are laid out in the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Elem {
    /// A fixed-size number, bool or complex that maps to `dtype`. `swap` is
    /// the size of the units to byte-swap (0: the file is little-endian or
    /// single-byte).
    Pod { dtype: DataType, swap: usize },
    /// `S<n>`: NUL-padded byte strings.
    Bytes(usize),
    /// `U<n>`: UTF-32 strings of `n` code points.
    Unicode { chars: usize, big_endian: bool },
    /// A type NumPy itself does not know (`V<n>`, ml_dtypes' `f1`): read
    /// only with an explicit dtype. `big_endian` as for `Pod`.
    Opaque { size: usize, big_endian: bool },
}

impl Elem {
    /// Bytes per element in the file.
    pub(crate) fn item_size(&self) -> Option<usize> {
        match *self {
            Elem::Pod { dtype, .. } => Some(dtype.size()),
            Elem::Bytes(n) => Some(n),
            Elem::Unicode { chars, .. } => chars.checked_mul(4),
            Elem::Opaque { size, .. } => Some(size),
        }
    }
}

/// A parsed header.
#[derive(Clone, Debug)]
pub(crate) struct Header {
    /// The `descr` string as written, for messages.
    pub(crate) descr: String,
    pub(crate) elem: Elem,
    pub(crate) fortran_order: bool,
    pub(crate) shape: TensorShape,
    /// Where the data starts: prefix plus header length.
    pub(crate) data_offset: usize,
}

impl Header {
    /// Bytes of data the header declares.
    pub(crate) fn data_len(&self) -> Result<usize> {
        usize::try_from(self.shape.num_elements())
            .ok()
            .zip(self.elem.item_size())
            .and_then(|(n, size)| n.checked_mul(size))
            .ok_or(Error::Overflow(crate::OverflowError::Size {
                what: "npy data bytes",
            }))
    }
}

fn bad(what: &str, message: impl std::fmt::Display) -> Error {
    Error::invalid_format("npy", message.to_string()).with_path(what)
}

/// Reads the fixed prefix: returns the header length field's size (2 or 4),
/// whether the header is UTF-8 (version 3), and the header length.
pub(crate) fn parse_prefix(prefix: &[u8], what: &str) -> Result<(usize, usize, bool)> {
    if prefix.get(..6) != Some(&MAGIC[..]) {
        return Err(bad(
            what,
            "not a .npy file (the magic string \\x93NUMPY is missing)",
        ));
    }
    let (major, minor) = match prefix.get(6..8) {
        Some(&[a, b]) => (a, b),
        _ => return Err(truncated(what, "the header")),
    };
    let (len_size, utf8) = match (major, minor) {
        (1, 0) => (2, false),
        (2, 0) => (4, false),
        (3, 0) => (4, true),
        _ => {
            return Err(bad(
                what,
                format!(
                    "unsupported .npy format version {major}.{minor} (1.0, 2.0 and 3.0 are known)"
                ),
            ));
        }
    };
    let len = match prefix.get(8..8 + len_size) {
        Some(&[a, b]) => usize::from(u16::from_le_bytes([a, b])),
        Some(&[a, b, c, d]) => usize::try_from(u32::from_le_bytes([a, b, c, d]))
            .map_err(|_| bad(what, "header length does not fit in memory"))?,
        _ => return Err(truncated(what, "the header")),
    };
    Ok((8 + len_size, len, utf8))
}

pub(crate) fn truncated(what: &str, part: &str) -> Error {
    Error::data_loss(format!("npy: truncated in {part}")).with_path(what)
}

/// Parses the header text (after the prefix). `data_offset` is prefix plus
/// text length.
pub(crate) fn parse_text(
    text: &[u8],
    utf8: bool,
    data_offset: usize,
    what: &str,
) -> Result<Header> {
    // Latin-1 (versions 1 and 2) and UTF-8 (version 3) agree on ASCII, and
    // nothing outside ASCII can appear in a header this crate reads (only
    // in structured dtypes' field names).
    // Where the text starts in the file, for the offsets of errors.
    let start = data_offset.saturating_sub(text.len());
    if let Some(pos) = text.iter().position(|b| !b.is_ascii()) {
        let enc = if utf8 { "UTF-8" } else { "latin-1" };
        return Err(bad(
            what,
            format!("header has a non-ASCII ({enc}) byte; structured dtypes are not supported"),
        )
        .with_offset((start + pos) as u64));
    }
    let mut p = Parser {
        s: text,
        pos: 0,
        start,
        what,
    };
    let (descr, fortran_order, dims) = p.dict()?;
    let elem = parse_descr(&descr).map_err(|m| bad(what, m))?;
    let shape = TensorShape::new(&dims).map_err(|e| bad(what, format!("bad shape: {e}")))?;
    Ok(Header {
        descr,
        elem,
        fortran_order,
        shape,
        data_offset,
    })
}

/// Maps a `descr` string to the element layout.
pub(crate) fn parse_descr(descr: &str) -> std::result::Result<Elem, String> {
    let (order, rest) = match descr.as_bytes().first() {
        Some(b'<' | b'>' | b'|' | b'=') => descr.split_at(1),
        _ => ("=", descr),
    };
    // Native order is little-endian on every platform this crate supports.
    let big = order == ">" && cfg!(target_endian = "little")
        || order == "=" && cfg!(target_endian = "big");
    let (kind, digits) = rest.split_at(rest.len().min(1));
    let size: Option<usize> = if digits.is_empty() {
        None
    } else if digits.bytes().all(|b| b.is_ascii_digit()) {
        digits.parse().ok()
    } else {
        return Err(format!(
            "unsupported dtype {descr:?} (not a plain NumPy type; datetimes, structured and other dtypes are not read)"
        ));
    };
    let pod = |dtype: DataType| {
        let swap = if big && dtype.size() > 1 {
            if dtype.is_complex() {
                dtype.size() / 2
            } else {
                dtype.size()
            }
        } else {
            0
        };
        Ok(Elem::Pod { dtype, swap })
    };
    let unsupported = || Err(format!("dtype {descr:?} has no TensorFlow equivalent"));
    match (kind, size) {
        ("O", _) => Err(format!(
            "dtype {descr:?} is an object array (pickled Python objects), which is never unpickled"
        )),
        ("b", Some(1)) | ("?", None) => pod(DataType::Bool),
        ("i", Some(1)) => pod(DataType::Int8),
        ("i", Some(2)) => pod(DataType::Int16),
        ("i", Some(4)) => pod(DataType::Int32),
        ("i", Some(8)) => pod(DataType::Int64),
        ("u", Some(1)) => pod(DataType::UInt8),
        ("u", Some(2)) => pod(DataType::UInt16),
        ("u", Some(4)) => pod(DataType::UInt32),
        ("u", Some(8)) => pod(DataType::UInt64),
        ("f", Some(2)) => pod(DataType::Half),
        ("f", Some(4)) => pod(DataType::Float),
        ("f", Some(8)) => pod(DataType::Double),
        ("c", Some(8)) => pod(DataType::Complex64),
        ("c", Some(16)) => pod(DataType::Complex128),
        ("S" | "a", Some(n)) => Ok(Elem::Bytes(n)),
        ("U", Some(n)) => Ok(Elem::Unicode {
            chars: n,
            big_endian: big,
        }),
        // ml_dtypes writes float8_e5m2 as `f1`, every other type of its
        // own as `V<size>`.
        ("V", Some(n)) | ("f", Some(n @ 1)) => Ok(Elem::Opaque {
            size: n,
            big_endian: big,
        }),
        _ => unsupported(),
    }
}

/// A recursive-descent parser for the one dict literal a header holds.
struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
    /// Where `s` starts in the file.
    start: usize,
    what: &'a str,
}

impl Parser<'_> {
    /// A malformed header, at the file offset the parser reached.
    fn err(&self, msg: &str) -> Error {
        bad(self.what, format!("malformed header: {msg}"))
            .with_offset((self.start + self.pos) as u64)
    }

    fn peek(&mut self) -> Option<u8> {
        while let Some(&c) = self.s.get(self.pos) {
            if c == b' ' || c == b'\t' || c == b'\n' || c == b'\r' {
                self.pos += 1;
            } else {
                return Some(c);
            }
        }
        None
    }

    fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: u8) -> Result<()> {
        if self.eat(c) {
            Ok(())
        } else {
            Err(self.err(&format!("expected '{}'", char::from(c))))
        }
    }

    fn string(&mut self) -> Result<String> {
        let Some(q @ (b'\'' | b'"')) = self.peek() else {
            return Err(self.err("expected a string"));
        };
        self.pos += 1;
        let start = self.pos;
        let body = self
            .s
            .get(start..)
            .and_then(|rest| {
                rest.split(|&c| c == q)
                    .next()
                    .filter(|b| b.len() < rest.len())
            })
            .ok_or_else(|| self.err("unterminated string"))?;
        let len = body.len();
        if body.contains(&b'\\') {
            return Err(self.err("escapes in strings are not supported"));
        }
        self.pos = start + len + 1;
        Ok(String::from_utf8_lossy(body).into_owned())
    }

    #[expect(
        clippy::indexing_slicing,
        reason = "`pos` only ever advances over bytes of `s` (or just past a closing quote in it)"
    )]
    fn word(&mut self) -> &[u8] {
        self.peek();
        let rest = &self.s[self.pos..];
        let len = rest
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
            .count();
        self.pos += len;
        rest.split_at(len).0
    }

    fn boolean(&mut self) -> Result<bool> {
        match self.word() {
            b"True" => Ok(true),
            b"False" => Ok(false),
            _ => Err(self.err("expected True or False")),
        }
    }

    fn int(&mut self) -> Result<i64> {
        let w = self.word();
        // Python 2 wrote longs as `3L`.
        // Without the `L` the word is its own digits.
        let digits = w.strip_suffix(b"L").unwrap_or(w);
        if digits.is_empty() || !digits.iter().all(u8::is_ascii_digit) {
            return Err(self.err("expected a non-negative integer dimension"));
        }
        std::str::from_utf8(digits)
            .ok()
            .and_then(|d| d.parse::<i64>().ok())
            .ok_or_else(|| self.err("dimension does not fit in an int64"))
    }

    fn shape(&mut self) -> Result<Vec<i64>> {
        if self.peek() == Some(b'[') {
            return Err(self.err("shape must be a tuple"));
        }
        self.expect(b'(')?;
        let mut dims = Vec::new();
        loop {
            if self.eat(b')') {
                break;
            }
            if dims.len() > crate::shape::MAX_DIMENSIONS {
                return Err(self.err("more dimensions than a tensor can have"));
            }
            dims.push(self.int()?);
            if !self.eat(b',') {
                self.expect(b')')?;
                // `(3)` is an int in Python, not a tuple.
                if dims.len() == 1 {
                    return Err(self.err("shape must be a tuple (a 1-tuple needs a comma)"));
                }
                break;
            }
        }
        Ok(dims)
    }

    fn dict(&mut self) -> Result<(String, bool, Vec<i64>)> {
        self.expect(b'{')?;
        let (mut descr, mut fortran, mut shape) = (None, None, None);
        loop {
            if self.eat(b'}') {
                break;
            }
            let key = self.string()?;
            self.expect(b':')?;
            match key.as_str() {
                "descr" if descr.is_none() => {
                    if matches!(self.peek(), Some(b'[' | b'{')) {
                        return Err(bad(self.what, "structured dtypes are not supported"));
                    }
                    descr = Some(self.string()?);
                }
                "fortran_order" if fortran.is_none() => fortran = Some(self.boolean()?),
                "shape" if shape.is_none() => shape = Some(self.shape()?),
                _ => return Err(self.err(&format!("unexpected or repeated key {key:?}"))),
            }
            if !self.eat(b',') {
                self.expect(b'}')?;
                break;
            }
        }
        if self.peek().is_some() {
            return Err(self.err("text after the dict"));
        }
        match (descr, fortran, shape) {
            (Some(d), Some(f), Some(s)) => Ok((d, f, s)),
            _ => Err(bad(
                self.what,
                "header does not contain the keys 'descr', 'fortran_order' and 'shape'",
            )),
        }
    }
}

/// The `descr` np.save writes for a tensor of `dtype` (`max_len`: the
/// longest string, for `DT_STRING`). ml_dtypes types are written as
/// NumPy writes ml_dtypes arrays (`V1`/`V2`; float8_e5m2 too, where np.save
/// writes an unreadable `f1`); quantized types as their integers.
pub(crate) fn descr_for(dtype: DataType, max_len: usize) -> Result<String> {
    let d = match dtype {
        DataType::Bool => "|b1",
        DataType::Int8 | DataType::QInt8 => "|i1",
        DataType::UInt8 | DataType::QUInt8 => "|u1",
        DataType::Int16 | DataType::QInt16 => "<i2",
        DataType::UInt16 | DataType::QUInt16 => "<u2",
        DataType::Int32 | DataType::QInt32 => "<i4",
        DataType::UInt32 => "<u4",
        DataType::Int64 => "<i8",
        DataType::UInt64 => "<u8",
        DataType::Half => "<f2",
        DataType::Float => "<f4",
        DataType::Double => "<f8",
        DataType::Complex64 => "<c8",
        DataType::Complex128 => "<c16",
        DataType::BFloat16 => "<V2",
        // np.save writes ml_dtypes' float8_e5m2 as '<f1', which np.load
        // cannot read back (not even with ml_dtypes); '<V1' it can.
        DataType::Float8E4M3FN
        | DataType::Float8E5M2
        | DataType::Float8E4M3FNUZ
        | DataType::Float8E4M3B11FNUZ
        | DataType::Float8E5M2FNUZ
        | DataType::Int4
        | DataType::UInt4
        | DataType::Int2
        | DataType::UInt2
        | DataType::Float4E2M1FN => "<V1",
        DataType::String => return Ok(format!("|S{}", max_len.max(1))),
        _ => {
            return Err(Error::unsupported(
                dtype,
                format!("npy: {dtype} tensors cannot be written to .npy"),
            ));
        }
    };
    Ok(d.to_string())
}

/// The full header (prefix, dict, padding, newline) as `np.save` writes it:
/// version 1.0 unless the header needs more than 65535 bytes.
pub(crate) fn write_header(descr: &str, shape: &TensorShape) -> Vec<u8> {
    let dims = shape.dim_sizes();
    let shape_repr = match dims.as_slice() {
        [] => "()".to_string(),
        [d] => format!("({d},)"),
        ds => format!(
            "({})",
            ds.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
        ),
    };
    let mut text =
        format!("{{'descr': '{descr}', 'fortran_order': False, 'shape': {shape_repr}, }}");
    if let Some(first) = dims.first() {
        let digits = first.to_string().len();
        text.push_str(&" ".repeat(GROWTH_AXIS_MAX_DIGITS.saturating_sub(digits)));
    }
    // +1 for the final newline.
    let hlen = text.len() + 1;
    // NumPy's padding is 1..=64 spaces (64 when already aligned).
    let pad_for = |prefix_len: usize| ARRAY_ALIGN - (prefix_len + hlen) % ARRAY_ALIGN;
    let (prefix_len, major) = if hlen + pad_for(10) <= 0xFFFF {
        (10, 1u8)
    } else {
        (12, 2u8)
    };
    let pad = pad_for(prefix_len);
    let total_hlen = hlen + pad;
    let mut out = Vec::with_capacity(prefix_len + total_hlen);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[major, 0]);
    if major == 1 {
        out.extend_from_slice(&(total_hlen as u16).to_le_bytes());
    } else {
        out.extend_from_slice(&(total_hlen as u32).to_le_bytes());
    }
    out.extend_from_slice(text.as_bytes());
    out.resize(out.len() + pad, b' ');
    out.push(b'\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Header> {
        parse_text(text.as_bytes(), false, 0, "t")
    }

    #[test]
    fn parses_np_save_headers_and_variants() {
        let h = parse("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }   \n").unwrap();
        assert_eq!(
            h.elem,
            Elem::Pod {
                dtype: DataType::Float,
                swap: 0
            }
        );
        assert_eq!(h.shape.dim_sizes(), vec![2, 3]);
        let h = parse("{\"shape\":(),\"fortran_order\":True,\"descr\":\">c8\"}").unwrap();
        assert_eq!(
            h.elem,
            Elem::Pod {
                dtype: DataType::Complex64,
                swap: 4
            }
        );
        assert!(h.fortran_order);
        assert_eq!(h.shape.dims(), 0);
        assert_eq!(
            parse("{'descr':'|S5','fortran_order':False,'shape':(4L,)}")
                .unwrap()
                .elem,
            Elem::Bytes(5)
        );
        assert_eq!(
            parse("{'descr':'>U3','fortran_order':False,'shape':(1,)}")
                .unwrap()
                .elem,
            Elem::Unicode {
                chars: 3,
                big_endian: true
            }
        );
    }

    #[test]
    fn refuses_bad_headers() {
        for (text, needle) in [
            (
                "{'descr': '|O', 'fortran_order': False, 'shape': (2,), }",
                "never unpickled",
            ),
            (
                "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }",
                "structured",
            ),
            (
                "{'descr': '<M8[ns]', 'fortran_order': False, 'shape': (2,), }",
                "not a plain NumPy type",
            ),
            (
                "{'descr': '<f16', 'fortran_order': False, 'shape': (2,), }",
                "no TensorFlow equivalent",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (-1,), }",
                "non-negative",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2), }",
                "1-tuple",
            ),
            ("{'descr': '<f4', 'shape': (2,), }", "keys"),
            (
                "{'descr': '<f4', 'descr': '<f4', 'shape': (2,), }",
                "repeated",
            ),
            (
                "{'descr': '<f4', 'fortran_order': 0, 'shape': (2,), }",
                "True or False",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), } x",
                "after the dict",
            ),
            ("{'descr': '<f4", "unterminated"),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (99999999999999999999,), }",
                "int64",
            ),
            (
                "{'descr': '<f4', 'fortran_order': False, 'shape': (4611686018427387904, 4), }",
                "bad shape",
            ),
        ] {
            let e = parse(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn header_layout_matches_np_save() {
        let shape = TensorShape::new(&[2]).unwrap();
        let h = write_header("<V2", &shape);
        assert_eq!(h.len(), 128);
        assert_eq!(
            &h[..],
            &b"\x93NUMPY\x01\x00v\x00{'descr': '<V2', 'fortran_order': False, 'shape': (2,), }                                                            \n"[..]
        );
        let scalar = write_header("|b1", &TensorShape::new(&[]).unwrap());
        assert_eq!(scalar.len() % 64, 0);
        assert!(scalar.starts_with(
            b"\x93NUMPY\x01\x00\x76\x00{'descr': '|b1', 'fortran_order': False, 'shape': (), }  "
        ));
        assert!(scalar.ends_with(b" \n"));
    }
}
