//! Rule `url-status`: with `--check-urls`, a listed page answering 4xx or 5xx (error) or a redirect (warning).

use std::ops::Range;

use super::chain_text;
use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic, Severity};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// With `--check-urls`, requests the pages a sitemap lists (all, or a deterministic sample
    /// with `--sample N --seed S`) and reports, at the `<loc>`, a page that answers 4xx or 5xx
    /// (an error) or a redirect (a warning: the message gives the chain), or that could not be
    /// fetched. Requests are polite: at most `--max-rps` per host (5 by default) and 4
    /// connections per host, `Retry-After` honoured on 429 and 503, and pages that the site's
    /// robots.txt disallows are never requested (`robots-blocked` reports them).
    ///
    /// ## Why is this bad?
    /// A sitemap should list only canonical pages that answer 200: Search Console reports
    /// "Submitted URL not found (404)", "Submitted URL has crawl issue" and "Page with
    /// redirect", and a sitemap full of them is trusted less.
    ///
    /// ## Example
    /// ```text
    /// <loc>https://www.example.com/old-page</loc>
    /// GET /old-page HTTP/1.1
    /// HTTP/1.1 404 Not Found
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// <loc>https://www.example.com/new-page</loc>
    /// GET /new-page HTTP/1.1
    /// HTTP/1.1 200 OK
    /// ```
    ///
    /// ## Fix
    /// Not fixable automatically: remove the page from the sitemap, or list the URL it redirects
    /// to.
    ///
    /// ## References
    /// - Google Search Central, "Page indexing report": "Not found (404)", "Page with redirect"
    /// - RFC 9110 §15 (status codes)
    pub static META = {
        name: "url-status",
        category: Http,
        severity: Error,
        summary: "with --check-urls, a listed page answers 4xx/5xx or redirects",
    }
}

impl Rule for Check {}

/// The page at `url` answered `status` (4xx or 5xx).
pub fn failed(span: Range<usize>, url: &str, status: u16, reason: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("the page `{}` answered {status} {reason}", shown(url)),
    )
    .with_label(format!("HTTP {status}"))
    .with_help("remove the page from the sitemap, or make it answer 200 OK")
}

/// The page redirected through `chain` to `last`.
pub fn redirected(span: Range<usize>, chain: &[(String, u16)], last: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("the page redirects: {}", chain_text(chain, last)),
    )
    .at_most(Severity::Warning)
    .with_label("redirects")
    .with_help(format!("list the final URL `{}` instead", shown(last)))
}

/// The page could not be fetched.
pub fn unreachable(span: Range<usize>, url: &str, problem: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("the page `{}` could not be fetched: {problem}", shown(url)),
    )
    .with_label("no answer")
    .with_help("make the page answer 200 OK, or remove it from the sitemap")
}
