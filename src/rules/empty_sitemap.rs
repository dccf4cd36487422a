//! Rule `empty-sitemap`: a `urlset` without any `url`, or a `sitemapindex` without any `sitemap`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{EntryKind, Kind, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports a `<urlset>` with no `<url>` entry, or a `<sitemapindex>` with no `<sitemap>` entry.
    ///
    /// ## Why is this bad?
    /// The schema requires at least one entry (`minOccurs` 1) and Search Console reports "Empty
    /// sitemap". An empty file usually means the generator ran without content (MkDocs without
    /// pages, a news sitemap with no article from the last two days), which is worth knowing before
    /// it ships.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
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
    /// Or do not publish (and do not list) the sitemap until it has entries.
    ///
    /// ## References
    /// - `sitemap.xsd`: `<xsd:element name="url" type="tUrl" maxOccurs="unbounded"/>` (at least one)
    /// - Google Search Console Sitemaps report: "Empty sitemap"
    pub static META = {
        name: "empty-sitemap",
        category: Structure,
        severity: Error,
        summary: "the sitemap or index has no entries",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        let wanted = match sitemap.kind {
            Kind::UrlSet => EntryKind::Url,
            Kind::Index => EntryKind::Sitemap,
            Kind::Other => return,
        };
        if sitemap.entries.iter().any(|e| e.kind == wanted) {
            return;
        }
        let root = sitemap.root.local_name();
        let entry = wanted.name();
        cx.report(
            Diagnostic::new(
                &META,
                sitemap.root.name_span.clone(),
                format!("`{root}` has no `<{entry}>` entry"),
            )
            .with_help(format!(
                "add at least one `<{entry}>` with a `<loc>`, or do not publish an empty file"
            )),
        );
    }
}
