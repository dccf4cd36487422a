//! Rule `loc-length`: `<loc>` is shorter than 12 or longer than 2,048 characters (or the configured `max-url-length`).

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{Entry, Field, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::text::group;
use crate::values::uri::{self, ProblemKind};

/// The schema's `minLength` for `<loc>`.
pub const MIN_CHARS: usize = 12;
/// The protocol's and schema's maximum for `<loc>` (the default of `Settings::max_url_length`).
pub const MAX_CHARS: usize = crate::config::DEFAULT_MAX_URL_LENGTH;

declare_rule! {
    /// ## What it does
    /// Checks that `<loc>` has 12 to 2,048 characters (after trimming whitespace), the bounds of the
    /// official schema. A URL shorter than 12 characters is only reported when it is otherwise a
    /// valid URL, and an empty or relative value not at all (`loc-invalid` already covers `/about`
    /// and the like).
    ///
    /// The upper limit is configurable: `max-url-length` in `sitemap-lint.toml`, or a preset
    /// (`preset = "yandex"` lowers it to Yandex's 1,024 characters).
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
    /// - Yandex Webmaster, "Using the Sitemap file": "URL too long" (over 1,024 characters)
    pub static META = {
        name: "loc-length",
        category: Url,
        severity: Error,
        summary: "`<loc>` is shorter than 12 or longer than 2,048 characters",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Loc) else {
            return;
        };
        let v = value.trimmed();
        // An empty or relative value is not a URL yet: `loc-invalid` says what it needs.
        let not_absolute = value.url_problems().iter().any(|p| {
            matches!(
                p.kind,
                ProblemKind::Empty | ProblemKind::Relative | ProblemKind::MissingScheme
            )
        });
        if not_absolute {
            return;
        }
        let max = cx.settings.max_url_length;
        // Without counting: a value of at most `max` bytes has at most `max` characters, and one
        // of at least 4 × MIN_CHARS bytes at least MIN_CHARS (a character takes 1 to 4 bytes).
        if (4 * MIN_CHARS..=max).contains(&v.len()) {
            return;
        }
        let chars = v.chars().count();
        if chars > max {
            let cut = v.char_indices().nth(max).map_or(v.len(), |(i, _)| i);
            let over = chars - max;
            cx.report_at(&META, value.source_range_in_trimmed(sitemap.source, cut..v.len()), |span| Diagnostic::new(
                    &META,
                    span,
                    format!(
                        "`<loc>` is {} characters long, over the {}limit of {}",
                        group(chars as u64),
                        if max == MAX_CHARS { "" } else { "configured " },
                        group(max as u64)
                    ),
                )
                .with_label(if over == 1 {
                    "this character is past the limit".to_owned()
                } else {
                    format!("these {} characters are past the limit", group(over as u64))
                })
                .with_help(format!(
                    "shorten the URL by at least {} character{} (drop tracking parameters, use shorter slugs); search engines skip longer URLs",
                    group(over as u64),
                    if over == 1 { "" } else { "s" }
                )),
            );
        } else if chars < MIN_CHARS && !value.url_problems().iter().any(|p| p.kind.is_error()) {
            let with_slash = format!("{v}/");
            let fix = !v.ends_with('/')
                && with_slash.chars().count() >= MIN_CHARS
                && uri::check_http_url(&with_slash).is_empty()
                && !v[v.find("://").map_or(0, |i| i + 3)..].contains(['/', '?', '#']);
            let d = Diagnostic::new(
                &META,
                value.span(sitemap.source),
                format!(
                    "`<loc>` is {chars} characters long; the schema requires at least {MIN_CHARS}"
                ),
            );
            cx.report(if fix {
                d.with_help(format!(
                    "write `{with_slash}` (with the trailing slash of the root path)"
                ))
            } else {
                d.with_help("the official schema rejects URLs shorter than 12 characters; list the full address of the page")
            });
        }
    }
}
