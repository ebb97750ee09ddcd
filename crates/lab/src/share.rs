//! The whole situation in the URL fragment, so a teacher can link to it exactly:
//! `#s=deploy&m=honest,other-principal&r=shared&p=signed&a=accept&t=…&c=121000&b=alice-token&x=B&e=prod`,
//! or with a request written by hand, `…&l=…`.
//! The fragment never holds a secret: the lab's key is a lab key, and it is not in the link.

use crate::state::{Action, Lab, MAX_MOVES};
use mrtr_sim::moves::Move;
use mrtr_sim::text::clip;
use percent_encoding::{percent_decode_str, utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde_json::json;
use std::str::FromStr;
use strum::VariantArray;

/// The id of the lab's main landmark on its own page, which the page's skip link targets.
pub const MAIN_ID: &str = "lab-main";

/// Whether a bare fragment names a place in the lab's own page rather than a scenario: its
/// main landmark, or a panel by its heading's id (`#quiz-title`, `#campaign-title`), so that
/// a lesson can link to the quick check or the campaign.
pub fn is_page_anchor(name: &str) -> bool {
    name == MAIN_ID || name.ends_with("-title")
}

/// The longest edited ticket a link carries.
pub const MAX_LINKED_TICKET: usize = 8 * 1024;
/// The longest request written by hand a link carries.
pub const MAX_LINKED_LINE: usize = 16 * 1024;

/// The most sentences a link's reading says; past them it only counts. A hostile link of a
/// million typos is a dozen lines in the console, not a million (nor 100 MB of them).
const MOST_SAID: usize = 12;

/// The longest value echoed in a sentence, in characters (an ellipsis ends a cut one).
const MOST_ECHOED: usize = 40;

/// What the reading of a link (or of an element's attributes) ignored: a sentence each, up
/// to [`MOST_SAID`], then a count.
#[derive(Default)]
struct Ignored {
    said: Vec<String>,
    unsaid: usize,
}

impl Ignored {
    /// Notes one more thing ignored; its sentence is written only while there is room.
    fn say(&mut self, sentence: impl FnOnce() -> String) {
        if self.said.len() < MOST_SAID {
            self.said.push(sentence());
        } else {
            self.unsaid += 1;
        }
    }

    /// The sentences, the last one counting those left unsaid.
    fn sentences(mut self) -> Vec<String> {
        if self.unsaid > 0 {
            self.said.push(format!("{} more like these, not listed", self.unsaid));
        }
        self.said
    }
}

/// A value as a sentence quotes it: cut to [`MOST_ECHOED`] characters.
pub(crate) fn quoted(value: &str) -> String {
    format!("\"{}\"", clip(value.to_owned(), MOST_ECHOED))
}

/// The sentence for a name the lab does not know.
fn unknown<'a>(what: &str, name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    format!("{what} {} is unknown (known: {})", quoted(name), known.into_iter().collect::<Vec<_>>().join(", "))
}

/// Notes `name` in `ignored` when it names no scenario.
fn unknown_scenario(name: &str, ignored: &mut Ignored) {
    if mrtr_sim::scenarios::find(name).is_none() {
        ignored.say(|| unknown("scenario", name, mrtr_sim::scenarios::SCENARIOS.iter().map(|s| s.id)));
    }
}

/// The choice `value` names (by its name), if any; an unknown one is noted in `ignored`.
fn pick<T>(value: Option<&str>, what: &str, ignored: &mut Ignored) -> Option<T>
where
    T: Copy + FromStr + VariantArray + Into<&'static str>,
{
    let value = value?;
    let found = value.parse().ok();
    if found.is_none() {
        ignored.say(|| unknown(what, value, T::VARIANTS.iter().map(|c| (*c).into())));
    }
    found
}

/// What a fragment's value escapes: all but the unreserved characters of RFC 3986.
const ESCAPED: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-').remove(b'_').remove(b'.').remove(b'~');

/// `text` with all but RFC 3986's unreserved characters escaped (a fragment's or a query's value).
pub(crate) fn encode(text: &str) -> String {
    utf8_percent_encode(text, ESCAPED).to_string()
}

/// `text` with its percent escapes decoded (invalid UTF-8 replaced).
pub(crate) fn decode(text: &str) -> String {
    percent_decode_str(text).decode_utf8_lossy().into_owned()
}

