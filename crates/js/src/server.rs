//! The lab's simulated MCP server for JavaScript: the same server core and tools the lab
//! runs, one JSON-RPC line in, one line out.

use crate::{number, options};
use mrtr_sim::cluster::{principal_of, LAB_KEY};
use mrtr_sim::ledger::Ledger;
use mrtr_sim::server::{Ctx, Server, ServerConfig, StateStore};
use mrtr_ticket::SplitMix64;
use mrtr_ticket::{Key, Mode, NonceSource, ReplayRecord, UsedNonces};
use serde::Deserialize;
use wasm_bindgen::prelude::*;

#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
struct ServerOptions {
    mode: Option<Mode>,
    #[serde(deserialize_with = "number::some_millis")]
    ttl_ms: Option<u64>,
    replay_record: Option<bool>,
    #[serde(deserialize_with = "number::some_whole")]
    seed: Option<u64>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Request {
    #[serde(default)]
    bearer: Option<String>,
    #[serde(default)]
    principal: Option<String>,
    #[serde(deserialize_with = "number::millis")]
    now_ms: u64,
}

/// `new LabServer({mode, ttlMs, replayRecord, seed})`: a stateless MCP 2026-07-28 server
/// with the lab's tools (`deploy`, `buy_ticket`, `redeem_voucher`, …), its key, a ledger,
/// and a replay record when asked for.
#[wasm_bindgen]
#[derive(Debug)]
pub struct LabServer {
    server: Server,
    record: Option<UsedNonces>,
    ledger: Ledger,
    rng: SplitMix64,
    store: StateStore,
}

#[wasm_bindgen]
impl LabServer {
    /// Creates a server. Without `seed`, its nonces come from `crypto.getRandomValues`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "LabServerOptions | undefined")] options: JsValue,
    ) -> Result<LabServer, JsError> {
        let options: ServerOptions =
            if options.is_undefined() { ServerOptions::default() } else { options::parse(options)? };
        let seed = match options.seed {
            Some(seed) => seed,
            None => {
                let mut bytes = [0u8; 8];
                crate::random::CryptoRandom.fill(&mut bytes);
                u64::from_le_bytes(bytes)
            }
        };
        let key = Key::new(LAB_KEY).map_err(|e| JsError::new(&e.to_string()))?;
        let defaults = ServerConfig::default();
        let config = ServerConfig {
            mode: options.mode.unwrap_or(defaults.mode),
            ttl_ms: options.ttl_ms.unwrap_or(defaults.ttl_ms),
            ..defaults
        };
        Ok(LabServer {
            server: Server::new(key, config),
            record: options.replay_record.unwrap_or_default().then(UsedNonces::new),
            ledger: Ledger::default(),
            rng: SplitMix64::new(seed),
            store: StateStore::default(),
        })
    }

    /// Handles one JSON-RPC line and returns the response line (`""` for a notification).
    /// `context`: `{bearer: "bob-token" | "alice-token"}` or `{principal}`, and `nowMs`.
    pub fn handle(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] line: JsValue,
        #[wasm_bindgen(unchecked_param_type = "HandleContext")] context: JsValue,
    ) -> Result<String, JsError> {
        let line = options::text(&line, "line")?;
        let request: Request = options::parse(context)?;
        let principal = match (&request.principal, request.bearer.as_deref()) {
            (Some(p), _) => p.clone(),
            (None, Some(bearer)) => principal_of(bearer)
                .ok_or_else(|| {
                    JsError::new(&format!(
                        "mrtr: unknown bearer token '{bearer}' (the lab knows bob-token and alice-token)"
                    ))
                })?
                .into(),
            (None, None) => return Err(JsError::new("mrtr: give `bearer` or `principal`")),
        };
        let mut ctx = Ctx {
            principal: &principal,
            now_ms: request.now_ms,
            replica: "js",
            record: self.record.as_mut().map(|r| r as &mut dyn ReplayRecord),
            ledger: &mut self.ledger,
            nonces: &mut self.rng,
            store: &mut self.store,
        };
        let handled = self.server.handle_line(&line, &mut ctx);
        Ok(handled.response.map(|r| mrtr_sim::jsonrpc::line(&r)).unwrap_or_default())
    }

    /// The side effects so far: `[{atMs, replica, tool, what, cents}]`.
    #[wasm_bindgen(unchecked_return_type = "LedgerEntry[]")]
    pub fn ledger(&self) -> Result<JsValue, JsError> {
        options::to_js(&self.ledger.entries())
    }
}
