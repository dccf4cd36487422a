//! Rule `unexpected-child-element`: an element inside `loc`, `lastmod`, `changefreq` or `priority`, which hold only text.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{is_xml_blank, Element, Entry, Field, Sitemap};
use crate::rule::{Context, Rule};

declare_rule! {
    /// ## What it does
    /// Reports child elements inside `<loc>`, `<lastmod>`, `<changefreq>` or `<priority>`. These
    /// hold a single text value; comments and CDATA sections are fine. The first element inside is
    /// reported; when the value is only inside it (`<loc><a>https://…</a></loc>`) that text is
    /// still checked as the value.
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

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let source = sitemap.source;
        for child in &entry.children {
            let Some(value) = &child.value else { continue };
            // The first element inside is enough: one misplaced tag is one mistake.
            let Some(inner) = child.element.node.children().find(|n| n.is_element()) else {
                continue;
            };
            let base = child.element.base();
            let inner = Element::new(inner, base, source);
            let parent = crate::diagnostic::shown(child.element.qualified_name(source));
            let name = crate::diagnostic::shown(inner.qualified_name(source));
            let text = value.trimmed();
            let direct_text = child
                .element
                .node
                .children()
                .any(|n| n.is_text() && !is_xml_blank(n.text().unwrap_or("")));
            let empty_inner = inner.node.first_child().is_none();
            let help = if Field::from_name(inner.local_name()).is_some() && direct_text {
                format!("is the end tag `</{parent}>` missing before `<{name}>`?")
            } else if empty_inner {
                format!(
                    "remove `{}`",
                    crate::diagnostic::shown(source.get(inner.span.clone()).unwrap_or(&name))
                )
            } else if !text.is_empty() && text.chars().count() <= 60 && !direct_text {
                format!("write only the value, without markup: `<{parent}>{text}</{parent}>`")
            } else {
                format!("write only the value inside `<{parent}>`, without markup")
            };
            cx.report_at(&META, inner.name_span.clone(), |span| {
                Diagnostic::new(
                    &META,
                    span,
                    format!("element `<{name}>` inside `<{parent}>`"),
                )
                .with_label("not allowed here")
                .with_secondary(
                    child.element.name_span.clone(),
                    format!("`<{parent}>` holds only text"),
                )
                .with_help(help)
            });
        }
    }
}