/// The fragment (without `#`) that restores this situation.
pub fn to_fragment(lab: &Lab) -> String {
    let mut parts = vec![format!("s={}", lab.scenario)];
    if !lab.played.is_empty() {
        parts.push(format!("m={}", lab.played.iter().map(|m| m.id()).collect::<Vec<_>>().join(",")));
    }
    parts.push(format!("r={}", <&str>::from(lab.record)));
    parts.push(format!("p={}", <&str>::from(lab.mode)));
    parts.push(format!("a={}", <&str>::from(lab.reply)));
    if let Some(own) = &lab.own {
        parts.push("o=1".into());
        // A pasted megabyte stays out of the link: the link keeps the rest of the situation.
        if let Some(ticket) = own.ticket.as_ref().filter(|t| t.len() <= MAX_LINKED_TICKET) {
            parts.push(format!("t={}", encode(ticket)));
        }
        if let Some(at) = own.at_ms {
            parts.push(format!("c={at}"));
        }
        if let Some(bearer) = &own.bearer {
            parts.push(format!("b={}", encode(bearer)));
        }
        if let Some(replica) = own.replica {
            parts.push(format!("x={}", <&str>::from(replica)));
        }
        if let Some(env) = own.arguments.as_ref().and_then(|a| a.get("env")).and_then(|e| e.as_str()) {
            parts.push(format!("e={}", encode(env)));
        }
        if let Some(line) = own.line.as_ref().filter(|l| l.len() <= MAX_LINKED_LINE) {
            parts.push(format!("l={}", encode(line)));
        }
    }
    parts.join("&")
}

/// True when a fragment describes a situation (and is not, say, a skip link's `#lab-main`).
pub fn is_situation(fragment: &str) -> bool {
    fragment.contains("s=") || mrtr_sim::scenarios::find(fragment).is_some()
}

/// The situation a fragment describes, with a sentence in its `ignored` for each part it
/// ignored (an unknown scenario, move, key or value), for the lesson author whose link or
/// attribute has a typo. Anything the fragment does not say keeps its default; a bare
/// `#voucher` opens that scenario.
pub fn read_fragment(fragment: &str) -> Lab {
    let mut ignored = Ignored::default();
    let mut lab = situation(fragment.trim_start_matches('#'), &mut ignored);
    lab.ignored = ignored.sentences();
    lab
}

/// The situation of [`read_fragment`], noting in `ignored` what it leaves out.
fn situation(fragment: &str, ignored: &mut Ignored) -> Lab {
    if !fragment.contains('=') {
        // A bare scenario name; none (or a place in the page, the skip link's target or a
        // panel's heading) opens the first.
        if !fragment.is_empty() && !is_page_anchor(fragment) {
            unknown_scenario(fragment, ignored);
        }
        return Lab::open(fragment);
    }
    let pairs: Vec<(&str, String)> = fragment
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| kv.split_once('=').unwrap_or((kv, "")))
        .map(|(k, v)| (k, decode(v)))
        .collect();
    let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    for (key, _) in pairs.iter().filter(|(k, _)| !KEYS.contains(k)) {
        ignored.say(|| unknown("key", key, KEYS));
    }
    let scenario = get("s").unwrap_or("deploy");
    unknown_scenario(scenario, ignored);
    let opened = Lab::scenario_for(scenario);
    let mut moves = Vec::new();
    for id in get("m").unwrap_or("").split(',').map(str::trim).filter(|id| !id.is_empty()) {
        match Move::from_id(id) {
            // The reducer ignores it; the author hears why.
            Some(_) if !opened.takes_moves() => {
                ignored.say(|| format!("move {}: the {} scenario plays no moves", quoted(id), opened.id));
            }
            Some(by) => moves.push(by),
            None => ignored.say(|| unknown("move", id, Move::ALL.iter().map(|m| m.id()))),
        }
    }
    if moves.len() > MAX_MOVES {
        ignored.say(|| format!("{} moves: a situation plays the first {MAX_MOVES}", moves.len()));
    }
    let clock = get("c").map(|c| (c, c.parse::<u64>()));
    if let Some((c, Err(_))) = clock {
        ignored.say(|| format!("clock {} is not whole milliseconds", quoted(c)));
    }
    let actions = [
        pick(get("r"), "replay record", ignored).map(Action::Record),
        pick(get("p"), "ticket protection", ignored).map(Action::Protect),
        pick(get("a"), "reply", ignored).map(Action::Reply),
        get("o").map(|_| Action::ResetAttempt),
        get("t").map(|t| Action::EditTicket(t.to_owned())),
        clock.and_then(|(_, ms)| ms.ok()).map(Action::Clock),
        get("b").map(|b| Action::Bearer(b.to_owned())),
        pick(get("x"), "replica", ignored).map(|r| Action::Replica(Some(r))),
        get("e").map(|e| Action::Arguments(json!({"env": e}))),
        // Last: a written request gives way to any part of the retry set before it.
        get("l").map(|l| Action::EditLine(l.to_owned())),
    ];
    // One run of the simulation for the whole link.
    Lab::open_with(opened.id, moves.into_iter().map(Action::Play).chain(actions.into_iter().flatten()))
}

