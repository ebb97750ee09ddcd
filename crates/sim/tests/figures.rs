//! Every figure the course pages measured, reproduced by the simulation (natively and in
//! wasm). Each test is named after the seed row it proves.

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;

use mrtr_sim::cluster::{Balancing, RecordMode, Replica};
use mrtr_sim::moves::Move;
use mrtr_sim::person::Reply;
use mrtr_sim::scenarios::{self, Answered, Options, Run};
use mrtr_ticket::Mode;
use serde_json::json;

fn run(id: &str, options: Options) -> Run {
    scenarios::run(id, &options).expect("known scenario")
}

#[test]
fn deploy_lesson_timeline_only_one_move_gets_through_cleanly() {
    let run = run("deploy", Options::default());
    assert_eq!(run.verdict_words(), ["accepted", "signature", "principal", "expiry", "request", "accepted"]);
    let times: Vec<u64> = run.verdicts.iter().map(|v| v.at_ms / 1000).collect();
    assert_eq!(times, [8, 12, 20, 300, 30, 40]);
    assert_eq!(run.figure("mintedOn"), "replica A");
    assert_eq!(run.verdicts[0].replica, Some(Replica::B), "minted on A, finished on B");
    // The replay at 40 s also deploys: two ledger entries, only one of them clean.
    assert_eq!(run.ledger.len(), 2);
}

#[test]
fn deploy_replay_is_stopped_by_a_shared_record() {
    let options = Options { record: Some(RecordMode::Shared), ..Options::default() };
    let run = run("deploy", options);
    assert_eq!(run.verdict_words().last().map(String::as_str), Some("single-use"));
    assert_eq!(run.ledger.len(), 1);
}

#[test]
fn a_per_replica_record_lets_a_replay_through_on_the_other_replica() {
    let options = Options {
        record: Some(RecordMode::PerReplica),
        moves: Some(vec![Move::Honest, Move::SendTwice]),
        ..Options::default()
    };
    let run = run("deploy", options);
    // Honest lands on B, the replay on A, which never saw the nonce.
    assert_eq!(run.verdict_words(), ["accepted", "accepted"]);
    let shared = scenarios::run(
        "deploy",
        &Options {
            record: Some(RecordMode::Shared),
            moves: Some(vec![Move::Honest, Move::SendTwice]),
            ..Options::default()
        },
    )
    .expect("run");
    assert_eq!(shared.verdict_words(), ["accepted", "single-use"]);
}

#[test]
fn every_move_is_stopped_by_the_check_built_for_it() {
    let expected = [
        (Move::Honest, "accepted"),
        (Move::TamperByte, "signature"),
        (Move::Reencode, "signature"),
        (Move::EditPayload, "signature"),
        (Move::ResignOtherKey, "signature"),
        (Move::OtherPrincipal, "principal"),
        (Move::TooLate, "expiry"),
        (Move::SendTwice, "accepted"),
        (Move::OtherArguments, "request"),
        (Move::OtherTool, "request"),
        (Move::OtherMethod, "request"),
        (Move::Hello, "shape"),
        (Move::DropTicket, "asked-again"),
        (Move::UnaskedTicket, "signature"),
        (Move::PrefillAnswer, "asked-again"),
        (Move::ChangeAnswer, "accepted"),
        (Move::FirstTicket, "accepted"),
        (Move::TamperTag, "signature"),
        (Move::DropTag, "base64url"),
        (Move::SpliceTag, "signature"),
        (Move::NotAString, "shape"),
        (Move::Huge, "size"),
        (Move::Empty, "shape"),
    ];
    assert_eq!(expected.len(), Move::ALL.len());
    for (by, word) in expected {
        let run = run("deploy", Options { moves: Some(vec![by]), ..Options::default() });
        assert_eq!(run.verdict_words(), [word], "{}", by.id());
    }
}

