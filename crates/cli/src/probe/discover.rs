//! What the server under test offers, from its own lists: its tools (with their input schemas
//! and hints), prompts and resources, the call that starts a flow, and the other targets an
//! attack may spend a ticket on. Never a name the server did not list.

use crate::call::transport::Transport;
use mrtr_probe::{Flow, Outcome, Targets};
use mrtr_sim::client::Client;
use mrtr_sim::protocol::Capabilities;
use serde_json::{json, Map, Value};

/// One tool the server lists.
#[derive(Debug, Clone, PartialEq)]
pub struct Tool {
    /// Its name.
    pub name: String,
    /// Its input schema.
    pub schema: Value,
    /// True when annotated `destructiveHint: true`.
    pub destructive: bool,
}

impl Tool {
    /// A call with arguments that fit the input schema: each required field filled as the lab's
    /// person fills a form.
    pub fn call(&self) -> Flow {
        Flow {
            method: "tools/call".into(),
            params: json!({"name": self.name, "arguments": arguments_for(&self.schema)}),
        }
    }
}

/// What the server lists.
#[derive(Debug, Clone, Default)]
pub struct Listed {
    /// Its tools.
    pub tools: Vec<Tool>,
    /// Its prompts, each as `prompts/get` params.
    pub prompts: Vec<Value>,
    /// Its resources, each as `resources/read` params.
    pub resources: Vec<Value>,
}

/// Arguments that fit `schema`: each required field filled as the lab's person fills a form.
pub fn arguments_for(schema: &Value) -> Value {
    let required: Vec<&str> =
        schema.get("required").and_then(Value::as_array).into_iter().flatten().filter_map(Value::as_str).collect();
    let properties = schema.get("properties").and_then(Value::as_object);
    let arguments: Map<String, Value> = properties
        .into_iter()
        .flatten()
        .filter(|(name, _)| required.contains(&name.as_str()))
        .map(|(name, field)| (name.clone(), mrtr_sim::person::fill(field, true)))
        .collect();
    arguments.into()
}

