//! Rule `entry-kind-mismatch`: a `url` inside a `sitemapindex`, or a `sitemap` inside a `urlset`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Element, EntryKind, Kind, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports a `<sitemap>` entry in a `<urlset>` or a `<url>` entry in a `<sitemapindex>`. When
    /// every entry is of the other kind, the root is what is wrong, and it is reported once.
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

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        let (expected, other_root) = match sitemap.kind {
            Kind::UrlSet => (EntryKind::Url, "sitemapindex"),
            Kind::Index => (EntryKind::Sitemap, "urlset"),
            Kind::Other => return,
        };
        let source = sitemap.source;
        let root = sitemap.root.qualified_name(source);
        let wrong: Vec<&Element<'_>> = sitemap
            .entries
            .iter()
            .filter(|e| EntryKind::of(e) != expected)
            .collect();
        let Some(first) = wrong.first() else { return };
        let found = EntryKind::of(first).name();
        if wrong.len() == sitemap.entries.len() {
            // Every entry is of the other kind: the root is what is wrong.
            let what = match expected {
                EntryKind::Url => "a sitemap index",
                EntryKind::Sitemap => "a sitemap",
            };
            let all = if wrong.len() == 1 {
                format!("its only entry is a `<{found}>`")
            } else if wrong.len() == 2 {
                format!("both entries are `<{found}>`")
            } else {
                format!("all {} entries are `<{found}>`", wrong.len())
            };
            cx.report(
                Diagnostic::new(
                    &META,
                    sitemap.root.name_span.clone(),
                    format!("`<{root}>` holds `<{found}>` entries: this file is {what}"),
                )
                .with_label(format!("should be `<{other_root}>`"))
                .with_secondary(first.name_span.clone(), all)
                .with_help(format!(
                    "rename the root to `<{other_root}>` (start and end tags)"
                )),
            );
            return;
        }
        for entry in wrong {
            let found = EntryKind::of(entry).name();
            cx.report(
                Diagnostic::new(
                    &META,
                    entry.name_span.clone(),
                    format!("`<{found}>` entry in a `<{root}>`"),
                )
                .with_label(format!("expected `<{}>`", expected.name()))
                .with_secondary(
                    sitemap.root.name_span.clone(),
                    format!("this file is a `<{root}>`"),
                )
                .with_help(format!(
                    "`<{found}>` entries belong in a `<{other_root}>`: move this one to a separate file"
                )),
            );
        }
    }
}
