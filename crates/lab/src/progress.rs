//! A learner's progress: the challenges met and Fix-It passed, kept in the browser, and wiped
//! by a reset (a class changing groups).
//!
//! The record is one list of ids under [`DONE_KEY`], shared with the panels' module
//! (`web/probe/elements.js`): Fix-It adds `fix-it` and keeps the learner's code under
//! [`FIXIT_CODE_KEY`], and `<mrtr-progress>` carries the record to another browser by a
//! continue code, then says so with [`CHANGED_EVENT`], on which the challenges read it again.
//!
//! ```
//! let mut done = vec!["charge-less".to_owned()];
//! assert!(mrtr_lab::progress::mark(&mut done, "fix-it"));
//! assert!(!mrtr_lab::progress::mark(&mut done, "charge-less"));
//! assert_eq!(done, ["charge-less", "fix-it"]);
//! ```

/// Where the ids of what is done are kept (comma-separated).
pub const DONE_KEY: &str = "mrtr-lab-challenges";
/// Where Fix-It keeps the learner's code.
pub const FIXIT_CODE_KEY: &str = "mrtr-lab-fixit-code";
/// The event (bubbling, composed) the panels' module dispatches after it changed the record.
pub const CHANGED_EVENT: &str = "mrtr-lab:progress";

/// The ids done, in the order they were done, from the browser.
pub fn load() -> Vec<String> {
    let saved = crate::browser::stored(DONE_KEY).unwrap_or_default();
    let mut done = Vec::new();
    for id in saved.split(',').filter(|id| !id.is_empty()) {
        mark(&mut done, id);
    }
    done
}

/// Adds `id` to `done`; false if it was there already.
pub fn mark(done: &mut Vec<String>, id: &str) -> bool {
    let new = !done.iter().any(|d| d == id);
    if new {
        done.push(id.to_owned());
    }
    new
}

/// Keeps `done` in the browser.
pub fn save(done: &[String]) {
    crate::browser::store(DONE_KEY, &done.join(","));
}

/// Forgets everything: what is done and Fix-It's code.
pub fn reset() {
    crate::browser::forget(DONE_KEY);
    crate::browser::forget(FIXIT_CODE_KEY);
}
