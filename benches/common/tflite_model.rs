//! A synthetic TFLite model for benches and examples: one subgraph of
//! float32 constant tensors (no operators), written front to back as a
//! valid TFL3 flatbuffer, with the data inline (16-aligned `Buffer.data`)
//! or in offset mode (`Buffer.offset/size` after the flatbuffer, 64-aligned,
//! as ai-edge-quantizer places them). TF's interpreter opens it and
//! `get_tensor` reads every tensor. Payload bytes come from `fill`, or are
//! left as holes of a sparse file.
#![allow(dead_code)]

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::path::Path;

/// Fills tensor k's payload.
pub type Fill<'a> = &'a dyn Fn(usize, &mut [u8]);

/// Little-endian flatbuffer bytes with forward offsets patched in.
struct Fb {
    buf: Vec<u8>,
}

impl Fb {
    fn pad_to(&mut self, align: usize, rem: usize) {
        while self.buf.len() % align != rem {
            self.buf.push(0);
        }
    }

    fn u32_at(&mut self, at: usize, v: u32) {
        self.buf[at..at + 4].copy_from_slice(&v.to_le_bytes());
    }

    /// Points the uoffset at `at` to the current end.
    fn point_here(&mut self, at: usize) {
        let here = self.buf.len();
        self.point(at, here);
    }

    /// Points the uoffset at `at` to `target`.
    fn point(&mut self, at: usize, target: usize) {
        self.u32_at(at, (target - at) as u32);
    }

    /// A table with scalar `fields` (id, bytes) and offset fields (ids):
    /// its position, its scalars' positions, and its offset fields'
    /// positions (to point later).
    fn table(
        &mut self,
        scalars: &[(u16, Vec<u8>)],
        offsets: &[u16],
    ) -> (usize, Vec<usize>, Vec<usize>) {
        let n = scalars
            .iter()
            .map(|f| f.0)
            .chain(offsets.iter().copied())
            .max()
            .map_or(0, |m| m + 1);
        self.pad_to(4, 0);
        let vt = self.buf.len();
        let vt_len = 4 + 2 * n as usize;
        self.buf.resize(vt + vt_len, 0);
        self.pad_to(8, 4); // the table's soffset, then 8-aligned fields
        let table = self.buf.len();
        self.buf
            .extend_from_slice(&((table - vt) as i32).to_le_bytes());
        let mut slots = vec![0u16; n as usize];
        let (mut outs, mut at) = (Vec::new(), Vec::new());
        for (id, bytes) in scalars {
            self.pad_to(bytes.len().max(1), 0);
            slots[*id as usize] = (self.buf.len() - table) as u16;
            at.push(self.buf.len());
            self.buf.extend_from_slice(bytes);
        }
        for id in offsets {
            self.pad_to(4, 0);
            slots[*id as usize] = (self.buf.len() - table) as u16;
            outs.push(self.buf.len());
            self.buf.extend_from_slice(&[0; 4]);
        }
        let obj_len = self.buf.len() - table;
        self.buf[vt..vt + 2].copy_from_slice(&(vt_len as u16).to_le_bytes());
        self.buf[vt + 2..vt + 4].copy_from_slice(&(obj_len as u16).to_le_bytes());
        for (k, s) in slots.iter().enumerate() {
            self.buf[vt + 4 + 2 * k..vt + 6 + 2 * k].copy_from_slice(&s.to_le_bytes());
        }
        (table, at, outs)
    }

    /// A vector of `n` uoffsets; returns their positions.
    fn offsets(&mut self, n: usize) -> Vec<usize> {
        self.pad_to(4, 0);
        self.buf.extend_from_slice(&(n as u32).to_le_bytes());
        (0..n)
            .map(|_| {
                self.buf.extend_from_slice(&[0; 4]);
                self.buf.len() - 4
            })
            .collect()
    }

    fn i32s(&mut self, v: &[i32]) {
        self.pad_to(4, 0);
        self.buf.extend_from_slice(&(v.len() as u32).to_le_bytes());
        v.iter()
            .for_each(|x| self.buf.extend_from_slice(&x.to_le_bytes()));
    }

