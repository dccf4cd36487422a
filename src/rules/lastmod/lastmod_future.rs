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

/// Whether every moment of `year`, in any time zone, is more than a year before `now` (a Unix
/// time after 1970), found without the seconds of the date: `now` is at least `n` years of 366
/// days after 1970, so `1970 + n` starts no later than `now`, and a date before `1969 + n` ends
/// (with its time zone, at most a few days) more than 300 days before it.
fn before_the_year_before(year: i64, now: i64) -> bool {
    now >= 0 && year < 1969 + now / (366 * 86_400)
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
        if before_the_year_before(i64::from(dt.year), now)
            || dt.unix_seconds() <= now.saturating_add(TOLERANCE_SECONDS)
        {
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

#[cfg(test)]
mod tests {
    use super::before_the_year_before;
    use crate::values::datetime;

    #[test]
    fn a_year_judged_past_ends_before_now_in_every_time_zone() {
        let nows = [
            0,
            1,
            31_622_399,
            31_622_400,
            946_684_800,   // 2000-01-01
            1_735_689_600, // 2025-01-01
            1_795_737_600, // 2026-11-27
            4_102_444_800, // 2100-01-01
        ];
        for now in nows {
            let mut past = 0;
            for year in 1900..2200 {
                let latest = format!("{year}-12-31T23:59:59-14:00");
                let dt = datetime::parse(&latest)
                    .datetime()
                    .expect("a valid date")
                    .clone();
                if before_the_year_before(i64::from(year), now) {
                    past += 1;
                    assert!(dt.unix_seconds() < now, "{latest} at {now}");
                }
            }
            // After 1971 the years before last are all judged without their seconds.
            let years = now / 31_556_952;
            assert!(past + 1 >= (70 + years - 2).min(300), "{now}: {past}");
        }
        assert!(!before_the_year_before(1969, -1));
    }
}
