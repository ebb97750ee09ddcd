//! Millisecond instants written for people.

/// Writes milliseconds as seconds: `8 s`, `0.25 s`, `120.5 s`.
pub fn secs(ms: u64) -> String {
    let (whole, frac) = (ms / 1000, ms % 1000);
    if frac == 0 {
        format!("{whole} s")
    } else {
        let frac = format!("{frac:03}");
        format!("{whole}.{} s", frac.trim_end_matches('0'))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn seconds_read_naturally() {
        assert_eq!(super::secs(0), "0 s");
        assert_eq!(super::secs(8_000), "8 s");
        assert_eq!(super::secs(120_500), "120.5 s");
        assert_eq!(super::secs(250), "0.25 s");
    }
}
