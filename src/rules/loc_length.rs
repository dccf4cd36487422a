//! Rule `loc-length`: `<loc>` is shorter than 12 or longer than 2,048 characters.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule, RuleMeta};

/// The schema's `minLength` for `<loc>`.
pub const MIN_CHARS: usize = 12;
/// The protocol's and schema's maximum for `<loc>`.
pub const MAX_CHARS: usize = 2048;

declare_rule! {
    /// ## What it does
    /// Checks that `<loc>` has 12 to 2,048 characters (after trimming whitespace), the bounds of the
    /// official schema. A URL shorter than 12 characters is only reported when it is otherwise a
    /// valid URL (`loc-invalid` already covers `/about` and the like).
    ///
    /// ## Why is this bad?
    /// The protocol says the value "must be less than 2,048 characters"; longer URLs are dropped
    /// (Yandex's own limit is 1,024). The schema's minimum of 12 characters is the length of the
    /// shortest plausible URL (`http://a.bc/`); validators reject anything shorter.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>http://a.io</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>http://a.io/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - sitemaps.org protocol, `<loc>`: "This value must be less than 2,048 characters"
    /// - `sitemap.xsd`: `tLoc` (`minLength` 12, `maxLength` 2048)
    pub static META = {
        name: "loc-length",
        category: Url,
        severity: Error,
        summary: "`<loc>` is shorter than 12 or longer than 2,048 characters",
    }
}

pub struct Check;

impl Rule for Check {
    fn meta(&self) -> &'static RuleMeta {
        &META
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Loc) else {
            return;
        };
        let v = value.trimmed();
        if v.is_empty() {
            return;
        }
        let chars = v.chars().count();
        if chars > MAX_CHARS {
            let cut = v.char_indices().nth(MAX_CHARS).map_or(v.len(), |(i, _)| i);
            cx.report(
                Diagnostic::new(
                    &META,
                    value.source_range_in_trimmed(sitemap.source, cut..v.len()),
                    format!("`<loc>` is {chars} characters long, over the limit of {MAX_CHARS}"),
                )
                .with_label("characters past the limit")
                .with_help("shorten the URL (drop tracking parameters, use shorter slugs); search engines skip longer URLs"),
            );
        } else if chars < MIN_CHARS && !value.url_problems().iter().any(|p| p.kind.is_error()) {
            let fix = if v.ends_with('/') { None } else { Some(format!("{v}/")) };
            let d = Diagnostic::new(
                &META,
                value.span(sitemap.source),
                format!("`<loc>` is {chars} characters long; the schema requires at least {MIN_CHARS}"),
            );
            cx.report(match fix {
                Some(f) if f.chars().count() >= MIN_CHARS => d.with_help(format!("write `{f}` (with the trailing slash of the root path)")),
                _ => d.with_help("the official schema rejects URLs shorter than 12 characters"),
            });
        }
    }
}
