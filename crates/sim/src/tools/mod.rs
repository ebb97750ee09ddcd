//! The server's tools, prompts and resources: the bodies the scenarios exercise.
//!
//! A body takes its arguments, the [`Round`] and the [`Effects`] it may cause, and returns a
//! [`Step`]. It runs again from the top in every round.

#[cfg(feature = "conformance")]
pub mod conformance;
mod deploy;
mod greedy;
mod inputs;
mod money;
pub mod prompts;
pub mod resources;
mod seat;

use crate::ledger::{Entry, Ledger};
use crate::round::Round;
use serde::{Deserialize, Serialize};
use serde_json::json;
use serde_json::{Map, Value};

/// Where a body ended this round.
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// Finished: the result (without `resultType` and `_meta`, which the server adds).
    Done(Value),
    /// It asked for input through the [`Round`]: the server answers `input_required`.
    Asked,
    /// The arguments are wrong: the server answers `-32602` with this message.
    Invalid(String),
}

/// Side effects a body may cause, written to the ledger with who and when.
#[derive(Debug)]
pub struct Effects<'a> {
    pub(crate) ledger: &'a mut Ledger,
    pub(crate) replica: &'a str,
    pub(crate) now_ms: u64,
    pub(crate) tool: &'a str,
}

impl Effects<'_> {
    /// Records a side effect.
    pub fn record(&mut self, what: impl Into<String>, cents: Option<i64>) {
        self.ledger.push(Entry {
            at_ms: self.now_ms,
            replica: self.replica.to_owned(),
            tool: self.tool.to_owned(),
            what: what.into(),
            cents,
        });
    }
}

/// A tool the server offers.
#[derive(Debug)]
pub struct Tool {
    /// Its name in `tools/call`.
    pub name: &'static str,
    /// A title for people.
    pub title: &'static str,
    /// What it does, and what it teaches.
    pub description: &'static str,
    /// Its `inputSchema`.
    pub schema: fn() -> Value,
    /// Its body.
    pub run: fn(&Map<String, Value>, &mut Round<'_>, &mut Effects<'_>) -> Step,
    /// Whether it reads answers that come without a ticket, as a server that asks without
    /// keeping any state must. Only where a forged answer can do no harm (a greeting); the
    /// lab's tools ignore such answers and ask themselves.
    pub answers_without_ticket: bool,
}

impl Tool {
    /// The tool as `tools/list` shows it.
    pub fn to_value(&self) -> Value {
        json!({"name": self.name, "title": self.title, "description": self.description, "inputSchema": (self.schema)()})
    }
}

/// Which tools and prompts a server offers.
#[derive(
    Debug,
    Clone,
    Copy,
    Default,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::EnumString,
    strum::IntoStaticStr,
    strum::VariantArray,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum ToolSet {
    /// The lab's: deploy, expenses, tickets, vouchers, seats, … (and its prompt).
    #[default]
    Lab,
    /// The official conformance suite's fixtures (`conformance`, with the feature of that
    /// name; without it, none).
    Conformance,
}

impl ToolSet {
    /// Its tools, in the order `tools/list` gives them.
    pub fn tools(self) -> &'static [Tool] {
        match self {
            ToolSet::Lab => TOOLS,
            #[cfg(feature = "conformance")]
            ToolSet::Conformance => conformance::TOOLS,
            #[cfg(not(feature = "conformance"))]
            ToolSet::Conformance => &[],
        }
    }

    /// Its prompts, in the order `prompts/list` gives them.
    pub fn prompts(self) -> &'static [prompts::Prompt] {
        match self {
            ToolSet::Lab => prompts::PROMPTS,
            #[cfg(feature = "conformance")]
            ToolSet::Conformance => conformance::PROMPTS,
            #[cfg(not(feature = "conformance"))]
            ToolSet::Conformance => &[],
        }
    }

    /// The tool of this name.
    pub fn tool(self, name: &str) -> Option<&'static Tool> {
        self.tools().iter().find(|t| t.name == name)
    }

    /// The prompt of this name.
    pub fn prompt(self, name: &str) -> Option<&'static prompts::Prompt> {
        self.prompts().iter().find(|p| p.name == name)
    }
}

/// The lab's tools, in the order `tools/list` gives them.
pub const TOOLS: &[Tool] = &[
    deploy::DEPLOY,
    money::SUBMIT_EXPENSE,
    money::CHARGE_BAD,
    money::CHARGE_GOOD,
    money::BUY_TICKET,
    money::REDEEM_VOUCHER,
    seat::BOOK_SEAT,
    greedy::GREEDY,
    inputs::NAME_RELEASE,
    inputs::CONNECT_CALENDAR,
    inputs::SCAN_WORKSPACE,
];

/// A plain text result.
pub fn text(text: impl Into<String>) -> Value {
    result(text.into(), None)
}

/// A text result with structured content beside it.
pub fn text_with(text: impl Into<String>, structured: Value) -> Value {
    result(text.into(), Some(("structuredContent", structured)))
}

/// A tool's result: its text, and one more member when there is one.
fn result(text: String, more: Option<(&str, Value)>) -> Value {
    let mut result = json!({"content": [{"type": "text", "text": text}]});
    if let Some((name, value)) = more {
        result[name] = value;
    }
    result
}

/// A required number argument.
pub(crate) fn number(args: &Map<String, Value>, name: &str) -> Result<f64, Step> {
    args.get(name)
        .and_then(Value::as_f64)
        .filter(|n| n.is_finite())
        .ok_or_else(|| Step::Invalid(format!("Invalid arguments: `{name}` must be a number")))
}

/// Converts an amount in currency units to cents.
pub(crate) fn cents(amount: f64) -> i64 {
    (amount * 100.0).round() as i64
}
