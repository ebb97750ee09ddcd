//! # mrtr-js: the ticket codec for JavaScript
//!
//! Built by the lab's build (`scripts/trunk-post-build.sh`: `wasm-pack build --target web`) into
//! `dist/pkg/`, an npm package directory (`--target nodejs` works too). Lesson pages
//! use it to put a live ticket on a slide; the benchmark uses it to time `open` from JS.
//!
//! ```js
//! import init, { mint, open, explain } from "./pkg/mrtr_js.js";
//! await init();
//! const key = "mrtr-lab demo key, not a secret!";
//! const request = { method: "tools/call", params: { name: "deploy", arguments: { env: "staging" } } };
//! const ticket = mint({ key, principal: "bob", request, data: { env: "staging" }, nowMs: 0, ttlMs: 120000 });
//! const report = open(ticket, { key, principal: "alice", request, nowMs: 20000 });
//! report.failedCheck;          // "principal"
//! explain(ticket, { key, principal: "alice", request, nowMs: 20000 });
//! // ["✓ Within the size limit: …", …, "✗ Principal = the caller: minted for bob, presented by alice", …]
//! ```
//!
//! `LabServer` runs the lab's simulated MCP server: `server.handle(line, {bearer, nowMs})`
//! returns the response line. `fixIt(open)` runs the lab's attacks against that server with
//! your own verifier in place of the codec's checks (the Fix-It exercise).
//!
//! Errors in the options (a short key, a missing field, a wrong type) throw a JS `Error`
//! with a sentence saying which.
#![deny(missing_docs)]

mod fixit;
mod number;
mod options;
mod plain;
mod probe;
mod random;
mod server;
mod types;

pub use fixit::{fix_it, lab_sign};
pub use probe::{event_stream_response, probe_attacks, ProbeBattery};
pub use server::LabServer;

use mrtr_ticket::{Codec, Expect, Opened, ReplayRecord, UsedNonces};
use options::{CodecOptions, MintOptions, OpenOptions};
use wasm_bindgen::prelude::*;

/// Mints a ticket. Options: `key` (text, at least 32 bytes), `mode` (`"signed"`, the
/// default, `"sealed"` or `"unsigned"`), `principal`, `request` (`{method, params}`) or
/// `digest`, `data`, `nowMs`, `ttlMs`. Random bytes come from `crypto.getRandomValues`.
#[wasm_bindgen]
pub fn mint(#[wasm_bindgen(unchecked_param_type = "MintOptions")] options: JsValue) -> Result<String, JsError> {
    let (codec, options) = options::parse_with_codec::<MintOptions>(options)?;
    let (codec, mint) = (codec.build()?, options.to_mint()?);
    codec.mint(&mint, &mut random::CryptoRandom).map_err(|e| JsError::new(&format!("mrtr: {e}")))
}

/// Opens a ticket and returns the whole check trace as a plain object:
/// `{ok, failedCheck, failure, steps: [{check, label, status, mark, detail}], claims, error}`.
/// Options: `key`, `mode`, `principal`, `request` or `digest`, `nowMs`.
#[wasm_bindgen(unchecked_return_type = "Report")]
pub fn open(
    #[wasm_bindgen(unchecked_param_type = "string")] ticket: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OpenOptions")] options: JsValue,
) -> Result<JsValue, JsError> {
    options::to_js(&open_with(&ticket, options)?.report())
}

/// One sentence per check, in order, each starting with its mark (✓ ✗ – ·).
#[wasm_bindgen]
pub fn explain(
    #[wasm_bindgen(unchecked_param_type = "string")] ticket: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OpenOptions")] options: JsValue,
) -> Result<Vec<String>, JsError> {
    let opened = open_with(&ticket, options)?;
    Ok(opened
        .steps()
        .map(|(check, status)| format!("{} {}: {}", status.mark(), check.label(), opened.explain(check)))
        .collect())
}

fn open_with(ticket: &JsValue, options: JsValue) -> Result<Opened, JsError> {
    let ticket = options::text(ticket, "ticket")?;
    let (codec, options) = options::parse_with_codec::<OpenOptions>(options)?;
    let codec = codec.build()?;
    let (digest, now_ms) = options.request_and_now()?;
    Ok(codec.open(&ticket, &Expect { principal: &options.principal, request: &digest, now_ms }, None))
}

/// What anyone can read from a ticket without the key: its parts with their byte ranges,
/// the decoded payload, and everything wrong with it.
#[wasm_bindgen(unchecked_return_type = "Inspection")]
pub fn inspect(#[wasm_bindgen(unchecked_param_type = "string")] ticket: JsValue) -> Result<JsValue, JsError> {
    options::to_js(&mrtr_ticket::inspect(&options::text(&ticket, "ticket")?))
}

