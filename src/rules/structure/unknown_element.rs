//! Rule `unknown-element`: an element in the sitemap namespace that the protocol does not define there.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{
    is_plain_hreflang_link, Child, ChildKind, Entry, EntryKind, Field, Kind, Sitemap,
};
use crate::rule::{Context, Rule};
use crate::rules::structure::{allowed_children, is_loc_lookalike, suggested_name};
use crate::values::namespace::XHTML_NS;
use crate::values::text;

declare_rule! {
    /// ## What it does
    /// Reports elements in the sitemap namespace that do not belong where they are: an unknown name
    /// inside `<url>`/`<sitemap>` (`<lastmodified>`, `<sm:foo>`, a nested `<url>`), `<changefreq>`
    /// or `<priority>` inside a sitemap index's `<sitemap>`, and anything but `<url>`/`<sitemap>`
    /// directly inside the root (such as a `<loc>` without its `<url>`). Misspellings and wrong case
    /// get a suggestion. Elements in other namespaces (extensions such as `image:image`) are not
    /// reported by this rule, except hreflang `<xhtml:link>` elements outside `<url>` (directly
    /// inside `<urlset>`, or anywhere in a sitemap index), which describe no page there; an element
    /// in no namespace inside a sitemap is. A misspelled `<loc>` in an entry without `<loc>` is
    /// reported by `missing-loc`, an hreflang `<link>` without the `xhtml:` prefix by
    /// `xhtml-link-namespace`.
    ///
    /// ## Why is this bad?
    /// The schema rejects them, Yandex reports "Unknown tag", and crawlers ignore their content: a
    /// `<lastmodified>` date is simply lost.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmodified>2024-11-21</lastmodified></url>
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
    /// - sitemaps.org protocol, "XML tag definitions"
    /// - `sitemap.xsd` (`tUrl`), `siteindex.xsd` (`tSitemap`)
    pub static META = {
        name: "unknown-element",
        category: Structure,
        severity: Error,
        defers_to: ["missing-loc", "xhtml-link-namespace"],
        summary: "an element the protocol does not define at this place",
    }
}

