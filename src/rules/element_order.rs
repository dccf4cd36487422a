//! Rule `element-order`: the children of an entry are not in the order loc, lastmod, changefreq, priority, extensions.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{ChildKind, Entry, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Checks the order of the children of `<url>`: `<loc>`, `<lastmod>`, `<changefreq>`,
    /// `<priority>`, then extension elements (`image:image`, `xhtml:link`, …); and of `<sitemap>`:
    /// `<loc>`, `<lastmod>`, then extensions. The element that comes too late is reported, and the
    /// element it should precede is labelled.
    ///
    /// ## Why is this bad?
    /// The protocol's schema defines the children as an ordered sequence. Schema validators, and
    /// search engines that validate, reject the entry; most crawlers accept it, so the mistake
    /// survives until someone validates.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/</loc>
    ///     <priority>0.8</priority>
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
    ///     <priority>0.8</priority>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - `sitemap.xsd`: `tUrl` is `<xsd:sequence>` loc, lastmod, changefreq, priority, `##other`
    /// - `siteindex.xsd`: `tSitemap` is `<xsd:sequence>` loc, lastmod, `##other`
    pub static META = {
        name: "element-order",
        category: Structure,
        severity: Error,
        summary: "entry children out of order (loc, lastmod, changefreq, priority, then extensions)",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for (i, child) in entry.children.iter().enumerate() {
            let ChildKind::Field(field) = child.kind else {
                continue;
            };
            // The first earlier sibling that must come after this one.
            let later = entry.children[..i].iter().find(|c| match c.kind {
                ChildKind::Field(f) => f > field,
                ChildKind::Foreign => true,
                ChildKind::Unknown => false,
            });
            let Some(later) = later else { continue };
            let name = field.name();
            let other = later.element.qualified_name(sitemap.source);
            let (message, help) = match later.kind {
                ChildKind::Foreign => (
                    format!("`<{name}>` comes after the extension element `<{other}>`"),
                    format!("move `<{name}>` before the extension elements: the sitemap elements come first"),
                ),
                _ => (
                    format!("`<{name}>` must come before `<{other}>`"),
                    format!("move `<{name}>` above `<{other}>` (order: loc, lastmod, changefreq, priority)"),
                ),
            };
            cx.report(
                Diagnostic::new(&META, child.element.name_span.clone(), message)
                    .with_label("out of order")
                    .with_secondary(later.element.name_span.clone(), format!("`<{other}>` is here"))
                    .with_help(help),
            );
        }
    }
}
