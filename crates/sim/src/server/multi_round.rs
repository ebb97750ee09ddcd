//! One multi-round request (`tools/call`, `prompts/get`, `resources/read`): its target looked
//! up, its ticket opened (every check, in order), the target run with the round's answers and
//! saved work, and the answer: the result, or `input_required` with a ticket for the next round.

use super::{server_meta, AnswerCheck, Ctx, Handled, Server, StateMode};
use crate::jsonrpc::{self, INTERNAL_ERROR, INVALID_PARAMS, MISSING_CAPABILITY};
use crate::protocol::Envelope;
use crate::round::Round;
use crate::tools::{self, resources, Effects, Step};
use mrtr_ticket::{Expect, Mint};
use serde_json::{json, Map, Value};

impl Server {
    /// `tools/call`, `prompts/get` and `resources/read`: the three that may ask for input.
    pub(super) fn multi_round(
        &self,
        id: Value,
        method: &str,
        params: &Value,
        envelope: &Envelope,
        ctx: &mut Ctx<'_>,
    ) -> Handled {
        let fail = |message: String| Handled::reply(jsonrpc::error(id.clone(), INVALID_PARAMS, &message, None));
        let target = match method {
            "resources/read" => params.get("uri"),
            _ => params.get("name"),
        };
        let Some(target) = target.and_then(Value::as_str) else {
            let field = if method == "resources/read" { "uri" } else { "name" };
            return fail(format!("Invalid params: \"{field}\" must be a string"));
        };
        let empty = Map::new();
        let args = match params.get("arguments") {
            None => &empty,
            Some(Value::Object(args)) => args,
            Some(_) => return fail("Invalid params: \"arguments\" must be an object".into()),
        };
        let answers = match params.get("inputResponses") {
            None => &empty,
            Some(Value::Object(answers)) => answers,
            Some(_) => return fail("Invalid params: \"inputResponses\" must be an object".into()),
        };
        // An unknown target is refused before its ticket is opened: a mistyped name must not
        // spend the ticket in the record of used tickets.
        let unknown = match method {
            "tools/call" => self.config.tools.tool(target).is_none().then_some("tool"),
            "prompts/get" => self.config.tools.prompt(target).is_none().then_some("prompt"),
            _ => (!resources::exists(target)).then_some("resource"),
        };
        if let Some(kind) = unknown {
            return fail(format!("Unknown {kind}: {target}"));
        }
        let mut handled = Handled::default();
        let bare_answers_read =
            method == "tools/call" && self.config.tools.tool(target).is_some_and(|tool| tool.answers_without_ticket);
        let saved = match params.get("requestState") {
            None if bare_answers_read => None,
            None => {
                if !answers.is_empty() {
                    handled.notes.push(
                        "inputResponses came without a requestState: nothing was asked, so they are ignored and the server asks itself"
                            .into(),
                    );
                }
                None
            }
            Some(Value::String(ticket)) => {
                let request = match self.bound_request(method, params) {
                    Ok(request) => request,
                    Err(e) => return fail(format!("Invalid params: {e}")),
                };
                let expect = Expect {
                    principal: self.bound_principal(ctx.principal),
                    request: &request,
                    now_ms: self.checked_now(ctx.now_ms),
                };
                let opened = self.codec.open(ticket, &expect, ctx.record.as_deref_mut());
                handled.checks = Some(opened.report());
                match opened.trusted() {
                    Err(failure) => {
                        handled.response = Some(jsonrpc::failed(id, failure.rpc_error()));
                        return handled;
                    }
                    Ok(trusted) => match self.config.state {
                        StateMode::InTicket => Some(trusted.data().clone()),
                        StateMode::Store => {
                            let key = trusted.data().get("stateKey").and_then(Value::as_str).unwrap_or_default();
                            match ctx.store.get(key) {
                                Some(saved) => Some(saved.clone()),
                                None => {
                                    handled.notes.push(format!("{} has no saved work under {key}", ctx.replica));
                                    handled.response = Some(jsonrpc::error(
                                        id,
                                        INVALID_PARAMS,
                                        "Invalid requestState: this server has no saved work for it. Start the request again without it.",
                                        Some(json!({"reason": "invalid_request_state", "check": "state-store"})),
                                    ));
                                    return handled;
                                }
                            }
                        }
                    },
                }
            }
            Some(_) => {
                handled.response = Some(jsonrpc::error(
                    id,
                    INVALID_PARAMS,
                    "Invalid requestState: it must be the string the server sent. Start the request again without it.",
                    Some(json!({"reason": "invalid_request_state", "check": "shape"})),
                ));
                return handled;
            }
        };
        let answers = if saved.is_some() || bare_answers_read { answers } else { &empty };
        let mut round = Round::new(saved.as_ref(), answers, envelope.capabilities);
        let mut fx = Effects { ledger: ctx.ledger, replica: ctx.replica, now_ms: ctx.now_ms, tool: target };
        let step = match method {
            "tools/call" => match self.config.tools.tool(target) {
                Some(tool) => (tool.run)(args, &mut round, &mut fx),
                None => return fail(format!("Unknown tool: {target}")),
            },
            "prompts/get" => match self.config.tools.prompt(target) {
                Some(prompt) => (prompt.run)(args, &mut round),
                None => return fail(format!("Unknown prompt: {target}")),
            },
            _ => match resources::read(target, &mut round) {
                Some(step) => step,
                None => return fail(format!("Unknown resource: {target}")),
            },
        };
        if saved.is_some() {
            handled.answers = Some(if matches!(step, Step::Asked) && !round.asks.is_empty() {
                let keys: Vec<&str> = round.asks.keys().map(String::as_str).collect();
                AnswerCheck {
                    passed: false,
                    detail: format!("no answer for {} that fits its question: the server asks again", keys.join(", ")),
                }
            } else if round.answered.is_empty() {
                AnswerCheck { passed: true, detail: "nothing more was needed".into() }
            } else {
                AnswerCheck {
                    passed: true,
                    detail: format!("the answer for {} came with the retry", round.answered.join(", ")),
                }
            });
        }
        handled.response = Some(match step {
            Step::Done(result) => jsonrpc::result(id, self.complete(result)),
            // A tool's arguments that fail its own checks are a tool execution error, a result
            // a model can read and correct (the tools page); a prompt's are a protocol error.
            Step::Invalid(message) if method == "tools/call" => {
                let mut result = tools::text(message);
                result["isError"] = true.into();
                jsonrpc::result(id, self.complete(result))
            }
            Step::Invalid(message) => jsonrpc::error(id, INVALID_PARAMS, &message, None),
            Step::Asked => self.input_required(id, method, params, round, ctx),
        });
        handled
    }

