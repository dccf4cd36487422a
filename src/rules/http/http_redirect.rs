//! Rule `http-redirect`: a robots.txt or sitemap URL that redirects; the message gives the chain.

use std::ops::Range;

use super::{chain_text, Fetched};
use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports a sitemap (or robots.txt) URL that answers with a redirect (301, 302, 303, 307,
    /// 308). The redirects are followed (at most 5) and the message shows the whole chain, from
    /// the URL listed to the one that answered. The finding is placed where the URL came from:
    /// the `<loc>` of the parent index, the robots.txt `Sitemap:` line, or line 1 of the URL's
    /// report for a URL given on the command line.
    ///
    /// ## Why is this bad?
    /// Google follows a sitemap's redirects, but the sitemap's `<loc>`s must lie under the
    /// final URL's folder and host, which a redirect to another host or folder breaks. A
    /// trailing-slash or locale redirect that ends on an HTML page is the usual cause of
    /// "Sitemap is HTML" and "Couldn't fetch" reports. Each redirect also costs a request.
    ///
    /// ## Example
    /// ```text
    /// GET /sitemap.xml HTTP/1.1
    /// HTTP/1.1 301 Moved Permanently
    /// Location: https://www.example.com/sitemap.xml
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// GET /sitemap.xml HTTP/1.1            (the URL as listed is the URL served)
    /// HTTP/1.1 200 OK
    /// ```
    ///
    /// ## Fix
    /// Not fixable automatically: list the final URL (in the index, in robots.txt, in Search
    /// Console), or serve the sitemap at the URL listed.
    ///
    /// ## References
    /// - sitemaps.org protocol, "Sitemap file location"
    /// - Google Search Central, "Build and submit a sitemap"
    pub static META = {
        name: "http-redirect",
        category: Http,
        severity: Warning,
        summary: "a sitemap or robots.txt URL redirects",
    }
}

impl Rule for Check {}

/// `what` listed at `chain[0].0` redirected through `chain` to `last`.
pub fn redirected(
    span: Range<usize>,
    what: Fetched,
    chain: &[(String, u16)],
    last: &str,
) -> Diagnostic {
    let hops = chain.len();
    Diagnostic::new(
        &META,
        span,
        format!(
            "the {} redirects ({} {}): {}",
            what.noun(),
            hops,
            if hops == 1 { "hop" } else { "hops" },
            chain_text(chain, last)
        ),
    )
    .with_label("redirects")
    .with_help(format!("list the final URL `{}` instead", shown(last)))
}
