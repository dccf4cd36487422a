//! Rule `missing-loc`: a `url` or `sitemap` entry without a `loc`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{ChildKind, Entry, Field, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports a `<url>` or `<sitemap>` entry that has no `<loc>` child in the sitemap namespace.
    /// When the entry has a misspelled element instead (`<location>`, `<link>`), it is labelled.
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
        summary: "an entry has no `<loc>`",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_entry(&self, _sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if entry.field(Field::Loc).is_some() {
            return;
        }
        let name = entry.kind.name();
        let mut d = Diagnostic::new(
            &META,
            entry.element.name_span.clone(),
            format!("`<{name}>` has no `<loc>`"),
        )
        .with_label("`<loc>` is required");
        let lookalike = entry.children.iter().find(|c| {
            c.kind != ChildKind::Field(Field::Lastmod)
                && matches!(
                    c.element.local_name().to_ascii_lowercase().as_str(),
                    "location" | "link" | "url" | "href" | "uri" | "loc"
                )
        });
        if let Some(c) = lookalike {
            d = d.with_secondary(
                c.element.name_span.clone(),
                "did you mean `<loc>` here?",
            );
        }
        cx.report(d.with_help(format!(
            "add `<loc>https://…</loc>` as the first child of `<{name}>`"
        )));
    }
}
