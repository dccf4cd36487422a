//! Just enough HTML for checking what a sitemap lists and what a server answered: whether bytes
//! are an HTML page ([`looks_like_html`]), and the head's `<meta name="robots">` and
//! `<link rel="canonical">` ([`head_signals`]). A scanner of tags and attributes, not a parser:
//! it reads at most [`HEAD_SCAN`] bytes and stops at `<body` or `</head>`.

/// Bytes of a page [`head_signals`] looks at, at most.
pub const HEAD_SCAN: usize = 512 * 1024;

/// Whether `bytes` begin (after a BOM, white space and comments) like an HTML document:
/// `<!DOCTYPE html`, `<html`, `<head` or `<body`, without case.
pub fn looks_like_html(bytes: &[u8]) -> bool {
    let mut b = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
    loop {
        while let [c, rest @ ..] = b {
            if c.is_ascii_whitespace() {
                b = rest;
            } else {
                break;
            }
        }
        if b.starts_with(b"<!--") {
            match b.windows(3).position(|w| w == b"-->") {
                Some(end) => b = &b[end + 3..],
                None => return false,
            }
            continue;
        }
        break;
    }
    let head: Vec<u8> = b.iter().take(14).map(u8::to_ascii_lowercase).collect();
    ["<!doctype html", "<html", "<head", "<body"]
        .iter()
        .any(|p| head.starts_with(p.as_bytes()))
}

/// What a page's head says about indexing.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct HeadSignals {
    /// A `<meta name="robots">` (or `googlebot`) whose content has `noindex` (or `none`).
    pub noindex: Option<String>,
    /// The first `<link rel="canonical" href="…">`'s href.
    pub canonical: Option<String>,
}

/// Reads the `<meta>` and `<link>` tags of a page's head (see the module docs).
pub fn head_signals(bytes: &[u8]) -> HeadSignals {
    let text = String::from_utf8_lossy(&bytes[..bytes.len().min(HEAD_SCAN)]);
    let mut out = HeadSignals::default();
    let mut rest: &str = &text;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        let name_end = rest
            .find(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/')
            .unwrap_or(rest.len());
        let name = rest[..name_end].to_ascii_lowercase();
        if name == "body" || name == "/head" {
            break;
        }
        if name == "!--" || name.starts_with("!--") {
            match rest.find("-->") {
                Some(end) => rest = &rest[end + 3..],
                None => break,
            }
            continue;
        }
        let tag_end = rest.find('>').unwrap_or(rest.len());
        let attrs = attributes(&rest[name_end..tag_end]);
        let get = |n: &str| attrs.iter().find(|(k, _)| k == n).map(|(_, v)| v.as_str());
        match name.as_str() {
            "meta" if out.noindex.is_none() => {
                let who = get("name").unwrap_or("").to_ascii_lowercase();
                let content = get("content").unwrap_or("");
                if (who == "robots" || who == "googlebot") && has_noindex(content) {
                    out.noindex = Some(format!("<meta name=\"{who}\" content=\"{content}\">"));
                }
            }
            "link" if out.canonical.is_none() => {
                let rel = get("rel").unwrap_or("").to_ascii_lowercase();
                if rel.split_ascii_whitespace().any(|r| r == "canonical") {
                    out.canonical = get("href").map(|h| h.trim().to_owned());
                }
            }
            _ => {}
        }
        rest = &rest[tag_end.min(rest.len())..];
    }
    out
}

/// Whether a robots directive list (`noindex, follow`) forbids indexing.
pub fn has_noindex(content: &str) -> bool {
    content
        .split([',', ' '])
        .map(|d| d.trim().to_ascii_lowercase())
        .any(|d| d == "noindex" || d == "none")
}

/// `X-Robots-Tag` values (`googlebot: noindex`, `noindex`): whether one forbids indexing for
/// Googlebot or every crawler.
pub fn header_noindex(value: &str) -> bool {
    let (agent, directives) = match value.split_once(':') {
        Some((a, d)) if !a.contains(',') && !a.trim().contains(' ') => (Some(a.trim()), d),
        _ => (None, value),
    };
    agent.is_none_or(|a| a.eq_ignore_ascii_case("googlebot")) && has_noindex(directives)
}

/// The attributes of a tag (`name="v"`, `name='v'`, `name=v`, `name`), names in lower case,
/// `&amp;` decoded.
fn attributes(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() && out.len() < 64 {
        while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() && b[i] != b'=' && b[i] != b'/' {
            i += 1;
        }
        if start == i {
            break;
        }
        let name = s[start..i].to_ascii_lowercase();
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let mut value = String::new();
        if i < b.len() && b[i] == b'=' {
            i += 1;
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            if i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                let q = b[i];
                let end = b[i + 1..]
                    .iter()
                    .position(|&c| c == q)
                    .map_or(b.len(), |p| i + 1 + p);
                value = s[i + 1..end].to_owned();
                i = (end + 1).min(b.len());
            } else {
                let start = i;
                while i < b.len() && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
                value = s[start..i].to_owned();
            }
        }
        out.push((name, value.replace("&amp;", "&")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn html_is_recognised() {
        assert!(looks_like_html(b"\xef\xbb\xbf <!DOCTYPE html><html>"));
        assert!(looks_like_html(b"<!-- x --><HTML lang=en>"));
        assert!(!looks_like_html(b"<?xml version=\"1.0\"?><urlset/>"));
        assert!(!looks_like_html(b"https://example.com/\n"));
    }

    #[test]
    fn head_signals_are_read() {
        let page = br#"<!doctype html><html><head><!-- <meta name=robots content=noindex> -->
            <META NAME="Robots" CONTENT="noindex, follow">
            <link rel='alternate canonical' href="https://example.com/a?x=1&amp;y=2">
            </head><body><link rel=canonical href=/ignored></body>"#;
        let s = head_signals(page);
        assert_eq!(
            s.noindex.as_deref(),
            Some("<meta name=\"robots\" content=\"noindex, follow\">")
        );
        assert_eq!(
            s.canonical.as_deref(),
            Some("https://example.com/a?x=1&y=2")
        );
        assert_eq!(head_signals(b"<html><head></head>"), HeadSignals::default());
    }

    #[test]
    fn header_values() {
        assert!(header_noindex("noindex"));
        assert!(header_noindex("googlebot: noindex, nofollow"));
        assert!(!header_noindex("bingbot: noindex"));
        assert!(!header_noindex("max-snippet: 20"));
        assert!(header_noindex("none"));
    }
}
