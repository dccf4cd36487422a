//! Rule `empty-sitemap`: a `urlset` without any `url`, or a `sitemapindex` without any `sitemap`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{ChildKind, Kind, Sitemap, Syntax};
use crate::rule::{Context, Rule};

declare_rule! {
    /// ## What it does
    /// Reports a `<urlset>` with no `<url>` entry, or a `<sitemapindex>` with no `<sitemap>` entry.
    /// A root holding only entries of the other kind, misplaced elements or text is reported by
    /// `entry-kind-mismatch`, `unknown-element` or `unexpected-text` instead. A text sitemap
    /// (one URL per line) is empty when it has no line but blank ones; lines that are not URLs
    /// are `text-line-invalid`.
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
        defers_to: ["unknown-element", "unexpected-text", "text-line-invalid"],
        summary: "the sitemap or index has no entries",
    }
}

impl Rule for Check {
    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        let entry = match sitemap.kind {
            Kind::UrlSet => "url",
            Kind::Index => "sitemap",
            Kind::Other => return,
        };
        // Entries of the wrong kind are reported by `entry-kind-mismatch`; misplaced elements and
        // text (`<loc>` or a bare URL directly in the root) by `unknown-element` and
        // `unexpected-text`: the file is not empty, it is malformed.
        if sitemap.entry_count > 0
            || (sitemap
                .other_children
                .iter()
                .any(|c| c.kind == ChildKind::Unknown)
                && cx.settings.is_on("unknown-element"))
            || (!sitemap.stray_text.is_empty() && cx.settings.is_on("unexpected-text"))
        {
            return;
        }
        if sitemap.syntax == Syntax::Text {
            // Lines that are not URLs are `text-line-invalid`'s: the file is malformed, not empty.
            if cx.settings.is_on("text-line-invalid")
                && !sitemap
                    .source
                    .trim_matches([' ', '\t', '\r', '\n'])
                    .is_empty()
            {
                return;
            }
            cx.report(
                Diagnostic::new(&META, 0..0, "the text sitemap lists no URLs")
                    .with_label("at least one URL is required")
                    .with_help("write one URL per line, or do not publish (or list) the file until it has URLs"),
            );
            return;
        }
        let root = sitemap.root.qualified_name(sitemap.source);
        cx.report(
            Diagnostic::new(
                &META,
                sitemap.root.name_span.clone(),
                format!("`<{root}>` has no `<{entry}>` entries"),
            )
            .with_label(format!("at least one `<{entry}>` is required"))
            .with_help(format!(
                "add a `<{entry}>` with a `<loc>`, or do not publish (or list) the file until it has entries"
            )),
        );
    }
}
