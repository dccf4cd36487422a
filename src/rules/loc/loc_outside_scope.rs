//! Rule `loc-outside-scope`: a `<loc>` is not below the folder the sitemap is served from, or not on its scheme, host and port.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Kind, Sitemap};
use crate::pipeline::source::starts_with_ignore_ascii_case;
use crate::pipeline::url_key::UrlParts;
use crate::rule::{Collector, Context, Rule};

declare_rule! {
    /// ## What it does
    /// When the sitemap's own URL is known (`--sitemap-url`, or `sitemap-url` in the
    /// configuration), checks that every `<loc>` of a sitemap starts with the sitemap's folder,
    /// with the same scheme, host and port, and that every `<loc>` of a sitemap index is on the
    /// index's site (same scheme, host and port). The message names the mismatch: `www.` added
    /// or missing, `http` instead of `https` (or the reverse), another port, another host, a
    /// higher level than the sitemap's folder, or a sibling folder. Host names and default ports
    /// are compared as URLs are (`HTTPS://Example.com:443` is `https://example.com`).
    ///
    /// ## Why is this bad?
    /// "A Sitemap file located at http://example.com/catalog/sitemap.xml can include any URLs
    /// starting with http://example.com/catalog/ but can not include URLs starting with
    /// http://example.com/images/", and "URLs that are not considered valid are dropped from
    /// further consideration". Search Console reports them as "URL not allowed", "Path mismatch:
    /// Missing www" or "Path mismatch: Includes www"; Yandex as "Incorrect URL (doesn't match
    /// the Sitemap file location)". Serve the sitemap from the site's root folder, or list only
    /// URLs below its folder.
    ///
    /// The examples are served at `https://www.example.com/catalog/sitemap.xml`.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/images/logo.html</loc></url>
    ///   <url><loc>https://example.com/catalog/shoes.html</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/catalog/shoes.html</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - sitemaps.org protocol, "Sitemap file location", and the index rule "A Sitemap index
    ///   file can only specify Sitemaps that are found on the same site"
    /// - Google Search Console help, Sitemaps report: "URL not allowed" (higher level, sibling
    ///   directory, different domain), "Path mismatch: Missing www / Includes www"
    pub static META = {
        name: "loc-outside-scope",
        category: Url,
        severity: Error,
        summary: "a `<loc>` is outside the folder, scheme, host or port the sitemap is served from",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        if sitemap.kind == Kind::Other {
            return None;
        }
        // The sitemap URL is set per file by the caller; rules cannot see settings here, so the
        // collector reads it from the context on the first entry.
        Some(Box::new(Scope { base: None }))
    }
}

/// The sitemap's URL and its parts, parsed once per file.
/// The host without a leading `www.` (any case), if it has one. Hosts may be non-ASCII
/// (`例え.jp`): the prefix is compared as bytes, never sliced at a byte count.
fn strip_www(host: &str) -> Option<&str> {
    starts_with_ignore_ascii_case(host, "www.").then(|| &host["www.".len()..])
}

struct Base {
    url: String,
    parts: UrlParts,
    /// The sitemap's folder: its path up to and including the last `/`.
    dir: Range<usize>,
}

struct Scope {
    /// `None` until the first entry; `Some(None)` when no (usable) sitemap URL is known.
    base: Option<Option<Base>>,
}

