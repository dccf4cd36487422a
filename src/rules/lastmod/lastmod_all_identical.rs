//! Rule `lastmod-all-identical`: every entry has the same `<lastmod>`, as when a generator stamps its build time.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Kind, Sitemap};
use crate::rule::{Collector, Context, Rule};

/// Files with fewer entries are not judged: a few pages may well change together.
pub const MIN_ENTRIES: usize = 10;

declare_rule! {
    /// ## What it does
    /// Reports a file of at least 10 entries where every entry has a `<lastmod>` and all are the
    /// same text. That is the mark of a generator writing the time of the build (or of the last
    /// deployment) instead of each page's own modification time. Smaller files are not judged.
    ///
    /// ## Why is this bad?
    /// Google uses `<lastmod>` only when it is "consistently and verifiably accurate": a build
    /// timestamp is neither, so the dates of the whole file get ignored, and pages that did
    /// change are no longer recrawled sooner. Write each page's own date, or no `<lastmod>`.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/1</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/2</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/3</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/4</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/5</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/6</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/7</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/8</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/9</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/10</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/1</loc><lastmod>2024-11-21T10:00:00Z</lastmod></url>
    ///   <url><loc>https://www.example.com/2</loc><lastmod>2023-05-02</lastmod></url>
    ///   <url><loc>https://www.example.com/3</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google, "Build and submit a sitemap": `<lastmod>` is used "if it's consistently and
    ///   verifiably accurate"
    /// - Google Search Central blog, "Sitemaps ping endpoint is going away" (2023): lastmod
    ///   must reflect "the last significant update"
    pub static META = {
        name: "lastmod-all-identical",
        category: Date,
        severity: Info,
        summary: "every entry has the same `<lastmod>`, like a build timestamp",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind != Kind::Other).then(|| {
            Box::new(Same {
                first: None,
                entries: 0,
                broken: false,
            }) as Box<dyn Collector<'a> + Send + 'a>
        })
    }
}

struct Same<'a> {
    /// The first `<lastmod>` as written in the source, and its span.
    first: Option<(&'a str, Range<usize>)>,
    entries: usize,
    /// An entry without `<lastmod>` or with another one was seen.
    broken: bool,
}

impl<'a> Collector<'a> for Same<'a> {
    fn entry(&mut self, sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        if self.broken {
            return;
        }
        self.entries += 1;
        let Some(value) = entry.value(Field::Lastmod) else {
            self.broken = true;
            return;
        };
        let span = value.span(sitemap.source);
        let Some(text) = sitemap.source.get(span.clone()) else {
            self.broken = true;
            return;
        };
        match &self.first {
            None => self.first = Some((text, span)),
            Some((first, _)) => self.broken = *first != text,
        }
    }

    fn finish(self: Box<Self>, _sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        let Some((text, span)) = self.first else {
            return;
        };
        if self.broken || self.entries < MIN_ENTRIES {
            return;
        }
        cx.report(
            Diagnostic::new(
                &META,
                span,
                format!("all {} entries have the same `<lastmod>` `{text}`", self.entries),
            )
            .with_label("the same value in every entry")
            .with_note("a generator that stamps its build time on every URL makes `<lastmod>` useless: Google uses it only when it is consistently accurate")
            .with_help("write each page's own last modification time, or leave `<lastmod>` out"),
        );
    }
}
