//! The probe's battery for JavaScript (`mrtr-probe`, the lab's moves): each attack a
//! sans-IO state machine the page drives with `fetch`, so the lab's page tests a server the
//! learner names without the battery in the lab's own wasm.
//!
//! ```js
//! for (const { id } of probeAttacks()) {
//!   const run = new ProbeRun(id, { call: 'tools/call deploy {"env":"staging"}', token: "bob-token" });
//!   let step = run.first();
//!   while (step.send) {
//!     const response = await fetch(url, { method: "POST", headers: step.send.headers, body: JSON.stringify(step.send.message) });
//!     step = run.next(await response.json());      // or run.next("why nothing came")
//!   }
//!   step.done;                                      // {verdict: "passed" | "finding" | …}
//! }
//! ```

use crate::options;
use mrtr_probe::{Flow, Listed, Reply, Run, Setup, Step, Targets, Tokens, BATTERY};
use serde::Deserialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// Every attack of the battery, in order: `[{id, title, what, grade, spec}]`.
#[wasm_bindgen(js_name = probeAttacks, unchecked_return_type = "ProbeAttack[]")]
pub fn probe_attacks() -> Result<JsValue, JsError> {
    let attacks: Vec<Value> = BATTERY
        .iter()
        .map(|a| json!({"id": a.id(), "title": a.by.title(), "what": a.by.what(), "grade": a.grade, "spec": a.spec, "fix": a.fix}))
        .collect();
    options::to_js(&attacks)
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SetupOptions {
    call: String,
    #[serde(default)]
    token: Option<String>,
    #[serde(default)]
    second_token: Option<String>,
    #[serde(default)]
    wait_expiry: bool,
    #[serde(default)]
    ttl_ms: Option<u64>,
    #[serde(default)]
    now_ms: Option<u64>,
    #[serde(default)]
    race: Option<usize>,
    #[serde(default)]
    other_tool: Option<Value>,
    #[serde(default)]
    other_method: Option<(String, Value)>,
    #[serde(default)]
    other_arguments: Option<Value>,
    #[serde(default)]
    lists: Option<Lists>,
}

/// The replies to `tools/list`, `prompts/list` and `resources/list` (`probeListRequests()`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Lists {
    #[serde(default)]
    tools: Option<Value>,
    #[serde(default)]
    prompts: Option<Value>,
    #[serde(default)]
    resources: Option<Value>,
}

/// The three lists' requests, to send before a probe run and give back as `lists`:
/// `[{method, send: {message, headers, …}}]`.
#[wasm_bindgen(js_name = probeListRequests)]
pub fn probe_list_requests() -> Result<JsValue, JsError> {
    let mut client = mrtr_sim::client::Client::new("", mrtr_sim::protocol::Capabilities::ALL);
    let requests: Vec<Value> = ["tools/list", "prompts/list", "resources/list"]
        .into_iter()
        .map(|method| {
            let send = mrtr_probe::Send { message: client.request(method, json!({})), bearer: None, wait_ms: 0 };
            json!({"method": method, "send": send_js(&send)})
        })
        .collect();
    options::to_js(&requests)
}

/// One attack under way on a fresh flow.
#[wasm_bindgen]
#[derive(Debug)]
pub struct ProbeRun {
    run: Run,
    first: Option<Step>,
}

/// A line to send as JavaScript sees it: `{message, bearer, waitMs, headers}`.
fn send_js(send: &mrtr_probe::Send) -> Value {
    let mut headers: serde_json::Map<String, Value> = mrtr_sim::protocol::http_headers(&send.message)
        .into_iter()
        .map(|(name, value)| (name.to_owned(), value.into()))
        .collect();
    if let Some(bearer) = &send.bearer {
        headers.insert("authorization".into(), format!("Bearer {bearer}").into());
    }
    json!({"message": send.message, "bearer": send.bearer, "waitMs": send.wait_ms, "headers": headers})
}

/// A step as JavaScript sees it: `{send}`, `{race: [send, …]}` (send them all at once, then
/// `nextRace`), or `{done: verdict}`.
fn step_js(step: Step) -> Result<JsValue, JsError> {
    let step = match step {
        Step::Send(send) => json!({"send": send_js(&send)}),
        Step::Race(sends) => json!({"race": sends.iter().map(send_js).collect::<Vec<_>>()}),
        Step::Done(verdict) => json!({"done": verdict}),
    };
    options::to_js(&step)
}

