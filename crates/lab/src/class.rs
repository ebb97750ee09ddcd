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
//! let lab = class.keep(mrtr_lab::state::Lab::open("expense"));
//! assert_eq!(lab.scenario, "voucher");
//! ```

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

    /// `lab`, or the first scenario offered when `lab`'s is not.
    pub fn keep(&self, lab: Lab) -> Lab {
        match &self.scenarios {
            Some(ids) if !self.offers(lab.scenario) => Lab::open(ids[0]),
            _ => lab,
        }
    }
}
