//! Rule `video-invalid`: a `<video:video>` that Google's video documentation rejects though the XSD accepts it (no video URL, the page as the video, a zero duration, …).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::Diagnostic;
use crate::pipeline::model::{self, Element, Entry, Sitemap, Value};
use crate::rule::{Context, Rule};
use crate::rules::extension::{has_extension, simple_text, trim};
use crate::values::extension::{self as ext, SimpleType, Target};
use crate::values::uri;

declare_rule! {
    /// ## What it does
    /// Checks the rules of Google's video documentation that `sitemap-video.xsd` does not
    /// express (what the XSD itself requires is reported by `extension-structure` and
    /// `extension-value`):
    ///
    /// - every `<video:video>` has a `<video:content_loc>` or a `<video:player_loc>` (the XSD
    ///   makes both optional);
    /// - neither is the page's own `<loc>`: `content_loc` is the video file, `player_loc` the
    ///   player, the page that shows them is `<loc>`;
    /// - `<video:duration>` is at least 1 second (the XSD allows 0);
    /// - `<video:uploader>` is at most 255 characters, and its `info` page is on the same site
    ///   as the video's page.
    ///
    /// ## Why is this bad?
    /// Google identifies a video by its content or player URL: without either, or with the
    /// page's own URL ("Video location and play page location are the same" in Search
    /// Console), the video is not indexed. A duration of 0 and an uploader page on another
    /// site are invalid values Google ignores.
    ///
    /// ## Example
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
    ///       <video:player_loc>https://www.example.com/videos/grilling-steaks.html</video:player_loc>
    ///     </video:video>
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
    ///       <video:player_loc>https://www.example.com/videoplayer.php?video=123</video:player_loc>
    ///     </video:video>
    ///   </url>
    /// </urlset>
    /// ```
    ///
    /// ## References
    /// - Google Search Central, "Video sitemaps": `content_loc` and `player_loc` ("Required:
    ///   you must specify at least one"; "must not be the same as the `<loc>` URL"),
    ///   `duration` ("from 1 to 28800"), `uploader` ("maximum 255 characters"; `info` "must be
    ///   in the same domain as the `<loc>` tag")
    /// - `sitemap-video.xsd` documentation: "At least one of `<video:player_loc>` and
    ///   `<video:content_loc>` is required"
    /// - Google Search Console, Sitemaps report: "Video location and play page location are
    ///   the same"
    pub static META = {
        name: "video-invalid",
        category: Value,
        severity: Error,
        summary: "a video entry Google rejects though the XSD accepts it: no video URL, the page as the video, duration 0",
    }
}

/// The `<video:video>` being read and what it has.
struct Video<'a> {
    el: Element<'a>,
    location: bool,
}

impl Rule for Check {
    fn entry_needs_foreign_children(&self) -> bool {
        true
    }

    fn check_entry(&self, sitemap: &Sitemap<'_>, entry: &Entry<'_>, cx: &mut Context<'_>) {
        if !has_extension(entry, &[ext::VIDEO_NS]) {
            return;
        }
        let source = sitemap.source;
        let page = entry.loc();
        let mut current: Option<Video<'_>> = None;
        super::for_declared(sitemap, entry, cx, &mut |el, decl, cx| {
            if std::ptr::eq(decl, &ext::VIDEO) {
                if let Some(v) = current.take() {
                    no_location(source, &v, cx);
                }
                current = Some(Video {
                    el: el.clone(),
                    location: false,
                });
                return;
            }
            let is_content = std::ptr::eq(decl, &ext::VIDEO_CONTENT_LOC);
            if is_content || std::ptr::eq(decl, &ext::VIDEO_PLAYER_LOC) {
                if let Some(v) = current
                    .as_mut()
                    .filter(|v| el.node.parent_element() == Some(v.el.node))
                {
                    v.location = true;
                }
                if let Some(page) = page {
                    same_as_page(source, el, page, is_content, cx);
                }
            } else if std::ptr::eq(decl, &ext::VIDEO_DURATION) {
                duration(source, el, cx);
            } else if std::ptr::eq(decl, &ext::VIDEO_UPLOADER) {
                uploader(source, el, page, cx);
            }
        });
        if let Some(v) = current.take() {
            no_location(source, &v, cx);
        }
    }
}