impl<'a> Collector<'a> for Scope {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let base = self.base.get_or_insert_with(|| {
            let url = cx.settings.sitemap_url.clone()?;
            let parts = UrlParts::parse(&url)?;
            let path = &url[parts.path.clone()];
            let dir_end = parts.path.start + path.rfind('/').map_or(0, |i| i + 1);
            Some(Base {
                dir: parts.path.start..dir_end,
                url,
                parts,
            })
        });
        let Some(base) = base else { return };
        let Some(loc) = entry.loc() else { return };
        if loc.url_problems().iter().any(|p| p.kind.is_error()) {
            return;
        }
        let value = loc.trimmed();
        let Some(parts) = &loc.url_key().parts else {
            return;
        };
        let b = &base.url;
        let mut kinds = Vec::new();
        let (bs, ls) = (&b[base.parts.scheme.clone()], &value[parts.scheme.clone()]);
        if !bs.eq_ignore_ascii_case(ls) {
            kinds.push(format!("`{ls}` instead of `{bs}`"));
        }
        let (bh, lh) = (&b[base.parts.host.clone()], &value[parts.host.clone()]);
        let search_console;
        if bh.eq_ignore_ascii_case(lh) {
            search_console = "URL not allowed";
        } else if strip_www(lh).is_some_and(|rest| rest.eq_ignore_ascii_case(bh)) {
            kinds.push("`www.` added to the host".to_string());
            search_console = "Path mismatch: Includes www";
        } else if strip_www(bh).is_some_and(|rest| rest.eq_ignore_ascii_case(lh)) {
            kinds.push("`www.` missing from the host".to_string());
            search_console = "Path mismatch: Missing www";
        } else {
            kinds.push(format!("another host (`{lh}`, not `{bh}`)"));
            search_console = "URL not allowed";
        }
        let (bp, lp) = (base.parts.effective_port(b), parts.effective_port(value));
        // `http` for `https` implies ports 80 and 443: name the port only when one is written.
        let port_written =
            |p: &UrlParts, u: &str| p.port.as_ref().is_some_and(|r| !u[r.clone()].is_empty());
        if bp != lp
            && bh.eq_ignore_ascii_case(lh)
            && (bs.eq_ignore_ascii_case(ls)
                || port_written(&base.parts, b)
                || port_written(parts, value))
        {
            let show = |p: Option<u16>| p.map_or_else(|| "?".to_string(), |p| p.to_string());
            kinds.push(format!("another port ({}, not {})", show(lp), show(bp)));
        }
        let source = sitemap.source;
        let origin_end = parts
            .port
            .as_ref()
            .map_or(parts.host.end, |p| p.end)
            .max(parts.host.end);
        if !kinds.is_empty() {
            let span = loc.source_range_in_trimmed(source, 0..origin_end);
            let what = if sitemap.kind == Kind::Index {
                "a sitemap on another site"
            } else {
                "outside the sitemap's location"
            };
            let origin_end_b = base
                .parts
                .port
                .as_ref()
                .map_or(base.parts.host.end, |p| p.end)
                .max(base.parts.host.end);
            let fixed = format!("{}{}", &b[..origin_end_b], &value[origin_end..]);
            let in_dir = sitemap.kind == Kind::Index
                || path_or_root(value, parts).starts_with(&b[base.dir.clone()]);
            let help = if in_dir && crate::values::uri::check_http_url(&fixed).is_empty() {
                let what = if sitemap.kind == Kind::Index {
                    "sitemap"
                } else {
                    "page"
                };
                format!("if the {what} is served there too, write `{fixed}`; otherwise list it in a sitemap on its own site")
            } else {
                format!(
                    "list it in a sitemap served from its own site, or list only URLs that start with `{}`",
                    &b[..base.dir.end]
                )
            };
            cx.report(
                Diagnostic::new(&META, span, format!("{what}: {}", kinds.join(" and ")))
                    .with_label(format!("Search Console: \"{search_console}\""))
                    .with_note(format!("the sitemap is served at `{b}`"))
                    .with_help(help),
            );
            return;
        }
        if sitemap.kind == Kind::Index {
            return;
        }
        let dir = &b[base.dir.clone()];
        let path = path_or_root(value, parts);
        if path.starts_with(dir) {
            return;
        }
        let loc_dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        let how = if dir.starts_with(loc_dir) {
            format!("a higher level than the sitemap's folder `{dir}`")
        } else {
            format!("a sibling folder of the sitemap's folder `{dir}`")
        };
        let span = if parts.path.is_empty() {
            loc.span(source)
        } else {
            loc.source_range_in_trimmed(source, parts.path.clone())
        };
        cx.report(
            Diagnostic::new(&META, span, format!("outside the sitemap's location: {how}"))
                .with_label("Search Console: \"URL not allowed\"")
                .with_note(format!("the sitemap is served at `{b}`"))
                .with_help(format!(
                    "a sitemap lists only URLs below its own folder: list this URL in a sitemap served from `{}{}`, or serve this sitemap from the site root",
                    &b[..base.dir.start],
                    loc_dir
                )),
        );
    }

    fn finish(self: Box<Self>, _sitemap: &Sitemap<'a>, _cx: &mut Context<'_>) {}
}

/// The path of a URL, `/` when empty.
fn path_or_root<'v>(value: &'v str, parts: &UrlParts) -> &'v str {
    if parts.path.is_empty() {
        "/"
    } else {
        &value[parts.path.clone()]
    }
}
