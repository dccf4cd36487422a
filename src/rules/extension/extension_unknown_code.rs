//! Rule `extension-unknown-code`: a country, currency or language code in a video or news sitemap that has the right form but is not an ISO code.

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{self, Element, Entry, Sitemap};
use crate::rule::{Context, Rule};
use crate::rules::extension::{element_text, has_extension};
use crate::values::extension::{self as ext, Pattern};
use crate::values::iso_codes;

declare_rule! {
    /// ## What it does
    /// Checks that codes which have the form the XSDs ask for are also real ISO codes:
    ///
    /// - the country codes of `<video:restriction>`: ISO 3166-1 alpha-2 (`UK` is not one:
    ///   the United Kingdom is `GB`);
    /// - the `currency` of `<video:price>`: ISO 4217 (`EUR`, not `EUD`);
    /// - `<news:language>`: an ISO 639 language code, two letters (ISO 639-1) or three
    ///   (ISO 639-2/3), or `zh-cn`/`zh-tw` (`jp` is not a language code: Japanese is `ja`).
    ///
    /// Codes of the wrong form (lowercase countries, `en-US`) are reported by
    /// `extension-value`.
    ///
    /// ## Why is this bad?
    /// The XSD patterns accept any two or three letters, but Google matches the codes against
    /// the ISO lists: a restriction to `UK` restricts the video to no country that exists, and
    /// an article in language `jp` is not matched to Japanese readers.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
    ///   <url>
    ///     <loc>https://www.example.com/business/article55.html</loc>
    ///     <news:news>
    ///       <news:publication>
    ///         <news:name>The Example Times</news:name>
    ///         <news:language>jp</news:language>
    ///       </news:publication>
    ///       <news:publication_date>2024-11-21</news:publication_date>
    ///       <news:title>Companies A, B in Merger Talks</news:title>
    ///     </news:news>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:video="http://www.google.com/schemas/sitemap-video/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/videos/grilling-steaks.html</loc>
    ///     <video:video>
    ///       <video:thumbnail_loc>https://www.example.com/thumbs/123.jpg</video:thumbnail_loc>
    ///       <video:title>Grilling steaks for summer</video:title>
    ///       <video:description>Alkis shows you how to get perfectly done steaks every time</video:description>
    ///       <video:content_loc>https://www.example.com/video123.mp4</video:content_loc>
    ///       <video:restriction relationship="allow">GB IE</video:restriction>
    ///     </video:video>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google Search Central, "Video sitemaps": `restriction` ("ISO 3166 format"), `price`
    ///   (`currency`, "ISO 4217 format")
    /// - Google Search Central, "News sitemaps": `language` ("The language of your publication.
    ///   Use an ISO 639 language code (2 or 3 letters)"; exceptions `zh-cn` and `zh-tw`)
    /// - ISO 3166-1, ISO 4217, ISO 639-1/-2/-3 (the lists in `iso_codes`)
    pub static META = {
        name: "extension-unknown-code",
        category: Value,
        severity: Error,
        summary: "a country, currency or language code of the right form that is not an ISO code",
    }
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !has_extension(entry, &[ext::VIDEO_NS, ext::NEWS_NS]) {
            return;
        }
        let source = sitemap.source;
        super::for_declared(sitemap, entry, cx, &mut |el, decl, cx| {
            if std::ptr::eq(decl, &ext::VIDEO_RESTRICTION) {
                restriction(source, el, cx);
            } else if std::ptr::eq(decl, &ext::VIDEO_PRICE) {
                currency(source, el, cx);
            } else if std::ptr::eq(decl, &ext::NEWS_LANGUAGE) {
                language(source, el, cx);
            }
        });
    }
}

/// Country codes people write that ISO 3166-1 spells otherwise.
fn country_fix(code: &str) -> Option<(&'static str, &'static str)> {
    Some(match code {
        "UK" => ("GB", "the United Kingdom"),
        "EL" => ("GR", "Greece"),
        "JA" => ("JP", "Japan"),
        _ => return None,
    })
}

fn restriction(source: &str, el: &Element<'_>, cx: &mut Context<'_>) {
    let Some(text) = element_text(source, el) else {
        return;
    };
    let text: &str = &text;
    // Only lists of the XSD's form; extension-value reports the others.
    if !ext::pattern_matches(Pattern::CountryList, text) {
        return;
    }
    let mut at = 0;
    let mut unknown = Vec::new();
    for tok in text.split(' ') {
        if !tok.is_empty() && iso_codes::country(tok).is_none() {
            unknown.push((at..at + tok.len(), tok));
        }
        at += tok.len() + 1;
    }
    if unknown.is_empty() {
        return;
    }
    let value = model::build_value(el.clone(), el.base(), source);
    let name = format!("`<{}>`", el.qualified_name(source));
    for (range, tok) in unknown {
        let span = value.source_range(source, range);
        let fix = country_fix(tok);
        let (label, help) = match fix {
            Some((code, country)) => (
                format!("did you mean `{code}`?"),
                format!("write `{code}`: the ISO 3166-1 code of {country}"),
            ),
            None => (
                "not an ISO 3166-1 country".to_string(),
                "use the two-letter ISO 3166-1 code of the country, such as `US`, `GB` or `DE`, or remove this one".to_string(),
            ),
        };
        cx.report_at(&META, span, |span| {
            Diagnostic::new(
                &META,
                span,
                format!("`{tok}` in {name} is not an ISO 3166 country code"),
            )
            .with_label(label)
            .with_help(help)
        });
    }
}

