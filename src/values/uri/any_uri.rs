//! `xsd:anyURI` as schema validators judge it: an RFC 3986 URI reference (absolute or relative,
//! any scheme) read the way libxml2 reads it, every character that would need escaping taken as
//! escaped. The Google extension XSDs type their URLs so; [`super::check_http_url`] judges what
//! crawlers want of an `http(s)` URL and lends its help where both see the same spot.

use std::ops::Range;

use crate::values::text::{self, backticked as code};

/// Why a value is not an `xsd:anyURI`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnyUriProblem {
    /// Byte range of the offending text inside the checked value.
    pub range: Range<usize>,
    pub message: String,
    /// Shown under the underline.
    pub label: String,
    pub help: String,
}

/// Why a URI reference failed to parse, and where (a byte offset).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum UriFail {
    At(usize),
    Port(usize, usize),
    Bracket(usize),
}

impl UriFail {
    fn pos(self) -> usize {
        match self {
            UriFail::At(p) | UriFail::Port(p, _) | UriFail::Bracket(p) => p,
        }
    }
}

/// An RFC 3986 URI-reference parser mirroring libxml2's (its acceptance set is what the XSD
/// verdicts of validators are based on). Like libxml2's `xsd:anyURI` check, it reads every
/// character that would need escaping (controls, space, non-ASCII, `<>"{}|\^`` ` ``'`) as `_`.
struct UriParser<'b> {
    b: &'b [u8],
}

/// A byte as libxml2's `xsd:anyURI` check reads it: `_` for a character that would need escaping.
const fn uri_byte(c: u8) -> u8 {
    if !(c >= 32 && c < 127)
        || matches!(
            c,
            b' ' | b'<' | b'>' | b'"' | b'{' | b'}' | b'|' | b'\\' | b'^' | b'`' | b'\''
        )
    {
        b'_'
    } else {
        c
    }
}

/// Classes of (escaped) URI bytes, as bits of [`URI_CLASS`].
const UNRESERVED: u8 = 1;
const SUB_DELIM: u8 = 2;
/// `:` and `@`, the other characters of `pchar`.
const PCHAR_EXTRA: u8 = 4;

const fn uri_class(c: u8) -> u8 {
    let mut class = 0;
    if c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'~') {
        class |= UNRESERVED;
    }
    if matches!(
        c,
        b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'='
    ) {
        class |= SUB_DELIM;
    }
    if matches!(c, b':' | b'@') {
        class |= PCHAR_EXTRA;
    }
    class
}

/// [`uri_byte`] and [`uri_class`] for every byte (the class is looked up by the escaped byte,
/// and the 0 past the end has none): the parser looks each character up several times.
const URI_TABLES: ([u8; 256], [u8; 256]) = {
    let mut bytes = [0u8; 256];
    let mut class = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        bytes[i] = uri_byte(i as u8);
        class[i] = uri_class(i as u8);
        i += 1;
    }
    (bytes, class)
};
static URI_BYTES: [u8; 256] = URI_TABLES.0;
static URI_CLASS: [u8; 256] = URI_TABLES.1;

