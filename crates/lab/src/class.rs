//! What an instructor sets for a class: hints and solutions hidden for a graded session, the
//! scenarios offered, and a class code carried in every xAPI statement. Read from the
//! element's attributes, the iframe's query, or a lesson's
//! `<meta name="mrtr-lab" content="hide=hints,solutions&scenarios=voucher&class=CS-101">`
//! (docs/EMBEDDING.md, "For a class").
//!
//! ```
//! use mrtr_lab::class::Class;
//! let class = Class::read(&mut |name| match name {
//!     "hide" => Some("hints, solutions".into()),
//!     "scenarios" => Some("voucher,misuse-ticket,nonsense".into()),
//!     "class" => Some(" CS-101 ".into()),
//!     _ => None,
//! });
//! assert!(class.hide_hints && class.hide_solutions);
//! assert_eq!(class.scenarios.as_deref(), Some(&["voucher", "deploy"][..]));
//! assert!(class.offers("deploy") && !class.offers("expense"));
//! assert_eq!(class.code.as_deref(), Some("CS-101"));
//! assert_eq!(Class::default(), Class::read(&mut |_| None));
//! // As a query: the class server's record of them, and a `<mrtr-lab>`'s attributes.
//! assert_eq!(class.query(), "hide=hints,solutions&scenarios=voucher,deploy&class=CS-101");
//! assert_eq!(Class::from_query(&class.query()), class);
//! assert_eq!(Class::default().query(), "");
//! // A host that named no scenario opens the first one offered; one it named stays, and the
//! // lab says the class does not offer it.
//! use mrtr_lab::state::Lab;
//! assert_eq!(class.open(Lab::open("deploy"), false).scenario, "voucher");
//! assert_eq!(class.open(Lab::open("expense"), true).scenario, "expense");
//! ```

use crate::share::{decode, encode};
use crate::state::Lab;
use mrtr_sim::scenarios;

/// The longest class code kept: a code is a label, not a document.
pub const MAX_CODE_LEN: usize = 64;

/// What an instructor set; the default hides nothing and offers every scenario.
#[derive(Debug, PartialEq, Default)]
pub struct Class {
    /// No hints: the challenges' "Show a hint", Fix-It's hint under each attack that got through.
    pub hide_hints: bool,
    /// No solutions: the challenges' "Give up" (which explains), the quick check's right
    /// answers and explanations (the score still reaches the host's events).
    pub hide_solutions: bool,
    /// The scenarios offered (ids, in the order given), when limited.
    pub scenarios: Option<Vec<&'static str>>,
    /// A class code, added to every event's xAPI statement.
    pub code: Option<String>,
}

impl Class {
    /// Reads `hide` (`hints`, `solutions`, separated by commas or spaces), `scenarios` (ids or
    /// aliases, comma-separated; unknown ones are left out) and `class` (the code, trimmed, at
    /// most [`MAX_CODE_LEN`] characters).
    /// One copy for every host: `lookup` is a trait object, not a generic.
    pub fn read(lookup: &mut dyn FnMut(&str) -> Option<String>) -> Class {
        let hide = lookup("hide").unwrap_or_default();
        let hidden = |what: &str| hide.split([',', ' ']).any(|word| word.trim() == what);
        let scenarios = lookup("scenarios").map(|list| {
            let mut ids: Vec<&'static str> = Vec::new();
            for id in list.split(',').filter_map(|name| scenarios::find(name.trim())).map(|s| s.id) {
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            ids
        });
        let code = lookup("class").map(|code| code.trim().chars().take(MAX_CODE_LEN).collect::<String>());
        Class {
            hide_hints: hidden("hints"),
            hide_solutions: hidden("solutions"),
            // A list naming no scenario the lab knows limits nothing.
            scenarios: scenarios.filter(|ids| !ids.is_empty()),
            code: code.filter(|code| !code.is_empty()),
        }
    }

    /// Whether the class is offered `scenario` (an id).
    pub fn offers(&self, scenario: &str) -> bool {
        self.scenarios.as_ref().is_none_or(|ids| ids.contains(&scenario))
    }

    /// The lab a host opens: `lab`, or the first scenario offered when the class limits them
    /// and the host `named` no scenario (so `lab` is the default one). A scenario the host
    /// named is never swapped for another, whose lab its lesson would not describe: the lab
    /// says the class does not offer it ([`crate::view`]).
    pub fn open(&self, lab: Lab, named: bool) -> Lab {
        match &self.scenarios {
            Some(ids) if !named => Lab::open(ids[0]),
            _ => lab,
        }
    }

    /// What is set as a URL's query, without its `?` (empty when nothing is set), as
    /// [`Class::read`] reads it and a lesson's `<meta name="mrtr-lab">` says it: `hide`,
    /// `scenarios`, `class`, where set.
    pub fn query(&self) -> String {
        let mut query = String::new();
        let mut add = |name: &str, value: &str| {
            if !query.is_empty() {
                query.push('&');
            }
            query.push_str(name);
            query.push('=');
            query.push_str(value);
        };
        match (self.hide_hints, self.hide_solutions) {
            (true, true) => add("hide", "hints,solutions"),
            (true, false) => add("hide", "hints"),
            (false, true) => add("hide", "solutions"),
            (false, false) => {}
        }
        if let Some(ids) = &self.scenarios {
            add("scenarios", &ids.join(","));
        }
        if let Some(code) = &self.code {
            add("class", &encode(code));
        }
        query
    }

    /// The [`query`](Class::query)'s parts, each `(name, value)` decoded: the attributes of a
    /// `<mrtr-lab>` that carries these settings.
    pub fn parts(&self) -> Vec<(String, String)> {
        let query = self.query();
        query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .map(|(name, value)| (name.to_owned(), decode(value)))
            .collect()
    }

    /// Reads a [`query`](Class::query) (a leading `?` allowed, names in any order).
    pub fn from_query(query: &str) -> Class {
        let pairs: Vec<(&str, &str)> =
            query.trim_start_matches('?').split('&').filter_map(|pair| pair.split_once('=')).collect();
        Class::read(&mut |name| {
            let value = pairs.iter().find(|(key, _)| key.trim() == name)?.1;
            Some(decode(&value.replace('+', " ")))
        })
    }
}
