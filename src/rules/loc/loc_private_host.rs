//! Rule `loc-private-host`: a `<loc>`, index child or hreflang alternate on `localhost`, a private address or a local-network name.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::links;
use crate::pipeline::model::{is_xml_space, Entry, Field, Sitemap};
use crate::pipeline::url_key::Authority;
use crate::rule::{Context, Rule};
use crate::values::host::{private_host, same_host};
use crate::values::text::trim_xml;
use crate::values::uri::is_plain_host_byte;

declare_rule! {
    /// ## What it does
    /// Reports a `<loc>` (of a page, or of a child sitemap in an index) or an hreflang alternate
    /// (`<xhtml:link href>`) whose host only the build machine or a local network can reach:
    /// `localhost` and `*.localhost`, loopback (`127.0.0.1`, `[::1]`), private (`10.x`,
    /// `172.16–31.x`, `192.168.x`, `fc00::/7`), link-local and unspecified (`0.0.0.0`)
    /// addresses, and names reserved for local networks (`.local`, `.internal`, `.home.arpa`).
    /// The documentation domains `example.com`, `.org` and `.net` are public names and pass.
    ///
    /// ## Why is this bad?
    /// Crawlers fetch the sitemap's URLs from the internet: none of these hosts answer there, so
    /// every such URL fails ("Couldn't fetch" in Search Console) and the pages are not indexed.
    /// It almost always means the sitemap was generated with a development server's base URL
    /// (`http://localhost:1313/` from `hugo server`, `http://localhost:3000/` from `next dev`).
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>http://localhost:1313/blog/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/blog/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// A live check of a staging or development server (`sitemap-lint check
    /// --allow-private-hosts http://localhost:1313/`) does not report the URLs on the host the
    /// sitemap was fetched from: listing its own URLs is what that sitemap should do. URLs on
    /// any other private host are still reported.
    ///
    /// ## Fix
    /// Not fixable: the public host is not in the file. Build the sitemap with the site's public
    /// base URL (Hugo's `baseURL`, next-sitemap's `siteUrl`, Jekyll's `url`).
    ///
    /// ## References
    /// - RFC 1918 (private IPv4 addresses), RFC 4193 (unique local IPv6), RFC 3927 (link-local)
    /// - RFC 6761 §6.3 (`localhost`), RFC 6762 (`.local`), RFC 8375 (`.home.arpa`)
    pub static META = {
        name: "loc-private-host",
        category: Url,
        severity: Error,
        summary: "a URL's host is `localhost`, a private address or a local-network name",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let source = sitemap.source;
        // The last host not reported (public, or the fetched server's own): the alternates of
        // an entry usually share one host, judged once.
        let mut public: Option<&str> = None;
        // The `<loc>` and its host, when public.
        let mut public_loc = None;
        // A malformed URL is `loc-invalid`'s (its host may be no host at all).
        if let Some(value) = entry
            .value(Field::Loc)
            .filter(|v| !v.url_problems().iter().any(|p| p.kind.is_error()))
        {
            // The host's range is part of the URL key the model keeps for every `<loc>`.
            if let Some(parts) = &value.url_key().parts {
                let url = value.trimmed();
                if let Some(reason) = private_host(&url[parts.host.clone()])
                    .filter(|_| !own_host(cx, &url[parts.host.clone()]))
                {
                    let span = value.source_range_in_trimmed(source, parts.host.clone());
                    cx.report(diagnostic(
                        span,
                        &url[parts.host.clone()],
                        reason,
                        "`<loc>`",
                    ));
                } else {
                    public = Some(&url[parts.host.clone()]);
                    public_loc = Some((url, parts.host.clone()));
                }
            }
        }
        if !links::has_links(entry) {
            return;
        }
        // `http(s)://` and the public host, when that is a plain DNS name: an alternate that
        // starts with it and goes on with `/`, `?`, `#` or nothing has that host and no port or
        // user, so it is public too (without parsing its authority). Worked out only for an
        // entry with alternates.
        let mut public_prefix = public_loc.and_then(|(url, host)| plain_prefix(url, host));
        for link in links::links(entry) {
            let Some(href) = link.href() else { continue };
            let value = trim_xml(href.value);
            if public_prefix.is_some_and(|p| {
                value.starts_with(p)
                    && matches!(
                        value.as_bytes().get(p.len()),
                        None | Some(b'/' | b'?' | b'#')
                    )
            }) {
                continue;
            }
            let lead = href.value.len() - href.value.trim_start_matches(is_xml_space).len();
            let Some(parts) = Authority::parse(value) else {
                continue;
            };
            // A port that is not a number means the authority was misread (an IPv6 address
            // without brackets): `hreflang-href-invalid` reports it.
            if parts
                .port
                .as_ref()
                .is_some_and(|p| !value[p.clone()].bytes().all(|b| b.is_ascii_digit()))
            {
                continue;
            }
            let host = parts.host;
            if public == Some(&value[host.clone()]) {
                continue;
            }
            if let Some(reason) =
                private_host(&value[host.clone()]).filter(|_| !own_host(cx, &value[host.clone()]))
            {
                let span = href.source_range(source, lead + host.start..lead + host.end);
                cx.report(diagnostic(span, &value[host], reason, "the alternate"));
            } else {
                public = Some(&value[host.clone()]);
                public_prefix = plain_prefix(value, host);
            }
        }
    }
}

/// `url` up to the end of `host` when that is `http://` or `https://` and a host of letters,
/// digits, hyphens and dots: then any URL that starts with it and goes on with `/`, `?`, `#` or
/// nothing has exactly this host, no user and no port, as [`Authority::parse`] reads it.
fn plain_prefix(url: &str, host: std::ops::Range<usize>) -> Option<&str> {
    let scheme = url.get(..host.start)?;
    ((scheme == "http://" || scheme == "https://")
        && !host.is_empty()
        && url.get(host.clone())?.bytes().all(is_plain_host_byte))
    .then(|| &url[..host.end])
}

/// Whether `host` is the private host a live run was allowed to fetch the file from
/// (`--allow-private-hosts`): a staging server's sitemap lists its own URLs.
fn own_host(cx: &Context<'_>, host: &str) -> bool {
    cx.settings
        .own_private_host
        .as_deref()
        .is_some_and(|own| same_host(own, host))
}

fn diagnostic(span: std::ops::Range<usize>, host: &str, reason: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("{what} is on `{host}`, which crawlers cannot reach: {reason}"),
    )
    .with_label("not reachable from the internet")
    .with_help("generate the sitemap with the site's public base URL (for example Hugo's `baseURL` or next-sitemap's `siteUrl`), not a development server's")
}
