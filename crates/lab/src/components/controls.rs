//! The world's switches (record, protection, the person) and your attempt's own settings
//! (bearer token, clock, replica, arguments).

use super::{region::heading, Panel};
use crate::state::Action;
use mrtr_sim::cluster::{RecordMode, Replica};
use mrtr_sim::person::Reply;
use mrtr_ticket::Mode;
use serde_json::json;
use web_sys::HtmlInputElement;
use yew::prelude::*;

fn radios<T: Copy + PartialEq + 'static>(
    legend: &'static str,
    name: &'static str,
    current: T,
    choices: &[(T, &'static str)],
    send: &Callback<Action>,
    make: fn(T) -> Action,
) -> Html {
    html! {
        <fieldset class="radios">
            <legend>{ legend }</legend>
            { for choices.iter().map(|&(value, label)| {
                let send = send.clone();
                html! {
                    <label>
                        <input type="radio" name={name} checked={value == current} onchange={move |_| send.emit(make(value))} />
                        { label }
                    </label>
                }
            }) }
        </fieldset>
    }
}

/// The switches of the world, and of your own attempt when the scenario has one.
pub fn controls(props: &Panel) -> Html {
    let lab = &props.lab;
    let send = &props.send;
    let world = html! {
        <>
            { radios("Replay record", "record", lab.record,
                &[(RecordMode::Off, "off"), (RecordMode::Shared, "shared by A and B"), (RecordMode::PerReplica, "one per replica")],
                send, Action::Record) }
            { radios("Ticket protection", "protect", lab.mode,
                &[(Mode::Signed, "signed (HMAC)"), (Mode::Sealed, "sealed (AEAD)"), (Mode::Unsigned, "signing off")],
                send, Action::Protect) }
            { radios("The person answers", "reply", lab.reply,
                &[(Reply::Accept, "accept"), (Reply::AcceptNo, "accept, ticks no"), (Reply::Decline, "decline"), (Reply::Cancel, "cancel")],
                send, Action::Reply) }
        </>
    };
    let own = if lab.takes_moves() {
        let attempt = lab.own.clone().unwrap_or_default();
        let at_ms = attempt.at_ms.unwrap_or(8_000);
        let on_clock = {
            let send = send.clone();
            Callback::from(move |e: InputEvent| {
                let seconds: u64 = e.target_unchecked_into::<HtmlInputElement>().value().parse().unwrap_or(8);
                send.emit(Action::Clock(seconds.saturating_mul(1000)));
            })
        };
        let bearer = attempt.bearer.clone().unwrap_or_else(|| "bob-token".into());
        let env = attempt
            .arguments
            .as_ref()
            .and_then(|a| a.get("env"))
            .and_then(|e| e.as_str())
            .unwrap_or("staging")
            .to_owned();
        let is_deploy = matches!(lab.scenario, "deploy" | "sealed");
        html! {
            <fieldset class="own-attempt">
                <legend>{ "Your attempt" }</legend>
                { radios("Bearer token", "bearer", bearer.as_str() == "alice-token",
                    &[(false, "bob-token (bob)"), (true, "alice-token (alice)")],
                    send, |alice| Action::Bearer(if alice { "alice-token".into() } else { "bob-token".into() })) }
                <label class="clock">
                    { format!("Clock: sent {} s after minting (the ticket lives 120 s)", at_ms / 1000) }
                    <input type="range" min="0" max="360" step="1" value={(at_ms / 1000).to_string()} oninput={on_clock}
                        aria-valuetext={format!("{} seconds", at_ms / 1000)} />
                </label>
                { radios("The retry goes to", "replica", attempt.replica,
                    &[(None, "the balancer's choice"), (Some(Replica::A), "replica A"), (Some(Replica::B), "replica B")],
                    send, Action::Replica) }
                if is_deploy {
                    { radios("Deploy to", "env", env == "prod",
                        &[(false, "staging (as minted)"), (true, "prod")],
                        send, |prod| Action::Arguments(json!({"env": if prod { "prod" } else { "staging" }}))) }
                }
            </fieldset>
        }
    } else {
        html! {}
    };
    html! {
        <section class="controls" aria-labelledby={props.host.owns_document.then_some("controls-title")}>
            { heading("controls-title", "Control the world", None) }
            { world }
            { own }
        </section>
    }
}
