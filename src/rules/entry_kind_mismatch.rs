//! Rule `entry-kind-mismatch`: a `url` inside a `sitemapindex`, or a `sitemap` inside a `urlset`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Entry, EntryKind, Kind, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports a `<sitemap>` entry in a `<urlset>` or a `<url>` entry in a `<sitemapindex>`.
    ///
    /// ## Why is this bad?
    /// A sitemap lists pages in `<url>` elements; a sitemap index lists sitemaps in `<sitemap>`
    /// elements. Mixing them is invalid under the schema and the misplaced entries are ignored or
    /// the file rejected. It usually means an index and a sitemap were merged by a generator.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <sitemap><loc>https://www.example.com/sitemap-posts.xml</loc></sitemap>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <sitemap><loc>https://www.example.com/sitemap-posts.xml</loc></sitemap>
    /// </sitemapindex>
    /// ```
    ///
    /// ## References
    /// - sitemaps.org protocol, "Using Sitemap index files"
    /// - `sitemap.xsd` (`urlset` holds `url`), `siteindex.xsd` (`sitemapindex` holds `sitemap`)
    pub static META = {
        name: "entry-kind-mismatch",
        category: Structure,
        severity: Error,
        summary: "`url` in a sitemap index, or `sitemap` in a urlset",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let (expected, root, other_root) = match sitemap.kind {
            Kind::UrlSet => (EntryKind::Url, "urlset", "sitemapindex"),
            Kind::Index => (EntryKind::Sitemap, "sitemapindex", "urlset"),
            Kind::Other => return,
        };
        if entry.kind == expected {
            return;
        }
        let found = entry.kind.name();
        cx.report(
            Diagnostic::new(
                &META,
                entry.element.name_span.clone(),
                format!("`<{found}>` is not allowed in a `<{root}>`"),
            )
            .with_label(format!("expected `<{}>`", expected.name()))
            .with_secondary(sitemap.root.name_span.clone(), format!("this file is a `<{root}>`"))
            .with_help(format!(
                "`<{found}>` entries belong in a `<{other_root}>`; move them to a separate file"
            )),
        );
    }
}
