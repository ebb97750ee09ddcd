//! `<mrtr-ticket>`'s codec, exported from the lab's own module: a lesson page with both
//! elements loads one WebAssembly module, not the lab's and the JS package's.
//!
//! The widget needs little of the JS package's API (`mrtr-js`): it mints one kind of ticket
//! (a deploy to an environment, for a principal) and opens it with a trace. So the two
//! functions here take plain arguments and answer JSON text the element parses, with the
//! lab's `serde_json` and no JS-value (de)serializer: 2 KB gzip where linking `mrtr-js`'s
//! codec functions cost 35 KB (docs/ARCHITECTURE.md). `mrtr-js` stays the package for
//! authors who call the codec with its full options.

use mrtr_ticket::{inspect, Codec, Expect, Key, Mint, Mode, NonceSource, RequestDigest, Role};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = crypto, js_name = getRandomValues)]
    fn get_random_values(dest: &mut [u8]);
}

/// The browser's CSPRNG.
struct CryptoRandom;

impl NonceSource for CryptoRandom {
    fn fill(&mut self, dest: &mut [u8]) {
        get_random_values(dest);
    }
}

/// The request the widget's tickets are for: a deploy to `env`.
fn deploy(env: &str) -> Value {
    json!({"name": "deploy", "arguments": {"env": env}})
}

fn codec(key: &str, sealed: bool) -> Result<Codec, String> {
    let key = Key::new(key.as_bytes()).map_err(|e| e.to_string())?;
    Ok(Codec::new(key, if sealed { Mode::Sealed } else { Mode::Signed }))
}

fn digest(env: &str) -> Result<RequestDigest, String> {
    RequestDigest::of("tools/call", &deploy(env)).map_err(|e| e.to_string())
}

/// How long the widget's tickets live, ms.
pub const TTL_MS: u64 = 120_000;

/// Mints a ticket for `principal`'s deploy to `env`, at time 0, living `ttl_ms`.
pub fn mint(key: &str, sealed: bool, principal: &str, env: &str, ttl_ms: u64) -> Result<String, String> {
    let mint =
        Mint { principal: principal.to_owned(), request: digest(env)?, data: json!({"env": env}), now_ms: 0, ttl_ms };
    codec(key, sealed)?.mint(&mint, &mut CryptoRandom).map_err(|e| e.to_string())
}

/// The class name of a part's role, as the JS package's `inspect` spells it.
fn role_name(role: Role) -> &'static str {
    match role {
        Role::Prefix => "prefix",
        Role::Payload => "payload",
        Role::Tag => "tag",
        Role::Nonce => "nonce",
        Role::SealedBox => "sealed-box",
        Role::Extra => "extra",
    }
}

/// Opens `ticket` as presented by `principal` for a deploy to `env` at `now_ms`:
/// `{ok, failedCheck, message, steps: [{status, sentence}], parts: [{role, text}], payload,
/// sealed, problems}`: what the widget shows of the JS package's `open`, `explain` and
/// `inspect`, built here by hand (the derived serializers of whole reports cost 3 KB gzip).
/// The sentences come from the report the lab's checks panel shows too, so the lab's wasm
/// holds one copy of the code that words them.
pub fn open(key: &str, sealed: bool, ticket: &str, principal: &str, env: &str, now_ms: u64) -> Result<Value, String> {
    let request = digest(env)?;
    let report = codec(key, sealed)?.open(ticket, &Expect { principal, request: &request, now_ms }, None).report();
    let steps: Vec<Value> = report
        .steps
        .iter()
        .map(|step| {
            let sentence = format!("{} {}: {}", step.mark, step.label, step.detail);
            json!({"status": step.status.word().replace(' ', "-"), "sentence": sentence})
        })
        .collect();
    let seen = inspect(ticket);
    let parts: Vec<Value> =
        seen.parts.iter().map(|part| json!({"role": role_name(part.role), "text": part.text})).collect();
    Ok(json!({
        "ok": report.ok,
        "failedCheck": report.failed_check.map(|check| check.id()),
        "message": report.error.map(|error| error["message"].clone()),
        "steps": steps,
        "parts": parts,
        "payload": seen.payload,
        "sealed": seen.sealed,
        "problems": seen.problems,
    }))
}

/// `ticketOpen(key, sealed, mintFirst, ticket, principal, env, nowMs)`: JSON text of what
/// [`open`] says, with `ticket`, the ticket opened. With `mintFirst`, that ticket is a new one,
/// minted for `principal`'s deploy to `env` at time 0, living [`TTL_MS`] (`ticket` is then
/// not read): one export for both, as each export's JavaScript glue weighs on the lab's page.
#[wasm_bindgen(js_name = ticketOpen)]
pub fn ticket_open(
    key: &str,
    sealed: bool,
    mint_first: bool,
    ticket: &str,
    principal: &str,
    env: &str,
    now_ms: f64,
) -> Result<String, JsError> {
    let ticket = if mint_first { mint(key, sealed, principal, env, TTL_MS) } else { Ok(ticket.to_owned()) }
        .map_err(|e| JsError::new(&e))?;
    let mut shown = open(key, sealed, &ticket, principal, env, now_ms.max(0.0) as u64).map_err(|e| JsError::new(&e))?;
    shown["ticket"] = ticket.into();
    Ok(shown.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "mrtr-lab demo key, not a secret!";

    #[test]
    fn a_ticket_opens_for_its_principal_and_not_for_another() {
        let ticket = Codec::new(Key::new(KEY.as_bytes()).expect("a 32-byte key"), Mode::Signed)
            .mint(
                &Mint {
                    principal: "bob".into(),
                    request: digest("staging").expect("a digest"),
                    data: json!({"env": "staging"}),
                    now_ms: 0,
                    ttl_ms: 120_000,
                },
                &mut mrtr_ticket::SplitMix64::new(1),
            )
            .expect("a ticket");
        let open = |key, ticket: &str, principal, env, now| open(key, false, ticket, principal, env, now);
        let list = |value: &Value| value.as_array().cloned().unwrap_or_default();
        let text = |value: &Value| value.as_str().unwrap_or_default().to_owned();
        let bob = open(KEY, &ticket, "bob", "staging", 1_000).expect("opened");
        assert_eq!(bob["ok"], true);
        assert_eq!(bob["payload"]["sub"], "bob");
        let roles: Vec<_> = list(&bob["parts"]).iter().map(|p| text(&p["role"])).collect();
        assert_eq!(roles, ["prefix", "payload", "tag"]);
        let alice = open(KEY, &ticket, "alice", "staging", 1_000).expect("opened");
        assert_eq!(alice["failedCheck"], "principal");
        assert!(text(&alice["message"]).contains("requestState"));
        let failed: Vec<_> = list(&alice["steps"]).into_iter().filter(|s| s["status"] == "failed").collect();
        assert!(failed.len() == 1 && text(&failed[0]["sentence"]).starts_with('✗'));
        let prod = open(KEY, &ticket, "bob", "prod", 1_000).expect("opened");
        assert_eq!(prod["payload"]["data"]["env"], "staging");
        assert_eq!(prod["problems"], json!([]));
        assert_eq!(prod["failedCheck"], "request");
        assert!(open("short", &ticket, "bob", "staging", 0).is_err());
        let hello = open(KEY, "hel\"lo", "bob", "staging", 0).expect("opened");
        assert_eq!(hello["failedCheck"], "shape");
        assert!(!list(&hello["problems"]).is_empty());
    }
}
