//! `tftensor.copy`: the library's `io::copy` from one file to another,
//! with a progress bar on a terminal (or progress given to a callable).

use std::time::{Duration, Instant};

use pyo3::exceptions::PyKeyError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tft::ErrorKind;
use tft::io::{self, CopyEvent, CopyOptions, CopyProgress};

use crate::errors::to_py;
use crate::io::{create_options, open_options};

/// How long a copy runs before its bar appears, and how often it redraws.
const BAR_DELAY: Duration = Duration::from_secs(1);
const BAR_EVERY: Duration = Duration::from_millis(200);

/// Where progress goes.
enum Report {
    None,
    /// A bar on `sys.stderr`, a terminal.
    Bar {
        shown: bool,
        last: Instant,
    },
    /// `callable(done_bytes, total_bytes)`.
    Call(Py<PyAny>),
}

/// One line of a bar: `copying [=====>    ] 512.0 MiB / 1.0 GiB`.
fn bar_line(done: u64, total: u64) -> String {
    const WIDTH: u64 = 30;
    let filled = (done.min(total) * WIDTH)
        .checked_div(total)
        .unwrap_or(WIDTH);
    let bar: String = (0..WIDTH)
        .map(|i| match i.cmp(&filled) {
            std::cmp::Ordering::Less => '=',
            std::cmp::Ordering::Equal => '>',
            std::cmp::Ordering::Greater => ' ',
        })
        .collect();
    format!("\rcopying [{bar}] {} / {}", size(done), size(total))
}

fn size(bytes: u64) -> String {
    const UNITS: [&str; 5] = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    match UNITS.get(unit) {
        Some(&"B") | None => format!("{bytes} B"),
        Some(u) => format!("{value:.1} {u}"),
    }
}

fn write_stderr(py: Python<'_>, text: &str) -> PyResult<()> {
    let stderr = py.import("sys")?.getattr("stderr")?;
    stderr.call_method1("write", (text,))?;
    stderr.call_method0("flush")?;
    Ok(())
}

/// Copies the tensors of `src` into a new file `dst` (formats detected from
/// the path and named by the output's name, or given by `format` and `to`),
/// as `tftensor convert` does, and returns `{"copied", "skipped",
/// "bytes"}`. `only` selects tensors by name; `skip_unsupported` leaves out
/// those the output cannot hold instead of failing. `progress=True` draws a
/// bar on stderr when it is a terminal and the copy takes over a second; a
/// callable is called with `(done_bytes, total_bytes)` as the copy goes
/// (inside one big tensor too); `False` reports nothing. The output
/// appears under its name only once complete.
#[pyfunction]
#[pyo3(
    text_signature = "(src, dst, progress=True, *, format=None, to=None, only=None, \
                      skip_unsupported=False, npy_dtype=None, compression=None)"
)]
#[pyo3(signature = (
    src, dst, progress = None, *, format = None, to = None, only = None,
    skip_unsupported = false, npy_dtype = None, compression = None,
))]
#[expect(clippy::too_many_arguments, reason = "Python keyword arguments")]
pub(crate) fn copy<'py>(
    py: Python<'py>,
    src: std::path::PathBuf,
    dst: std::path::PathBuf,
    progress: Option<Bound<'py, PyAny>>,
    format: Option<&str>,
    to: Option<&str>,
    only: Option<Vec<String>>,
    skip_unsupported: bool,
    npy_dtype: Option<&str>,
    compression: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let open = open_options(format, npy_dtype, None, false, false)?;
    let create = create_options(to, compression, None)?;
    let mut report = match progress {
        Some(p) if p.is_callable() => Report::Call(p.unbind()),
        Some(p) if !p.is_truthy()? => Report::None,
        // True or None: a bar, on a terminal.
        _ => {
            let stderr = py.import("sys")?.getattr("stderr")?;
            let tty = stderr
                .call_method0("isatty")
                .and_then(|t| t.is_truthy())
                .unwrap_or(false);
            if tty {
                Report::Bar {
                    shown: false,
                    last: Instant::now(),
                }
            } else {
                Report::None
            }
        }
    };
    let asked = only.unwrap_or_default();
    let start = Instant::now();
    let mut failed: Option<PyErr> = None;
    let result = py.detach(|| {
        let mut done = CopyProgress::default();
        let mut on = |event: &CopyEvent<'_>| {
            let (bytes, total) = done.update(event);
            let last_event = matches!(event, CopyEvent::Copied { .. }) && bytes >= total;
            match &mut report {
                Report::None => {}
                Report::Call(f) => {
                    if failed.is_none() {
                        let r = Python::attach(|py| f.call1(py, (bytes, total)).map(drop));
                        failed = r.err();
                    }
                }
                Report::Bar { shown, last } => {
                    let due = start.elapsed() >= BAR_DELAY && last.elapsed() >= BAR_EVERY;
                    if due || (*shown && last_event) {
                        *shown = true;
                        *last = Instant::now();
                        let line = bar_line(bytes, total);
                        // A bar that cannot be drawn is no reason to stop.
                        let _ = Python::attach(|py| write_stderr(py, &line));
                    }
                }
            }
        };
        let mut source = io::open_with(&src, &open)?;
        let sink = io::create_with(&dst, &create)?;
        let options = CopyOptions::default()
            .only(asked.iter().cloned())
            .skip_unsupported(skip_unsupported)
            .progress(&mut on);
        io::copy(source.as_mut(), sink, options)
    });
    if let Report::Bar { shown: true, .. } = report {
        write_stderr(py, "\n")?;
    }
    if let Some(e) = failed {
        return Err(e);
    }
    let report = result.map_err(|e| match e.key() {
        // A name asked for that the source lacks: a missing key.
        Some(key) if e.kind() == ErrorKind::NotFound && asked.iter().any(|n| n == key) => {
            PyKeyError::new_err(key.to_owned())
        }
        _ => to_py(e),
    })?;
    let out = PyDict::new(py);
    out.set_item("copied", report.copied)?;
    out.set_item("skipped", report.skipped)?;
    out.set_item("bytes", report.bytes)?;
    Ok(out)
}
