//! Rule `namespace`: the root (or a sitemap element) is not in the sitemaps.org 0.9 namespace.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{ChildKind, Entry, Field, Kind, Sitemap, SITEMAP_NS};
use crate::rule::{Context, Rule, RuleMeta};
use crate::suggest;

declare_rule! {
    /// ## What it does
    /// Checks that `<urlset>` or `<sitemapindex>` is in exactly the namespace
    /// `http://www.sitemaps.org/schemas/sitemap/0.9`, and that `url`, `sitemap`, `loc`, `lastmod`,
    /// `changefreq` and `priority` elements are in the same namespace as the root. It recognises the
    /// usual mistakes: no `xmlns` at all, Google's retired `0.84` and `0.9` namespaces, `https`, a
    /// trailing slash, `www` missing, wrong case, and typos. The rest of the file is checked in the
    /// namespace the root uses, so one mistake gives one error, not one per element.
    ///
    /// ## Why is this bad?
    /// XML elements are identified by namespace and name. Search Console reports "Incorrect
    /// namespace"; schema validators reject every element of the file.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.google.com/schemas/sitemap/0.84">
    ///   <url><loc>https://www.example.com/</loc></url>
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
    /// - sitemaps.org protocol, "XML tag definitions": "Specify the namespace (protocol standard) within the `<urlset>` tag"
    /// - `sitemap.xsd`: `targetNamespace="http://www.sitemaps.org/schemas/sitemap/0.9"`
    pub static META = {
        name: "namespace",
        category: Structure,
        severity: Error,
        summary: "the root is not in the `http://www.sitemaps.org/schemas/sitemap/0.9` namespace",
    }
}

pub struct Check;

/// Why `ns` is not the sitemap namespace, in a few words.
fn diagnose(ns: &str) -> String {
    let trimmed = ns.trim();
    if trimmed != ns {
        return "the namespace has surrounding whitespace".into();
    }
    if ns.starts_with("http://www.google.com/schemas/sitemap/") {
        return "this is Google's retired sitemap namespace".into();
    }
    if ns.eq_ignore_ascii_case(SITEMAP_NS) {
        return "namespaces are case-sensitive".into();
    }
    if ns == "https://www.sitemaps.org/schemas/sitemap/0.9" {
        return "the namespace is `http`, not `https` (it is a name, not a link)".into();
    }
    if ns.trim_end_matches('/') == SITEMAP_NS {
        return "the namespace has no trailing slash".into();
    }
    if ns == "http://sitemaps.org/schemas/sitemap/0.9" {
        return "the namespace includes `www.`".into();
    }
    if ns.contains("sitemaps.org/schemas/sitemap/") {
        return "sitemaps.org defines only version `0.9`".into();
    }
    if suggest::distance(ns, SITEMAP_NS) <= 4 {
        return "the namespace is misspelled".into();
    }
    "this is not the sitemap namespace".into()
}

/// Span of the value of the `xmlns` (or `xmlns:prefix`) declaration in the root start tag.
fn xmlns_value_span(sitemap: &Sitemap<'_>) -> Option<std::ops::Range<usize>> {
    let tag_end = sitemap.source[sitemap.root.span.clone()].find('>')? + sitemap.root.span.start;
    let tag = &sitemap.source[sitemap.root.span.start..tag_end];
    let qname = &sitemap.source[sitemap.root.name_span.clone()];
    let attr = match qname.split_once(':') {
        Some((prefix, _)) => format!("xmlns:{prefix}"),
        None => "xmlns".to_string(),
    };
    let mut from = 0;
    while let Some(p) = tag[from..].find(&attr) {
        let at = from + p;
        let rest = tag[at + attr.len()..].trim_start();
        if let Some(rest) = rest.strip_prefix('=') {
            let rest_trim = rest.trim_start();
            let quote = rest_trim.chars().next()?;
            if quote == '"' || quote == '\'' {
                let value_start = tag.len() - rest_trim.len() + 1;
                let value_len = tag[value_start..].find(quote)?;
                let start = sitemap.root.span.start + value_start;
                return Some(start..start + value_len);
            }
        }
        from = at + attr.len();
    }
    None
}

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        if sitemap.kind == Kind::Other {
            return;
        }
        let root = sitemap.root.local_name();
        match sitemap.namespace {
            Some(SITEMAP_NS) => {}
            None => cx.report(
                Diagnostic::new(
                    &META,
                    sitemap.root.name_span.clone(),
                    format!("`{root}` has no namespace"),
                )
                .with_label("missing `xmlns`")
                .with_help(format!(
                    "declare the sitemap namespace: `<{root} xmlns=\"{SITEMAP_NS}\">`"
                )),
            ),
            Some(ns) => {
                let span = xmlns_value_span(sitemap).unwrap_or(sitemap.root.name_span.clone());
                cx.report(
                    Diagnostic::new(
                        &META,
                        span,
                        format!("`{root}` is in the namespace `{ns}`"),
                    )
                    .with_label(diagnose(ns))
                    .with_help(format!("use exactly `{SITEMAP_NS}`")),
                );
            }
        }
        // Entry-level elements put in another namespace (e.g. `<url xmlns="">`).
        for child in &sitemap.other_children {
            if child.kind == ChildKind::Foreign
                && matches!(child.element.local_name(), "url" | "sitemap")
            {
                report_foreign(sitemap, &child.element, cx);
            }
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for child in &entry.children {
            if child.kind == ChildKind::Foreign && Field::from_name(child.element.local_name()).is_some() {
                report_foreign(sitemap, &child.element, cx);
            }
        }
    }
}

fn report_foreign(sitemap: &Sitemap<'_>, element: &crate::model::Element<'_>, cx: &mut Context<'_>) {
    let name = element.local_name();
    let found = element.namespace().map_or("no namespace".to_string(), |n| format!("`{n}`"));
    let expected = sitemap.namespace.map_or("no namespace".to_string(), |n| format!("`{n}`"));
    cx.report(
        Diagnostic::new(
            &META,
            element.name_span.clone(),
            format!("`{name}` is in {found}, not in the sitemap namespace"),
        )
        .with_secondary(sitemap.root.name_span.clone(), format!("the root is in {expected}"))
        .with_help(format!(
            "remove the `xmlns` declaration or prefix that moves `{name}` out of the sitemap namespace"
        )),
    );
}