impl UriParser<'_> {
    /// The byte at `i` after libxml2's escaping; 0 past the end.
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).map_or(0, |&c| URI_BYTES[usize::from(c)])
    }

    fn is(&self, i: usize, class: u8) -> bool {
        URI_CLASS[usize::from(self.at(i))] & class != 0
    }

    fn unreserved(&self, i: usize) -> bool {
        self.is(i, UNRESERVED)
    }

    fn pct(&self, i: usize) -> bool {
        self.at(i) == b'%'
            && self.at(i + 1).is_ascii_hexdigit()
            && self.at(i + 2).is_ascii_hexdigit()
    }

    fn sub_delim(&self, i: usize) -> bool {
        self.is(i, SUB_DELIM)
    }

    fn pchar(&self, i: usize) -> bool {
        self.is(i, UNRESERVED | SUB_DELIM | PCHAR_EXTRA) || self.pct(i)
    }

    fn step(&self, i: usize) -> usize {
        if self.at(i) == b'%' {
            i + 3
        } else {
            i + 1
        }
    }

    /// A segment; `forbid` stops it (`:` in the first segment of a relative path).
    fn segment(&self, mut i: usize, forbid: u8, allow_empty: bool) -> Result<usize, UriFail> {
        if !self.pchar(i) {
            return if allow_empty {
                Ok(i)
            } else {
                Err(UriFail::At(i))
            };
        }
        while self.pchar(i) && self.at(i) != forbid {
            i = self.step(i);
        }
        Ok(i)
    }

    fn path_abempty(&self, mut i: usize) -> Result<usize, UriFail> {
        while self.at(i) == b'/' {
            i = self.segment(i + 1, 0, true)?;
        }
        Ok(i)
    }

    fn path_absolute(&self, i: usize) -> Result<usize, UriFail> {
        match self.segment(i + 1, 0, false) {
            Ok(j) => self.path_abempty(j),
            Err(_) => Ok(i + 1),
        }
    }

    fn authority(&self, start: usize) -> Result<usize, UriFail> {
        let mut i = start;
        while self.unreserved(i) || self.pct(i) || self.sub_delim(i) || self.at(i) == b':' {
            i = self.step(i);
        }
        i = if self.at(i) == b'@' { i + 1 } else { start };
        if self.at(i) == b'[' {
            let open = i;
            while !matches!(self.at(i), b']' | 0) {
                i += 1;
            }
            if self.at(i) != b']' || i >= self.b.len() {
                return Err(UriFail::Bracket(open));
            }
            i += 1;
        } else {
            while self.unreserved(i) || self.pct(i) || self.sub_delim(i) {
                i = self.step(i);
            }
        }
        if self.at(i) == b':' {
            let port = i + 1;
            let mut j = port;
            let mut value: i32 = 0;
            while self.at(j).is_ascii_digit() {
                value = match value
                    .checked_mul(10)
                    .and_then(|v| v.checked_add(i32::from(self.at(j) - b'0')))
                {
                    Some(v) => v,
                    None => return Err(UriFail::Port(port, self.digits_end(port))),
                };
                j += 1;
            }
            if j == port || !matches!(self.at(j), b'/' | b'?' | b'#' | 0) {
                // No digits, or more than digits: the whole port text is wrong.
                let end = (port..self.b.len())
                    .find(|&k| matches!(self.at(k), b'/' | b'?' | b'#'))
                    .unwrap_or(self.b.len());
                return Err(UriFail::Port(port, end));
            }
            i = j;
        }
        Ok(i)
    }

    fn digits_end(&self, mut i: usize) -> usize {
        while self.at(i).is_ascii_digit() {
            i += 1;
        }
        i
    }

    /// `?query` and `#fragment`, then the end.
    fn tail(&self, mut i: usize) -> Result<(), UriFail> {
        if self.at(i) == b'?' {
            i += 1;
            while self.pchar(i) || matches!(self.at(i), b'/' | b'?') {
                i = self.step(i);
            }
        }
        if self.at(i) == b'#' {
            i += 1;
            while self.pchar(i) || matches!(self.at(i), b'/' | b'?' | b'[' | b']') {
                i = self.step(i);
            }
        }
        if i >= self.b.len() {
            Ok(())
        } else {
            Err(UriFail::At(i))
        }
    }

    fn absolute(&self) -> Result<(), UriFail> {
        if !self.at(0).is_ascii_alphabetic() {
            return Err(UriFail::At(0));
        }
        let mut i = 1;
        while self.at(i).is_ascii_alphanumeric() || matches!(self.at(i), b'+' | b'-' | b'.') {
            i += 1;
        }
        if self.at(i) != b':' {
            return Err(UriFail::At(i));
        }
        i += 1;
        if self.at(i) == b'/' && self.at(i + 1) == b'/' {
            let j = self.authority(i + 2)?;
            i = self.path_abempty(j)?;
        } else if self.at(i) == b'/' {
            i = self.path_absolute(i)?;
        } else if self.pchar(i) {
            let j = self.segment(i, 0, false)?;
            i = self.path_abempty(j)?;
        }
        self.tail(i)
    }

    fn relative(&self) -> Result<(), UriFail> {
        let mut i = 0;
        if self.at(0) == b'/' && self.at(1) == b'/' {
            let j = self.authority(2)?;
            i = self.path_abempty(j)?;
        } else if self.at(0) == b'/' {
            i = self.path_absolute(0)?;
        } else if self.pchar(0) {
            let j = self.segment(0, b':', false)?;
            i = self.path_abempty(j)?;
        }
        self.tail(i)
    }
}

