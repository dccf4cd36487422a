//! Rule `url-noindex`: with `--check-urls`, a listed page that forbids indexing (`X-Robots-Tag` or `<meta name="robots">`).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// With `--check-urls`, reports a listed page that answers 200 but forbids indexing: an
    /// `X-Robots-Tag` header with `noindex` (or `none`) for Googlebot or every crawler, or a
    /// `<meta name="robots">` (or `googlebot`) with `noindex` in the page's head.
    ///
    /// ## Why is this bad?
    /// A sitemap asks for its pages to be indexed; `noindex` forbids it. Search Console reports
    /// "Submitted URL marked 'noindex'". One of the two is wrong: drafts, staging pages and
    /// search results often leak into generated sitemaps this way.
    ///
    /// ## Example
    /// ```text
    /// <loc>https://www.example.com/search?q=shoes</loc>
    /// HTTP/1.1 200 OK
    /// X-Robots-Tag: noindex
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// (the page is left out of the sitemap, or indexable)
    /// ```
    ///
    /// ## Fix
    /// Not fixable automatically: remove the page from the sitemap, or drop its `noindex`.
    ///
    /// ## References
    /// - Google Search Central, "Block Search indexing with noindex"
    /// - Google Search Central, "Robots meta tag, data-nosnippet, and X-Robots-Tag
    ///   specifications"
    pub static META = {
        name: "url-noindex",
        category: Http,
        severity: Warning,
        summary: "with --check-urls, a listed page is marked noindex",
    }
}

impl Rule for Check {}

/// The page at `url` says `noindex` through `how` (the header or tag, as served).
pub fn noindex(span: Range<usize>, url: &str, how: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("the page `{}` is marked noindex", shown(url)),
    )
    .with_label(format!("`{}`", shown(how)))
    .with_help("remove the page from the sitemap, or drop its `noindex` if it should be indexed")
}
