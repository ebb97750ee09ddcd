//! "Test your server": the probe's battery (`mrtr-probe`, the lab's own moves) sent with
//! `fetch` to a server the learner names, each attack on a fresh flow, each reported in the
//! lab's words: refused, got through (graded by the MRTR page), or not tested.
//!
//! The page calls the server from the learner's browser, so the server must let this page's
//! origin call it (CORS) and, when the page comes from a public site and the server from
//! this machine, answer the browser's private-network preflight.

use super::region::heading;
use mrtr_probe::{Attack, Flow, Grade, Send, Setup, Step, Tokens, Verdict, BATTERY};
use serde_json::Value;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::HtmlInputElement;
use yew::prelude::*;

/// Props of [`ProbePanel`].
#[derive(Properties, PartialEq, Debug)]
pub struct Props {
    /// Where the lab runs (whether the panel is a region landmark).
    pub host: crate::host::Host,
}

/// The fields' values before the learner changes them: `mrtr serve --http 127.0.0.1:3077`.
const DEFAULT_URL: &str = "http://127.0.0.1:3077/mcp";
const DEFAULT_CALL: &str = r#"tools/call deploy {"env":"staging"}"#;

/// Where a run is.
#[derive(Debug, Default)]
struct Progress {
    running: bool,
    problem: Option<String>,
    results: Vec<(&'static Attack, Verdict)>,
}

/// POSTs one request as a 2026-07-28 client does and returns the response's JSON.
async fn post(url: &str, send: &Send) -> Result<Value, String> {
    let said = |e: JsValue| e.as_string().unwrap_or_else(|| format!("{e:?}"));
    // The headers as a plain object: what fetch takes, without a Headers binding.
    let headers = js_sys::Object::new();
    // The same headers as mrtr_sim::protocol::http_headers, but the name always plain: its
    // base64 form cost the lab's page 500 bytes gzip, over its budget, and the names a
    // learner calls here are ASCII (docs/ARCHITECTURE.md, Libraries).
    let method = send.message["method"].as_str().unwrap_or_default();
    let name = send.message.pointer("/params/name").or_else(|| send.message.pointer("/params/uri"));
    let mut pairs = vec![
        ("content-type", "application/json".to_owned()),
        ("accept", "application/json, text/event-stream".to_owned()),
        ("mcp-protocol-version", mrtr_sim::protocol::PROTOCOL_VERSION.to_owned()),
        ("mcp-method", method.to_owned()),
    ];
    if let Some(name) = name.and_then(Value::as_str) {
        pairs.push(("mcp-name", name.to_owned()));
    }
    if let Some(bearer) = &send.bearer {
        pairs.push(("authorization", format!("Bearer {bearer}")));
    }
    for (header, value) in pairs {
        js_sys::Reflect::set(&headers, &header.into(), &value.into()).map_err(said)?;
    }
    let init = web_sys::RequestInit::new();
    init.set_method("POST");
    init.set_headers(&headers);
    init.set_body(&JsValue::from_str(&send.message.to_string()));
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response = JsFuture::from(window.fetch_with_str_and_init(url, &init))
        .await
        .map_err(|_| "the browser could not reach it (down, or it does not allow this page: CORS)".to_owned())?
        .unchecked_into();
    let text = JsFuture::from(response.text().map_err(said)?).await.map_err(said)?.as_string().unwrap_or_default();
    serde_json::from_str(&text).map_err(|_| format!("HTTP {} with a body that is not JSON", response.status()))
}

/// One attack on a fresh flow (the panel does not wait out lifetimes: nothing waits).
async fn attack(url: &str, attack: &Attack, setup: &Setup) -> Verdict {
    let (mut run, mut step) = attack.start(setup);
    loop {
        match step {
            Step::Send(send) => step = run.next(post(url, &send).await),
            Step::Done(verdict) => return verdict,
        }
    }
}

/// The value of the input named `name` in the panel's form.
fn field(form: &web_sys::Element, name: &str) -> String {
    form.query_selector(&format!("input[name={name}]"))
        .ok()
        .flatten()
        .and_then(|input| input.dyn_into::<HtmlInputElement>().ok())
        .map(|input| input.value().trim().to_owned())
        .unwrap_or_default()
}

/// A result in the lab's words: its mark, its state and a sentence.
fn row(attack: &Attack, verdict: &Verdict) -> Html {
    let (mark, state, said) = match verdict {
        Verdict::Completed => ("✓", "pass", "completed: the flow works".to_owned()),
        Verdict::Passed { answered } => ("✓", "pass", answered.clone()),
        Verdict::Finding { grade, answered, .. } => {
            let grade = match grade {
                Grade::Must => "MUST",
                Grade::Should => "SHOULD",
                Grade::Note => "note",
            };
            ("✗", "fail", format!("got through ({grade}): {answered}"))
        }
        Verdict::NotTested { why } => ("·", "skipped", format!("not tested: {why}")),
        Verdict::Inconclusive { why } => ("?", "skipped", format!("inconclusive: {why}")),
    };
    let spec = match verdict {
        Verdict::Finding { spec, .. } => html! { <blockquote>{ *spec }</blockquote> },
        _ => Html::default(),
    };
    html! {
        <li data-state={state}>
            <span class="mark" aria-hidden="true">{ mark }</span>
            <strong>{ attack.by.title() }</strong>{ ": " }{ said }{ spec }
        </li>
    }
}

/// The panel.
#[component(ProbePanel)]
pub fn probe_panel(props: &Props) -> Html {
    let latest = use_mut_ref(Progress::default);
    let redraw = use_force_update();
    let start = {
        let (latest, redraw) = (latest.clone(), redraw.clone());
        Callback::from(move |event: MouseEvent| {
            if latest.borrow().running {
                return;
            }
            let Some(form) =
                event.target_dyn_into::<web_sys::Element>().and_then(|b| b.closest(".probe-form").ok().flatten())
            else {
                return;
            };
            let url = field(&form, "url");
            let second = Some(field(&form, "second")).filter(|t| !t.is_empty());
            let tokens = Tokens { first: Some(field(&form, "token")).filter(|t| !t.is_empty()), second };
            let flow = match Flow::parse(&field(&form, "call")) {
                Ok(flow) => flow,
                Err(why) => {
                    *latest.borrow_mut() =
                        Progress { problem: Some(format!("The call: {why}.")), ..Progress::default() };
                    redraw.force_update();
                    return;
                }
            };
            *latest.borrow_mut() = Progress { running: true, ..Progress::default() };
            redraw.force_update();
            let (latest, redraw) = (latest.clone(), redraw.clone());
            let setup = Setup { flow, tokens, wait_expiry: None, other_tool: None };
            yew::platform::spawn_local(async move {
                for each in BATTERY {
                    let verdict = attack(&url, each, &setup).await;
                    latest.borrow_mut().results.push((each, verdict));
                    redraw.force_update();
                }
                latest.borrow_mut().running = false;
                redraw.force_update();
            });
        })
    };
    let progress: &Progress = &latest.borrow();
    let through = progress.results.iter().filter(|(_, v)| matches!(v, Verdict::Finding { .. })).count();
    let musts = progress.results.iter().filter(|(_, v)| v.breaks_a_must()).count();
    let refused = progress.results.iter().filter(|(_, v)| matches!(v, Verdict::Passed { .. })).count();
    let untested = progress
        .results
        .iter()
        .filter(|(_, v)| matches!(v, Verdict::NotTested { .. } | Verdict::Inconclusive { .. }))
        .count();
    html! {
        <section class="probe" aria-labelledby={props.host.owns_document.then_some("probe-title")}>
            { heading("probe-title", "Test your server", None) }
            <p>{ "The lab's attacks on your own MCP server, each on a fresh flow, sent from this page: your server must allow its origin (CORS) and, from a public site to your machine, the private-network preflight. From a terminal: mrtr probe URL." }</p>
            <div class="probe-form">
                <label>{ "Server " }<input type="url" name="url" ~defaultValue={DEFAULT_URL} /></label>
                <label>{ "Call that asks " }<input type="text" name="call" ~defaultValue={DEFAULT_CALL} /></label>
                <label>{ "Bearer token " }<input type="text" name="token" ~defaultValue="bob-token" /></label>
                <label>{ "Another principal's token " }<input type="text" name="second" ~defaultValue="alice-token" /></label>
                <button type="button" onclick={start} disabled={progress.running}>
                    { if progress.running { "Testing…" } else { "Test the server" } }
                </button>
            </div>
            if let Some(problem) = &progress.problem {
                <p class="problem" role="alert">{ problem }</p>
            }
            <ul class="probe-results" aria-live="polite">
                { for progress.results.iter().map(|(attack, verdict)| row(attack, verdict)) }
            </ul>
            if !progress.running && !progress.results.is_empty() {
                <p class="probe-summary">
                    { format!("{refused} refused, {through} got through ({musts} MUST), {untested} not tested or inconclusive.") }
                </p>
            }
        </section>
    }
}
