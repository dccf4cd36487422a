//! Rule `priority-all-identical` (opt-in): every entry has the same `<priority>`, which says nothing.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Kind, Sitemap};
use crate::rule::{Collector, Context, Rule};
use crate::rules::value::is_decimal;

declare_rule! {
    /// ## What it does
    /// Off unless configured. Reports a sitemap of at least two entries where every `<url>` has a
    /// `<priority>` and all have the same value (`0.5` and `0.50` are the same value).
    ///
    /// ## Why is this bad?
    /// Priority is relative to the site's other pages: when every page has the same one it
    /// carries no information, and only adds bytes. Google ignores `<priority>` altogether.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><priority>0.5</priority></url>
    ///   <url><loc>https://www.example.com/about</loc><priority>0.50</priority></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    ///   <url><loc>https://www.example.com/about</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - sitemaps.org protocol, `<priority>`: "The priority of this URL relative to other URLs
    ///   on your site"
    /// - Google, "Build and submit a sitemap": "Google ignores `<priority>` and `<changefreq>`
    ///   values"
    pub static META = {
        name: "priority-all-identical",
        category: Value,
        severity: Info,
        opt_in: true,
        summary: "every `<url>` has the same `<priority>` (opt-in)",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind == Kind::UrlSet).then(|| {
            Box::new(Same {
                first: None,
                entries: 0,
                broken: false,
            }) as Box<dyn Collector<'a> + Send + 'a>
        })
    }
}

struct Same {
    first: Option<(f64, Range<usize>)>,
    entries: usize,
    broken: bool,
}

impl<'a> Collector<'a> for Same {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        if self.broken {
            return;
        }
        self.entries += 1;
        let parsed = entry
            .value(Field::Priority)
            .filter(|v| is_decimal(v.trimmed()))
            .and_then(|v| Some((v.trimmed().parse::<f64>().ok()?, v.span(sitemap.source))));
        match (parsed, &self.first) {
            (None, _) => self.broken = true,
            (Some(p), None) => self.first = Some(p),
            (Some((p, _)), Some((first, _))) => self.broken = p != *first,
        }
    }

    fn finish(self: Box<Self>, sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        let Some((_, span)) = self.first else { return };
        if self.broken || self.entries < 2 {
            return;
        }
        let text = sitemap.source.get(span.clone()).unwrap_or("");
        cx.report(
            Diagnostic::new(
                &META,
                span,
                format!(
                    "all {} entries have the same `<priority>` `{text}`",
                    self.entries
                ),
            )
            .with_label("the same value in every entry")
            .with_note(
                "priority is relative to the site's other pages; Google ignores it altogether",
            )
            .with_help(
                "remove `<priority>` from every entry, or give more important pages a higher value",
            ),
        );
    }
}
