//! Rule `changefreq-invalid`: `<changefreq>` is not exactly one of the seven allowed values.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::{Entry, Field, Sitemap, Value};
use crate::rule::{Context, Rule};
use crate::values::text;

/// The values `<changefreq>` may take, case-sensitive.
pub const VALUES: [&str; 7] = [
    "always", "hourly", "daily", "weekly", "monthly", "yearly", "never",
];

declare_rule! {
    /// ## What it does
    /// Checks that `<changefreq>` is exactly one of `always`, `hourly`, `daily`, `weekly`,
    /// `monthly`, `yearly`, `never`. The comparison is case-sensitive and, as in the official
    /// schema, whitespace around the value is not allowed. Near misses get a suggestion (`Daily` →
    /// `daily`, `weekley` → `weekly`, `1 day` → `daily`).
    ///
    /// ## Why is this bad?
    /// The schema defines an enumeration; validators reject other values and crawlers drop them
    /// (some fall back to `always`). Google ignores `<changefreq>` altogether, so a wrong value buys
    /// nothing but a failed validation; consider removing the element.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><changefreq>Daily</changefreq></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc><changefreq>daily</changefreq></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// Safe fixes: whitespace around an allowed value is deleted; a value that differs from an
    /// allowed one only in case (`Daily`), or a clear synonym of one (`every day`, `1 week`,
    /// `annually`), is replaced by it (with the whitespace around it deleted too). A suggestion
    /// by spelling distance alone (`weekley` → `weekly`) is an unsafe fix: it is a guess. No fix
    /// for an empty value or one without a suggestion, nor where the value is not written as it
    /// reads (a character reference, a comment or CDATA around it).
    ///
    /// ## References
    /// - sitemaps.org protocol, `<changefreq>`
    /// - `sitemap.xsd`: `tChangeFreq` (`xsd:string` enumeration)
    pub static META = {
        name: "changefreq-invalid",
        category: Value,
        severity: Error,
        fix: Mixed,
        summary: "`<changefreq>` is not one of always, hourly, daily, weekly, monthly, yearly, never",
    }
}

fn synonym(value: &str) -> Option<&'static str> {
    Some(match value.to_lowercase().trim() {
        "1 hour" | "hour" | "every hour" => "hourly",
        "1 day" | "day" | "every day" | "everyday" | "dayly" => "daily",
        "1 week" | "week" | "every week" => "weekly",
        "1 month" | "month" | "every month" => "monthly",
        "1 year" | "year" | "every year" | "annually" | "annual" => "yearly",
        "continuous" | "continuously" | "constantly" => "always",
        _ => return None,
    })
}

/// Replaces the value with `with`, and deletes the whitespace around it: safe when `certain`
/// (a case difference, a synonym), unsafe for a guess by spelling.
fn replacement(sitemap: &Sitemap<'_>, value: &Value<'_>, with: &str, certain: bool) -> Option<Fix> {
    let source = sitemap.source;
    let mut edits: Vec<Edit> = value.trim_edits(source).unwrap_or_default();
    edits.push(value.replace_trimmed(source, with)?);
    let message = format!(
        "replace `{}` with `{with}`",
        crate::diagnostic::shown(value.trimmed())
    );
    Some(Fix::safe_if(certain, message, edits))
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Changefreq) else {
            return;
        };
        let raw: &str = &value.text;
        if VALUES.contains(&raw) {
            return;
        }
        let trimmed = value.trimmed();
        if let Some(d) =
            crate::rules::placeholder_finding(&META, trimmed, "`<changefreq>`", "value", |r| {
                value.source_range_in_trimmed(sitemap.source, r)
            })
        {
            cx.report(d);
            return;
        }
        let span = value.span(sitemap.source);
        if cx.skip(&META, span.start) {
            return;
        }
        let listed = VALUES.map(|v| format!("`{v}`")).join(", ");
        let d =
            if trimmed.is_empty() {
                Diagnostic::new(&META, span, "`<changefreq>` is empty")
                    .with_help(format!("use one of {listed}, or remove the element"))
            } else if VALUES.contains(&trimmed) {
                // Underline the whitespace with the value, unless it spans lines.
                let span = if raw.contains('\n') {
                    span
                } else {
                    value.source_range(sitemap.source, 0..value.text.len())
                };
                let d = Diagnostic::new(
                    &META,
                    span,
                    format!("`<changefreq>` value `{trimmed}` has surrounding whitespace"),
                )
                .with_label("the schema's enumeration does not trim whitespace")
                .with_help(format!("write `<changefreq>{trimmed}</changefreq>`"));
                d.with_fix_opt(value.trim_edits(sitemap.source).map(|edits| {
                    Fix::safe(format!("remove the whitespace around `{trimmed}`"), edits)
                }))
            } else {
                let certain = VALUES
                    .iter()
                    .find(|v| v.eq_ignore_ascii_case(trimmed))
                    .copied()
                    .or_else(|| synonym(trimmed));
                let suggestion = certain.or_else(|| text::closest(trimmed, &VALUES));
                let d = Diagnostic::new(
                    &META,
                    span,
                    format!(
                        "`{}` is not a valid `<changefreq>`",
                        crate::diagnostic::shown(trimmed)
                    ),
                );
                match suggestion {
                    Some(s) => d
                        .with_label(format!("did you mean `{s}`?"))
                        .with_help(format!(
                            "write `{s}` (values are lowercase); allowed: {listed}"
                        ))
                        .with_fix_opt(replacement(sitemap, value, s, certain.is_some())),
                    None => d
                        .with_label("not an allowed value")
                        .with_help(format!("use one of {listed}")),
                }
            };
        cx.report(d);
    }
}

#[cfg(test)]
mod tests {

    fn fixed(changefreq: &str) -> Option<(String, &'static str, String)> {
        crate::test_fixes::fix_field("changefreq-invalid", "changefreq", changefreq)
    }

    #[test]
    fn case_synonyms_and_whitespace_are_safe_fixes() {
        let safe = |v: &str, to: &str| {
            let (text, how, _) = fixed(v).unwrap_or_else(|| panic!("{v}: no fix"));
            assert_eq!((text.as_str(), how), (to, "safe"), "{v}");
        };
        safe("Daily", "daily");
        safe("WEEKLY", "weekly");
        safe("every day", "daily");
        safe("  Annually\n", "yearly");
        safe(" daily ", "daily");
        safe("\r\n  never\r\n", "never");
        assert_eq!(fixed("Daily").unwrap().2, "replace `Daily` with `daily`");
        assert_eq!(
            fixed(" daily").unwrap().2,
            "remove the whitespace around `daily`"
        );
    }

    #[test]
    fn a_guess_is_unsafe_and_what_is_not_written_verbatim_is_left() {
        let (text, how, _) = fixed("weekley").unwrap();
        assert_eq!((text.as_str(), how), ("weekly", "unsafe"));
        assert_eq!(fixed("sometimes"), None);
        assert_eq!(fixed(""), None);
        // Character references, CDATA, comments: the value is not written as it reads.
        assert_eq!(fixed("D&#97;ily"), None);
        assert_eq!(
            fixed("<![CDATA[Daily]]>").map(|f| f.0),
            Some("<![CDATA[daily]]>".into())
        );
        assert_eq!(fixed("&#32;daily"), None);
        // A comment before the value stays.
        assert_eq!(
            fixed("<!-- x --> daily").map(|f| f.0),
            Some("<!-- x -->daily".into())
        );
        assert_eq!(fixed("Dai<!-- x -->ly"), None);
    }
}
