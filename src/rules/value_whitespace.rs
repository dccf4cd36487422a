//! Rule `value-whitespace`: whitespace around a value, such as a newline before the URL in `<loc>`.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{ChildKind, Entry, Field, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

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
    /// ## References
    /// - XML Schema Part 2 §4.3.6 (`whiteSpace` facet: `collapse` for `anyURI`, `date`, `decimal`)
    pub static META = {
        name: "value-whitespace",
        category: Value,
        severity: Warning,
        summary: "whitespace around a `<loc>`, `<lastmod>` or `<priority>` value",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

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
            let name = field.name();
            let lead = &value.text[..value.trimmed.start];
            let tail = &value.text[value.trimmed.end..];
            let what = match (lead.is_empty(), tail.is_empty()) {
                (false, false) => "before and after",
                (false, true) => "before",
                _ => "after",
            };
            let kind = if lead.contains('\n') || tail.contains('\n') {
                "line break"
            } else {
                "whitespace"
            };
            let d = Diagnostic::new(
                &META,
                value.span(sitemap.source),
                format!("{kind} {what} the `<{name}>` value"),
            )
            .with_label(format!("{kind} {what} this value"));
            let shown: String = trimmed.chars().take(80).collect();
            cx.report(d.with_help(format!("write `<{name}>{shown}</{name}>` with nothing around the value")));
        }
    }
}
