//! Rule `extension-url`: an image or video URL (`image:loc`, `video:thumbnail_loc`, …) that is not an absolute `http`/`https` URL.

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::{self, Element, Entry, Sitemap};
use crate::pipeline::source::on_one_line;
use crate::rule::{Context, Rule};
use crate::rules::extension::{element_text, has_extension, trim};
use crate::values::extension::{self as ext, ElementDecl, SimpleType, Target};
use crate::values::uri::{self, ProblemKind, Repair};

declare_rule! {
    /// ## What it does
    /// Checks the URLs of Google's image and video extensions with the same rules as `<loc>`:
    /// `<image:loc>`, `<video:thumbnail_loc>`, `<video:content_loc>`, `<video:player_loc>`,
    /// `<video:gallery_loc>`, `<video:content_segment_loc>` and the `info` attribute of
    /// `<video:uploader>` must each be an absolute `http` or `https` URL, with no space, no raw
    /// `"`, `<`, `>` or `\`, a valid host and port, and percent-escapes where RFC 3986 needs them.
    ///
    /// The XSDs type these values as `xsd:anyURI`, which lets relative URLs and spaces through;
    /// what that type itself rejects is reported by `extension-value` instead, once. Video
    /// files and players may also be `ftp://` URLs, which Google fetches too.
    ///
    /// ## Why is this bad?
    /// Google fetches these URLs on their own, without the page as a base: a relative
    /// `/img/a.jpg` or a URL with a raw space cannot be fetched, so the image or video is not
    /// indexed. Google's image and video documentation asks for fully qualified URLs.
    ///
    /// ## Example
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/sample.html</loc>
    ///     <image:image>
    ///       <image:loc>/images/sample photo.jpg</image:loc>
    ///     </image:image>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"
    ///         xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
    ///   <url>
    ///     <loc>https://www.example.com/sample.html</loc>
    ///     <image:image>
    ///       <image:loc>https://www.example.com/images/sample%20photo.jpg</image:loc>
    ///     </image:image>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// As for `<loc>` (see `loc-invalid`): spaces and characters not allowed in a path, query or
    /// fragment percent-encoded is a safe fix; a misspelled scheme, a backslash, a stray `%`
    /// and the other readings are unsafe ones. No fix for a relative URL (which site it belongs
    /// to is not certain), a problem without a derivable correction, nor where the value is not
    /// written as it reads (a character reference, CDATA around the problem).
    ///
    /// ## References
    /// - Google Search Central, "Image sitemaps": `<image:loc>`, "The URL of the image"
    /// - Google Search Central, "Video sitemaps": `thumbnail_loc`, `content_loc`, `player_loc`,
    ///   `uploader` (`info`)
    /// - RFC 3986 §4.3 (absolute URI), §2.1 (percent-encoding)
    pub static META = {
        name: "extension-url",
        category: Url,
        severity: Error,
        fix: Mixed,
        summary: "an image or video URL that is not an absolute `http` or `https` URL",
    }
}

/// What each URL element points at, for the help of an empty value.
fn what(decl: &'static ElementDecl) -> Option<&'static str> {
    let table: [(&'static ElementDecl, &'static str); 6] = [
        (&ext::IMAGE_LOC, "the image"),
        (&ext::VIDEO_THUMBNAIL_LOC, "the video's thumbnail image"),
        (&ext::VIDEO_CONTENT_LOC, "the video file"),
        (&ext::VIDEO_PLAYER_LOC, "the video's player"),
        (&ext::VIDEO_GALLERY_LOC, "the gallery page"),
        (&ext::VIDEO_CONTENT_SEGMENT_LOC, "the video segment"),
    ];
    table
        .iter()
        .find(|(d, _)| std::ptr::eq(*d, decl))
        .map(|(_, w)| *w)
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !has_extension(entry, &[ext::IMAGE_NS, ext::VIDEO_NS]) {
            return;
        }
        let source = sitemap.source;
        let page = entry.loc().map(|l| l.trimmed());
        super::for_declared(sitemap, entry, cx, &mut |el, decl, cx| {
            if std::ptr::eq(decl, &ext::VIDEO_UPLOADER) {
                uploader_info(source, el, page, cx);
                return;
            }
            let Some(points_at) = what(decl) else { return };
            // The text without building a `Value` (which is only needed to place findings);
            // extension-structure reports markup inside a URL element.
            let Some(raw) = element_text(source, el) else {
                return;
            };
            let (_, text) = trim(&raw);
            if text.is_empty() {
                let name = el.qualified_name(source);
                cx.report_at(&META, el.span.clone(), |span| Diagnostic::new(&META, span, format!("`<{name}>` is empty"))
                        .with_label("no URL")
                        .with_help(format!(
                            "write the absolute `http` or `https` URL of {points_at}, or remove the element"
                        )),
                );
                return;
            }
            // Google also fetches videos over FTP.
            let video_file = std::ptr::eq(decl, &ext::VIDEO_CONTENT_LOC)
                || std::ptr::eq(decl, &ext::VIDEO_PLAYER_LOC)
                || std::ptr::eq(decl, &ext::VIDEO_CONTENT_SEGMENT_LOC);
            if video_file
                && text
                    .get(..6)
                    .is_some_and(|s| s.eq_ignore_ascii_case("ftp://"))
            {
                return;
            }
            // A plain `http(s)` URL (nearly every one) holds no placeholder (`{`, `<`) and no
            // error: no need to look for either.
            if uri::is_plain_http_url(text.as_bytes()) {
                return;
            }
            if let Some(d) = generator_output(source, el, text) {
                cx.report(d);
                return;
            }
            let problems = url_errors(text, page);
            // What xsd:anyURI itself rejects is extension-value's (checked only for a URL with
            // errors, so that valid URLs are parsed once).
            if problems.is_empty() || xsd_rejects(&raw) {
                return;
            }
            let value = model::build_value(el.clone(), el.base(), source);
            let name = format!("`<{}>`", el.qualified_name(source));
            let spans = problems
                .iter()
                .map(|p| {
                    on_one_line(
                        source,
                        value.source_range_in_trimmed(source, p.range.clone()),
                    )
                })
                .collect();
            let edit =
                |fix: &Repair| value.edit_in_trimmed(source, fix.range.clone(), fix.with.clone());
            report(&name, text, problems, spans, &edit, cx);
        });
    }
}

