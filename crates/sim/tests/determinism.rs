//! Same seed and moves, byte-identical trace (madsim's check_determinism); another seed,
//! other nonces.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mrtr_sim::cluster::Balancing;
use mrtr_sim::scenarios::{self, Options, SCENARIOS};

#[test]
fn every_scenario_runs_the_same_twice() {
    for scenario in SCENARIOS {
        let options = Options { balancing: Some(Balancing::Random), ..Options::default() };
        let first = serde_json::to_string(&scenario.run(&options)).expect("serializable");
        let second = serde_json::to_string(&scenario.run(&options)).expect("serializable");
        assert_eq!(first, second, "{} is not deterministic", scenario.id);
    }
}

#[test]
fn another_seed_gives_other_tickets_and_the_same_verdicts() {
    let a = scenarios::run("deploy", &Options { seed: Some(1), ..Options::default() }).expect("run");
    let b = scenarios::run("deploy", &Options { seed: Some(2), ..Options::default() }).expect("run");
    assert_ne!(a.figure("ticket"), b.figure("ticket"));
    assert_eq!(a.verdict_words(), b.verdict_words());
}

#[test]
fn a_prepared_scenario_finishes_exactly_like_a_whole_run() {
    use mrtr_sim::cluster::Replica;
    use mrtr_sim::moves::{Move, OwnAttempt};
    let attempts = [
        None,
        Some(OwnAttempt::default()),
        Some(OwnAttempt { at_ms: Some(130_000), ..OwnAttempt::default() }),
        Some(OwnAttempt { bearer: Some("alice-token".into()), replica: Some(Replica::B), ..OwnAttempt::default() }),
        Some(OwnAttempt { ticket: Some("hello".into()), ..OwnAttempt::default() }),
    ];
    for scenario in SCENARIOS.iter().filter(|s| s.takes_moves()) {
        for moves in [None, Some(vec![Move::Honest, Move::SendTwice])] {
            let prepared =
                scenario.prepare(&Options { moves: moves.clone(), ..Options::default() }).expect("plays moves");
            for attempt in &attempts {
                let options = Options { moves: moves.clone(), attempt: attempt.clone(), ..Options::default() };
                assert_eq!(prepared.finish(attempt.as_ref()), scenario.run(&options), "{} {attempt:?}", scenario.id);
            }
        }
    }
    let with_moves: Vec<&str> =
        SCENARIOS.iter().filter(|s| s.prepare(&Options::default()).is_some()).map(|s| s.id).collect();
    assert_eq!(with_moves, ["deploy", "buy-ticket", "careless", "voucher", "book-seat", "sealed"]);
}
