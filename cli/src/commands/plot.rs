//! `tftensor plot`: pictures of a log directory's series and of a
//! tensor's values.

use std::path::PathBuf;

use anyhow::{Result, bail};
use tftensor::Tensor;
use tftensor::io::{Format, TensorSource, select_series};
use tftensor::stats::{Real, RealVisitor};

use crate::chart::{RunSeries, SeriesData, series_chart, value_histogram};
use crate::error::at;
use crate::source::{ReadOptions, format_parser, hint, open};

/// Draw a TensorBoard series, or a histogram of a tensor's values, as a
/// PNG or SVG picture.
///
/// With --tag: the tag's series in every run of the log directory, one
/// line per run with the step on x; histogram series are drawn as
/// TensorBoard's distribution bands (the median, and the bands at 0.5, 1
/// and 1.5 standard deviations of a normal distribution, and the extremes).
/// With NAME: a histogram of the tensor's finite values.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\n  \
    tftensor plot logs/ --tag loss -o loss.png\n  \
    tftensor plot logs/ --tag dense/kernel -o weights.svg\n  \
    tftensor plot model.weights.h5 layers/dense/vars/0 -o kernel.png --bins 40")]
pub struct PlotArgs {
    /// A TensorBoard log directory (with --tag), or any tensor file.
    pub path: PathBuf,
    /// The tensor whose values to draw as a histogram.
    #[arg(conflicts_with = "tag", required_unless_present = "tag")]
    pub name: Option<String>,
    /// The series to draw, in every run that has it.
    #[arg(long, value_name = "TAG")]
    pub tag: Option<String>,
    /// Where to write the picture: a `.png` or `.svg` file.
    #[arg(short, long, value_name = "OUT")]
    pub output: PathBuf,
    /// Bins of a tensor's value histogram.
    #[arg(long, default_value_t = 50)]
    pub bins: usize,
    /// The input's format, instead of detecting it.
    #[arg(long, value_parser = format_parser())]
    pub format: Option<Format>,
    #[command(flatten)]
    pub read: ReadOptions,
}

/// Runs `plot`.
pub fn run(args: &PlotArgs) -> Result<()> {
    let mut input = open(&args.path, args.format, &args.read)?;
    match (&args.tag, &args.name) {
        (Some(tag), _) => {
            let runs = runs_of(input.as_mut(), tag)?;
            series_chart(&args.output, tag, &runs)
        }
        (None, Some(name)) => {
            let t = input
                .read_named(name)
                .map_err(|e| at(&args.path, name, e))?;
            let values = real_values(&t).map_err(|e| at(&args.path, name, e))?;
            let title = format!("{name}: {} {}", t.dtype().name(), t.shape().debug_string());
            value_histogram(&args.output, &title, &values, args.bins)
        }
        (None, None) => bail!("name a tensor, or a series with --tag"),
    }
}

/// The series of `tag` in each run, from the source's entries: a run's
/// values (`RUN/TAG`, or one `RUN/TAG@STEP` per step when they do not
/// stack), then its steps (`RUN/TAG/steps`), as `select_series` orders
/// them.
pub fn runs_of(input: &mut dyn TensorSource, tag: &str) -> Result<Vec<RunSeries>> {
    let picked = select_series(input, tag).map_err(hint)?;
    let mut runs = Vec::new();
    let mut values: Vec<Tensor> = Vec::new();
    for i in picked {
        let Some(entry) = input.entries().get(i).cloned() else {
            continue;
        };
        let t = input.read(i).map_err(hint)?;
        let Some(base) = entry.name.strip_suffix("/steps") else {
            values.push(t);
            continue;
        };
        let run = match base.strip_suffix(tag) {
            Some("") => ".".to_owned(),
            Some(run) => run.trim_end_matches('/').to_owned(),
            None => base.to_owned(),
        };
        let steps: Vec<f64> = t.as_slice::<i64>()?.iter().map(|&s| s as f64).collect();
        let data = series_data(&steps, &values).map_err(|e| at(input.path(), base, e))?;
        runs.push(RunSeries { run, data });
        values.clear();
    }
    if runs.is_empty() {
        bail!("{}: no series tagged '{tag}'", input.path().display());
    }
    Ok(runs)
}

/// One run's values as scalars (a stacked `[n]`, or a scalar per step) or
/// histograms (a stacked `[n, k, 3]`, or a `[k, 3]` per step).
#[expect(clippy::indexing_slicing, reason = "chunks_exact(3) gives chunks of 3")]
fn series_data(steps: &[f64], values: &[Tensor]) -> tftensor::Result<SeriesData> {
    let not_drawable = |t: &Tensor| {
        tftensor::Error::InvalidArgument(format!(
            "{} {} values are neither scalars nor histograms",
            t.dtype().name(),
            t.shape().debug_string()
        ))
    };
    let per_step: Vec<Tensor> = match values {
        [stacked] if stacked.dims() >= 1 && stacked.dim_size(0)? as usize == steps.len() => (0
            ..steps.len())
            .map(|i| stacked.sub_slice(i as i64))
            .collect::<tftensor::Result<_>>()?,
        ragged => ragged.to_vec(),
    };
    let Some(first) = per_step.first() else {
        return Ok(SeriesData::Scalars(Vec::new()));
    };
    if first.dims() == 0 {
        let mut points = Vec::new();
        for (&s, t) in steps.iter().zip(&per_step) {
            let v = real_values(t)?;
            match v.as_slice() {
                [x] => points.push((s, *x)),
                _ => return Err(not_drawable(t)),
            }
        }
        return Ok(SeriesData::Scalars(points));
    }
    let mut histograms = Vec::new();
    for (&s, t) in steps.iter().zip(&per_step) {
        if t.dims() != 2 || t.dim_size(1)? != 3 {
            return Err(not_drawable(t));
        }
        let buckets = real_values(t)?
            .chunks_exact(3)
            .map(|b| [b[0], b[1], b[2]])
            .collect();
        histograms.push((s, buckets));
    }
    Ok(SeriesData::Histograms(histograms))
}

/// A real-number tensor's values as `f64`s.
pub fn real_values(t: &Tensor) -> tftensor::Result<Vec<f64>> {
    struct ToF64;
    impl RealVisitor for ToF64 {
        type Output = Vec<f64>;
        fn visit<T: Real>(self, values: &[T]) -> Vec<f64> {
            values.iter().map(|v| v.to_f64()).collect()
        }
    }
    t.visit_real(ToF64)?.ok_or_else(|| {
        tftensor::Error::unsupported(
            t.dtype(),
            format!("{} values are not numbers", t.dtype().name()),
        )
    })
}
