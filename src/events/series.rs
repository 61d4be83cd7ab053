//! A log directory as time series: [`series`] (with the values) and
//! [`list`] (without).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;

use super::{EventReader, Kind};
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
/// The first error of [`EventReader`] (a truncated last record is not one).
///
/// ```
/// use tftensor::events::{series, SeriesValues, SummaryWriter};
/// let dir = std::env::temp_dir().join(format!("tftensor-doc-series-{}", std::process::id()));
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
    let mut groups: BTreeMap<(Arc<str>, Arc<str>), Group> = BTreeMap::new();
    for v in EventReader::open(path)? {
        let v = v?;
        if !v.kind.is_summary() {
            continue;
        }
        let g = groups.entry((v.run, v.tag)).or_insert_with(|| Group {
            kind: v.kind,
            plugin_name: v.plugin_name,
            steps: Vec::new(),
            wall_times: Vec::new(),
            values: Vec::new(),
        });
        g.steps.push(v.step);
        g.wall_times.push(v.wall_time);
        g.values.push(v.value);
    }
    groups
        .into_iter()
        .map(|((run, tag), g)| {
            Ok(Series {
                run: run.to_string(),
                tag: tag.to_string(),
                kind: g.kind,
                plugin_name: g.plugin_name.to_string(),
                steps: g.steps,
                wall_times: g.wall_times,
                values: stack(g.values)?,
            })
        })
        .collect()
}

/// The summary time series of a log directory, as [`series`] finds them,
/// without decoding the values.
///
/// # Errors
/// As [`series`].
///
/// ```
/// use tftensor::events::{list, Kind, SummaryWriter};
/// let dir = std::env::temp_dir().join(format!("tftensor-doc-list-{}", std::process::id()));
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
    let mut groups: BTreeMap<(Arc<str>, Arc<str>), SeriesInfo> = BTreeMap::new();
    for v in EventReader::open(path)?.without_values() {
        let v = v?;
        if !v.kind.is_summary() {
            continue;
        }
        let info = groups
            .entry((v.run.clone(), v.tag.clone()))
            .or_insert_with(|| SeriesInfo {
                run: v.run.to_string(),
                tag: v.tag.to_string(),
                kind: v.kind,
                first_step: v.step,
                last_step: v.step,
                count: 0,
            });
        info.last_step = v.step;
        info.count += 1;
    }
    Ok(groups.into_values().collect())
}

/// A series being gathered.
struct Group {
    kind: Kind,
    plugin_name: Arc<str>,
    steps: Vec<i64>,
    wall_times: Vec<f64>,
    values: Vec<Tensor>,
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