/// A generator's output where the URL belongs: unexpanded template placeholders, or a JSON
/// object (an image record printed whole instead of its URL).
fn generator_output(source: &str, el: &Element<'_>, text: &str) -> Option<Diagnostic> {
    let json = crate::values::text::is_json_object(text);
    if !json && crate::values::text::template_placeholders(text, 1).is_empty() {
        return None;
    }
    let value = model::build_value(el.clone(), el.base(), source);
    let name = format!("`<{}>`", el.qualified_name(source));
    if json {
        return Some(
            Diagnostic::new(&META, value.span(source), format!("{name} holds a JSON object, not a URL"))
                .with_label("an object printed as text")
                .with_help("fix the generator so that it writes the object's URL (its `url` or `loc` field), not the whole object"),
        );
    }
    crate::rules::placeholder_finding(&META, text, &name, "URL", |r| {
        value.source_range_in_trimmed(source, r)
    })
}

/// Whether `xsd:anyURI` itself rejects `text` (then `extension-value` reports it).
fn xsd_rejects(text: &str) -> bool {
    let target = Target {
        what: String::new(),
        optional: true,
        attribute: false,
        extension: ext::Extension::Image,
    };
    ext::check_value(SimpleType::AnyUri, text, &target).is_some()
}

/// The errors of `text` as an absolute http(s) URL; relative references are completed with the
/// page's origin in the help. Allocates nothing for a valid URL.
fn url_errors(text: &str, page: Option<&str>) -> Vec<uri::Problem> {
    let problems = uri::check_http_url(text);
    if !problems.iter().any(|p| p.kind.is_error()) {
        return Vec::new();
    }
    let relative = problems
        .iter()
        .any(|p| matches!(p.kind, ProblemKind::Relative | ProblemKind::MissingScheme));
    let problems = match page.and_then(uri::origin) {
        Some(base) if relative => uri::check_http_url_with_base(text, Some(base)),
        _ => problems,
    };
    problems.into_iter().filter(|p| p.kind.is_error()).collect()
}

/// The message and help of a URL problem, worded for the extension element `name` (the URL
/// checker words them for `<loc>`).
fn worded(name: &str, p: uri::Problem) -> (String, Option<String>) {
    let message = format!("{name}: {}", p.message.replace("`<loc>`", "it"));
    let help = match (p.kind, p.fix) {
        (ProblemKind::Relative, Some(fix)) => Some(format!(
            "write the full URL, with the scheme and host: `{fix}` if it is on the page's site"
        )),
        _ => p.help.map(|h| h.replace("URL of the page", "URL")),
    };
    (message, help)
}

fn label(kind: ProblemKind) -> &'static str {
    match kind {
        ProblemKind::Relative | ProblemKind::MissingScheme => "Google needs the full URL",
        ProblemKind::UnsupportedScheme => "not `http` or `https`",
        ProblemKind::MissingHost | ProblemKind::InvalidHost => "no valid host",
        ProblemKind::InvalidPort => "not a valid port",
        _ => "not allowed in a URL",
    }
}

