//! One-click moves against the ticket: the course's "misuse the ticket" exercise.

use super::{region::heading, Panel};
use crate::state::{Action, MAX_MOVES};
use mrtr_sim::cluster::RecordMode;
use mrtr_sim::moves::Move;
use yew::prelude::*;

/// The moves the lesson lists first; the rest sit under "More moves".
const LESSON: [Move; 8] = [
    Move::Honest,
    Move::EditPayload,
    Move::OtherPrincipal,
    Move::TooLate,
    Move::OtherArguments,
    Move::SendTwice,
    Move::PrefillAnswer,
    Move::Hello,
];

const HINT: &str =
    "bob holds the ticket. Each move is a separate attempt on it, at its own time; only one gets through cleanly.";
const HINT_ROUND_2: &str = "bob holds round 2's ticket, and still has round 1's. Each move is a separate attempt, at its own time; only one gets through cleanly.";

/// Brings the verdict into view after a move when it is out of sight: on a phone it sits below
/// the moves, the controls and the editor, so a tap would otherwise change nothing on screen.
/// A verdict already on screen (beside the moves on a wide screen) leaves the page where it is.
/// It waits a task, for the move's checks to be drawn under the verdict: the browser keeps what
/// is on screen in place when the page grows, and the panel it keeps must be the verdict's.
fn reveal_verdict(event: &MouseEvent) {
    let Some(lab) = super::lab_of(event) else { return };
    yew::platform::spawn_local(async move {
        gloo::timers::future::sleep(std::time::Duration::ZERO).await;
        let (Some(status), Some(window)) = (lab.query_selector("[role=status]").ok().flatten(), web_sys::window())
        else {
            return;
        };
        let height = window.inner_height().ok().and_then(|h| h.as_f64()).unwrap_or(f64::INFINITY);
        let place = status.get_bounding_client_rect();
        if place.top() < 0.0 || place.bottom() > height {
            // The verdict is sticky, and Chromium scrolls a sticky element to the end of its
            // column: the column it heads is what is brought into view.
            status.parent_element().unwrap_or(status).scroll_into_view();
        }
    });
}

fn button(by: Move, send: &Callback<Action>, full: bool) -> Html {
    let send = send.clone();
    let what = format!("move-{}-what", by.id());
    let onclick = move |event: MouseEvent| {
        send.emit(Action::Play(by));
        reveal_verdict(&event);
    };
    html! {
        <li class="move">
            <button type="button" class="move-title" aria-describedby={what.clone()} disabled={full} {onclick}>
                { by.title() }
            </button>
            <span class="move-what" id={what}>{ by.what() }</span>
        </li>
    }
}

/// The move buttons, with a note once the student found the clean one.
pub fn moves(props: &Panel) -> Html {
    if !props.lab.takes_moves() {
        return html! {};
    }
    let send = props.send.clone();
    let reset = move |_| send.emit(Action::Reset);
    // In a flow of several rounds, echoing round 1's ticket is the lesson's own move: it comes
    // right after the honest retry.
    let several_rounds = props.lab.run.figure("round").as_u64() > Some(1);
    let mut first = LESSON.to_vec();
    if several_rounds {
        first.insert(1, Move::FirstTicket);
    }
    let others = Move::ALL.into_iter().filter(|m| !first.contains(m));
    let found = props.lab.found_the_clean_move();
    // The panel shows only for a scenario with moves: here that means 64 were played.
    let full = !props.lab.can_play_a_move();
    let replayed =
        props.lab.run.verdicts.iter().filter(|v| v.by == Move::SendTwice.id()).any(|v| v.answered.word() == "accepted");
    html! {
        <section class="moves" aria-labelledby={props.host.owns_document.then_some("moves-title")}>
            { heading("moves-title", "Play a move", None) }
            <p class="hint">{ if several_rounds { HINT_ROUND_2 } else { HINT } }</p>
            <ul class="move-list">{ for first.iter().map(|&m| button(m, &props.send, full)) }</ul>
            <details>
                <summary>{ "More moves" }</summary>
                <ul class="move-list">{ for others.map(|m| button(m, &props.send, full)) }</ul>
            </details>
            <button type="button" class="secondary" onclick={reset}>{ "Start again" }</button>
            if full {
                <p class="found warn">{ format!("{MAX_MOVES} moves is as many as one situation plays: start again to play more.") }</p>
            }
            if found {
                <p class="found">{ "You found it: the honest retry (new id, the answer, the ticket byte for byte) is the one move that gets through cleanly." }</p>
            }
            if replayed && props.lab.record == RecordMode::Off {
                <p class="found warn">{ "Notice: sending the honest retry twice also passed. Signing does not make a ticket single-use; turn the replay record on and try again." }</p>
            }
        </section>
    }
}
