//! Diagrams as pure functions from the trace to SVG with a fixed width, each with a
//! `<title>`, a `<desc>` and a text twin for screen readers.

pub mod sequence;
pub mod timeline;

/// Shortens text to `max` characters, ending with an ellipsis when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
        out.push('…');
        out
    }
}
