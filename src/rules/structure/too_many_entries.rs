//! Rule `too-many-entries`: more than 50,000 `url` entries in a sitemap or `sitemap` entries in an index.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::values::text::group;
use std::ops::Range;

use crate::pipeline::model::{Entry, Kind, Sitemap, Syntax, MAX_ENTRIES};
use crate::rule::{Collector, Context, Rule};

declare_rule! {
    /// ## What it does
    /// Reports the first entry over the protocol's limit: the 50,001st `<url>` of a sitemap or the
    /// 50,001st `<sitemap>` of a sitemap index. The root element is labelled with the total. In a
    /// text sitemap (one URL per line), the 50,001st URL is reported.
    ///
    /// ## Why is this bad?
    /// "A Sitemap file can contain no more than 50,000 URLs"; "A Sitemap index file can include up to
    /// 50,000 Sitemaps". Search Console reports "Too many URLs" / "Too many sitemaps", and crawlers
    /// are not required to read past the limit, so the last pages of the file may never be read.
    ///
    /// ## Example
    /// A generator that writes every product of a 70,000-product shop into one `sitemap.xml`.
    ///
    /// Use instead:
    /// Split the URLs into files of at most 50,000 entries (and 50 MiB), and list them in a sitemap
    /// index.
    ///
    /// ## References
    /// - sitemaps.org protocol and FAQ: 50,000 URLs per sitemap, 50,000 sitemaps per index
    /// - `sitemap.xsd` annotation: "Container for a set of up to 50,000 document elements"
    pub static META = {
        name: "too-many-entries",
        category: Limits,
        severity: Error,
        summary: "more than 50,000 entries in one file",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, _sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        Some(Box::new(Count {
            seen: 0,
            over: None,
        }))
    }
}

/// Counts the entries, and keeps the name of the first one over the limit.
struct Count {
    seen: usize,
    over: Option<Range<usize>>,
}

impl<'a> Collector<'a> for Count {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        if self.seen == MAX_ENTRIES {
            // A text sitemap's line has no element name: point at its URL.
            self.over = Some(match (sitemap.syntax, entry.loc()) {
                (Syntax::Text, Some(loc)) => loc.span(sitemap.source),
                _ => entry.element.name_span.clone(),
            });
        }
        self.seen += 1;
    }

    fn finish(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        let Some(over) = self.over else {
            return;
        };
        let source = sitemap.source;
        let root = sitemap.root.qualified_name(source);
        let name = source.get(over.clone()).unwrap_or("");
        let total = sitemap.entry_count;
        let note = match sitemap.kind {
            Kind::Index => "\"A Sitemap index file can include up to 50,000 Sitemaps\" (sitemaps.org); Search Console reports \"Too many sitemaps\"",
            _ => "\"A Sitemap file can contain no more than 50,000 URLs\" (sitemaps.org); Search Console reports \"Too many URLs\"",
        };
        let help = match sitemap.kind {
            Kind::Index => "split it into several sitemap indexes of at most 50,000 `<sitemap>` entries each, and submit each one",
            _ => "split the URLs into sitemaps of at most 50,000 entries each, and list those in a sitemap index",
        };
        if sitemap.syntax == Syntax::Text {
            cx.report(
                Diagnostic::new(
                    &META,
                    over,
                    format!(
                        "more than {} URLs in one text sitemap",
                        group(MAX_ENTRIES as u64)
                    ),
                )
                .with_label(format!(
                    "URL number {} is over the limit; the file has {}",
                    group(MAX_ENTRIES as u64 + 1),
                    group(total as u64)
                ))
                .with_note("\"Each text file can contain a maximum of 50,000 URLs\" (sitemaps.org)")
                .with_help("split the URLs into text files of at most 50,000 lines each, and submit each one (or list them in a sitemap index)"),
            );
            return;
        }
        cx.report(
            Diagnostic::new(
                &META,
                over,
                format!(
                    "more than {} entries in one file",
                    group(MAX_ENTRIES as u64)
                ),
            )
            .with_label(format!(
                "`<{name}>` number {} is over the limit",
                group(MAX_ENTRIES as u64 + 1)
            ))
            .with_secondary(
                sitemap.root.name_span.clone(),
                format!("this `<{root}>` has {} entries", group(total as u64)),
            )
            .with_note(note)
            .with_help(help),
        );
    }
}
