//! What a malformed URL probably meant: scheme typos, fullwidth schemes, a missing colon, a
//! relative reference that starts with a host name.

use super::chars::{is_scheme_char, is_scheme_junk, is_slash};

/// A would-be scheme, lowercased, with junk characters removed.
pub(super) struct SchemeName {
    pub(super) buf: [u8; 16],
    pub(super) len: usize,
    pub(super) junk: bool,
}

impl SchemeName {
    pub(super) fn parse(cand: &str) -> Option<SchemeName> {
        let mut s = SchemeName {
            buf: [0; 16],
            len: 0,
            junk: false,
        };
        for c in cand.chars() {
            if is_scheme_char(c) {
                if s.len == 0 && !c.is_ascii_alphabetic() {
                    return None;
                }
                if s.len < s.buf.len() {
                    s.buf[s.len] = c.to_ascii_lowercase() as u8;
                }
                s.len += 1;
            } else if is_scheme_junk(c) {
                s.junk = true;
            } else {
                return None;
            }
        }
        (s.len > 0).then_some(s)
    }

    pub(super) fn bytes(&self) -> &[u8] {
        if self.len <= self.buf.len() {
            &self.buf[..self.len]
        } else {
            // Too long to be http(s) or a typo of it.
            b"-"
        }
    }

    pub(super) fn is_http(&self) -> bool {
        matches!(self.bytes(), b"http" | b"https")
    }
}

/// Optimal-string-alignment distance of two short byte strings.
pub(super) fn edit_distance(a: &[u8], b: &[u8]) -> usize {
    const N: usize = 9;
    if a.len() >= N || b.len() >= N {
        return usize::MAX;
    }
    let mut d = [[0usize; N]; N];
    for (i, row) in d.iter_mut().enumerate().take(a.len() + 1) {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate().take(b.len() + 1) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = best;
        }
    }
    d[a.len()][b.len()]
}

/// `htp`, `hhttp`, `htps`, `hxxp`: the scheme meant, if it is a near miss of `http(s)`.
pub(super) fn scheme_typo(s: &[u8]) -> Option<&'static str> {
    match s {
        b"hxxp" => return Some("http"),
        b"hxxps" => return Some("https"),
        _ => {}
    }
    let near_http = edit_distance(s, b"http") <= 1;
    let near_https = edit_distance(s, b"https") <= 1;
    match (near_http, near_https) {
        (true, true) if s.last() == Some(&b's') => Some("https"),
        (true, _) => Some("http"),
        (false, true) => Some("https"),
        (false, false) => None,
    }
}

/// `ｈｔｔｐｓ` (fullwidth letters) and the like: the scheme meant, if it folds to `http(s)`.
pub(super) fn fold_fullwidth_scheme(cand: &str) -> Option<&'static str> {
    let mut buf = [0u8; 5];
    let mut n = 0;
    for c in cand.chars() {
        let c = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0)?,
            c if is_scheme_junk(c) => continue,
            c => c,
        };
        if !c.is_ascii() || n == buf.len() {
            return None;
        }
        buf[n] = c.to_ascii_lowercase() as u8;
        n += 1;
    }
    match &buf[..n] {
        b"http" => Some("http"),
        b"https" => Some("https"),
        _ => None,
    }
}

/// Extensions of files that relative references name, so `about.html` is not a host name.
pub(super) const FILE_EXTENSIONS: &[&str] = &[
    "html", "htm", "xhtml", "shtml", "php", "php3", "php5", "asp", "aspx", "jsp", "jspx", "cgi",
    "cfm", "xml", "txt", "pdf", "json", "rss", "atom", "csv", "doc", "docx", "xls", "xlsx", "ppt",
    "pptx", "odt", "jpg", "jpeg", "png", "gif", "webp", "avif", "svg", "ico", "bmp", "tif", "tiff",
    "mp3", "mp4", "m4a", "m4v", "webm", "ogg", "ogv", "mov", "avi", "wav", "zip", "gz", "tgz",
    "rar", "js", "css", "htmls", "rdf", "gpx", "kml", "epub",
];

/// Whether `seg` (the text before the first `/`, `?`, `#`) looks like a host name, with an
/// optional port: `www.example.com`, `example.com:8080`, `localhost`, `127.0.0.1`, `[::1]`.
pub(super) fn looks_like_host(seg: &str) -> bool {
    let host = match seg.rfind(':') {
        Some(i) if !seg.starts_with('[') || seg[..i].ends_with(']') => {
            if seg[i + 1..].bytes().all(|b| b.is_ascii_digit()) {
                &seg[..i]
            } else {
                seg
            }
        }
        _ => seg,
    };
    if host.is_empty() {
        return false;
    }
    if let Some(inner) = host.strip_prefix('[') {
        return inner.ends_with(']');
    }
    if host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::Ipv4Addr>().is_ok() {
        return true;
    }
    if host.starts_with('.') || host.ends_with('.') || !host.contains('.') {
        return false;
    }
    let chars_ok = host.chars().all(|c| {
        c.is_ascii_alphanumeric()
            || matches!(c, '-' | '.' | '_')
            || (!c.is_ascii() && !c.is_whitespace() && !c.is_control())
    });
    if !chars_ok {
        return false;
    }
    if host.len() > 4 && host.as_bytes()[..4].eq_ignore_ascii_case(b"www.") {
        return true;
    }
    let tld = host.rsplit('.').next().unwrap_or("");
    let tld_ok = if tld.is_ascii() {
        tld.len() >= 2 && tld.bytes().all(|b| b.is_ascii_alphabetic())
            || tld.len() > 4 && tld.as_bytes()[..4].eq_ignore_ascii_case(b"xn--")
    } else {
        tld.chars().all(char::is_alphabetic)
    };
    tld_ok
        && !FILE_EXTENSIONS
            .iter()
            .any(|ext| tld.eq_ignore_ascii_case(ext))
}

/// `https//…` or `http;//…`: the end of the scheme name and whether a character stands where
/// the `:` belongs.
pub(super) fn missing_colon(v: &str) -> Option<(usize, bool)> {
    let b = v.as_bytes();
    for name in [&b"https"[..], &b"http"[..]] {
        let n = name.len();
        if b.len() < n || !b[..n].eq_ignore_ascii_case(name) {
            continue;
        }
        let r = &b[n..];
        if r.len() >= 2 && is_slash(r[0]) && is_slash(r[1]) {
            return Some((n, false));
        }
        if r.len() >= 3
            && r[0].is_ascii_punctuation()
            && !matches!(r[0], b':' | b'/' | b'\\')
            && is_slash(r[1])
            && is_slash(r[2])
        {
            return Some((n, true));
        }
    }
    None
}
