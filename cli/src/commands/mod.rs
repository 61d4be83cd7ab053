//! The subcommands.

pub mod convert;
pub mod diff;
pub mod index;
pub mod inspect;
pub mod plot;
pub mod show;

use std::io::{self, BufWriter, StdoutLock};

/// Buffered standard output.
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(1 << 16, io::stdout().lock())
}
