//! What a host page asks for: the situation a lesson author sets with attributes
//! (`<mrtr-lab scenario="misuse-ticket" moves="tamper,alice" clock="20">`) or with the
//! iframe's query (`embed.html?scenario=…&moves=…&step=…`). One reading for both.
//!
//! ```
//! use mrtr_lab::setup::Setup;
//! let setup = Setup { scenario: Some("misuse-ticket".into()), moves: Some("tamper, alice".into()), ..Setup::default() };
//! let lab = setup.open();
//! assert!(lab.ignored.is_empty());
//! assert_eq!(lab.scenario, "deploy");
//! assert_eq!(lab.run.verdicts.len(), 2);
//! assert_eq!(lab.latest().expect("a verdict").answered.word(), "principal");
//! ```

use crate::share;
use crate::state::{Action, Lab};

/// The situation a host asks for; every field is optional and anything unreadable is ignored
/// (the lab then opens with that field's default).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Setup {
    /// A whole situation as the lab's share link has it (`s=deploy&m=honest&…`, the part
    /// after `#`); the other fields override it.
    pub situation: Option<String>,
    /// A scenario id or alias (`deploy`, `misuse-ticket`, `voucher`, …).
    pub scenario: Option<String>,
    /// Moves to play, comma-separated ids or aliases (`tamper,alice`).
    pub moves: Option<String>,
    /// When your own attempt is sent, in seconds after the ticket was minted.
    pub clock: Option<String>,
    /// The replay record: `off`, `shared` or `per-replica`.
    pub record: Option<String>,
    /// Ticket protection: `signed`, `sealed` or `unsigned`.
    pub signing: Option<String>,
    /// How the person answers: `accept`, `accept-no`, `decline` or `cancel`.
    pub reply: Option<String>,
    /// How many events the diagrams show at first (from 1).
    pub step: Option<String>,
}

impl Setup {
    /// Reads each field by its name (`situation`, `scenario`, `moves`, `clock`, `record`,
    /// `signing`, `reply`, `step`) from wherever the host keeps them: the element's
    /// attributes, the iframe's query.
    pub fn read(mut lookup: impl FnMut(&str) -> Option<String>) -> Setup {
        Setup {
            situation: lookup("situation"),
            scenario: lookup("scenario"),
            moves: lookup("moves"),
            clock: lookup("clock"),
            record: lookup("record"),
            signing: lookup("signing"),
            reply: lookup("reply"),
            step: lookup("step"),
        }
    }
}

fn given(field: &Option<String>) -> Option<&str> {
    field.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// Seconds written in decimal (`20`, `2.5`, `0.125`) as whole milliseconds, rounded;
/// `None` for anything else (a sign, an exponent, a second dot, too many digits). Parsed
/// by hand: a float parser would bring its tables into the lab's wasm for this one attribute.
fn seconds_as_ms(text: &str) -> Option<u64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) || whole.len() > 12 {
        return None;
    }
    let whole: u64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    // Tenths of a millisecond from the first four fractional digits, then rounded.
    let tenths = fraction.bytes().chain(std::iter::repeat(b'0')).take(4).fold(0, |n, b| n * 10 + u64::from(b - b'0'));
    Some(whole * 1000 + (tenths + 5) / 10)
}

impl Setup {
    /// Whether this names a scenario (`scenario`, or a `situation`), rather than leaving the
    /// lab its default one.
    pub fn names_scenario(&self) -> bool {
        given(&self.scenario).is_some() || given(&self.situation).is_some()
    }

    /// The share fragment this asks for.
    pub fn fragment(&self) -> String {
        self.written().0
    }

    /// The share fragment, and a sentence for each field that could not go into it.
    fn written(&self) -> (String, Vec<String>) {
        let mut unread = Vec::new();
        let mut pairs: Vec<String> = given(&self.situation)
            .map(|s| s.trim_start_matches('#').split('&').map(str::to_owned).collect())
            .unwrap_or_default();
        let mut set = |key: &str, value: String| {
            pairs.retain(|kv| kv.split_once('=').map_or(kv != key, |(k, _)| k != key));
            pairs.push(format!("{key}={value}"));
        };
        if let Some(scenario) = given(&self.scenario) {
            set("s", scenario.to_owned());
        }
        if let Some(moves) = given(&self.moves) {
            set("m", moves.split(',').map(str::trim).collect::<Vec<_>>().join(","));
        }
        for (key, field) in [("r", &self.record), ("p", &self.signing), ("a", &self.reply)] {
            if let Some(value) = given(field) {
                set(key, value.to_owned());
            }
        }
        match given(&self.clock).map(|clock| (clock, seconds_as_ms(clock))) {
            Some((_, Some(ms))) => {
                set("o", "1".into());
                set("c", ms.to_string());
            }
            Some((clock, None)) => {
                unread.push(format!("clock {} is not a number of seconds (like 20 or 2.5)", share::quoted(clock)))
            }
            None => {}
        }
        if !pairs.iter().any(|kv| kv.starts_with("s=")) {
            pairs.insert(0, "s=deploy".into());
        }
        (pairs.join("&"), unread)
    }

