//! What every handler of the class server shares, and how the class reads itself: its
//! settings and the activity its statements are about.

use crate::bounds::Bounds;
use crate::live::Live;
use crate::store::Store;
use mrtr_lab::class::Class;

/// What every handler shares.
#[derive(Debug)]
pub struct ClassState {
    /// The records.
    pub store: Store,
    /// The class's code.
    pub code: String,
    /// Every open page.
    pub live: Live,
    /// The passcode students type beside the class code, if the class has one.
    pub passcode: Option<String>,
    /// What a student may do, and how often.
    pub bounds: Bounds,
}

impl ClassState {
    /// A class served from `store`, with the default bounds and no passcode.
    pub fn new(store: Store, code: String, live: Live) -> ClassState {
        ClassState { store, code, live, passcode: None, bounds: Bounds::default() }
    }
}

/// The class's settings, read as a lesson's meta element writes them (`hide=…&scenarios=…`),
/// without a class code: the class's own code is the one its pages carry.
pub fn settings_of(text: &str) -> Class {
    Class { code: None, ..Class::from_query(text) }
}

/// The activity IRI of a class's statements (the prefix of their object ids; the class's lab
/// page gives its element the same).
pub fn activity(code: &str) -> String {
    format!("urn:mrtr-lab:class:{code}")
}

/// The real clock as the records keep it: ms since the epoch.
pub(crate) fn now_ms() -> i64 {
    i64::try_from(mrtr::clock::now_ms()).unwrap_or(i64::MAX)
}