/// The `info` attribute of `<video:uploader>`.
fn uploader_info(source: &str, el: &Element<'_>, page: Option<&str>, cx: &mut Context<'_>) {
    let Some(attr) = el
        .node
        .attributes()
        .find(|a| a.namespace().is_none() && a.name() == "info")
    else {
        return;
    };
    let value = attr.value();
    let (start, text) = trim(value);
    let base = el.base();
    let r = attr.range_value();
    let value_span = r.start + base..r.end + base;
    let verbatim = source.get(value_span.clone()) == Some(value);
    let span_of = |range: Range<usize>| {
        if verbatim {
            value_span.start + start + range.start..value_span.start + start + range.end
        } else {
            value_span.clone()
        }
    };
    let name = format!("`info` on `<{}>`", el.qualified_name(source));
    if text.is_empty() {
        let whole = attr.range();
        cx.report_at(&META, whole.start + base..whole.end + base, |span| Diagnostic::new(&META, span, format!("{name} is empty"))
                .with_label("no URL")
                .with_help("write the absolute URL of a page about the uploader, on the same site as the video's page, or remove the attribute"),
        );
        return;
    }
    let problems = url_errors(text, page);
    if problems.is_empty() || xsd_rejects(value) {
        return;
    }
    let spans = problems
        .iter()
        .map(|p| on_one_line(source, span_of(p.range.clone())))
        .collect();
    let edit = |fix: &Repair| {
        verbatim.then(|| Edit::replace(span_of(fix.range.clone()), fix.with.clone()))
    };
    report(&name, text, problems, spans, &edit, cx);
}

/// One diagnostic per problem of the URL `text`; a problem repeated with the same message
/// (three spaces) is labelled beside the first, since one corrected URL fixes them all. Its fix
/// makes the repairs of them all, placed in the source by `edit` (`None` where the value is not
/// written as it reads): safe when every repair is certain.
fn report(
    name: &str,
    text: &str,
    problems: Vec<uri::Problem>,
    spans: Vec<Range<usize>>,
    edit: &dyn Fn(&Repair) -> Option<Edit>,
    cx: &mut Context<'_>,
) {
    // The message, the diagnostic, and the repairs of its problems (`None` once one has none).
    type Group = (String, Diagnostic, Option<Vec<Repair>>);
    let mut out: Vec<Group> = Vec::new();
    for (p, span) in problems.into_iter().zip(spans) {
        if let Some((_, d, repairs)) = out.iter_mut().find(|(m, ..)| *m == p.message) {
            *d = std::mem::replace(d, Diagnostic::new(&META, 0..0, String::new()))
                .with_secondary(span, "here too");
            *repairs = repairs.take().zip(p.repair).map(|(mut all, r)| {
                all.push(r);
                all
            });
            continue;
        }
        let kind = p.kind;
        let key = p.message.clone();
        let repairs = p.repair.clone().map(|r| vec![r]);
        let (message, help) = worded(name, p);
        out.push((
            key,
            Diagnostic::new(&META, span, message)
                .with_label(label(kind))
                .with_help_opt(help),
            repairs,
        ));
    }
    for (_, d, repairs) in out {
        let fix = repairs.and_then(|repairs| {
            let edits = repairs.iter().map(edit).collect::<Option<Vec<_>>>()?;
            let all: Vec<&Repair> = repairs.iter().collect();
            let certain = all.iter().all(|r| r.certain);
            Some(Fix::safe_if(certain, Repair::describe(text, &all), edits))
        });
        cx.report(d.with_fix_opt(fix));
    }
}

#[cfg(test)]
mod tests {
    fn fixed(image_loc: &str) -> Option<(String, &'static str, String)> {
        let entry = format!(
            r#"<loc>https://www.example.com/</loc><image:image xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"><image:loc>{image_loc}</image:loc></image:image>"#
        );
        crate::test_fixes::fix_entry(&entry, "extension-url").map(|(text, how, message)| {
            let inner = text.split_once("<image:loc>").unwrap().1;
            (
                inner.split_once("</image:loc>").unwrap().0.to_string(),
                how,
                message,
            )
        })
    }

    #[test]
    fn extension_urls_are_fixed_like_loc() {
        assert_eq!(
            crate::test_fixes::expect_fix(
                fixed("https://www.example.com/my photo.jpg"),
                "https://www.example.com/my%20photo.jpg",
                "safe"
            ),
            "replace ` ` with `%20`"
        );
        crate::test_fixes::expect_fix(
            fixed("htp://www.example.com/a.jpg"),
            "http://www.example.com/a.jpg",
            "unsafe",
        );
        assert_eq!(fixed("/a.jpg"), None);
        assert_eq!(fixed("https://www.example.com/my&#32;photo.jpg"), None);
    }
}