/// The keys a situation has: scenario, moves, record, protection, reply; your attempt (its
/// presence, ticket, clock, bearer, replica, env, the request written by hand).
const KEYS: [&str; 12] = ["s", "m", "r", "p", "a", "o", "t", "c", "b", "x", "e", "l"];

#[cfg(test)]
mod tests {
    use super::*;
    use mrtr_sim::cluster::{RecordMode, Replica};

    #[test]
    fn a_situation_survives_the_round_trip() {
        let lab = Lab::open("deploy")
            .apply(Action::Play(Move::Honest))
            .apply(Action::Play(Move::OtherPrincipal))
            .apply(Action::Record(RecordMode::Shared))
            .apply(Action::Clock(121_000))
            .apply(Action::Bearer("alice-token".into()))
            .apply(Action::Replica(Some(Replica::B)));
        let edited = mrtr_sim::moves::flip_one_char(&lab.attempt_ticket());
        let lab = lab.apply(Action::EditTicket(format!("{edited} & é")));
        let restored = read_fragment(&to_fragment(&lab));
        assert_eq!(restored.run.verdicts, lab.run.verdicts);
        assert_eq!(restored.own, lab.own);
        assert_eq!(to_fragment(&restored), to_fragment(&lab));
        // A request written by hand, with every character a link must escape.
        let written = lab.apply(Action::EditLine("{\"id\": 1,\n \"method\": \"tools/list\" & #é%".into()));
        let restored = read_fragment(&to_fragment(&written));
        assert_eq!(restored.own, written.own);
        assert_eq!(restored.run.verdicts, written.run.verdicts);
    }

    #[test]
    fn a_bare_name_and_a_broken_fragment_still_open_a_lab() {
        assert_eq!(read_fragment("#voucher").scenario, "voucher");
        let lab = read_fragment("s=nope&m=fly,honest&r=sideways&c=soon&zz=1&x=C");
        let ignored = &lab.ignored;
        assert_eq!(lab.scenario, "deploy");
        assert_eq!(lab.played, [Move::Honest]);
        assert_eq!(
            ignored.iter().map(|s| s.split(" (").next().unwrap_or_default()).collect::<Vec<_>>(),
            [
                "key \"zz\" is unknown",
                "scenario \"nope\" is unknown",
                "move \"fly\" is unknown",
                "clock \"soon\" is not whole milliseconds",
                "replay record \"sideways\" is unknown",
                "replica \"C\" is unknown",
            ]
        );
    }

    #[test]
    fn a_bare_name_the_lab_does_not_know_is_said_but_its_own_anchors_are_not() {
        let lab = read_fragment("#vocher");
        let ignored = &lab.ignored;
        assert_eq!(lab.scenario, "deploy");
        assert_eq!(ignored.len(), 1);
        assert!(ignored[0].starts_with("scenario \"vocher\" is unknown (known: deploy, "), "{}", ignored[0]);
        for quiet in ["", "#", "#voucher", "#misuse-ticket", "#lab-main", "#quiz-title", "#campaign-title"] {
            assert_eq!(read_fragment(quiet).ignored, Vec::<String>::new(), "{quiet}");
        }
    }

    #[test]
    fn what_a_restored_situation_left_out_stays_on_the_lab_until_the_next_action() {
        let lab = Lab::open("voucher").apply(Action::Restore(Box::new(read_fragment("s=deploy&m=alcie,honest"))));
        assert_eq!(lab.played, [Move::Honest]);
        assert_eq!(lab.ignored.len(), 1);
        assert!(lab.ignored[0].starts_with("move \"alcie\" is unknown"), "{}", lab.ignored[0]);
        assert_eq!(lab.apply(Action::ShowAll).ignored, Vec::<String>::new());
    }

