//! Rule `hreflang-invalid`: an `<xhtml:link>` whose `hreflang` is missing or not a language code Google accepts.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::links;
use crate::pipeline::model::{Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::values::language;

declare_rule! {
    /// ## What it does
    /// Checks the `hreflang` of every `<xhtml:link>` inside a `<url>`: it must be `x-default` or
    /// a language tag of the form Google accepts, a language (ISO 639-1, or ISO 639-2/3 for
    /// languages without a two-letter code), optionally a script (ISO 15924) and a region
    /// (ISO 3166-1 alpha-2, or a UN M.49 area such as `419`). Case does not matter (`EN-us` is
    /// valid, as in BCP 47). The mistake is underlined inside the value, and the help gives the
    /// corrected value for the common ones: `en_US` (underscore), `en-UK` (the code is `GB`),
    /// a country alone (`US`, `gb`), a country code as language (`jp`, `cn`), three-letter codes
    /// that have a two-letter one (`eng`), withdrawn codes (`iw`), a language name (`English`),
    /// and misspellings of `x-default` (`default`, `x_default`). Region `EU` is reported without
    /// a fix: it is not a country.
    ///
    /// A missing `hreflang` is reported too, except on a link with `media`: that is Google's
    /// annotation of a separate mobile URL, which has no language.
    ///
    /// ## Why is this bad?
    /// Google ignores an alternate whose code it does not understand, so the page is shown to
    /// users of the wrong language or country; with `en-UK` the British page is never chosen.
    /// Google's documentation: "The value of the hreflang attribute must be in ISO 639-1 format
    /// for the language, and optionally in ISO 3166-1 Alpha 2 format for the region."
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/uk/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en-UK" href="https://www.example.com/uk/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:xhtml="http://www.w3.org/1999/xhtml">
    ///   <url>
    ///     <loc>https://www.example.com/uk/</loc>
    ///     <xhtml:link rel="alternate" hreflang="en-GB" href="https://www.example.com/uk/"/>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// Where the help gives the corrected value, a fix writes it. Safe when only the separators
    /// and surrounding whitespace change (`en_US` → `en-US`, `x_default` → `x-default`, `en US`):
    /// the codes are the writer's. Unsafe when a code changes (`en-UK` → `en-GB`, `jp` → `ja`,
    /// `eng` → `en`, `US` → `en-US`, `default` → `x-default`): likely, but a reading of what was
    /// meant. No fix for a missing or empty `hreflang`, a value without a derivable correction
    /// (`EU`, unknown codes), nor where the value is not written as it reads (a character
    /// reference in the attribute).
    ///
    /// ## References
    /// - Google Search Central, "Tell Google about localized versions of your page": supported language and region codes, `x-default`
    /// - RFC 5646 (BCP 47), "Tags for Identifying Languages": §2.1 syntax, §2.1.1 case-insensitivity, §2.2.1 shortest language code
    /// - ISO 639-1, ISO 15924, ISO 3166-1, UN M.49
    pub static META = {
        name: "hreflang-invalid",
        category: Value,
        severity: Error,
        fix: Mixed,
        summary: "an `<xhtml:link>` `hreflang` is missing or not a valid language code or `x-default`",
    }
}

/// The fix writing `fixed` for the value of `attr`: safe when only separators and whitespace
/// change, unsafe when a code does. `None` without a correction, or when the attribute is not
/// written as it reads.
fn fix(source: &str, attr: &links::LinkAttribute<'_>, fixed: Option<&str>) -> Option<Fix> {
    let fixed = fixed?;
    if source.get(attr.span.clone()) != Some(attr.value) {
        return None;
    }
    let separators = attr.value.trim().replace(['_', ' '], "-");
    Some(Fix::safe_if(
        separators == fixed,
        format!("replace `{}` with `{fixed}`", attr.value),
        vec![Edit::replace(attr.span.clone(), fixed)],
    ))
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !links::has_links(entry) {
            return;
        }
        let source = sitemap.source;
        for link in links::links(entry) {
            let Some(attr) = &link.hreflang() else {
                // A separate mobile URL (`media`) has no language; an app link is reported by
                // `hreflang-href-invalid`, and a link that is not an alternate (`amphtml`) by
                // `hreflang-rel`.
                let app = link.href().is_some_and(|h| links::is_app_link(h.value));
                let other_rel = link
                    .rel()
                    .is_some_and(|r| !r.value.trim().eq_ignore_ascii_case("alternate"));
                if link.media().is_none() && !app && !other_rel {
                    cx.report_at(&META, link.element.name_span.clone(), |span| {
                        let name = crate::diagnostic::shown(link.element.qualified_name(source));
                        Diagnostic::new(
                            &META,
                            span,
                            format!("`<{name}>` has no `hreflang` attribute"),
                        )
                        .with_label("no language given")
                        .with_help(format!(
                            "add the alternate's language: `<{name} rel=\"alternate\" hreflang=\"en\" href=\"…\"/>` (or `hreflang=\"x-default\"` for the fallback page)"
                        ))
                    });
                }
                continue;
            };
            let Err(problem) = language::parse(attr.value) else {
                continue;
            };
            if let Some(d) = crate::rules::placeholder_finding(
                &META,
                attr.value,
                "`hreflang`",
                "language code",
                |r| attr.source_range(source, r),
            ) {
                cx.report(d);
                continue;
            }
            let span = if attr.value.is_empty() {
                // Point at `hreflang=""` rather than between the quotes.
                attr.span.start.saturating_sub(1)..attr.span.end + 1
            } else {
                attr.source_range(source, problem.range.clone())
            };
            let span = if span.is_empty() {
                attr.span.clone()
            } else {
                span
            };
            cx.report_at(&META, span, |span| {
                Diagnostic::new(
                    &META,
                    span,
                    if attr.value.is_empty() {
                        "empty `hreflang`".to_owned()
                    } else {
                        format!("invalid `hreflang` `{}`: {}", attr.value, problem.message)
                    },
                )
                .with_label(problem.label)
                .with_help(problem.help)
                .with_fix_opt(fix(source, attr, problem.fix.as_deref()))
            });
        }
    }
}

#[cfg(test)]
mod tests {
    fn fixed(hreflang: &str) -> Option<(String, &'static str, String)> {
        let entry = format!(
            r#"<loc>https://www.example.com/</loc><xhtml:link xmlns:xhtml="http://www.w3.org/1999/xhtml" rel="alternate" hreflang="{hreflang}" href="https://www.example.com/"/>"#
        );
        crate::test_fixes::fix_entry(&entry, "hreflang-invalid").map(|(text, how, message)| {
            let value = text.split_once("hreflang=\"").unwrap().1;
            (value.split_once('"').unwrap().0.to_string(), how, message)
        })
    }

    #[test]
    fn separators_are_safe_and_codes_unsafe() {
        let case = |v: &str, to: &str, how: &str| {
            let (text, applicability, _) = fixed(v).unwrap_or_else(|| panic!("{v}: no fix"));
            assert_eq!((text.as_str(), applicability), (to, how), "{v}");
        };
        case("en_US", "en-US", "safe");
        case("pt_br", "pt-br", "safe");
        case("x_default", "x-default", "safe");
        case("en-UK", "en-GB", "unsafe");
        case("en_uk", "en-gb", "unsafe");
        case("eng", "en", "unsafe");
        case("default", "x-default", "unsafe");
        assert_eq!(fixed("en_US").unwrap().2, "replace `en_US` with `en-US`");
        assert_eq!(fixed("en-EU"), None);
        assert_eq!(fixed("en&#95;US"), None);
    }
}