    fn input_required(&self, id: Value, method: &str, params: &Value, round: Round<'_>, ctx: &mut Ctx<'_>) -> Value {
        if round.asks.is_empty() {
            if let Some(kind) = round.missing {
                let message = format!(
                    "Cannot request input ({}): the request's client capabilities do not declare the required capability",
                    kind.method()
                );
                let data = json!({"requiredCapabilities": kind.required_capabilities()});
                return jsonrpc::error(id, MISSING_CAPABILITY, &message, Some(data));
            }
        }
        let data = round.save.unwrap_or_else(|| json!({}));
        let data = match self.config.state {
            StateMode::InTicket => data,
            StateMode::Store => json!({"stateKey": ctx.store.insert(data, ctx.nonces)}),
        };
        let minted = self.bound_request(method, params).map_err(|e| e.to_string()).and_then(|request| {
            let mint = Mint {
                principal: self.bound_principal(ctx.principal).to_owned(),
                request,
                data,
                now_ms: ctx.now_ms,
                ttl_ms: self.config.ttl_ms,
            };
            self.codec.mint(&mint, ctx.nonces).map_err(|e| e.to_string())
        });
        let ticket = match minted {
            Ok(ticket) => ticket,
            Err(why) => return jsonrpc::error(id, INTERNAL_ERROR, &format!("Internal error: {why}"), None),
        };
        let mut result = Map::new();
        result.insert("resultType".into(), "input_required".into());
        if !round.asks.is_empty() {
            result.insert("inputRequests".into(), Value::Object(round.asks));
        }
        result.insert("requestState".into(), ticket.into());
        result.insert("_meta".into(), server_meta());
        jsonrpc::result(id, Value::Object(result))
    }

    pub(super) fn complete(&self, result: Value) -> Value {
        let mut result = match result {
            Value::Object(map) => map,
            other => Map::from_iter([("value".to_owned(), other)]),
        };
        result.insert("resultType".into(), "complete".into());
        result.insert("_meta".into(), server_meta());
        Value::Object(result)
    }
}

/// A server that binds no request (the careless test server) is the one where a mistyped name
/// would reach the record: the request check cannot refuse the ticket first.
#[cfg(all(test, feature = "careless"))]
mod unknown_targets {
    use super::*;
    use crate::client::Client;
    use crate::cluster::LAB_KEY;
    use crate::ledger::Ledger;
    use crate::protocol::Capabilities;
    use crate::server::{Binding, ServerConfig, StateStore};
    use mrtr_ticket::Key;
    use mrtr_ticket::{SplitMix64, UsedNonces};

    #[test]
    fn a_mistyped_name_does_not_spend_the_ticket() {
        let config = ServerConfig { unbound: Some(Binding::Request), ..ServerConfig::default() };
        let server = Server::new(Key::new(LAB_KEY).expect("32 bytes"), config);
        let (mut ledger, mut nonces, mut store, mut used) =
            (Ledger::default(), SplitMix64::new(1), StateStore::default(), UsedNonces::new());
        let mut send = |message: &Value| {
            let mut ctx = Ctx {
                principal: "bob",
                now_ms: 1_000,
                replica: "A",
                record: Some(&mut used),
                ledger: &mut ledger,
                nonces: &mut nonces,
                store: &mut store,
            };
            server.handle(message, &mut ctx).response.expect("a response")
        };
        let mut client = Client::new("bob-token", Capabilities::ALL);
        let first = client.request("tools/call", json!({"name": "deploy", "arguments": {"env": "staging"}}));
        let asked = send(&first);
        let ticket = asked["result"]["requestState"].as_str().expect("a ticket").to_owned();
        let yes = json!({"confirm": {"action": "accept", "content": {"confirm": true}}});
        let answers = yes.as_object().cloned().unwrap_or_default();
        let mut mistyped = client.retry(&first, answers.clone(), Some(&ticket));
        mistyped["params"]["name"] = "deplyo".into();
        let refused = send(&mistyped);
        assert_eq!(refused["error"]["message"], "Unknown tool: deplyo");
        let done = send(&client.retry(&first, answers, Some(&ticket)));
        assert_eq!(done["result"]["content"][0]["text"], "deployed to staging", "{done}");
    }
}