#[test]
fn echo_the_latest_ticket_round_1s_goes_back_a_step_or_is_refused_as_used() {
    // Seed 04: "a multi-round flow must send the value from the most recent InputRequiredResult".
    let seat = run("book-seat", Options::default());
    assert_eq!(seat.verdict_words(), ["accepted", "asked-again"]);
    assert_eq!(seat.figure("booked"), 1, "the honest retry books once; round 1's ticket books nothing");
    let lines: Vec<&str> = seat.trace.events.iter().filter_map(|e| e.line.as_deref()).collect();
    let latest = seat.figure("ticket").as_str().expect("the moves' ticket");
    assert!(!lines[1].contains(latest) && lines[3].contains(latest), "the moves start from round 2's ticket");
    let last = lines.last().expect("the last response");
    assert!(last.contains("Which seat on LX318?"), "round 1's ticket takes the server back to the seat: {last}");
    let recorded = run("book-seat", Options { record: Some(RecordMode::Shared), ..Options::default() });
    assert_eq!(recorded.verdict_words(), ["accepted", "single-use"]);
}

#[test]
fn prefilled_answers_without_a_ticket_deploy_nothing() {
    let run = run("deploy", Options { moves: Some(vec![Move::PrefillAnswer, Move::DropTicket]), ..Options::default() });
    assert!(run.verdicts.iter().all(|v| v.answered == Answered::AskedAgain));
    assert!(run.ledger.is_empty());
}

#[test]
fn a_changed_answer_goes_through_because_the_ticket_binds_the_request_not_the_answer() {
    let options = Options { reply: Some(Reply::Decline), moves: Some(vec![Move::ChangeAnswer]), ..Options::default() };
    let run = run("deploy", options);
    assert_eq!(run.verdicts[0].answered, Answered::Accepted { text: "deployed to staging".into() });
}

#[test]
fn expense_250_with_a_yes_takes_two_requests_one_prompt_one_entry() {
    let run = run("expense", Options::default());
    assert_eq!(
        (run.figure("requests"), run.figure("prompts"), run.figure("ledgerEntries")),
        (&json!(2), &json!(1), &json!(1))
    );
}

#[test]
fn expense_50_takes_one_request_and_no_prompt() {
    let run = run("expense", Options { amount: Some(50.0), ..Options::default() });
    assert_eq!((run.figure("requests"), run.figure("prompts")), (&json!(1), &json!(0)));
}

#[test]
fn expense_decline_cancel_and_no_submit_nothing_and_say_what_to_do() {
    for (reply, answer, ask_again) in
        [(Reply::Decline, "decline", false), (Reply::Cancel, "cancel", true), (Reply::AcceptNo, "no", true)]
    {
        let run = run("expense", Options { reply: Some(reply), ..Options::default() });
        assert_eq!(run.figure("ledgerEntries"), &json!(0));
        assert_eq!(run.figure("message"), "Nothing was submitted. Ask again later if it is still needed.");
        assert_eq!(run.figure("structured")["answer"], answer);
        assert_eq!(run.figure("structured")["askAgainForThis"], ask_again, "{answer}");
    }
}

#[test]
fn charge_bad_charges_twice_even_on_decline_charge_good_once() {
    let yes = run("charge", Options::default());
    assert_eq!((yes.figure("charge_bad.effects"), yes.figure("charge_good.effects")), (&json!(2), &json!(1)));
    let no = run("charge", Options { reply: Some(Reply::Decline), ..Options::default() });
    assert_eq!((no.figure("charge_bad.effects"), no.figure("charge_good.effects")), (&json!(2), &json!(0)));
}

#[test]
fn buy_ticket_price_seen_is_price_charged() {
    let run = run("buy-ticket", Options::default());
    assert_eq!(run.figure("quoted"), "190.00");
    assert_eq!(run.figure("charged"), &json!(["190.00"]));
}

#[test]
fn unsigned_state_with_a_forged_price_is_charged_one_signed_is_refused() {
    let careless = run("careless", Options::default());
    assert_eq!(careless.figure("charged"), &json!(["1.00"]));
    let signed = run("buy-ticket", Options { moves: Some(vec![Move::EditPayload]), ..Options::default() });
    assert_eq!(signed.verdict_words(), ["signature"]);
    assert_eq!(signed.figure("charged"), &json!([]));
    let signed_careless = run("careless", Options { mode: Some(Mode::Signed), ..Options::default() });
    assert_eq!(signed_careless.verdict_words(), ["signature"]);
}

