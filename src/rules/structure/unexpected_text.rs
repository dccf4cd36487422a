//! Rule `unexpected-text`: text directly inside `urlset`, `sitemapindex`, `url` or `sitemap`, where only elements belong.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use std::ops::Range;

use crate::pipeline::model::{is_xml_space, Entry, Field, Kind, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::structure::looks_like_url;

declare_rule! {
    /// ## What it does
    /// Reports non-whitespace text directly inside the root or an entry, where the schema allows
    /// only elements (whitespace between elements, and comments, are fine). A URL written without
    /// its `<loc>` tags (`<url>https://…</url>`) is reported here, with the fix, and not again by
    /// `missing-loc`.
    ///
    /// ## Why is this bad?
    /// The schema's content model for these elements is element-only, so validators reject the file.
    /// The text is usually a URL that lost its `<loc>` tags, a template variable that printed
    /// nothing but punctuation, or debug output.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>https://www.example.com/<loc>https://www.example.com/</loc></url>
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
    /// ## References
    /// - `sitemap.xsd`, `siteindex.xsd`: complex types with element-only content
    pub static META = {
        name: "unexpected-text",
        category: Structure,
        severity: Error,
        summary: "text where only elements are allowed",
    }
}

/// Where the text is: directly in the root or in an entry (with or without a `<loc>`).
enum Parent<'p> {
    Root { entry: &'static str },
    Entry { has_loc: bool, name: &'p str },
}

fn report(
    span: Range<usize>,
    parent_name: &str,
    parent: Parent<'_>,
    source: &str,
    cx: &mut Context<'_>,
) {
    let raw = source.get(span.clone()).unwrap_or("");
    let start = span.start + (raw.len() - raw.trim_start_matches(is_xml_space).len());
    let text = raw.trim_matches(is_xml_space);
    let span = start..start + text.len();
    if cx.skip(&META, span.start) {
        return;
    }
    let url = looks_like_url(text);
    let shown = if text.chars().count() <= 60 {
        text
    } else {
        "…"
    };
    let d = match parent {
        Parent::Entry {
            has_loc: false,
            name,
        } if url => Diagnostic::new(
            &META,
            span,
            format!("bare URL directly inside `<{name}>`, without `<loc>` tags"),
        )
        .with_label("this URL is not in a `<loc>`")
        .with_help(format!("wrap it: `<loc>{shown}</loc>`")),
        Parent::Entry { has_loc: true, .. } if url => Diagnostic::new(
            &META,
            span,
            format!("text is not allowed directly inside `<{parent_name}>`"),
        )
        .with_label("stray URL")
        .with_help("remove it: the entry already has a `<loc>`"),
        Parent::Root { entry } if url => Diagnostic::new(
            &META,
            span,
            format!("text is not allowed directly inside `<{parent_name}>`"),
        )
        .with_label("a URL outside any entry")
        .with_help(format!(
            "put it in an entry: `<{entry}><loc>{shown}</loc></{entry}>`"
        )),
        _ => Diagnostic::new(
            &META,
            span,
            format!("text is not allowed directly inside `<{parent_name}>`"),
        )
        .with_label(if text.ends_with('>') && !text.contains('<') {
            "looks like the rest of a tag"
        } else {
            "unexpected text"
        })
        .with_help(format!("remove it: `<{parent_name}>` holds only elements")),
    };
    cx.report(d);
}

impl Rule for Check {
    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        if sitemap.kind == Kind::Other {
            return;
        }
        let root = crate::diagnostic::shown(sitemap.root.qualified_name(sitemap.source));
        let entry = sitemap.kind.entry_name();
        for span in &sitemap.stray_text {
            report(
                span.clone(),
                &root,
                Parent::Root { entry },
                sitemap.source,
                cx,
            );
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if entry.stray_text.is_empty() {
            return;
        }
        let name = crate::diagnostic::shown(entry.element.qualified_name(sitemap.source));
        let has_loc = entry.field(Field::Loc).is_some();
        for span in &entry.stray_text {
            report(
                span.clone(),
                &name,
                Parent::Entry {
                    has_loc,
                    name: &name,
                },
                sitemap.source,
                cx,
            );
        }
    }
}
