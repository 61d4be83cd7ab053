//! Pictures: line charts of scalar series (one line per run, step on x),
//! TensorBoard's distribution bands for histogram series, a histogram of a
//! tensor's values, and terminal sparklines. Drawn with `plotters`, to PNG
//! or SVG by the output's ending, with an embedded font (DejaVu Sans), so
//! a picture is the same on every machine.

use std::path::Path;
use std::sync::Once;

use anyhow::{Result, anyhow, bail};
use plotters::coord::Shift;
use plotters::prelude::*;

/// One run's series: `(step, value)` points, or per-step histograms.
pub struct RunSeries {
    /// The run's name (`.` for the log directory itself).
    pub run: String,
    /// What to draw.
    pub data: SeriesData,
}

/// The values of one run's series.
pub enum SeriesData {
    /// A scalar per step.
    Scalars(Vec<(f64, f64)>),
    /// A histogram per step: `(step, [(left, right, count)])`.
    Histograms(Vec<(f64, Vec<[f64; 3]>)>),
}

/// The picture's size in pixels.
pub const SIZE: (u32, u32) = (960, 540);

/// The colour of the `i`-th run: TensorBoard's run palette order
/// (Material colours), cycled.
#[expect(clippy::indexing_slicing, reason = "i % len < len")]
pub fn run_colour(i: usize) -> RGBColor {
    const PALETTE: [RGBColor; 8] = [
        RGBColor(0xff, 0x70, 0x43), // deep orange
        RGBColor(0x00, 0x77, 0xbb), // blue
        RGBColor(0xcc, 0x33, 0x11), // red
        RGBColor(0x33, 0xbb, 0xee), // cyan
        RGBColor(0xee, 0x33, 0x77), // magenta
        RGBColor(0x00, 0x99, 0x88), // teal
        RGBColor(0xbb, 0xbb, 0xbb), // grey
        RGBColor(0x22, 0x22, 0x22), // black
    ];
    PALETTE[i % PALETTE.len()]
}

/// TensorBoard's basis points for distributions: the normal CDF at
/// (-inf, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, inf) standard deviations
/// (`tensorboard/plugins/distribution/compressor.py`).
pub const NORMAL_BPS: [f64; 9] = [
    0.0, 668.0, 1587.0, 3085.0, 5000.0, 6915.0, 8413.0, 9332.0, 10000.0,
];

/// The value at each of [`NORMAL_BPS`] of one histogram's buckets
/// `(left, right, count)`, interpolated linearly within a bucket, as
/// TensorBoard's `compress_histogram` computes it.
#[expect(
    clippy::indexing_slicing,
    reason = "j < 9 by the loop, 0 < i < weights.len() = buckets.len() where indexed"
)]
pub fn compress_histogram(buckets: &[[f64; 3]]) -> [f64; 9] {
    let (Some(first), Some(last)) = (buckets.first(), buckets.last()) else {
        return [0.0; 9];
    };
    let (minmin, maxmax) = (first[0], last[1]);
    let total: f64 = buckets.iter().map(|b| b[2]).sum();
    let scale = NORMAL_BPS[8] / if total == 0.0 { 1.0 } else { total };
    let weights: Vec<f64> = buckets
        .iter()
        .scan(0.0, |acc, b| {
            *acc += b[2] * scale;
            Some(*acc)
        })
        .collect();
    let mut out = [maxmax; 9];
    let mut j = 0;
    'points: while j < NORMAL_BPS.len() {
        let bp = NORMAL_BPS[j];
        // numpy's searchsorted(side="right"): the first weight above bp.
        let mut i = weights.partition_point(|&w| w <= bp);
        while i < weights.len() {
            let cumsum = weights[i];
            let prev = if i > 0 { weights[i - 1] } else { 0.0 };
            if cumsum == prev {
                i += 1;
                continue;
            }
            let lhs = if i == 0 || prev == 0.0 {
                minmin
            } else {
                buckets[i - 1][1].max(minmin)
            };
            let rhs = buckets[i][1].min(maxmax);
            out[j] = lhs + (bp - prev) * (rhs - lhs) / (cumsum - prev);
            j += 1;
            continue 'points;
        }
        break;
    }
    out
}

