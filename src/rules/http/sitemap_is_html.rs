//! Rule `sitemap-is-html`: an HTML page was served where a sitemap was expected.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports a sitemap URL that answers with an HTML page instead of a sitemap, judged by its
    /// content (after a BOM, white space and comments it begins with `<!DOCTYPE html>`,
    /// `<html>`, `<head>` or `<body>`), and says whether it was also served as
    /// `Content-Type: text/html`. The page is not checked further. (XML served as `text/html`
    /// is checked, and its type is `http-content-type`.) The finding is placed where
    /// the URL came from: the `<loc>` of the parent index, the robots.txt `Sitemap:` line, or
    /// line 1 of the URL's report for a URL given on the command line.
    ///
    /// ## Why is this bad?
    /// Search Console reports "Sitemap is HTML" and reads no URL from it. The usual causes: a
    /// framework's catch-all route or middleware answering the sitemap's path with the app's
    /// page, a redirect to the home page, a login wall, or a CDN's error page served with 200.
    ///
    /// ## Example
    /// ```text
    /// GET /sitemap.xml HTTP/1.1
    /// HTTP/1.1 200 OK
    /// Content-Type: text/html; charset=utf-8
    ///
    /// <!DOCTYPE html><html><head><title>Home</title>…
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// GET /sitemap.xml HTTP/1.1
    /// HTTP/1.1 200 OK
    /// Content-Type: application/xml
    ///
    /// <?xml version="1.0" encoding="UTF-8"?><urlset …
    /// ```
    ///
    /// ## Fix
    /// Not fixable in the file: route the sitemap's path to the sitemap (exclude it from the
    /// app's catch-all route or middleware).
    ///
    /// ## References
    /// - Google Search Central, "Sitemaps report": "Sitemap is HTML"
    pub static META = {
        name: "sitemap-is-html",
        category: Http,
        severity: Error,
        summary: "an HTML page is served where a sitemap was expected",
    }
}

impl Rule for Check {}

/// The sitemap at `url` is an HTML page; `served` says how it was served, when that says so too
/// (` (served as `text/html`)`).
pub fn html(span: Range<usize>, url: &str, served: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("the sitemap `{}` is an HTML page{served}", shown(url)),
    )
    .with_label("HTML, not a sitemap")
    .with_note("Search Console: \"Sitemap is HTML\"; the page was not checked as a sitemap")
    .with_help("serve the sitemap's XML at this URL: exclude its path from the site's catch-all route, middleware or login wall")
}