fn no_location(source: &str, v: &Video<'_>, cx: &mut Context<'_>) {
    if v.location {
        return;
    }
    let full = v.el.qualified_name(source);
    let prefix = crate::diagnostic::shown(full.split_once(':').map_or("", |(p, _)| p));
    let name = crate::diagnostic::shown(full);
    let q = |local: &str| {
        if prefix.is_empty() {
            local.to_string()
        } else {
            format!("{prefix}:{local}")
        }
    };
    let (content, player) = (q("content_loc"), q("player_loc"));
    cx.report_at(&META, v.el.name_span.clone(), |span| Diagnostic::new(
            &META,
            span,
            format!("`<{name}>` has neither `<{content}>` nor `<{player}>`"),
        )
        .with_label("one of them is required")
        .with_help(format!(
            "add `<{content}>` with the URL of the video file, or `<{player}>` with the URL of its player, after the description"
        )),
    );
}

/// The text value of a simple element, or `None` when it holds markup.
fn value_of<'a>(source: &'a str, el: &Element<'a>) -> Option<Value<'a>> {
    if el.node.children().any(|n| n.is_element()) {
        return None;
    }
    Some(model::build_value(el.clone(), el.base(), source))
}

fn same_as_page(
    source: &str,
    el: &Element<'_>,
    page: &Value<'_>,
    is_content: bool,
    cx: &mut Context<'_>,
) {
    if simple_text(el).is_some_and(|t| trim(t).1 != page.trimmed()) {
        return; // The common case, judged without building a value.
    }
    let Some(value) = value_of(source, el) else {
        return;
    };
    let url = value.trimmed();
    if url.is_empty() || url != page.trimmed() {
        return;
    }
    let name = crate::diagnostic::shown(el.qualified_name(source));
    let help = if is_content {
        "point it at the video file itself (such as an `.mp4`), not at the page that shows the video"
    } else {
        "point it at the video's player (the URL in the `src` of its `<iframe>` or `<embed>`), not at the page that shows the video"
    };
    cx.report_at(&META, value.span(source), |span| {
        Diagnostic::new(&META, span, format!("`<{name}>` is the page's own URL"))
            .with_label("the same URL as `<loc>`")
            .with_secondary(page.span(source), "the page")
            .with_help(help)
    });
}

fn duration(source: &str, el: &Element<'_>, cx: &mut Context<'_>) {
    let zero = |t: &str| {
        let d = t.trim_start_matches(['+', '-']);
        !d.is_empty() && d.bytes().all(|b| b == b'0')
    };
    if simple_text(el).is_some_and(|t| !zero(trim(t).1)) {
        return;
    }
    let Some(value) = value_of(source, el) else {
        return;
    };
    let target = Target {
        what: String::new(),
        optional: true,
        attribute: false,
        extension: ext::Extension::Video,
    };
    // Values the XSD rejects are extension-value's.
    if ext::check_value(SimpleType::Seconds { max: 28800 }, &value.text, &target).is_some() {
        return;
    }
    if !zero(value.trimmed()) {
        return;
    }
    cx.report_at(&META, value.span(source), |span| Diagnostic::new(
            &META,
            span,
            format!("`<{}>` is 0 seconds", crate::diagnostic::shown(el.qualified_name(source))),
        )
        .with_label("Google accepts 1 to 28800")
        .with_help("write the length of the video in whole seconds, from 1 to 28800, or remove the element if it is not known"),
    );
}

/// The most characters Google reads in `<video:uploader>`.
const UPLOADER_MAX: usize = 255;

