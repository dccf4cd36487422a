//! Rule `duplicate-element`: `loc`, `lastmod`, `changefreq` or `priority` appears twice in one entry.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;

use crate::pipeline::model::{Child, ChildKind, Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::structure::segments;

declare_rule! {
    /// ## What it does
    /// Reports a second `<loc>`, `<lastmod>`, `<changefreq>` or `<priority>` in the same `<url>` or
    /// `<sitemap>`, and labels the first one. A second `<loc>` usually means a missing
    /// `</url><url>`, so the elements after it are not reported again as duplicates.
    ///
    /// ## Why is this bad?
    /// Each may appear at most once. Search Console reports "Invalid XML: too many tags", Yandex
    /// "Tag found more than once"; parsers keep the first or the last value, so which date or URL
    /// wins depends on the crawler. Two `<loc>` in one `<url>` usually means a closing `</url>` is
    /// missing.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/</loc>
    ///     <lastmod>2024-11-20</lastmod>
    ///     <lastmod>2024-11-21</lastmod>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/</loc>
    ///     <lastmod>2024-11-21</lastmod>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - `sitemap.xsd` (`tUrl` is a sequence of single elements)
    pub static META = {
        name: "duplicate-element",
        category: Structure,
        severity: Error,
        summary: "a `loc`, `lastmod`, `changefreq` or `priority` appears twice in one entry",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        // Most entries hold each field at most once: one pass over the kinds says so.
        let mut seen = 0u8;
        let repeated = entry.children.iter().any(|c| match c.kind {
            ChildKind::Field(f) => {
                let bit = 1 << f as u8;
                let again = seen & bit != 0;
                seen |= bit;
                again
            }
            _ => false,
        });
        if !repeated {
            return;
        }
        let source = sitemap.source;
        let parent = crate::diagnostic::shown(entry.element.qualified_name(source));
        for segment in segments(entry) {
            for i in segment.clone() {
                let child = &entry.children[i];
                let ChildKind::Field(field) = child.kind else {
                    continue;
                };
                // `<changefreq>` in a `<sitemap>` is reported by `unknown-element`, each one.
                if !entry.kind.allows(field) {
                    continue;
                }
                // A second `<loc>` starts a segment: compare it with those of the whole entry.
                let scope = if field == Field::Loc {
                    0..i
                } else {
                    segment.start..i
                };
                let same = |c: &&Child<'_>| c.kind == ChildKind::Field(field);
                let Some(first) = entry.children[scope.clone()].iter().find(same) else {
                    continue;
                };
                let earlier = entry.children[scope].iter().filter(same).count();
                let name = crate::diagnostic::shown(child.element.qualified_name(source));
                let value = |c: &Child<'_>| c.value.as_ref().map(|v| v.trimmed().to_string());
                let help = if field == Field::Loc {
                    format!(
                        "one `<{parent}>` describes one URL: if these are two pages, close the entry and open a new one between them (`</{parent}><{parent}>`); otherwise remove one"
                    )
                } else if value(child) == value(first) {
                    format!(
                        "remove one: both say `{}`",
                        value(child).unwrap_or_default()
                    )
                } else {
                    format!(
                        "keep one `<{name}>`: crawlers take either the first or the last value, so which one wins depends on the crawler"
                    )
                };
                cx.report_at(&META, child.element.name_span.clone(), |span| {
                    Diagnostic::new(&META, span, format!("duplicate `<{name}>` in `<{parent}>`"))
                        .with_label(format!("{} `<{name}>`", ordinal(earlier + 1)))
                        .with_secondary(
                            first.element.name_span.clone(),
                            format!("first `<{name}>` here"),
                        )
                        .with_help(help)
                });
            }
        }
    }
}

fn ordinal(n: usize) -> String {
    match n {
        2 => "second".into(),
        3 => "third".into(),
        4 => "fourth".into(),
        _ => format!("{n}th"),
    }
}
