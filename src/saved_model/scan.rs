//! Reads `saved_model.pb` without reading its graphs: walks the protobuf
//! framing of `SavedModel.meta_graphs[*]`, keeps every field of each
//! `MetaGraphDef` but `graph_def` (field 2), and notes where each
//! `graph_def` lies in the file so it can be read when asked for. A 100 MB
//! SavedModel whose bulk is its graph then lists its signatures after
//! reading a few KB.

use super::invalid;
use super::slim::SlimMetaGraph;
use crate::error::Error;
use crate::io::{Blob, BlobReader};
use prost::Message;
use std::io::{BufRead, BufReader, Read};

/// A `graph_def` occurrence: its bytes' offset and length in the file.
pub(super) type Span = (u64, u64);

/// What the scan found: the schema version and, per meta graph, its other
/// fields decoded and its `graph_def` spans.
pub(super) struct Scanned {
    pub schema_version: i64,
    pub meta_graphs: Vec<(SlimMetaGraph, Vec<Span>)>,
}

/// Why a scan stopped: a real error, or framing it leaves to prost (a
/// group wire type), in which case the caller decodes the whole file.
pub(super) enum Stop {
    Err(Error),
    Fallback,
}

impl From<Error> for Stop {
    fn from(e: Error) -> Stop {
        Stop::Err(e)
    }
}

struct Reader<'a> {
    r: BufReader<BlobReader<'a>>,
    pos: u64,
    /// The file, as errors name it.
    name: &'a str,
    /// What the file is meant to hold (`SavedModel`, `MetaGraphDef`).
    what: &'static str,
}

impl Reader<'_> {
    fn bad(&self, msg: impl std::fmt::Display) -> Stop {
        Stop::Err(invalid(self.name, format!("not a {}: {msg}", self.what)).with_offset(self.pos))
    }

    fn io(&self, e: std::io::Error) -> Stop {
        if e.kind() == std::io::ErrorKind::UnexpectedEof {
            return self.bad("unexpected end of file");
        }
        // A blob's own error, passed through `Read`.
        match e.downcast::<Error>() {
            Ok(e) => Stop::Err(e),
            Err(e) => Stop::Err(Error::io(self.name, e)),
        }
    }

    fn byte(&mut self) -> std::result::Result<u8, Stop> {
        let mut b = [0u8; 1];
        self.r.read_exact(&mut b).map_err(|e| self.io(e))?;
        self.pos += 1;
        Ok(b[0])
    }

    fn varint(&mut self) -> std::result::Result<u64, Stop> {
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << (7 * i);
            if b < 0x80 {
                return Ok(v);
            }
        }
        Err(self.bad("varint longer than 10 bytes"))
    }

    /// Reads `n` bytes, `n` already checked against the enclosing length.
    fn bytes(&mut self, n: u64, out: &mut Vec<u8>) -> std::result::Result<(), Stop> {
        let got = (&mut self.r)
            .take(n)
            .read_to_end(out)
            .map_err(|e| self.io(e))?;
        if got as u64 != n {
            return Err(self.bad("unexpected end of file"));
        }
        self.pos += n;
        Ok(())
    }

    fn skip(&mut self, n: u64) -> std::result::Result<(), Stop> {
        let off = i64::try_from(n).map_err(|_| self.bad("field too long"))?;
        self.r.seek_relative(off).map_err(|e| self.io(e))?;
        self.pos += n;
        Ok(())
    }

    /// A length that must fit before `end`.
    fn len_within(&mut self, end: u64) -> std::result::Result<u64, Stop> {
        let n = self.varint()?;
        if n > end.saturating_sub(self.pos) {
            return Err(self.bad(format!("length {n} runs past its message")));
        }
        Ok(n)
    }
}

