//! TensorFlow's list coding (`tensor_coding` `EncodeStringList` /
//! `DecodeStringList`), used for `tensor_content` of `DT_STRING`, and with the
//! same framing for `DT_RESOURCE` and `DT_VARIANT`.
//!
//! Layout: one varint32 length per element, all lengths first, then every
//! element's bytes concatenated in order. `["ab", "", "xyz"]` is
//! `02 00 03 61 62 78 79 7a`.

use std::ops::Range;

use prost::encoding::{decode_varint, encode_varint, encoded_len_varint};

use crate::error::{Error, Result};

/// Most bytes a varint32 can take.
const MAX_VARINT32_LEN: usize = 5;

/// Reads one varint32 from the start of `buf`: `(value, bytes used)`.
///
/// `None` if `buf` ends mid-varint, or the varint is longer than five bytes
/// or encodes more than 32 bits. (TF's `GetVarint32` silently drops such high
/// bits; rejecting them only refuses inputs TF would misread.)
fn decode_varint32(buf: &[u8]) -> Option<(u32, usize)> {
    // One-byte lengths, the common case, skip prost's general decoder.
    if let Some(&b) = buf.first().filter(|&&b| b < 0x80) {
        return Some((u32::from(b), 1));
    }
    let mut rest = buf;
    let value = decode_varint(&mut rest).ok()?;
    let used = buf.len() - rest.len();
    // prost reads up to ten bytes and 64 bits; a varint32 has five and 32.
    if used > MAX_VARINT32_LEN {
        return None;
    }
    Some((u32::try_from(value).ok()?, used))
}

/// Encodes `items` in TF's list coding: all varint32 lengths, then all bytes.
///
/// Fails with [`Error::InvalidArgument`] if an element is 4 GiB or larger
/// (lengths are 32-bit), or [`Error::AllocationFailed`] if the output cannot
/// be allocated.
pub(crate) fn encode_list<'a, I: IntoIterator<Item = &'a [u8]>>(items: I) -> Result<Vec<u8>> {
    // Lengths come before any payload, so the items are walked twice.
    let mut sized: Vec<(u32, &[u8])> = Vec::new();
    let mut total = 0usize;
    for item in items {
        let len = element_len(item)?;
        total = total
            .checked_add(encoded_len_varint(u64::from(len)))
            .and_then(|t| t.checked_add(item.len()))
            .ok_or(Error::Overflow(crate::OverflowError::Size {
                what: "list byte size",
            }))?;
        sized.push((len, item));
    }

    let mut out = Vec::new();
    out.try_reserve_exact(total)
        .map_err(|_| Error::AllocationFailed { bytes: total })?;
    for &(len, _) in &sized {
        // One-byte lengths, the common case, skip prost's general loop.
        match u8::try_from(len) {
            Ok(b) if b < 0x80 => out.push(b),
            _ => encode_varint(u64::from(len), &mut out),
        }
    }
    for &(_, item) in &sized {
        out.extend_from_slice(item);
    }
    Ok(out)
}

/// An element's length as the 32-bit value the coding stores.
fn element_len(item: &[u8]) -> Result<u32> {
    u32::try_from(item.len()).map_err(|_| {
        Error::InvalidArgument(format!(
            "list element of {} bytes exceeds the 32-bit length limit",
            item.len()
        ))
    })
}

/// The number of bytes [`encode_list`] would write for `items`, computed
/// without allocating, so callers can refuse oversized output first.
///
/// Fails as [`encode_list`] does for an element of 4 GiB or more.
pub(crate) fn encoded_list_len<'a, I: IntoIterator<Item = &'a [u8]>>(items: I) -> Result<u64> {
    let mut total = 0u64;
    for item in items {
        let len = element_len(item)?;
        total = total
            .saturating_add(encoded_len_varint(u64::from(len)) as u64)
            .saturating_add(u64::from(len));
    }
    Ok(total)
}