/// A reply from JavaScript: a string saying why none came, `{status, body}` (the HTTP status and
/// the parsed JSON, or a string saying why the body is not JSON), or the JSON-RPC message alone.
fn reply_of(reply: JsValue) -> Result<Reply, JsError> {
    if let Some(why) = reply.as_string() {
        return Ok(Reply::from(Err(why)));
    }
    let value: Value = serde_wasm_bindgen::from_value(reply).map_err(|e| JsError::new(&e.to_string()))?;
    let status = value.get("status").and_then(Value::as_u64).and_then(|s| u16::try_from(s).ok());
    Ok(match (status, value.get("body")) {
        (Some(status), Some(Value::String(why))) => Reply::http(status, Err(why.clone())),
        (Some(status), Some(body)) => Reply::http(status, Ok(body.clone())),
        _ => Reply::from(Ok(value)),
    })
}

#[wasm_bindgen]
impl ProbeRun {
    /// Starts attack `id` (one of `probeAttacks()`) on a fresh flow. `setup`: `call`
    /// (`METHOD NAME ARGUMENTS`), `token`, `secondToken`, `waitExpiry`, `ttlMs`, `otherTool`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        id: &str,
        #[wasm_bindgen(unchecked_param_type = "ProbeSetup")] setup: JsValue,
    ) -> Result<ProbeRun, JsError> {
        let attack = BATTERY
            .iter()
            .find(|a| a.id() == id)
            .ok_or_else(|| JsError::new(&format!("mrtr: no attack '{id}' in the battery")))?;
        let options: SetupOptions = options::parse(setup)?;
        let flow = Flow::parse(&options.call).map_err(|e| JsError::new(&format!("mrtr: the call: {e}")))?;
        let mut setup = Setup::new(flow, Tokens { first: options.token, second: options.second_token });
        setup.wait_expiry = options.wait_expiry;
        setup.ttl_ms = options.ttl_ms;
        setup.now_ms = options.now_ms.unwrap_or_default();
        setup.race = options.race.unwrap_or(mrtr_probe::DEFAULT_RACE).clamp(2, 64);
        // The server's own lists choose the other targets, as `mrtr probe` does; a target given
        // by name wins.
        let listed = options.lists.map(|l| Listed::read(l.tools.as_ref(), l.prompts.as_ref(), l.resources.as_ref()));
        let chosen = listed.map(|l| l.targets(&setup.flow)).unwrap_or_default();
        setup.targets = Targets {
            tool: options.other_tool.or(chosen.tool),
            method: options.other_method.or(chosen.method),
            arguments: options.other_arguments.or(chosen.arguments),
        };
        let (run, first) = attack.start(&setup);
        Ok(ProbeRun { run, first: Some(first) })
    }

    /// The first step: `{send}`.
    #[wasm_bindgen(unchecked_return_type = "ProbeStep")]
    pub fn first(&mut self) -> Result<JsValue, JsError> {
        let step = self.first.take().ok_or_else(|| JsError::new("mrtr: first() was already taken"))?;
        step_js(step)
    }

    /// Takes the reply to the last `send` (`{status, body}`, the JSON-RPC response alone, or a
    /// string saying why none came) and gives the next step.
    #[wasm_bindgen(unchecked_return_type = "ProbeStep")]
    pub fn next(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ProbeReply | object | string")] reply: JsValue,
    ) -> Result<JsValue, JsError> {
        step_js(self.run.next(reply_of(reply)?))
    }

    /// Takes the replies to a `race`, in the order of its lines, and gives the next step.
    #[wasm_bindgen(js_name = nextRace, unchecked_return_type = "ProbeStep")]
    pub fn next_race(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Array<ProbeReply | object | string>")] replies: Vec<JsValue>,
    ) -> Result<JsValue, JsError> {
        let replies = replies.into_iter().map(reply_of).collect::<Result<Vec<_>, _>>()?;
        step_js(self.run.next_race(replies))
    }
}
