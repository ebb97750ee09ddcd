//! What a tool body sees in one round: the state its ticket carried, the answers that came
//! with it, and a way to ask for more.

mod ask;

use crate::protocol::{Capabilities, InputKind};
pub use ask::{Answer, Ask};
use serde_json::{Map, Value};

/// One round of a multi round-trip request, from the tool's side.
///
/// The body runs again from the top in every round: whatever it did before its question
/// is done again. Ask first, act last.
#[derive(Debug)]
pub struct Round<'a> {
    saved: Option<&'a Value>,
    answers: &'a Map<String, Value>,
    capabilities: Capabilities,
    pub(crate) asks: Map<String, Value>,
    pub(crate) answered: Vec<String>,
    pub(crate) missing: Option<InputKind>,
    pub(crate) save: Option<Value>,
}

impl<'a> Round<'a> {
    /// A round with the state from a verified ticket (or none) and its answers.
    pub(crate) fn new(saved: Option<&'a Value>, answers: &'a Map<String, Value>, capabilities: Capabilities) -> Self {
        Round { saved, answers, capabilities, asks: Map::new(), answered: Vec::new(), missing: None, save: None }
    }

    /// What the tool saved into the ticket last round; `None` on the first call.
    pub fn saved(&self) -> Option<&Value> {
        self.saved
    }

    /// The answer under `key`, if it came back in this round; otherwise asks for it with
    /// the first of `ways` this client declared it supports, and returns `None`.
    pub fn answer(&mut self, key: &str, ways: &[Ask]) -> Option<Answer> {
        if let Some(value) = self.answers.get(key) {
            if let Some(answer) = ways.iter().find_map(|way| Answer::read(way, value)) {
                self.answered.push(key.to_owned());
                return Some(answer);
            }
        }
        match ways.iter().find(|way| self.capabilities.allows(way.kind)) {
            Some(way) => {
                self.asks.insert(key.to_owned(), way.request.clone());
            }
            None => self.missing = self.missing.or(ways.first().map(|w| w.kind)),
        }
        None
    }

    /// Saves data into the next ticket (what the next round will see as [`Round::saved`]).
    pub fn save(&mut self, data: Value) {
        self.save = Some(data);
    }

    /// True when this round asked for something.
    pub fn asked(&self) -> bool {
        !self.asks.is_empty() || self.missing.is_some()
    }
}
