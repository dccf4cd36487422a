//! Rule `loc-fragment`: `<loc>` has a `#fragment`, which crawlers ignore.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::uri::ProblemKind;

declare_rule! {
    /// ## What it does
    /// Reports a `#fragment` at the end of `<loc>`, such as `https://example.com/docs#install`.
    ///
    /// ## Why is this bad?
    /// A fragment is never sent to the server: crawlers strip it and fetch the page without it, so
    /// `page#a` and `page#b` are the same URL listed twice. Single-page apps that route with `#!` are
    /// not crawlable through sitemaps this way.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/docs#install</loc></url>
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
    /// - RFC 3986 §3.5 (fragments are resolved by the user agent, not sent to the server)
    pub static META = {
        name: "loc-fragment",
        category: Url,
        severity: Warning,
        summary: "`<loc>` has a `#fragment`, which crawlers drop",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Loc) else {
            return;
        };
        for p in value
            .url_problems()
            .iter()
            .filter(|p| p.kind == ProblemKind::Fragment)
        {
            cx.report_at(
                &META,
                value.source_range_in_trimmed(sitemap.source, p.range.clone()),
                |span| {
                    Diagnostic::new(&META, span, p.message.clone()).with_help_opt(p.help.clone())
                },
            );
        }
    }
}
