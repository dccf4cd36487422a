//! Rule `extension-namespace`: an extension namespace URI that is almost Google's (another version, `https`, a trailing slash, a typo).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Child, ChildKind, Element, Entry, Sitemap};
use crate::rule::{Collector, Context, Rule};
use crate::rules::extension::{classify, declaration_of, NamespaceClass};
use crate::values::namespace::{KNOWN, SITEMAP_NS};

declare_rule! {
    /// ## What it does
    /// Checks the namespace URIs of extension elements against the namespaces sitemap-lint knows:
    /// `http://www.google.com/schemas/sitemap-image/1.1`, `…/sitemap-video/1.1`,
    /// `…/sitemap-news/0.9`, the retired `…/sitemap-mobile/1.0`, and `http://www.w3.org/1999/xhtml`
    /// for hreflang `<xhtml:link>` elements. A declaration (`xmlns:image="…"`, or `xmlns="…"` on an
    /// extension element) whose URI is close to one of them is reported: another version
    /// (`sitemap-image/1.0`), `https`, a trailing slash, `www.` missing, other letter case, the
    /// schema file's address (`….xsd`), a typo, `http://www.w3.org/1999/html`. Each wrong URI is
    /// reported once per file, on the declaration, with the first element that uses it labelled.
    /// The elements in that namespace are not checked further (they are not the extension's
    /// elements until the URI is fixed), so one mistake gives one error.
    ///
    /// ## Why is this bad?
    /// A namespace is compared character by character: to search engines and schema validators
    /// `<image:image>` in `sitemap-image/1.0` is an unknown element, and every image of the file is
    /// ignored. Search Console reports it as "Incorrect namespace", and often hundreds of "Invalid
    /// XML tag" and "Missing XML tag" errors after it.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.0">
    ///   <url>
    ///     <loc>https://www.example.com/sample.html</loc>
    ///     <image:image><image:loc>https://www.example.com/image.jpg</image:loc></image:image>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/sample.html</loc>
    ///     <image:image><image:loc>https://www.example.com/image.jpg</image:loc></image:image>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - `sitemap-image.xsd`, `sitemap-video.xsd`, `sitemap-news.xsd`, `sitemap-mobile.xsd`: their `targetNamespace`
    /// - Google Search Central, "Image sitemaps", "Video sitemaps", "News sitemaps", "Localized versions of your page" (`xmlns:xhtml="http://www.w3.org/1999/xhtml"`)
    /// - Namespaces in XML 1.0, 3rd edition, §2.3: namespace names are compared as strings, character by character
    pub static META = {
        name: "extension-namespace",
        category: Structure,
        severity: Error,
        summary: "an extension namespace URI close to Google's (another version, `https`, a trailing slash, a typo)",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, _sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        Some(Box::new(Reported::default()))
    }
}

/// The wrong URIs already reported in this file (a handful at most: each is one declaration).
#[derive(Default)]
struct Reported {
    uris: Vec<Box<str>>,
    /// URIs seen that are not near misses (known, unknown), so that each is classified once.
    fine: Vec<Box<str>>,
}

/// Distinct namespace URIs remembered per file; beyond, they are classified again (still cheap).
const MAX_REMEMBERED: usize = 64;

impl Reported {
    /// Reports the namespace of `el` if it is a near miss not reported yet.
    fn element(&mut self, sitemap: &Sitemap<'_>, el: &Element<'_>, cx: &mut Context<'_>) {
        let Some(uri) = el.namespace() else { return };
        if uri == SITEMAP_NS
            || Some(uri) == sitemap.namespace
            || self.uris.iter().any(|u| **u == *uri)
            || self.fine.iter().any(|u| **u == *uri)
            || KNOWN.iter().any(|k| k.uri == uri)
        {
            return;
        }
        let NamespaceClass::NearMiss { known, why } = classify(uri) else {
            if self.fine.len() < MAX_REMEMBERED {
                self.fine.push(uri.into());
            }
            return;
        };
        self.uris.push(uri.into());
        let source = sitemap.source;
        let name = el.qualified_name(source);
        let (span, attr) = match declaration_of(el, source) {
            Some((_, attr, value)) => (value, source.get(attr).unwrap_or("xmlns").to_string()),
            None => (el.name_span.clone(), "xmlns".to_string()),
        };
        let mut d = Diagnostic::new(
            &META,
            span.clone(),
            format!("wrong namespace URI for {}", known.name),
        )
        .with_label(why);
        if span != el.name_span {
            d = d.with_secondary(
                el.name_span.clone(),
                format!("`<{name}>` is in this namespace"),
            );
        }
        cx.report(
            d.with_help(format!("use exactly `{attr}=\"{}\"`", known.uri))
                .with_note(format!(
                    "until it is fixed, search engines do not read the elements of this namespace as {}, and sitemap-lint does not check them",
                    known.name
                )),
        );
    }

    fn children(&mut self, sitemap: &Sitemap<'_>, children: &[Child<'_>], cx: &mut Context<'_>) {
        for child in children {
            if child.kind == ChildKind::Foreign {
                self.element(sitemap, &child.element, cx);
            }
        }
    }
}

impl<'a> Collector<'a> for Reported {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        self.children(sitemap, &entry.children, cx);
    }

    fn finish(mut self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        self.children(sitemap, &sitemap.other_children, cx);
        // Declarations on the root that no element checked above uses.
        let source = sitemap.source;
        for attr in sitemap.root.raw_attributes(source) {
            let Some(name) = source.get(attr.name.clone()) else {
                continue;
            };
            if !(name == "xmlns" || name.starts_with("xmlns:")) {
                continue;
            }
            let Some(uri) = source.get(attr.value.clone()) else {
                continue;
            };
            if Some(uri) == sitemap.namespace
                || self.uris.iter().any(|u| **u == *uri)
                || KNOWN.iter().any(|k| k.uri == uri)
            {
                continue;
            }
            if let NamespaceClass::NearMiss { known, why } = classify(uri) {
                self.uris.push(uri.into());
                cx.report(
                    Diagnostic::new(
                        &META,
                        attr.value.clone(),
                        format!("wrong namespace URI for {}", known.name),
                    )
                    .with_label(why)
                    .with_help(format!("use exactly `{name}=\"{}\"`", known.uri)),
                );
            }
        }
    }
}
