//! Rule `loc-invalid`: `<loc>` is not an absolute `http`/`https` URL per RFC 3986.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Checks every `<loc>` (of pages and of child sitemaps) against the RFC 3986 grammar for an
    /// absolute `http` or `https` URL, with its own parser (no silent repair): empty values, relative
    /// paths, a missing or misspelled scheme (`htp://`, `https//`), other schemes (`ftp:`,
    /// `javascript:`), spaces and other whitespace, `"`, backslashes, `<` `>` `{` `}` `|` `^` and
    /// backquotes, `[` `]` outside an IPv6 host, control characters, `%` not followed by two hex
    /// digits, a missing or malformed host, and a bad port. Each problem is underlined exactly and
    /// the help shows the corrected URL where it can be derived.
    ///
    /// Non-ASCII characters, fragments and credentials are valid and are reported by
    /// `loc-not-ascii`, `loc-fragment` and `loc-credentials`.
    ///
    /// ## Why is this bad?
    /// Search Console reports "Invalid URL" ("unsupported characters, spaces, or other characters
    /// such as quotes, or … incorrectly formatted (for example, htp://)") and "URLs not followed"
    /// for relative URLs; the entry is dropped. Lenient URL libraries "fix" some of these in
    /// different ways, so different crawlers index different URLs.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/summer sale</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/summer%20sale</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - RFC 3986 (URI generic syntax), §3 and Appendix A (ABNF)
    /// - sitemaps.org protocol, `<loc>`: "This URL must begin with the protocol (such as http)"; "Entity escaping": URLs must follow RFC 3986
    pub static META = {
        name: "loc-invalid",
        category: Url,
        severity: Error,
        summary: "`<loc>` is not an absolute http(s) URL per RFC 3986",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Loc) else {
            return;
        };
        for problem in value.url_problems().iter().filter(|p| p.kind.is_error()) {
            let span = if value.trimmed().is_empty() {
                value.span(sitemap.source)
            } else {
                value.source_range_in_trimmed(sitemap.source, problem.range.clone())
            };
            cx.report(
                Diagnostic::new(&META, span, problem.message.clone())
                    .with_help_opt(problem.help.clone()),
            );
        }
    }
}