    #[test]
    fn a_link_asking_for_thousands_of_moves_plays_the_first_max_moves_and_says_so() {
        let lab = read_fragment(&format!("s=deploy&m={}", vec!["honest"; 5_000].join(",")));
        let ignored = &lab.ignored;
        assert_eq!(lab.played.len(), MAX_MOVES);
        assert_eq!(*ignored, [format!("5000 moves: a situation plays the first {MAX_MOVES}")]);
    }

    #[test]
    fn a_link_of_a_million_typos_is_said_in_a_few_short_lines() {
        let lab = read_fragment(&format!("s={}&m={}", "q".repeat(100_000), "fly,".repeat(500_000)));
        let ignored = &lab.ignored;
        assert_eq!(lab.scenario, "deploy");
        assert_eq!(ignored.len(), MOST_SAID + 1);
        assert!(ignored[0].starts_with(&format!("scenario \"{}…\" is unknown", "q".repeat(MOST_ECHOED - 1))));
        assert!(ignored[1].starts_with("move \"fly\" is unknown"), "{}", ignored[1]);
        assert_eq!(ignored[MOST_SAID], format!("{} more like these, not listed", 500_001 - MOST_SAID));
        assert!(ignored.iter().map(String::len).sum::<usize>() < 10_000);
        // A value is cut at a character, not inside one.
        assert_eq!(quoted(&"é".repeat(50)), format!("\"{}…\"", "é".repeat(MOST_ECHOED - 1)));
        assert_eq!(quoted(&"é".repeat(MOST_ECHOED)), format!("\"{}\"", "é".repeat(MOST_ECHOED)));
    }

    #[test]
    fn any_fragment_opens_a_lab_without_panicking() {
        // Links are written by anyone: every key with values from the sensible to the hostile
        // (huge numbers, signs, percent escapes, unknown names), in debug (overflow checked).
        let values: Vec<&str> = "|0|1|-1|120000|18446744073709551615|18446744073709551616|9223372036854775808\
            |deploy|book-seat|voucher|sealed|careless|expense|nope|honest|too-late,first-ticket\
            |send-twice,send-twice,hello|shared|per-replica|off|unsigned|cancel|decline|A|B|C\
            |%|%FF%FE|%00|v1.eyJ9.x|%7B%22id%22%3A1%7D|alice-token|&|=|é"
            .split('|')
            .collect();
        let numbers = ["0", "8000", "121000", "18446744073709551615", "18446744073709551614", "9223372036854775808"];
        let scenarios = mrtr_sim::scenarios::SCENARIOS;
        let mut rng = mrtr_ticket::SplitMix64::new(8);
        let mut pick = |n: usize| rng.below(n as u64) as usize;
        for _ in 0..250 {
            // Every scenario, each with a clock, then up to five more keys at random.
            let mut pairs = vec![
                format!("s={}", scenarios[pick(scenarios.len())].id),
                format!("c={}", numbers[pick(numbers.len())]),
                format!("m={}", ["", "honest", "first-ticket", "too-late,send-twice"][pick(4)]),
            ];
            for _ in 0..pick(6) {
                pairs.push(format!("{}={}", KEYS[pick(KEYS.len())], values[pick(values.len())]));
            }
            let fragment = pairs.join("&");
            let lab = read_fragment(&fragment);
            assert!(lab.played.len() <= MAX_MOVES, "{fragment}");
            assert!(!lab.run.trace.events.is_empty(), "{fragment}: the scenario still plays");
            // What it opened to survives its own link.
            assert_eq!(read_fragment(&to_fragment(&lab)).run.verdicts, lab.run.verdicts, "{fragment}");
        }
    }

    #[test]
    fn moves_for_a_scenario_without_moves_are_ignored_and_said_so() {
        let lab = read_fragment("s=expense&m=honest");
        let ignored = &lab.ignored;
        assert!(lab.played.is_empty());
        assert!(!lab.run.trace.events.is_empty(), "the scenario still plays");
        assert_eq!(*ignored, ["move \"honest\": the expense scenario plays no moves"]);
        assert!(read_fragment("lab-main").ignored.is_empty(), "an anchor is not a situation");
        assert!(read_fragment(&to_fragment(&Lab::open("voucher"))).ignored.is_empty());
    }
}
