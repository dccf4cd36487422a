//! Rule `missing-loc`: a `url` or `sitemap` entry without a `loc`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{ChildKind, Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::structure::{is_loc_lookalike, looks_like_url};

declare_rule! {
    /// ## What it does
    /// Reports a `<url>` or `<sitemap>` entry that has no `<loc>` child. When the entry has a
    /// misspelled element instead (`<location>`, `<link>`, `<LOC>`), it is labelled (and not
    /// reported again by `unknown-element`). An entry whose URL is bare text (`<url>https://…</url>`)
    /// is reported by `unexpected-text`, a nested entry by `unknown-element`.
    ///
    /// ## Why is this bad?
    /// `<loc>` is the only required child: an entry without it says nothing. Search Console reports
    /// "Missing XML tag"; many parsers drop the entry silently, and some attach the next entry's data
    /// to it.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><lastmod>2024-11-21</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2024-11-21</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - sitemaps.org protocol: "Include a `<loc>` child entry for each `<url>` parent tag"
    /// - `sitemap.xsd`: `<xsd:element name="loc" type="tLoc"/>` (required)
    pub static META = {
        name: "missing-loc",
        category: Structure,
        severity: Error,
        defers_to: ["unexpected-text", "unknown-element"],
        summary: "an entry has no `<loc>`",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if entry.field(Field::Loc).is_some() {
            return;
        }
        let source = sitemap.source;
        // A bare URL in the entry (`<url>https://…</url>`) is reported by `unexpected-text`, which
        // says to wrap it in `<loc>`; a nested entry by `unknown-element`.
        let bare_url = entry
            .stray_text
            .iter()
            .any(|r| looks_like_url(source.get(r.clone()).unwrap_or("")));
        if bare_url && cx.settings.is_on("unexpected-text") {
            return;
        }
        let nested = entry.children.iter().any(|c| {
            c.kind == ChildKind::Unknown && matches!(c.element.local_name(), "url" | "sitemap")
        });
        if nested && cx.settings.is_on("unknown-element") {
            return;
        }
        if cx.skip(&META, entry.element.name_span.start) {
            return;
        }
        let name = crate::diagnostic::shown(entry.element.qualified_name(source));
        let mut d = Diagnostic::new(
            &META,
            entry.element.name_span.clone(),
            format!("`<{name}>` has no `<loc>`"),
        )
        .with_label("`<loc>` is required");
        let lookalike = entry.children.iter().find(|c| is_loc_lookalike(entry, c));
        let help = match lookalike {
            Some(c) => {
                let written = crate::diagnostic::shown(c.element.qualified_name(source));
                d = d.with_secondary(c.element.name_span.clone(), "did you mean `<loc>`?");
                if c.element.local_name().eq_ignore_ascii_case("loc") {
                    format!("element names are case-sensitive: rename `<{written}>` to `<loc>`")
                } else {
                    format!("rename `<{written}>` to `<loc>`")
                }
            }
            None => format!("add `<loc>https://…</loc>` as the first child of `<{name}>`"),
        };
        cx.report(d.with_help(help));
    }
}
