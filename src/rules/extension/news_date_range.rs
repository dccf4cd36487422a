//! Rule `news-date-range`: a `<news:publication_date>` more than two days old, or in the future, at the time of the check.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{self, Element, Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::extension::has_extension;
use crate::values::datetime::{self, Precision};
use crate::values::extension as ext;

declare_rule! {
    /// ## What it does
    /// Compares each `<news:publication_date>` with the time of the check (the current time,
    /// or `--now`) and warns when the article was published more than two days earlier, or
    /// when the date is in the future (beyond an hour of clock skew).
    ///
    /// A date without a time (`2024-11-21`) or a time without a timezone may be in any
    /// timezone: the check gives it the benefit of the doubt (from UTC+14 to UTC−12).
    ///
    /// ## Why is this bad?
    /// Google News sitemaps are for fresh articles: Google asks to list only articles
    /// published in the last two days and to remove older ones (they stay in the site's
    /// regular sitemap). A date in the future is a wrong date, often a timezone mistake.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/business/article55.html</loc>
    ///     <news:news>
    ///       <news:publication>
    ///         <news:name>The Example Times</news:name>
    ///         <news:language>en</news:language>
    ///       </news:publication>
    ///       <news:publication_date>2008-12-23</news:publication_date>
    ///       <news:title>Companies A, B in Merger Talks</news:title>
    ///     </news:news>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/business/article55.html</loc>
    ///     <lastmod>2008-12-23</lastmod>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// The old article leaves the news sitemap; its page stays in the regular sitemap.
    ///
    /// ## References
    /// - Google Search Central, "News sitemaps": "Only include URLs for articles that were
    ///   published in the last two days"; "remove URLs from the news sitemap" once they are
    ///   older
    /// - W3C Datetime (the format of `publication_date`)
    pub static META = {
        name: "news-date-range",
        category: Date,
        severity: Warning,
        summary: "a news article published more than two days before the check, or in the future",
    }
}

/// Two days, in seconds: how old a news article may be.
const MAX_AGE: i64 = 2 * 86_400;
/// How far in the future a date may be (clock skew).
const FUTURE_TOLERANCE: i64 = 3_600;
/// The farthest timezones from UTC: UTC+14 and UTC−12.
const EAST: i64 = 14 * 3_600;
const WEST: i64 = 12 * 3_600;

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !has_extension(entry, &[ext::NEWS_NS]) {
            return;
        }
        let source = sitemap.source;
        let now = cx.settings.now;
        let mut found = Vec::new();
        super::for_declared(sitemap, entry, cx, &mut |el, decl, _| {
            if std::ptr::eq(decl, &ext::NEWS_PUBLICATION_DATE) {
                found.push(el.clone());
            }
        });
        for el in found {
            check(source, &el, now, cx);
        }
    }
}

fn check(source: &str, el: &Element<'_>, now: i64, cx: &mut Context<'_>) {
    if el.node.children().any(|n| n.is_element()) {
        return;
    }
    let value = model::build_value(el.clone(), el.base(), source);
    let text = value.trimmed();
    // Only values the XSD accepts: extension-value reports the others.
    if !ext::is_xsd_date_or_datetime(text) {
        return;
    }
    let Some(dt) = datetime::parse(text).datetime().cloned() else {
        return;
    };
    let at = dt.unix_seconds();
    // The earliest and latest instants the value may denote.
    let (earliest, latest) = match (dt.offset_minutes, dt.precision) {
        (Some(_), _) => (at, at),
        (None, Precision::Date) => (
            at.saturating_sub(EAST),
            at.saturating_add(86_400 - 1 + WEST),
        ),
        (None, _) => (at.saturating_sub(EAST), at.saturating_add(WEST)),
    };
    let name = el.qualified_name(source);
    let checked = format!(
        "checked at {} (UTC)",
        datetime::format_utc(now).trim_end_matches('Z')
    );
    if latest < now.saturating_sub(MAX_AGE) {
        let days = now.saturating_sub(latest) / 86_400;
        let age = format!("more than {days} days before the check");
        cx.report_at(&META, value.span(source), |span| Diagnostic::new(
                &META,
                span,
                format!("news article published more than two days ago: `{text}`"),
            )
            .with_label(age)
            .with_note(checked)
            .with_help("remove this `<news:news>` from the news sitemap (keep the page in the regular sitemap): Google News sitemaps list only articles of the last two days"),
        );
    } else if earliest > now.saturating_add(FUTURE_TOLERANCE) {
        cx.report_at(&META, value.span(source), |span| Diagnostic::new(
                &META,
                span,
                format!("`<{name}>` `{text}` is in the future"),
            )
            .with_label("after the time of the check")
            .with_note(checked)
            .with_help("write the time the article was first published, with its timezone offset (such as `+01:00`)"),
        );
    }
}
