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
