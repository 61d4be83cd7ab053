//! The columnar path behind [`super::series`] and [`super::list`].
//!
//! Each event file is read in large chunks and its records framed and
//! CRC-checked in place (no copy per record). A record that is one float32
//! scalar of a tag already known as a scalar (the bulk of most logs) is
//! parsed straight from its bytes ([`super::fast`]) and appended to its
//! series' step, wall time and value columns: no `Tensor`, no `EventValue`,
//! and usually no hash lookup (the series that followed the previous
//! record's series last time is tried first). Every other record takes the
//! general path ([`super::reader::event_values`], what [`super::EventReader`]
//! does), so both give the same series; `tests/events.rs` checks that on
//! every fixture.

use std::collections::HashMap;
use std::sync::Arc;

use super::discover::discover_in;
use super::migrate::TagInfo;
use super::reader::{decode_event, event_values};
use super::{EventValue, Kind, fast};
use crate::io::{Blob, Store};
use crate::{DataType, Error, Result, Tensor, crc32c};

/// Bytes of a record's header: length and its masked CRC.
const HEADER_LEN: usize = 12;
/// Bytes of a record's footer: the data's masked CRC.
const FOOTER_LEN: usize = 4;
/// Bytes read from a file at a time (the buffer doubles only for a record
/// longer than it, as the record's bytes arrive).
const CHUNK: usize = 256 << 10;
/// The smallest buffer (for small files).
const MIN_BUFFER: usize = 16 << 10;

/// Calls `record(offset, data)` for each record of `blob`, in order, both
/// CRCs checked, as [`super::EventReader`] frames them: a truncated last
/// record (a partial header, or a header whose length CRC is good
/// declaring more bytes than the file holds) ends the file cleanly; a CRC
/// mismatch is the [`Error::DataLoss`] that
/// [`crate::tfrecord::RecordReader`] gives, with the file, the record and
/// its offset as fields. `buf` is the read buffer, reused across files.
pub(super) fn for_each_record(
    blob: &dyn Blob,
    buf: &mut Vec<u8>,
    mut record: impl FnMut(u64, &[u8]) -> Result<()>,
) -> Result<()> {
    let len = blob.len();
    // Where the next read starts.
    let mut at = 0u64;
    // A small file needs a small buffer; the clamp makes the cast exact.
    let want = len.saturating_add(1).clamp(MIN_BUFFER as u64, CHUNK as u64) as usize;
    if buf.len() < want {
        buf.resize(want, 0);
    }
    // The bytes not yet framed are buf[start..end]; buf[0] is at `base` in
    // the file.
    let (mut start, mut end, mut base, mut index) = (0usize, 0usize, 0u64, 0u64);
    // The last header whose length CRC matched; to start, the (good)
    // header of an empty record.
    let mut checked = [0u8; HEADER_LEN];
    if let Some(crc) = checked.last_chunk_mut::<4>() {
        *crc = crc32c::masked(&[0; 8]).to_le_bytes();
    }
    loop {
        if start > 0 {
            buf.copy_within(start..end, 0);
            base += start as u64;
            end -= start;
            start = 0;
        }
        if end == buf.len() {
            // One record fills the buffer: room for more of it, as its
            // bytes arrive (so never more than twice what the file holds).
            let grown = buf
                .len()
                .checked_mul(2)
                .ok_or(Error::AllocationFailed { bytes: usize::MAX })?;
            buf.try_reserve_exact(grown - buf.len())
                .map_err(|_| Error::AllocationFailed { bytes: grown })?;
            buf.resize(grown, 0);
        }
        #[expect(
            clippy::indexing_slicing,
            reason = "`end <= buf.len()`: it only grows by what was read into `buf[end..]`"
        )]
        let room = &mut buf[end..];
        // What is left of the blob, at most the room (which fits in usize).
        let read = usize::try_from(len - at).map_or(room.len(), |l| l.min(room.len()));
        let eof = read < room.len();
        if let Some(dst) = room.get_mut(..read) {
            blob.read_at(at, dst)?;
        }
        at += read as u64;
        end += read;
        while let Some(rest) = buf.get(start..end) {
            let Some(header) = rest.first_chunk::<HEADER_LEN>() else {
                break;
            };
            let [l0, l1, l2, l3, l4, l5, l6, l7, c0, c1, c2, c3] = *header;
            let len_bytes = [l0, l1, l2, l3, l4, l5, l6, l7];
            let mismatch = |what: &str, stored: u32, computed: u32| {
                corrupted(
                    blob.id(),
                    base + start as u64,
                    index,
                    format_args!(
                        "{what} checksum mismatch (stored {stored:#010x}, computed {computed:#010x})"
                    ),
                )
            };
            // The length's CRC depends on its 8 bytes alone: a header equal
            // to the last one checked is good (records of one length are
            // the rule in a log).
            let stored = u32::from_le_bytes([c0, c1, c2, c3]);
            let computed = if *header == checked {
                stored
            } else {
                crc32c::masked(&len_bytes)
            };
            if stored != computed {
                return Err(mismatch("length", stored, computed));
            }
            let declared = u64::from_le_bytes(len_bytes);
            // A length past usize cannot be in the buffer: the file ends
            // before the record does (a truncated tail), or the buffer grows.
            let Some(record_end) = usize::try_from(declared)
                .ok()
                .and_then(|d| d.checked_add(HEADER_LEN + FOOTER_LEN))
            else {
                break;
            };
            let data_end = record_end - FOOTER_LEN;
            let (Some(data), Some(footer)) = (
                rest.get(HEADER_LEN..data_end),
                rest.get(data_end..record_end)
                    .and_then(|f| f.first_chunk::<FOOTER_LEN>()),
            ) else {
                break;
            };
            let stored = u32::from_le_bytes(*footer);
            let computed = crc32c::masked(data);
            if stored != computed {
                return Err(mismatch("data", stored, computed));
            }
            checked = *header;
            record(base + start as u64, data)?;
            index += 1;
            start += record_end;
        }
        if eof {
            // What is left (if anything) is a truncated last record.
            return Ok(());
        }
    }
}

