//! [`EventReader`]: the values of an event file or a log directory.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use bytes::Bytes;
use prost::Message;

use super::discover::discover_in;
use super::fast;
use super::migrate::{TagInfo, migrate_value};
use super::{EventValue, Kind, PLUGIN_GRAPHS, RUN_GRAPH_TAG, data_loss, invalid};
use crate::io::SharedBlobReader;
use crate::io::{Blob, LocalFs, Store};
use crate::pb::{self, event::What};
use crate::tfrecord::{Compression, RecordReader};
use crate::{Result, Tensor};

/// Bytes of a record's header: length and its masked CRC.
const HEADER_LEN: u64 = 12;
/// Bytes of a record's footer: the data's masked CRC.
const FOOTER_LEN: u64 = 4;

/// The file being read.
struct Current {
    blob: Arc<dyn Blob>,
    records: RecordReader<SharedBlobReader>,
}

/// Reads the values of one event file, or of every run of a log directory
/// (see [`super::discover`]), as TensorBoard's `EventAccumulator` does.
///
/// An iterator of `Result<`[`EventValue`]`>`: runs in name order, each
/// run's files in name order, each file's records in order, each
/// summary's values in order. Each record's CRCs are checked.
///
/// * A truncated last record (a file still being written) ends that file
///   cleanly at its last whole record, as TensorBoard's loader does;
///   [`EventReader::truncated`] lists where.
/// * Any other damage (a CRC mismatch, an `Event` that does not decode) is
///   an [`crate::Error::DataLoss`] naming the file and the record's byte
///   offset; the reader then goes on with the next file, as RustBoard
///   marks only that file dead.
///
/// ```
/// use tftensor::events::{EventReader, Kind, SummaryWriter};
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("reader");
/// let mut w = SummaryWriter::create(&dir)?;
/// w.add_text("note", 3, "hello")?;
/// w.close()?;
///
/// let values: Vec<_> = EventReader::open(&dir)?.collect::<Result<_, _>>()?;
/// assert_eq!(values[0].kind, Kind::FileVersion);
/// assert_eq!((&*values[1].tag, values[1].step, values[1].kind), ("note", 3, Kind::Text));
/// assert_eq!(values[1].value, tftensor::Tensor::from("hello"));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct EventReader {
    /// Where the files are.
    store: Arc<dyn Store>,
    /// Files still to read (keys of `store`), with their run.
    files: VecDeque<(Arc<str>, String)>,
    run: Arc<str>,
    current: Option<Current>,
    /// The first metadata of each tag of the current run.
    tags: HashMap<Arc<str>, TagInfo>,
    /// Values of the current record not yet returned.
    pending: VecDeque<EventValue>,
    /// The record buffer, reused.
    buf: Vec<u8>,
    truncated: Vec<(PathBuf, u64)>,
}

impl EventReader {
    /// A reader of `path`: one event file (run `"."`), or a log directory
    /// and its runs.
    ///
    /// # Errors
    /// [`crate::Error::Io`] when `path` or a directory under it cannot be
    /// read. Files are opened as they are reached.
    ///
    /// ```
    /// assert!(tftensor::events::EventReader::open("/no/such/logdir").is_err());
    /// ```
    pub fn open(path: impl AsRef<Path>) -> Result<EventReader> {
        let key = path.as_ref().to_string_lossy().into_owned();
        EventReader::open_in(Arc::new(LocalFs::new()), &key)
    }

    /// A reader of `key` in `store` (an event file, or a log directory
    /// whose folders [`Store::list`] walks): [`EventReader::open`] for any
    /// store.
    ///
    /// # Errors
    /// As [`EventReader::open`].
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tftensor::events::EventReader;
    /// use tftensor::io::LocalFs;
    /// let r = EventReader::open_in(Arc::new(LocalFs::new()), "tests/data/events/runs")?;
    /// assert!(r.count() > 0);
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    pub fn open_in(store: Arc<dyn Store>, key: &str) -> Result<EventReader> {
        let runs = discover_in(&*store, key)?;
        let mut files = VecDeque::new();
        for run in runs {
            let name: Arc<str> = Arc::from(run.run);
            files.extend(run.keys.into_iter().map(|k| (name.clone(), k)));
        }
        Ok(EventReader {
            store,
            files,
            run: Arc::from("."),
            current: None,
            tags: HashMap::new(),
            pending: VecDeque::new(),
            buf: Vec::new(),
            truncated: Vec::new(),
        })
    }

