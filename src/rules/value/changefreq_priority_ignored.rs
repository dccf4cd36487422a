//! Rule `changefreq-priority-ignored` (opt-in): `<changefreq>` and `<priority>` are present, though Google ignores both.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{ChildKind, Entry, Field, Kind, Sitemap};
use crate::rule::{Collector, Context, Rule};

declare_rule! {
    /// ## What it does
    /// Off unless configured. Reports the first `<changefreq>` and the first `<priority>` of a
    /// sitemap, with the number of entries that have them.
    ///
    /// ## Why is this bad?
    /// Google ignores both values, and Bing says it does not rely on them: they add bytes to
    /// every entry (with 50,000 URLs, megabytes) and upkeep to the generator without effect.
    /// Turn this rule on for sitemaps meant for Google only.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><changefreq>daily</changefreq></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2024-11-21</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google, "Build and submit a sitemap": "Google ignores `<priority>` and `<changefreq>`
    ///   values"
    /// - Bing Webmaster blog, "Keeping Content Discoverable with Sitemaps in AI Powered Search"
    ///   (2025): lastmod matters, changefreq and priority are not used
    pub static META = {
        name: "changefreq-priority-ignored",
        category: Value,
        severity: Info,
        opt_in: true,
        summary: "`<changefreq>` or `<priority>` is present, though Google ignores both (opt-in)",
    }
}

impl Rule for Check {
    fn collector<'a>(&self, sitemap: &Sitemap<'a>) -> Option<Box<dyn Collector<'a> + Send + 'a>> {
        (sitemap.kind == Kind::UrlSet).then(|| {
            Box::new(Present {
                changefreq: (None, 0),
                priority: (None, 0),
            }) as Box<dyn Collector<'a> + Send + 'a>
        })
    }
}

/// Per field: the first element's span and the number of entries that have it.
struct Present {
    changefreq: (Option<Range<usize>>, usize),
    priority: (Option<Range<usize>>, usize),
}

impl<'a> Collector<'a> for Present {
    fn entry(&mut self, _sitemap: &Sitemap<'a>, entry: &Entry<'_>, _cx: &mut Context<'_>) {
        for (field, slot) in [
            (Field::Changefreq, &mut self.changefreq),
            (Field::Priority, &mut self.priority),
        ] {
            if let Some(child) = entry
                .children
                .iter()
                .find(|c| c.kind == ChildKind::Field(field))
            {
                slot.0.get_or_insert_with(|| child.element.span.clone());
                slot.1 += 1;
            }
        }
    }

    fn finish(self: Box<Self>, _sitemap: &Sitemap<'a>, cx: &mut Context<'_>) {
        for (name, (span, n)) in [("changefreq", self.changefreq), ("priority", self.priority)] {
            let Some(span) = span else { continue };
            let entries = if n == 1 {
                "1 entry has it".to_string()
            } else {
                format!("{n} entries have it")
            };
            cx.report(
                Diagnostic::new(&META, span, format!("`<{name}>` is ignored by Google"))
                    .with_label(entries)
                    .with_help(format!(
                        "remove every `<{name}>`; keep `<lastmod>` accurate instead"
                    )),
            );
        }
    }
}
