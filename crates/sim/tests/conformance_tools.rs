//! The conformance suite's fixtures, played as the suite plays them: each tool asks in the
//! way its scenario checks, and a retry with the suite's answers completes.
#![cfg(feature = "conformance")]

use mrtr_sim::cluster::LAB_KEY;
use mrtr_sim::ledger::Ledger;
use mrtr_sim::server::{Ctx, Server, ServerConfig, StateStore};
use mrtr_sim::tools::ToolSet;
use mrtr_ticket::{Key, SplitMix64};
use serde_json::{json, Value};

struct Suite {
    server: Server,
    ledger: Ledger,
    nonces: SplitMix64,
    store: StateStore,
    id: u64,
}

impl Suite {
    fn new() -> Self {
        let config = ServerConfig { tools: ToolSet::Conformance, ..ServerConfig::default() };
        let server = Server::new(Key::new(LAB_KEY).expect("32 bytes"), config);
        Suite { server, ledger: Ledger::default(), nonces: SplitMix64::new(3), store: StateStore::default(), id: 0 }
    }

    fn send(&mut self, method: &str, mut params: Value, capabilities: Value) -> Value {
        params["_meta"] = json!({
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientInfo": {"name": "conformance-test-client", "version": "1"},
            "io.modelcontextprotocol/clientCapabilities": capabilities,
        });
        self.id += 1;
        let line = json!({"jsonrpc": "2.0", "id": self.id, "method": method, "params": params}).to_string();
        let mut ctx = Ctx {
            principal: "anonymous",
            now_ms: 1_000,
            replica: "A",
            record: None,
            ledger: &mut self.ledger,
            nonces: &mut self.nonces,
            store: &mut self.store,
        };
        self.server.handle_line(&line, &mut ctx).response.expect("a response")
    }
}

fn all() -> Value {
    json!({"sampling": {}, "elicitation": {}, "roots": {"listChanged": true}})
}

/// The suite's answer to each kind of input request.
fn answer(request: &Value) -> Value {
    match request["method"].as_str() {
        Some("elicitation/create") => json!({"action": "accept", "content": {"name": "Ada"}}),
        Some("sampling/createMessage") => json!({"role": "assistant",
            "content": {"type": "text", "text": "Hello there, friend"}, "model": "test-model", "stopReason": "endTurn"}),
        _ => json!({"roots": [{"uri": "file:///test/root", "name": "Test Root"}]}),
    }
}

/// Calls `method` on `name`, answering every round, and returns each round's result.
fn play(suite: &mut Suite, method: &str, name: &str) -> Vec<Value> {
    let mut params = json!({"name": name, "arguments": {}});
    let mut results = Vec::new();
    for _ in 0..4 {
        let result = suite.send(method, params.clone(), all())["result"].clone();
        results.push(result.clone());
        if result["resultType"] != "input_required" {
            break;
        }
        let answers: serde_json::Map<String, Value> = result["inputRequests"]
            .as_object()
            .expect("input requests")
            .iter()
            .map(|(key, request)| (key.clone(), answer(request)))
            .collect();
        params["inputResponses"] = answers.into();
        params["requestState"] = result["requestState"].clone();
    }
    results
}

#[test]
fn every_fixture_asks_and_then_completes() {
    let mut suite = Suite::new();
    for (tool, rounds, first_method) in [
        ("test_input_required_result_elicitation", 2, "elicitation/create"),
        ("test_input_required_result_sampling", 2, "sampling/createMessage"),
        ("test_input_required_result_list_roots", 2, "roots/list"),
        ("test_input_required_result_request_state", 2, "elicitation/create"),
        ("test_input_required_result_tampered_state", 2, "elicitation/create"),
        ("test_input_required_result_multi_round", 3, "elicitation/create"),
    ] {
        let results = play(&mut suite, "tools/call", tool);
        assert_eq!(results.len(), rounds, "{tool}: {results:?}");
        let asked = results[0]["inputRequests"].as_object().expect("asked");
        assert_eq!(asked.values().next().map(|r| r["method"].clone()), Some(first_method.into()), "{tool}");
        assert_eq!(results[rounds - 1]["resultType"], "complete", "{tool}");
        assert!(results[rounds - 1]["content"][0]["text"].is_string(), "{tool}");
    }
    assert!(play(&mut suite, "tools/call", "test_input_required_result_elicitation")[0]["inputRequests"]
        .get("user_name")
        .is_some());
    let multi = play(&mut suite, "tools/call", "test_input_required_result_multi_round");
    assert_ne!(multi[0]["requestState"], multi[1]["requestState"]);
    let several = play(&mut suite, "tools/call", "test_input_required_result_multiple_inputs");
    let methods: Vec<&str> =
        several[0]["inputRequests"].as_object().expect("asked").values().filter_map(|r| r["method"].as_str()).collect();
    assert_eq!(methods, ["elicitation/create", "sampling/createMessage", "roots/list"]);
    assert_eq!(several[1]["resultType"], "complete");
    let prompt = play(&mut suite, "prompts/get", "test_input_required_result_prompt");
    assert!(prompt[1]["messages"].is_array(), "{prompt:?}");
}

#[test]
fn capabilities_pick_what_the_client_declared_and_tampering_is_refused() {
    let mut suite = Suite::new();
    let asked = suite.send(
        "tools/call",
        json!({"name": "test_input_required_result_capabilities", "arguments": {}}),
        json!({"sampling": {}}),
    );
    assert_eq!(asked["result"]["inputRequests"]["input"]["method"], "sampling/createMessage");
    let first =
        suite.send("tools/call", json!({"name": "test_input_required_result_tampered_state", "arguments": {}}), all());
    let tampered = format!("{}-TAMPERED", first["result"]["requestState"].as_str().expect("a ticket"));
    let retry = suite.send(
        "tools/call",
        json!({"name": "test_input_required_result_tampered_state", "arguments": {},
        "inputResponses": {"user_name": answer(&json!({"method": "elicitation/create"}))}, "requestState": tampered}),
        all(),
    );
    assert_eq!(retry["error"]["code"], -32602);
    let listed = suite.send("tools/list", json!({}), all());
    assert_eq!(listed["result"]["tools"].as_array().map(Vec::len), Some(8));
    assert_eq!(listed["result"]["resultType"], "complete");
}
