//! A log directory as time series: [`series`] (with the values) and
//! [`list`] (without).

use std::path::Path;

use bytes::Bytes;

use super::Kind;
use super::columns::{Columns, Counts, Values, gather};
use crate::io::{LocalFs, Store};
use crate::{DataType, Result, Tensor};

/// The values of one time series.
#[derive(Clone, Debug, PartialEq)]
pub enum SeriesValues {
    /// All values have one dtype and shape: stacked along a new axis 0
    /// (shape `[count, ...]`).
    Stacked(Tensor),
    /// Shapes or dtypes differ (or the dtype cannot be stacked): one
    /// tensor per step.
    Ragged(Vec<Tensor>),
}

/// One time series: the values of one tag in one run, in file order.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The run (see [`super::EventValue::run`]).
    pub run: String,
    /// The tag.
    pub tag: String,
    /// What the values are.
    pub kind: Kind,
    /// The plugin named by the tag's first metadata.
    pub plugin_name: String,
    /// The step of each value.
    pub steps: Vec<i64>,
    /// The wall time of each value (Unix seconds).
    pub wall_times: Vec<f64>,
    /// The values.
    pub values: SeriesValues,
}

/// A time series without its values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeriesInfo {
    /// The run.
    pub run: String,
    /// The tag.
    pub tag: String,
    /// What the values are.
    pub kind: Kind,
    /// The step of the first value.
    pub first_step: i64,
    /// The step of the last value.
    pub last_step: i64,
    /// The number of values.
    pub count: usize,
}

/// The summary time series of a log directory (or one event file), sorted
/// by run then tag. Events that are not summaries (file version, session
/// logs, meta graphs) are left out; a run's graph is the series
/// `__run_graph__`.
///
/// # Errors
/// The first error [`super::EventReader`] gives on the same path (a
/// truncated last record is not one).
///
/// Scalars are gathered without a [`Tensor`] per value: a record holding
/// one float32 scalar is parsed straight from the file's bytes into the
/// series' columns, and a series of float32 scalars is stacked from them.
/// The result is the same as grouping [`super::EventReader`]'s values.
///
/// ```
/// use tftensor::events::{series, SeriesValues, SummaryWriter};
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("series");
/// let mut w = SummaryWriter::create(&dir)?;
/// w.add_scalar("loss", 1, 0.5)?;
/// w.add_scalar("loss", 2, 0.25)?;
/// w.close()?;
/// let all = series(&dir)?;
/// assert_eq!((all[0].tag.as_str(), &all[0].steps[..]), ("loss", &[1, 2][..]));
/// let SeriesValues::Stacked(t) = &all[0].values else { panic!() };
/// assert_eq!(t.as_slice::<f32>()?, &[0.5, 0.25]);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn series(path: impl AsRef<Path>) -> Result<Vec<Series>> {
    series_in(&LocalFs::new(), &path.as_ref().to_string_lossy())
}

/// [`series`] of `key` in `store` (an event file, or a log directory
/// whose folders [`Store::list`] walks).
///
/// # Errors
/// As [`series`].
pub(crate) fn series_in(store: &dyn Store, key: &str) -> Result<Vec<Series>> {
    let mut out = Vec::new();
    for (run, slots) in gather::<Columns>(store, key)? {
        for slot in slots {
            let Columns {
                steps,
                wall_times,
                values,
            } = slot.sink;
            let values = match values {
                Values::F32(v) if v.is_empty() => SeriesValues::Ragged(Vec::new()),
                Values::F32(v) => SeriesValues::Stacked(Tensor::from_vec([v.len()], v)?),
                Values::Tensors(v) => stack(v)?,
            };
            out.push(Series {
                run: run.to_string(),
                tag: slot.tag.to_string(),
                kind: slot.kind,
                plugin_name: slot.plugin_name.to_string(),
                steps,
                wall_times,
                values,
            });
        }
    }
    Ok(out)
}

/// The summary time series of a log directory, as [`series`] finds them,
/// without decoding the values.
///
/// # Errors
/// As [`series`].
///
/// ```
/// use tftensor::events::{list, Kind, SummaryWriter};
/// let tmp = tempfile::tempdir().unwrap(); // removed when dropped
/// let dir = tmp.path().join("list");
/// let mut w = SummaryWriter::create(&dir)?;
/// for step in [3, 5, 9] {
///     w.add_scalar("acc", step, 0.9)?;
/// }
/// w.close()?;
/// let info = &list(&dir)?[0];
/// assert_eq!((info.kind, info.first_step, info.last_step, info.count), (Kind::Scalar, 3, 9, 3));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn list(path: impl AsRef<Path>) -> Result<Vec<SeriesInfo>> {
    let mut out = Vec::new();
    for (run, slots) in gather::<Counts>(&LocalFs::new(), &path.as_ref().to_string_lossy())? {
        out.extend(slots.into_iter().map(|slot| SeriesInfo {
            run: run.to_string(),
            tag: slot.tag.to_string(),
            kind: slot.kind,
            first_step: slot.sink.first_step,
            last_step: slot.sink.last_step,
            count: slot.sink.count,
        }));
    }
    Ok(out)
}

/// Stacks tensors of one dtype and shape along a new axis 0.
fn stack(values: Vec<Tensor>) -> Result<SeriesValues> {
    let Some(first) = values.first() else {
        return Ok(SeriesValues::Ragged(values));
    };
    let (dtype, shape) = (first.dtype(), first.shape().clone());
    if values
        .iter()
        .any(|t| t.dtype() != dtype || *t.shape() != shape)
    {
        return Ok(SeriesValues::Ragged(values));
    }
    let mut dims = vec![values.len() as i64];
    dims.extend(shape.dim_sizes());
    let stacked = if dtype == DataType::String {
        let mut all: Vec<Bytes> = Vec::new();
        for t in &values {
            all.extend_from_slice(t.as_slice::<Bytes>()?);
        }
        Tensor::from_vec(dims.as_slice(), all)?
    } else if dtype.can_use_memcpy() {
        let mut all = Vec::with_capacity(values.iter().map(Tensor::total_bytes).sum());
        for t in &values {
            all.extend_from_slice(t.tensor_data()?);
        }
        Tensor::from_buffer(dtype, dims.as_slice(), Bytes::from(all))?
    } else {
        return Ok(SeriesValues::Ragged(values));
    };
    Ok(SeriesValues::Stacked(stacked))
}
