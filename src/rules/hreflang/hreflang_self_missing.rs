//! Rule `hreflang-self-missing`: a `<url>` with `hreflang` alternates does not list its own `<loc>` among them.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::links;
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::text::trim_ws;

declare_rule! {
    /// ## What it does
    /// Reports a `<url>` that has `<xhtml:link hreflang="…">` alternates but none whose `href` is
    /// its own `<loc>`, character for character. When an alternate differs from `<loc>` only by
    /// a trailing slash, the scheme, or the case of the host, the help names it.
    ///
    /// ## Why is this bad?
    /// Google's documentation: "Each language version must list itself as well as all other
    /// language versions." Without the self-reference the page's own language is not declared,
    /// and tools that build the cluster from each page's list see the page as missing from it.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/en/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///     <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
    ///   </url>
    ///   <url>
    ///     <loc>https://www.example.com/de/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en" href="https://www.example.com/en/"/>
    ///     <xhtml:link rel="alternate" hreflang="de" href="https://www.example.com/de/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google Search Central, "Tell Google about localized versions of your page": "Each language version must list itself as well as all other language versions"
    pub static META = {
        name: "hreflang-self-missing",
        category: Structure,
        severity: Warning,
        summary: "a `<url>` with `hreflang` alternates does not list its own `<loc>` among them",
    }
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !links::has_links(entry) {
            return;
        }
        let source = sitemap.source;
        let Some(loc) = entry.loc() else { return };
        let own = loc.trimmed();
        if own.is_empty() {
            return;
        }
        let mut any = false;
        for link in links::links(entry) {
            if link.hreflang().is_none() {
                continue;
            }
            any = true;
            if link.href().is_some_and(|h| trim_ws(h.value) == own) {
                return;
            }
        }
        if !any {
            return;
        }
        // Built only if kept: past the cap, a file where every entry lacks its self-link pays
        // for a counter, not for the near-miss search and the messages.
        cx.report_at(&META, loc.span(source), |span| {
            let near = links::links(entry).find_map(|link| {
                let href = link.href()?;
                let why = near_miss(own, trim_ws(href.value))?;
                Some((href, why))
            });
            let name = crate::diagnostic::shown(loc.element.qualified_name(source));
            let d = Diagnostic::new(
                &META,
                span,
                "this page is not among its own `hreflang` alternates",
            )
            .with_label(format!("no `<xhtml:link>` has this `<{name}>` as `href`"));
            match near {
                Some((href, why)) => d
                    .with_secondary(href.span.clone(), format!("differs from `<{name}>` {why}"))
                    .with_help(format!(
                        "the self-reference must repeat `<{name}>` exactly: write `href=\"{own}\"`, or make `<{name}>` the URL the page is served at"
                    )),
                None => d.with_help(format!(
                    "add `<xhtml:link rel=\"alternate\" hreflang=\"…\" href=\"{own}\"/>` with this page's language"
                )),
            }
        });
    }
}

/// How `href` differs from `loc` when it is nearly the same URL: a trailing slash, the scheme,
/// or the case of the scheme and host. Compares in place: a file where every entry lacks its
/// self-link asks this of every alternate of the first thousand entries.
fn near_miss(loc: &str, href: &str) -> Option<&'static str> {
    if loc.trim_end_matches('/') == href.trim_end_matches('/') {
        return Some("only by a trailing slash");
    }
    let (ls, lh, lp) = url_parts(loc)?;
    let (hs, hh, hp) = url_parts(href)?;
    if lp != hp {
        return None;
    }
    if lh.eq_ignore_ascii_case(hh) {
        return Some(if ls.eq_ignore_ascii_case(hs) {
            "only by the case of the scheme or host"
        } else {
            "only by its scheme"
        });
    }
    strip_www(lh)
        .eq_ignore_ascii_case(strip_www(hh))
        .then_some("only by `www.`")
}

/// A URL's scheme, host (everything up to the first `/`, `?` or `#` after `://`) and the rest.
fn url_parts(u: &str) -> Option<(&str, &str, &str)> {
    let (scheme, rest) = u.split_once("://")?;
    let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (host, path) = rest.split_at(host_end);
    Some((scheme, host, path))
}

/// `host` without a leading `www.` in any case.
fn strip_www(host: &str) -> &str {
    match host.get(..4) {
        Some(w) if w.eq_ignore_ascii_case("www.") => &host[4..],
        _ => host,
    }
}

#[cfg(test)]
mod tests {
    use super::near_miss;

    /// The comparison as first written (lowercased copies), kept as the reference.
    fn near_miss_by_copies(loc: &str, href: &str) -> Option<&'static str> {
        if loc.trim_end_matches('/') == href.trim_end_matches('/') {
            return Some("only by a trailing slash");
        }
        let split = |u: &str| -> Option<(String, String)> {
            let (scheme, rest) = u.split_once("://")?;
            let host_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
            Some((
                scheme.to_ascii_lowercase(),
                format!(
                    "{}{}",
                    rest[..host_end].to_ascii_lowercase(),
                    &rest[host_end..]
                ),
            ))
        };
        let (ls, lr) = split(loc)?;
        let (hs, hr) = split(href)?;
        if lr == hr && ls != hs {
            return Some("only by its scheme");
        }
        if lr == hr {
            return Some("only by the case of the scheme or host");
        }
        let (lw, hw) = (
            lr.strip_prefix("www.").unwrap_or(&lr),
            hr.strip_prefix("www.").unwrap_or(&hr),
        );
        (lw == hw).then_some("only by `www.`")
    }

    #[test]
    fn near_miss_agrees_with_the_comparison_of_lowercased_copies() {
        let schemes = ["https", "HTTPS", "http", "Http", "ftp", ""];
        let hosts = [
            "www.example.com",
            "WWW.Example.com",
            "example.com",
            "EXAMPLE.COM",
            "www.",
            "WwW.",
            "ww",
            "www",
            "wwwexample.com",
            "www.www.example.com",
            "exämple.com",
            "EXÄMPLE.com",
            "",
        ];
        let rests = ["", "/", "/a", "/A", "/a/", "?q=1", "#x", "/www./", "/ä"];
        let mut urls = vec![String::new(), "no scheme".to_string(), "://".to_string()];
        for s in schemes {
            for h in hosts {
                for r in rests {
                    urls.push(format!("{s}://{h}{r}"));
                }
            }
        }
        let mut named = 0;
        for loc in &urls {
            for href in &urls {
                let got = near_miss(loc, href);
                assert_eq!(got, near_miss_by_copies(loc, href), "{loc:?} {href:?}");
                named += usize::from(got.is_some());
            }
        }
        // Every kind of near miss occurs among the pairs.
        for why in [
            "only by a trailing slash",
            "only by its scheme",
            "only by the case of the scheme or host",
            "only by `www.`",
        ] {
            assert!(urls
                .iter()
                .any(|l| urls.iter().any(|h| near_miss(l, h) == Some(why))));
        }
        assert!(named > 1_000);
    }
}