/// Checks a value as `xsd:anyURI` (already collapsed: surrounding XML whitespace removed):
/// `None` when libxml2 accepts it, else the first problem.
pub fn check_any_uri(t: &str) -> Option<AnyUriProblem> {
    // A plain `http(s)` URL (the usual value) is an absolute URI that every check accepts.
    if t.is_empty() || super::is_plain_http_url(t.as_bytes()) {
        return None;
    }
    // A generator's output in place of a URL (a placeholder, an object) is `extension-url`'s to
    // report as such, not noise about the characters of a URI.
    if text::is_json_object(t) || !text::template_placeholders(t, 1).is_empty() {
        return None;
    }
    let parser = UriParser { b: t.as_bytes() };
    let Err(a) = parser.absolute() else {
        return None;
    };
    let Err(r) = parser.relative() else {
        return None;
    };
    let fail = if a.pos() >= r.pos() { a } else { r };
    let char_at = |p: usize| t.get(p..).and_then(|s| s.chars().next()).unwrap_or(' ');
    let one = |p: usize| p..p + char_at(p).len_utf8();
    // crate::values::uri explains http(s) URLs best; use its help for the same spot when it has one.
    let uri_help = |p: usize, kinds: &[super::ProblemKind]| {
        super::check_http_url(t)
            .into_iter()
            .find(|q| kinds.contains(&q.kind) && q.range.contains(&p))
            .and_then(|q| q.help)
    };
    use super::ProblemKind::{BadPercentEscape, InvalidChar, InvalidHost};
    let (range, message, label, help) = match fail {
        UriFail::Port(start, end) => (
            start..end.max(start),
            format!("port {} is not a number", code(&t[start..end.max(start)])),
            "not a port".to_string(),
            "write a numeric port after the `:`, or remove the `:`".to_string(),
        ),
        UriFail::Bracket(p) => (
            p..t.len(),
            "`[` opens an IP literal that is never closed".to_string(),
            "no matching `]`".to_string(),
            "close the IPv6 address with `]`, or percent-encode `[` as `%5B`".to_string(),
        ),
        UriFail::At(p) => match char_at(p) {
            '%' => {
                let end = t[p + 1..]
                    .char_indices()
                    .take(2)
                    .take_while(|(_, c)| c.is_ascii_alphanumeric())
                    .last()
                    .map_or(p + 1, |(i, c)| p + 1 + i + c.len_utf8());
                (
                    p..end,
                    format!("{} is not a valid percent-escape", code(&t[p..end])),
                    "`%` must be followed by two hex digits".to_string(),
                    uri_help(p, &[BadPercentEscape])
                        .unwrap_or_else(|| "write a literal `%` as `%25`".to_string()),
                )
            }
            '#' => (
                one(p),
                "a second `#` in the URL".to_string(),
                "a URL has at most one fragment".to_string(),
                "percent-encode this `#` as `%23`".to_string(),
            ),
            c @ ('[' | ']') => (
                one(p),
                format!("`{c}` outside an IPv6 address"),
                "not allowed here in a URI".to_string(),
                uri_help(p, &[InvalidChar, InvalidHost]).unwrap_or_else(|| {
                    format!(
                        "percent-encode it as `{}`",
                        if c == '[' { "%5B" } else { "%5D" }
                    )
                }),
            ),
            ':' if !t[..p].contains(['/', '?', '#']) => (
                0..p + 1,
                if p == 0 {
                    "the URI starts with `:`".to_string()
                } else {
                    format!("{} is not a valid URI scheme", code(&t[..p]))
                },
                "expected a scheme such as `https`".to_string(),
                "write an absolute URL such as `https://www.example.com/…`; a scheme starts with \
                 a letter and holds only letters, digits, `+`, `-` and `.`"
                    .to_string(),
            ),
            c => (
                one(p),
                format!("{} is not allowed here in a URI", code(&c.to_string())),
                "invalid character".to_string(),
                uri_help(p, &[InvalidChar]).unwrap_or_else(|| {
                    format!(
                        "percent-encode it as `{}`",
                        c.to_string()
                            .bytes()
                            .map(|b| format!("%{b:02X}"))
                            .collect::<String>()
                    )
                }),
            ),
        },
    };
    Some(AnyUriProblem {
        range,
        message,
        label,
        help,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::uri;

    /// The shortcut of `any_uri` (a plain http(s) URL) only takes values the libxml2-like
    /// parser accepts as absolute URIs.
    #[test]
    fn plain_http_urls_are_absolute_uris() {
        let hosts = [
            "example.com",
            "a-b.c",
            "1a.b",
            "x",
            "a.123",
            "EXAMPLE.com",
            "xn--a.b",
            "a..b",
        ];
        let ports = ["", ":", ":8080", ":65535", ":65536", ":0"];
        let paths = [
            "",
            "/",
            "/a/b",
            "?q=1&r",
            "/%41%7e",
            "/%zz",
            "/a b",
            "/[x]",
            "/a:b@c",
            "/(x)*+,;=!$'~",
        ];
        let (mut plain, mut total) = (0, 0);
        for scheme in ["http://", "https://", "HTTP://", "ftp://"] {
            for h in hosts {
                for p in ports {
                    for path in paths {
                        let url = format!("{scheme}{h}{p}{path}");
                        total += 1;
                        if uri::is_plain_http_url(url.as_bytes()) {
                            plain += 1;
                            let parser = UriParser { b: url.as_bytes() };
                            assert!(parser.absolute().is_ok(), "{url}");
                        }
                    }
                }
            }
        }
        assert!(plain > 100 && plain < total / 2, "{plain} of {total}");
    }

    #[test]
    fn any_uri_matches_libxml2() {
        // Verdicts of xmllint 2.9.14 for `xsd:anyURI` (libxml2's RFC 3986 parser).
        let valid = [
            "https://e.com/(a).jpg",
            "http://ex ample.com/é\"{}|\\^`",
            "a:b",
            "http://h/a#b[c]",
            "http://h/a#b?c/d",
            "mailto:x@y",
            "x y",
            "#",
            "?",
            "http:",
            "http://",
            "http://[::1]:8080/",
            "http://[v1.x]/",
            "h%41",
            "/a:b",
            "./a:b",
            "a/b:c",
            "http://u:p@h/",
        ];
        let invalid = [
            (
                "https://e.com/a b%zz.jpg",
                "`%zz` is not a valid percent-escape",
            ),
            ("https://e.com/a#b#c", "a second `#` in the URL"),
            ("https://e.com/[a].jpg", "`[` outside an IPv6 address"),
            ("http://h/a?b[c]", "`[` outside an IPv6 address"),
            (":foo", "the URI starts with `:`"),
            ("1http://x", "`1http` is not a valid URI scheme"),
            ("é:x", "`é` is not a valid URI scheme"),
            ("a_b:c", "`a_b` is not a valid URI scheme"),
            ("https://e.com:abc/", "port `abc` is not a number"),
            ("https://e.com:443x/", "port `443x` is not a number"),
            ("http://e.com:/", "port `` is not a number"),
            ("//host:99999999999/x", "port `99999999999` is not a number"),
            (
                "https://[::1/",
                "`[` opens an IP literal that is never closed",
            ),
            ("http://a@b@c/", "`@` is not allowed here in a URI"),
            ("http://e.com:80:90/", "port `80:90` is not a number"),
            ("http://h/%41%4", "`%4` is not a valid percent-escape"),
            ("http://h/%", "`%` is not a valid percent-escape"),
        ];
        for v in valid {
            assert_eq!(check_any_uri(v), None, "{v} should be valid");
        }
        for (v, message) in invalid {
            let p = check_any_uri(v).unwrap_or_else(|| panic!("{v} should be invalid"));
            assert_eq!(p.message, message, "{v}");
            assert!(v.get(p.range.clone()).is_some(), "{v}: {:?}", p.range);
        }
    }
}
