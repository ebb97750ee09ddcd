//! Diagrams as pure functions from the trace to SVG with a fixed width, each with a
//! `<title>`, a `<desc>` and a text twin for screen readers.

pub mod sequence;
pub mod timeline;
