//! The schema header of the root (`xsi:schemaLocation`, `xsi:noNamespaceSchemaLocation`): its URIs with their spans, the official schema locations and their near misses, and which paired namespaces the file uses.

pub mod schema_location;
pub mod schema_location_unused;

use std::borrow::Cow;
use std::ops::Range;

use crate::diagnostic::Edit;
use crate::pipeline::model::{Child, ChildKind, Entry, Kind, Sitemap, SITEMAP_NS};
use crate::rule::{Collector, Context, RuleMeta};
use crate::rules::structure::unexpected_attribute;
use crate::values::namespace;
use crate::values::namespace::{IMAGE_NS, MOBILE_NS, NEWS_NS, VIDEO_NS};
use crate::values::text::{self, is_xml_space};

/// Whether `rule` judges the text of the schema header (`schema-location`,
/// `schema-location-unused`): like the value rules, its findings on text patched over after an
/// XML error, or decoded from bytes that were not UTF-8, are dropped (the error is already
/// reported).
pub fn judges_header(rule: &RuleMeta) -> bool {
    rule == &schema_location::META || rule == &schema_location_unused::META
}

/// Whether `unexpected-attribute` is on, which reports a schema header in a wrong namespace.
fn unexpected_attribute_on(settings: &crate::Settings) -> bool {
    settings.severity_of(&unexpected_attribute::META).is_some()
}

/// Whether `schema-location` is on, which reports a pair with a misspelled namespace.
fn schema_location_on(settings: &crate::Settings) -> bool {
    settings.severity_of(&schema_location::META).is_some()
}

/// The official schema of `<urlset>`.
pub const SITEMAP_XSD: &str = "http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd";
/// The official schema of `<sitemapindex>`.
pub const SITEINDEX_XSD: &str = "http://www.sitemaps.org/schemas/sitemap/0.9/siteindex.xsd";

/// Google's extension namespaces and the official locations of their schemas.
const EXTENSION_SCHEMAS: [(&str, &str); 4] = [
    (
        IMAGE_NS,
        "http://www.google.com/schemas/sitemap-image/1.1/sitemap-image.xsd",
    ),
    (
        VIDEO_NS,
        "http://www.google.com/schemas/sitemap-video/1.1/sitemap-video.xsd",
    ),
    (
        NEWS_NS,
        "http://www.google.com/schemas/sitemap-news/0.9/sitemap-news.xsd",
    ),
    (
        MOBILE_NS,
        "http://www.google.com/schemas/sitemap-mobile/1.0/sitemap-mobile.xsd",
    ),
];

/// Pairs of `xsi:schemaLocation` looked at; the URIs after them are only counted (a real header
/// has a handful).
pub const MAX_PAIRS: usize = 64;

/// The official schema location for namespace `ns` in a file whose root is of `kind`.
pub fn official(ns: &str, kind: Kind) -> Option<&'static str> {
    if ns == SITEMAP_NS {
        return match kind {
            Kind::UrlSet => Some(SITEMAP_XSD),
            Kind::Index => Some(SITEINDEX_XSD),
            Kind::Other => None,
        };
    }
    EXTENSION_SCHEMAS
        .iter()
        .find(|(n, _)| *n == ns)
        .map(|(_, xsd)| *xsd)
}

/// What an official schema location declares, for messages.
fn schema_of(xsd: &str) -> Option<String> {
    if xsd == SITEMAP_XSD {
        return Some("the schema of `<urlset>`".into());
    }
    if xsd == SITEINDEX_XSD {
        return Some("the schema of `<sitemapindex>`".into());
    }
    EXTENSION_SCHEMAS
        .iter()
        .find(|(_, x)| *x == xsd)
        .map(|(ns, _)| format!("the schema of `{ns}`"))
}

/// `uri` for a message: clipped after 100 characters (a value can be megabytes long).
pub fn shown(uri: &str) -> Cow<'_, str> {
    match uri.char_indices().nth(100) {
        Some((at, _)) => Cow::Owned(format!("{}…", &uri[..at])),
        None => Cow::Borrowed(uri),
    }
}

/// A URI of a schema header and where it is written.
#[derive(Debug, Clone)]
pub struct Uri<'a> {
    pub text: &'a str,
    pub span: Range<usize>,
    /// Whether `span` is exactly the URI (not the whole value of an attribute with character
    /// references): only then can a fix edit it.
    pub exact: bool,
}

impl Uri<'_> {
    /// An edit replacing this URI with `with`, when its span is exact.
    pub fn replace(&self, with: &str) -> Option<Edit> {
        self.exact.then(|| Edit::replace(self.span.clone(), with))
    }
}

