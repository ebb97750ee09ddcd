//! The ticket editor: the three parts labelled and coloured, the decoded payload as fields,
//! the raw text, and the classic forgeries one click away. Every edit re-runs the checks.

use super::status::{outcome, outcome_state};
use super::{copy, number_beside, region::heading, Panel};
use crate::state::Action;
use mrtr_ticket::{inspect, Role};
use serde_json::Value;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// A part's `data-part`, which colours it.
fn part_name(role: Role) -> &'static str {
    match role {
        Role::Prefix => "prefix",
        Role::Payload => "payload",
        Role::Tag => "tag",
        Role::Nonce => "nonce",
        Role::SealedBox => "box",
        Role::Extra => "extra",
    }
}

/// The most payload members drawn as fields. A ticket's claims are six; a pasted payload
/// of thousands of members is edited in the raw ticket, not in thousands of fields
/// redrawn at every keystroke.
const MOST_FIELDS: usize = 24;

/// The editor for your attempt's ticket.
pub fn editor(props: &Panel) -> Html {
    if !props.lab.takes_moves() {
        return html! {};
    }
    let ticket = props.lab.attempt_ticket();
    let seen = inspect(&ticket);
    let send = props.send.clone();
    let on_raw = Callback::from(move |e: InputEvent| {
        send.emit(Action::EditTicket(e.target_unchecked_into::<HtmlTextAreaElement>().value()));
    });
    // The position field starts in the payload (its default value: a number the student typed
    // stays through the renders that follow); the button reads it when clicked.
    let last = ticket.len().saturating_sub(1);
    let middle = seen.parts.get(1).map_or(0, |p| (p.start + p.end) / 2).min(last);
    let flip = {
        let send = props.send.clone();
        Callback::from(move |e: MouseEvent| {
            let at = number_beside(&e, ".editor-actions", "input[name=position]", middle as u64, 0..=last as u64);
            send.emit(Action::FlipAt(usize::try_from(at).unwrap_or(last)));
        })
    };
    let act = |action: Action| {
        let send = props.send.clone();
        Callback::from(move |_: MouseEvent| send.emit(action.clone()))
    };
    // In a flow of two rounds, round 1's ticket is one click away: its payload lacks what
    // round 2's carries.
    let first_ticket =
        props.lab.run.figure("firstTicket").as_str().map(|first| act(Action::EditTicket(first.to_owned())));
    let copy_ticket = {
        let ticket = ticket.clone();
        Callback::from(move |_: MouseEvent| copy(&ticket))
    };
    let fields = seen.payload.as_ref().and_then(Value::as_object).map(|members| {
        html! {
            <fieldset class="payload-fields">
                <legend>{ "Decoded payload (readable by anyone: edit a value, the old signature stays)" }</legend>
                { for members.iter().take(MOST_FIELDS).map(|(name, value)| {
                    let send = props.send.clone();
                    let member = name.clone();
                    let shown = match value { Value::String(s) => s.clone(), other => other.to_string() };
                    let oninput = Callback::from(move |e: InputEvent| {
                        let text = e.target_unchecked_into::<HtmlInputElement>().value();
                        let value = serde_json::from_str::<Value>(&text).ok()
                            .filter(|v| !v.is_string() && member != "sub" && member != "nonce" && member != "dig")
                            .unwrap_or(Value::String(text));
                        send.emit(Action::EditPayload(member.clone(), value));
                    });
                    html! {
                        <label class="field">
                            <span>{ name.clone() }</span>
                            <input type="text" value={shown} {oninput} spellcheck="false" />
                        </label>
                    }
                }) }
                if members.len() > MOST_FIELDS {
                    <p class="hint">{ format!("and {} more members: edit them in the raw ticket", members.len() - MOST_FIELDS) }</p>
                }
            </fieldset>
        }
    });
    html! {
        <section class="editor" aria-labelledby={props.host.owns_document.then_some("editor-title")}>
            { heading("editor-title", "Edit the ticket", None) }
            <p class="parts" aria-label="The ticket's parts">
                { for seen.parts.iter().map(|part| html! {
                    <span class="part" data-part={part_name(part.role)}>
                        <span class="part-label">{ part.role.label() }</span>
                        <code>{ if part.text.is_empty() { "(empty)".to_owned() } else { part.text.clone() } }</code>
                    </span>
                }) }
            </p>
            if seen.sealed {
                <p class="hint">{ "Sealed: the payload is encrypted, so there is nothing to read or edit field by field." }</p>
            }
            { fields.unwrap_or_default() }
            <label class="raw" for="raw-ticket">{ "Raw ticket (your attempt)" }</label>
            // One unwrapped line (the parts above show it wrapped): wrapping one huge pasted
            // word costs a browser seconds per hundred kilobytes.
            <textarea id="raw-ticket" rows="2" spellcheck="false" value={ticket.clone()} oninput={on_raw} />
            if seen.problems.is_empty() {
                <p class="decodes">{ "Decodes cleanly: three parts, strict base64url, JSON payload." }</p>
            } else {
                <ul class="problems" aria-label="What is wrong with it">
                    { for seen.problems.iter().map(|p| html! { <li>{ p.clone() }</li> }) }
                </ul>
            }
            // On one column the verdict is below the controls, out of sight while you type: its
            // clause is repeated here (the verdict itself is what a screen reader announces).
            if let Some(v) = props.lab.latest() {
                <p class="editor-verdict" data-state={outcome_state(Some(&v.answered))} aria-hidden="true">
                    { format!("The server: {}", outcome(&v.answered)) }
                </p>
            }
            <div class="editor-actions">
                <label class="position">
                    { "Position" }
                    <input type="number" name="position" min="0" max={last.to_string()} ~defaultValue={middle.to_string()} />
                </label>
                <button type="button" onclick={flip}>{ "Change the character there" }</button>
                <button type="button" onclick={act(Action::Resign)}>{ "Re-sign with a wrong key" }</button>
                <button type="button" class="secondary" onclick={act(Action::ResetAttempt)}>{ "Back to the server's ticket" }</button>
                if let Some(onclick) = first_ticket {
                    <button type="button" class="secondary" {onclick}>{ "Use round 1's ticket" }</button>
                }
                <button type="button" class="secondary" onclick={copy_ticket}>{ "Copy ticket" }</button>
            </div>
        </section>
    }
}
