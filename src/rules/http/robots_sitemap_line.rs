//! Rule `robots-sitemap-line`: a robots.txt `Sitemap:` value that is not an absolute http(s) URL.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic, Severity};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Checks the `Sitemap:` lines of a site's robots.txt, read when a site root is checked
    /// (`sitemap-lint check https://example.com/`): each value must be an absolute `http` or
    /// `https` URL. The finding is on the line. When robots.txt has no `Sitemap:` line, the
    /// conventional `/sitemap.xml`, then `/sitemap_index.xml`, are tried, and an info finding
    /// says which was found.
    ///
    /// ## Why is this bad?
    /// The protocol requires the full URL; crawlers ignore a relative `Sitemap: /sitemap.xml`
    /// or a host-less one, so the sitemap is never discovered from robots.txt. A `Sitemap:` line
    /// on `localhost` leaked the build machine's address.
    ///
    /// ## Example
    /// ```text
    /// User-agent: *
    /// Disallow:
    /// Sitemap: /sitemap.xml
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// User-agent: *
    /// Disallow:
    /// Sitemap: https://www.example.com/sitemap.xml
    /// ```
    ///
    /// ## Fix
    /// Not fixable automatically: write the sitemap's absolute URL, with the site's public
    /// scheme and host.
    ///
    /// ## References
    /// - sitemaps.org protocol, "Specifying the Sitemap location in your robots.txt file"
    /// - RFC 9309 §2.2.4 (other records)
    pub static META = {
        name: "robots-sitemap-line",
        category: Http,
        severity: Error,
        summary: "a robots.txt `Sitemap:` value is not an absolute http(s) URL",
    }
}

impl Rule for Check {}

/// The `Sitemap:` value at `span` is no absolute http(s) URL: `problem` says why.
pub fn invalid(span: Range<usize>, value: &str, problem: &str, origin: &str) -> Diagnostic {
    let help = if value.starts_with('/') {
        format!(
            "write the absolute URL: `Sitemap: {origin}{}`",
            shown(value)
        )
    } else {
        format!("write the sitemap's absolute URL, e.g. `Sitemap: {origin}/sitemap.xml`")
    };
    Diagnostic::new(
        &META,
        span,
        format!("`Sitemap: {}` is not an absolute http(s) URL", shown(value)),
    )
    .with_label(problem.to_owned())
    .with_help(help)
}

/// robots.txt lists no sitemap; `found` is the conventional URL that answered, if one did.
pub fn none_listed(robots_url: &str, tried: &[String], found: Option<&str>) -> Diagnostic {
    let message = match found {
        Some(url) => format!(
            "robots.txt has no `Sitemap:` line; found the sitemap at the conventional `{}`",
            shown(url)
        ),
        None => format!(
            "robots.txt has no `Sitemap:` line, and none of {} answered",
            tried
                .iter()
                .map(|t| format!("`{}`", shown(t)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    Diagnostic::new(&META, 0..0, message)
        .at_most(Severity::Info)
        .with_label(format!("`{}`", shown(robots_url)))
        .with_help("add a line `Sitemap: <absolute URL of the sitemap or index>` to robots.txt, so that every crawler finds it")
}
