//! Rule `loc-mixed-hosts`: a sitemap lists URLs on more than one host.

use std::collections::HashSet;
use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Kind, Sitemap};
use crate::rule::{Collector, Context, Rule};

declare_rule! {
    /// ## What it does
    /// Reports the first `<loc>` on each host other than the host of the file's first `<loc>`,
    /// and labels that first host. Host names are compared as crawlers resolve them: without
    /// case, percent-decoded, and after IDNA (`bücher.example` is `xn--bcher-kva.example`);
    /// `www.example.com` and `example.com` are different hosts. URLs on the first host with the
    /// other scheme (`http` beside `https`) are reported once too: a sitemap is served over one
    /// of them, and only the URLs that match it count. When the sitemap's URL is known (`--sitemap-url`),
    /// `loc-outside-scope` checks every URL against it instead, and this rule stays quiet.
    ///
    /// ## Why is this bad?
    /// A sitemap may list only URLs of the host it is served from (sitemaps.org, "Sitemap file
    /// location"); whichever host that is, the URLs on the other hosts are dropped ("URL not
    /// allowed" in Search Console). Cross-submission through robots.txt lets a sitemap be
    /// served from another host, but each sitemap still covers one host: write one sitemap per
    /// host.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    ///   <url><loc>https://shop.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - sitemaps.org protocol, "Sitemap file location" and "Validating your Sitemap" (cross-submits)
    /// - Google Search Console help, Sitemaps report: "URL not allowed"
    pub static META = {
        name: "loc-mixed-hosts",
        category: Url,
        severity: Error,
        summary: "a sitemap lists URLs on more than one host",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind != Kind::Other).then(|| {
            Box::new(Hosts {
                first: None,
                first_key: String::new(),
                scheme: None,
                scheme_reported: false,
                seen: HashSet::new(),
            }) as Box<dyn Collector<'a> + Send + 'a>
        })
    }
}

struct Hosts<'a> {
    /// The first host as written and its source span.
    first: Option<(&'a str, Range<usize>)>,
    /// The first host's comparison key ([`host_key`]).
    first_key: String,
    /// The first URL's scheme as written and its source span.
    scheme: Option<(&'a str, Range<usize>)>,
    /// Whether the other scheme was reported already.
    scheme_reported: bool,
    /// Other hosts already reported (their keys); only URLs on another host allocate.
    seen: HashSet<String>,
}

/// How a host is compared: lower-cased, and, when it is written with percent-escapes or
/// non-ASCII characters, as crawlers resolve it (percent-decoded, IDNA ToASCII), so that
/// `bücher.example` and `xn--bcher-kva.example` are one host.
fn host_key(host: &str) -> String {
    if host.is_ascii() && !host.contains('%') {
        return host.to_ascii_lowercase();
    }
    match url::Host::parse(host) {
        Ok(h) => h.to_string(),
        Err(_) => host.to_lowercase(),
    }
}

impl<'a> Collector<'a> for Hosts<'a> {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if cx.settings.sitemap_url.is_some() {
            return;
        }
        let Some(loc) = entry.loc() else { return };
        if loc.url_problems().iter().any(|p| p.kind.is_error()) {
            return;
        }
        let value = loc.trimmed();
        let Some(parts) = &loc.url_key().parts else {
            return;
        };
        let host = &value[parts.host.clone()];
        // Located only for the first host and for a finding.
        let span = || loc.source_range_in_trimmed(sitemap.source, parts.host.clone());
        let scheme = &value[parts.scheme.clone()];
        let scheme_span = || loc.source_range_in_trimmed(sitemap.source, parts.scheme.clone());
        let what = if sitemap.kind == Kind::Index {
            "index"
        } else {
            "sitemap"
        };
        let Some((first, first_span)) = &self.first else {
            // Keep the host as the source spells it (a borrowed slice, no allocation).
            let (span, scheme_span) = (span(), scheme_span());
            if let (Some(text), Some(scheme_text)) = (
                sitemap.source.get(span.clone()),
                sitemap.source.get(scheme_span.clone()),
            ) {
                self.first = Some((text, span));
                self.first_key = host_key(text);
                self.scheme = Some((scheme_text, scheme_span));
            }
            return;
        };
        // Byte equality first: hosts are almost always written the same way.
        let same_host =
            *first == host || first.eq_ignore_ascii_case(host) || self.first_key == host_key(host);
        if same_host {
            if let Some((first_scheme, first_scheme_span)) = &self.scheme {
                if !self.scheme_reported && !first_scheme.eq_ignore_ascii_case(scheme) {
                    self.scheme_reported = true;
                    cx.report(
                        Diagnostic::new(
                            &META,
                            scheme_span(),
                            format!(
                                "`{scheme}` and `{first_scheme}` URLs of `{first}` in one {what}"
                            ),
                        )
                        .with_label(format!("`{scheme}` here"))
                        .with_secondary(first_scheme_span.clone(), format!("`{first_scheme}` first"))
                        .with_help(format!(
                            "the sitemap is served over one of them, and only URLs with that scheme count: write every URL with `{first_scheme}://` (or list the `{scheme}` URLs in a sitemap served over `{scheme}`)"
                        )),
                    );
                }
            }
            return;
        }
        if !self.seen.insert(host_key(host)) {
            return;
        }
        cx.report(
            Diagnostic::new(
                &META,
                span(),
                format!("a second host in one {what}: `{host}` after `{first}`"),
            )
            .with_label("another host")
            .with_secondary(first_span.clone(), "the first host of the file")
            .with_help(format!(
                "list the URLs of `{host}` in a sitemap of their own, served from `{host}` (or cross-submitted through its robots.txt)"
            )),
        );
    }

    fn finish(self: Box<Self>, _sitemap: &Sitemap<'a>, _cx: &mut Context<'_>) {}
}
