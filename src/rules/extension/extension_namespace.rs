//! Rule `extension-namespace`: an extension namespace URI that is almost Google's (another version, `https`, a trailing slash, a typo).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{is_xml_space, Child, ChildKind, Element, Entry, Sitemap};
use crate::rule::{Collector, Context, Rule, RuleMeta};
use crate::values::namespace::{self, SITEMAP_NS};
use crate::values::text;

pub use crate::values::namespace::{known_by_prefix, KnownNamespace, KNOWN};

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

/// What a namespace URI of an extension element is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NamespaceClass {
    /// The sitemap namespace, or a mistake for it (the `namespace` rule's).
    Sitemap,
    /// Exactly one of [`KNOWN`].
    Known(KnownNamespace),
    /// Almost one of [`KNOWN`]; `why` says how it differs, in a few words.
    NearMiss { known: KnownNamespace, why: String },
    /// Another namespace: an extension sitemap-lint has no schema for.
    Unknown,
}

/// Classifies the namespace URI of an element that is not in the root's namespace.
pub fn classify(uri: &str) -> NamespaceClass {
    if let Some(k) = KNOWN.into_iter().find(|k| k.uri == uri) {
        return NamespaceClass::Known(k);
    }
    if namespace::is_sitemap_like(uri) {
        return NamespaceClass::Sitemap;
    }
    match near_miss(uri) {
        Some((known, why)) => NamespaceClass::NearMiss { known, why },
        None => NamespaceClass::Unknown,
    }
}

