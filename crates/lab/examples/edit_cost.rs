//! How long one edit of the ticket takes in the reducer, natively (a figure, not a test):
//! `cargo run --release -p mrtr-lab --example edit_cost`.
use mrtr_lab::state::{Action, Lab};
use std::time::Instant;

fn main() {
    let lab = Lab::open("deploy");
    let ticket = lab.attempt_ticket();
    let at = ticket.find('.').unwrap_or(0) + 10;
    let mut edited = ticket.clone().into_bytes();
    edited[at] = if edited[at] == b'A' { b'B' } else { b'A' };
    let edited = String::from_utf8(edited).unwrap_or_default();
    let mut lab = lab.apply(Action::EditTicket(ticket.clone()));
    let rounds: u32 = std::env::args().nth(1).and_then(|r| r.parse().ok()).unwrap_or(2_000);
    let started = Instant::now();
    for i in 0..rounds {
        lab = lab.apply(Action::EditTicket(if i % 2 == 0 { edited.clone() } else { ticket.clone() }));
    }
    let per_edit = started.elapsed().as_secs_f64() * 1e6 / f64::from(rounds);
    println!("one ticket edit in the reducer: {per_edit:.1} µs (deploy, native, release)");
}
