//! Rule `robots-blocked`: a `<loc>` that robots.txt disallows for Googlebot.

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic};
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::robots::Verdict;

declare_rule! {
    /// ## What it does
    /// Checks every `<loc>` against a robots.txt the way Googlebot reads it: the groups naming
    /// `Googlebot` (else those for `*`), the longest matching `Allow` or `Disallow` pattern
    /// winning, `Allow` winning a tie, `*` matching any characters and `$` the end. A live check
    /// (`sitemap-lint check https://…`) uses the site's own robots.txt; `--robots PATH|URL`
    /// gives one for files on disk (a build folder before deployment). The label names the
    /// robots.txt line that blocks the URL. A robots.txt fetched from a site applies only to the
    /// URLs on its own scheme, host and port.
    ///
    /// ## Why is this bad?
    /// A sitemap asks for its URLs to be crawled, robots.txt forbids it: Search Console reports
    /// "Submitted URL blocked by robots.txt" (or "Sitemap contains URLs which are blocked by
    /// robots.txt") and the pages are not crawled. One of the two is wrong.
    ///
    /// ## Example
    /// ```text
    /// robots.txt:   User-agent: *
    ///               Disallow: /drafts/
    /// sitemap.xml:  <url><loc>https://www.example.com/drafts/new-post</loc></url>
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// sitemap.xml:  <url><loc>https://www.example.com/blog/new-post</loc></url>
    /// ```
    ///
    /// ## Fix
    /// Not fixable automatically: remove the URL from the sitemap, or allow it in robots.txt.
    ///
    /// ## References
    /// - RFC 9309 (Robots Exclusion Protocol)
    /// - Google Search Central, "How Google interprets the robots.txt specification"
    pub static META = {
        name: "robots-blocked",
        category: Http,
        severity: Warning,
        summary: "a `<loc>` is disallowed for Googlebot by robots.txt",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(robots) = cx.settings.robots.as_deref() else {
            return;
        };
        let Some(loc) = entry.loc() else { return };
        let url = loc.trimmed();
        if url.is_empty() {
            return;
        }
        let Verdict::Disallowed(rule) = robots.verdict(url) else {
            return;
        };
        cx.report(
            Diagnostic::new(
                &META,
                loc.span(sitemap.source),
                format!("`{}` is disallowed for Googlebot by robots.txt", shown(url)),
            )
            .with_label(format!(
                "blocked by `{}` ({} line {})",
                shown(&rule.text),
                robots.name,
                rule.line_number
            ))
            .with_help("remove this URL from the sitemap, or allow it in robots.txt"),
        );
    }
}
