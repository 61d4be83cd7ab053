//! The `.index` file: a LevelDB-style sorted table, as TF's
//! `tsl/lib/io/table_builder.cc`, `block_builder.cc` and `format.cc` write
//! and read it (uncompressed blocks only).
//!
//! Layout: `[data blocks][metaindex block][index block][footer]`. Each block
//! is prefix-compressed entries, a restart array and a 5-byte trailer (type
//! byte, masked CRC32C of contents and type).

use crate::crc32c;
use crate::error::{Error, Result};

/// `block_size` in TF's `table::Options`: a data block is flushed once its
/// estimated size reaches this.
const BLOCK_SIZE: usize = 262_144;
/// `block_restart_interval` for data blocks (the index block uses 1).
const DATA_RESTART_INTERVAL: usize = 16;
/// Type byte + masked CRC.
const BLOCK_TRAILER_LEN: usize = 5;
/// Two block handles padded to 20 bytes each, then the magic number.
pub(crate) const FOOTER_LEN: usize = 48;
/// `kTableMagicNumber`.
const MAGIC: u64 = 0xdb47_7524_8b80_fb57;
const NO_COMPRESSION: u8 = 0;
const SNAPPY_COMPRESSION: u8 = 1;

fn bad(file: &str, msg: impl std::fmt::Display) -> Error {
    Error::invalid_format("tensor bundle", msg.to_string()).with_path(file)
}

/// `key` after its first `shared` bytes (a common prefix with the last
/// key, so at most its length).
#[expect(
    clippy::indexing_slicing,
    reason = "`shared` counts a common prefix of `key`"
)]
fn suffix(key: &[u8], shared: usize) -> &[u8] {
    &key[shared..]
}

/// TF's `PutVarint64` (the protobuf varint, as prost writes it).
pub(crate) fn put_varint64(out: &mut Vec<u8>, v: u64) {
    prost::encoding::encode_varint(v, out);
}

/// TF's `GetVarint64`: reads a varint64 from the front of `buf`, advancing
/// it. `None` when it is truncated, longer than 10 bytes or over 64 bits.
pub(crate) fn get_varint64(buf: &mut &[u8]) -> Option<u64> {
    prost::encoding::decode_varint(buf).ok()
}

fn get_varint32(buf: &mut &[u8]) -> Option<usize> {
    let v = get_varint64(buf)?;
    u32::try_from(v).ok().map(|v| v as usize)
}

fn get_fixed32(buf: &[u8], at: usize) -> Option<u32> {
    let b = buf.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes(b.try_into().ok()?))
}

/// TF's `BlockBuilder`.
struct BlockBuilder {
    buffer: Vec<u8>,
    restarts: Vec<u32>,
    counter: usize,
    interval: usize,
    last_key: Vec<u8>,
}

impl BlockBuilder {
    fn new(interval: usize) -> Self {
        BlockBuilder {
            buffer: Vec::new(),
            restarts: vec![0],
            counter: 0,
            interval,
            last_key: Vec::new(),
        }
    }

    fn is_empty(&self) -> bool {
        self.buffer.is_empty()
    }

    fn add(&mut self, key: &[u8], value: &[u8]) {
        let mut shared = 0;
        if self.counter < self.interval {
            shared = self
                .last_key
                .iter()
                .zip(key)
                .take_while(|(a, b)| a == b)
                .count();
        } else {
            self.restarts.push(self.buffer.len() as u32);
            self.counter = 0;
        }
        let non_shared = suffix(key, shared);
        put_varint64(&mut self.buffer, shared as u64);
        put_varint64(&mut self.buffer, non_shared.len() as u64);
        put_varint64(&mut self.buffer, value.len() as u64);
        self.buffer.extend_from_slice(non_shared);
        self.buffer.extend_from_slice(value);
        self.last_key.clear();
        self.last_key.extend_from_slice(key);
        self.counter += 1;
    }