/// The error [`crate::tfrecord::RecordReader`] gives for a damaged record.
fn corrupted(name: &str, offset: u64, index: u64, what: std::fmt::Arguments<'_>) -> Error {
    Error::data_loss(format!("corrupted record: {what}"))
        .with_path(name)
        .with_key(format_args!("record {index}"))
        .with_offset(offset)
}

/// What a series keeps of its values: all of them ([`Columns`]) or a
/// summary ([`Counts`]).
pub(super) trait Sink: Default {
    /// Whether values are decoded (false for listings).
    const DECODE: bool;
    /// A float32 scalar from the fast path.
    fn scalar(&mut self, step: i64, wall_time: f64, value: f32);
    /// A value from the general path.
    fn value(&mut self, step: i64, wall_time: f64, value: Tensor);
}

/// A series' values, as columns.
#[derive(Default)]
pub(super) struct Columns {
    pub steps: Vec<i64>,
    pub wall_times: Vec<f64>,
    pub values: Values,
}

/// A series' values: float32 scalars in one column while they all are.
pub(super) enum Values {
    F32(Vec<f32>),
    Tensors(Vec<Tensor>),
}

impl Default for Values {
    fn default() -> Values {
        Values::F32(Vec::new())
    }
}

impl Sink for Columns {
    const DECODE: bool = true;

    fn scalar(&mut self, step: i64, wall_time: f64, value: f32) {
        self.steps.push(step);
        self.wall_times.push(wall_time);
        match &mut self.values {
            Values::F32(v) => v.push(value),
            Values::Tensors(v) => v.push(Tensor::from(value)),
        }
    }

    fn value(&mut self, step: i64, wall_time: f64, value: Tensor) {
        self.steps.push(step);
        self.wall_times.push(wall_time);
        if let Values::F32(v) = &mut self.values {
            match f32_scalar(&value) {
                Some(x) => return v.push(x),
                None => {
                    let v = std::mem::take(v).into_iter().map(Tensor::from).collect();
                    self.values = Values::Tensors(v);
                }
            }
        }
        if let Values::Tensors(v) = &mut self.values {
            v.push(value);
        }
    }
}

/// The value of a float32 rank-0 tensor.
fn f32_scalar(t: &Tensor) -> Option<f32> {
    if t.dtype() != DataType::Float || t.dims() != 0 {
        return None;
    }
    t.as_slice::<f32>().ok()?.first().copied()
}

/// A series' first and last steps and its length.
#[derive(Default)]
pub(super) struct Counts {
    pub first_step: i64,
    pub last_step: i64,
    pub count: usize,
}

impl Sink for Counts {
    const DECODE: bool = false;

    fn scalar(&mut self, step: i64, _: f64, _: f32) {
        if self.count == 0 {
            self.first_step = step;
        }
        self.last_step = step;
        self.count += 1;
    }

    fn value(&mut self, step: i64, wall_time: f64, _: Tensor) {
        self.scalar(step, wall_time, 0.0);
    }
}