#[test]
fn voucher_redeems_once_with_the_record_twice_without() {
    assert_eq!(run("voucher", Options::default()).figure("redeemed"), &json!(1));
    assert_eq!(
        run("voucher", Options { record: Some(RecordMode::Off), ..Options::default() }).figure("redeemed"),
        &json!(2)
    );
}

#[test]
fn greedy_is_stopped_by_a_limit_of_3_after_4_requests() {
    let run = run("greedy", Options::default());
    assert_eq!(run.figure("requests"), &json!(4));
    assert_eq!(run.figure("outcome"), "abandoned");
}

#[test]
fn prompts_and_resources_may_ask_tools_list_may_not() {
    let run = run("prompt-and-resource", Options::default());
    assert_eq!(run.figure("discover.outcome"), "complete");
    assert_eq!((run.figure("prompt.requests"), run.figure("prompt.outcome")), (&json!(2), &json!("complete")));
    assert_eq!((run.figure("resource.requests"), run.figure("resource.outcome")), (&json!(2), &json!("complete")));
    assert_eq!(run.figure("toolsListWithTicket"), "-32602");
}

#[test]
fn a_sampling_only_client_gets_sampling_never_elicitation() {
    let run = run("capabilities", Options::default());
    assert_eq!(run.figure("full.name_release"), "elicitation/create");
    assert_eq!(run.figure("sampling-only.name_release"), "sampling/createMessage");
    assert_eq!(run.figure("sampling-only.deploy"), "-32021");
    assert_eq!(run.figure("nothing.name_release"), "-32021");
}

#[test]
fn earlier_era_rows_match_the_course() {
    let run = run("earlier-era", Options::default());
    assert_eq!(
        run.figure("rows"),
        &json!([
            {"question": "Server threads parked while waiting", "earlier": "1", "modern": "0"},
            {"question": "Answer lands on another instance", "earlier": "timed out", "modern": "completed"},
            {"question": "Instance dies while waiting", "earlier": "call lost", "modern": "finished, ledger 1"},
        ])
    );
}

#[test]
fn a_per_replica_store_fails_on_b_a_shared_store_works() {
    let run = run("server-store", Options::default());
    assert_eq!(run.figure("perReplica.outcome"), "error -32602");
    assert_eq!(run.figure("shared.outcome"), "complete");
    assert_eq!(run.figure("shared.ledgerEntries"), &json!(1));
}

#[test]
fn sealed_tickets_run_the_same_checks_and_hide_the_payload() {
    let run = run("sealed", Options::default());
    assert_eq!(run.figure("payloadReadable"), &json!(false));
    assert!(run.figure("ticket").as_str().is_some_and(|t| t.starts_with("v1e.")));
    assert_eq!(run.verdict_words(), ["accepted", "signature", "principal"]);
}

#[test]
fn a_sealed_ticket_forged_or_changed_blind_fails_at_the_seal() {
    let forgeries = vec![Move::EditPayload, Move::ResignOtherKey, Move::UnaskedTicket, Move::TamperByte];
    let forged = run("sealed", Options { moves: Some(forgeries), ..Options::default() });
    assert_eq!(forged.verdict_words(), ["signature"; 4]);
    assert!(forged.ledger.is_empty());
    // The editor's "re-sign with a wrong key" seals made-up claims: the seal refuses them too.
    let ticket = forged.figure("ticket").as_str().expect("ticket");
    let resealed = mrtr_sim::moves::OwnAttempt {
        ticket: Some(mrtr_sim::moves::resign_with_attacker_key(ticket)),
        ..Default::default()
    };
    let own = run("sealed", Options { moves: Some(vec![]), attempt: Some(resealed), ..Options::default() });
    assert_eq!(own.verdict_words(), ["signature"]);
}