/// Registers the embedded font once: text is laid out with it in PNG and
/// SVG pictures alike.
fn font() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // The font is DejaVu Sans, a valid TrueType file: registering it
        // cannot fail, and a failure would only leave text undrawn.
        let _ = plotters::style::register_font(
            "sans-serif",
            FontStyle::Normal,
            dejavu::sans::regular(),
        );
    });
}

/// A picture, drawn on any backend.
trait Draw {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>;
}

/// A drawing error as text (plotters' errors are generic over the backend).
fn drawing<E: std::fmt::Debug>(e: E) -> anyhow::Error {
    anyhow!("drawing: {e:?}")
}

/// Draws `picture` into `out`, a `.png` or `.svg` file.
fn picture(out: &Path, draw: &impl Draw) -> Result<()> {
    font();
    let ext = out
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        Some("png") => {
            let root = BitMapBackend::new(out, SIZE).into_drawing_area();
            draw.draw(&root)?;
            root.present()
                .map_err(|e| anyhow!("{}: {e}", out.display()))
        }
        Some("svg") => {
            let root = SVGBackend::new(out, SIZE).into_drawing_area();
            draw.draw(&root)?;
            root.present()
                .map_err(|e| anyhow!("{}: {e}", out.display()))
        }
        _ => bail!(
            "{}: the picture's name must end in .png or .svg",
            out.display()
        ),
    }
}

/// A step on the x axis: whole steps without a fraction.
fn step_label(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{}", x as i64)
    } else {
        format!("{x:.1}")
    }
}

/// A value on an axis spanning `span`: as many decimals as the span
/// needs, and no negative zero.
fn value_label(x: f64, span: f64) -> String {
    let decimals =
        (2.0 - span.abs().max(f64::MIN_POSITIVE).log10().floor()).clamp(0.0, 6.0) as usize;
    let text = format!("{x:.decimals$}");
    match text.strip_prefix('-') {
        Some(rest) if rest.bytes().all(|b| b == b'0' || b == b'.') => rest.to_owned(),
        _ => text,
    }
}

/// The range of `values`, widened when empty or flat so the axis shows
/// something.
fn span(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if lo > hi {
        (0.0, 1.0)
    } else if lo == hi {
        (lo - 0.5, hi + 0.5)
    } else {
        let pad = (hi - lo) * 0.05;
        (lo - pad, hi + pad)
    }
}

/// A chart of one tag: a line per run of scalars, bands per run of
/// histograms.
pub fn series_chart(out: &Path, tag: &str, runs: &[RunSeries]) -> Result<()> {
    picture(out, &SeriesChart { tag, runs })
}

struct SeriesChart<'a> {
    tag: &'a str,
    runs: &'a [RunSeries],
}