/// An `xsi:schemaLocation` or `xsi:noNamespaceSchemaLocation` attribute of the root (or an
/// attribute of the same local name in another namespace).
#[derive(Debug, Clone)]
pub struct Header<'a> {
    /// `true` for `noNamespaceSchemaLocation`.
    pub no_namespace: bool,
    /// The qualified name as written, and its span.
    pub written: &'a str,
    pub name_span: Range<usize>,
    /// The namespace the attribute is in.
    pub namespace: Option<&'a str>,
    /// The first URIs (at most `2 * MAX_PAIRS`), with their spans.
    pub uris: Vec<Uri<'a>>,
    /// Every URI of the value, counted.
    pub count: usize,
    /// The last URI of the value.
    pub last: Option<Uri<'a>>,
}

impl<'a> Header<'a> {
    /// The complete pairs among the first URIs: (namespace, location).
    pub fn pairs(&self) -> impl Iterator<Item = (&Uri<'a>, &Uri<'a>)> {
        self.uris.chunks_exact(2).map(|p| (&p[0], &p[1]))
    }
}

/// The schema headers of the root of `sitemap` (none for a root that is not a sitemap's).
pub fn headers<'a>(sitemap: &Sitemap<'a>) -> Vec<Header<'a>> {
    let mut out = Vec::new();
    if sitemap.kind == Kind::Other {
        return out;
    }
    let source = sitemap.source;
    let base = sitemap.root.base();
    for attr in sitemap.root.node.attributes() {
        let no_namespace = match attr.name() {
            "schemaLocation" => false,
            "noNamespaceSchemaLocation" => true,
            _ => continue,
        };
        let q = attr.range_qname();
        let name_span = q.start + base..q.end + base;
        let v = attr.range_value();
        let value_span = v.start + base..v.end + base;
        let raw = source.get(value_span.clone()).unwrap_or("");
        let mut header = Header {
            no_namespace,
            written: source.get(name_span.clone()).unwrap_or(attr.name()),
            name_span,
            namespace: attr.namespace(),
            uris: Vec::new(),
            count: 0,
            last: None,
        };
        // Spans point at each URI as written; a value with character references (rare) is read
        // decoded, each URI then pointing at the whole value.
        let tokens: Box<dyn Iterator<Item = Uri<'a>>> = if raw.contains('&') {
            let value_span = value_span.clone();
            Box::new(
                attr.value()
                    .split(is_xml_space)
                    .filter(|t| !t.is_empty())
                    .map(move |text| Uri {
                        text,
                        span: value_span.clone(),
                        exact: false,
                    }),
            )
        } else {
            Box::new(tokens(raw, value_span.start))
        };
        for uri in tokens {
            header.count += 1;
            if header.uris.len() < 2 * MAX_PAIRS {
                header.uris.push(uri.clone());
            }
            header.last = Some(uri);
        }
        out.push(header);
    }
    out
}

/// The whitespace-separated words of `raw`, which starts at `start` in the source.
fn tokens(raw: &str, start: usize) -> impl Iterator<Item = Uri<'_>> {
    let mut at = 0;
    std::iter::from_fn(move || {
        let rest = raw.get(at..)?;
        let skip = rest.len() - rest.trim_start_matches(is_xml_space).len();
        let word = &rest[skip..];
        let len = word.find(is_xml_space).unwrap_or(word.len());
        if len == 0 {
            at = raw.len();
            return None;
        }
        let from = at + skip;
        at = from + len;
        Some(Uri {
            text: &raw[from..from + len],
            span: start + from..start + from + len,
            exact: true,
        })
    })
}

/// Why a pair's namespace is a misspelling of a known namespace, and which one.
pub fn namespace_miss(ns: &str) -> Option<(&'static str, String)> {
    if ns == SITEMAP_NS || EXTENSION_SCHEMAS.iter().any(|(n, _)| *n == ns) {
        return None;
    }
    if namespace::is_sitemap_like(ns) {
        return Some((SITEMAP_NS, namespace::diagnose(ns).to_owned()));
    }
    let http = with_http(ns);
    for (known, xsd) in EXTENSION_SCHEMAS {
        let why = if ns.eq_ignore_ascii_case(known) {
            "namespaces are case-sensitive"
        } else if http.trim_end_matches('/') == known && http.len() != ns.len() {
            "the namespace is `http`, not `https` (it is a name, not a link)"
        } else if ns.trim_end_matches('/') == known {
            "the namespace has no trailing slash"
        } else if ns == xsd || http == xsd {
            "this is the address of the schema file, not the namespace"
        } else if same_but_version(&http, known) {
            "Google publishes this extension in one version only"
        } else if ns.len() <= 2 * known.len() && text::distance(ns, known) <= 3 {
            "the namespace is misspelled"
        } else {
            continue;
        };
        return Some((known, why.into()));
    }
    None
}

