//! Rule `loc-invalid`: `<loc>` is not an absolute `http`/`https` URL per RFC 3986.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::{Entry, EntryKind, Field, Sitemap, Value};
use crate::pipeline::source::on_one_line;
use crate::rule::{Context, Rule};
use crate::rules::loc::url_fix;
use crate::values::uri::{self, ProblemKind};

declare_rule! {
    /// ## What it does
    /// Checks every `<loc>` (of pages and of child sitemaps) against the RFC 3986 grammar for an
    /// absolute `http` or `https` URL, with its own parser (no silent repair): empty values, relative
    /// paths, a missing or misspelled scheme (`htp://`, `https//`), other schemes (`ftp:`,
    /// `javascript:`), spaces and other whitespace, `"`, backslashes, `<` `>` `{` `}` `|` `^` and
    /// backquotes, `[` `]` outside an IPv6 host, control characters, `%` not followed by two hex
    /// digits, a missing or malformed host, and a bad port. Each problem is underlined exactly
    /// (repeats of it in the same URL are labelled beside it), and the help shows the URL with
    /// every error corrected when that can be derived; a relative URL is completed with the
    /// scheme and host of the file's valid entries. What generators print instead of a URL
    /// (`None`, `undefined`, an unexpanded `{{ page.url }}`) is reported as such.
    ///
    /// Non-ASCII characters, fragments and credentials are valid and are reported by
    /// `loc-not-ascii`, `loc-fragment` and `loc-credentials`.
    ///
    /// ## Why is this bad?
    /// Search Console reports "Invalid URL" ("unsupported characters, spaces, or other characters
    /// such as quotes, or … incorrectly formatted (for example, htp://)") and "URLs not followed"
    /// for relative URLs; the entry is dropped. Lenient URL libraries "fix" some of these in
    /// different ways, so different crawlers index different URLs.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/summer sale</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/summer%20sale</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// Where a correction of the problem can be derived, a fix makes it; a problem repeated in
    /// the URL is fixed with it. Safe when the URL stays the one the writer meant: spaces and the
    /// characters not allowed in a path, query or fragment (`"`, `<`, `>`, `{`, `}`, `|`, `^`,
    /// a backquote) percent-encoded (`summer sale` → `summer%20sale`). Unsafe when it is a
    /// reading: a misspelled scheme (`htp:`), a missing scheme or `:` or slashes, a backslash
    /// made a `/`, a stray `%` encoded as `%25`, control characters and line breaks removed, `[`
    /// or `]` encoded, an IP address's leading zeros dropped. A relative URL is made absolute by
    /// an unsafe fix only when `--sitemap-url` is given: it is resolved against the sitemap's
    /// own URL, as a crawler would (the origin of the other entries is only a guess). No fix
    /// for an empty value, a placeholder, a problem without a derivable correction (an unknown
    /// scheme, a malformed host or port), nor where the value is not written as it reads (a
    /// character reference, CDATA around the problem).
    ///
    /// ## References
    /// - RFC 3986 (URI generic syntax), §3 and Appendix A (ABNF)
    /// - sitemaps.org protocol, `<loc>`: "This URL must begin with the protocol (such as http)"; "Entity escaping": URLs must follow RFC 3986
    pub static META = {
        name: "loc-invalid",
        category: Url,
        severity: Error,
        fix: Mixed,
        summary: "`<loc>` is not an absolute http(s) URL per RFC 3986",
    }
}

impl Rule for Check {
    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        let Some(value) = entry.value(Field::Loc) else {
            return;
        };
        if !value.url_problems().iter().any(|p| p.kind.is_error()) {
            return;
        }
        if let Some(d) = placeholder(sitemap, value) {
            cx.report(d);
            return;
        }
        // Relative URLs are completed with the origin the valid entries share.
        let completes = value
            .url_problems()
            .iter()
            .any(|p| matches!(p.kind, ProblemKind::Relative | ProblemKind::MissingScheme));
        let rechecked;
        let problems = if completes {
            rechecked =
                uri::check_http_url_with_base(value.trimmed(), sitemap.site_origin.as_deref());
            &rechecked[..]
        } else {
            value.url_problems()
        };
        let base = cx.settings.sitemap_url.clone();
        report(sitemap, entry, value, problems, base.as_deref(), cx);
    }
}

