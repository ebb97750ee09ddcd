//! Fix-It in the page: the learner's JavaScript `open` as the [`Verifier`] at the door of the
//! lab's simulated server, and the battery run against it by [`mrtr_probe::fixit`], the driver
//! the class server runs the same verifier with.
//!
//! The verifier runs synchronously; the page calls [`fix_it`] in a Web Worker and stops the
//! worker when it takes too long, so an endless loop in the learner's code freezes nothing.

use crate::options;
use js_sys::{Function, Reflect, Set};
use mrtr_probe::fixit::{run, Verifier};
use mrtr_sim::cluster::LAB_KEY;
use mrtr_ticket::{Codec, Key, Mode};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// The learner's verifier, and the record of used tickets they keep in `used`.
struct Learner<'a> {
    open: &'a Function,
    used: Set,
}

impl Verifier for Learner<'_> {
    fn open(&mut self, ticket: &Value, principal: &str, request: &Value, now_ms: u64) -> Result<(), String> {
        let unbuilt = "the verifier's arguments could not be built";
        let context = options::to_js(&json!({"principal": principal, "request": request, "now": now_ms}))
            .map_err(|_| unbuilt.to_owned())?;
        Reflect::set(&context, &"used".into(), &self.used).map_err(|_| unbuilt.to_owned())?;
        let ticket = options::to_js(ticket).map_err(|_| unbuilt.to_owned())?;
        let said = self.open.call2(&JsValue::NULL, &ticket, &context).map_err(|thrown| {
            let message = Reflect::get(&thrown, &"message".into()).ok().and_then(|m| m.as_string());
            format!("your verifier threw: {}", message.unwrap_or_else(|| format!("{thrown:?}")))
        })?;
        if said.is_instance_of::<js_sys::Promise>() {
            return Err("open must answer at once, not with a Promise (the helpers are synchronous)".into());
        }
        let ok = said.as_bool().or_else(|| Reflect::get(&said, &"ok".into()).ok().and_then(|ok| ok.as_bool()));
        match ok {
            Some(true) => Ok(()),
            Some(false) => {
                let reason = Reflect::get(&said, &"reason".into()).ok().and_then(|r| r.as_string());
                Err(reason.unwrap_or_else(|| "refused".into()))
            }
            None => Err("open answered neither accept() nor refuse(reason)".into()),
        }
    }
}

/// Runs the battery against the lab's server with `open` as its verifier; returns
/// `{passed, call, results: [{attack, title, what, result, ok}]}`.
#[wasm_bindgen(js_name = fixIt, unchecked_return_type = "FixItReport")]
pub fn fix_it(
    #[wasm_bindgen(unchecked_param_type = "(ticket: unknown, context: VerifierContext) => VerifierAnswer")]
    open: &Function,
) -> Result<JsValue, JsError> {
    let mut learner = Learner { open, used: Set::new(&JsValue::UNDEFINED) };
    options::to_js(&run(&mut learner))
}

/// The tag the lab's server signs `signed` (a ticket's text before its last dot) with:
/// base64url of HMAC-SHA256 under the lab's key. Fix-It's `lab.sign`.
#[wasm_bindgen(js_name = labSign)]
pub fn lab_sign(#[wasm_bindgen(unchecked_param_type = "string")] signed: JsValue) -> Result<String, JsError> {
    let signed = options::text(&signed, "signed")?;
    let key = Key::new(LAB_KEY).map_err(|e| JsError::new(&e.to_string()))?;
    Ok(Codec::new(key, Mode::Signed).tag_of(&signed))
}