/// `uri` with `https://` replaced by `http://`.
fn with_http(uri: &str) -> String {
    match uri.strip_prefix("https://") {
        Some(rest) => format!("http://{rest}"),
        None => uri.to_string(),
    }
}

/// Whether `a` and `b` differ only in one path segment that is a version number (`1.0`, `0.84`).
fn same_but_version(a: &str, b: &str) -> bool {
    let is_version = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit() || c == b'.');
    let (sa, sb): (Vec<&str>, Vec<&str>) = (a.split('/').collect(), b.split('/').collect());
    sa.len() == sb.len()
        && sa
            .iter()
            .zip(&sb)
            .filter(|(x, y)| x != y)
            .map(|(x, y)| is_version(x) && is_version(y))
            .collect::<Vec<_>>()
            == [true]
}

/// How a location differs from the official one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LocationMiss {
    /// The official location of another schema (described).
    OtherSchema(String),
    /// `https` where the schema is published at `http`.
    Https,
    /// A relative reference, resolved against the sitemap's own address.
    Relative,
    /// Another version of the schema.
    Stale,
    /// A misspelling.
    Typo,
    /// Some other address.
    Unofficial,
}

/// How `loc` misses `expected`, the official location; `None` when it is exactly that.
pub fn location_miss(loc: &str, expected: &str) -> Option<LocationMiss> {
    if loc == expected {
        return None;
    }
    let http = with_http(loc);
    if http == expected {
        return Some(LocationMiss::Https);
    }
    if let Some(other) = schema_of(&http) {
        return Some(LocationMiss::OtherSchema(other));
    }
    let scheme = loc.split_once(':').is_some_and(|(s, _)| {
        !s.is_empty()
            && s.bytes()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'-' | b'.'))
    });
    if !scheme {
        return Some(LocationMiss::Relative);
    }
    let google_sitemap = http.starts_with("http://www.google.com/schemas/sitemap/")
        && http.ends_with("/sitemap.xsd")
        && expected == SITEMAP_XSD;
    if google_sitemap || same_but_version(&http, expected) {
        return Some(LocationMiss::Stale);
    }
    if http.eq_ignore_ascii_case(expected)
        || (loc.len() <= 2 * expected.len() && text::distance(&http, expected) <= 4)
    {
        return Some(LocationMiss::Typo);
    }
    Some(LocationMiss::Unofficial)
}

/// Which namespaces of the pairs of the schema headers elements of the file are in: the sitemap
/// namespace and the root's always, the others once an element in them is seen.
pub struct Usage<'a> {
    /// The pairs' namespaces no element has been seen in yet.
    pending: Vec<&'a str>,
}

impl<'a> Usage<'a> {
    fn new(sitemap: &Sitemap<'a>, headers: &[Header<'a>]) -> Self {
        let mut pending = Vec::new();
        for header in headers.iter().filter(|h| !h.no_namespace) {
            for (ns, _) in header.pairs() {
                // The root is a `<urlset>` or `<sitemapindex>`: meant to be in the sitemap
                // namespace, even when it is not (`namespace` reports that).
                let used = ns.text == SITEMAP_NS || Some(ns.text) == sitemap.namespace;
                if !used && !pending.contains(&ns.text) {
                    pending.push(ns.text);
                }
            }
        }
        Usage { pending }
    }

    /// Whether an element of the file is in namespace `ns` (as far as the file has been seen).
    pub fn is_used(&self, ns: &str) -> bool {
        !self.pending.contains(&ns)
    }

    fn seen(&mut self, ns: Option<&str>) {
        if let Some(ns) = ns {
            self.pending.retain(|p| *p != ns);
        }
    }

    /// Sees `node` and its descendants.
    fn see_tree(&mut self, node: roxmltree::Node<'_, '_>) {
        for n in node.descendants().filter(|n| n.is_element()) {
            if self.pending.is_empty() {
                return;
            }
            self.seen(n.tag_name().namespace());
        }
    }

    fn entry(&mut self, entry: &Entry<'_>) {
        if self.pending.is_empty() {
            return;
        }
        self.seen(entry.element.namespace());
        for child in &entry.children {
            if child.kind == ChildKind::Foreign {
                self.see_tree(child.element.node);
            } else {
                self.seen(child.element.namespace());
            }
        }
    }
}