fn uploader(source: &str, el: &Element<'_>, page: Option<&Value<'_>>, cx: &mut Context<'_>) {
    let name = || {
        format!(
            "`<{}>`",
            crate::diagnostic::shown(el.qualified_name(source))
        )
    };
    // Byte length bounds the character count: short values are judged without a value.
    let long = simple_text(el).is_none_or(|t| t.len() > UPLOADER_MAX);
    if let Some(value) = long.then(|| value_of(source, el)).flatten() {
        let text = value.trimmed();
        let n = text.chars().count();
        if n > UPLOADER_MAX {
            let cut = text
                .char_indices()
                .nth(UPLOADER_MAX)
                .map_or(text.len(), |(i, _)| i);
            cx.report_at(
                &META,
                value.source_range_in_trimmed(source, cut..text.len()),
                |span| {
                    Diagnostic::new(
                        &META,
                        span,
                        format!(
                            "{} is {n} characters long; Google allows at most {UPLOADER_MAX}",
                            name()
                        ),
                    )
                    .with_label(format!("beyond {UPLOADER_MAX} characters"))
                    .with_help(format!(
                        "shorten it to the uploader's name, at most {UPLOADER_MAX} characters"
                    ))
                },
            );
        }
    }
    let (Some(page), Some(attr)) = (
        page,
        el.node
            .attributes()
            .find(|a| a.namespace().is_none() && a.name() == "info"),
    ) else {
        return;
    };
    let info = attr.value().trim_matches(model::is_xml_space);
    let (Some(info_host), Some(page_host)) = (
        uri::origin(info).and_then(host),
        uri::origin(page.trimmed()).and_then(host),
    ) else {
        return; // Not a valid URL: extension-url reports it.
    };
    if same_site(info_host, page_host) {
        return;
    }
    let base = el.base();
    let r: Range<usize> = attr.range_value();
    cx.report_at(&META, r.start + base..r.end + base, |span| {
        Diagnostic::new(
            &META,
            span,
            format!(
                "the `info` page of {} is on another site than the video's page",
                name()
            ),
        )
        .with_label(format!("on `{info_host}`"))
        .with_secondary(page.span(source), format!("the page is on `{page_host}`"))
        .with_help(format!(
            "link a page about the uploader on `{page_host}`, or remove the `info` attribute"
        ))
    });
}

/// The host of an origin (`https://www.example.com:8080` → `www.example.com`).
fn host(origin: &str) -> Option<&str> {
    let rest = &origin[origin.find("://")? + 3..];
    let rest = rest.rsplit_once('@').map_or(rest, |(_, h)| h);
    Some(match rest.strip_prefix('[') {
        Some(_) => rest.split_once(']').map_or(rest, |(h, _)| h),
        None => rest.split(':').next().unwrap_or(rest),
    })
}

/// Whether two hosts belong to the same site: equal, or sharing their registrable domain
/// (`www.example.com` and `users.example.com`; `news.example.co.uk` and `example.co.uk`). Lenient:
/// a two-letter top-level domain with a short second level (`co.uk`, `com.au`) counts as a
/// public suffix.
fn same_site(a: &str, b: &str) -> bool {
    a.eq_ignore_ascii_case(b) || subdomain(a, b) || subdomain(b, a) || {
        let (sa, sb) = (site(a), site(b));
        !sa.is_empty() && sa.eq_ignore_ascii_case(sb)
    }
}

/// Whether `a` is a subdomain of `b`.
fn subdomain(a: &str, b: &str) -> bool {
    a.len() > b.len()
        && a.is_char_boundary(a.len() - b.len())
        && a[a.len() - b.len()..].eq_ignore_ascii_case(b)
        && a[..a.len() - b.len()].ends_with('.')
}

fn site(host: &str) -> &str {
    let host = host.trim_end_matches('.');
    let labels: Vec<(usize, &str)> = host
        .match_indices('.')
        .map(|(i, _)| i)
        .map(|i| (i + 1, &host[i + 1..]))
        .collect();
    // Suffixes of the host from the last label: `com`, `example.com`, `www.example.com`.
    let suffix = |n: usize| -> &str {
        match labels.len().checked_sub(n) {
            Some(k) if k < labels.len() => labels[k].1,
            _ => host,
        }
    };
    let tld = suffix(1);
    let second = suffix(2);
    let second_label = second.split('.').next().unwrap_or("");
    if tld.len() == 2 && second_label.len() <= 3 && labels.len() >= 2 {
        suffix(3)
    } else {
        second
    }
}

#[cfg(test)]
mod tests {
    use super::same_site;

    #[test]
    fn same_site_is_lenient_about_subdomains_and_country_suffixes() {
        assert!(same_site("www.example.com", "example.com"));
        assert!(same_site("users.example.com", "WWW.Example.com"));
        assert!(same_site("news.example.co.uk", "www.example.co.uk"));
        assert!(same_site("www.bbc.de", "bbc.de"));
        assert!(!same_site("www.youtube.com", "www.example.com"));
        assert!(!same_site("example.co.uk", "other.co.uk"));
        assert!(!same_site("", "example.com"));
    }
}
