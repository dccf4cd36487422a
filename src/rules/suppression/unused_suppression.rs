//! Rule `unused-suppression`: a name in a suppression comment that suppressed no finding.

use crate::declare_rule;
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports each rule or category named in a `<!-- sitemap-lint: allow(…) -->` comment that
    /// suppressed nothing in the element that follows (or, before the root element, in the file).
    /// Names whose rules are all turned off by the configuration are not reported: nothing could be
    /// suppressed there.
    ///
    /// ## Why is this bad?
    /// Stale suppressions pile up after the sitemap is fixed, and then silently hide the next real
    /// problem of that kind in the same element. The rule is applied by the engine after all other
    /// rules; turn it off in `sitemap-lint.toml` or with `--allow unused-suppression`, not with a
    /// comment.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <!-- sitemap-lint: allow(loc-fragment) -->
    ///   <url><loc>https://www.example.com/docs</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/docs</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - docs/configuration.md, "Inline suppression"
    /// - ruff `RUF100` (unused `noqa` directive)
    pub static META = {
        name: "unused-suppression",
        category: Suppression,
        severity: Warning,
        summary: "a name in a suppression comment that suppressed nothing",
    }
}

/// Reported by the engine (see `suppress.rs`), after every other rule.
impl Rule for Check {}
