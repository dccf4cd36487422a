//! Rule `value-whitespace`: whitespace around a value, such as a newline before the URL in `<loc>`.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Fix};
use crate::pipeline::model::{ChildKind, Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::value::{in_range, is_decimal};
use crate::values::datetime::{self, Verdict};
use crate::values::uri;

declare_rule! {
    /// ## What it does
    /// Reports leading or trailing whitespace (spaces, tabs, newlines) inside `<loc>`, `<lastmod>`
    /// and `<priority>`. (`<changefreq>` is covered by `changefreq-invalid`, because its schema type
    /// does not allow whitespace at all.)
    ///
    /// ## Why is this bad?
    /// The schema collapses whitespace for these types, and the major search engines trim it, so the
    /// file is valid. But many other parsers do not: they read `\n  https://…` as the URL, which is
    /// relative or broken. Pretty-printers and templates that put the value on its own line are the
    /// usual cause.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>
    ///       https://www.example.com/
    ///     </loc>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/</loc>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// A safe fix deletes the whitespace before and after the value: every reader that trims
    /// already reads the value that remains. No fix where what surrounds the value is not only
    /// whitespace as written (a character reference such as `&#10;`, a comment between the
    /// whitespace and the value).
    ///
    /// ## References
    /// - XML Schema Part 2 §4.3.6 (`whiteSpace` facet: `collapse` for `anyURI`, `date`, `decimal`)
    pub static META = {
        name: "value-whitespace",
        category: Value,
        severity: Warning,
        fix: Safe,
        summary: "whitespace around a `<loc>`, `<lastmod>` or `<priority>` value",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        for child in &entry.children {
            let ChildKind::Field(field) = child.kind else {
                continue;
            };
            if field == Field::Changefreq {
                continue;
            }
            let Some(value) = &child.value else { continue };
            let trimmed = value.trimmed();
            if trimmed.is_empty() || trimmed.len() == value.text.len() {
                continue;
            }
            if cx.skip(&META, value.span(sitemap.source).start) {
                continue;
            }
            let name = field.name();
            let lead = value.trimmed.start;
            let tail = value.trimmed.end..value.text.len();
            let what = match (lead > 0, !tail.is_empty()) {
                (true, true) => "before and after",
                (true, false) => "before",
                _ => "after",
            };
            let line_break =
                value.text[..lead].contains('\n') || value.text[tail.clone()].contains('\n');
            let kind = if line_break {
                "line break"
            } else {
                "whitespace"
            };
            let message = format!("{kind} {what} the `<{name}>` value");
            let d = if line_break {
                // Underlining the line breaks would span lines: point at the value instead.
                Diagnostic::new(&META, value.span(sitemap.source), message)
                    .with_label(format!("{kind} {what} this value"))
            } else {
                // Spaces and tabs on the value's line are underlined themselves.
                let mut runs = [0..lead, tail]
                    .into_iter()
                    .filter(|r| !r.is_empty())
                    .map(|r| value.source_range(sitemap.source, r));
                let first = runs.next().unwrap_or_else(|| value.span(sitemap.source));
                let mut d = Diagnostic::new(&META, first, message).with_label("remove this");
                for more in runs {
                    d = d.with_secondary(more, "and this");
                }
                d
            };
            // Echo the value only when it is short enough to read (and copy) at a glance, and
            // valid once trimmed: the help must not suggest writing another mistake.
            let help = if !valid(field, trimmed) {
                format!("remove the whitespace {what} the value, which is not valid itself either")
            } else if trimmed.chars().count() <= 100 {
                format!("write `<{name}>{trimmed}</{name}>` with nothing around the value")
            } else {
                format!("remove the whitespace {what} the value")
            };
            let fix = value
                .trim_edits(sitemap.source)
                .filter(|edits| !edits.is_empty())
                .map(|edits| Fix::safe(format!("remove the whitespace {what} the value"), edits));
            cx.report(d.with_help(help).with_fix_opt(fix));
        }
    }
}

/// Whether a trimmed value is valid for its field (no error, and `<lastmod>` valid for the XSD too).
fn valid(field: Field, value: &str) -> bool {
    match field {
        Field::Loc => uri::check_http_url(value)
            .iter()
            .all(|p| !p.kind.is_error()),
        Field::Lastmod => matches!(
            datetime::parse(value),
            Verdict::Valid(_) | Verdict::MissingTimezone(..)
        ),
        Field::Priority => is_decimal(value) && in_range(value),
        Field::Changefreq => true,
    }
}

#[cfg(test)]
mod tests {
    use crate::test_fixes::fix_entry;

    #[test]
    fn the_whitespace_is_deleted_and_nothing_else() {
        let fixed = |entry: &str| fix_entry(entry, "value-whitespace");
        let (text, how, message) =
            fixed("<loc>\n      https://www.example.com/\n    </loc>").unwrap();
        assert_eq!(text, "<loc>https://www.example.com/</loc>");
        assert_eq!(how, "safe");
        assert_eq!(message, "remove the whitespace before and after the value");
        let (text, ..) =
            fixed("<loc>https://www.example.com/</loc><priority>0.5\t</priority>").unwrap();
        assert_eq!(
            text,
            "<loc>https://www.example.com/</loc><priority>0.5</priority>"
        );
        // CRLF line ends and CDATA around the value.
        let (text, ..) =
            fixed("<loc>\r\n  <![CDATA[https://www.example.com/?a=1&b=2]]>\r\n</loc>").unwrap();
        assert_eq!(
            text,
            "<loc><![CDATA[https://www.example.com/?a=1&b=2]]></loc>"
        );
        // Whitespace written as a character reference: left alone.
        assert_eq!(fixed("<loc>&#10;https://www.example.com/</loc>"), None);
    }
}