/// How a rule on the schema headers reports, once every element has been seen.
pub type Report = for<'s> fn(&Sitemap<'s>, &[Header<'s>], &Usage<'s>, &mut Context<'_>);

/// The per-file state of the rules on the schema headers: the root's headers, and which of their
/// namespaces are used. The root's attributes are in the first piece of a split file, so the
/// headers are read once from the head; the elements are seen in every piece.
pub struct HeaderCollector<'a> {
    headers: Vec<Header<'a>>,
    usage: Usage<'a>,
    report: Report,
}

impl<'a> HeaderCollector<'a> {
    /// `None` when the root has no schema header.
    pub fn boxed(
        sitemap: &Sitemap<'a>,
        report: Report,
    ) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        let headers = headers(sitemap);
        if headers.is_empty() {
            return None;
        }
        let usage = Usage::new(sitemap, &headers);
        Some(Box::new(HeaderCollector {
            headers,
            usage,
            report,
        }))
    }
}

impl<'a> Collector<'a> for HeaderCollector<'a> {
    fn entry(&mut self, _sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        self.usage.entry(entry);
    }

    fn root_child(&mut self, _sitemap: &Sitemap<'a>, child: &Child<'_>, _cx: &mut Context<'_>) {
        if !self.usage.pending.is_empty() {
            self.usage.see_tree(child.element.node);
        }
    }

    fn finish(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        (self.report)(sitemap, &self.headers, &self.usage, cx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_named() {
        let m = |loc| location_miss(loc, SITEMAP_XSD);
        assert_eq!(m(SITEMAP_XSD), None);
        assert!(matches!(
            m(SITEINDEX_XSD),
            Some(LocationMiss::OtherSchema(_))
        ));
        assert_eq!(
            m("https://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd"),
            Some(LocationMiss::Https)
        );
        assert_eq!(m("sitemap.xsd"), Some(LocationMiss::Relative));
        assert_eq!(m("/schemas/sitemap.xsd"), Some(LocationMiss::Relative));
        assert_eq!(
            m("http://www.google.com/schemas/sitemap/0.84/sitemap.xsd"),
            Some(LocationMiss::Stale)
        );
        assert_eq!(
            m("http://www.sitemaps.org/schemas/sitemap/0.84/sitemap.xsd"),
            Some(LocationMiss::Stale)
        );
        assert_eq!(
            m("http://www.sitemaps.org/schemas/sitemap/0.9/sitemaps.xsd"),
            Some(LocationMiss::Typo)
        );
        assert_eq!(
            m("http://sitemaps.org/schemas/sitemap/0.9/sitemap.xsd"),
            Some(LocationMiss::Typo)
        );
        assert_eq!(
            m("https://www.example.com/sitemap.xsd"),
            Some(LocationMiss::Unofficial)
        );
        assert_eq!(
            location_miss(
                "http://www.google.com/schemas/sitemap-video/1.0/sitemap-video.xsd",
                "http://www.google.com/schemas/sitemap-video/1.1/sitemap-video.xsd"
            ),
            Some(LocationMiss::Stale)
        );
    }

    #[test]
    fn namespace_misses_name_the_namespace_meant() {
        assert_eq!(namespace_miss(SITEMAP_NS), None);
        assert_eq!(namespace_miss(IMAGE_NS), None);
        assert_eq!(namespace_miss("http://www.w3.org/1999/xhtml"), None);
        assert_eq!(namespace_miss(crate::pipeline::model::XSI_NS), None);
        for ns in [
            "https://www.sitemaps.org/schemas/sitemap/0.9",
            "http://www.google.com/schemas/sitemap/0.84",
            SITEMAP_XSD,
        ] {
            assert_eq!(namespace_miss(ns).map(|(k, _)| k), Some(SITEMAP_NS), "{ns}");
        }
        for ns in [
            "https://www.google.com/schemas/sitemap-image/1.1",
            "http://www.google.com/schemas/sitemap-image/1.1/",
            "http://www.google.com/schemas/sitemap-image/1.0",
            "http://www.google.com/schemas/sitemap-imag/1.1",
        ] {
            assert_eq!(namespace_miss(ns).map(|(k, _)| k), Some(IMAGE_NS), "{ns}");
        }
    }

    #[test]
    fn tokens_keep_their_spans() {
        let got: Vec<_> = tokens("  a \n\tbb c ", 10)
            .map(|u| (u.text, u.span))
            .collect();
        assert_eq!(got, [("a", 12..13), ("bb", 16..18), ("c", 19..20)]);
        assert_eq!(tokens("", 0).count(), 0);
        assert_eq!(tokens(" \n ", 0).count(), 0);
    }
}