/// A value a generator printed instead of a URL: an empty variable (`None`, `undefined`), a
/// JavaScript object, or an unexpanded template (`{{ page.url }}`). One diagnostic says so,
/// instead of noise about its characters.
fn placeholder(sitemap: &Sitemap<'_>, value: &Value<'_>) -> Option<Diagnostic> {
    const EMPTY: [&str; 7] = ["none", "null", "nil", "undefined", "nan", "false", "true"];
    let v = value.trimmed();
    let generator = |message: String, label: &str| {
        Diagnostic::new(&META, value.span(sitemap.source), message)
            .with_label(label)
            .with_help("fix the generator so that it writes the absolute URL of the page, or leaves the entry out")
    };
    if EMPTY.iter().any(|e| v.eq_ignore_ascii_case(e)) {
        return Some(generator(
            format!("`{v}` is not a URL: the generator printed an empty variable"),
            "a variable without a value",
        ));
    }
    if v.eq_ignore_ascii_case("[object Object]") {
        return Some(generator(
            format!("`{v}` is not a URL: the generator printed a JavaScript object"),
            "an object converted to text",
        ));
    }
    crate::rules::placeholder_finding(&META, v, "`<loc>`", "URL", |r| {
        value.source_range_in_trimmed(sitemap.source, r)
    })
}

/// One diagnostic per problem; repeats of it in the same URL (`"` twice, `{` and `}` in the
/// path) are labelled beside the first, since one corrected URL fixes them all.
fn report(
    sitemap: &Sitemap<'_>,
    entry: &Entry<'_>,
    value: &Value<'_>,
    problems: &[uri::Problem],
    base: Option<&str>,
    cx: &mut Context<'_>,
) {
    let source = sitemap.source;
    let errors: Vec<&uri::Problem> = problems.iter().filter(|p| p.kind.is_error()).collect();
    let mut grouped = vec![false; errors.len()];
    for (i, first) in errors.iter().enumerate() {
        if grouped[i] {
            continue;
        }
        if first.kind == ProblemKind::Empty {
            let what = match entry.kind {
                EntryKind::Sitemap => "child sitemap",
                EntryKind::Url => "page",
            };
            cx.report_at(&META, value.span(source), |span| {
                Diagnostic::new(&META, span, "`<loc>` is empty").with_help(format!(
                    "write the absolute `http` or `https` URL of the {what}, or remove the entry"
                ))
            });
            continue;
        }
        let span = on_one_line(
            source,
            value.source_range_in_trimmed(source, first.range.clone()),
        );
        // Past the cap, a file where every `<loc>` is invalid pays for a counter.
        if cx.skip(&META, span.start) {
            continue;
        }
        let mut d = Diagnostic::new(&META, span, first.message.clone());
        let mut texts = vec![&value.trimmed()[first.range.clone()]];
        let mut fixed = vec![*first];
        for (j, more) in errors.iter().enumerate().skip(i + 1) {
            if grouped[j] {
                continue;
            }
            if let Some(label) = repeat_label(value.trimmed(), first, more) {
                grouped[j] = true;
                fixed.push(*more);
                let text = &value.trimmed()[more.range.clone()];
                if !texts.contains(&text) {
                    texts.push(text);
                }
                d = d.with_secondary(
                    on_one_line(
                        source,
                        value.source_range_in_trimmed(source, more.range.clone()),
                    ),
                    label,
                );
            }
        }
        // Different characters: the help names the escape of each.
        let help = if texts.len() > 1 {
            let escapes: Vec<String> = texts
                .iter()
                .map(|t| format!("{} as `{}`", quoted(t), percent_encoded(t)))
                .collect();
            let how = format!("percent-encode them: {}", escapes.join(", "));
            let others = errors.iter().any(|p| p.kind != first.kind);
            Some(match &first.fix {
                Some(url) if others => format!("{how}; with every error fixed: `{url}`"),
                Some(url) => format!("{how}; the URL becomes `{url}`"),
                None => how,
            })
        } else {
            first.help.clone()
        };
        let fix = if first.kind == ProblemKind::Relative {
            base.and_then(|base| absolute(source, value, base))
        } else {
            url_fix(source, value, &fixed, cx.settings.max_url_length)
        };
        cx.report(d.with_help_opt(help).with_fix_opt(fix));
    }
}

/// The unsafe fix making the relative URL of `value` absolute: resolved against `base`, the
/// sitemap's own URL, when the result is a URL without any error.
fn absolute(source: &str, value: &Value<'_>, base: &str) -> Option<Fix> {
    let relative = value.trimmed();
    let resolved = url::Url::parse(base).ok()?.join(relative).ok()?;
    let resolved = resolved.as_str();
    if uri::check_http_url(resolved)
        .iter()
        .any(|p| p.kind.is_error())
    {
        return None;
    }
    let edit: Edit = value.replace_trimmed(source, resolved)?;
    Some(Fix::unsafe_(
        format!(
            "replace `{}` with `{resolved}`",
            crate::diagnostic::shown(relative)
        ),
        vec![edit],
    ))
}