impl Draw for SeriesChart<'_> {
    #[expect(
        clippy::indexing_slicing,
        reason = "k < 4: c[k] and c[8 - k] of a [f64; 9]"
    )]
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let runs = self.runs;
        let steps = runs.iter().flat_map(|r| match &r.data {
            SeriesData::Scalars(p) => p.iter().map(|&(s, _)| s).collect::<Vec<_>>(),
            SeriesData::Histograms(h) => h.iter().map(|(s, _)| *s).collect(),
        });
        let (x0, x1) = span(steps);
        let values = runs.iter().flat_map(|r| match &r.data {
            SeriesData::Scalars(p) => p.iter().map(|&(_, v)| v).collect::<Vec<_>>(),
            SeriesData::Histograms(h) => h
                .iter()
                .flat_map(|(_, b)| {
                    let c = compress_histogram(b);
                    [c[0], c[8]]
                })
                .collect(),
        });
        let (y0, y1) = span(values);
        root.fill(&WHITE).map_err(drawing)?;
        let mut chart = ChartBuilder::on(root)
            .caption(self.tag, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc("step")
            .x_label_formatter(&|x| step_label(*x))
            .y_label_formatter(&|y| value_label(*y, y1 - y0))
            .light_line_style(RGBColor(0xf4, 0xf4, 0xf4))
            .draw()
            .map_err(drawing)?;
        for (i, run) in runs.iter().enumerate() {
            let colour = run_colour(i);
            match &run.data {
                SeriesData::Scalars(points) => {
                    chart
                        .draw_series(LineSeries::new(
                            points.iter().copied(),
                            colour.stroke_width(2),
                        ))
                        .map_err(drawing)?
                        .label(run.run.clone())
                        .legend(move |(x, y)| {
                            PathElement::new([(x, y), (x + 20, y)], colour.stroke_width(2))
                        });
                }
                SeriesData::Histograms(steps) => {
                    let compressed: Vec<(f64, [f64; 9])> = steps
                        .iter()
                        .map(|(s, b)| (*s, compress_histogram(b)))
                        .collect();
                    // The bands between basis points k and 8-k, the
                    // outermost palest, as TensorBoard shades them.
                    for k in 0..4 {
                        let upper = compressed.iter().map(|(s, c)| (*s, c[8 - k]));
                        let lower = compressed.iter().rev().map(|(s, c)| (*s, c[k]));
                        let outline: Vec<(f64, f64)> = upper.chain(lower).collect();
                        let alpha = 0.15 + 0.15 * k as f64;
                        chart
                            .draw_series(std::iter::once(Polygon::new(
                                outline,
                                colour.mix(alpha).filled(),
                            )))
                            .map_err(drawing)?;
                    }
                    chart
                        .draw_series(LineSeries::new(
                            compressed.iter().map(|(s, c)| (*s, c[4])),
                            colour.stroke_width(2),
                        ))
                        .map_err(drawing)?
                        .label(run.run.clone())
                        .legend(move |(x, y)| {
                            Rectangle::new([(x, y - 5), (x + 20, y + 5)], colour.mix(0.6).filled())
                        });
                }
            }
        }
        // One run, the log directory itself: nothing for a legend to tell.
        if matches!(runs, [only] if only.run == ".") {
            return Ok(());
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK.mix(0.3))
            .label_font(("sans-serif", 14))
            .draw()
            .map_err(drawing)?;
        Ok(())
    }
}

/// A histogram of `values` in `bins` equal bins over their finite range.
#[expect(clippy::indexing_slicing, reason = "b <= bins - 1 < counts.len()")]
pub fn value_histogram(out: &Path, title: &str, values: &[f64], bins: usize) -> Result<()> {
    let bins = bins.max(1);
    let (lo, hi) = span(values.iter().copied());
    let width = (hi - lo) / bins as f64;
    let mut counts = vec![0u64; bins];
    for v in values.iter().filter(|v| v.is_finite()) {
        let b = (((v - lo) / width) as usize).min(bins - 1);
        counts[b] += 1;
    }
    picture(
        out,
        &ValueHistogram {
            title,
            lo,
            width,
            counts,
        },
    )
}

struct ValueHistogram<'a> {
    title: &'a str,
    lo: f64,
    width: f64,
    counts: Vec<u64>,
}

