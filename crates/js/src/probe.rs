//! The probe's battery for JavaScript (`mrtr_probe::Battery`, the one engine `mrtr probe`
//! drives too): the page sends each line with `fetch` and hands back the reply; the battery
//! gates on the honest flow, records each verdict and concludes, so the page and the terminal
//! cannot disagree about a run.
//!
//! ```js
//! const battery = new ProbeBattery({ call: 'tools/call deploy {"env":"staging"}', token: "bob-token" });
//! for (let next; (next = battery.nextAttack(Date.now())); ) {
//!   let step = next.step;
//!   while (step.send) {
//!     const response = await fetch(url, { method: "POST", headers: step.send.headers, body: JSON.stringify(step.send.message) });
//!     step = battery.next({ status: response.status, body: await response.json() });  // or a string: why none came
//!   }
//! }
//! const report = battery.report();   // {conclusion: "passed" | "failed" | "inconclusive", exitCode, headline, rows}
//! ```

use crate::options;
use mrtr_probe::{Battery, Flow, Grade, Listed, Reply, Setup, Step, Targets, Tokens, BATTERY};
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
    race: Option<usize>,
    #[serde(default)]
    other_tool: Option<Value>,
    #[serde(default)]
    other_method: Option<(String, Value)>,
    #[serde(default)]
    other_arguments: Option<Value>,
    #[serde(default)]
    lists: Option<Lists>,
    /// Only these attacks (ids); the honest flow always runs.
    #[serde(default)]
    only: Vec<String>,
    /// Leave these attacks out.
    #[serde(default)]
    skip: Vec<String>,
    /// The weakest grade that fails the run: "must" (the default), "should" or "note".
    #[serde(default)]
    fail_on: Option<Grade>,
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

/// The response to request `id` among what an event stream carries (notifications and the
/// server's own requests passed over): `{response}` or `{why}`. The one reader of event streams
/// `mrtr probe` and `mrtr call` use.
#[wasm_bindgen(js_name = eventStreamResponse, unchecked_return_type = "{ response: Record<string, unknown> } | { why: string }")]
pub fn event_stream_response(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string | number | null")] id: JsValue,
) -> Result<JsValue, JsError> {
    let text = options::text(&text, "text")?;
    let id: Value = serde_wasm_bindgen::from_value(id).map_err(|e| JsError::new(&format!("mrtr: `id`: {e}")))?;
    options::to_js(&match mrtr_wire::sse::response(&text, &id) {
        Ok(response) => json!({"response": response}),
        Err(why) => json!({"why": why}),
    })
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

/// The whole battery under way against one server.
#[wasm_bindgen]
#[derive(Debug)]
pub struct ProbeBattery {
    battery: Option<Battery>,
    fail_on: Grade,
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
fn step_value(step: Step) -> Value {
    match step {
        Step::Send(send) => json!({"send": send_js(&send)}),
        Step::Race(sends) => json!({"race": sends.iter().map(send_js).collect::<Vec<_>>()}),
        Step::Done(verdict) => json!({"done": verdict}),
    }
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
impl ProbeBattery {
    /// A battery on the flow `setup.call` (`METHOD NAME ARGUMENTS`), with `token`,
    /// `secondToken`, `waitExpiry`, `ttlMs`, `race`, the server's `lists` (or targets given by
    /// name), `only`, `skip` and `failOn`.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "ProbeSetup")] setup: JsValue) -> Result<ProbeBattery, JsError> {
        let options: SetupOptions = options::parse(setup)?;
        let selection =
            Battery::chosen(&options.only, &options.skip).map_err(|why| JsError::new(&format!("mrtr: {why}")))?;
        let flow = Flow::parse(&options.call).map_err(|e| JsError::new(&format!("mrtr: the call: {e}")))?;
        let mut setup = Setup::new(flow, Tokens { first: options.token, second: options.second_token });
        setup.wait_expiry = options.wait_expiry;
        setup.ttl_ms = options.ttl_ms;
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
        let battery = Battery::new(setup, selection);
        Ok(ProbeBattery { battery: Some(battery), fail_on: options.fail_on.unwrap_or(Grade::Must) })
    }

    fn battery(&mut self) -> Result<&mut Battery, JsError> {
        self.battery.as_mut().ok_or_else(|| JsError::new("mrtr: the battery has reported already"))
    }

    /// Starts the next attack with the clock at `nowMs`: `{attack, step}`, or `null` when every
    /// attack has its verdict.
    #[wasm_bindgen(js_name = nextAttack, unchecked_return_type = "{ attack: string; step: ProbeStep } | null")]
    pub fn next_attack(&mut self, now_ms: f64) -> Result<JsValue, JsError> {
        let now = crate::number::Kind::Millis.check(now_ms, "nowMs")?;
        let battery = self.battery()?;
        let Some(step) = battery.next_attack(now, 0) else { return Ok(JsValue::NULL) };
        let attack = battery.attack().or_else(|| battery.rows().last().map(|r| r.attack)).map(|a| a.id());
        options::to_js(&json!({"attack": attack, "step": step_value(step)}))
    }

    /// Takes the reply to the last `send` (`{status, body}`, the JSON-RPC response alone, or a
    /// string saying why none came) and gives the next step.
    #[wasm_bindgen(unchecked_return_type = "ProbeStep")]
    pub fn next(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ProbeReply | object | string")] reply: JsValue,
    ) -> Result<JsValue, JsError> {
        let reply = reply_of(reply)?;
        options::to_js(&step_value(self.battery()?.next(reply)))
    }

    /// Takes the replies to a `race`, in the order of its lines, and gives the next step.
    #[wasm_bindgen(js_name = nextRace, unchecked_return_type = "ProbeStep")]
    pub fn next_race(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "Array<ProbeReply | object | string>")] replies: Vec<JsValue>,
    ) -> Result<JsValue, JsError> {
        let replies = replies.into_iter().map(reply_of).collect::<Result<Vec<_>, _>>()?;
        options::to_js(&step_value(self.battery()?.next_race(replies)))
    }

    /// The run's report, once every attack has its verdict: `{conclusion, exitCode, headline,
    /// counts, shape, rows: [{attack, title, what, grade, fix, result, itSent}]}`.
    #[wasm_bindgen(unchecked_return_type = "ProbeReport")]
    pub fn report(&mut self) -> Result<JsValue, JsError> {
        let battery = self.battery.take().ok_or_else(|| JsError::new("mrtr: the battery has reported already"))?;
        let report = battery.report(self.fail_on, |_| false);
        let rows: Vec<Value> = report
            .rows
            .iter()
            .map(|row| {
                let by = row.attack.by;
                json!({"attack": by.id(), "title": by.title(), "what": by.what(), "grade": row.attack.grade,
                    "fix": row.attack.fix, "result": row.verdict, "itSent": row.evidence().map(|e| e.sent_words())})
            })
            .collect();
        options::to_js(&json!({
            "conclusion": report.conclusion(), "exitCode": report.exit, "headline": report.summary.headline(),
            "counts": report.summary, "shape": report.shape, "rows": rows,
        }))
    }
}