#[test]
fn sending_the_honest_retry_twice_replays_it_even_as_the_first_move() {
    let twice = || Options { moves: Some(vec![Move::SendTwice]), ..Options::default() };
    let recorded = run("voucher", twice());
    assert_eq!(recorded.verdict_words(), ["single-use"]);
    assert_eq!(recorded.figure("firstRetryOn"), "replica B", "the first send, not the replay's replica A");
    assert_eq!(recorded.figure("redeemed"), &json!(1));
    let unrecorded = run("voucher", Options { record: Some(RecordMode::Off), ..twice() });
    assert_eq!(unrecorded.verdict_words(), ["accepted"]);
    assert_eq!(unrecorded.figure("redeemed"), &json!(2));
    // After the honest retry, the move sends the line once: the replay.
    let after = run("voucher", Options { moves: Some(vec![Move::Honest, Move::SendTwice]), ..Options::default() });
    assert_eq!(after.verdict_words(), ["accepted", "single-use"]);
    assert_eq!(after.figure("redeemed"), &json!(1));
    assert_eq!(after.trace.raw_lines().count(), recorded.trace.raw_lines().count());
}

#[test]
fn hostile_input_gets_clear_errors() {
    let run = run("protocol-errors", Options::default());
    let words = run.verdict_words();
    assert_eq!(words, ["-32700", "-32600", "-32601", "-32022", "-32022", "shape", "size", "-32602", "tool-error"]);
    // The figures give the code even when a ticket check refused, and name that check.
    assert_eq!(run.figure("not JSON"), "-32700");
    assert_eq!(run.figure("requestState that is not a string"), "-32602 (shape check)");
    assert_eq!(run.figure("a 1 MB paste as requestState"), "-32602 (size check)");
}

#[test]
fn pinning_the_balancer_sends_every_request_to_one_replica() {
    let run = run("deploy", Options { balancing: Some(Balancing::Pin(Replica::B)), ..Options::default() });
    assert!(run.verdicts.iter().all(|v| v.replica == Some(Replica::B)));
    assert_eq!(run.figure("mintedOn"), "replica B");
}

#[test]
fn unknown_scenarios_and_misplaced_moves_are_explained() {
    assert!(scenarios::run("nope", &Options::default()).expect_err("unknown").contains("known: deploy"));
    let moves = Options { moves: Some(vec![Move::Honest]), ..Options::default() };
    assert!(scenarios::run("expense", &moves).expect_err("no moves").contains("plays no moves"));
}

#[test]
fn the_students_own_attempt_is_checked_like_any_retry() {
    use mrtr_sim::moves::OwnAttempt;
    let honest =
        run("deploy", Options { moves: Some(vec![]), attempt: Some(OwnAttempt::default()), ..Options::default() });
    assert_eq!(honest.verdict_words(), ["accepted"]);
    let ticket = honest.figure("ticket").as_str().expect("ticket").to_owned();
    // One character changed anywhere in the payload breaks the signature.
    let edited = mrtr_sim::moves::flip_one_char(&ticket);
    let attempt = OwnAttempt { ticket: Some(edited), ..OwnAttempt::default() };
    assert_eq!(run_own(attempt), "signature");
    // Past 120 s the expiry check fails; alice fails the principal check.
    let late = OwnAttempt { at_ms: Some(121_000), ..OwnAttempt::default() };
    assert_eq!(run_own(late), "expiry");
    let alice = OwnAttempt { bearer: Some("alice-token".into()), ..OwnAttempt::default() };
    assert_eq!(run_own(alice), "principal");
    let prod = OwnAttempt { arguments: Some(json!({"env": "prod"})), ..OwnAttempt::default() };
    assert_eq!(run_own(prod), "request");
    // The retry can be sent to the replica that minted the ticket, or the other one.
    let on_a = OwnAttempt { replica: Some(Replica::A), ..OwnAttempt::default() };
    let on_a = run("deploy", Options { moves: Some(vec![]), attempt: Some(on_a), ..Options::default() });
    assert_eq!(on_a.verdicts[0].replica, Some(Replica::A));
}