impl Draw for ValueHistogram<'_> {
    fn draw<DB: DrawingBackend>(&self, root: &DrawingArea<DB, Shift>) -> Result<()> {
        let (lo, width) = (self.lo, self.width);
        let hi = lo + width * self.counts.len() as f64;
        let top = self.counts.iter().copied().max().unwrap_or(0).max(1) as f64 * 1.05;
        root.fill(&WHITE).map_err(drawing)?;
        let mut chart = ChartBuilder::on(root)
            .caption(self.title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(70)
            .build_cartesian_2d(lo..hi, 0.0..top)
            .map_err(drawing)?;
        chart
            .configure_mesh()
            .x_desc("value")
            .y_desc("count")
            .x_label_formatter(&|x| value_label(*x, hi - lo))
            .y_label_formatter(&|y| step_label(y.round()))
            .light_line_style(RGBColor(0xf4, 0xf4, 0xf4))
            .draw()
            .map_err(drawing)?;
        let colour = run_colour(1);
        chart
            .draw_series(self.counts.iter().enumerate().map(|(i, &c)| {
                let x = lo + width * i as f64;
                Rectangle::new([(x, 0.0), (x + width, c as f64)], colour.mix(0.8).filled())
            }))
            .map_err(drawing)?;
        Ok(())
    }
}

/// A terminal sparkline of `values` in at most `width` characters (each
/// the mean of its share of the values), and their finite range.
#[expect(
    clippy::indexing_slicing,
    reason = "a < b <= finite.len() (n <= finite.len()); level <= 7 < BARS.len()"
)]
pub fn sparkline(values: &[f64], width: usize) -> Option<(String, f64, f64)> {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let lo = finite.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if finite.is_empty() || width == 0 {
        return None;
    }
    let n = finite.len().min(width);
    let line = (0..n)
        .map(|k| {
            let (a, b) = (
                k * finite.len() / n,
                ((k + 1) * finite.len() / n).max(k * finite.len() / n + 1),
            );
            let share = &finite[a..b];
            let mean = share.iter().sum::<f64>() / share.len() as f64;
            let level = if hi > lo {
                ((mean - lo) / (hi - lo) * 7.0).round() as usize
            } else {
                3
            };
            BARS[level.min(7)]
        })
        .collect();
    Some((line, lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compressed_histograms_match_tensorboard() {
        // One bucket of 10 values in [0, 10]: the basis points are its
        // quantiles, linearly.
        let c = compress_histogram(&[[0.0, 10.0, 10.0]]);
        assert_eq!(c[0], 0.0);
        assert!((c[4] - 5.0).abs() < 1e-12, "{c:?}");
        assert_eq!(c[8], 10.0);
        // Empty: zeros, as TensorBoard.
        assert_eq!(compress_histogram(&[]), [0.0; 9]);
        // TensorBoard 2.21's own answers (compressor.compress_histogram):
        // an empty first bucket leaves the lower edge at the minimum.
        let close = |a: [f64; 9], b: [f64; 9]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
        let c = compress_histogram(&[[0.0, 1.0, 0.0], [1.0, 3.0, 4.0]]);
        let tb = [
            0.0, 0.2004, 0.4761, 0.9255, 1.5, 2.0745, 2.5239, 2.7996, 3.0,
        ];
        assert!(close(c, tb), "{c:?}");
        let c = compress_histogram(&[[-1.0, 0.0, 2.0], [0.0, 0.5, 5.0], [0.5, 2.0, 1.0]]);
        let tb = [
            -1.0, -0.7328, -0.3652, 0.0468, 0.2, 0.3532, 0.47304, 1.1984, 2.0,
        ];
        assert!(close(c, tb), "{c:?}");
    }

    #[test]
    fn axis_labels() {
        assert_eq!(value_label(-0.0001, 1.2), "0.00");
        assert_eq!(value_label(0.25, 1.2), "0.25");
        assert_eq!(value_label(1500.0, 2000.0), "1500");
        assert_eq!(step_label(3.0), "3");
    }

    #[test]
    fn sparklines_span_the_bars() {
        let (line, lo, hi) = sparkline(&[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0], 8).unwrap();
        assert_eq!(line, "▁▂▃▄▅▆▇█");
        assert_eq!((lo, hi), (0.0, 7.0));
        let (line, ..) = sparkline(&(0..1000).map(f64::from).collect::<Vec<_>>(), 10).unwrap();
        assert_eq!(line.chars().count(), 10);
        assert!(sparkline(&[f64::NAN], 10).is_none());
    }
}