/// The label for `more` when it repeats the problem `first`: the same message, or another
/// character not allowed in the same part of the URL.
fn repeat_label(value: &str, first: &uri::Problem, more: &uri::Problem) -> Option<String> {
    if more.kind != first.kind {
        return None;
    }
    if more.message == first.message {
        return Some("here too".to_owned());
    }
    let text = &value[more.range.clone()];
    let part = |m: &str| {
        m.rsplit_once(" not allowed ")
            .map(|(_, part)| part.to_owned())
    };
    let same_part = part(&first.message).is_some() && part(&first.message) == part(&more.message);
    if more.kind != ProblemKind::InvalidChar
        || !same_part
        || !text.chars().all(|c| c.is_ascii_graphic())
    {
        return None;
    }
    Some(format!("{} is not allowed either", quoted(text)))
}

/// `text` in backticks (double ones around a backquote, as Markdown does).
fn quoted(text: &str) -> String {
    if text.contains('`') {
        format!("`` {text} ``")
    } else {
        format!("`{text}`")
    }
}

/// The ASCII characters of `text` percent-encoded: `{}` as `%7B%7D`.
fn percent_encoded(text: &str) -> String {
    text.bytes().map(|b| format!("%{b:02X}")).collect()
}

#[cfg(test)]
mod tests {
    use crate::test_fixes::{fix_field, fixes_with};

    fn fixed(loc: &str) -> Option<(String, &'static str, String)> {
        fix_field("loc-invalid", "loc", loc)
    }

    #[track_caller]
    fn case(loc: &str, to: &str, how: &str) {
        let (text, applicability, _) = fixed(loc).unwrap_or_else(|| panic!("{loc}: no fix"));
        assert_eq!((text.as_str(), applicability), (to, how), "{loc}");
    }

    #[test]
    fn percent_encoding_is_safe_and_readings_are_unsafe() {
        case(
            "https://www.example.com/summer sale",
            "https://www.example.com/summer%20sale",
            "safe",
        );
        case(
            "https://www.example.com/a b c",
            "https://www.example.com/a%20b%20c",
            "safe",
        );
        case(
            "https://www.example.com/?q=\"x\"",
            "https://www.example.com/?q=%22x%22",
            "safe",
        );
        case(
            "https://www.example.com/{id}",
            "https://www.example.com/%7Bid%7D",
            "safe",
        );
        case(
            "htp://www.example.com/",
            "http://www.example.com/",
            "unsafe",
        );
        case(
            "https//www.example.com/",
            "https://www.example.com/",
            "unsafe",
        );
        case(
            "www.example.com/page",
            "https://www.example.com/page",
            "unsafe",
        );
        case(
            "https://www.example.com/100%",
            "https://www.example.com/100%25",
            "unsafe",
        );
        case(
            "https://www.example.com\\a",
            "https://www.example.com/a",
            "unsafe",
        );
        assert_eq!(
            fixed("https://www.example.com/summer sale").unwrap().2,
            "replace ` ` with `%20`"
        );
        // Not written as it reads, or nothing to derive: no fix.
        assert_eq!(fixed("https://www.example.com/summer&#32;sale"), None);
        assert_eq!(fixed("ftp://www.example.com/"), None);
        assert_eq!(fixed(""), None);
        assert_eq!(fixed("{{ page.url }}"), None);
        // CDATA: the edit lands inside the section.
        case(
            "<![CDATA[https://www.example.com/a b]]>",
            "<![CDATA[https://www.example.com/a%20b]]>",
            "safe",
        );
    }

    #[test]
    fn a_relative_url_is_resolved_only_against_the_sitemap_url() {
        assert_eq!(fixed("/about"), None);
        let xml = r#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://www.example.com/</loc></url><url><loc>about.html</loc></url></urlset>"#;
        let mut settings = crate::Settings::only("loc-invalid");
        assert_eq!(fixes_with(xml, "loc-invalid", &settings), vec![None]);
        settings.sitemap_url = Some("https://www.example.com/de/sitemap.xml".into());
        let fixed = fixes_with(xml, "loc-invalid", &settings);
        let fixed = fixed[0].as_ref().expect("a fix");
        assert_eq!(fixed.applicability, "unsafe");
        assert!(
            fixed
                .text
                .contains("<loc>https://www.example.com/de/about.html</loc>"),
            "{}",
            fixed.text
        );
    }
}