/// Decodes TF's list coding of `n` elements, giving each element's byte
/// range inside `content`.
///
/// Fails with [`Error::InvalidProto`] if a length varint is truncated or
/// overlong, or if the lengths do not add up to exactly the bytes that
/// follow them. Allocation is bounded by `content.len()`, whatever `n` is.
pub(crate) fn decode_list(content: &[u8], n: usize) -> Result<Vec<Range<usize>>> {
    // Each element needs at least one length byte, so a larger `n` cannot be
    // valid; checking first keeps a huge `n` from reserving memory.
    if n > content.len() {
        return Err(Error::invalid_proto(format!(
            "list of {n} elements needs at least {n} bytes, got {}",
            content.len()
        )));
    }

    // Pass 1: validate the lengths and find where the payload starts.
    let mut pos = 0usize;
    let mut total = 0u64;
    for i in 0..n {
        let (len, used) = content
            .get(pos..)
            .and_then(decode_varint32)
            .ok_or_else(|| {
                Error::invalid_proto(format!(
                    "truncated or overlong varint32 length of list element {i}"
                ))
            })?;
        pos += used;
        // Saturating: a saturated sum can never equal `remaining`.
        total = total.saturating_add(u64::from(len));
    }
    let remaining = content.len() - pos;
    if u64::try_from(remaining).ok() != Some(total) {
        return Err(Error::invalid_proto(format!(
            "list element lengths sum to {total} but {remaining} bytes follow them"
        )));
    }

    // Pass 2: the lengths are known good; turn them into ranges.
    let mut ranges = Vec::new();
    ranges
        .try_reserve_exact(n)
        .map_err(|_| Error::AllocationFailed {
            bytes: n.saturating_mul(size_of::<Range<usize>>()),
        })?;
    let mut header = 0usize;
    let mut start = pos;
    for _ in 0..n {
        let (len, used) = content
            .get(header..)
            .and_then(decode_varint32)
            .ok_or_else(|| Error::invalid_proto("list length varint vanished"))?;
        header += used;
        // The lengths sum to `remaining`, so neither step can overflow.
        let end = usize::try_from(len)
            .ok()
            .and_then(|len| start.checked_add(len))
            .ok_or_else(|| Error::invalid_proto("list element length overflows"))?;
        ranges.push(start..end);
        start = end;
    }
    Ok(ranges)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn slices<'a>(content: &'a [u8], ranges: &[Range<usize>]) -> Vec<&'a [u8]> {
        ranges.iter().map(|r| &content[r.clone()]).collect()
    }

    #[test]
    fn varint32_encodings() {
        let cases: [(u32, &[u8]); 7] = [
            (0, &[0x00]),
            (1, &[0x01]),
            (127, &[0x7f]),
            (128, &[0x80, 0x01]),
            (300, &[0xac, 0x02]),
            (0x0fff_ffff, &[0xff, 0xff, 0xff, 0x7f]),
            (u32::MAX, &[0xff, 0xff, 0xff, 0xff, 0x0f]),
        ];
        for (v, want) in cases {
            let mut out = Vec::new();
            encode_varint(u64::from(v), &mut out);
            assert_eq!(out, want, "encode {v}");
            assert_eq!(encoded_len_varint(u64::from(v)), want.len(), "len {v}");
            assert_eq!(decode_varint32(want), Some((v, want.len())), "decode {v}");
        }
    }

    #[test]
    fn varint32_round_trips_at_length_boundaries() {
        for v in [
            0x7fu32,
            0x80,
            0x3fff,
            0x4000,
            0x1f_ffff,
            0x20_0000,
            0x0fff_ffff,
            0x1000_0000,
            u32::MAX,
        ] {
            let mut out = Vec::new();
            encode_varint(u64::from(v), &mut out);
            assert_eq!(decode_varint32(&out), Some((v, out.len())), "{v:#x}");
        }
    }

    #[test]
    fn varint32_rejects_bad_input() {
        assert_eq!(decode_varint32(&[]), None);
        assert_eq!(decode_varint32(&[0x80]), None);
        assert_eq!(decode_varint32(&[0xff, 0xff, 0xff, 0xff]), None);
        // Fifth byte with bits beyond u32.
        assert_eq!(decode_varint32(&[0xff, 0xff, 0xff, 0xff, 0x10]), None);
        assert_eq!(decode_varint32(&[0x80, 0x80, 0x80, 0x80, 0x10]), None);
        // Six bytes.
        assert_eq!(decode_varint32(&[0x80, 0x80, 0x80, 0x80, 0x80, 0x00]), None);
        // Non-minimal but in range: accepted, as TF does.
        assert_eq!(decode_varint32(&[0x80, 0x00]), Some((0, 2)));
        assert_eq!(decode_varint32(&[0x05, 0xff]), Some((5, 1)));
    }

    #[test]
    fn encode_list_example() {
        let items: [&[u8]; 3] = [b"ab", b"", b"xyz"];
        let out = encode_list(items).unwrap();
        assert_eq!(out, [0x02, 0x00, 0x03, 0x61, 0x62, 0x78, 0x79, 0x7a]);
    }

    #[test]
    fn decode_list_example() {
        let content = [0x02, 0x00, 0x03, 0x61, 0x62, 0x78, 0x79, 0x7a];
        let ranges = decode_list(&content, 3).unwrap();
        assert_eq!(ranges, [3..5, 5..5, 5..8]);
        let want: [&[u8]; 3] = [b"ab", b"", b"xyz"];
        assert_eq!(slices(&content, &ranges), want);
    }

    #[test]
    fn empty_list() {
        assert_eq!(
            encode_list(std::iter::empty::<&[u8]>()).unwrap(),
            Vec::<u8>::new()
        );
        assert!(decode_list(&[], 0).unwrap().is_empty());
        // n = 0 leaves every byte unaccounted for.
        assert!(matches!(
            decode_list(&[0x00], 0),
            Err(Error::InvalidProto { .. })
        ));
        assert!(matches!(
            decode_list(b"abc", 0),
            Err(Error::InvalidProto { .. })
        ));
    }

    #[test]
    fn long_element_uses_multibyte_length() {
        let big = vec![0xa5u8; 300];
        let items: [&[u8]; 2] = [&big, b"z"];
        let out = encode_list(items).unwrap();
        assert_eq!(out[..3], [0xac, 0x02, 0x01]);
        assert_eq!(out.len(), 3 + 300 + 1);
        let ranges = decode_list(&out, 2).unwrap();
        assert_eq!(ranges, [3..303, 303..304]);
        assert_eq!(slices(&out, &ranges), items);
    }

    #[test]
    fn decode_rejects_truncated_varint() {
        // Second length's varint runs off the end.
        let err = decode_list(&[0x00, 0x80], 2).unwrap_err();
        assert_eq!(
            err,
            Error::invalid_proto("truncated or overlong varint32 length of list element 1")
        );
    }

    #[test]
    fn decode_rejects_varint_beyond_u32() {
        let mut content = vec![0xff, 0xff, 0xff, 0xff, 0x1f];
        content.extend_from_slice(&[0u8; 8]);
        let err = decode_list(&content, 1).unwrap_err();
        assert_eq!(
            err,
            Error::invalid_proto("truncated or overlong varint32 length of list element 0")
        );
    }

    #[test]
    fn decode_rejects_trailing_garbage() {
        let err =
            decode_list(&[0x02, 0x00, 0x03, b'a', b'b', b'x', b'y', b'z', b'!'], 3).unwrap_err();
        assert_eq!(
            err,
            Error::invalid_proto("list element lengths sum to 5 but 6 bytes follow them")
        );
    }

    #[test]
    fn decode_rejects_short_content() {
        let err = decode_list(&[0x02, 0x00, 0x03, b'a', b'b', b'x', b'y'], 3).unwrap_err();
        assert_eq!(
            err,
            Error::invalid_proto("list element lengths sum to 5 but 4 bytes follow them")
        );
    }

    #[test]
    fn decode_rejects_huge_length_without_overflow() {
        // Lengths near u32::MAX each; the sum must not wrap into a match.
        let mut content = Vec::new();
        for _ in 0..3 {
            encode_varint(u64::from(u32::MAX), &mut content);
        }
        let err = decode_list(&content, 3).unwrap_err();
        assert_eq!(
            err,
            Error::invalid_proto("list element lengths sum to 12884901885 but 0 bytes follow them")
        );
    }

    #[test]
    fn decode_rejects_huge_n_before_allocating() {
        let n = usize::MAX / 4;
        let err = decode_list(&[0x00, 0x00, 0x00], n).unwrap_err();
        assert_eq!(
            err,
            Error::invalid_proto(format!(
                "list of {n} elements needs at least {n} bytes, got 3"
            ))
        );
        assert!(matches!(
            decode_list(&[0x00, 0x00, 0x00], usize::MAX),
            Err(Error::InvalidProto { .. })
        ));
        assert!(matches!(
            decode_list(&[0x00, 0x00, 0x00], 4),
            Err(Error::InvalidProto { .. })
        ));
        assert_eq!(
            decode_list(&[0x00, 0x00, 0x00], 3).unwrap(),
            [3..3, 3..3, 3..3]
        );
    }

    #[test]
    #[cfg(target_pointer_width = "64")]
    fn encode_rejects_element_of_4_gib() {
        // Zeroed allocation: the kernel maps pages lazily and encode_list
        // fails before reading them, so this costs no real memory.
        let huge = vec![0u8; 1 << 32];
        let items: [&[u8]; 2] = [b"ok", &huge];
        assert_eq!(
            encode_list(items).unwrap_err(),
            Error::InvalidArgument(
                "list element of 4294967296 bytes exceeds the 32-bit length limit".into()
            )
        );
    }

    #[test]
    fn encoded_list_len_matches_encode_list() {
        let big = vec![7u8; 200];
        let cases: [&[&[u8]]; 4] = [&[], &[b""], &[b"ab", b"", b"xyz"], &[&big, b"q", &big]];
        for items in cases {
            let out = encode_list(items.iter().copied()).unwrap();
            assert_eq!(
                encoded_list_len(items.iter().copied()).unwrap(),
                out.len() as u64
            );
        }
    }

    #[test]
    fn round_trip_mixed_lengths() {
        let data: Vec<Vec<u8>> = (0u8..40).map(|i| vec![i; usize::from(i) * 7]).collect();
        let out = encode_list(data.iter().map(Vec::as_slice)).unwrap();
        let ranges = decode_list(&out, data.len()).unwrap();
        let got: Vec<&[u8]> = slices(&out, &ranges);
        let want: Vec<&[u8]> = data.iter().map(Vec::as_slice).collect();
        assert_eq!(got, want);
    }
}
