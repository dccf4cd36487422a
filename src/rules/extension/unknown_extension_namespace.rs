//! Rule `unknown-extension-namespace`: elements of an extension namespace sitemap-lint has no schema for (they are not validated).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Child, ChildKind, Element, Entry, Sitemap};
use crate::rule::{Collector, Context, Rule};
use crate::rules::extension::{classify, declaration_of, NamespaceClass, KNOWN};

declare_rule! {
    /// ## What it does
    /// Reports, once per namespace and file, elements inside `<url>` (or `<sitemap>`, or directly
    /// inside the root) whose namespace is neither the sitemap namespace, nor one of the
    /// namespaces sitemap-lint checks (Google's image, video, news and mobile extensions, and XHTML
    /// for hreflang links), nor a near miss of one (that is `extension-namespace`'s error). The
    /// protocol allows such extensions, so this is only a warning: it says that sitemap-lint does
    /// not validate these elements, and lets a misspelled namespace of your own stand out. Known
    /// third-party namespaces (Google PageMap, Baidu's mobile extension) are named.
    ///
    /// ## Why is this bad?
    /// It may not be: "You can extend the Sitemaps protocol using your own namespace." But search
    /// engines ignore namespaces they do not support, the official `sitemap.xsd` rejects elements
    /// for which no schema is loaded (its wildcard is strict), and nothing in them is checked.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:shop="https://www.example.com/schemas/shop">
    ///   <url>
    ///     <loc>https://www.example.com/product/1</loc>
    ///     <shop:price>10.00</shop:price>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/product/1</loc>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - sitemaps.org protocol, "Extending the Sitemaps protocol": "You can extend the Sitemaps protocol using your own namespace"
    /// - `sitemap.xsd`: `<xsd:any namespace="##other" processContents="strict"/>` in `tUrl` and `urlset`
    pub static META = {
        name: "unknown-extension-namespace",
        category: Structure,
        severity: Warning,
        summary: "elements of an extension namespace sitemap-lint has no schema for (not validated)",
    }
}

/// Third-party namespaces seen in real sitemaps, named in the note.
const NAMED: &[(&str, &str)] = &[
    (
        "http://www.google.com/schemas/sitemap-pagemap/1.0",
        "Google PageMap (Programmable Search Engine), which has no published schema",
    ),
    (
        "http://www.baidu.com/schemas/sitemap-mobile/1/",
        "Baidu's mobile extension, read by Baidu only",
    ),
    (
        "http://www.google.com/geo/schemas/sitemap/1.0",
        "Google's retired Geo sitemap extension, which Google no longer reads",
    ),
    (
        "http://www.google.com/codesearch/schemas/sitemap/1.0",
        "Google's retired Code Search extension, which Google no longer reads",
    ),
];

impl Rule for Check {
    fn collector<'a>(&self, _sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        Some(Box::new(Namespaces::default()))
    }
}

/// Distinct namespace URIs remembered per file; beyond, they are classified again (still cheap).
const MAX_REMEMBERED: usize = 64;

#[derive(Default)]
struct Namespaces {
    /// Unknown namespaces already reported.
    reported: Vec<Box<str>>,
    /// Namespaces seen that are not unknown (near misses, sitemap-like).
    other: Vec<Box<str>>,
}

impl Namespaces {
    fn children(&mut self, sitemap: &Sitemap<'_>, children: &[Child<'_>], cx: &mut Context<'_>) {
        for child in children {
            if child.kind == ChildKind::Foreign {
                self.element(sitemap, &child.element, cx);
            }
        }
    }

    fn element(&mut self, sitemap: &Sitemap<'_>, el: &Element<'_>, cx: &mut Context<'_>) {
        let Some(uri) = el.namespace() else { return };
        if Some(uri) == sitemap.namespace
            || KNOWN.iter().any(|k| k.uri == uri)
            || self.reported.iter().any(|u| **u == *uri)
            || self.other.iter().any(|u| **u == *uri)
        {
            return;
        }
        if classify(uri) != NamespaceClass::Unknown {
            if self.other.len() < MAX_REMEMBERED {
                self.other.push(uri.into());
            }
            return;
        }
        if self.reported.len() >= crate::rule::MAX_REPORTS_PER_RULE {
            return;
        }
        self.reported.push(uri.into());
        let source = sitemap.source;
        let name = crate::diagnostic::shown(el.qualified_name(source));
        let mut d = Diagnostic::new(
            &META,
            el.name_span.clone(),
            format!("`<{name}>` is in the namespace `{uri}`, which sitemap-lint does not validate"),
        )
        .with_label("unknown extension namespace");
        if let Some((_, _, value)) = declaration_of(el, source) {
            d = d.with_secondary(value, "declared here");
        }
        if let Some((_, what)) = NAMED.iter().find(|(u, _)| *u == uri) {
            d = d.with_note(format!("this is {what}"));
        }
        cx.report(d.with_help(
            "nothing to fix if the extension is intended; if you meant a Google extension, use its exact namespace \
             (image `http://www.google.com/schemas/sitemap-image/1.1`, video `…/sitemap-video/1.1`, \
             news `…/sitemap-news/0.9`, hreflang `http://www.w3.org/1999/xhtml`)",
        ));
    }
}

impl<'a> Collector<'a> for Namespaces {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        self.children(sitemap, &entry.children, cx);
    }

    fn root_child(&mut self, sitemap: &Sitemap<'a>, child: &Child<'_>, cx: &mut Context<'_>) {
        if child.kind == ChildKind::Foreign {
            self.element(sitemap, &child.element, cx);
        }
    }

    fn finish(self: Box<Self>, _sitemap: &Sitemap<'a>, _cx: &mut Context<'_>) {}
}
