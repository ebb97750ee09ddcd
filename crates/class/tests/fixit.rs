//! Fix-It verified on the class server: the learner's JavaScript run again in the sandbox,
//! against the battery the page runs. The solution the browser's tests pass with
//! (tests/e2e/fixit-solution.mjs) passes here; each of its checks taken out lets through
//! exactly the attacks that check stops (truth by construction); and code that loops,
//! allocates without end, recurses, reaches for I/O or tries to leave its function is stopped
//! or finds nothing, and the server keeps going.

use mrtr_class::fixit::{verify, verify_within, Failure, Limits};
use std::time::{Duration, Instant};

/// The solution the browser's tests use, read from their file.
fn solution() -> String {
    let module = include_str!("../../../tests/e2e/fixit-solution.mjs");
    let start = module.find('`').expect("the solution's template") + 1;
    let end = module.rfind('`').expect("its end");
    module[start..end].to_owned()
}

const QUICK: Limits = Limits { time: Duration::from_millis(500), memory: 32 << 20 };

#[test]
fn the_solution_passes_on_the_server_as_in_the_page() {
    let report = verify(&solution()).expect("the solution runs");
    assert!(report.passed, "every attack refused, the honest flow completed: {:?}", report.failed());
    assert!(report.results.len() > 20, "the whole battery: {}", report.results.len());
}

#[test]
fn each_check_taken_out_lets_through_the_attacks_it_stops() {
    // (the line that holds a check, the attacks only it stops)
    let checks: [(&str, &[&str]); 4] = [
        ("if (claims.sub !== principal)", &["other-principal"]),
        ("if (!(now < claims.exp))", &["too-late"]),
        ("if (claims.dig !== lab.digest(request))", &["other-arguments", "other-tool", "other-method"]),
        ("if (used.has(claims.nonce))", &["send-twice"]),
    ];
    for (line, stopped) in checks {
        let source: String = solution().lines().filter(|l| !l.contains(line)).collect::<Vec<_>>().join("\n");
        assert_ne!(source, solution(), "{line} is in the solution");
        let report = verify(&source).expect("runs");
        let failed = report.failed();
        for attack in stopped {
            assert!(failed.contains(attack), "without {line}: {attack} gets through ({failed:?})");
        }
        assert!(!failed.contains(&"honest"), "without {line} the honest flow still completes");
    }
    let everything = "function open() { return accept(); }";
    let failed = verify(everything).expect("runs").failed();
    assert!(failed.contains(&"edit-payload") && failed.contains(&"send-twice"), "{failed:?}");
    let nothing = "function open() { return refuse('no'); }";
    let report = verify(nothing).expect("runs");
    assert!(!report.passed && report.failed().contains(&"honest"), "refusing all fails the honest flow");
}

#[test]
fn hostile_verifiers_are_stopped_and_the_next_runs() {
    let started = Instant::now();
    for (source, expected) in [
        ("while (true) {}", Failure::TooLong),
        ("function open() { for (;;) {} }", Failure::TooLong),
        ("function open() { const a = []; for (;;) a.push(new Array(1 << 16).fill(7)); }", Failure::TooLarge),
    ] {
        let stopped = verify_within(source, QUICK);
        assert_eq!(stopped.as_ref().err(), Some(&expected), "{source}");
    }
    assert!(started.elapsed() < Duration::from_secs(30), "each stopped at its limit");
    for (source, why) in [
        ("function open(", "does not run"),
        ("}); globalThis.escaped = 1; (function () {", "does not run"),
        ("const x = 1;", "define function open"),
        ("function f() { return f(); } f();", "does not run"),
        ("throw new Error('at load')", "at load"),
    ] {
        let failed = verify_within(source, QUICK).expect_err(source);
        assert!(matches!(failed, Failure::Compile(_)), "{source}: {failed:?}");
        assert!(failed.to_string().contains(why), "{source}: {failed}");
    }
    // Recursion without end in open: a thrown error, which refuses; the engine survives.
    let deep = "function open() { const f = () => f(); return f(); }";
    assert!(verify_within(deep, QUICK).expect("runs").failed().contains(&"honest"));
    // A promise is no answer.
    let later = "function open() { return Promise.resolve(accept()); }";
    assert!(verify_within(later, QUICK).expect("runs").failed().contains(&"honest"));
    // The sandbox has nothing to reach out with: a verifier that refuses all whenever any of
    // these exists would fail; it passes.
    let outside = "typeof std + typeof os + typeof require + typeof fetch + typeof XMLHttpRequest + typeof process + typeof Deno + typeof setTimeout + typeof import_meta";
    let reaching = solution().replacen(
        "function open(ticket, { principal, request, now, used }) {",
        &format!(
            "function open(ticket, {{ principal, request, now, used }}) {{\n  if (({outside}) !== \"undefined\".repeat(9)) return refuse(\"I/O\");"
        ),
        1,
    );
    assert!(verify(&reaching).expect("runs").passed, "no I/O object in the sandbox");
    // After all of them, the solution still passes.
    assert!(verify(&solution()).expect("runs").passed);
}
