//! Rule `lastmod-missing-timezone`: a `<lastmod>` time without a timezone, which search engines reject.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::datetime::Verdict;

declare_rule! {
    /// ## What it does
    /// Reports a `<lastmod>` with a time but no timezone, such as `2024-01-08T00:00:00`. The
    /// official XSD accepts it (`xsd:dateTime` makes the zone optional), but W3C Datetime requires a
    /// timezone whenever a time is given.
    ///
    /// ## Why is this bad?
    /// Google Search Console rejects these values as "Invalid date" (reported for Nuxt, Jaspr and
    /// others), and a time without zone is ambiguous by up to 26 hours anyway.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2024-01-08T10:00:00</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2024-01-08T10:00:00+00:00</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// An unsafe fix appends `Z`, which says the time is UTC: right only if it is (a generator
    /// printing local time needs its offset instead). No fix where the value is not written as it
    /// reads (a character reference, a comment inside it).
    ///
    /// ## References
    /// - W3C Note "Date and Time Formats": "a time zone designator" is part of every form with a time
    /// - Google: "Dates must use W3C Datetime encoding"
    pub static META = {
        name: "lastmod-missing-timezone",
        category: Date,
        severity: Warning,
        fix: Unsafe,
        summary: "`<lastmod>` has a time but no timezone; search engines reject it",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Lastmod) else {
            return;
        };
        let Verdict::MissingTimezone(_, problem) = value.date() else {
            return;
        };
        let r = problem.range.clone();
        let span = if r.is_empty() {
            // Point at the last character of the time, where the zone belongs.
            let end = r.end.min(value.trimmed().len());
            let start = value.trimmed()[..end]
                .char_indices()
                .last()
                .map_or(0, |(i, _)| i);
            value.source_range_in_trimmed(sitemap.source, start..end)
        } else {
            value.source_range_in_trimmed(sitemap.source, r)
        };
        cx.report_at(&META, span, |span| {
            let v = value.trimmed();
            let fix = value
                .edit_in_trimmed(sitemap.source, v.len()..v.len(), "Z")
                .map(|e| Fix::unsafe_(format!("append `Z` (UTC): `{v}Z`"), vec![e]));
            Diagnostic::new(&META, span, problem.message.clone())
                .with_label("a timezone belongs after this")
                .with_note("the sitemap XSD accepts it (`xsd:dateTime` makes the timezone optional), so schema validators do not report it")
                .with_help_opt(problem.help.clone())
                .with_fix_opt(fix)
        });
    }
}
