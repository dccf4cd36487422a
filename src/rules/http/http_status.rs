//! Rule `http-status`: a robots.txt, sitemap or index child that does not end in 200, or could not be fetched at all.

use std::ops::Range;

use super::Fetched;
use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic, Severity};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports a robots.txt, a sitemap or a child of a sitemap index, fetched by
    /// `sitemap-lint check https://…`, whose answer (after following up to 5 redirects) is not
    /// `200 OK`, or that could not be fetched at all: no such host, connection refused, a
    /// timeout, a body larger than 50 MiB, too many redirects or a redirect loop, a TLS failure,
    /// or a `Content-Encoding: gzip` body that does not decompress (not gzip at all, cut off,
    /// or corrupt: a browser shows `ERR_CONTENT_DECODING_FAILED`).
    /// The finding is placed where the URL came from: the `<loc>` of the parent index, the
    /// robots.txt `Sitemap:` line, or line 1 of the URL's own report for a URL given on the
    /// command line. A robots.txt answering 4xx is a warning only: Google then crawls as if
    /// there were no robots.txt.
    ///
    /// ## Why is this bad?
    /// Search Console reports such a sitemap as "Couldn't fetch" and reads none of its URLs. A
    /// robots.txt that answers 5xx or times out makes Google stop crawling the whole site for
    /// as long as it lasts.
    ///
    /// ## Example
    /// ```text
    /// GET /sitemap-posts.xml HTTP/1.1       (a child listed in /sitemap_index.xml)
    /// HTTP/1.1 404 Not Found
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// GET /sitemap-posts.xml HTTP/1.1
    /// HTTP/1.1 200 OK
    /// Content-Type: application/xml
    /// ```
    ///
    /// ## Fix
    /// Not fixable in the file: publish the sitemap at the URL listed, or list the URL it is
    /// published at.
    ///
    /// ## References
    /// - Google Search Central, "Sitemaps report": "Couldn't fetch"
    /// - Google Search Central, "How Google interprets the robots.txt specification": HTTP
    ///   status codes
    /// - RFC 9110 §15 (status codes)
    pub static META = {
        name: "http-status",
        category: Http,
        severity: Error,
        summary: "a robots.txt, sitemap or index child does not answer 200 OK",
    }
}

impl Rule for Check {}

/// `what` at `url` answered `status` (not 200).
pub fn status(
    span: Range<usize>,
    what: Fetched,
    url: &str,
    status: u16,
    reason: &str,
) -> Diagnostic {
    let d = Diagnostic::new(
        &META,
        span,
        format!(
            "the {} `{}` answered {status} {reason}",
            what.noun(),
            shown(url)
        ),
    )
    .with_label(format!("HTTP {status}"));
    match (what, status) {
        (Fetched::Robots, 400..=499) => d
            .at_most(Severity::Warning)
            .with_note("Google crawls as if there were no robots.txt; no `Sitemap:` lines are read from it")
            .with_help("serve a robots.txt at the site root, with a `Sitemap:` line for each sitemap"),
        (Fetched::Robots, _) => d
            .with_note("while robots.txt answers a server error, Google does not crawl the site")
            .with_help("make robots.txt answer 200 (or 404 when the site has none)"),
        _ => d.with_help(format!(
            "publish the {} at this URL (it must answer 200 OK), or list the URL it is published at",
            what.noun()
        )),
    }
}

/// `what` at `url` could not be fetched: `problem` says why.
pub fn unreachable(span: Range<usize>, what: Fetched, url: &str, problem: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!(
            "the {} `{}` could not be fetched: {problem}",
            what.noun(),
            shown(url)
        ),
    )
    .with_label("no answer")
    .with_help(if problem.contains("timed out") {
        format!(
            "make the {} answer sooner, or allow more time (`--connect-timeout`, `--read-timeout`)",
            what.noun()
        )
    } else {
        format!(
            "make the {} answer 200 OK at this URL, or list the URL it is served at",
            what.noun()
        )
    })
}

/// The sitemap at `url` answered 200 with a `Content-Encoding: gzip` body that does not decode
/// (`problem`): what a client that trusts the header gets is not the file.
pub fn undecodable(span: Range<usize>, url: &str, problem: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!(
            "the sitemap `{}` could not be read: its `Content-Encoding: gzip` body does not decompress ({problem})",
            shown(url)
        ),
    )
    .with_label("undecodable answer")
    .with_help("send `Content-Encoding: gzip` only with a body compressed once, completely (`curl --compressed -o /dev/null URL` shows the error)")
}
