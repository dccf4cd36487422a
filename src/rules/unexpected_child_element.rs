//! Rule `unexpected-child-element`: an element inside `loc`, `lastmod`, `changefreq` or `priority`, which hold only text.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Entry, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports child elements inside `<loc>`, `<lastmod>`, `<changefreq>` or `<priority>`. These
    /// hold a single text value; comments and CDATA sections are fine.
    ///
    /// ## Why is this bad?
    /// The schema gives them simple (text-only) types. Yandex reports "Tag cannot contain other
    /// tags". Usually HTML leaked into the value (`<loc><a href="…">…</a></loc>`) or a closing tag is
    /// missing.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc><a>https://www.example.com/</a></loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - `sitemap.xsd`: `tLoc`, `tLastmod`, `tChangeFreq`, `tPriority` are simple types
    pub static META = {
        name: "unexpected-child-element",
        category: Structure,
        severity: Error,
        summary: "an element inside a text-only element such as `<loc>`",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for child in &entry.children {
            let Some(value) = &child.value else { continue };
            let parent = child.element.local_name();
            if let Some(inner) = value.element.node.children().find(|n| n.is_element()) {
                let r = inner.range();
                let base = child.element.span.start - child.element.node.range().start;
                let start = r.start + base;
                let name_len = sitemap.source[start + 1..]
                    .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
                    .unwrap_or(0);
                let inner_name = inner.tag_name().name();
                cx.report(
                    Diagnostic::new(
                        &META,
                        start + 1..start + 1 + name_len,
                        format!("`<{inner_name}>` is not allowed inside `<{parent}>`"),
                    )
                    .with_label("an element")
                    .with_secondary(child.element.name_span.clone(), format!("`<{parent}>` holds text only"))
                    .with_help(format!(
                        "put only the value inside `<{parent}>` (no markup); check for a missing closing tag"
                    )),
                );
            }
        }
    }
}