/// Puts a varint into `out`.
fn put_varint(mut v: u64, out: &mut Vec<u8>) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// Scans `blob`, a `saved_model.pb`.
pub(super) fn scan(blob: &dyn Blob) -> std::result::Result<Scanned, Stop> {
    let len = blob.len();
    let mut r = reader(blob, "SavedModel");
    let mut out = Scanned {
        schema_version: 0,
        meta_graphs: Vec::new(),
    };
    while r.pos < len {
        let key = r.varint()?;
        match (key >> 3, key & 7) {
            // saved_model_schema_version: int64 varint (last one wins).
            (1, 0) => out.schema_version = r.varint()? as i64,
            (2, 2) => {
                let n = r.len_within(len)?;
                let end = r.pos + n;
                out.meta_graphs.push(meta_graph(&mut r, end)?);
            }
            (_, wire) => skip_field(&mut r, wire, len)?,
        }
    }
    at_end(&mut r)?;
    Ok(out)
}

/// Scans `blob`, one `MetaGraphDef` (a TF1 `.meta` file): every field but
/// `graph_def` decoded, `graph_def` noted as spans.
pub(super) fn scan_meta_graph(
    blob: &dyn Blob,
) -> std::result::Result<(SlimMetaGraph, Vec<Span>), Stop> {
    let mut r = reader(blob, "MetaGraphDef");
    let found = meta_graph(&mut r, blob.len())?;
    at_end(&mut r)?;
    Ok(found)
}

fn reader<'a>(blob: &'a dyn Blob, what: &'static str) -> Reader<'a> {
    Reader {
        r: BufReader::with_capacity(64 << 10, blob.reader()),
        pos: 0,
        name: blob.id(),
        what,
    }
}

/// Whether the scan read the whole blob: one that grew while being read
/// is left to the whole-file path.
fn at_end(r: &mut Reader<'_>) -> std::result::Result<(), Stop> {
    let at_end = match r.r.fill_buf() {
        Ok(rest) => rest.is_empty(),
        Err(e) => return Err(r.io(e)),
    };
    if at_end { Ok(()) } else { Err(Stop::Fallback) }
}

fn skip_field(r: &mut Reader<'_>, wire: u64, end: u64) -> std::result::Result<(), Stop> {
    match wire {
        0 => r.varint().map(drop),
        1 if end.saturating_sub(r.pos) >= 8 => r.skip(8),
        5 if end.saturating_sub(r.pos) >= 4 => r.skip(4),
        2 => {
            let n = r.len_within(end)?;
            r.skip(n)
        }
        1 | 5 => Err(r.bad("fixed-size field runs past its message")),
        _ => Err(Stop::Fallback),
    }
}

/// One `MetaGraphDef` ending at `end`: every field but `graph_def` copied
/// and decoded, `graph_def` noted as spans.
fn meta_graph(
    r: &mut Reader<'_>,
    end: u64,
) -> std::result::Result<(SlimMetaGraph, Vec<Span>), Stop> {
    let mut rest = Vec::new();
    let mut spans = Vec::new();
    while r.pos < end {
        let key = r.varint()?;
        let (field, wire) = (key >> 3, key & 7);
        if (field, wire) == (2, 2) {
            let n = r.len_within(end)?;
            spans.push((r.pos, n));
            r.skip(n)?;
            continue;
        }
        put_varint(key, &mut rest);
        match wire {
            0 => put_varint(r.varint()?, &mut rest),
            1 | 5 => {
                let n = if wire == 1 { 8 } else { 4 };
                if end.saturating_sub(r.pos) < n {
                    return Err(r.bad("fixed-size field runs past its message"));
                }
                r.bytes(n, &mut rest)?;
            }
            2 => {
                let n = r.len_within(end)?;
                put_varint(n, &mut rest);
                r.bytes(n, &mut rest)?;
            }
            _ => return Err(Stop::Fallback),
        }
    }
    if r.pos != end {
        return Err(r.bad("a field runs past its MetaGraphDef"));
    }
    let slim = SlimMetaGraph::decode(bytes::Bytes::from(rest))
        .map_err(|e| Stop::Err(invalid(r.name, format!("not a {}: {e}", r.what))))?;
    Ok((slim, spans))
}