    /// The files that ended in a truncated record so far, with the byte
    /// offset where that record starts (where a reader following the file
    /// would resume).
    ///
    /// ```
    /// use tftensor::events::{EventReader, SummaryWriter};
    /// let tmp = tempfile::tempdir().unwrap(); // a log directory of its own
    /// let mut w = SummaryWriter::create(tmp.path())?;
    /// w.add_scalar("loss", 1, 0.5)?;
    /// w.close()?;
    /// let mut r = EventReader::open(tmp.path())?;
    /// assert_eq!(r.by_ref().count(), 2); // the file version, then the scalar
    /// assert!(r.truncated().is_empty());
    /// # Ok::<(), tftensor::Error>(())
    /// ```
    #[must_use]
    pub fn truncated(&self) -> &[(PathBuf, u64)] {
        &self.truncated
    }

    /// Opens the next file; `Ok(false)` when there is none.
    fn open_next(&mut self) -> Result<bool> {
        let Some((run, key)) = self.files.pop_front() else {
            return Ok(false);
        };
        if run != self.run {
            // TensorBoard keeps the first metadata per tag per run.
            self.tags.clear();
            self.run = run;
        }
        let blob = self.store.open(&key)?;
        let records = RecordReader::from_blob(blob.clone(), Compression::None);
        self.current = Some(Current { blob, records });
        Ok(true)
    }

    /// Reads the next record of the current file into `pending`;
    /// `Ok(false)` at the end of the file (or of its whole records).
    fn read_next(&mut self) -> Result<bool> {
        let Some(cur) = self.current.as_mut() else {
            return Ok(false);
        };
        let offset = cur.records.offset();
        match cur.records.read_record(&mut self.buf) {
            Ok(true) => {}
            Ok(false) => return Ok(false),
            Err(e) => {
                if is_truncated_tail(&*cur.blob, offset)? {
                    self.truncated.push((PathBuf::from(cur.blob.id()), offset));
                    return Ok(false);
                }
                return Err(e);
            }
        }
        if let Some(s) = fast::scalar_event(&self.buf) {
            let known = std::str::from_utf8(s.tag).ok();
            if let Some((tag, info)) = known.and_then(|t| self.tags.get_key_value(t)) {
                if info.kind == Kind::Scalar {
                    self.pending.push_back(EventValue {
                        run: self.run.clone(),
                        tag: tag.clone(),
                        step: s.step,
                        wall_time: s.wall_time,
                        kind: Kind::Scalar,
                        plugin_name: info.plugin_name.clone(),
                        data_class: info.data_class,
                        value: Tensor::from(s.value),
                    });
                    return Ok(true);
                }
            }
        }
        let event = decode_event(&self.buf, cur.blob.id(), offset)?;
        let pending = &mut self.pending;
        event_values(
            event,
            &self.run,
            &mut self.tags,
            true,
            cur.blob.id(),
            offset,
            &mut |v| pending.push_back(v),
        )?;
        Ok(true)
    }
}

/// Decodes the `Event` in the record at `offset` of the file `name`.
pub(super) fn decode_event(record: &[u8], name: &str, offset: u64) -> Result<pb::Event> {
    pb::Event::decode(record).map_err(|e| {
        data_loss(
            name,
            offset,
            format_args!("the record does not decode as an Event: {e}"),
        )
    })
}

