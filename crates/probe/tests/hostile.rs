//! No reply and no ticket can panic the probe or keep an attack going: every attack of the
//! battery against replies and tickets of every shape, made whole and then broken at random
//! (the workspace's seeded generator, so every run sees the same cases).

use mrtr_probe::hostile::play;
use mrtr_ticket::{NonceSource, SplitMix64};

/// Tickets of each shape the probe knows, and of none, with payloads that are not objects.
const TICKETS: &[&str] = &[
    "v1.eyJpYXQiOjEwMDAsImV4cCI6MTIxMDAwLCJkYXRhIjp7ImVudiI6InN0YWdpbmcifX0.TAGTAGTAG",
    "v1.eyJwIjp7ImVudiI6InByb2QifSwiZXhwIjoxODAwMDAwMDAwfQ.TAGTAGTAG",
    "v1.AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBka",
    "v1e.Tk9OQ0VOT05DRQ.Qk9YQk9YQk9Y",
    "rs1.eyJ4IjoxfQ.TAGTAG",
    "rs2.k1.eyJ4IjoxfQ.TAGTAG",
    "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjE4MDAwMDAwMDB9.c2ln",
    "eyJhIjoxfQ.bWFj",
    "v1.WzEsMl0.TAG",
    "v1.Nw.TAG",
    "v1.ImEi.TAG",
    "v1.bnVsbA.TAG",
    "v1.eyJkYXRhIjoicyJ9.TAG",
    "v1.eyJwIjpbdHJ1ZV0sImV4cCI6MX0.TAG",
    "v1.eyJleHAiOjFlMzA4fQ.TAG",
    "v1.eyJleHAiOi0xLCJpYXQiOiJ4In0.TAG",
    "",
    ".",
    "....",
    "héllo.wörld.✓",
];

/// Replies of every kind: asking, complete, tool errors, refusals, wrong JSON, failures.
const REPLIES: &[&[u8]] = &[
    b"?ok",
    b"?confirm,seat",
    b"{\"result\":{\"resultType\":\"complete\",\"content\":[]}}",
    b"{\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"x\"}],\"isError\":true}}",
    b"{\"error\":{\"code\":-32602,\"message\":\"Invalid requestState\"}}",
    b"{\"error\":\"not an object\"}",
    b"{\"result\":[]}",
    b"{\"result\":{\"resultType\":\"input_required\",\"inputRequests\":[1],\"requestState\":5}}",
    b"[]",
    b"null",
    b"7",
    b"not json",
    b"#connection reset",
    b"\x00{\"error\":{\"code\":1,\"message\":\"m\"}}",
    b"\x04{}",
];

fn data(ticket: &str, replies: &[&[u8]]) -> Vec<u8> {
    let mut out = ticket.as_bytes().to_vec();
    for reply in replies {
        out.push(0xFF);
        out.extend_from_slice(reply);
    }
    out
}

#[test]
fn every_shape_of_ticket_with_every_kind_of_reply() {
    for ticket in TICKETS {
        for start in 0..REPLIES.len() {
            let order: Vec<&[u8]> = REPLIES[start..].iter().chain(&REPLIES[..start]).copied().collect();
            assert!(play(&data(ticket, &order)) > 0);
        }
    }
}

#[test]
fn broken_at_random() {
    let mut gen = SplitMix64::new(39);
    for case in 0..400 {
        let ticket = TICKETS[case % TICKETS.len()];
        let mut bytes = data(ticket, &[REPLIES[0], REPLIES[case % REPLIES.len()], REPLIES[(case * 7) % REPLIES.len()]]);
        let mut noise = [0u8; 8];
        gen.fill(&mut noise);
        for pair in noise.chunks(2) {
            let at = usize::from(pair[0]) * bytes.len() / 256;
            if let Some(byte) = bytes.get_mut(at) {
                *byte = pair[1];
            }
        }
        play(&bytes);
    }
}