/// One series of a run being gathered.
pub(super) struct Slot<S> {
    pub tag: Arc<str>,
    pub kind: Kind,
    pub plugin_name: Arc<str>,
    pub sink: S,
    /// Whether the first metadata of the tag in the run makes it a scalar:
    /// then a one-scalar record of it may take the fast path (the
    /// condition [`super::EventReader`] uses).
    fast: bool,
    /// The slot whose record followed one of this slot last time.
    next: usize,
}

/// A run's name and its series.
pub(super) type RunSeries<S> = (Arc<str>, Vec<Slot<S>>);

/// The series of every run of `key` (a log directory or one event file),
/// runs in name order, each run's series sorted by tag. Non-summary events
/// are left out.
pub(super) fn gather<S: Sink>(store: &dyn Store, key: &str) -> Result<Vec<RunSeries<S>>> {
    let mut out = Vec::new();
    let mut buf = Vec::new();
    for run in discover_in(store, key)? {
        let mut g = Run::<S>::new(Arc::from(run.run));
        for key in &run.keys {
            let blob = store.open(key)?;
            let name = blob.id();
            for_each_record(&*blob, &mut buf, |offset, data| {
                g.record(name, offset, data)
            })?;
        }
        let mut slots = g.slots;
        slots.sort_by(|a, b| a.tag.cmp(&b.tag));
        out.push((g.name, slots));
    }
    Ok(out)
}

/// A run being gathered.
struct Run<S> {
    name: Arc<str>,
    /// The first metadata of each tag of the run (for the general path).
    tags: HashMap<Arc<str>, TagInfo>,
    slots: Vec<Slot<S>>,
    /// The slot of each tag.
    index: HashMap<Arc<str>, usize>,
    /// The slot of the previous fast-path record (`usize::MAX` for none).
    last: usize,
    /// Values of the current record, from the general path.
    pending: Vec<EventValue>,
}

impl<S: Sink> Run<S> {
    fn new(name: Arc<str>) -> Run<S> {
        Run {
            name,
            tags: HashMap::new(),
            slots: Vec::new(),
            index: HashMap::new(),
            last: usize::MAX,
            pending: Vec::new(),
        }
    }

    /// Adds the values of one record.
    fn record(&mut self, name: &str, offset: u64, data: &[u8]) -> Result<()> {
        if let Some(s) = fast::scalar_event(data) {
            if let Some(slot) = self.fast_slot(s.tag) {
                slot.sink.scalar(s.step, s.wall_time, s.value);
                return Ok(());
            }
        }
        let event = decode_event(data, name, offset)?;
        let pending = &mut self.pending;
        event_values(
            event,
            &self.name,
            &mut self.tags,
            S::DECODE,
            name,
            offset,
            &mut |v| pending.push(v),
        )?;
        for v in std::mem::take(&mut self.pending) {
            self.push(v);
        }
        Ok(())
    }

    /// The slot of `tag` when it takes the fast path: the guess (the slot
    /// that followed the previous record's slot last time) when its tag
    /// matches, else a lookup. `None` for a tag that is not UTF-8 (the
    /// general path reports it).
    fn fast_slot(&mut self, tag: &[u8]) -> Option<&mut Slot<S>> {
        let guess = self.slots.get(self.last).map_or(0, |s| s.next);
        let i = match self.slots.get(guess) {
            // Equal to a known tag: so `tag` is UTF-8.
            Some(s) if s.tag.as_bytes() == tag => guess,
            _ => {
                let i = *self.index.get(std::str::from_utf8(tag).ok()?)?;
                if let Some(prev) = self.slots.get_mut(self.last) {
                    prev.next = i;
                }
                i
            }
        };
        let slot = self.slots.get_mut(i).filter(|s| s.fast)?;
        self.last = i;
        Some(slot)
    }

    /// Adds a value from the general path.
    fn push(&mut self, v: EventValue) {
        if !v.kind.is_summary() {
            return;
        }
        let i = match self.index.get(&v.tag) {
            Some(&i) => i,
            None => {
                let i = self.slots.len();
                self.slots.push(Slot {
                    tag: v.tag.clone(),
                    kind: v.kind,
                    plugin_name: v.plugin_name.clone(),
                    sink: S::default(),
                    fast: false,
                    next: i,
                });
                self.index.insert(v.tag.clone(), i);
                i
            }
        };
        let fast = self
            .tags
            .get(&v.tag)
            .is_some_and(|t| t.kind == Kind::Scalar);
        if let Some(slot) = self.slots.get_mut(i) {
            slot.fast = fast;
            slot.sink.value(v.step, v.wall_time, v.value);
        }
    }
}
