//! Rule `duplicate-loc`: the same URL is listed twice, in one file or in two files of a set.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Entry, Kind, Sitemap};
use crate::rule::{Collector, Context, Rule, RuleMeta};
use crate::url_key::FingerprintMap;

declare_rule! {
    /// ## What it does
    /// Reports a `<loc>` that repeats an earlier one of the same file, and labels the first.
    /// URLs are compared after normalising what does not change the resource: the case of the
    /// scheme and host, a default port (`:443`, `:80`), an empty path (`/`) and the case of
    /// percent-escapes (`%2f` = `%2F`). The path and query are compared exactly. Invalid URLs
    /// (`loc-invalid`) are not compared.
    ///
    /// When several files are checked together (see "Checking a set of files" in README), a URL
    /// listed in two sitemaps of the set is reported too, in the later file, naming the earlier.
    ///
    /// ## Why is this bad?
    /// Each URL should appear once: with two entries crawlers keep one `<lastmod>` (which one
    /// depends on the crawler), the URL counts twice against the 50,000-URL limit, and Search
    /// Console's submitted count is inflated. Duplicates usually come from a generator that
    /// merges sources (pages and posts, two languages) without de-duplicating.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/shoes</loc></url>
    ///   <url><loc>https://WWW.example.com:443/shoes</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/shoes</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - RFC 3986 §6.2.2 (syntax-based normalisation) and §6.2.3 (scheme-based normalisation)
    /// - Screaming Frog, "URLs In Multiple Sitemaps"; sitemap-verify `duplicate_loc`
    pub static META = {
        name: "duplicate-loc",
        category: Url,
        severity: Warning,
        summary: "the same URL is listed twice, in one file or across the files of a set",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind != Kind::Other).then(|| {
            Box::new(Seen {
                first: FingerprintMap::default(),
            }) as Box<dyn Collector<'a> + Send + 'a>
        })
    }
}

struct Seen {
    /// Fingerprint → source span of the first `<loc>` with it (16 bytes per URL).
    first: FingerprintMap<(u32, u32)>,
}

impl<'a> Collector<'a> for Seen {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(loc) = entry.loc() else { return };
        let value = loc.trimmed();
        // An invalid URL is `loc-invalid`'s finding; comparing it would only repeat it.
        if value.is_empty() || loc.url_problems().iter().any(|p| p.kind.is_error()) {
            return;
        }
        let span = loc.span(sitemap.source);
        let (Ok(start), Ok(end)) = (u32::try_from(span.start), u32::try_from(span.end)) else {
            return;
        };
        let first = *self
            .first
            .entry(loc.url_key().fingerprint)
            .or_insert((start, end));
        if first == (start, end) {
            return;
        }
        let first = first.0 as usize..first.1 as usize;
        let what = if sitemap.kind == Kind::Index {
            "sitemap"
        } else {
            "URL"
        };
        let mut d = Diagnostic::new(&META, span.clone(), format!("duplicate {what}: already listed in this file"))
            .with_label("listed again here")
            .with_secondary(first.clone(), "first listed here")
            .with_help(if sitemap.kind == Kind::Index {
                "remove the second `<sitemap>` entry"
            } else {
                "keep one `<url>` entry per URL: merge their extension tags and keep the latest `<lastmod>`"
            });
        if sitemap.source.get(first) != sitemap.source.get(span) {
            d = d.with_note(
                "the two spellings name the same URL: they differ only in the case of the scheme or host, a default port, an empty path or the case of percent-escapes",
            );
        }
        cx.report(d);
    }

    fn finish(self: Box<Self>, _sitemap: &Sitemap<'a>, _cx: &mut Context<'_>) {}
}

/// The set check's finding: a URL of this file was already listed in `first_file`.
pub fn across_files(span: Range<usize>, first_file: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("duplicate URL: also listed in `{first_file}` of this set"),
    )
    .with_label(format!("already in `{first_file}`"))
    .with_help("list each URL in one sitemap of the set only")
}
