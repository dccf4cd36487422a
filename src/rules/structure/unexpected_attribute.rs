//! Rule `unexpected-attribute`: an attribute on a sitemap element (other than namespace declarations and the `xsi:` schema hints).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{ChildKind, Element, Entry, Field, Kind, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::namespace::{SITEMAP_NS, XML_NS, XSI_NS};

declare_rule! {
    /// ## What it does
    /// Reports attributes on `<urlset>`, `<sitemapindex>`, `<url>`, `<sitemap>`, `<loc>`,
    /// `<lastmod>`, `<changefreq>` and `<priority>`, `xml:lang` included. Namespace declarations
    /// (`xmlns`, `xmlns:image`) and the schema hints `xsi:schemaLocation` and
    /// `xsi:noNamespaceSchemaLocation` are allowed everywhere; a `schemaLocation` without the `xsi:`
    /// prefix, or with `xsi` bound to another namespace, is reported. Of the other XML Schema
    /// instance attributes, as a schema validator judges them: `xsi:nil` (with any value: no
    /// sitemap element is nillable), an `xsi:type` that names another type than the element's own
    /// (`tLoc` for `<loc>`: no type of the schemas derives from another, and the roots' types have
    /// no name), and any other `xsi:` name. Extension elements are not checked by this rule.
    ///
    /// ## Why is this bad?
    /// The protocol defines no attributes, so validators reject them, and crawlers ignore them:
    /// information put in an attribute (`<url priority="0.8">`) is lost. Search Console reports
    /// "Invalid attribute value".
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url priority="0.8"><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><priority>0.8</priority></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - `sitemap.xsd`, `siteindex.xsd`: no attribute declarations
    /// - XML Schema Part 1 §3.2.7 (the `xsi:` attributes; `xsi:nil` needs a nillable element, §3.3.4; `xsi:type` a type derived from the declared one, §3.3.4 and §3.4.6)
    pub static META = {
        name: "unexpected-attribute",
        category: Structure,
        severity: Error,
        summary: "an attribute on a sitemap element",
    }
}

/// Attributes of the XML Schema instance namespace, which are allowed when written correctly.
const XSI_ATTRIBUTES: &[&str] = &["schemaLocation", "noNamespaceSchemaLocation", "type", "nil"];

fn check_element(sitemap: &Sitemap<'_>, element: &Element<'_>, entry: bool, cx: &mut Context<'_>) {
    if element.node.attributes().len() == 0 {
        return;
    }
    let source = sitemap.source;
    let base = element.base();
    for attr in element.node.attributes() {
        if attr.namespace() == Some(XSI_NS) {
            if let Some(d) = xsi_problem(sitemap, element, &attr) {
                cx.report(d);
            }
            continue;
        }
        let q = attr.range_qname();
        let span = q.start + base..q.end + base;
        if cx.skip(&META, span.start) {
            continue;
        }
        let written = crate::diagnostic::shown(source.get(span.clone()).unwrap_or(attr.name()));
        let el = crate::diagnostic::shown(element.qualified_name(source));
        let local = attr.name();
        let d = Diagnostic::new(
            &META,
            span,
            format!("unexpected attribute `{written}` on `<{el}>`"),
        );
        let xsi_like = XSI_ATTRIBUTES.contains(&local)
            && (written.contains(':') || local.ends_with("chemaLocation"));
        let d = if xsi_like {
            let d = d.with_label("not in the XML Schema instance namespace");
            match (attr.namespace(), written.split_once(':')) {
                (Some(ns), Some((prefix, _))) => {
                    let d = match prefix_declaration(sitemap, element, prefix) {
                        Some(value) => d.with_secondary(value, format!("`{prefix}` is bound here")),
                        None => d,
                    };
                    d.with_help(format!(
                        "`{prefix}` is bound to `{ns}`; XML Schema instance attributes need `xmlns:{prefix}=\"{XSI_NS}\"`"
                    ))
                }
                _ => d.with_help(format!(
                    "write it as `xsi:{local}` and declare `xmlns:xsi=\"{XSI_NS}\"` on the root"
                )),
            }
        } else if entry && Field::from_name(local).is_some() {
            d.with_label("sitemap elements have no attributes")
                .with_help(format!(
                    "write it as a child element: `<{local}>{}</{local}>`",
                    attr.value()
                ))
        } else if attr.namespace() == Some(XML_NS) {
            d.with_label("sitemap elements have no attributes")
                .with_help(format!(
                    "remove it: the protocol defines no `xml:{local}` on sitemap elements"
                ))
        } else if local == "hreflang" {
            d.with_label("sitemap elements have no attributes")
                .with_help("remove it: alternate language versions are listed with `<xhtml:link rel=\"alternate\" hreflang=\"…\" href=\"…\"/>` inside `<url>`")
        } else {
            d.with_label("sitemap elements have no attributes")
                .with_help("remove the attribute")
        };
        cx.report(d);
    }
}

