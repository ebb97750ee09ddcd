//! The whole situation in the URL fragment, so a teacher can link to it exactly:
//! `#s=deploy&m=honest,other-principal&r=shared&p=signed&a=accept&t=…&c=121000&b=alice-token&x=B&e=prod`.
//! The fragment never holds a secret: the lab's key is a lab key, and it is not in the link.

use crate::state::{Action, Lab};
use mrtr_sim::cluster::{RecordMode, Replica};
use mrtr_sim::moves::Move;
use mrtr_sim::person::Reply;
use mrtr_ticket::Mode;
use serde_json::json;

/// The longest edited ticket a link carries.
pub const MAX_LINKED_TICKET: usize = 8 * 1024;

fn record_id(r: RecordMode) -> &'static str {
    match r {
        RecordMode::Off => "off",
        RecordMode::Shared => "shared",
        RecordMode::PerReplica => "per-replica",
    }
}

fn mode_id(m: Mode) -> &'static str {
    match m {
        Mode::Signed => "signed",
        Mode::Sealed => "sealed",
        Mode::Unsigned => "unsigned",
    }
}

fn reply_id(r: Reply) -> &'static str {
    match r {
        Reply::Accept => "accept",
        Reply::AcceptNo => "accept-no",
        Reply::Decline => "decline",
        Reply::Cancel => "cancel",
    }
}

fn encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            other => format!("%{other:02X}"),
        })
        .collect()
}

fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match (
            bytes[i],
            bytes.get(i + 1..i + 3).and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok()),
        ) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (b, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The fragment (without `#`) that restores this situation.
pub fn to_fragment(lab: &Lab) -> String {
    let mut parts = vec![format!("s={}", lab.scenario)];
    if !lab.played.is_empty() {
        parts.push(format!("m={}", lab.played.iter().map(|m| m.id()).collect::<Vec<_>>().join(",")));
    }
    parts.push(format!("r={}", record_id(lab.record)));
    parts.push(format!("p={}", mode_id(lab.mode)));
    parts.push(format!("a={}", reply_id(lab.reply)));
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
            parts.push(format!("x={}", if replica == Replica::A { "A" } else { "B" }));
        }
        if let Some(env) = own.arguments.as_ref().and_then(|a| a.get("env")).and_then(|e| e.as_str()) {
            parts.push(format!("e={}", encode(env)));
        }
    }
    parts.join("&")
}

/// True when a fragment describes a situation (and is not, say, a skip link's `#lab-main`).
pub fn is_situation(fragment: &str) -> bool {
    fragment.contains("s=") || mrtr_sim::scenarios::find(fragment).is_some()
}

/// The situation a fragment describes; anything it does not say keeps its default, and
/// anything it says wrong is ignored. A bare `#voucher` opens that scenario.
pub fn from_fragment(fragment: &str) -> Lab {
    let fragment = fragment.trim_start_matches('#');
    if !fragment.contains('=') {
        return Lab::open(fragment);
    }
    let pairs: Vec<(&str, String)> =
        fragment.split('&').filter_map(|kv| kv.split_once('=')).map(|(k, v)| (k, decode(v))).collect();
    let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_str());
    let mut lab = Lab::open(get("s").unwrap_or("deploy"));
    for by in get("m").unwrap_or("").split(',').filter_map(Move::from_id) {
        lab = lab.apply(Action::Play(by));
    }
    let actions = [
        get("r").and_then(|r| match r {
            "off" => Some(Action::Record(RecordMode::Off)),
            "shared" => Some(Action::Record(RecordMode::Shared)),
            "per-replica" => Some(Action::Record(RecordMode::PerReplica)),
            _ => None,
        }),
        get("p").and_then(|p| match p {
            "signed" => Some(Action::Protect(Mode::Signed)),
            "sealed" => Some(Action::Protect(Mode::Sealed)),
            "unsigned" => Some(Action::Protect(Mode::Unsigned)),
            _ => None,
        }),
        get("a").and_then(|a| match a {
            "accept" => Some(Action::Reply(Reply::Accept)),
            "accept-no" => Some(Action::Reply(Reply::AcceptNo)),
            "decline" => Some(Action::Reply(Reply::Decline)),
            "cancel" => Some(Action::Reply(Reply::Cancel)),
            _ => None,
        }),
        get("o").map(|_| Action::ResetAttempt),
        get("t").map(|t| Action::EditTicket(t.to_owned())),
        get("c").and_then(|c| c.parse().ok()).map(Action::Clock),
        get("b").map(|b| Action::Bearer(b.to_owned())),
        get("x").and_then(|x| match x {
            "A" => Some(Action::Replica(Some(Replica::A))),
            "B" => Some(Action::Replica(Some(Replica::B))),
            _ => None,
        }),
        get("e").map(|e| Action::Arguments(json!({"env": e}))),
    ];
    for action in actions.into_iter().flatten() {
        lab = lab.apply(action);
    }
    lab
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let restored = from_fragment(&to_fragment(&lab));
        assert_eq!(restored.run.verdicts, lab.run.verdicts);
        assert_eq!(restored.own, lab.own);
        assert_eq!(to_fragment(&restored), to_fragment(&lab));
    }

    #[test]
    fn a_bare_name_and_a_broken_fragment_still_open_a_lab() {
        assert_eq!(from_fragment("#voucher").scenario, "voucher");
        let lab = from_fragment("s=nope&m=fly,honest&r=sideways&c=soon");
        assert_eq!(lab.scenario, "deploy");
        assert_eq!(lab.played, [Move::Honest]);
    }
}