/// Currency codes people write that ISO 4217 spells otherwise.
fn currency_fix(code: &str) -> Option<(&'static str, &'static str)> {
    Some(match code {
        "RMB" => ("CNY", "the Chinese yuan"),
        "NTD" => ("TWD", "the New Taiwan dollar"),
        "UKP" | "STG" => ("GBP", "the pound sterling"),
        "EUD" | "ERU" => ("EUR", "the euro"),
        "YEN" | "JPN" => ("JPY", "the Japanese yen"),
        "CAN" => ("CAD", "the Canadian dollar"),
        "AUS" => ("AUD", "the Australian dollar"),
        _ => return None,
    })
}

fn currency(source: &str, el: &Element<'_>, cx: &mut Context<'_>) {
    let Some(attr) = el
        .node
        .attributes()
        .find(|a| a.namespace().is_none() && a.name() == "currency")
    else {
        return;
    };
    let code = attr.value();
    if !ext::pattern_matches(Pattern::Currency, code) || iso_codes::currency(code).is_some() {
        return;
    }
    let base = el.base();
    let r = attr.range_value();
    let (label, help) = match currency_fix(code) {
        Some((fix, name)) => (
            format!("did you mean `{fix}`?"),
            format!("write `{fix}`: the ISO 4217 code of {name}"),
        ),
        None => (
            "not an ISO 4217 currency".to_string(),
            "use the three-letter ISO 4217 code of the currency, such as `USD` or `EUR`"
                .to_string(),
        ),
    };
    cx.report_at(&META, r.start + base..r.end + base, |span| {
        Diagnostic::new(
            &META,
            span,
            format!(
                "`{code}` in `currency` on `<{}>` is not an ISO 4217 currency code",
                el.qualified_name(source)
            ),
        )
        .with_label(label)
        .with_help(help)
    });
}

/// Codes written for a language that are not ISO 639 codes (country codes, retired codes).
fn language_fix(code: &str) -> Option<(&'static str, &'static str)> {
    Some(match code {
        "jp" => ("ja", "Japanese"),
        "cn" => ("zh-cn", "Simplified Chinese"),
        "gr" => ("el", "Greek"),
        "dk" => ("da", "Danish"),
        "cz" => ("cs", "Czech"),
        "ua" => ("uk", "Ukrainian"),
        "in" => ("id", "Indonesian"),
        "iw" => ("he", "Hebrew"),
        "ji" => ("yi", "Yiddish"),
        "jw" => ("jv", "Javanese"),
        "mo" => ("ro", "Romanian"),
        "gb" | "us" => ("en", "English"),
        "at" => ("de", "German"),
        "vn" => ("vi", "Vietnamese"),
        "al" => ("sq", "Albanian"),
        "rs" => ("sr", "Serbian"),
        _ => return None,
    })
}

fn language(source: &str, el: &Element<'_>, cx: &mut Context<'_>) {
    let Some(text) = element_text(source, el) else {
        return;
    };
    let text: &str = &text;
    if !ext::pattern_matches(Pattern::NewsLanguage, text) || text == "zh-cn" || text == "zh-tw" {
        return;
    }
    let known = match text.len() {
        2 => iso_codes::language_2(text).is_some(),
        _ => iso_codes::is_language_3(text),
    };
    if known {
        return;
    }
    let span = model::build_value(el.clone(), el.base(), source).span(source);
    let (label, help) = match language_fix(text) {
        Some((code, language)) => (
            format!("did you mean `{code}`?"),
            format!("write `{code}` ({language}): `{text}` is not an ISO 639 code"),
        ),
        None => (
            "not an ISO 639 language".to_string(),
            "write the ISO 639 code of the publication's language: two letters (`en`, `fr`) or three (`haw`), or `zh-cn`/`zh-tw` for Chinese".to_string(),
        ),
    };
    cx.report_at(&META, span, |span| {
        Diagnostic::new(
            &META,
            span,
            format!(
                "`{text}` in `<{}>` is not an ISO 639 language code",
                el.qualified_name(source)
            ),
        )
        .with_label(label)
        .with_help(help)
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_replace_non_codes_with_real_codes() {
        for c in ["UK", "EL", "JA"] {
            let (fix, _) = country_fix(c).unwrap();
            assert!(iso_codes::country(c).is_none() && iso_codes::country(fix).is_some());
        }
        for c in [
            "RMB", "NTD", "UKP", "STG", "EUD", "ERU", "YEN", "JPN", "CAN", "AUS",
        ] {
            let (fix, _) = currency_fix(c).unwrap();
            assert!(iso_codes::currency(c).is_none(), "{c}");
            assert!(iso_codes::currency(fix).is_some(), "{fix}");
        }
        for c in [
            "jp", "cn", "gr", "dk", "cz", "ua", "in", "iw", "ji", "jw", "mo", "gb", "us", "at",
            "vn", "al", "rs",
        ] {
            let (fix, _) = language_fix(c).unwrap();
            assert!(iso_codes::language_2(c).is_none(), "{c}");
            assert!(
                fix.starts_with("zh-") || iso_codes::language_2(fix).is_some(),
                "{fix}"
            );
        }
    }
}
