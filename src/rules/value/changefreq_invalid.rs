//! Rule `changefreq-invalid`: `<changefreq>` is not exactly one of the seven allowed values.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Sitemap};
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
    /// ## References
    /// - sitemaps.org protocol, `<changefreq>`
    /// - `sitemap.xsd`: `tChangeFreq` (`xsd:string` enumeration)
    pub static META = {
        name: "changefreq-invalid",
        category: Value,
        severity: Error,
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
        let d = if trimmed.is_empty() {
            Diagnostic::new(&META, span, "`<changefreq>` is empty")
                .with_help(format!("use one of {listed}, or remove the element"))
        } else if VALUES.contains(&trimmed) {
            // Underline the whitespace with the value, unless it spans lines.
            let span = if raw.contains('\n') {
                span
            } else {
                value.source_range(sitemap.source, 0..value.text.len())
            };
            Diagnostic::new(
                &META,
                span,
                format!("`<changefreq>` value `{trimmed}` has surrounding whitespace"),
            )
            .with_label("the schema's enumeration does not trim whitespace")
            .with_help(format!("write `<changefreq>{trimmed}</changefreq>`"))
        } else {
            let suggestion = VALUES
                .iter()
                .find(|v| v.eq_ignore_ascii_case(trimmed))
                .copied()
                .or_else(|| synonym(trimmed))
                .or_else(|| text::closest(trimmed, &VALUES));
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
                    )),
                None => d
                    .with_label("not an allowed value")
                    .with_help(format!("use one of {listed}")),
            }
        };
        cx.report(d);
    }
}
