//! `--fail-on`, as `mrtr probe` and `mrtr lint` both take it: the least grade of finding that
//! makes the command exit 1.
//!
//! ```
//! use mrtr::fail_on::FailOn;
//! use mrtr_probe::Grade;
//! assert_eq!(FailOn::Should.least(), Grade::Should);
//! ```

use mrtr_probe::Grade;

/// The least grade that fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum FailOn {
    /// A MUST finding.
    #[default]
    Must,
    /// A MUST or SHOULD finding.
    Should,
    /// Any finding.
    Note,
}

impl FailOn {
    /// The grade it names.
    pub fn least(self) -> Grade {
        match self {
            FailOn::Must => Grade::Must,
            FailOn::Should => Grade::Should,
            FailOn::Note => Grade::Note,
        }
    }
}
