//! The namespace URIs sitemap-lint knows, each defined once, and the diagnosis of a namespace
//! that is almost the sitemap namespace (Google's retired one, `https`, a trailing slash, a typo).

use crate::values::text::{self, is_xml_space};

/// The sitemaps.org 0.9 namespace, for both `urlset` and `sitemapindex`.
pub const SITEMAP_NS: &str = "http://www.sitemaps.org/schemas/sitemap/0.9";
/// XML Schema instance attributes (`xsi:schemaLocation`) are allowed everywhere.
pub const XSI_NS: &str = "http://www.w3.org/2001/XMLSchema-instance";
/// The namespace of `xml:lang`, `xml:space`, `xml:base`: the `xml:` prefix, bound in every
/// document.
pub const XML_NS: &str = "http://www.w3.org/XML/1998/namespace";
/// The XHTML namespace: hreflang alternates are `<xhtml:link>` elements in it.
pub const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";
/// The image extension namespace (`sitemap-image.xsd`).
pub const IMAGE_NS: &str = "http://www.google.com/schemas/sitemap-image/1.1";
/// The video extension namespace (`sitemap-video.xsd`).
pub const VIDEO_NS: &str = "http://www.google.com/schemas/sitemap-video/1.1";
/// The news extension namespace (`sitemap-news.xsd`).
pub const NEWS_NS: &str = "http://www.google.com/schemas/sitemap-news/0.9";
/// The retired mobile extension namespace (`sitemap-mobile.xsd`), still seen in files.
pub const MOBILE_NS: &str = "http://www.google.com/schemas/sitemap-mobile/1.0";

/// Why `ns` is not the sitemap namespace, in a few words: the near miss it is, or
/// [`NOT_SITEMAP`].
pub fn diagnose(ns: &str) -> &'static str {
    near_miss(ns).unwrap_or(NOT_SITEMAP)
}

/// What [`diagnose`] says of a namespace that is nowhere near the sitemap namespace.
pub const NOT_SITEMAP: &str = "this is not the sitemap namespace";

/// How `ns` misses the sitemap namespace, when it is one of the usual mistakes.
fn near_miss(ns: &str) -> Option<&'static str> {
    let trimmed = ns.trim_matches(is_xml_space);
    if trimmed != ns {
        return Some("the namespace has surrounding whitespace");
    }
    if ns.starts_with("http://www.google.com/schemas/sitemap/") {
        return Some("this is Google's retired sitemap namespace");
    }
    if ns.eq_ignore_ascii_case(SITEMAP_NS) {
        return Some("namespaces are case-sensitive");
    }
    if ns.trim_end_matches('/') == "https://www.sitemaps.org/schemas/sitemap/0.9" {
        return Some("the namespace is `http`, not `https` (it is a name, not a link)");
    }
    if ns.trim_end_matches('/') == SITEMAP_NS {
        return Some("the namespace has no trailing slash");
    }
    if ns.trim_end_matches('/') == "http://sitemaps.org/schemas/sitemap/0.9" {
        return Some("the namespace includes `www.`");
    }
    if let Some(rest) = ns.strip_prefix(SITEMAP_NS) {
        if rest.ends_with(".xsd") {
            return Some("this is the address of the schema file, not the namespace");
        }
    }
    if ns.contains("sitemaps.org/schemas/sitemap/") {
        return Some("sitemaps.org defines only version `0.9`");
    }
    if ns.len() <= 2 * SITEMAP_NS.len() && text::distance(ns, SITEMAP_NS) <= 4 {
        return Some("the namespace is misspelled");
    }
    None
}

/// Whether `ns` is the sitemap namespace or one of the mistakes [`diagnose`] recognises (Google's
/// retired namespaces, `https`, a trailing slash, a typo…): the namespace of sitemap elements,
/// never an extension's.
pub fn is_sitemap_like(ns: &str) -> bool {
    let ns = ns.trim_matches(is_xml_space);
    ns == SITEMAP_NS || near_miss(ns).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_misses_are_named() {
        for (ns, why) in [
            (
                " http://www.sitemaps.org/schemas/sitemap/0.9",
                "the namespace has surrounding whitespace",
            ),
            (
                "http://www.google.com/schemas/sitemap/0.84",
                "this is Google's retired sitemap namespace",
            ),
            (
                "HTTP://WWW.SITEMAPS.ORG/schemas/sitemap/0.9",
                "namespaces are case-sensitive",
            ),
            (
                "https://www.sitemaps.org/schemas/sitemap/0.9/",
                "the namespace is `http`, not `https` (it is a name, not a link)",
            ),
            (
                "http://www.sitemaps.org/schemas/sitemap/0.9/",
                "the namespace has no trailing slash",
            ),
            (
                "http://sitemaps.org/schemas/sitemap/0.9",
                "the namespace includes `www.`",
            ),
            (
                "http://www.sitemaps.org/schemas/sitemap/0.9/sitemap.xsd",
                "this is the address of the schema file, not the namespace",
            ),
            (
                "http://www.sitemaps.org/schemas/sitemap/1.0",
                "sitemaps.org defines only version `0.9`",
            ),
            (
                "http://www.sitemap.org/schemas/sitemap/0.9",
                "the namespace is misspelled",
            ),
            (IMAGE_NS, NOT_SITEMAP),
            (XHTML_NS, NOT_SITEMAP),
        ] {
            assert_eq!(diagnose(ns), why, "{ns}");
        }
    }

    #[test]
    fn sitemap_like_is_the_namespace_or_a_near_miss() {
        assert!(is_sitemap_like(SITEMAP_NS));
        assert!(is_sitemap_like(
            " http://www.sitemaps.org/schemas/sitemap/0.9 "
        ));
        assert!(is_sitemap_like(
            "http://www.sitemaps.org/schemas/sitemap/0.9/"
        ));
        assert!(is_sitemap_like("http://www.google.com/schemas/sitemap/0.9"));
        for other in [
            IMAGE_NS, VIDEO_NS, NEWS_NS, MOBILE_NS, XHTML_NS, XSI_NS, XML_NS, "",
        ] {
            assert!(!is_sitemap_like(other), "{other}");
        }
    }
}

/// A namespace whose elements sitemap-lint knows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KnownNamespace {
    /// The conventional prefix.
    pub prefix: &'static str,
    pub uri: &'static str,
    /// What it is, for messages ("Google's image extension").
    pub name: &'static str,
}

/// Google's extensions and XHTML, the namespaces of extension elements sitemap-lint checks.
pub const KNOWN: [KnownNamespace; 5] = [
    KnownNamespace {
        prefix: "image",
        uri: IMAGE_NS,
        name: "Google's image extension",
    },
    KnownNamespace {
        prefix: "video",
        uri: VIDEO_NS,
        name: "Google's video extension",
    },
    KnownNamespace {
        prefix: "news",
        uri: NEWS_NS,
        name: "Google's news extension",
    },
    KnownNamespace {
        prefix: "mobile",
        uri: MOBILE_NS,
        name: "Google's mobile extension",
    },
    KnownNamespace {
        prefix: "xhtml",
        uri: XHTML_NS,
        name: "XHTML (hreflang `<xhtml:link>`)",
    },
];

/// The known namespace conventionally bound to `prefix`.
pub fn known_by_prefix(prefix: &str) -> Option<KnownNamespace> {
    KNOWN.into_iter().find(|k| k.prefix == prefix)
}
