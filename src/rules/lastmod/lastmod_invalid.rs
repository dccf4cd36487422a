//! Rule `lastmod-invalid`: `<lastmod>` is not a W3C Datetime (impossible values or a foreign format).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::pipeline::source::on_one_line;
use crate::rule::{Context, Rule};
use crate::values::datetime::{self, Verdict};

declare_rule! {
    /// ## What it does
    /// Checks `<lastmod>` (in `<url>` and in `<sitemap>`) against the W3C Datetime grammar:
    /// `YYYY`, `YYYY-MM`, `YYYY-MM-DD`, or a date with `Thh:mm`, `Thh:mm:ss` or `Thh:mm:ss.s` and a
    /// timezone `Z` / `+hh:mm` / `-hh:mm`. It reports impossible values (month 13, February 30, hour
    /// 25, minute 61, an offset beyond ±14:00) at the offending digits, and recognises foreign
    /// formats with the fix: `2024/11/21`, `21/11/2024`, `2024-11-21 10:00:00`, `+0100`, `20241121`,
    /// unpadded `2025-8-10`, RFC 2822 dates, Unix timestamps, empty values.
    ///
    /// W3C-only forms the XSD rejects are reported by `lastmod-w3c-only`, a time without timezone by
    /// `lastmod-missing-timezone`.
    ///
    /// ## Why is this bad?
    /// Search Console reports "Invalid date" and ignores the value; other crawlers drop it silently
    /// or, worse, guess (some parsers fill a missing day with today's). `<lastmod>` is the one
    /// optional tag Google and Bing use for recrawling, so a broken one costs freshness.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2024-11-21 10:00:00</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2024-11-21T10:00:00+00:00</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - W3C Note "Date and Time Formats" (NOTE-datetime), referenced by the protocol for `<lastmod>`
    /// - `sitemap.xsd`: `tLastmod` (union of `xsd:date` and `xsd:dateTime`)
    pub static META = {
        name: "lastmod-invalid",
        category: Date,
        severity: Error,
        summary: "`<lastmod>` is not a valid W3C Datetime",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Lastmod) else {
            return;
        };
        let Verdict::Invalid(problems) = value.date() else {
            return;
        };
        let Some(first) = problems.first() else {
            return;
        };
        let source = sitemap.source;
        if let Some(d) =
            crate::rules::placeholder_finding(&META, value.trimmed(), "`<lastmod>`", "date", |r| {
                value.source_range_in_trimmed(source, r)
            })
        {
            cx.report(d);
            return;
        }
        if value.trimmed().is_empty() {
            cx.report_at(&META, value.span(source), |span| {
                Diagnostic::new(&META, span, "`<lastmod>` is empty")
                    .with_help_opt(first.help.clone())
            });
            return;
        }
        let span = |p: &datetime::Problem| {
            on_one_line(
                source,
                value.source_range_in_trimmed(source, p.range.clone()),
            )
        };
        // One diagnostic per value: the other problems are labelled where they are (or noted,
        // when inside the first one's span); the help fixes every problem when it can.
        if cx.skip(&META, span(first).start) {
            return;
        }
        let mut d = Diagnostic::new(&META, span(first), first.message.clone())
            .with_help_opt(first.help.clone());
        for more in &problems[1..] {
            let overlaps = more.range.start < first.range.end && first.range.start < more.range.end;
            d = if overlaps {
                d.with_note(more.message.clone())
            } else {
                d.with_secondary(span(more), more.message.clone())
            };
        }
        cx.report(d);
    }
}
