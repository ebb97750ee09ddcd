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
use mrtr_probe::{Flow, Run, Setup, Step, Tokens, BATTERY};
use serde::Deserialize;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// Every attack of the battery, in order: `[{id, title, what, grade, spec}]`.
#[wasm_bindgen(js_name = probeAttacks, unchecked_return_type = "ProbeAttack[]")]
pub fn probe_attacks() -> Result<JsValue, JsError> {
    let attacks: Vec<Value> = BATTERY
        .iter()
        .map(|a| json!({"id": a.by.id(), "title": a.by.title(), "what": a.by.what(), "grade": a.grade, "spec": a.spec}))
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
    other_tool: Option<Value>,
}

/// One attack under way on a fresh flow.
#[wasm_bindgen]
#[derive(Debug)]
pub struct ProbeRun {
    run: Run,
    first: Option<Step>,
}

/// A step as JavaScript sees it: `{send: {message, bearer, waitMs, headers}}` or `{done: verdict}`.
fn step_js(step: Step) -> Result<JsValue, JsError> {
    let step = match step {
        Step::Send(send) => {
            let mut headers: serde_json::Map<String, Value> = mrtr_sim::protocol::http_headers(&send.message)
                .into_iter()
                .map(|(name, value)| (name.to_owned(), value.into()))
                .collect();
            if let Some(bearer) = &send.bearer {
                headers.insert("authorization".into(), format!("Bearer {bearer}").into());
            }
            json!({"send": {"message": send.message, "bearer": send.bearer, "waitMs": send.wait_ms, "headers": headers}})
        }
        Step::Done(verdict) => json!({"done": verdict}),
    };
    options::to_js(&step)
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
            .find(|a| a.by.id() == id)
            .ok_or_else(|| JsError::new(&format!("mrtr: no attack '{id}' in the battery")))?;
        let options: SetupOptions = options::parse(setup)?;
        let flow = Flow::parse(&options.call).map_err(|e| JsError::new(&format!("mrtr: the call: {e}")))?;
        let setup = Setup {
            flow,
            tokens: Tokens { first: options.token, second: options.second_token },
            wait_expiry: options.wait_expiry.then_some(options.ttl_ms),
            other_tool: options.other_tool,
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

    /// Takes the reply to the last `send` (the JSON-RPC response, or a string saying why none
    /// came) and gives the next step.
    #[wasm_bindgen(unchecked_return_type = "ProbeStep")]
    pub fn next(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "object | string")] reply: JsValue,
    ) -> Result<JsValue, JsError> {
        let reply = match reply.as_string() {
            Some(why) => Err(why),
            None => Ok(serde_wasm_bindgen::from_value::<Value>(reply).map_err(|e| JsError::new(&e.to_string()))?),
        };
        step_js(self.run.next(reply))
    }
}
