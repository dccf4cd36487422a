//! Rule `too-many-entries`: more than 50,000 `url` entries in a sitemap or `sitemap` entries in an index.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Entry, Kind, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

/// The protocol's limit on entries per file.
pub const MAX_ENTRIES: usize = 50_000;

declare_rule! {
    /// ## What it does
    /// Reports the first entry over the protocol's limit: the 50,001st `<url>` of a sitemap or the
    /// 50,001st `<sitemap>` of a sitemap index. The root element is labelled with the total.
    ///
    /// ## Why is this bad?
    /// "A Sitemap file can contain no more than 50,000 URLs"; "A Sitemap index file can include up to
    /// 50,000 Sitemaps". Search Console reports "Too many URLs" / "Too many sitemaps" and ignores the
    /// excess, so the last pages of the file are never read.
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

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if entry.index != MAX_ENTRIES || sitemap.kind == Kind::Other {
            return;
        }
        let name = entry.kind.name();
        let total = sitemap.entries.len();
        cx.report(
            Diagnostic::new(
                &META,
                entry.element.name_span.clone(),
                format!("more than {} `<{name}>` entries in one file", crate::engine::group(MAX_ENTRIES as u64)),
            )
            .with_label(format!("entry {} is over the limit", crate::engine::group(MAX_ENTRIES as u64 + 1)))
            .with_secondary(sitemap.root.name_span.clone(), format!("this file has {} entries", crate::engine::group(total as u64)))
            .with_help("split the file into sitemaps of at most 50,000 entries each and list them in a sitemap index"),
        );
    }
}
