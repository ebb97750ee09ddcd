//! Every message the server and the honest client emit validates against the official
//! 2026-07-28 schema (tests/spec/2026-07-28/schema.json, a copy of the course's
//! shared/spec, checked to be identical when that is beside the repository). Native only:
//! the validator is a dev-dependency that does not target wasm.
#![cfg(not(target_arch = "wasm32"))]

use jsonschema::Validator;
use mrtr_sim::cluster::RecordMode;
use mrtr_sim::moves::Move;
use mrtr_sim::person::Reply;
use mrtr_sim::scenarios::{Options, Run, SCENARIOS};
use mrtr_sim::trace::{Actor, Kind};
use mrtr_ticket::Mode;
use serde_json::json;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;

fn schema_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/spec/2026-07-28/schema.json")
}

#[test]
fn the_vendored_schema_is_the_official_one() {
    let shared = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/spec/2026-07-28/schema.json");
    if let Ok(official) = std::fs::read(&shared) {
        assert_eq!(
            std::fs::read(schema_path()).expect("vendored schema"),
            official,
            "tests/spec differs from shared/spec"
        );
    }
}

struct Schema {
    defs: Value,
    validators: BTreeMap<String, Validator>,
}

impl Schema {
    fn load() -> Self {
        let text = std::fs::read_to_string(schema_path()).expect("readable schema");
        let schema = serde_json::from_str::<Value>(&text).expect("schema is JSON");
        Schema { defs: schema["$defs"].clone(), validators: BTreeMap::new() }
    }

    fn check(&mut self, def: &str, instance: &Value) -> Result<(), String> {
        if !self.validators.contains_key(def) {
            let root = json!({"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": self.defs.clone(), "$ref": format!("#/$defs/{def}")});
            let validator = jsonschema::validator_for(&serde_json::to_value(&root).expect("JSON"))
                .map_err(|e| format!("{def}: {e}"))?;
            self.validators.insert(def.to_owned(), validator);
        }
        let validator = &self.validators[def];
        let errors: Vec<String> = validator
            .iter_errors(&serde_json::to_value(instance).expect("JSON"))
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(format!("{def}: {}", errors.join("; ")))
        }
    }
}

fn response_def(method: &str) -> &'static str {
    match method {
        "server/discover" => "DiscoverResultResponse",
        "tools/list" => "ListToolsResultResponse",
        "tools/call" => "CallToolResultResponse",
        "prompts/list" => "ListPromptsResultResponse",
        "prompts/get" => "GetPromptResultResponse",
        "resources/list" => "ListResourcesResultResponse",
        "resources/read" => "ReadResourceResultResponse",
        _ => "JSONRPCResultResponse",
    }
}

fn error_def(code: i64) -> Option<&'static str> {
    match code {
        -32022 => Some("UnsupportedProtocolVersionError"),
        -32021 => Some("MissingRequiredClientCapabilityError"),
        _ => None,
    }
}

/// Validates every modern wire line of a run; client lines only when the run is honest.
fn validate(schema: &mut Schema, run: &Run, client_lines_are_honest: bool) -> (usize, Vec<String>) {
    let mut checked = 0;
    let mut problems = Vec::new();
    let mut method = String::new();
    for event in run.trace.events.iter().filter(|e| !e.earlier_era) {
        let Some(line) = &event.line else { continue };
        let Ok(message) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        let mut check = |def: &str, instance: &Value| {
            checked += 1;
            if let Err(e) = schema.check(def, instance) {
                problems.push(format!("{} #{}: {e}\n  {line}", run.scenario, event.seq));
            }
        };
        match (event.from, event.kind) {
            (Actor::Client, Kind::Request) => {
                method = message.get("method").and_then(Value::as_str).unwrap_or_default().to_owned();
                if client_lines_are_honest {
                    check("ClientRequest", &message);
                }
            }
            (_, Kind::Response) if message.get("error").is_some() => {
                check("JSONRPCErrorResponse", &message);
                let code = message.pointer("/error/code").and_then(Value::as_i64).unwrap_or(0);
                if let Some(def) = error_def(code) {
                    check(def, &message);
                }
                if code == -32602 {
                    check("InvalidParamsError", &message["error"]);
                }
            }
            (_, Kind::Response) => check(response_def(&method), &message),
            _ => {}
        }
    }
    (checked, problems)
}

#[test]
fn every_emitted_message_validates_against_the_official_schema() {
    let mut schema = Schema::load();
    let mut checked = 0;
    let mut problems = Vec::new();
    let variants = [
        Options::default(),
        Options { reply: Some(Reply::Decline), ..Options::default() },
        Options { reply: Some(Reply::Cancel), ..Options::default() },
        Options { reply: Some(Reply::AcceptNo), ..Options::default() },
        Options { mode: Some(Mode::Sealed), record: Some(RecordMode::Shared), ..Options::default() },
        // Every move the lab offers, not only the lesson's, but the one that breaks the
        // schema on purpose (a number where the ticket's string goes).
        Options {
            moves: Some(Move::ALL.into_iter().filter(|m| *m != Move::NotAString).collect()),
            ..Options::default()
        },
    ];
    for scenario in SCENARIOS {
        for options in variants.iter().filter(|o| o.moves.is_none() || scenario.takes_moves()) {
            let options =
                if scenario.id == "careless" { Options { mode: None, ..options.clone() } } else { options.clone() };
            let run = scenario.run(&options);
            // The malicious moves send opaque strings, still valid; the protocol-errors
            // scenario sends broken lines on purpose.
            let honest = scenario.id != "protocol-errors";
            let (n, p) = validate(&mut schema, &run, honest);
            checked += n;
            problems.extend(p);
        }
    }
    assert!(problems.is_empty(), "{} of {checked} messages are invalid:\n{}", problems.len(), problems.join("\n"));
    assert!(checked > 300, "only {checked} messages checked");
}

#[test]
fn the_validator_rejects_what_the_schema_forbids() {
    let mut schema = Schema::load();
    // The official SDK's -32022 for a missing version omits `requested`: invalid.
    let sdk = json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2026-07-28"]}}});
    assert!(schema.check("UnsupportedProtocolVersionError", &sdk).is_err());
    let ours = json!({"jsonrpc": "2.0", "id": 7, "error": {"code": -32022, "message": "Unsupported protocol version", "data": {"supported": ["2026-07-28"], "requested": ""}}});
    assert!(schema.check("UnsupportedProtocolVersionError", &ours).is_ok());
    assert!(schema
        .check("CallToolResultResponse", &json!({"jsonrpc": "2.0", "id": 1, "result": {"content": []}}))
        .is_err());
}
