//! Rule `lastmod-invalid`: `<lastmod>` is not a W3C Datetime (impossible values or a foreign format).

use crate::declare_rule;
use crate::diagnostic::{shown, Diagnostic, Fix};
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
    /// ## Fix
    /// Where the help shows the corrected value, a fix writes it. Safe when it says exactly what
    /// the value said: `/` or `.` as date separators (`2024/11/21`), missing zero padding, ISO 8601
    /// basic format (`20241121`), a date written day- or month-first when one of the numbers
    /// cannot be a month (`21/11/2024`), a lowercase `t` or `z`, an offset without its colon
    /// (`+0100` → `+01:00`) or minutes, a space instead of `T` (when a timezone is given), a
    /// decimal comma in the seconds, `UTC`/`GMT` for `Z`. Unsafe when it assumes or drops
    /// something: a time without a timezone gets `+00:00` (the real offset is unknown), text after
    /// the value or a timezone after a bare date is dropped, a zone name such as `CST` (which has
    /// several meanings) becomes an offset. No fix for impossible dates (`2024-02-30`),
    /// ambiguous ones (`03/04/2024`), foreign formats (Unix time, RFC 2822), nor where the value is
    /// not written as it reads (a character reference, a comment inside it).
    ///
    /// ## References
    /// - W3C Note "Date and Time Formats" (NOTE-datetime), referenced by the protocol for `<lastmod>`
    /// - `sitemap.xsd`: `tLastmod` (union of `xsd:date` and `xsd:dateTime`)
    pub static META = {
        name: "lastmod-invalid",
        category: Date,
        severity: Error,
        fix: Mixed,
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
        let fix = datetime::repair(value.trimmed()).and_then(|r| {
            let edit = value.replace_trimmed(source, r.value.clone())?;
            let message = format!("replace `{}` with `{}`", shown(value.trimmed()), r.value);
            Some(Fix::safe_if(r.certain, message, vec![edit]))
        });
        cx.report(d.with_fix_opt(fix));
    }
}

#[cfg(test)]
mod tests {
    fn fixed(rule: &str, lastmod: &str) -> Option<(String, &'static str, String)> {
        crate::test_fixes::fix_field(rule, "lastmod", lastmod)
    }

    #[track_caller]
    fn case(rule: &str, v: &str, to: &str, how: &str) {
        let (text, applicability, _) = fixed(rule, v).unwrap_or_else(|| panic!("{v}: no fix"));
        assert_eq!((text.as_str(), applicability), (to, how), "{v}");
    }

    #[test]
    fn certain_corrections_are_safe() {
        let safe = |v: &str, to: &str| case("lastmod-invalid", v, to, "safe");
        safe("2024/11/21", "2024-11-21");
        safe("2024.11.21", "2024-11-21");
        safe("2024-1-5", "2024-01-05");
        safe("20241121", "2024-11-21");
        safe("21/11/2024", "2024-11-21");
        safe("2024-11-21T10:00:00+0100", "2024-11-21T10:00:00+01:00");
        safe("2024-11-21T10:00:00+01", "2024-11-21T10:00:00+01:00");
        safe("2024-11-21 10:00:00+01:00", "2024-11-21T10:00:00+01:00");
        safe("2024-11-21t10:00:00z", "2024-11-21T10:00:00Z");
        safe("2024-11-21T10:00:00 UTC", "2024-11-21T10:00:00Z");
        safe("2024-11-21T10:00:00,5Z", "2024-11-21T10:00:00.5Z");
        safe("2024-11-21T10:00:00 +01:00", "2024-11-21T10:00:00+01:00");
        // A valid value around the fix is kept as written, whitespace too.
        safe(" 2024/11/21 ", " 2024-11-21 ");
        assert_eq!(
            fixed("lastmod-invalid", "2024/11/21").unwrap().2,
            "replace `2024/11/21` with `2024-11-21`"
        );
    }

    #[test]
    fn assumptions_are_unsafe_and_guesses_are_not_made() {
        let r#unsafe = |v: &str, to: &str| case("lastmod-invalid", v, to, "unsafe");
        r#unsafe("2024-11-21 10:00:00", "2024-11-21T10:00:00+00:00");
        r#unsafe("2024-11-21T10:00", "2024-11-21T10:00:00+00:00");
        r#unsafe("2024-11-21T10:00:00 CST", "2024-11-21T10:00:00-06:00");
        r#unsafe("2024-11-21+01:00", "2024-11-21");
        r#unsafe("2024-11-21T10:00:00Z xyz", "2024-11-21T10:00:00Z");
        for none in [
            "2024-02-30",
            "03/04/2024",
            "1732190400",
            "Thu, 21 Nov 2024 10:00:00 GMT",
            "yesterday",
            "",
            "2024&#47;11/21",
            "2024/11<!-- -->/21",
        ] {
            assert_eq!(fixed("lastmod-invalid", none), None, "{none}");
        }
    }

    #[test]
    fn the_other_lastmod_rules_fix_what_they_report() {
        case(
            "lastmod-w3c-only",
            "2024-11-21T10:30+01:00",
            "2024-11-21T10:30:00+01:00",
            "safe",
        );
        case("lastmod-w3c-only", "2024-11", "2024-11-01", "unsafe");
        case("lastmod-w3c-only", "2024", "2024-01-01", "unsafe");
        case(
            "lastmod-missing-timezone",
            "2024-11-21T10:00:00",
            "2024-11-21T10:00:00Z",
            "unsafe",
        );
        case(
            "lastmod-missing-timezone",
            "<![CDATA[2024-11-21T10:00:00]]>",
            "<![CDATA[2024-11-21T10:00:00Z]]>",
            "unsafe",
        );
        assert_eq!(
            fixed("lastmod-missing-timezone", "2024-11-21T10:00:0&#48;"),
            None
        );
        assert_eq!(
            fixed("lastmod-w3c-only", "2024-11-21T10:30+01:00")
                .unwrap()
                .2,
            "add seconds: `10:30:00`"
        );
    }
}