    /// The lab in this situation, its diagrams at `step` when one is given, with a sentence
    /// in its `ignored` for each thing it ignored (see [`share::read_fragment`]).
    pub fn open(&self) -> Lab {
        let (fragment, unread) = self.written();
        let mut lab = share::read_fragment(&fragment);
        let mut ignored = std::mem::take(&mut lab.ignored);
        ignored.extend(unread);
        let mut lab = match given(&self.step).map(|s| (s, s.parse::<usize>())) {
            Some((_, Ok(step))) => {
                let total = lab.run.trace.events.len() as isize;
                lab.apply(Action::Step(isize::try_from(step).unwrap_or(isize::MAX).saturating_sub(total)))
            }
            Some((step, Err(_))) => {
                ignored.push(format!("step {} is not a whole number", share::quoted(step)));
                lab
            }
            None => lab,
        };
        lab.ignored = ignored;
        lab
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(pairs: &[(&str, &str)]) -> Setup {
        Setup::read(|name| pairs.iter().find(|(key, _)| *key == name).map(|(_, value)| (*value).to_owned()))
    }

    #[test]
    fn the_clock_sends_your_attempt_at_that_second() {
        let lab = setup(&[("scenario", "deploy"), ("clock", "121")]).open();
        let own = lab.latest().expect("a verdict");
        assert_eq!(own.by, "your-attempt");
        assert_eq!(own.at_ms, 121_000);
        assert_eq!(own.answered.word(), "expiry");
        let on_time = setup(&[("scenario", "deploy"), ("clock", "20")]).open();
        assert_eq!(on_time.latest().expect("a verdict").answered.word(), "accepted");
    }

    #[test]
    fn attributes_override_a_pasted_situation() {
        let lab = setup(&[("situation", "#s=voucher&m=honest,send-twice&r=shared"), ("record", "off")]).open();
        assert_eq!(lab.scenario, "voucher");
        assert_eq!(lab.played.len(), 2);
        assert_eq!(
            lab.latest().expect("a verdict").answered.word(),
            "accepted",
            "without the record the second use goes through"
        );
        let with_record = setup(&[("situation", "s=voucher&m=honest,send-twice&r=shared")]).open();
        assert_eq!(with_record.latest().expect("a verdict").answered.word(), "single-use");
    }

    #[test]
    fn nonsense_opens_the_default_lab_and_says_what_it_ignored() {
        let lab =
            setup(&[("scenario", "nope"), ("moves", "fly,,"), ("clock", "-3"), ("step", "x"), ("signing", "rot13")])
                .open();
        let ignored = &lab.ignored;
        assert_eq!(lab.scenario, "deploy");
        assert!(lab.played.is_empty());
        assert!(lab.own.is_none());
        assert_eq!(lab.cursor, None);
        assert_eq!(ignored.len(), 5, "{ignored:#?}");
        assert!(ignored[0].starts_with("scenario \"nope\" is unknown (known: deploy, expense"), "{}", ignored[0]);
        assert!(ignored[1].starts_with("move \"fly\" is unknown (known: honest, "), "{}", ignored[1]);
        assert_eq!(ignored[2], "ticket protection \"rot13\" is unknown (known: signed, sealed, unsigned)");
        assert_eq!(ignored[3], "clock \"-3\" is not a number of seconds (like 20 or 2.5)");
        assert_eq!(ignored[4], "step \"x\" is not a whole number");
        assert_eq!(Setup::default().fragment(), "s=deploy");
        assert!(Setup::default().open().ignored.is_empty());
    }

    #[test]
    fn clock_reads_decimal_seconds() {
        for (text, ms) in
            [("20", Some(20_000)), ("2.5", Some(2_500)), (".125", Some(125)), ("0.0015", Some(2)), ("7.", Some(7_000))]
        {
            assert_eq!(seconds_as_ms(text), ms, "{text}");
        }
        for text in ["", ".", "-3", "+3", "1e3", "1.2.3", "NaN", "inf", " 2", "9999999999999"] {
            assert_eq!(seconds_as_ms(text), None, "{text}");
        }
    }

    #[test]
    fn step_sets_the_diagrams_cursor() {
        let lab = setup(&[("moves", "honest"), ("step", "2")]).open();
        assert_eq!(lab.cursor, Some(2));
        // Past the last event, however far: the last one (no overflow on the way).
        let total = lab.run.trace.events.len();
        for far in ["1000", "9223372036854775808", &usize::MAX.to_string()] {
            let lab = setup(&[("moves", "honest"), ("step", far)]).open();
            assert_eq!((lab.cursor, lab.ignored.len()), (Some(total), 0), "step {far}");
        }
        let lab = setup(&[("moves", "honest"), ("step", "0")]).open();
        assert_eq!(lab.cursor, Some(1), "the first event at least");
    }
}
