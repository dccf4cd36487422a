//! Rule `hreflang-href-invalid`: an `<xhtml:link>` whose `href` is missing or not an absolute http(s) URL.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::links;
use crate::pipeline::model::{Entry, Sitemap};
use crate::pipeline::source::on_one_line;
use crate::rule::{Context, Rule};
use crate::values::text::trim_xml;
use crate::values::uri::{self, ProblemKind, Repair};

declare_rule! {
    /// ## What it does
    /// Checks the `href` of every `<xhtml:link>` inside a `<url>` with the same URL rules as
    /// `<loc>` (see `loc-invalid`): it must be present and an absolute `http` or `https` URL per
    /// RFC 3986. The first error is underlined inside the value, and the help shows the corrected
    /// URL when it can be derived (a relative URL is completed with the scheme and host of the
    /// file's valid `<loc>`s). App deep links (`android-app://`, `ios-app://`), which Google's
    /// retired App Indexing read from sitemaps, are reported as such.
    ///
    /// ## Why is this bad?
    /// Google needs the fully-qualified URL of each alternate ("Alternate URLs must be fully
    /// qualified, including the transport method"); an alternate it cannot resolve is dropped,
    /// and with it the return link its cluster needs.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="/en/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// As for `<loc>` (see `loc-invalid`), one problem at a time: spaces and characters not
    /// allowed in a path, query or fragment percent-encoded is a safe fix; a misspelled scheme,
    /// a backslash, a stray `%` and the other readings are unsafe ones. No fix for a missing or
    /// empty `href`, a relative URL or an app link, a problem without a derivable correction, nor
    /// where the attribute is not written as it reads (a character reference such as `&#32;`).
    ///
    /// ## References
    /// - Google Search Central, "Tell Google about localized versions of your page": "Alternate URLs must be fully qualified, including the transport method (http/https)"
    /// - RFC 3986 (URI generic syntax)
    pub static META = {
        name: "hreflang-href-invalid",
        category: Url,
        severity: Error,
        fix: Mixed,
        summary: "an `<xhtml:link>` `href` is missing or not an absolute http(s) URL",
    }
}

