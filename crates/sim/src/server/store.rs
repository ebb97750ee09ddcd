//! Server-side state: the alternative to carrying the work in the ticket. The ticket then
//! holds only a key, and whichever replica gets the retry must be able to look it up.

use mrtr_ticket::NonceSource;
use serde_json::Value;
use std::collections::HashMap;

/// Saved work by key. One per replica, or one shared by all of them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct StateStore {
    /// Only looked up by key, never listed: the hash map's order shows nowhere.
    saved: HashMap<String, Value>,
}

impl StateStore {
    /// Saves `data` under a fresh random key and returns the key.
    pub fn insert(&mut self, data: Value, nonces: &mut dyn NonceSource) -> String {
        let mut bytes = [0u8; 6];
        nonces.fill(&mut bytes);
        let key: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
        let key = format!("s-{key}");
        self.saved.insert(key.clone(), data);
        key
    }

    /// The work saved under `key`, if this store has it.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.saved.get(key)
    }

    /// How many entries it holds.
    pub fn len(&self) -> usize {
        self.saved.len()
    }

    /// True when it holds nothing.
    pub fn is_empty(&self) -> bool {
        self.saved.is_empty()
    }
}
