//! Rule `index-child`: a sitemap index lists itself, another index, or (with `--site-root`) a sitemap missing locally.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Kind, Sitemap};
use crate::pipeline::url_key::fingerprint;
use crate::rule::{Context, Rule};

declare_rule! {
    /// ## What it does
    /// Checks what the `<loc>` of a sitemap index points to. When the index's own URL is known
    /// (`--sitemap-url`), a child with that URL is reported: the index lists itself. When the
    /// index and its children are checked together (see "Site checks" in docs/configuration.md),
    /// a child that is itself a sitemap index is reported, so is an index that lists itself,
    /// and, with `--site-root DIR`, a child on the index's site whose file is missing under
    /// `DIR`.
    ///
    /// ## Why is this bad?
    /// An index may list only sitemaps: Search Console rejects nested indexes ("Incorrect
    /// sitemap index format: Nested sitemap indexes"). An index listing itself is at best
    /// ignored and at worst loops a crawler. A child missing from the files about to be
    /// deployed becomes a 404 ("Couldn't fetch").
    ///
    /// The examples are served at `https://www.example.com/sitemap_index.xml`.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <sitemap><loc>https://www.example.com/sitemap_index.xml</loc></sitemap>
    /// </sitemapindex>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <sitemap><loc>https://www.example.com/sitemap-pages.xml</loc></sitemap>
    /// </sitemapindex>
    /// ```
    ///
    /// ## References
    /// - sitemaps.org protocol, "Using Sitemap index files": an index lists Sitemaps
    /// - Google Search Console help, Sitemaps report: "Incorrect sitemap index format: Nested
    ///   sitemap indexes"
    pub static META = {
        name: "index-child",
        category: Structure,
        severity: Error,
        summary: "a sitemap index lists itself, another index, or a sitemap missing locally",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if sitemap.kind != Kind::Index {
            return;
        }
        let Some(url) = cx.settings.sitemap_url.as_deref() else {
            return;
        };
        let Some(loc) = entry.loc() else { return };
        let value = loc.trimmed();
        if !value.is_empty() && loc.url_key().fingerprint == fingerprint(url) {
            cx.report(self_listing(loc.span(sitemap.source), value));
        }
    }
}

/// The index lists its own URL.
pub fn self_listing(span: Range<usize>, url: &str) -> Diagnostic {
    Diagnostic::new(&META, span, format!("the index lists itself (`{url}`)"))
        .with_label("the index's own URL")
        .with_help("remove this `<sitemap>` entry: an index lists sitemaps, not itself")
}

/// The child `child_file` is itself a sitemap index.
pub fn nested(span: Range<usize>, child_file: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("nested sitemap index: `{child_file}` is an index too"),
    )
    .with_label("Search Console: \"Nested sitemap indexes\"")
    .with_help(format!(
        "list the sitemaps of `{child_file}` here directly, and remove this entry"
    ))
}

/// The child maps to `path` under the site root, and no such file exists.
pub fn missing(span: Range<usize>, path: &str) -> Diagnostic {
    Diagnostic::new(
        &META,
        span,
        format!("the listed sitemap is missing locally: no file `{path}`"),
    )
    .with_label("not under the site root")
    .with_help("generate the missing sitemap, or remove this entry from the index")
}
