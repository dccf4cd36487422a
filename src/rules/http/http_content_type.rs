//! Rule `http-content-type`: a sitemap served with a Content-Type that is none of the XML, text or gzip types.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports a sitemap whose `Content-Type` is none of the types a sitemap is served with:
    /// `application/xml`, `text/xml` (or another `+xml` type), `text/plain` (text sitemaps),
    /// `application/gzip` or `application/x-gzip`. A missing `Content-Type` is reported too, and
    /// so is a `Content-Encoding` other than `gzip` (the only one asked for). An HTML page is
    /// `sitemap-is-html`; a sitemap served as `text/html` is this rule. The finding is placed
    /// where the URL came from.
    ///
    /// ## Why is this bad?
    /// Crawlers sniff the content, but a wrong type is a sign that the server does not know the
    /// file: `application/octet-stream` for a `.xml` file means no MIME mapping, and proxies and
    /// CDNs may transform or refuse to cache what they do not recognise.
    ///
    /// ## Example
    /// ```text
    /// GET /sitemap.xml HTTP/1.1
    /// HTTP/1.1 200 OK
    /// Content-Type: application/octet-stream
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// GET /sitemap.xml HTTP/1.1
    /// HTTP/1.1 200 OK
    /// Content-Type: application/xml; charset=utf-8
    /// ```
    ///
    /// ## Fix
    /// Not fixable in the file: map `.xml` to `application/xml` and `.gz` to `application/gzip`
    /// in the server's or CDN's configuration.
    ///
    /// ## References
    /// - RFC 7303 (XML media types)
    /// - sitemaps.org FAQ: sitemaps may be compressed with gzip
    pub static META = {
        name: "http-content-type",
        category: Http,
        severity: Warning,
        summary: "a sitemap's Content-Type is none of the XML, text or gzip types",
    }
}

impl Rule for Check {}

/// Whether a `Content-Type` value is one a sitemap may be served with (parameters ignored).
pub fn acceptable(content_type: &str) -> bool {
    let t = content_type
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(
        t.as_str(),
        "application/xml" | "text/xml" | "text/plain" | "application/gzip" | "application/x-gzip"
    ) || t.ends_with("+xml")
}

/// The sitemap at `url` was served as `content_type` (`None`: without one).
pub fn wrong(span: Range<usize>, url: &str, content_type: Option<&str>) -> Diagnostic {
    let what = match content_type {
        Some(t) => format!("`Content-Type: {}`", shown(t)),
        None => "no `Content-Type`".to_owned(),
    };
    Diagnostic::new(
        &META,
        span,
        format!("the sitemap `{}` is served with {what}", shown(url)),
    )
    .with_label("not an XML, text or gzip type")
    .with_help("serve sitemaps as `application/xml` (`.xml`), `application/gzip` (`.xml.gz`) or `text/plain` (`.txt`)")
}

/// The sitemap at `url` came with a `Content-Encoding` that was not asked for.
pub fn encoding(span: Range<usize>, url: &str, coding: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!(
            "the sitemap `{}` is served with `Content-Encoding: {}`, which was not asked for",
            shown(url),
            shown(coding)
        ),
    )
    .with_label("unknown content coding")
    .with_note("the request accepted `gzip` only; the body was not checked")
    .with_help("serve the sitemap uncompressed or with `Content-Encoding: gzip` to clients that ask for it")
}
