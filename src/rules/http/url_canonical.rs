//! Rule `url-canonical`: with `--check-urls`, a listed page whose `rel=canonical` points elsewhere.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// With `--check-urls`, reports a listed page whose canonical URL (a `Link: <…>;
    /// rel="canonical"` header, else the head's `<link rel="canonical" href="…">`, resolved
    /// against the page's URL) is another URL than the one listed.
    ///
    /// ## Why is this bad?
    /// A sitemap should list canonical URLs only. Listing a duplicate whose canonical is
    /// elsewhere sends Google a mixed signal: Search Console reports "Duplicate, submitted URL
    /// not selected as canonical" or "Alternate page with proper canonical tag".
    ///
    /// ## Example
    /// ```text
    /// <loc>https://www.example.com/shoes?color=red</loc>
    /// <link rel="canonical" href="https://www.example.com/shoes">
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// <loc>https://www.example.com/shoes</loc>
    /// ```
    ///
    /// ## Fix
    /// Not fixable automatically: list the canonical URL instead, or correct the page's
    /// canonical link.
    ///
    /// ## References
    /// - Google Search Central, "How to specify a canonical URL with rel="canonical" and other
    ///   methods"
    /// - RFC 6596 (the canonical link relation)
    pub static META = {
        name: "url-canonical",
        category: Http,
        severity: Warning,
        summary: "with --check-urls, a listed page's rel=canonical points elsewhere",
    }
}

impl Rule for Check {}

/// The page listed as `url` names `canonical` as its canonical URL.
pub fn elsewhere(span: Range<usize>, url: &str, canonical: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!(
            "the page `{}` names another canonical URL: `{}`",
            shown(url),
            shown(canonical)
        ),
    )
    .with_label("not the canonical URL")
    .with_help(format!(
        "list the canonical URL `{}` instead",
        shown(canonical)
    ))
}
