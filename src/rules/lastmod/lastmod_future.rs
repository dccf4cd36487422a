//! Rule `lastmod-future`: a `<lastmod>` lies more than a day after the current time.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::datetime;

/// How far ahead of "now" a `<lastmod>` may be: one day covers every time zone (a date written
/// in UTC+14 is up to 14 hours ahead of UTC) and clocks a little off.
pub const TOLERANCE_SECONDS: i64 = 86_400;

declare_rule! {
    /// ## What it does
    /// Reports a `<lastmod>` more than one day after the current time (the clock, or `--now`).
    /// The day of tolerance covers time zones (a date in UTC+14 is ahead of UTC) and clocks
    /// slightly off. A value without a time counts from its midnight UTC.
    ///
    /// ## Why is this bad?
    /// A page cannot have changed in the future: the date comes from a wrong clock, a
    /// publication date scheduled ahead, or a placeholder. Google uses `<lastmod>` only "if it's
    /// consistently and verifiably accurate"; wrong dates teach it to ignore the file's dates.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2999-01-01</lastmod></url>
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
    /// - Google, "Build and submit a sitemap": `<lastmod>` is used "if it's consistently and
    ///   verifiably (for example by comparing to the last modification of the page) accurate"
    /// - sitemaps.org protocol, `<lastmod>`: "The date of last modification of the page"
    pub static META = {
        name: "lastmod-future",
        category: Date,
        severity: Info,
        summary: "a `<lastmod>` is more than a day in the future",
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
        let now = cx.settings.now;
        if dt.unix_seconds() <= now.saturating_add(TOLERANCE_SECONDS) {
            return;
        }
        cx.report_at(&META, value.span(sitemap.source), |span| Diagnostic::new(
                &META,
                span,
                format!("`{}` is in the future", value.trimmed()),
            )
            .with_label(format!("now is {}", datetime::format_utc(now)))
            .with_help("write the date the page last changed; fix the generator's clock or leave scheduled pages out until they are published"),
        );
    }
}