#[test]
fn a_request_written_by_hand_is_sent_exactly_as_written() {
    use mrtr_sim::moves::OwnAttempt;
    let prepared = scenarios::find("deploy")
        .and_then(|s| s.prepare(&Options { moves: Some(vec![]), ..Options::default() }))
        .expect("deploy prepares");
    // Where writing starts: the line the attempt sends with nothing changed.
    let honest = prepared.attempt_line(None).expect("a retry to start from");
    let written = |line: &str| OwnAttempt { line: Some(line.to_owned()), ..OwnAttempt::default() };
    let run = prepared.finish(Some(&written(&honest)));
    assert_eq!(run.verdict_words(), ["accepted"]);
    // Whitespace is the writer's own: the server reads JSON, not bytes.
    let spaced = honest.replace(",\"", ", \"");
    let run = prepared.finish(Some(&written(&spaced)));
    assert_eq!(run.verdict_words(), ["accepted"]);
    let sent = run.trace.events.iter().rev().find(|e| e.kind == mrtr_sim::trace::Kind::Request).expect("sent");
    assert_eq!(sent.line.as_deref(), Some(spaced.as_str()), "the wire shows it as written");
    // The ticket moved to a method that cannot take it; a broken line; an unknown method.
    let listed = honest.replace("\"tools/call\"", "\"tools/list\"");
    assert_eq!(prepared.finish(Some(&written(&listed))).verdict_words(), ["-32602"]);
    assert_eq!(prepared.finish(Some(&written("{\"jsonrpc\": \"2.0\","))).verdict_words(), ["-32700"]);
    let unknown = r#"{"jsonrpc":"2.0","id":9,"method":"tools/destroy"}"#;
    assert_eq!(prepared.finish(Some(&written(unknown))).verdict_words(), ["-32601"]);
    // The first call's id again: a new id is the client's duty, which a server that keeps
    // no state cannot check.
    let reused = honest.replacen("\"id\":2", "\"id\":0", 1);
    assert_ne!(reused, honest);
    assert_eq!(prepared.finish(Some(&written(&reused))).verdict_words(), ["accepted"]);
    // The clock and the bearer token still apply to a written request.
    let late = OwnAttempt { at_ms: Some(121_000), ..written(&honest) };
    assert_eq!(prepared.finish(Some(&late)).verdict_words(), ["expiry"]);
}

fn run_own(attempt: mrtr_sim::moves::OwnAttempt) -> String {
    let run = run("deploy", Options { moves: Some(vec![]), attempt: Some(attempt), ..Options::default() });
    run.verdict_words().remove(0)
}

#[test]
fn after_the_ticket_the_server_checks_the_answer_came_with_it() {
    use mrtr_sim::cluster::ClusterConfig;
    use mrtr_sim::world::World;
    let honest = run("deploy", Options { moves: Some(vec![Move::Honest]), ..Options::default() });
    let check = honest.verdicts[0].answers.clone().expect("an answer check");
    assert!(check.passed);
    assert_eq!(check.detail, "the answer for confirm came with the retry");
    // A valid ticket without the answer: the server asks again, and says so.
    let mut world = World::new(ClusterConfig::default());
    let situation =
        scenarios::situation(&mut world, "tools/call", json!({"name": "deploy", "arguments": {"env": "staging"}}))
            .expect("situation");
    let retry = world.client.retry(&situation.first, Default::default(), Some(&situation.ticket));
    let delivery = world.send(&retry, None);
    let check = delivery.answers.expect("an answer check");
    assert!(!check.passed);
    assert_eq!(check.detail, "no answer for confirm that fits its question: the server asks again");
    // A refused ticket never reaches the answer check.
    let refused = run("deploy", Options { moves: Some(vec![Move::OtherPrincipal]), ..Options::default() });
    assert_eq!(refused.verdicts[0].answers, None);
}

