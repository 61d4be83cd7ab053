//! A progress bar on stderr for work over many bytes: shown only when
//! stderr is a terminal and the work has taken more than a second.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// How long work runs before the bar appears.
const DELAY: Duration = Duration::from_secs(1);

/// Progress over a known number of bytes.
pub struct Progress {
    bar: Option<ProgressBar>,
    start: Instant,
    shown: bool,
}

impl Progress {
    /// Progress over `total` bytes, labelled `what`.
    pub fn new(what: &str, total: u64) -> Progress {
        let bar = std::io::stderr().is_terminal().then(|| {
            let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
            let style = ProgressStyle::with_template(
                "{msg} [{bar:30}] {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} eta {eta}",
            )
            .map(|s| s.progress_chars("=> "));
            if let Ok(style) = style {
                bar.set_style(style);
            }
            bar.set_message(what.to_string());
            bar
        });
        Progress {
            bar,
            start: Instant::now(),
            shown: false,
        }
    }

    /// Sets the bytes done so far.
    pub fn set(&mut self, done: u64) {
        if let Some(bar) = &self.bar {
            let pos = bar.position();
            self.advance(done.saturating_sub(pos));
        }
    }

    /// Marks `bytes` more as done (and shows the bar once the work has
    /// taken long enough).
    pub fn advance(&mut self, bytes: u64) {
        let Some(bar) = &self.bar else {
            return;
        };
        bar.inc(bytes);
        if !self.shown && self.start.elapsed() >= DELAY {
            self.shown = true;
            bar.set_draw_target(ProgressDrawTarget::stderr());
            bar.enable_steady_tick(Duration::from_millis(200));
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
