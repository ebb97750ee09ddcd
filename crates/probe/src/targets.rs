//! What a server offers, read from its own lists (`tools/list`, `prompts/list`,
//! `resources/list`), and the other targets an attack may spend a ticket on: never a name the
//! server did not list, never a tool annotated destructive.

use crate::setup::{Flow, Targets};
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

impl Listed {
    /// Reads the three lists' replies (any of them missing, an error or not a list: empty).
    ///
    /// ```
    /// let tools = serde_json::json!({"result": {"tools": [{"name": "deploy",
    ///     "inputSchema": {"type": "object", "properties": {"env": {"type": "string"}}, "required": ["env"]}}]}});
    /// let listed = mrtr_probe::Listed::read(Some(&tools), None, None);
    /// assert_eq!(listed.tools[0].call().params, serde_json::json!({"name": "deploy", "arguments": {"env": "Aurora"}}));
    /// ```
    pub fn read(tools: Option<&Value>, prompts: Option<&Value>, resources: Option<&Value>) -> Listed {
        let items = |reply: Option<&Value>, member: &str| -> Vec<Value> {
            let list = reply.and_then(|r| r.get("result")).and_then(|r| r.get(member));
            list.and_then(Value::as_array).cloned().unwrap_or_default()
        };
        let tools = items(tools, "tools")
            .iter()
            .filter_map(|tool| {
                Some(Tool {
                    name: tool.get("name")?.as_str()?.to_owned(),
                    schema: tool.get("inputSchema").cloned().unwrap_or(Value::Null),
                    destructive: tool.pointer("/annotations/destructiveHint").and_then(Value::as_bool) == Some(true),
                })
            })
            .collect();
        let prompts = items(prompts, "prompts")
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
        let resources = items(resources, "resources")
            .iter()
            .filter_map(|r| Some(json!({"uri": r.get("uri")?.as_str()?})))
            .collect();
        Listed { tools, prompts, resources }
    }

    /// The other targets of `flow` on this server: another listed tool that is not destructive,
    /// another method's listed target, and other arguments the flow's tool's schema allows.
    pub fn targets(&self, flow: &Flow) -> Targets {
        let listed = self;
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
        let targets = listed.targets(&flow);
        assert_eq!(targets.tool, Some(json!({"name": "greet", "arguments": {"env": "staging"}})));
        assert_eq!(targets.method, Some(("resources/read".into(), json!({"uri": "file:///notes"}))));
        assert_eq!(targets.arguments, Some(json!({"env": "prod"})));
        let alone = Listed { tools: vec![tool("deploy", false)], ..Listed::default() };
        assert_eq!(alone.targets(&flow), Targets { arguments: Some(json!({"env": "prod"})), ..Targets::default() });
    }
}