    fn size_estimate(&self) -> usize {
        self.buffer.len() + self.restarts.len() * 4 + 4
    }

    /// The finished block contents; resets the builder.
    fn finish(&mut self) -> Vec<u8> {
        let mut out = std::mem::take(&mut self.buffer);
        for r in &self.restarts {
            out.extend_from_slice(&r.to_le_bytes());
        }
        out.extend_from_slice(&(self.restarts.len() as u32).to_le_bytes());
        self.restarts = vec![0];
        self.counter = 0;
        self.last_key.clear();
        out
    }
}

/// TF's `FindShortestSeparator`: a short key in `[start, limit)`.
fn shortest_separator(start: &mut Vec<u8>, limit: &[u8]) {
    let diff = start.iter().zip(limit).take_while(|(a, b)| a == b).count();
    if diff >= start.len().min(limit.len()) {
        return; // one is a prefix of the other
    }
    if let (Some(&d), Some(&l)) = (start.get(diff), limit.get(diff)) {
        if d < 0xff && d + 1 < l {
            if let Some(b) = start.get_mut(diff) {
                *b = d + 1;
            }
            start.truncate(diff + 1);
        }
    }
}

/// TF's `FindShortSuccessor`: a short key `>= key`.
fn short_successor(key: &mut Vec<u8>) {
    if let Some(i) = key.iter().position(|&b| b != 0xff) {
        if let Some(b) = key.get_mut(i) {
            *b += 1;
        }
        key.truncate(i + 1);
    }
}

/// Appends `contents` as a block with its trailer; returns its handle.
fn write_block(out: &mut Vec<u8>, contents: &[u8]) -> (u64, u64) {
    let handle = (out.len() as u64, contents.len() as u64);
    out.extend_from_slice(contents);
    let crc = crc32c::extend(crc32c::value(contents), &[NO_COMPRESSION]);
    out.push(NO_COMPRESSION);
    out.extend_from_slice(&crc32c::mask(crc).to_le_bytes());
    handle
}

fn encode_handle(out: &mut Vec<u8>, (offset, size): (u64, u64)) {
    put_varint64(out, offset);
    put_varint64(out, size);
}

/// Builds the whole table from `entries`, which must be sorted and
/// distinct, exactly as TF's `TableBuilder` with `kNoCompression` does.
pub(crate) fn build<'a>(entries: impl IntoIterator<Item = (&'a [u8], &'a [u8])>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut data = BlockBuilder::new(DATA_RESTART_INTERVAL);
    let mut index = BlockBuilder::new(1);
    let mut last_key: Vec<u8> = Vec::new();
    let mut pending: Option<(u64, u64)> = None;
    for (key, value) in entries {
        debug_assert!(last_key.is_empty() || key > last_key.as_slice());
        // An entry of twice the block size or more starts a block of its own.
        if key.len() + value.len() >= 2 * BLOCK_SIZE && !data.is_empty() {
            pending = Some(write_block(&mut out, &data.finish()));
        }
        if let Some(handle) = pending.take() {
            shortest_separator(&mut last_key, key);
            let mut enc = Vec::new();
            encode_handle(&mut enc, handle);
            index.add(&last_key, &enc);
        }
        last_key.clear();
        last_key.extend_from_slice(key);
        data.add(key, value);
        if data.size_estimate() >= BLOCK_SIZE {
            pending = Some(write_block(&mut out, &data.finish()));
        }
    }
    if !data.is_empty() {
        pending = Some(write_block(&mut out, &data.finish()));
    }
    let metaindex = write_block(&mut out, &BlockBuilder::new(DATA_RESTART_INTERVAL).finish());
    if let Some(handle) = pending.take() {
        short_successor(&mut last_key);
        let mut enc = Vec::new();
        encode_handle(&mut enc, handle);
        index.add(&last_key, &enc);
    }
    let index_handle = write_block(&mut out, &index.finish());
    let mut footer = Vec::with_capacity(FOOTER_LEN);
    encode_handle(&mut footer, metaindex);
    encode_handle(&mut footer, index_handle);
    footer.resize(FOOTER_LEN - 8, 0);
    footer.extend_from_slice(&MAGIC.to_le_bytes());
    out.extend_from_slice(&footer);
    out
}