#[test]
fn an_answer_that_does_not_fit_the_form_is_not_taken_and_the_server_asks_again() {
    use mrtr_sim::cluster::ClusterConfig;
    use mrtr_sim::world::World;
    let retry_with = |tool: &str, arguments: serde_json::Value, key: &str, content: serde_json::Value| {
        let mut world = World::new(ClusterConfig::default());
        let situation = scenarios::situation(&mut world, "tools/call", json!({"name": tool, "arguments": arguments}))
            .expect("situation");
        let answers = json!({key: {"action": "accept", "content": content}});
        let retry = world.client.retry(
            &situation.first,
            answers.as_object().cloned().unwrap_or_default(),
            Some(&situation.ticket),
        );
        let delivery = world.send(&retry, None);
        let result_type = delivery.response.as_ref().and_then(|r| r.pointer("/result/resultType")).cloned();
        (delivery.answers.expect("an answer check"), result_type, world.cluster.ledger().entries().len())
    };
    let staging = || json!({"env": "staging"});
    // A string where the form asks for a boolean, a required field missing, a seat the form
    // does not offer, a title over its maxLength: the client's word, not the person's answer.
    for (tool, arguments, key, content) in [
        ("deploy", staging(), "confirm", json!({"confirm": "yes"})),
        ("deploy", staging(), "confirm", json!({"confirm": 1})),
        ("deploy", staging(), "confirm", json!({"ok": true})),
        ("book_seat", json!({"flight": "LX 318"}), "seat", json!({"seat": "99Z"})),
        ("name_release", json!({"version": "2.0"}), "title", json!({"title": "x".repeat(61)})),
    ] {
        let (check, result_type, entries) = retry_with(tool, arguments, key, content.clone());
        assert_eq!(
            check.detail,
            format!("no answer for {key} that fits its question: the server asks again"),
            "{content}"
        );
        assert_eq!(result_type, Some(json!("input_required")), "{content}");
        assert_eq!(entries, 0, "{content}");
    }
    // What fits is taken: a no is a no (nothing deployed), a title of 60 characters a title.
    let (check, result_type, entries) =
        retry_with("deploy", staging(), "confirm", json!({"confirm": false, "note": 1}));
    assert_eq!((check.passed, result_type, entries), (true, Some(json!("complete")), 0));
    let (check, result_type, _) =
        retry_with("name_release", json!({"version": "2.0"}), "title", json!({"title": "é".repeat(60)}));
    assert_eq!((check.passed, result_type), (true, Some(json!("complete"))));
}

#[test]
fn a_careless_server_charges_any_price_the_ticket_says_without_breaking() {
    use mrtr_sim::moves::OwnAttempt;
    let minted = run("careless", Options { moves: Some(vec![]), ..Options::default() });
    let ticket = minted.figure("ticket").as_str().expect("ticket").to_owned();
    for (price, charged) in [(-1e300, "-92233720368547758.08"), (1e300, "92233720368547758.07"), (0.0, "0.00")] {
        let mut payload = mrtr_ticket::inspect(&ticket).payload.expect("a readable payload");
        payload["data"]["price"] = json!(price);
        let attempt =
            OwnAttempt { ticket: Some(mrtr_ticket::with_payload(&ticket, &payload)), ..OwnAttempt::default() };
        let run = run("careless", Options { moves: Some(vec![]), attempt: Some(attempt), ..Options::default() });
        assert_eq!(run.verdict_words(), ["accepted"], "signing off: any price goes through");
        assert_eq!(run.figure("charged"), &json!([charged]));
        assert_eq!(run.ledger.total_cents(), run.ledger.entries()[0].cents.unwrap_or_default());
    }
}

#[test]
fn an_attempt_at_the_end_of_time_is_late_not_early() {
    use mrtr_sim::moves::OwnAttempt;
    // Round 2's ticket is minted at 4 s: the attempt's time, added to that, must not wrap.
    for id in ["deploy", "book-seat"] {
        let attempt = OwnAttempt { at_ms: Some(u64::MAX), ..OwnAttempt::default() };
        let run = run(id, Options { moves: Some(vec![]), attempt: Some(attempt), ..Options::default() });
        assert_eq!(run.verdict_words(), ["expiry"], "{id}");
    }
}
