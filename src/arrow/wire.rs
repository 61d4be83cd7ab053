//! The protobuf wire format, read in place: just enough to walk
//! `tf.train.Example` messages field by field without building them.
//!
//! Semantics follow C++ protobuf, which tfx-bsl parses with: a field whose
//! wire type does not match its declaration is an unknown field and is
//! skipped, as are groups; tag 0, wire types 6 and 7, a varint over 10
//! bytes and a length past the end are parse errors.

/// A malformed message (the caller names the record).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Malformed;

/// One field's payload.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Value<'a> {
    /// Wire type 0.
    Varint(u64),
    /// Wire type 1 (no Example field has it; skipped).
    Fixed64,
    /// Wire type 2.
    Len(&'a [u8]),
    /// Wire type 5.
    Fixed32(u32),
    /// A group (wire types 3 and 4), skipped whole.
    Group,
}

/// Reads a varint from the front of `buf`, advancing it.
#[inline]
pub(crate) fn varint(buf: &mut &[u8]) -> Result<u64, Malformed> {
    // One byte: tags, short lengths, small ints (the common case).
    if let Some((&b, rest)) = buf.split_first() {
        if b < 0x80 {
            *buf = rest;
            return Ok(u64::from(b));
        }
    }
    let mut value = 0u64;
    for (i, &b) in buf.iter().enumerate().take(10) {
        value |= u64::from(b & 0x7f) << (7 * i);
        if b < 0x80 {
            *buf = buf.get(i + 1..).ok_or(Malformed)?;
            return Ok(value);
        }
    }
    Err(Malformed)
}

/// Takes `n` bytes from the front of `buf`.
#[inline]
fn take<'a>(buf: &mut &'a [u8], n: u64) -> Result<&'a [u8], Malformed> {
    let n = usize::try_from(n).map_err(|_| Malformed)?;
    if n > buf.len() {
        return Err(Malformed);
    }
    let (head, tail) = buf.split_at(n);
    *buf = tail;
    Ok(head)
}

/// The fields of one message, in wire order.
pub(crate) struct Fields<'a> {
    buf: &'a [u8],
}

impl<'a> Fields<'a> {
    /// Walks `buf`, one message's bytes.
    pub(crate) fn new(buf: &'a [u8]) -> Self {
        Fields { buf }
    }

    /// The next field number and payload, `None` at the end.
    #[inline]
    pub(crate) fn next_field(&mut self) -> Result<Option<(u32, Value<'a>)>, Malformed> {
        if self.buf.is_empty() {
            return Ok(None);
        }
        let tag = varint(&mut self.buf)?;
        let number = u32::try_from(tag >> 3).map_err(|_| Malformed)?;
        if number == 0 {
            return Err(Malformed);
        }
        let value = match tag & 7 {
            0 => Value::Varint(varint(&mut self.buf)?),
            1 => {
                take(&mut self.buf, 8)?;
                Value::Fixed64
            }
            2 => {
                let n = varint(&mut self.buf)?;
                Value::Len(take(&mut self.buf, n)?)
            }
            3 => {
                self.skip_group(number)?;
                Value::Group
            }
            5 => {
                let b = take(&mut self.buf, 4)?;
                Value::Fixed32(u32::from_le_bytes(b.try_into().map_err(|_| Malformed)?))
            }
            // An end-group with no start, or wire types 6 and 7.
            _ => return Err(Malformed),
        };
        Ok(Some((number, value)))
    }

    /// Skips to the end-group tag that closes group `number`, nested
    /// groups included (iteratively: no recursion on hostile depth).
    fn skip_group(&mut self, number: u32) -> Result<(), Malformed> {
        let mut open = vec![number];
        while let Some(&top) = open.last() {
            let tag = varint(&mut self.buf)?;
            let n = u32::try_from(tag >> 3).map_err(|_| Malformed)?;
            if n == 0 {
                return Err(Malformed);
            }
            match tag & 7 {
                0 => drop(varint(&mut self.buf)?),
                1 => drop(take(&mut self.buf, 8)?),
                2 => {
                    let len = varint(&mut self.buf)?;
                    take(&mut self.buf, len)?;
                }
                3 => open.push(n),
                4 if n == top => drop(open.pop()),
                5 => drop(take(&mut self.buf, 4)?),
                _ => return Err(Malformed),
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walks_fields_and_skips_groups() {
        // 1: varint 150; 2: "ab"; group 3 { 1: 7 }; 5: fixed32 1.
        let bytes = [
            0x08, 0x96, 0x01, 0x12, 2, b'a', b'b', 0x1b, 0x08, 7, 0x1c, 0x2d, 1, 0, 0, 0,
        ];
        let mut f = Fields::new(&bytes);
        assert!(matches!(f.next_field(), Ok(Some((1, Value::Varint(150))))));
        assert!(matches!(f.next_field(), Ok(Some((2, Value::Len(b"ab"))))));
        assert!(matches!(f.next_field(), Ok(Some((3, Value::Group)))));
        assert!(matches!(f.next_field(), Ok(Some((5, Value::Fixed32(1))))));
        assert!(matches!(f.next_field(), Ok(None)));
    }

    #[test]
    fn rejects_bad_input() {
        for bad in [&[0x00u8][..], &[0x12, 5, 1], &[0x0e], &[0x0c], &[0x80; 11]] {
            let mut f = Fields::new(bad);
            assert_eq!(f.next_field().err(), Some(Malformed), "{bad:?}");
        }
    }
}