/// Reads a block handle (`varint64 offset, varint64 size`).
fn decode_handle(buf: &mut &[u8], file: &str) -> Result<(usize, usize)> {
    let offset = get_varint64(buf).ok_or_else(|| bad(file, "corrupt block handle"))?;
    let size = get_varint64(buf).ok_or_else(|| bad(file, "corrupt block handle"))?;
    let offset = usize::try_from(offset).map_err(|_| bad(file, "block offset overflows"))?;
    let size = usize::try_from(size).map_err(|_| bad(file, "block size overflows"))?;
    Ok((offset, size))
}

/// The contents of the block at `handle`, after checking that it lies
/// inside the table and that its trailer's CRC matches.
fn read_block<'a>(table: &'a [u8], (offset, size): (usize, usize), file: &str) -> Result<&'a [u8]> {
    let end = offset
        .checked_add(size)
        .and_then(|e| e.checked_add(BLOCK_TRAILER_LEN))
        .filter(|&e| e <= table.len())
        .ok_or_else(|| {
            Error::data_loss(format!(
                "truncated block read: a block of {size} bytes runs past the end of the {}-byte index",
                table.len()
            ))
            .with_path(file)
            .with_offset(offset as u64)
        })?;
    // `end` was checked above, so these cannot fail; if they did, the
    // block is reported as corrupt rather than read as something else.
    let corrupt = || {
        Error::data_loss("bad block")
            .with_path(file)
            .with_offset(offset as u64)
    };
    let all = table.get(offset..end).ok_or_else(corrupt)?;
    let (contents, trailer) = all.split_at_checked(size).ok_or_else(corrupt)?;
    let kind = trailer.first().copied().ok_or_else(corrupt)?;
    let stored = get_fixed32(trailer, 1).ok_or_else(corrupt)?;
    let actual = crc32c::extend(crc32c::value(contents), &[kind]);
    if crc32c::unmask(stored) != actual {
        return Err(Error::data_loss("block checksum mismatch")
            .with_path(file)
            .with_offset(offset as u64));
    }
    match kind {
        NO_COMPRESSION => Ok(contents),
        SNAPPY_COMPRESSION => Err(bad(
            file,
            "Snappy-compressed index blocks are not supported (TF's bundle writer never compresses)",
        )),
        other => Err(Error::data_loss(format!("bad block type {other}"))
            .with_path(file)
            .with_offset(offset as u64)),
    }
}

/// Calls `f(key, value)` for each entry of one block, in order.
fn for_each_in_block(
    block: &[u8],
    file: &str,
    mut f: impl FnMut(&[u8], &[u8]) -> Result<()>,
) -> Result<()> {
    let corrupt = || Error::data_loss("bad block contents").with_path(file);
    let n = block.len();
    let num_restarts = n
        .checked_sub(4)
        .and_then(|at| get_fixed32(block, at))
        .ok_or_else(corrupt)? as usize;
    let restarts_at = num_restarts
        .checked_mul(4)
        .and_then(|r| n.checked_sub(r + 4))
        .ok_or_else(corrupt)?;
    let mut rest = block.get(..restarts_at).ok_or_else(corrupt)?;
    let mut key: Vec<u8> = Vec::new();
    while !rest.is_empty() {
        let shared = get_varint32(&mut rest).ok_or_else(corrupt)?;
        let non_shared = get_varint32(&mut rest).ok_or_else(corrupt)?;
        let value_len = get_varint32(&mut rest).ok_or_else(corrupt)?;
        if shared > key.len() {
            return Err(corrupt());
        }
        let delta = rest.get(..non_shared).ok_or_else(corrupt)?;
        let value = rest
            .get(non_shared..non_shared.checked_add(value_len).ok_or_else(corrupt)?)
            .ok_or_else(corrupt)?;
        key.truncate(shared);
        key.extend_from_slice(delta);
        f(&key, value)?;
        rest = rest.get(non_shared + value_len..).ok_or_else(corrupt)?;
    }
    Ok(())
}