/// Clean `href` values of one entry remembered, at most.
const CLEAN_REMEMBERED: usize = 8;

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !links::has_links(entry) {
            return;
        }
        let source = sitemap.source;
        // The URL check is the costly part, and an entry usually lists the same URL more than
        // once (its own `<loc>`, whose check is cached, and again as `x-default`): a value
        // already found clean is not checked again.
        let loc = entry.loc();
        let loc_is_clean = |value: &str| {
            loc.is_some_and(|l| {
                l.trimmed() == value && !l.url_problems().iter().any(|p| p.kind.is_error())
            })
        };
        let mut clean = [""; CLEAN_REMEMBERED];
        let mut remembered = 0;
        for link in links::links(entry) {
            // Named only in a finding.
            let name = || crate::diagnostic::shown(link.element.qualified_name(source));
            let Some(href) = &link.href() else {
                cx.report_at(&META, link.element.name_span.clone(), |span| {
                    let name = name();
                    Diagnostic::new(&META, span, format!("`<{name}>` has no `href` attribute"))
                        .with_label("no URL for this alternate")
                        .with_help(format!(
                            "add the absolute URL of the alternate page: `<{name} rel=\"alternate\" hreflang=\"…\" href=\"https://…\"/>`"
                        ))
                });
                continue;
            };
            let value = trim_xml(href.value);
            if clean[..remembered].contains(&value)
                || loc_is_clean(value)
                || cx.is_known_clean_url(value)
            {
                continue;
            }
            let lead = href.value.len()
                - href
                    .value
                    .trim_start_matches(crate::pipeline::model::is_xml_space)
                    .len();
            let problems = uri::check_http_url(value);
            if problems.is_empty() {
                cx.remember_clean_url(value);
            }
            let Some(first) = problems.iter().find(|p| p.kind.is_error()) else {
                if let Some(slot) = clean.get_mut(remembered) {
                    *slot = value;
                    remembered += 1;
                }
                continue;
            };
            if let Some(d) = crate::rules::placeholder_finding(&META, value, "`href`", "URL", |r| {
                href.source_range(source, r.start + lead..r.end + lead)
            }) {
                cx.report(d);
                continue;
            }
            if first.kind == ProblemKind::Empty {
                cx.report_at(&META, href.span.start.saturating_sub(1)..href.span.end + 1, |span| Diagnostic::new(&META, span, "empty `href`")
                        .with_label("no URL for this alternate")
                        .with_help("write the absolute `http` or `https` URL of the alternate page, or remove the element"),
                );
                continue;
            }
            if links::is_app_link(value) {
                let end = value.find(':').unwrap_or(0);
                cx.report_at(&META, href.source_range(source, lead..lead + end), |span| Diagnostic::new(
                        &META,
                        span,
                        format!("app deep link `{value}` as an alternate"),
                    )
                    .with_label("not a web URL")
                    .with_help("Google no longer reads app links from sitemaps (App Indexing was retired): remove this element, and declare app links in the app (Android App Links, iOS Universal Links)"),
                );
                continue;
            }
            let problems = if matches!(
                first.kind,
                ProblemKind::Relative | ProblemKind::MissingScheme
            ) {
                uri::check_http_url_with_base(value, sitemap.site_origin.as_deref())
            } else {
                problems
            };
            let Some(first) = problems.into_iter().find(|p| p.kind.is_error()) else {
                continue;
            };
            let span = href.source_range(source, first.range.start + lead..first.range.end + lead);
            cx.report_at(&META, on_one_line(source, span), |span| {
                // Only where the attribute is written as it reads (`source_range` falls back to
                // the whole value otherwise).
                let fix = first.repair.as_ref().and_then(|repair| {
                    if source.get(href.span.clone()) != Some(href.value) {
                        return None;
                    }
                    let at = href.span.start + lead;
                    let edit = Edit::replace(
                        at + repair.range.start..at + repair.range.end,
                        repair.with.clone(),
                    );
                    let message = Repair::describe(value, &[repair]);
                    Some(Fix::safe_if(repair.certain, message, vec![edit]))
                });
                let name = name();
                Diagnostic::new(
                    &META,
                    span,
                    format!(
                        "invalid `href` on `<{name}>`: {}",
                        first.message.replace("`<loc>`", "`href`")
                    ),
                )
                .with_label(match first.kind {
                    ProblemKind::Relative
                    | ProblemKind::MissingScheme
                    | ProblemKind::UnsupportedScheme => {
                        "the alternate needs an absolute http(s) URL"
                    }
                    _ => "not valid in a URL",
                })
                .with_help_opt(first.help.map(|h| h.replace("`<loc>`", "`href`")))
                .with_fix_opt(fix)
            });
        }
    }
}

#[cfg(test)]
mod tests {
    fn fixed(href: &str) -> Option<(String, &'static str, String)> {
        let entry = format!(
            r#"<loc>https://www.example.com/</loc><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="de" href="{href}"/>"#
        );
        crate::test_fixes::fix_entry(&entry, "hreflang-href-invalid").map(|(text, how, message)| {
            let value = text.split_once("href=\"").unwrap().1;
            (value.split_once('"').unwrap().0.to_string(), how, message)
        })
    }

    #[test]
    fn hrefs_are_fixed_like_loc() {
        assert_eq!(
            crate::test_fixes::expect_fix(
                fixed("https://www.example.com/de/über uns"),
                "https://www.example.com/de/über%20uns",
                "safe"
            ),
            "replace ` ` with `%20`"
        );
        crate::test_fixes::expect_fix(
            fixed(" htp://www.example.com/de/"),
            " http://www.example.com/de/",
            "unsafe",
        );
        assert_eq!(fixed("/de/"), None);
        assert_eq!(fixed("https://www.example.com/de/a&#32;b"), None);
    }
}
