//! Rule `internal-error`: the checker itself failed on this file (a bug; reported instead of crashing).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reported when sitemap-lint hits an internal error (a panic) while checking a file. The file
    /// is reported as not checked, the other files are still checked, and the exit code is 2.
    ///
    /// ## Why is this bad?
    /// It is a bug in sitemap-lint, not in your file: please report it with the file attached.
    ///
    /// ## Example
    /// None: any input that triggers it is a bug to fix.
    ///
    /// Use instead:
    /// Nothing to change in the sitemap.
    ///
    /// ## References
    /// - README, "Exit codes"
    pub static META = {
        name: "internal-error",
        category: Internal,
        severity: Error,
        summary: "sitemap-lint failed on this file (a bug in the checker)",
    }
}

impl Rule for Check {}

/// A panic while checking the file, with what it said.
pub fn diagnostic(what: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        0..0,
        "internal error: sitemap-lint failed while checking this file",
    )
    .with_note(format!("panic: {what}"))
    .with_help(
        "this is a bug in sitemap-lint, not in the file; please report it with the file attached",
    )
}
