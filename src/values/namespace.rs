//! Namespace URIs of the sitemap extensions and the prefixes conventionally bound to them.
//!
//! Created for `pipeline::xml` (the namespace a misspelled or undeclared prefix probably meant),
//! which must not import rules; the other namespace constants may join it.

/// The image extension namespace (`sitemap-image.xsd`).
pub const IMAGE_NS: &str = "http://www.google.com/schemas/sitemap-image/1.1";
/// The video extension namespace (`sitemap-video.xsd`).
pub const VIDEO_NS: &str = "http://www.google.com/schemas/sitemap-video/1.1";
/// The news extension namespace (`sitemap-news.xsd`).
pub const NEWS_NS: &str = "http://www.google.com/schemas/sitemap-news/0.9";
/// The retired mobile extension namespace (`sitemap-mobile.xsd`), still seen in files.
pub const MOBILE_NS: &str = "http://www.google.com/schemas/sitemap-mobile/1.0";

/// The XHTML namespace: hreflang alternates are `<xhtml:link>` elements in it.
pub const XHTML_NS: &str = "http://www.w3.org/1999/xhtml";

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
