//! Rule `duplicate-element`: `loc`, `lastmod`, `changefreq` or `priority` appears twice in one entry.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{ChildKind, Entry, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports a second `<loc>`, `<lastmod>`, `<changefreq>` or `<priority>` in the same `<url>` or
    /// `<sitemap>`, and labels the first one.
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

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_entry(&self, _sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for (i, child) in entry.children.iter().enumerate() {
            let ChildKind::Field(field) = child.kind else {
                continue;
            };
            let Some(first) = entry.children[..i]
                .iter()
                .find(|c| c.kind == ChildKind::Field(field))
            else {
                continue;
            };
            let name = field.name();
            let parent = entry.kind.name();
            let help = if field == crate::model::Field::Loc {
                format!("one `<{parent}>` describes one URL: is a `</{parent}><{parent}>` missing between them?")
            } else {
                format!("keep one `<{name}>`")
            };
            cx.report(
                Diagnostic::new(
                    &META,
                    child.element.name_span.clone(),
                    format!("`<{name}>` appears more than once in `<{parent}>`"),
                )
                .with_label("duplicate")
                .with_secondary(first.element.name_span.clone(), "first defined here")
                .with_help(help),
            );
        }
    }
}
