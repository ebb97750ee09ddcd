//! The lesson's quick check: five questions, an explanation after each answer, and a link
//! into the scenario that shows it.

use super::{region::heading, situation_link};
use crate::host::{Host, LabEvent};
use crate::state::Action;
use yew::prelude::*;

struct Question {
    ask: &'static str,
    options: [&'static str; 3],
    right: usize,
    why: &'static str,
    see: (&'static str, &'static str),
}

const QUESTIONS: [Question; 5] = [
    Question {
        ask: "Why must requestState be integrity-protected?",
        options: [
            "Because it is large",
            "Because it comes back from the client, so it is attacker-controlled input",
            "Because the spec requires all strings to be signed",
        ],
        right: 1,
        why: "The server trusts requestState to rebuild its work. Unsigned, a client could rewrite it (staging to prod, 190.00 to 1.00) and the server would act on the edit.",
        see: ("s=careless", "Watch a careless server charge 1.00"),
    },
    Question {
        ask: "Which request can NOT return input_required?",
        options: ["tools/call", "resources/read", "tools/list"],
        right: 2,
        why: "Only tools/call, prompts/get and resources/read may return it.",
        see: ("s=prompt-and-resource", "See tools/list refuse a ticket"),
    },
    Question {
        ask: "alice replays a valid, unexpired ticket that was minted for bob. What stops her?",
        options: [
            "Nothing: the signature is valid",
            "The ticket is bound to the principal, and alice's token says she is alice",
            "The server remembers that the ticket belongs to bob",
        ],
        right: 1,
        why: "The server remembers nothing. The binding to bob is inside the signed ticket, and the identity on the retry comes from alice's bearer token, so the principal check fails.",
        see: ("s=deploy&m=other-principal", "Replay bob's ticket as alice"),
    },
    Question {
        ask: "bob sends his valid retry twice within the expiry. With only signature, principal, expiry and digest checks, what happens?",
        options: [
            "The second one fails the signature check",
            "Both are accepted; preventing a second use needs server-side tracking",
            "The second one fails the expiry check",
        ],
        right: 1,
        why: "Nothing in a signed ticket changes when it is used. Where one-time redemption matters, the server MUST enforce it itself, for example by recording used ticket nonces until they expire.",
        see: ("s=voucher&m=honest,send-twice&r=off", "Redeem a voucher twice without the record"),
    },
    Question {
        ask: "What may a client do with requestState?",
        options: [
            "Decode it to show the user what is pending",
            "Echo it back exactly on the retry, nothing else",
            "Merge it with the previous one",
        ],
        right: 1,
        why: "Clients MUST echo it exactly and MUST NOT inspect, parse or modify it. It is the server's private context, even when it happens to be readable. In a flow of several rounds, each round brings a new one: echo the latest.",
        see: ("s=book-seat", "Send round 1's ticket in round 2"),
    },
];

/// Props of [`Quiz`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// Opens the scenario a question links to.
    pub send: Callback<Action>,
    /// Where the lab runs: hears the score, and says whether the panel is a region landmark
    /// (region.rs).
    pub host: Host,
}

/// The student's choice for each question, if any.
type Answers = [Option<usize>; 5];

/// How many answers are right.
fn score(answers: &Answers) -> usize {
    answers.iter().zip(&QUESTIONS).filter(|(a, q)| **a == Some(q.right)).count()
}

/// The quick check. Each answer once every question has one, the host hears the score.
#[component(Quiz)]
pub fn quiz(props: &Props) -> Html {
    let host = &props.host;
    let answers = use_state(|| [None; 5]);
    let answered = answers.iter().filter(|a| a.is_some()).count();
    html! {
        <section class="quiz" aria-labelledby={host.owns_document.then_some("quiz-title")}>
            { heading("quiz-title", "Quick check", None) }
            <ol class="questions">
                { for QUESTIONS.iter().enumerate().map(|(q, question)| {
                    let chosen = answers[q];
                    html! {
                        <li class="question">
                            <fieldset>
                                <legend>{ question.ask }</legend>
                                { for question.options.iter().enumerate().map(|(o, option)| {
                                    let (answers, emit) = (answers.clone(), host.emit.clone());
                                    let onchange = Callback::from(move |_| {
                                        let mut next: Answers = *answers;
                                        next[q] = Some(o);
                                        answers.set(next);
                                        if next.iter().all(Option::is_some) {
                                            emit.emit(LabEvent::Quiz { score: score(&next), max: QUESTIONS.len() });
                                        }
                                    });
                                    html! {
                                        <label>
                                            <input type="radio" name={format!("q{q}")} checked={chosen == Some(o)} {onchange} />
                                            { *option }
                                        </label>
                                    }
                                }) }
                            </fieldset>
                            if let Some(choice) = chosen {
                                <p class="explain" data-state={if choice == question.right { "right" } else { "wrong" }}>
                                    <strong>{ if choice == question.right { "Right. " } else { "Not quite. " } }</strong>
                                    { question.why }
                                    { " " }
                                    { situation_link(host, question.see.0, question.see.1, &props.send) }
                                </p>
                            }
                        </li>
                    }
                }) }
            </ol>
            <p class="score" aria-live="polite">{ format!("Score: {} of {} ({answered} answered)", score(&answers), QUESTIONS.len()) }</p>
        </section>
    }
}