/// Reads `tools/list`, `prompts/list` and `resources/list`. Fails only when the server cannot
/// be reached at all (the transport's words) or answers nothing that is MCP.
pub async fn list(transport: &mut Transport, token: Option<&str>) -> Result<Listed, String> {
    let mut client = Client::new("", Capabilities::ALL);
    let reply = transport.exchange(&client.request("tools/list", json!({})), token).await;
    if let Outcome::Nothing { why } = Outcome::of(&reply) {
        return Err(why);
    }
    let items = |reply: &mrtr_probe::Reply, member: &str| -> Vec<Value> {
        let body = reply.body.as_ref().ok();
        body.and_then(|b| b.pointer(&format!("/result/{member}")))
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let tools = items(&reply, "tools")
        .iter()
        .filter_map(|tool| {
            Some(Tool {
                name: tool.get("name")?.as_str()?.to_owned(),
                schema: tool.get("inputSchema").cloned().unwrap_or(Value::Null),
                destructive: tool.pointer("/annotations/destructiveHint").and_then(Value::as_bool) == Some(true),
            })
        })
        .collect();
    let prompts_reply = transport.exchange(&client.request("prompts/list", json!({})), token).await;
    let prompts = items(&prompts_reply, "prompts")
        .iter()
        .filter_map(|prompt| {
            let name = prompt.get("name")?.as_str()?;
            let arguments: Map<String, Value> = prompt
                .get("arguments")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter(|a| a.get("required").and_then(Value::as_bool) == Some(true))
                .filter_map(|a| Some((a.get("name")?.as_str()?.to_owned(), Value::from("probe"))))
                .collect();
            Some(json!({"name": name, "arguments": arguments}))
        })
        .collect();
    let resources_reply = transport.exchange(&client.request("resources/list", json!({})), token).await;
    let resources = items(&resources_reply, "resources")
        .iter()
        .filter_map(|r| Some(json!({"uri": r.get("uri")?.as_str()?})))
        .collect();
    Ok(Listed { tools, prompts, resources })
}

/// The other targets of `flow` on this server: another listed tool that is not destructive,
/// another method's listed target, and other arguments the flow's tool's schema allows.
pub fn targets(listed: &Listed, flow: &Flow) -> Targets {
    let flow_tool = flow.params.get("name").and_then(Value::as_str);
    let safe_tools = || listed.tools.iter().filter(|t| !t.destructive);
    // Another tool takes the flow's arguments byte for byte: one whose schema names them all
    // is the likeliest to work with them, else the first other one.
    let keys: Vec<&String> =
        flow.params.get("arguments").and_then(Value::as_object).into_iter().flatten().map(|(k, _)| k).collect();
    let fits = |t: &&Tool| keys.iter().all(|k| t.schema.pointer(&format!("/properties/{k}")).is_some());
    let others = || safe_tools().filter(|t| Some(t.name.as_str()) != flow_tool);
    let tool = if flow.method == "tools/call" {
        let arguments = flow.params.get("arguments").cloned().unwrap_or_else(|| json!({}));
        let tool = others().find(fits).or_else(|| others().next());
        tool.map(|t| json!({"name": t.name, "arguments": arguments}))
    } else {
        None
    };
    let method = match flow.method.as_str() {
        "tools/call" => listed
            .prompts
            .first()
            .map(|p| ("prompts/get".to_owned(), p.clone()))
            .or_else(|| listed.resources.first().map(|r| ("resources/read".to_owned(), r.clone()))),
        _ => safe_tools().next().map(|t| ("tools/call".to_owned(), t.call().params)),
    };
    let schema = listed.tools.iter().find(|t| Some(t.name.as_str()) == flow_tool).map(|t| &t.schema);
    let arguments = flow.params.get("arguments").and_then(|a| other_arguments(a, schema.unwrap_or(&Value::Null)));
    Targets { tool, method, arguments }
}

/// The flow's arguments with one value changed to another the schema allows: another value of
/// an enum, `staging` to `prod`, a string with a suffix, a number plus one, a boolean negated.
pub fn other_arguments(arguments: &Value, schema: &Value) -> Option<Value> {
    let members = arguments.as_object()?;
    let mut other = members.clone();
    for (name, value) in members {
        let field = schema.pointer(&format!("/properties/{name}")).unwrap_or(&Value::Null);
        let choices = field.get("enum").and_then(Value::as_array);
        let changed = match (value, choices) {
            (_, Some(choices)) => choices.iter().find(|c| *c != value).cloned(),
            (Value::String(text), None) if text == "staging" => Some("prod".into()),
            (Value::String(text), None) if text == "prod" => Some("staging".into()),
            (Value::String(text), None) => Some(format!("{text}-other").into()),
            (Value::Number(n), None) => n.as_i64().map(|n| (n + 1).into()).or_else(|| Some((n.as_f64()? + 1.0).into())),
            (Value::Bool(b), None) => Some((!b).into()),
            _ => None,
        };
        if let Some(changed) = changed {
            other.insert(name.clone(), changed);
            return Some(other.into());
        }
    }
    None
}

/// The first listed tool, not destructive, whose call asks for input: `--call-any`.
pub async fn first_flow_that_asks(
    transport: &mut Transport,
    listed: &Listed,
    token: Option<&str>,
) -> Result<Flow, String> {
    let mut client = Client::new("", Capabilities::ALL);
    let mut tried = Vec::new();
    for tool in listed.tools.iter().filter(|t| !t.destructive) {
        let flow = tool.call();
        let reply = transport.exchange(&client.request(&flow.method, flow.params.clone()), token).await;
        if matches!(Outcome::of(&reply), Outcome::Asked { .. }) {
            return Ok(flow);
        }
        tried.push(tool.name.clone());
    }
    let skipped: Vec<&str> = listed.tools.iter().filter(|t| t.destructive).map(|t| t.name.as_str()).collect();
    Err(format!(
        "no tool asked for input (tried: {}; skipped as destructive: {}): give the call that does with --call",
        if tried.is_empty() { "none".into() } else { tried.join(", ") },
        if skipped.is_empty() { "none".into() } else { skipped.join(", ") }
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_fit_the_required_fields() {
        let schema = json!({"type": "object", "required": ["env", "n", "ok"], "properties": {
            "env": {"type": "string", "enum": ["staging", "prod"]}, "n": {"type": "integer", "minimum": 3},
            "ok": {"type": "boolean"}, "note": {"type": "string"}}});
        assert_eq!(arguments_for(&schema), json!({"env": "staging", "n": 3, "ok": true}));
        assert_eq!(other_arguments(&json!({"env": "staging", "n": 3}), &schema), Some(json!({"env": "prod", "n": 3})));
        assert_eq!(other_arguments(&json!({"n": 3}), &Value::Null), Some(json!({"n": 4})));
        assert_eq!(other_arguments(&json!({}), &Value::Null), None);
    }

    #[test]
    fn other_targets_come_from_the_servers_own_lists_and_spare_destructive_tools() {
        let tool = |name: &str, destructive| Tool { name: name.into(), schema: Value::Null, destructive };
        let listed = Listed {
            tools: vec![tool("deploy", false), tool("wipe", true), tool("greet", false)],
            prompts: vec![],
            resources: vec![json!({"uri": "file:///notes"})],
        };
        let flow = Flow::parse(r#"tools/call deploy {"env":"staging"}"#).expect("a flow");
        let targets = targets(&listed, &flow);
        assert_eq!(targets.tool, Some(json!({"name": "greet", "arguments": {"env": "staging"}})));
        assert_eq!(targets.method, Some(("resources/read".into(), json!({"uri": "file:///notes"}))));
        assert_eq!(targets.arguments, Some(json!({"env": "prod"})));
        let alone = Listed { tools: vec![tool("deploy", false)], ..Listed::default() };
        assert_eq!(
            super::targets(&alone, &flow),
            Targets { arguments: Some(json!({"env": "prod"})), ..Targets::default() }
        );
    }
}