/// The known namespace without `http://www.` (`google.com/schemas/sitemap-image/1.1`).
fn core(uri: &'static str) -> &'static str {
    uri.strip_prefix("http://www.").unwrap_or(uri)
}

/// Joins reasons as prose: `a`, `a and b`, `a, b and c`.
fn join(reasons: &[String]) -> String {
    match reasons {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The known namespace `uri` is a mistake for, with what is wrong, if it is close to one.
fn near_miss(uri: &str) -> Option<(KnownNamespace, String)> {
    // Namespace URIs are short; a long one is nobody's typo (and distances stay cheap).
    if uri.len() > 200 {
        return None;
    }
    let trimmed = uri.trim_matches(is_xml_space);
    let lower = trimmed.to_ascii_lowercase();
    let (rest, scheme) = if let Some(r) = lower.strip_prefix("http://") {
        (r, "http")
    } else if let Some(r) = lower.strip_prefix("https://") {
        (r, "https")
    } else {
        (lower.as_str(), "")
    };
    let (rest, www) = match rest.strip_prefix("www.") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (rest, xsd) = if rest.ends_with(".xsd") {
        (rest.rsplit_once('/').map_or(rest, |(dir, _)| dir), true)
    } else {
        (rest, false)
    };
    let trimmed_rest = rest.trim_end_matches('/');
    let slash = trimmed_rest.len() != rest.len() && !xsd;
    let rest = trimmed_rest;

    let (known, mut reasons) = if let Some(k) = KNOWN.into_iter().find(|k| core(k.uri) == rest) {
        (k, Vec::new())
    } else if let Some(found) = google_family(rest) {
        found
    } else if rest.starts_with("w3.org/") && rest.contains("html") {
        (
            KNOWN[4],
            vec!["this is not the XHTML namespace of hreflang links".to_string()],
        )
    } else {
        let (k, d) = KNOWN
            .into_iter()
            .filter(|k| core(k.uri).len().abs_diff(rest.len()) <= 2)
            .map(|k| (k, text::distance(rest, core(k.uri))))
            .min_by_key(|(_, d)| *d)?;
        if d > 2 {
            return None;
        }
        (k, vec!["a typo".to_string()])
    };
    if trimmed.len() != uri.len() {
        reasons.push("surrounding whitespace".into());
    }
    match scheme {
        "https" => {
            reasons.push("`https` instead of `http` (a namespace is a name, not a link)".into())
        }
        "http" => {}
        _ => reasons.push("no `http://`".into()),
    }
    if !www {
        reasons.push("no `www.`".into());
    }
    if slash {
        reasons.push("a trailing slash".into());
    }
    if xsd {
        reasons.push("the address of the schema file".into());
    }
    if trimmed.bytes().any(|b| b.is_ascii_uppercase()) {
        reasons.push("capital letters (namespaces are case-sensitive)".into());
    }
    if reasons.is_empty() {
        reasons.push("a different spelling".into());
    }
    Some((known, join(&reasons)))
}

/// `…/sitemap-image/1.0`, `sitemaps.org/schemas/sitemap-video/1.1`: Google's extension names
/// with another version, no version, or on another Google (or sitemaps.org) host.
fn google_family(rest: &str) -> Option<(KnownNamespace, Vec<String>)> {
    let host = rest.split('/').next().unwrap_or("");
    if !(host.starts_with("google.") || host == "sitemaps.org") {
        return None;
    }
    for k in &KNOWN[..4] {
        let name = format!("sitemap-{}", k.prefix);
        let Some(at) = rest.find(&name) else { continue };
        let after = &rest[at + name.len()..];
        if !(after.is_empty() || after.starts_with('/')) {
            continue;
        }
        let want = core(k.uri);
        let want_version = want.rsplit('/').next().unwrap_or("");
        let mut reasons = Vec::new();
        if host != "google.com" {
            reasons.push(format!("the host `{host}` instead of `google.com`"));
        }
        match after.strip_prefix('/') {
            None | Some("") => reasons.push(format!("no version (`/{want_version}`)")),
            Some(v) if v != want_version => {
                reasons.push(format!("version `{v}` ({} is `{want_version}`)", k.name))
            }
            Some(_) => {}
        }
        if reasons.is_empty() {
            reasons.push("a different path".into());
        }
        return Some((*k, reasons));
    }
    None
}

/// The namespace declaration (`xmlns:prefix` or `xmlns`) in scope that binds the name of `el`:
/// on `el` itself or its nearest ancestor declaring it.
pub fn declaration_of<'a>(
    el: &Element<'a>,
    source: &str,
) -> Option<(Element<'a>, Range<usize>, Range<usize>)> {
    let wanted = match el.prefix(source) {
        Some(p) => format!("xmlns:{p}"),
        None => "xmlns".to_string(),
    };
    let base = el.base();
    for node in el.node.ancestors().filter(|n| n.is_element()) {
        let holder = Element::new(node, base, source);
        if let Some(a) = holder
            .raw_attributes(source)
            .into_iter()
            .find(|a| source.get(a.name.clone()) == Some(wanted.as_str()))
        {
            return Some((holder, a.name, a.value));
        }
    }
    None
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::namespace::{IMAGE_NS, MOBILE_NS, NEWS_NS, VIDEO_NS, XHTML_NS};

    fn near(uri: &str) -> Option<&'static str> {
        match classify(uri) {
            NamespaceClass::NearMiss { known, .. } => Some(known.uri),
            _ => None,
        }
    }

    #[test]
    fn near_misses_name_the_right_namespace() {
        for (uri, right) in [
            ("http://www.google.com/schemas/sitemap-image/1.0", IMAGE_NS),
            ("https://www.google.com/schemas/sitemap-image/1.1", IMAGE_NS),
            ("http://www.google.com/schemas/sitemap-image/1.1/", IMAGE_NS),
            ("http://google.com/schemas/sitemap-image/1.1", IMAGE_NS),
            ("http://www.google.com/schemas/sitemap-image", IMAGE_NS),
            (
                "http://www.sitemaps.org/schemas/sitemap-image/1.1",
                IMAGE_NS,
            ),
            ("http://www.google.com/schemas/sitemap-video/1.0", VIDEO_NS),
            ("http://www.google.com/schemas/sitemap-vidoe/1.1", VIDEO_NS),
            ("http://www.google.com/schemas/sitemap-news/0.84", NEWS_NS),
            ("HTTP://WWW.GOOGLE.COM/SCHEMAS/SITEMAP-NEWS/0.9", NEWS_NS),
            (
                "http://www.google.com/schemas/sitemap-mobile/1.0/",
                MOBILE_NS,
            ),
            (
                " http://www.google.com/schemas/sitemap-mobile/1.0",
                MOBILE_NS,
            ),
            ("http://www.w3.org/1999/xhtml/", XHTML_NS),
            ("https://www.w3.org/1999/xhtml", XHTML_NS),
            ("http://www.w3.org/1999/html", XHTML_NS),
            ("http://w3.org/1999/xhtml", XHTML_NS),
            ("http://www.w3.org/1999/xhtlm", XHTML_NS),
        ] {
            assert_eq!(near(uri), Some(right), "{uri}");
        }
    }

    #[test]
    fn other_namespaces_are_not_near_misses() {
        for uri in [
            "http://www.google.com/schemas/sitemap-pagemap/1.0",
            "http://www.google.com/schemas/sitemap-content/1.0",
            "http://www.google.com/geo/schemas/sitemap/1.0",
            "http://www.google.com/codesearch/schemas/sitemap/1.0",
            "http://www.baidu.com/schemas/sitemap-mobile/1/",
            "http://www.w3.org/2005/Atom",
            "http://www.w3.org/2001/XMLSchema-instance",
            "urn:example:extension",
            "",
        ] {
            assert_eq!(classify(uri), NamespaceClass::Unknown, "{uri}");
        }
        assert_eq!(classify(&"x".repeat(100_000)), NamespaceClass::Unknown);
        for uri in [
            SITEMAP_NS,
            "http://www.sitemaps.org/schemas/sitemap/0.9/",
            "http://www.google.com/schemas/sitemap/0.84",
        ] {
            assert_eq!(classify(uri), NamespaceClass::Sitemap, "{uri}");
        }
        for k in KNOWN {
            assert_eq!(classify(k.uri), NamespaceClass::Known(k));
        }
    }
}
