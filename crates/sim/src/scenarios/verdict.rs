//! What one attempt came to, in the terms a student reads.

use crate::cluster::{Delivery, Replica};
use crate::server::AnswerCheck;
use crate::trace::line_for_people;
use mrtr_ticket::Report;
use serde::Serialize;
use serde_json::Value;

/// How the server answered one attempt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Answered {
    /// A complete result: the call went through.
    Accepted {
        /// The result's first text (a line of it: [`crate::trace::LONGEST_LINE`] bytes at most).
        text: String,
    },
    /// `input_required` again: the server asks instead of acting.
    AskedAgain,
    /// A result with `isError: true`: the tool refused its arguments, in words a model can
    /// read and correct.
    ToolError {
        /// The result's first text (a line of it).
        text: String,
    },
    /// A JSON-RPC error.
    Refused {
        /// The ticket check that failed, if a ticket check did.
        check: Option<String>,
        /// The error code.
        code: i64,
        /// The error message (a line of it: [`crate::trace::LONGEST_LINE`] bytes at most).
        message: String,
    },
    /// Nothing came back.
    NoResponse,
}

impl Answered {
    /// Reads a delivery.
    pub fn of(delivery: &Delivery) -> Answered {
        Answered::of_response(delivery.response.as_ref())
    }

    /// Reads a response line (`None` when nothing came back): a simulated replica's or a real
    /// server's.
    pub fn of_response(response: Option<&Value>) -> Answered {
        let Some(response) = response else {
            return Answered::NoResponse;
        };
        if let Some(error) = response.get("error") {
            return Answered::Refused {
                check: error.pointer("/data/check").and_then(Value::as_str).map(str::to_owned),
                code: error.get("code").and_then(Value::as_i64).unwrap_or(0),
                message: line_for_people(error.get("message").and_then(Value::as_str).unwrap_or_default().to_owned()),
            };
        }
        let result = response.get("result");
        if result.and_then(|r| r.get("resultType")).and_then(Value::as_str) == Some("input_required") {
            return Answered::AskedAgain;
        }
        let text = result.and_then(|r| r.pointer("/content/0/text")).and_then(Value::as_str).unwrap_or("complete");
        let text = line_for_people(text.to_owned());
        match result.and_then(|r| r.get("isError")).and_then(Value::as_bool) {
            Some(true) => Answered::ToolError { text },
            _ => Answered::Accepted { text },
        }
    }

    /// One word for a timeline: `accepted`, `asked-again`, `tool-error`, the failed check's
    /// id, or the code.
    pub fn word(&self) -> String {
        match self {
            Answered::Accepted { .. } => "accepted".into(),
            Answered::AskedAgain => "asked-again".into(),
            Answered::ToolError { .. } => "tool-error".into(),
            Answered::Refused { check: Some(check), .. } => check.clone(),
            Answered::Refused { code, .. } => code.to_string(),
            Answered::NoResponse => "no-response".into(),
        }
    }
}

/// One attempt and its verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Verdict {
    /// The move's id, or a label for the step.
    pub by: String,
    /// A title for people.
    pub title: String,
    /// When, ms.
    pub at_ms: u64,
    /// Whose bearer token.
    pub bearer: String,
    /// Which replica answered.
    pub replica: Option<Replica>,
    /// The ticket checks, if a ticket was checked.
    pub checks: Option<Report>,
    /// Whether the answers came with the ticket (when the ticket passed).
    pub answers: Option<AnswerCheck>,
    /// Which ticket it carried, named as the trace names them (`T1`, `(never issued)`, …).
    pub ticket: Option<String>,
    /// How the server answered.
    pub answered: Answered,
}

impl Verdict {
    /// The verdict of one delivery.
    pub fn of(
        by: impl Into<String>,
        title: impl Into<String>,
        at_ms: u64,
        bearer: impl Into<String>,
        delivery: Delivery,
    ) -> Verdict {
        Verdict {
            by: by.into(),
            title: title.into(),
            at_ms,
            bearer: bearer.into(),
            replica: delivery.replica,
            answered: Answered::of(&delivery),
            checks: delivery.checks,
            answers: delivery.answers,
            ticket: delivery.ticket,
        }
    }
}
