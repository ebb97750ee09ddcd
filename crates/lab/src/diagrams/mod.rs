//! Diagrams as pure functions from the trace to SVG with a fixed width, each with a
//! `<title>`, a `<desc>` and a text twin for screen readers.

pub mod sequence;
pub mod timeline;

/// The most characters of a server's text that a sentence on the page quotes: a server
/// echoing a pasted megabyte (an unknown tool's name, say) is read out as a line, not a book.
pub const MOST_QUOTED: usize = 300;

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
