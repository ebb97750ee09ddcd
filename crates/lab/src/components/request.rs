//! Your attempt written by hand: the whole JSON-RPC request, in a box the learner can change
//! as they like, sent exactly as written.

use super::{laid_out, region::heading, Panel};
use crate::state::Action;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// The request writer.
pub fn request_writer(props: &Panel) -> Html {
    if !props.lab.takes_moves() {
        return html! {};
    }
    let written = props.lab.own.as_ref().is_some_and(|o| o.line.is_some());
    // The retry the lab built is laid out on several lines; a request written by hand is
    // shown exactly as written.
    let line = props.lab.attempt_line();
    let text = if written { line } else { laid_out(&line).unwrap_or(line) };
    let send = props.send.clone();
    let oninput = Callback::from(move |e: InputEvent| {
        send.emit(Action::EditLine(e.target_unchecked_into::<HtmlTextAreaElement>().value()));
    });
    let send = props.send.clone();
    let rebuild = Callback::from(move |_: MouseEvent| send.emit(Action::ResetAttempt));
    html! {
        <section class="request" aria-labelledby={props.host.owns_document.then_some("request-title")}>
            { heading("request-title", "Write the request", None) }
            <p class="hint">
                { "Your attempt as one JSON-RPC request, sent exactly as you write it, with the bearer token, the clock and the replica chosen above. Change the method, drop inputResponses, break the JSON: the server answers each. (The first call's id goes through again: a new id is the client's duty, which a server that keeps no state cannot check.) Editing the ticket builds the retry again." }
            </p>
            <label class="raw" for="request-line">{ if written { "Your request (as written)" } else { "Your request (the retry, laid out)" } }</label>
            <textarea id="request-line" rows="14" spellcheck="false" value={text} {oninput} />
            if written {
                <div class="editor-actions">
                    <button type="button" class="secondary" onclick={rebuild}>{ "Back to the honest retry" }</button>
                </div>
            }
        </section>
    }
}