    fn string(&mut self, s: &str) {
        self.pad_to(4, 0);
        self.buf.extend_from_slice(&(s.len() as u32).to_le_bytes());
        self.buf.extend_from_slice(s.as_bytes());
        self.buf.push(0);
    }
}

/// Writes a model of `tensors` float32 tensors of `elems` values each to
/// `path`: inline, or in offset mode. With `fill`, tensor k's bytes are
/// `fill(k, bytes)`; without, offset-mode payloads are holes (a sparse
/// file: listing must not read them).
pub fn write(path: &Path, tensors: usize, elems: usize, offset_mode: bool, fill: Option<Fill<'_>>) {
    let bytes = elems * 4;
    let mut fb = Fb {
        buf: vec![0, 0, 0, 0, b'T', b'F', b'L', b'3'],
    };
    // Model { version: 3, operator_codes: [], subgraphs: [..], buffers: [..] }
    let (mt, _, m) = fb.table(&[(0, 3u32.to_le_bytes().to_vec())], &[1, 2, 4]);
    fb.point(0, mt);
    fb.point_here(m[0]);
    fb.offsets(0); // operator_codes
    fb.point_here(m[1]);
    let subs = fb.offsets(1);
    fb.point_here(m[2]);
    let bufs = fb.offsets(tensors + 1);
    // The subgraph.
    let (st, _, sg) = fb.table(&[], &[0, 1, 2, 3, 4]);
    fb.point(subs[0], st);
    fb.point_here(sg[0]);
    let ts = fb.offsets(tensors);
    fb.point_here(sg[1]);
    fb.i32s(&[]);
    fb.point_here(sg[2]);
    fb.i32s(&[]);
    fb.point_here(sg[3]);
    fb.offsets(0);
    fb.point_here(sg[4]);
    fb.string("main");
    for (k, at) in ts.iter().enumerate() {
        let (tt, _, t) = fb.table(
            &[(1, vec![0u8]), (2, ((k + 1) as u32).to_le_bytes().to_vec())],
            &[0, 3],
        );
        fb.point(*at, tt);
        fb.point_here(t[0]);
        fb.i32s(&[elems as i32]);
        fb.point_here(t[1]);
        fb.string(&format!("layer_{k:03}.weight"));
    }
    // buffers[0]: the empty sentinel.
    let (b0, _, _) = fb.table(&[], &[]);
    fb.point(bufs[0], b0);
    let mut payloads = Vec::new();
    for k in 0..tensors {
        if offset_mode {
            // offset and size; the offset is patched once the
            // flatbuffer's end is known.
            let (bt, at, _) = fb.table(
                &[
                    (1, 0u64.to_le_bytes().to_vec()),
                    (2, (bytes as u64).to_le_bytes().to_vec()),
                ],
                &[],
            );
            fb.point(bufs[k + 1], bt);
            payloads.push(at[0]);
        } else {
            let (bt, _, d) = fb.table(&[], &[0]);
            fb.point(bufs[k + 1], bt);
            fb.pad_to(16, 12);
            fb.point_here(d[0]);
            fb.buf.extend_from_slice(&(bytes as u32).to_le_bytes());
            let start = fb.buf.len();
            fb.buf.resize(start + bytes, 0);
            if let Some(f) = fill {
                f(k, &mut fb.buf[start..start + bytes]);
            }
        }
    }
    let mut file = File::create(path).unwrap();
    if offset_mode {
        let mut at = fb.buf.len().div_ceil(64) * 64;
        for field in &payloads {
            fb.buf[*field..*field + 8].copy_from_slice(&(at as u64).to_le_bytes());
            at += bytes.div_ceil(64) * 64;
        }
        file.write_all(&fb.buf).unwrap();
        let mut at = fb.buf.len().div_ceil(64) * 64;
        let mut data = vec![0u8; if fill.is_some() { bytes } else { 0 }];
        for k in 0..tensors {
            if let Some(f) = fill {
                f(k, &mut data);
                file.seek(SeekFrom::Start(at as u64)).unwrap();
                file.write_all(&data).unwrap();
            }
            at += bytes.div_ceil(64) * 64;
        }
        file.set_len(at as u64).unwrap();
    } else {
        file.write_all(&fb.buf).unwrap();
    }
}
