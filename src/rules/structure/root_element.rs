//! Rule `root-element`: the root element is neither `urlset` nor `sitemapindex`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Kind, Sitemap, SITEMAP_NS};
use crate::rule::{Context, Rule};
use crate::values::text;

declare_rule! {
    /// ## What it does
    /// Checks that the document element is `<urlset>` (a sitemap) or `<sitemapindex>` (a sitemap
    /// index). When it is not, no other sitemap rule runs on the file.
    ///
    /// ## Why is this bad?
    /// Search engines decide what a file is by its root element; anything else is "Unsupported
    /// format". RSS and Atom feeds are accepted by some search engines as sitemaps, but they are a
    /// different format that this linter does not check.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urls xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urls>
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
    /// - sitemaps.org protocol, "XML tag definitions" (`<urlset>`) and "Sitemap index" (`<sitemapindex>`)
    /// - `schemas/sitemap.xsd`, `schemas/siteindex.xsd`
    pub static META = {
        name: "root-element",
        category: Structure,
        severity: Error,
        summary: "the root element is not `urlset` or `sitemapindex`",
    }
}

impl Rule for Check {
    fn check_sitemap(&self, sitemap: &Sitemap<'_>, cx: &mut Context<'_>) {
        if sitemap.kind != Kind::Other {
            return;
        }
        let name = sitemap.root.local_name();
        let written = crate::diagnostic::shown(sitemap.root.qualified_name(sitemap.source));
        let help = match name {
            "feed" => "this is an Atom feed; some search engines accept feeds as sitemaps, but sitemap-lint checks only XML sitemaps (`<urlset>`)".to_string(),
            "rss" | "RDF" => "this is an RSS feed; some search engines accept feeds as sitemaps, but sitemap-lint checks only XML sitemaps (`<urlset>`)".to_string(),
            "html" => "this is an HTML page, not a sitemap (did the server return an error page?)".to_string(),
            "url" => format!("wrap the `<url>` entries in `<urlset xmlns=\"{SITEMAP_NS}\">` … `</urlset>`"),
            "sitemap" => format!("wrap the `<sitemap>` entries in `<sitemapindex xmlns=\"{SITEMAP_NS}\">` … `</sitemapindex>`"),
            _ => match text::closest(name, &["urlset", "sitemapindex"]) {
                Some(s) if s.eq_ignore_ascii_case(name) => format!("element names are case-sensitive: write `<{s}>` (start and end tags)"),
                Some(s) => format!("did you mean `<{s}>`? rename the start and end tags"),
                None => "a sitemap's root is `<urlset>`; a sitemap index's root is `<sitemapindex>`".to_string(),
            },
        };
        cx.report(
            Diagnostic::new(
                &META,
                sitemap.root.name_span.clone(),
                format!("`<{written}>` is not a sitemap root element"),
            )
            .with_label("expected `<urlset>` or `<sitemapindex>`")
            .with_note("no other sitemap rule was run on this file")
            .with_help(help),
        );
    }
}