/// Turns one event of run `run` (the record at `offset` of file `name`) into
/// values given to `push`, as `data_compat` and `dataclass_compat` do;
/// `tags` holds the first metadata of each tag of the run so far.
pub(super) fn event_values(
    event: pb::Event,
    run: &Arc<str>,
    tags: &mut HashMap<Arc<str>, TagInfo>,
    decode: bool,
    name: &str,
    offset: u64,
    push: &mut dyn FnMut(EventValue),
) -> Result<()> {
    let pb::Event {
        wall_time,
        step,
        what,
        ..
    } = event;
    let make =
        |tag: &str, kind: Kind, plugin: &str, class: pb::DataClass, value: Tensor| EventValue {
            run: run.clone(),
            tag: Arc::from(tag),
            step,
            wall_time,
            kind,
            plugin_name: Arc::from(plugin),
            data_class: class,
            value,
        };
    let blob = |b: Bytes| Tensor::from_vec([1], vec![b]);
    let single = match what {
        None => return Ok(()),
        Some(What::Summary(summary)) => {
            for value in summary.value {
                let migrated =
                    migrate_value(value, tags, decode).map_err(|m| invalid(name, offset, m))?;
                if let Some((tag, info, tensor)) = migrated {
                    push(EventValue {
                        run: run.clone(),
                        tag,
                        step,
                        wall_time,
                        kind: info.kind,
                        plugin_name: info.plugin_name,
                        data_class: info.data_class,
                        value: tensor,
                    });
                }
            }
            return Ok(());
        }
        Some(What::FileVersion(v)) => make(
            "",
            Kind::FileVersion,
            "",
            pb::DataClass::Unknown,
            Tensor::from(v),
        ),
        Some(What::GraphDef(g)) => make(
            RUN_GRAPH_TAG,
            Kind::Graph,
            PLUGIN_GRAPHS,
            pb::DataClass::BlobSequence,
            blob(g)?,
        ),
        Some(What::TaggedRunMetadata(t)) => make(
            &t.tag,
            Kind::RunMetadata,
            super::PLUGIN_TAGGED_RUN_METADATA,
            pb::DataClass::BlobSequence,
            blob(t.run_metadata)?,
        ),
        Some(What::MetaGraphDef(g)) => make(
            "",
            Kind::MetaGraph,
            "",
            pb::DataClass::Unknown,
            Tensor::from(g),
        ),
        Some(What::SessionLog(s)) => make(
            "",
            Kind::SessionLog,
            "",
            pb::DataClass::Unknown,
            Tensor::from(Bytes::from(s.encode_to_vec())),
        ),
        Some(What::LogMessage(m)) => make(
            "",
            Kind::LogMessage,
            "",
            pb::DataClass::Unknown,
            Tensor::from(Bytes::from(m.encode_to_vec())),
        ),
    };
    push(single);
    Ok(())
}

impl Iterator for EventReader {
    type Item = Result<EventValue>;

    fn next(&mut self) -> Option<Result<EventValue>> {
        loop {
            if let Some(v) = self.pending.pop_front() {
                return Some(Ok(v));
            }
            if self.current.is_none() {
                match self.open_next() {
                    Ok(true) => {}
                    Ok(false) => return None,
                    Err(e) => return Some(Err(e)),
                }
            }
            match self.read_next() {
                Ok(true) => {}
                Ok(false) => self.current = None,
                Err(e) => {
                    // The rest of this file is lost; go on with the next.
                    self.current = None;
                    self.pending.clear();
                    return Some(Err(e));
                }
            }
        }
    }
}

impl std::iter::FusedIterator for EventReader {}

impl std::fmt::Debug for EventReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EventReader")
            .field("run", &self.run)
            .field("file", &self.current.as_ref().map(|c| c.blob.id()))
            .field("files_left", &self.files.len())
            .finish_non_exhaustive()
    }
}

/// Whether the record at `offset` failed because the file ends inside it
/// (a partial header, or a whole header with a good length CRC that
/// declares more bytes than remain), not because it is damaged.
fn is_truncated_tail(blob: &dyn Blob, offset: u64) -> Result<bool> {
    let left = blob.len().saturating_sub(offset);
    if left < HEADER_LEN {
        return Ok(true);
    }
    let mut header = [0u8; HEADER_LEN as usize];
    blob.read_at(offset, &mut header)?;
    let [l0, l1, l2, l3, l4, l5, l6, l7, c0, c1, c2, c3] = header;
    let declared = [l0, l1, l2, l3, l4, l5, l6, l7];
    if crate::crc32c::masked(&declared) != u32::from_le_bytes([c0, c1, c2, c3]) {
        return Ok(false);
    }
    let need = u64::from_le_bytes(declared)
        .saturating_add(HEADER_LEN)
        .saturating_add(FOOTER_LEN);
    Ok(need > left)
}
