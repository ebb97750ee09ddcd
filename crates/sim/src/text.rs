//! Text cut to fit: a server's echo of a pasted megabyte kept as a line
//! ([`crate::trace::line_for_people`]), a diagram's label, a value quoted in a sentence.

/// Shortens `text` to `max` characters (at least one), in place, ending with an ellipsis
/// when cut: a text that fits comes back as it was, with no copy.
///
/// ```
/// use mrtr_sim::text::clip;
/// assert_eq!(clip("deployed to staging".into(), 40), "deployed to staging");
/// assert_eq!(clip("deployed to staging".into(), 9), "deployed…");
/// ```
pub fn clip(mut text: String, max: usize) -> String {
    // A text of at most `max` bytes has at most `max` characters: the common case is a
    // length check.
    if text.len() <= max {
        return text;
    }
    // Where the `max`-th character starts, if another follows it.
    let mut starts = text.char_indices().map(|(at, _)| at);
    if let (Some(cut), Some(_)) = (starts.nth(max.max(1) - 1), starts.next()) {
        text.truncate(cut);
        text.push('…');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::clip;

    #[test]
    fn clip_keeps_what_fits_and_cuts_the_rest_at_a_character() {
        assert_eq!(clip("abcd".into(), 4), "abcd");
        assert_eq!(clip("abcde".into(), 4), "abc…");
        assert_eq!(clip("ééééé".into(), 3), "éé…");
        assert_eq!(clip("éééé".into(), 4), "éééé", "four characters in eight bytes fit in four");
        assert_eq!(clip("abc".into(), 0), "…", "one character at least: the ellipsis");
        assert_eq!(clip(String::new(), 3), "");
    }
}