/// Every `(key, value)` of a table, in file order, checking the footer, the
/// block CRCs and that keys strictly increase.
pub(crate) fn read(table: &[u8], file: &str) -> Result<Vec<(Vec<u8>, Vec<u8>)>> {
    let too_short = || {
        bad(
            file,
            format!(
                "file is too short ({} bytes) to be an sstable (needs a {FOOTER_LEN}-byte footer)",
                table.len()
            ),
        )
    };
    let footer: &[u8] = table.last_chunk::<FOOTER_LEN>().ok_or_else(too_short)?;
    // The footer's last 8 bytes (it has FOOTER_LEN).
    let magic = u64::from_le_bytes(*footer.last_chunk::<8>().ok_or_else(too_short)?);
    if magic != MAGIC {
        return Err(bad(
            file,
            format!("not an sstable (bad magic number {magic:#018x})"),
        ));
    }
    let mut handles = footer;
    let _metaindex = decode_handle(&mut handles, file)?;
    let index_handle = decode_handle(&mut handles, file)?;
    let index = read_block(table, index_handle, file)?;
    let mut out: Vec<(Vec<u8>, Vec<u8>)> = Vec::new();
    for_each_in_block(index, file, |_, mut handle| {
        let h = decode_handle(&mut handle, file)?;
        let block = read_block(table, h, file)?;
        for_each_in_block(block, file, |k, v| {
            if let Some((last, _)) = out.last() {
                if k <= last.as_slice() {
                    return Err(Error::data_loss("keys out of order in the index").with_path(file));
                }
            }
            out.push((k.to_vec(), v.to_vec()));
            Ok(())
        })
    })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Block handles and entry lengths: round trips at every length, and
    /// truncated or 11-byte varints are refused.
    #[test]
    fn varints_round_trip_and_refuse_bad_input() {
        for v in [0u64, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut out = vec![];
            put_varint64(&mut out, v);
            let mut rest = &out[..];
            assert_eq!(get_varint64(&mut rest), Some(v));
            assert!(rest.is_empty());
        }
        assert_eq!(get_varint64(&mut &[0xAC, 0x02, 0x07][..]), Some(300));
        assert_eq!(get_varint64(&mut &[0x80, 0x80][..]), None);
        assert_eq!(get_varint64(&mut &[0x80; 11][..]), None);
        assert_eq!(get_varint32(&mut &[0x80, 0x80, 0x80, 0x80, 0x10][..]), None);
    }

    #[test]
    fn separators_follow_leveldb() {
        let mut s = b"abcd".to_vec();
        shortest_separator(&mut s, b"abzz");
        assert_eq!(s, b"abd");
        let mut s = b"abc".to_vec();
        shortest_separator(&mut s, b"abcd");
        assert_eq!(s, b"abc");
        let mut s = b"ab".to_vec();
        shortest_separator(&mut s, b"ac");
        assert_eq!(s, b"ab");
        let mut k = vec![0xff, 0xff, 3, 9];
        short_successor(&mut k);
        assert_eq!(k, [0xff, 0xff, 4]);
    }

    #[test]
    fn round_trip_many_blocks() {
        let keys: Vec<Vec<u8>> = (0..5000u32)
            .map(|i| format!("key/{i:06}").into_bytes())
            .collect();
        let value = vec![7u8; 100];
        let table = build(keys.iter().map(|k| (k.as_slice(), value.as_slice())));
        let back = read(&table, "t").unwrap();
        assert_eq!(back.len(), keys.len());
        assert!(
            back.iter()
                .zip(&keys)
                .all(|((k, v), e)| k == e && v == &value)
        );
    }
}