fn backquoted(names: &[&str]) -> String {
    names
        .iter()
        .map(|a| format!("`<{a}>`"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Rule for Check {
    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        if sitemap.kind == Kind::Other {
            return;
        }
        let source = sitemap.source;
        let root = crate::diagnostic::shown(sitemap.root.qualified_name(source));
        let entry = sitemap.kind.entry_name();
        for child in &sitemap.other_children {
            if is_xhtml(child) {
                report_misplaced_xhtml(sitemap, child, None, cx);
                continue;
            }
            if child.kind != ChildKind::Unknown {
                continue;
            }
            let name = crate::diagnostic::shown(child.element.qualified_name(source));
            let local = child.element.local_name();
            let d = Diagnostic::new(
                &META,
                child.element.name_span.clone(),
                format!("`<{name}>` is not allowed directly inside `<{root}>`"),
            );
            let d = if Field::from_name(local).is_some() {
                d.with_label(format!("not inside a `<{entry}>`"))
                    .with_help(format!(
                        "`<{local}>` belongs inside an entry: `<{entry}><{local}>…</{local}></{entry}>`"
                    ))
            } else if let Some(s) = text::closest(local, &[entry]) {
                d.with_label(format!("did you mean `<{s}>`?"))
                    .with_help(format!("rename it to `<{s}>`"))
            } else {
                d.with_label(format!("expected `<{entry}>`"))
                    .with_help(format!("`<{root}>` contains only `<{entry}>` entries"))
            };
            cx.report(d);
        }
        // Beyond the model's cap, misplaced root children are only counted.
        cx.count_unreported(&META, sitemap.other_children_omitted);
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        // Almost every child is a field the entry may hold, or an extension: nothing to report.
        let index_entry = entry.kind == EntryKind::Sitemap && sitemap.kind == Kind::Index;
        let worth_a_look = |c: &Child<'_>| match c.kind {
            ChildKind::Field(f) => !entry.kind.allows(f),
            ChildKind::Unknown => true,
            ChildKind::Foreign => index_entry && is_xhtml(c),
        };
        if !entry.children.iter().any(worth_a_look) {
            return;
        }
        let missing_loc_reports_lookalike = cx.settings.is_on("missing-loc");
        let link_rule_reports_links = cx.settings.is_on("xhtml-link-namespace");
        for child in &entry.children {
            if entry.kind == EntryKind::Sitemap && sitemap.kind == Kind::Index && is_xhtml(child) {
                report_misplaced_xhtml(sitemap, child, Some(entry), cx);
                continue;
            }
            if missing_loc_reports_lookalike && is_loc_lookalike(entry, child) {
                continue;
            }
            if is_plain_hreflang_link(entry, child) {
                if !link_rule_reports_links {
                    report_plain_link(sitemap, child, cx);
                }
                continue;
            }
            report_child(sitemap, entry, child, cx);
        }
    }
}

/// Whether `child` is an XHTML element (`xhtml:link`), which belongs only in `<url>`.
fn is_xhtml(child: &Child<'_>) -> bool {
    child.kind == ChildKind::Foreign && child.element.namespace() == Some(XHTML_NS)
}

/// An XHTML element (an hreflang `<xhtml:link>`) directly inside the root, or in a sitemap
/// index's `<sitemap>` entry (`entry`): it describes no page there.
fn report_misplaced_xhtml(
    sitemap: &Sitemap<'_>,
    child: &Child<'_>,
    entry: Option<&Entry<'_>>,
    cx: &mut Context<'_>,
) {
    let source = sitemap.source;
    let name = crate::diagnostic::shown(child.element.qualified_name(source));
    let root = crate::diagnostic::shown(sitemap.root.qualified_name(source));
    let (message, label, help) = match (sitemap.kind, entry) {
        (Kind::Index, Some(e)) => (
            format!("`<{name}>` is not allowed in a sitemap index"),
            format!("in a `<{}>` entry", e.element.qualified_name(source)),
            format!("hreflang alternates describe pages: put `<{name}>` in the `<url>` of that page in a sitemap (`<urlset>`), not in the index"),
        ),
        (Kind::Index, None) => (
            format!("`<{name}>` is not allowed in a sitemap index"),
            format!("directly inside `<{root}>`"),
            format!("hreflang alternates describe pages: put `<{name}>` in the `<url>` of that page in a sitemap (`<urlset>`), not in the index"),
        ),
        _ => (
            format!("`<{name}>` is outside any `<url>`"),
            format!("directly inside `<{root}>`"),
            format!("move it into the `<url>` of the page it belongs to: search engines read `<{name}>` only inside `<url>`"),
        ),
    };
    cx.report_at(&META, child.element.name_span.clone(), |span| {
        Diagnostic::new(&META, span, message)
            .with_label(label)
            .with_help(help)
    });
}

/// An hreflang `<link>` without the XHTML namespace, when `xhtml-link-namespace` is turned off.
fn report_plain_link(sitemap: &Sitemap<'_>, child: &Child<'_>, cx: &mut Context<'_>) {
    let name = crate::diagnostic::shown(child.element.qualified_name(sitemap.source));
    cx.report_at(&META, child.element.name_span.clone(), |span| Diagnostic::new(
            &META,
            span,
            format!("unknown element `<{name}>` in `<url>`"),
        )
        .with_label("did you mean `<xhtml:link>`?")
        .with_help(format!(
            "hreflang alternates are `<xhtml:link>` elements: declare `xmlns:xhtml=\"{}\"` and write `<xhtml:link>`",
            XHTML_NS
        )),
    );
}

fn report_child(sitemap: &Sitemap<'_>, entry: &Entry<'_>, child: &Child<'_>, cx: &mut Context<'_>) {
    let source = sitemap.source;
    let parent = crate::diagnostic::shown(entry.element.qualified_name(source));
    let name = crate::diagnostic::shown(child.element.qualified_name(source));
    let local = child.element.local_name();
    let allowed = allowed_children(entry.kind);
    match child.kind {
        ChildKind::Field(f) if !entry.kind.allows(f) => {
            // A `<sitemap>` in a `<urlset>` (or the reverse) is reported by `entry-kind-mismatch`;
            // which children it may have depends on how that is fixed.
            let file_entry = sitemap.kind.entry_name();
            if entry.kind.name() != file_entry {
                return;
            }
            cx.report_at(&META, child.element.name_span.clone(), |span| Diagnostic::new(
                    &META,
                    span,
                    format!("`<{name}>` is not allowed in `<{parent}>`"),
                )
                .with_label(format!(
                    "a `<{}>` entry holds only {}",
                    entry.kind.name(),
                    backquoted(allowed).replace(", ", " and ")
                ))
                .with_help(format!(
                    "remove it: `<{local}>` belongs to the `<url>` entries of the sitemap this entry points to"
                )),
            );
        }
        ChildKind::Unknown => {
            let d = Diagnostic::new(
                &META,
                child.element.name_span.clone(),
                format!("unknown element `<{name}>` in `<{parent}>`"),
            );
            let d = if let Some(s) = suggested_name(local, allowed) {
                let prefixed = match child.element.prefix(source) {
                    Some(p) => format!("{p}:{s}"),
                    None => s.to_string(),
                };
                let help = if local.eq_ignore_ascii_case(s) {
                    format!("element names are case-sensitive: rename it to `<{prefixed}>`")
                } else {
                    format!("rename it to `<{prefixed}>`")
                };
                d.with_label(format!("did you mean `<{prefixed}>`?"))
                    .with_help(help)
            } else if matches!(local, "url" | "sitemap") {
                d.with_label("entries cannot be nested").with_help(format!(
                    "close the `<{parent}>` before opening the next `<{name}>`"
                ))
            } else {
                d.with_label("not a sitemap element").with_help(format!(
                    "`<{}>` may contain {}; extension elements need their own namespace (e.g. `image:image`)",
                    entry.kind.name(),
                    backquoted(allowed)
                ))
            };
            cx.report(d);
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast test of `check_entry` and `duplicate-element` agree with the names in the texts.
    #[test]
    fn allows_agrees_with_allowed_children() {
        for kind in [EntryKind::Url, EntryKind::Sitemap] {
            for field in Field::ALL {
                assert_eq!(
                    kind.allows(field),
                    allowed_children(kind).contains(&field.name()),
                    "{kind:?} {field:?}"
                );
            }
        }
    }
}
