//! Printing: `SummarizeValue`, `DebugString`, `Display` and `Debug`
//! (`summarize`), and the per-element number and string formatting they
//! use (`number_format`).

mod number_format;
mod summarize;