/// The type the schema declares for `element` (`tLoc` for `<loc>` in a urlset), in the sitemap
/// namespace; `None` for the roots, whose types have no name, and for elements the file's kind
/// does not declare.
fn declared_type(kind: Kind, element: &Element<'_>) -> Option<&'static str> {
    if element.namespace() != Some(SITEMAP_NS) {
        return None;
    }
    Some(match (kind, element.local_name()) {
        (Kind::UrlSet, "url") => "tUrl",
        (Kind::UrlSet, "loc") => "tLoc",
        (Kind::UrlSet, "lastmod") => "tLastmod",
        (Kind::UrlSet, "changefreq") => "tChangeFreq",
        (Kind::UrlSet, "priority") => "tPriority",
        (Kind::Index, "sitemap") => "tSitemap",
        (Kind::Index, "loc") => "tLocSitemap",
        (Kind::Index, "lastmod") => "tLastmodSitemap",
        _ => return None,
    })
}

/// What is wrong with an attribute of the XML Schema instance namespace on a sitemap element:
/// `xsi:nil` (no sitemap element is nillable), an `xsi:type` naming another type than the
/// element's own (nothing in the schemas derives from another type), or a name the namespace
/// does not define. `xsi:schemaLocation` and `xsi:noNamespaceSchemaLocation` are the schema
/// rules'.
fn xsi_problem(
    sitemap: &Sitemap<'_>,
    element: &Element<'_>,
    attr: &roxmltree::Attribute<'_, '_>,
) -> Option<Diagnostic> {
    let source = sitemap.source;
    let base = element.base();
    let q = attr.range_qname();
    let span = q.start + base..q.end + base;
    let written = crate::diagnostic::shown(source.get(span.clone()).unwrap_or(attr.name()));
    let el = crate::diagnostic::shown(element.qualified_name(source));
    match attr.name() {
        "schemaLocation" | "noNamespaceSchemaLocation" => None,
        "nil" => Some(
            Diagnostic::new(&META, span, format!("`{written}` on `<{el}>`, which is not nillable"))
                .with_label("no sitemap element is nillable")
                .with_help("remove it: leave out an optional element that has no value; `<loc>` always needs one"),
        ),
        "type" => {
            let value = attr.value();
            let (prefix, local) = match value.split_once(':') {
                Some((p, l)) => (Some(p), l),
                None => (None, value),
            };
            let namespace = element.node.lookup_namespace_uri(prefix);
            let declared = declared_type(sitemap.kind, element);
            if declared.is_some_and(|t| namespace == Some(SITEMAP_NS) && local == t) {
                return None;
            }
            let shown_value = crate::diagnostic::shown(value);
            let d = Diagnostic::new(
                &META,
                span,
                format!("`{written}=\"{shown_value}\"` on `<{el}>` names a type it cannot take"),
            );
            Some(match declared {
                Some(t) => d
                    .with_label(format!("`<{el}>` is of the type `{t}`, from which no type derives"))
                    .with_help("remove it: sitemap elements take the types the schema gives them"),
                None => d
                    .with_label(format!("the type of `<{el}>` has no name, so no type replaces it"))
                    .with_help("remove it: sitemap elements take the types the schema gives them"),
            })
        }
        other => Some(
            Diagnostic::new(&META, span, format!("unknown XML Schema instance attribute `{written}` on `<{el}>`"))
                .with_label(format!("the namespace defines no `{}`", crate::diagnostic::shown(other)))
                .with_help("remove it: the `xsi` namespace defines only `type`, `nil`, `schemaLocation` and `noNamespaceSchemaLocation`"),
        ),
    }
}

/// The value span of the `xmlns:prefix` declaration in scope at `element` (on it, its entry or the
/// root).
fn prefix_declaration(
    sitemap: &Sitemap<'_>,
    element: &Element<'_>,
    prefix: &str,
) -> Option<Range<usize>> {
    let source = sitemap.source;
    let wanted = format!("xmlns:{prefix}");
    let base = element.base();
    element
        .node
        .ancestors()
        .filter(|n| n.is_element())
        .map(|n| Element::new(n, base, source))
        .find_map(|e| {
            e.raw_attributes(source)
                .into_iter()
                .find(|a| source.get(a.name.clone()) == Some(wanted.as_str()))
                .map(|a| a.value)
        })
}

impl Rule for Check {
    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        if sitemap.kind != Kind::Other {
            check_element(sitemap, &sitemap.root, false, cx);
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        check_element(sitemap, &entry.element, true, cx);
        for child in &entry.children {
            if matches!(child.kind, ChildKind::Field(_)) {
                check_element(sitemap, &child.element, false, cx);
            }
        }
    }
}
