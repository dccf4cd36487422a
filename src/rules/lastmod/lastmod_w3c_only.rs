//! Rule `lastmod-w3c-only`: a W3C Datetime form that the official XSD rejects (`YYYY`, `YYYY-MM`, `hh:mm` without seconds).

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::datetime::{Precision, Verdict};

declare_rule! {
    /// ## What it does
    /// Reports `<lastmod>` values that are valid W3C Datetime but not valid under the official
    /// `sitemap.xsd`, which accepts only `xsd:date` and `xsd:dateTime`: a year alone (`2024`), a
    /// year and month (`2024-05`), or a time without seconds (`2024-05-10T17:33+08:00`). The help
    /// shows the closest value the schema accepts.
    ///
    /// ## Why is this bad?
    /// The protocol text points to W3C Datetime, which allows these forms, so many crawlers accept
    /// them; but schema validators (and pipelines built on them) reject the file, and lenient
    /// parsers fill the missing parts with the current day or month.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2024-05</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><lastmod>2024-05-01</lastmod></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// A time without seconds gets `:00` (`T10:30+01:00` → `T10:30:00+01:00`): a safe fix, the
    /// same instant. A year or a month gets the first day (`2024-11` → `2024-11-01`): an unsafe
    /// fix, since it claims a precision the value did not have. No fix where the value is not
    /// written as it reads (a character reference, a comment inside it).
    ///
    /// ## References
    /// - W3C Note "Date and Time Formats" (the six precision levels)
    /// - `sitemap.xsd`: `tLastmod` (union of `xsd:date` and `xsd:dateTime` only)
    pub static META = {
        name: "lastmod-w3c-only",
        category: Date,
        severity: Warning,
        fix: Mixed,
        summary: "`<lastmod>` uses a W3C Datetime form the official XSD rejects",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Lastmod) else {
            return;
        };
        let Verdict::W3cOnly(dt, problem) = value.date() else {
            return;
        };
        let source = sitemap.source;
        cx.report_at(
            &META,
            value.source_range_in_trimmed(source, problem.range.clone()),
            |span| {
                let v = value.trimmed();
                let fix = match dt.precision {
                    Precision::Minutes => value
                        .edit_in_trimmed(source, problem.range.end..problem.range.end, ":00")
                        .map(|e| {
                            let time = &v[problem.range.clone()];
                            Fix::safe(format!("add seconds: `{time}:00`"), vec![e])
                        }),
                    Precision::Year | Precision::YearMonth => {
                        let day = if dt.precision == Precision::Year {
                            "-01-01"
                        } else {
                            "-01"
                        };
                        value
                            .edit_in_trimmed(source, v.len()..v.len(), day)
                            .map(|e| {
                                Fix::unsafe_(format!("write the first day: `{v}{day}`"), vec![e])
                            })
                    }
                    Precision::Date | Precision::Seconds => None,
                };
                Diagnostic::new(&META, span, problem.message.clone())
                    .with_help_opt(problem.help.clone())
                    .with_fix_opt(fix)
            },
        );
    }
}
