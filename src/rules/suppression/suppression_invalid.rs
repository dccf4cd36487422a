//! Rule `suppression-invalid`: a `<!-- sitemap-lint: allow(…) -->` comment that cannot work (malformed, unknown name, or not before an element).

use crate::declare_rule;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports suppression comments that do not do what they seem to: a malformed directive (it
    /// must read `sitemap-lint: allow(name, …)`), a name that is neither a rule nor a category (with
    /// the closest name), a directive that is not followed by an element (only whitespace, or other
    /// directives, may stand between them), and a directive naming `suppression-invalid` or
    /// `unused-suppression`, which comments cannot silence.
    ///
    /// ## Why is this bad?
    /// A suppression that does not apply leaves the finding it was meant to hide in place, or hides
    /// nothing after the rule was renamed; the mistake is silent unless it is reported. The rule is
    /// applied by the engine after all other rules; turn it off in `sitemap-lint.toml` or with
    /// `--allow suppression-invalid`, not with a comment.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <!-- sitemap-lint: allow(loc-fragmnt) -->
    ///   <url><loc>https://www.example.com/docs#install</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <!-- sitemap-lint: allow(loc-fragment) -->
    ///   <url><loc>https://www.example.com/docs#install</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - docs/configuration.md, "Inline suppression"
    /// - selene `invalid_lint_filter`; ruff `RUF102` (invalid rule code in `# noqa`)
    pub static META = {
        name: "suppression-invalid",
        category: Suppression,
        severity: Warning,
        summary: "a suppression comment that is malformed, names an unknown rule, or precedes no element",
    }
}

/// Reported by the engine (see `suppress.rs`), after every other rule.
impl Rule for Check {}
