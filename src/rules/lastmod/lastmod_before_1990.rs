//! Rule `lastmod-before-1990`: a `<lastmod>` before 1990, older than the web: a placeholder, not a date.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};

/// 1990-01-01T00:00:00Z.
const Y1990: i64 = 631_152_000;

declare_rule! {
    /// ## What it does
    /// Reports a `<lastmod>` before 1990-01-01. The web did not exist yet: such values are
    /// placeholders such as the Unix epoch `1970-01-01` (a zero timestamp) or `0001-01-01` (an
    /// empty date in .NET), written when the real date was unknown.
    ///
    /// ## Why is this bad?
    /// A placeholder is not the page's last modification. Google uses `<lastmod>` only when it
    /// is consistently accurate, so wrong dates make it ignore the file's dates. Leave
    /// `<lastmod>` out when the date is unknown.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>1970-01-01T00:00:00Z</lastmod></url>
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
    /// - Google, "Build and submit a sitemap": `<lastmod>` must be "consistently and verifiably
    ///   accurate"
    pub static META = {
        name: "lastmod-before-1990",
        category: Date,
        severity: Info,
        summary: "a `<lastmod>` is before 1990: a placeholder, not a real date",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Lastmod) else {
            return;
        };
        let Some(dt) = value.date().datetime() else {
            return;
        };
        // A year after 1990 is after 1990-01-01 in any time zone: no need for the seconds.
        if dt.year > 1990 || dt.unix_seconds() >= Y1990 {
            return;
        }
        let what = if dt.year == 1970 && dt.unix_seconds() < 86_400 {
            "the Unix epoch (a zero timestamp)"
        } else if dt.year <= 1 {
            "an empty date"
        } else {
            "older than the web"
        };
        cx.report_at(&META, value.span(sitemap.source), |span| {
            Diagnostic::new(
                &META,
                span,
                format!("`{}` is before 1990: {what}", value.trimmed()),
            )
            .with_label("a placeholder, not the page's last change")
            .with_help(
                "write the date the page last changed, or leave `<lastmod>` out when it is unknown",
            )
        });
    }
}
