//! Rule `unexpected-attribute`: an attribute on a sitemap element (other than namespace declarations and `xsi:*`).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{ChildKind, Element, Entry, Kind, Sitemap, XSI_NS};
use crate::rule::{Context, Rule, RuleMeta};

declare_rule! {
    /// ## What it does
    /// Reports attributes on `<urlset>`, `<sitemapindex>`, `<url>`, `<sitemap>`, `<loc>`,
    /// `<lastmod>`, `<changefreq>` and `<priority>`. Namespace declarations (`xmlns`, `xmlns:image`)
    /// and XML Schema instance attributes (`xsi:schemaLocation`) are allowed everywhere. Extension
    /// elements are not checked by this rule.
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
    /// - XML Schema Part 1 §3.2.7 (`xsi:` attributes are always allowed)
    pub static META = {
        name: "unexpected-attribute",
        category: Structure,
        severity: Error,
        summary: "an attribute on a sitemap element",
    }
}

pub struct Check;

fn check_element(sitemap: &Sitemap<'_>, element: &Element<'_>, cx: &mut Context<'_>) {
    let base = element.span.start - element.node.range().start;
    for attr in element.node.attributes() {
        if attr.namespace() == Some(XSI_NS) {
            continue;
        }
        let r = attr.range();
        let span = r.start + base..r.end + base;
        let written = sitemap.source.get(attr.range_qname().start + base..attr.range_qname().end + base).unwrap_or(attr.name());
        let el = element.qualified_name(sitemap.source);
        let mut d = Diagnostic::new(
            &META,
            span,
            format!("unexpected attribute `{written}` on `<{el}>`"),
        )
        .with_label("sitemap elements have no attributes");
        let local = attr.name();
        d = if crate::model::Field::from_name(local).is_some() {
            d.with_help(format!(
                "write it as a child element: `<{local}>{}</{local}>`",
                attr.value()
            ))
        } else if written.starts_with("xsi:") || local == "schemaLocation" {
            d.with_help(format!("declare the XSI namespace for this prefix: `xmlns:xsi=\"{XSI_NS}\"`"))
        } else {
            d.with_help("remove the attribute")
        };
        cx.report(d);
    }
}

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        if sitemap.kind != Kind::Other {
            check_element(sitemap, &sitemap.root, cx);
        }
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        check_element(sitemap, &entry.element, cx);
        for child in &entry.children {
            if matches!(child.kind, ChildKind::Field(_)) {
                check_element(sitemap, &child.element, cx);
            }
        }
    }
}
