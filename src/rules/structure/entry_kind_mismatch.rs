//! Rule `entry-kind-mismatch`: a `url` inside a `sitemapindex`, or a `sitemap` inside a `urlset`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use std::ops::Range;

use crate::pipeline::model::{Entry, EntryKind, Kind, Sitemap};
use crate::rule::{Collector, Context, Rule, MAX_REPORTS_PER_RULE};

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

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        let expected = match sitemap.kind {
            Kind::UrlSet => EntryKind::Url,
            Kind::Index => EntryKind::Sitemap,
            Kind::Other => return None,
        };
        Some(Box::new(Wrong {
            expected,
            spans: Vec::new(),
            count: 0,
        }))
    }
}

/// The entries of the other kind: whether all of them are is known only at the end.
struct Wrong {
    expected: EntryKind,
    /// Name spans of the first [`MAX_REPORTS_PER_RULE`].
    spans: Vec<Range<usize>>,
    count: usize,
}

impl<'a> Collector<'a> for Wrong {
    fn entry(&mut self, _sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        if entry.kind == self.expected {
            return;
        }
        self.count += 1;
        if self.spans.len() < MAX_REPORTS_PER_RULE {
            self.spans.push(entry.element.name_span.clone());
        }
    }

    fn finish(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        let Some(first) = self.spans.first() else {
            return;
        };
        let expected = self.expected;
        let (found, other_root) = match expected {
            EntryKind::Url => (EntryKind::Sitemap.name(), "sitemapindex"),
            EntryKind::Sitemap => (EntryKind::Url.name(), "urlset"),
        };
        let root = sitemap.root.qualified_name(sitemap.source);
        if self.count == sitemap.entry_count {
            // Every entry is of the other kind: the root is what is wrong.
            let what = match expected {
                EntryKind::Url => "a sitemap index",
                EntryKind::Sitemap => "a sitemap",
            };
            let all = if self.count == 1 {
                format!("its only entry is a `<{found}>`")
            } else if self.count == 2 {
                format!("both entries are `<{found}>`")
            } else {
                format!("all {} entries are `<{found}>`", self.count)
            };
            cx.report(
                Diagnostic::new(
                    &META,
                    sitemap.root.name_span.clone(),
                    format!("`<{root}>` holds `<{found}>` entries: this file is {what}"),
                )
                .with_label(format!("should be `<{other_root}>`"))
                .with_secondary(first.clone(), all)
                .with_help(format!(
                    "rename the root to `<{other_root}>` (start and end tags)"
                )),
            );
            return;
        }
        for span in &self.spans {
            cx.report(
                Diagnostic::new(
                    &META,
                    span.clone(),
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
        cx.count_unreported(&META, self.count - self.spans.len());
    }
}