/// The request digest a ticket is bound to: base64url(SHA-256(canonical JSON)).
#[wasm_bindgen(js_name = requestDigest)]
pub fn request_digest(
    #[wasm_bindgen(unchecked_param_type = "string")] method: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Record<string, unknown>")] params: JsValue,
) -> Result<String, JsError> {
    let method = options::text(&method, "method")?;
    let params: serde_json::Value = options::parse(params)?;
    mrtr_ticket::RequestDigest::of(&method, &params)
        .map(|digest| digest.to_string())
        .map_err(|e| JsError::new(&format!("mrtr: {e}")))
}

/// A codec kept alive across calls (the key is set up once), with an optional replay
/// record: what a server holds.
#[wasm_bindgen]
#[derive(Debug)]
pub struct Verifier {
    codec: Codec,
    record: Option<UsedNonces>,
}

#[wasm_bindgen]
impl Verifier {
    /// `new Verifier({key, mode, replayRecord})`: `replayRecord: true` makes tickets single-use.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "CodecOptions")] options: JsValue) -> Result<Verifier, JsError> {
        let options: CodecOptions = options::parse(options)?;
        let record = options.replay_record.unwrap_or_default().then(UsedNonces::new);
        Ok(Verifier { codec: options.build()?, record })
    }

    /// Runs every check and returns only the verdict: `"accepted"` or the id of the first
    /// failed check (`"signature"`, `"expiry"`, …). No trace is built for JS: the fast path.
    pub fn verdict(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] ticket: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] principal: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] digest: JsValue,
        now_ms: f64,
    ) -> Result<String, JsError> {
        let opened = self.open_texts(&ticket, &principal, &digest, now_ms)?;
        Ok(opened.failure().map_or("accepted", |f| f.check().id()).to_owned())
    }

    /// Like the free function `open`, with this verifier's key and record.
    #[wasm_bindgen(unchecked_return_type = "Report")]
    pub fn open(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] ticket: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] principal: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] digest: JsValue,
        now_ms: f64,
    ) -> Result<JsValue, JsError> {
        options::to_js(&self.open_texts(&ticket, &principal, &digest, now_ms)?.report())
    }

    /// The signature check alone (HMAC-SHA256 over the text before the last dot, compared
    /// with the tag): the floor no codec can beat. For the benchmark.
    #[wasm_bindgen(js_name = tagMatches)]
    pub fn tag_matches(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] ticket: JsValue,
    ) -> Result<bool, JsError> {
        Ok(self.codec.tag_matches(&options::text(&ticket, "ticket")?))
    }
}

impl Verifier {
    /// Opens with this verifier's key and record, once each argument is known to be text.
    fn open_texts(
        &mut self,
        ticket: &JsValue,
        principal: &JsValue,
        digest: &JsValue,
        now_ms: f64,
    ) -> Result<Opened, JsError> {
        let (ticket, principal) = (options::text(ticket, "ticket")?, options::text(principal, "principal")?);
        let digest = mrtr_ticket::RequestDigest::from_encoded(&options::text(digest, "digest")?);
        let expect =
            Expect { principal: &principal, request: &digest, now_ms: number::Kind::Millis.check(now_ms, "now_ms")? };
        let record = self.record.as_mut().map(|r| r as &mut dyn ReplayRecord);
        Ok(self.codec.open(&ticket, &expect, record))
    }
}

/// Reads a transcript of MCP traffic (a HAR file, `mrtr serve`'s log, `mrtr call`'s output,
/// an HTTP transcript, JSON-RPC lines) and returns `mrtr-lint`'s report: each operation's
/// rounds, the tickets read as far as their shape allows, and what breaks the MRTR page
/// (`{schema, transcript, grouped, findings}`, as `mrtr lint --json` prints it), with `text`,
/// the report as the terminal shows it, and `words`, each operation's heading and rounds as
/// the terminal words them. Nothing leaves the page.
#[wasm_bindgen(js_name = lintTranscript, unchecked_return_type = "LintReport")]
pub fn lint_transcript(#[wasm_bindgen(unchecked_param_type = "string")] text: JsValue) -> Result<JsValue, JsError> {
    let text = options::text(&text, "text")?;
    let report = mrtr_lint::lint(&text, mrtr_lint::MAX_ROUNDS).map_err(|e| JsError::new(&format!("mrtr: {e}")))?;
    let mut value = serde_json::to_value(&report).map_err(|e| JsError::new(&e.to_string()))?;
    value["text"] = report.text().into();
    value["headline"] = report.headline().into();
    value["words"] = serde_json::to_value(report.words()).map_err(|e| JsError::new(&e.to_string()))?;
    options::to_js(&value)
}
