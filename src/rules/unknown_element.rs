//! Rule `unknown-element`: an element in the sitemap namespace that the protocol does not define there.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Child, ChildKind, Entry, Field, Kind, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};
use crate::suggest;

declare_rule! {
    /// ## What it does
    /// Reports elements in the sitemap namespace that do not belong where they are: an unknown name
    /// inside `<url>`/`<sitemap>` (`<location>`, `<lastmodified>`, `<sm:foo>`), `<changefreq>` or
    /// `<priority>` inside a sitemap index's `<sitemap>`, and anything but `<url>`/`<sitemap>` directly
    /// inside the root. Misspellings get a suggestion. Elements in other namespaces (extensions such
    /// as `image:image`) are not reported by this rule.
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
        summary: "an element the protocol does not define at this place",
    }
}

pub struct Check;

const URL_CHILDREN: &[&str] = &["loc", "lastmod", "changefreq", "priority"];
const SITEMAP_CHILDREN: &[&str] = &["loc", "lastmod"];

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        let root = sitemap.root.local_name();
        let entry = sitemap.kind.entry_name();
        for child in &sitemap.other_children {
            if child.kind != ChildKind::Unknown {
                continue;
            }
            let name = child.element.local_name();
            let mut d = Diagnostic::new(
                &META,
                child.element.name_span.clone(),
                format!("`<{name}>` is not allowed directly inside `<{root}>`"),
            )
            .with_label(format!("expected `<{entry}>`"));
            d = if Field::from_name(name).is_some() {
                d.with_help(format!("`<{name}>` belongs inside a `<{entry}>` entry"))
            } else {
                d.with_help(format!("`<{root}>` contains only `<{entry}>` entries"))
            };
            cx.report(d);
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let in_index = sitemap.kind == Kind::Index;
        for child in &entry.children {
            report_child(entry, child, in_index, cx);
        }
    }
}

fn report_child(entry: &Entry<'_>, child: &Child<'_>, in_index: bool, cx: &mut Context<'_>) {
    let parent = entry.kind.name();
    let name = child.element.local_name();
    match child.kind {
        ChildKind::Field(f) if in_index && !f.allowed_in(Kind::Index) => {
            cx.report(
                Diagnostic::new(
                    &META,
                    child.element.name_span.clone(),
                    format!("`<{name}>` is not allowed in a sitemap index entry"),
                )
                .with_label("a `<sitemap>` holds only `<loc>` and `<lastmod>`")
                .with_help(format!(
                    "remove `<{name}>`; it belongs to `<url>` entries in the child sitemap"
                )),
            );
        }
        ChildKind::Unknown => {
            let allowed = if in_index { SITEMAP_CHILDREN } else { URL_CHILDREN };
            let known = ["url", "sitemap"].contains(&name);
            let mut d = Diagnostic::new(
                &META,
                child.element.name_span.clone(),
                format!("unknown element `<{name}>` in `<{parent}>`"),
            );
            let alias = match name.to_ascii_lowercase().as_str() {
                "location" | "link" | "href" | "uri" => Some("loc"),
                "lastmodified" | "last_mod" | "last-mod" | "lastmodification" | "modified"
                | "updated" | "date" => Some("lastmod"),
                "changefrequency" | "change_freq" | "frequency" | "freq" => Some("changefreq"),
                "prio" => Some("priority"),
                _ => None,
            };
            let suggestion = alias
                .filter(|a| allowed.contains(a))
                .or_else(|| suggest::closest(name, allowed));
            d = match suggestion {
                Some(s) => d
                    .with_label(format!("did you mean `<{s}>`?"))
                    .with_help(format!("rename it to `<{s}>`")),
                None if known => d.with_help(format!(
                    "entries cannot be nested: close the `<{parent}>` before opening `<{name}>`"
                )),
                None => d.with_help(format!(
                    "`<{parent}>` may contain {}; extension elements need their own namespace (e.g. `image:image`)",
                    allowed
                        .iter()
                        .map(|a| format!("`<{a}>`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )),
            };
            cx.report(d);
        }
        _ => {}
    }
}
