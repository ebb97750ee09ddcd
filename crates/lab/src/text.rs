//! Text as the lab shows it in tight places: a diagram's label, a value quoted in a sentence.

/// Shortens `text` to `max` characters (at least one), in place, ending with an ellipsis
/// when cut: a text that fits comes back as it was, with no copy.
pub fn clip(mut text: String, max: usize) -> String {
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
        assert_eq!(clip(String::new(), 3), "");
    }
}
