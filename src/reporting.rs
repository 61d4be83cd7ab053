//! [`Reporting`]: a reader that reports progress inside one large read
//! (`TensorSource::read_with_progress`).

use std::io::{self, Read};

/// The most a [`Reporting`] reader reads in one call.
const REPORT_STEP: usize = 64 << 20;

/// A reader that tells `on` how many bytes each read brought, reading at
/// most 64 MiB per call: a large `read_exact` through it reports as it
/// goes (progress inside one tensor).
pub(crate) struct Reporting<'a, R> {
    inner: R,
    on: &'a mut dyn FnMut(u64),
}

impl<'a, R: Read> Reporting<'a, R> {
    pub(crate) fn new(inner: R, on: &'a mut dyn FnMut(u64)) -> Self {
        Reporting { inner, on }
    }
}

impl<R: Read> Read for Reporting<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let cap = buf.len().min(REPORT_STEP);
        // In bounds: `cap` is at most `buf.len()`.
        let n = self.inner.read(buf.get_mut(..cap).unwrap_or_default())?;
        (self.on)(n as u64);
        Ok(n)
    }
}
