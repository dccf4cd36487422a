//! Checks the URLs a sitemap lists: each must be an absolute `http`/`https` URI (RFC 3986).
//!
//! [`check_http_url`] judges a value with its own RFC 3986 grammar, aware of IRIs (RFC 3987),
//! and reports every problem with the exact byte range of the offending text, a message and,
//! where one can be derived, the corrected URL. Nothing is repaired silently: the WHATWG
//! parser of the `url` crate (which quietly fixes spaces, backslashes, tabs, `%zz` and
//! `https:example.com`) only serves to convert internationalized host names to punycode.
//! [`to_uri`] turns an IRI into the URI crawlers expect.
//!
//! A clean value costs no allocation, so the checker can run over 50,000 URLs per file.

use std::net::Ipv6Addr;
use std::ops::Range;

/// The most problems [`check_http_url`] reports for one value.
pub const MAX_PROBLEMS: usize = 16;

/// What is wrong with a URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ProblemKind {
    /// The value is empty.
    Empty,
    /// A relative reference such as `/about` or `about.html`.
    Relative,
    /// The scheme is missing or malformed: `//example.com/`, `www.example.com/`, `https//x`.
    MissingScheme,
    /// A scheme other than `http`/`https`, or a misspelled one such as `htp`.
    UnsupportedScheme,
    /// Whitespace inside the URL.
    Whitespace,
    /// A `"` that must be percent-encoded.
    Quote,
    /// A `\`, which is not a path separator in a URI.
    Backslash,
    /// A C0 or C1 control character, or DEL.
    ControlChar,
    /// A character that is not allowed where it stands.
    InvalidChar,
    /// A `%` not followed by two hex digits.
    BadPercentEscape,
    /// No host: `http://`, `http:///path`, `http:/example.com`.
    MissingHost,
    /// A malformed host name or IP literal.
    InvalidHost,
    /// A port that is not a number from 0 to 65535.
    InvalidPort,
    /// Non-ASCII characters (a valid IRI, but crawlers want the percent-encoded URI).
    NonAscii,
    /// A `#fragment`, which crawlers ignore.
    Fragment,
    /// `user:pass@` or `user@` before the host.
    Credentials,
}

impl ProblemKind {
    /// Every kind, in declaration order.
    pub const ALL: [ProblemKind; 16] = [
        ProblemKind::Empty,
        ProblemKind::Relative,
        ProblemKind::MissingScheme,
        ProblemKind::UnsupportedScheme,
        ProblemKind::Whitespace,
        ProblemKind::Quote,
        ProblemKind::Backslash,
        ProblemKind::ControlChar,
        ProblemKind::InvalidChar,
        ProblemKind::BadPercentEscape,
        ProblemKind::MissingHost,
        ProblemKind::InvalidHost,
        ProblemKind::InvalidPort,
        ProblemKind::NonAscii,
        ProblemKind::Fragment,
        ProblemKind::Credentials,
    ];

    /// Whether the value is not a valid absolute `http(s)` URI. `NonAscii`, `Fragment` and
    /// `Credentials` are warnings: the URI is valid, but crawlers want something else.
    pub fn is_error(self) -> bool {
        !matches!(
            self,
            ProblemKind::NonAscii | ProblemKind::Fragment | ProblemKind::Credentials
        )
    }

    /// A stable kebab-case name, e.g. `bad-percent-escape`.
    pub fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Empty => "empty",
            ProblemKind::Relative => "relative",
            ProblemKind::MissingScheme => "missing-scheme",
            ProblemKind::UnsupportedScheme => "unsupported-scheme",
            ProblemKind::Whitespace => "whitespace",
            ProblemKind::Quote => "quote",
            ProblemKind::Backslash => "backslash",
            ProblemKind::ControlChar => "control-char",
            ProblemKind::InvalidChar => "invalid-char",
            ProblemKind::BadPercentEscape => "bad-percent-escape",
            ProblemKind::MissingHost => "missing-host",
            ProblemKind::InvalidHost => "invalid-host",
            ProblemKind::InvalidPort => "invalid-port",
            ProblemKind::NonAscii => "non-ascii",
            ProblemKind::Fragment => "fragment",
            ProblemKind::Credentials => "credentials",
        }
    }
}

/// One problem of a URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// What is wrong.
    pub kind: ProblemKind,
    /// Byte range of the offending text inside the checked value: non-empty and on char
    /// boundaries, except for [`ProblemKind::Empty`] (`0..0`).
    pub range: Range<usize>,
    /// What is wrong, lowercase, without a trailing period, the offending text in backticks.
    pub message: String,
    /// How to fix it, with the corrected URL when it can be derived.
    pub help: Option<String>,
    /// The corrected URL shown in `help`, if any: this problem and every error fixed.
    pub fix: Option<String>,
}

/// All problems of `value` (already trimmed of XML whitespace by the caller), in order of
/// position, at most one per kind per contiguous run and at most [`MAX_PROBLEMS`] in total.
///
/// A value without problems allocates nothing.
pub fn check_http_url(value: &str) -> Vec<Problem> {
    check_http_url_with_base(value, None)
}

/// [`check_http_url`], with the origin (`https://www.example.com`, as returned by [`origin`])
/// that help texts complete relative references with, instead of `https://example.com`.
pub fn check_http_url_with_base(value: &str, base: Option<&str>) -> Vec<Problem> {
    if is_plain_http_url(value.as_bytes()) {
        return Vec::new();
    }
    check_full(value, base)
}

/// Whether `v` is a plain ASCII `http(s)://host[:port][/path][?query]` URL in which the full
/// checker finds nothing: lowercase scheme, a DNS host of letters, digits, inner hyphens and
/// dots (no `xn--` label, no trailing dot, not numeric), a port of 1 to 5 digits up to 65535,
/// then only unreserved characters, sub-delims, `:`, `@`, `/`, `?` and `%XX` escapes.
///
/// One pass over the bytes, no allocation. `false` only means "not sure": the full checker then
/// decides. It is never `true` for a value with a problem (the tests compare it with
/// [`check_full`] on many generated values).
pub(crate) fn is_plain_http_url(v: &[u8]) -> bool {
    let rest = match v {
        [b'h', b't', b't', b'p', b's', b':', b'/', b'/', rest @ ..]
        | [b'h', b't', b't', b'p', b':', b'/', b'/', rest @ ..] => rest,
        _ => return false,
    };
    // The host, one label at a time in one pass: letters, digits and inner hyphens.
    let (mut i, mut label_start, mut digits_only) = (0, 0, true);
    loop {
        let x = rest.get(i).copied().unwrap_or(b'/');
        if x.is_ascii_alphanumeric() || x == b'-' {
            digits_only &= x.is_ascii_digit();
            i += 1;
            continue;
        }
        let label = &rest[label_start..i];
        let (Some(&first), Some(&last)) = (label.first(), label.last()) else {
            return false; // empty label: no host, or a leading, doubled or trailing dot
        };
        if label.len() > 63
            || first == b'-'
            || last == b'-'
            || label.len() >= 4 && label[..4].eq_ignore_ascii_case(b"xn--")
        {
            return false;
        }
        if x != b'.' {
            break;
        }
        i += 1;
        label_start = i;
        digits_only = true;
    }
    let host_end = i;
    if host_end > 253 || digits_only {
        return false; // too long; or the last label is numeric: an IPv4 address, or an invalid one
    }
    let mut i = host_end;
    if rest.get(i) == Some(&b':') {
        let port_start = i + 1;
        let mut port: u32 = 0;
        i = port_start;
        while let Some(&d) = rest.get(i).filter(|d| d.is_ascii_digit()) {
            port = port * 10 + u32::from(d - b'0');
            i += 1;
            if i - port_start > 5 {
                return false;
            }
        }
        if i == port_start || port > 65535 {
            return false;
        }
    }
    if !matches!(rest.get(i), None | Some(b'/' | b'?')) {
        return false;
    }
    let mut tail = &rest[i..];
    loop {
        let Some(p) = first_not_plain(tail) else {
            return true;
        };
        match tail[p..] {
            [b'%', h1, h2, ..] if h1.is_ascii_hexdigit() && h2.is_ascii_hexdigit() => {
                tail = &tail[p + 3..];
            }
            _ => return false,
        }
    }
}

/// The first byte of `b` that [`PLAIN_URL_BYTE`] does not allow, tested eight at a time.
fn first_not_plain(b: &[u8]) -> Option<usize> {
    let mut at = 0;
    for chunk in b.chunks_exact(8) {
        // No early exit inside a chunk: one branch per eight bytes.
        if !chunk
            .iter()
            .fold(true, |ok, &x| ok & PLAIN_URL_BYTE[usize::from(x)])
        {
            break;
        }
        at += 8;
    }
    b[at..]
        .iter()
        .position(|&x| !PLAIN_URL_BYTE[usize::from(x)])
        .map(|p| at + p)
}

/// The bytes path and query may hold without any problem: unreserved characters, sub-delims,
/// `:`, `@`, `/` and `?` (`%` is handled apart).
static PLAIN_URL_BYTE: [bool; 256] = {
    let mut t = [false; 256];
    let mut c = 0;
    while c < 256 {
        let x = c as u8;
        t[c] = x.is_ascii_alphanumeric()
            || matches!(
                x,
                b'-' | b'.'
                    | b'_'
                    | b'~'
                    | b'!'
                    | b'$'
                    | b'&'
                    | b'\''
                    | b'('
                    | b')'
                    | b'*'
                    | b'+'
                    | b','
                    | b';'
                    | b'='
                    | b':'
                    | b'@'
                    | b'/'
                    | b'?'
            );
        c += 1;
    }
    t
};

/// [`check_http_url_with_base`] without the fast path for plain URLs.
fn check_full(value: &str, base: Option<&str>) -> Vec<Problem> {
    if value.is_empty() {
        return vec![Problem {
            kind: ProblemKind::Empty,
            range: 0..0,
            message: "empty URL".to_owned(),
            help: Some("write the absolute `http` or `https` URL of the page".to_owned()),
            fix: None,
        }];
    }
    let mut checker = Checker::new(value);
    checker.base = base;
    checker.run();
    if checker.findings.is_empty() {
        return Vec::new();
    }
    checker.findings.sort_by_key(|f| f.range.start);
    let findings = &checker.findings;
    findings
        .iter()
        .take(MAX_PROBLEMS)
        .map(|f| render(value, &checker, f))
        .collect()
}

/// The scheme and authority (`https://www.example.com:8080`) of a URL without any problem.
pub fn origin(value: &str) -> Option<&str> {
    let mut checker = Checker::new(value);
    checker.run();
    if !checker.findings.is_empty() || value.is_empty() {
        return None;
    }
    let start = value.find("://")? + 3;
    Some(&value[..authority_end(value.as_bytes(), start)])
}

/// The URI crawlers want for an IRI: non-ASCII characters outside the host are
/// percent-encoded as UTF-8 (uppercase hex), a non-ASCII host is converted to punycode
/// (IDNA; percent-encoded instead if that fails). ASCII input is returned unchanged.
pub fn to_uri(value: &str) -> String {
    if value.is_ascii() {
        return value.to_owned();
    }
    let mut checker = Checker::new(value);
    checker.run();
    let mut out = String::with_capacity(value.len() * 3);
    let mut done = 0;
    if let Some(host) = checker.host.clone() {
        let text = &value[host.clone()];
        if !text.is_ascii() {
            percent_encode_non_ascii(&value[..host.start], &mut out);
            let ascii = url::quirks::domain_to_ascii(text);
            if ascii.is_empty() || !ascii.is_ascii() {
                percent_encode_non_ascii(text, &mut out);
            } else {
                out.push_str(&ascii);
            }
            done = host.end;
        }
    }
    percent_encode_non_ascii(&value[done..], &mut out);
    out
}

// ---------------------------------------------------------------------------------------------
// Parsing

/// The component a character stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Part {
    Scheme,
    /// The `//` (or what stands for it) after `scheme:`.
    Slashes,
    Userinfo,
    Host,
    Path,
    Query,
    Fragment,
}

impl Part {
    fn name(self) -> &'static str {
        match self {
            Part::Scheme => "scheme",
            Part::Slashes => "`//` after the scheme",
            Part::Userinfo => "user info",
            Part::Host => "host",
            Part::Path => "path",
            Part::Query => "query",
            Part::Fragment => "fragment",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ipv4Issue {
    Parts(usize),
    NotDecimal,
    Over255,
    LeadingZero,
}

/// Why a finding was made; rendered into a message and help at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Issue {
    /// A character-level finding; runs of the same kind in the same part are merged.
    Char(Part),
    Relative,
    SchemeRelative,
    NoScheme,
    EmptyScheme,
    /// `https//`: insert `:` at the end of the range (`replaced` = false) or replace the range.
    MissingColon {
        replaced: bool,
    },
    SchemeTypo {
        wanted: &'static str,
    },
    InvalidScheme {
        wanted: Option<&'static str>,
    },
    DrivePath,
    Unsupported,
    /// Not exactly two slashes after `scheme:` at `colon`.
    Slashes {
        colon: usize,
        n: usize,
        host_like: bool,
    },
    EmptyAuthority,
    EmptyHost,
    Credentials,
    DoubledScheme,
    EmptyLabel,
    LabelTooLong {
        len: usize,
    },
    HostTooLong {
        len: usize,
    },
    Hyphen {
        leading: bool,
        label: (usize, usize),
    },
    Ipv4(Ipv4Issue),
    Ipv6Invalid,
    Ipv6Zone,
    Ipv6Unclosed,
    Ipv6Trailing,
    Ipv6Unbracketed,
    Idna,
    HostNonAscii,
    PortNotNumber,
    PortRange,
    Fragment,
}

#[derive(Debug, Clone)]
struct Finding {
    kind: ProblemKind,
    range: Range<usize>,
    issue: Issue,
}

struct Checker<'a> {
    v: &'a str,
    findings: Vec<Finding>,
    /// The reg-name host (not an IP literal), once found.
    host: Option<Range<usize>>,
    /// The origin (`https://example.com`) relative references are completed with in help texts.
    base: Option<&'a str>,
}

fn is_slash(b: u8) -> bool {
    b == b'/' || b == b'\\'
}

fn is_scheme_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')
}

/// Characters that may be dropped from a would-be scheme: whitespace, controls and invisible
/// format characters (a BOM or zero-width space pasted in front of `https`).
fn is_scheme_junk(c: char) -> bool {
    c.is_whitespace() || c.is_control() || is_invisible(c) || is_bidi_control(c)
}

fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{AD}' | '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}'
    )
}

/// Bidi formatting characters, which RFC 3987 section 4.1 forbids in IRIs (plus the later
/// isolates and the Arabic letter mark, equally invisible and dangerous).
fn is_bidi_control(c: char) -> bool {
    matches!(
        c,
        '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// RFC 3987 `ucschar`, plus `iprivate` where `private` (the query) allows it.
fn is_iri_char(c: char, private: bool) -> bool {
    if is_bidi_control(c) {
        return false;
    }
    let c = c as u32;
    match c {
        0xA0..=0xD7FF | 0xF900..=0xFDCF | 0xFDF0..=0xFFEF => true,
        0xE000..=0xF8FF => private,
        0x10000.. => {
            let plane = c >> 16;
            let low = c & 0xFFFF;
            match plane {
                1..=13 => low <= 0xFFFD,
                14 => (0x1000..=0xFFFD).contains(&low),
                _ => private && low <= 0xFFFD,
            }
        }
        _ => false,
    }
}

/// A would-be scheme, lowercased, with junk characters removed.
struct SchemeName {
    buf: [u8; 16],
    len: usize,
    junk: bool,
}

impl SchemeName {
    fn parse(cand: &str) -> Option<SchemeName> {
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

    fn bytes(&self) -> &[u8] {
        if self.len <= self.buf.len() {
            &self.buf[..self.len]
        } else {
            // Too long to be http(s) or a typo of it.
            b"-"
        }
    }

    fn is_http(&self) -> bool {
        matches!(self.bytes(), b"http" | b"https")
    }
}

/// Optimal-string-alignment distance of two short byte strings.
fn edit_distance(a: &[u8], b: &[u8]) -> usize {
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
fn scheme_typo(s: &[u8]) -> Option<&'static str> {
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
fn fold_fullwidth_scheme(cand: &str) -> Option<&'static str> {
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
const FILE_EXTENSIONS: &[&str] = &[
    "html", "htm", "xhtml", "shtml", "php", "php3", "php5", "asp", "aspx", "jsp", "jspx", "cgi",
    "cfm", "xml", "txt", "pdf", "json", "rss", "atom", "csv", "doc", "docx", "xls", "xlsx", "ppt",
    "pptx", "odt", "jpg", "jpeg", "png", "gif", "webp", "avif", "svg", "ico", "bmp", "tif", "tiff",
    "mp3", "mp4", "m4a", "m4v", "webm", "ogg", "ogv", "mov", "avi", "wav", "zip", "gz", "tgz",
    "rar", "js", "css", "htmls", "rdf", "gpx", "kml", "epub",
];

/// Whether `seg` (the text before the first `/`, `?`, `#`) looks like a host name, with an
/// optional port: `www.example.com`, `example.com:8080`, `localhost`, `127.0.0.1`, `[::1]`.
fn looks_like_host(seg: &str) -> bool {
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
fn missing_colon(v: &str) -> Option<(usize, bool)> {
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

/// Index of the first byte at or after `from` that ends an authority, or the length.
fn authority_end(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|&x| matches!(x, b'/' | b'\\' | b'?' | b'#'))
        .map_or(b.len(), |p| from + p)
}

fn is_label_separator(c: char) -> bool {
    matches!(c, '.' | '\u{3002}' | '\u{FF0E}' | '\u{FF61}')
}

impl<'a> Checker<'a> {
    fn new(v: &'a str) -> Self {
        Checker {
            v,
            findings: Vec::new(),
            host: None,
            base: None,
        }
    }

    /// The origin suggested for relative references.
    fn base(&self) -> &'a str {
        self.base.unwrap_or("https://example.com")
    }

    /// The scheme suggested for URLs without one: the base's, else `https`.
    fn scheme(&self) -> &'a str {
        self.base
            .and_then(|b| b.split_once("://"))
            .map_or("https", |(scheme, _)| scheme)
    }

    fn push(&mut self, kind: ProblemKind, range: Range<usize>, issue: Issue) {
        // Every range is non-empty by construction; never let a slip become a panic later.
        if range.start < range.end && range.end <= self.v.len() {
            self.findings.push(Finding { kind, range, issue });
        }
    }

    /// Records a character-level finding, merging it into the previous one when that is of the
    /// same kind, in the same part and ends where this one starts.
    fn push_char(&mut self, kind: ProblemKind, range: Range<usize>, part: Part) {
        if let Some(last) = self.findings.last_mut() {
            if last.kind == kind && last.issue == Issue::Char(part) && last.range.end == range.start
            {
                last.range.end = range.end;
                return;
            }
        }
        self.push(kind, range, Issue::Char(part));
    }

    fn run(&mut self) {
        let b = self.v.as_bytes();
        let first_delim = b
            .iter()
            .position(|&x| matches!(x, b'/' | b'?' | b'#' | b'\\'))
            .unwrap_or(b.len());
        if let Some(colon) = b[..first_delim].iter().position(|&x| x == b':') {
            if self.with_colon(colon) {
                return;
            }
        }
        self.without_scheme(first_delim);
    }

    /// Handles a value with a `:` before its first `/`, `?`, `#`. Returns false when that
    /// `:` does not end a scheme after all.
    fn with_colon(&mut self, colon: usize) -> bool {
        let v = self.v;
        let cand = &v[..colon];
        let after = &v.as_bytes()[colon + 1..];
        let slashes_follow = after.len() >= 2 && is_slash(after[0]) && is_slash(after[1]);
        if cand.is_empty() {
            if slashes_follow {
                self.push(ProblemKind::MissingScheme, 0..1, Issue::EmptyScheme);
                self.hier(colon);
                return true;
            }
            return false;
        }
        let Some(name) = SchemeName::parse(cand) else {
            if slashes_follow {
                let wanted = fold_fullwidth_scheme(cand);
                self.push(
                    ProblemKind::UnsupportedScheme,
                    0..colon,
                    Issue::InvalidScheme { wanted },
                );
                if wanted.is_some() {
                    self.hier(colon);
                }
                return true;
            }
            return false;
        };
        let typo = if name.is_http() {
            None
        } else {
            scheme_typo(name.bytes())
        };
        if name.junk {
            if !name.is_http() && typo.is_none() {
                if slashes_follow {
                    self.push(
                        ProblemKind::UnsupportedScheme,
                        0..colon,
                        Issue::InvalidScheme { wanted: None },
                    );
                    return true;
                }
                return false;
            }
            self.scan_scheme_junk(colon);
        }
        if name.is_http() {
            self.hier(colon);
            return true;
        }
        if !name.junk {
            let port_like = !after.is_empty()
                && after
                    .iter()
                    .take_while(|&&x| !matches!(x, b'/' | b'\\' | b'?' | b'#'))
                    .all(u8::is_ascii_digit);
            if (port_like || cand.contains('.')) && looks_like_host(cand) {
                let end = authority_end(v.as_bytes(), 0);
                self.push(ProblemKind::MissingScheme, 0..end, Issue::NoScheme);
                self.authority(0, false);
                return true;
            }
            if cand.len() == 1 && !after.is_empty() && is_slash(after[0]) {
                self.push(ProblemKind::UnsupportedScheme, 0..v.len(), Issue::DrivePath);
                return true;
            }
        }
        if let Some(wanted) = typo {
            self.push(
                ProblemKind::UnsupportedScheme,
                0..colon,
                Issue::SchemeTypo { wanted },
            );
            self.hier(colon);
            return true;
        }
        self.push(ProblemKind::UnsupportedScheme, 0..colon, Issue::Unsupported);
        true
    }

    /// Reports the whitespace, controls and invisible characters inside a scheme.
    fn scan_scheme_junk(&mut self, colon: usize) {
        let v = self.v;
        for (i, c) in v[..colon].char_indices() {
            if is_scheme_char(c) {
                continue;
            }
            let kind = if c.is_whitespace() {
                ProblemKind::Whitespace
            } else if c.is_control() {
                ProblemKind::ControlChar
            } else {
                ProblemKind::InvalidChar
            };
            self.push_char(kind, i..i + c.len_utf8(), Part::Scheme);
        }
    }

    /// Handles what follows `http:` (or what stands for it) at `colon`.
    fn hier(&mut self, colon: usize) {
        let v = self.v;
        let b = v.as_bytes();
        let mut i = colon + 1;
        while i < b.len() && is_slash(b[i]) {
            i += 1;
        }
        let n = i - colon - 1;
        self.scan(colon + 1, i, Part::Slashes);
        if n == 2 {
            self.authority(i, true);
            return;
        }
        let seg_end = authority_end(b, i);
        let host_like = looks_like_host(&v[i..seg_end]);
        self.push(
            ProblemKind::MissingHost,
            0..i,
            Issue::Slashes {
                colon,
                n,
                host_like,
            },
        );
        if host_like {
            self.authority(i, false);
        } else {
            self.path_etc(i);
        }
    }

    /// Handles a value without a usable scheme.
    fn without_scheme(&mut self, first_delim: usize) {
        let v = self.v;
        let b = v.as_bytes();
        if b.len() >= 2 && is_slash(b[0]) && is_slash(b[1]) {
            let end = authority_end(b, 2);
            if end > 2 {
                self.push(ProblemKind::MissingScheme, 0..end, Issue::SchemeRelative);
                self.scan(0, 2, Part::Slashes);
                self.authority(2, false);
                return;
            }
        } else if let Some((name_end, replaced)) = missing_colon(v) {
            let range = if replaced {
                name_end..name_end + 1
            } else {
                0..name_end
            };
            self.push(
                ProblemKind::MissingScheme,
                range,
                Issue::MissingColon { replaced },
            );
            let start = name_end + usize::from(replaced);
            self.scan(start, start + 2, Part::Slashes);
            self.authority(start + 2, true);
            return;
        } else if looks_like_host(&v[..first_delim]) {
            self.push(ProblemKind::MissingScheme, 0..first_delim, Issue::NoScheme);
            self.authority(0, false);
            return;
        }
        self.push(ProblemKind::Relative, 0..v.len(), Issue::Relative);
        self.path_etc(0);
    }

    /// Checks the authority starting at `start`, then the rest.
    fn authority(&mut self, start: usize, report_empty: bool) {
        let v = self.v;
        let b = v.as_bytes();
        let end = authority_end(b, start);
        if start == end {
            if report_empty && start > 0 {
                self.push(ProblemKind::MissingHost, 0..start, Issue::EmptyAuthority);
            }
            self.path_etc(end);
            return;
        }
        let mut hp = start;
        if let Some(at) = v[start..end].rfind('@') {
            let at = start + at;
            self.push(ProblemKind::Credentials, start..at + 1, Issue::Credentials);
            self.scan(start, at, Part::Userinfo);
            hp = at + 1;
        }
        if hp == end {
            self.push(ProblemKind::MissingHost, start..end, Issue::EmptyHost);
            self.path_etc(end);
            return;
        }
        if b[hp] == b'[' {
            match v[hp..end].find(']') {
                None => self.push(ProblemKind::InvalidHost, hp..end, Issue::Ipv6Unclosed),
                Some(close) => {
                    let close = hp + close;
                    self.ip_literal(hp, close);
                    let after = close + 1;
                    if after < end {
                        if b[after] == b':' {
                            self.port(after + 1, end);
                        } else {
                            let junk_end = v[after..end].find(':').map_or(end, |p| after + p);
                            self.push(
                                ProblemKind::InvalidHost,
                                after..junk_end,
                                Issue::Ipv6Trailing,
                            );
                            if junk_end < end {
                                self.port(junk_end + 1, end);
                            }
                        }
                    }
                }
            }
            self.path_etc(end);
            return;
        }
        let hostport = &v[hp..end];
        if hostport.bytes().filter(|&x| x == b':').count() >= 2
            && hostport.parse::<Ipv6Addr>().is_ok()
        {
            self.push(ProblemKind::InvalidHost, hp..end, Issue::Ipv6Unbracketed);
            self.path_etc(end);
            return;
        }
        let colon = hostport.find(':').map(|p| hp + p);
        let host_end = colon.unwrap_or(end);
        if host_end == hp {
            self.push(ProblemKind::MissingHost, start..end, Issue::EmptyHost);
        } else {
            self.host(hp, host_end);
        }
        if let Some(colon) = colon {
            self.port(colon + 1, end);
        }
        // `http://http://example.com/`: the host is `http`, the port empty, the path `//…`.
        let host = &v[hp..host_end];
        if colon == Some(end - 1)
            && (host.eq_ignore_ascii_case("http") || host.eq_ignore_ascii_case("https"))
            && b.len() >= end + 2
            && is_slash(b[end])
            && is_slash(b[end + 1])
        {
            self.push(ProblemKind::InvalidHost, hp..end + 2, Issue::DoubledScheme);
            self.authority(end + 2, true);
            return;
        }
        self.path_etc(end);
    }

    fn ip_literal(&mut self, open: usize, close: usize) {
        let inner = &self.v[open + 1..close];
        let ok = if let Some(rest) = inner.strip_prefix(['v', 'V']) {
            // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            match rest.split_once('.') {
                Some((hex, tail)) => {
                    !hex.is_empty()
                        && hex.bytes().all(|x| x.is_ascii_hexdigit())
                        && !tail.is_empty()
                        && tail
                            .bytes()
                            .all(|x| x.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=:".contains(&x))
                }
                None => false,
            }
        } else {
            inner.parse::<Ipv6Addr>().is_ok()
        };
        if !ok {
            let issue = if inner.contains('%') {
                Issue::Ipv6Zone
            } else {
                Issue::Ipv6Invalid
            };
            self.push(ProblemKind::InvalidHost, open..close + 1, issue);
        }
    }

    /// Checks a reg-name or IPv4 host at `start..end` (non-empty).
    fn host(&mut self, start: usize, end: usize) {
        let v = self.v;
        self.host = Some(start..end);
        let before = self.findings.len();
        self.scan(start, end, Part::Host);
        let clean_chars = self.findings.len() == before;
        let bad_chars = self.findings[before..]
            .iter()
            .any(|f| f.kind == ProblemKind::InvalidHost);
        let host = &v[start..end];
        let ascii = host.is_ascii();
        if !ascii && host.chars().any(|c| !c.is_ascii() && is_iri_char(c, false)) {
            self.push(ProblemKind::NonAscii, start..end, Issue::HostNonAscii);
        }

        // Labels. One trailing dot (an absolute DNS name) is allowed.
        let mut label_start = start;
        let mut last_label = start..start;
        let mut sep_run: Option<usize> = None;
        let mut iter = host.char_indices().peekable();
        while let Some((off, c)) = iter.next() {
            let i = start + off;
            if is_label_separator(c) {
                let sep_end = i + c.len_utf8();
                if sep_run.is_none() {
                    if i > label_start {
                        self.label(label_start, i, bad_chars);
                        last_label = label_start..i;
                    }
                    sep_run = Some(i);
                }
                let next_is_sep = iter.peek().is_some_and(|&(_, n)| is_label_separator(n));
                if !next_is_sep {
                    let run_start = sep_run.take().unwrap_or(i);
                    let lone_trailing = sep_end == end && run_start == i && run_start > start;
                    if run_start == start || !lone_trailing && (sep_end == end || run_start != i) {
                        self.push(
                            ProblemKind::InvalidHost,
                            run_start..sep_end,
                            Issue::EmptyLabel,
                        );
                    }
                    label_start = sep_end;
                }
            }
        }
        if label_start < end {
            self.label(label_start, end, bad_chars);
            last_label = label_start..end;
        }

        let trimmed = host
            .strip_suffix(is_label_separator)
            .filter(|t| !t.is_empty())
            .unwrap_or(host);
        // Whole-host checks only when nothing more precise was found in the host.
        if self.findings[before..]
            .iter()
            .any(|f| f.kind == ProblemKind::InvalidHost)
        {
            return;
        }
        let last = &v[last_label.clone()];
        if ascii && !last.is_empty() && last.bytes().all(|x| x.is_ascii_digit()) {
            if clean_chars {
                self.ipv4(start, start + trimmed.len());
            }
            return;
        }
        if ascii {
            let has_ace = host
                .split('.')
                .any(|l| l.len() >= 4 && l.as_bytes()[..4].eq_ignore_ascii_case(b"xn--"));
            if has_ace && clean_chars && url::quirks::domain_to_ascii(host).is_empty() {
                self.push(ProblemKind::InvalidHost, start..end, Issue::Idna);
            } else if trimmed.len() > 253 {
                self.push(
                    ProblemKind::InvalidHost,
                    start..end,
                    Issue::HostTooLong { len: trimmed.len() },
                );
            }
            return;
        }
        if clean_chars {
            let converted = url::quirks::domain_to_ascii(host);
            if converted.is_empty() {
                self.push(ProblemKind::InvalidHost, start..end, Issue::Idna);
            } else {
                let len = converted.strip_suffix('.').unwrap_or(&converted).len();
                if len > 253 {
                    self.push(
                        ProblemKind::InvalidHost,
                        start..end,
                        Issue::HostTooLong { len },
                    );
                }
            }
        }
    }

    /// Checks one non-empty host label at `start..end`.
    /// The length is not checked when the host has characters flagged as `InvalidHost`.
    fn label(&mut self, start: usize, end: usize, bad_chars: bool) {
        let label = &self.v[start..end];
        let len = if bad_chars {
            0
        } else if label.is_ascii() {
            label.len()
        } else {
            url::quirks::domain_to_ascii(label).len()
        };
        if len > 63 {
            self.push(
                ProblemKind::InvalidHost,
                start..end,
                Issue::LabelTooLong { len },
            );
            return;
        }
        if label.starts_with('-') {
            self.push(
                ProblemKind::InvalidHost,
                start..start + 1,
                Issue::Hyphen {
                    leading: true,
                    label: (start, end),
                },
            );
        }
        if label.ends_with('-') && end - start > 1 {
            self.push(
                ProblemKind::InvalidHost,
                end - 1..end,
                Issue::Hyphen {
                    leading: false,
                    label: (start, end),
                },
            );
        }
    }

    /// Checks a host whose last label is numeric: it must be a dotted-decimal IPv4 address.
    fn ipv4(&mut self, start: usize, end: usize) {
        let host = &self.v[start..end];
        let parts = host.split('.').count();
        if parts != 4 {
            self.push(
                ProblemKind::InvalidHost,
                start..end,
                Issue::Ipv4(Ipv4Issue::Parts(parts)),
            );
            return;
        }
        let mut at = start;
        for part in host.split('.') {
            let range = at..at + part.len();
            at += part.len() + 1;
            let issue = if part.is_empty() {
                continue; // reported as an empty label
            } else if !part.bytes().all(|x| x.is_ascii_digit()) {
                Ipv4Issue::NotDecimal
            } else if part.len() > 1 && part.starts_with('0') {
                Ipv4Issue::LeadingZero
            } else if part.len() > 3 || part.parse::<u16>().map_or(true, |n| n > 255) {
                Ipv4Issue::Over255
            } else {
                continue;
            };
            self.push(ProblemKind::InvalidHost, range, Issue::Ipv4(issue));
        }
    }

    fn port(&mut self, start: usize, end: usize) {
        let port = &self.v[start..end];
        if port.is_empty() {
            return; // legal in RFC 3986; the default port applies
        }
        if !port.bytes().all(|x| x.is_ascii_digit()) {
            self.push(ProblemKind::InvalidPort, start..end, Issue::PortNotNumber);
        } else if port.len() > 5 || port.parse::<u32>().map_or(true, |n| n > 65535) {
            self.push(ProblemKind::InvalidPort, start..end, Issue::PortRange);
        }
    }

    /// Checks path, query and fragment, starting at `start`.
    fn path_etc(&mut self, start: usize) {
        let v = self.v;
        let b = v.as_bytes();
        let path_end = b[start..]
            .iter()
            .position(|&x| x == b'?' || x == b'#')
            .map_or(b.len(), |p| start + p);
        self.scan(start, path_end, Part::Path);
        let mut at = path_end;
        if at < b.len() && b[at] == b'?' {
            let query_end = b[at..]
                .iter()
                .position(|&x| x == b'#')
                .map_or(b.len(), |p| at + p);
            self.scan(at + 1, query_end, Part::Query);
            at = query_end;
        }
        if at < b.len() {
            self.push(ProblemKind::Fragment, at..b.len(), Issue::Fragment);
            self.scan(at + 1, b.len(), Part::Fragment);
        }
    }

    /// Checks every character of `start..end` against the grammar of `part`.
    fn scan(&mut self, start: usize, end: usize, part: Part) {
        let v = self.v;
        let b = v.as_bytes();
        let mut i = start;
        while i < end {
            let x = b[i];
            if x == b'%' {
                if i + 2 < end && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() {
                    if part == Part::Host {
                        self.push_char(ProblemKind::InvalidHost, i..i + 3, part);
                    }
                    i += 3;
                } else {
                    let mut j = i + 1;
                    while j < end && j < i + 3 && b[j].is_ascii_alphanumeric() {
                        j += 1;
                    }
                    self.push_char(ProblemKind::BadPercentEscape, i..j, part);
                    i += 1;
                }
                continue;
            }
            if x.is_ascii() {
                if let Some(kind) = classify_ascii(x, part) {
                    self.push_char(kind, i..i + 1, part);
                }
                i += 1;
                continue;
            }
            let Some(c) = v[i..].chars().next() else {
                break;
            };
            let len = c.len_utf8();
            let kind = if ('\u{80}'..='\u{9F}').contains(&c) {
                Some(ProblemKind::ControlChar)
            } else if c.is_whitespace() {
                Some(ProblemKind::Whitespace)
            } else if part == Part::Scheme || !is_iri_char(c, part == Part::Query) {
                Some(ProblemKind::InvalidChar)
            } else if part == Part::Host {
                None // reported once for the whole host
            } else {
                Some(ProblemKind::NonAscii)
            };
            if let Some(kind) = kind {
                self.push_char(kind, i..i + len, part);
            }
            i += len;
        }
    }
}

/// The problem an ASCII character other than `%` makes in `part`, if any.
fn classify_ascii(x: u8, part: Part) -> Option<ProblemKind> {
    match x {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => None,
        // unreserved `~` and the sub-delims: fine everywhere but in a DNS host name
        b'~' | b'!' | b'$' | b'&' | b'\'' | b'(' | b')' | b'*' | b'+' | b',' | b';' | b'=' => {
            (part == Part::Host).then_some(ProblemKind::InvalidHost)
        }
        b':' => (part == Part::Host).then_some(ProblemKind::InvalidHost),
        b'@' => matches!(part, Part::Userinfo | Part::Host).then_some(ProblemKind::InvalidChar),
        b'/' | b'?' => None,
        b' ' | b'\t' | b'\n' | b'\r' | 0x0B | 0x0C => Some(ProblemKind::Whitespace),
        b'"' => Some(ProblemKind::Quote),
        b'\\' => Some(ProblemKind::Backslash),
        0x00..=0x1F | 0x7F => Some(ProblemKind::ControlChar),
        // `#` (a second one, in the fragment), `<` `>` `[` `]` `^` `` ` `` `{` `|` `}`
        _ => Some(ProblemKind::InvalidChar),
    }
}

// ---------------------------------------------------------------------------------------------
// Rendering

const HEX: &[u8; 16] = b"0123456789ABCDEF";

fn percent_encode_char(c: char, out: &mut String) {
    let mut buf = [0u8; 4];
    for &byte in c.encode_utf8(&mut buf).as_bytes() {
        out.push('%');
        out.push(char::from(HEX[usize::from(byte >> 4)]));
        out.push(char::from(HEX[usize::from(byte & 15)]));
    }
}

fn percent_encode_non_ascii(s: &str, out: &mut String) {
    for c in s.chars() {
        if c.is_ascii() {
            out.push(c);
        } else {
            percent_encode_char(c, out);
        }
    }
}

fn percent_encoded(s: &str) -> String {
    let mut out = String::with_capacity(s.len() * 3);
    for c in s.chars() {
        percent_encode_char(c, &mut out);
    }
    out
}

/// `text` in backticks, its middle elided when long.
fn code(text: &str) -> String {
    elided(text, 40, 20)
}

/// A suggested URL in backticks: shown whole unless very long, so that it can be copied.
fn code_url(url: &str) -> String {
    elided(url, 200, 60)
}

/// `text` in backticks (double ones around text with a backquote, as Markdown does), its middle
/// elided when it has more than `head + tail + 10` characters.
fn elided(text: &str, head: usize, tail: usize) -> String {
    let count = text.chars().count();
    let shown = if count <= head + tail + 10 {
        text.to_owned()
    } else {
        let head_end = text.char_indices().nth(head).map_or(text.len(), |(i, _)| i);
        let tail_start = text
            .char_indices()
            .nth(count - tail)
            .map_or(text.len(), |(i, _)| i);
        format!("{}…{}", &text[..head_end], &text[tail_start..])
    };
    if shown.contains('`') {
        format!("`` {shown} ``")
    } else {
        format!("`{shown}`")
    }
}

fn char_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\0' => "null",
        '\t' => "tab",
        '\n' => "line feed",
        '\u{B}' => "vertical tab",
        '\u{C}' => "form feed",
        '\r' => "carriage return",
        ' ' => "space",
        '\u{7F}' => "delete",
        '\u{85}' => "next line",
        '\u{A0}' => "no-break space",
        '\u{AD}' => "soft hyphen",
        '\u{61C}' => "arabic letter mark",
        '\u{2000}'..='\u{200A}' => "typographic space",
        '\u{200B}' => "zero width space",
        '\u{200C}' => "zero width non-joiner",
        '\u{200D}' => "zero width joiner",
        '\u{200E}' => "left-to-right mark",
        '\u{200F}' => "right-to-left mark",
        '\u{2028}' => "line separator",
        '\u{2029}' => "paragraph separator",
        '\u{202A}'..='\u{202E}' => "bidi embedding or override",
        '\u{202F}' => "narrow no-break space",
        '\u{205F}' => "medium mathematical space",
        '\u{2060}' => "word joiner",
        '\u{2066}'..='\u{2069}' => "bidi isolate",
        '\u{3000}' => "ideographic space",
        '\u{FEFF}' => "byte order mark",
        '\u{FFFD}' => "replacement character",
        '\u{FDD0}'..='\u{FDEF}' => "noncharacter",
        c if (c as u32) & 0xFFFE == 0xFFFE => "noncharacter",
        '\u{E000}'..='\u{F8FF}' | '\u{F0000}'.. => "private-use character",
        _ => return None,
    })
}

/// `U+0009 (tab), U+000A (line feed)`: code points of `text`, at most four.
fn code_points(text: &str) -> String {
    let mut out = String::new();
    for (n, c) in text.chars().enumerate() {
        if n == 4 {
            out.push_str(", …");
            break;
        }
        if n > 0 {
            out.push_str(", ");
        }
        out.push_str(&format!("U+{:04X}", c as u32));
        if let Some(name) = char_name(c) {
            out.push_str(&format!(" ({name})"));
        }
    }
    out
}

/// Whether `text` can be shown literally in backticks.
fn is_visible(text: &str) -> bool {
    !text.starts_with(' ')
        && !text.ends_with(' ')
        && text.chars().all(|c| {
            (c == ' ' || !c.is_whitespace())
                && !c.is_control()
                && !is_invisible(c)
                && !is_bidi_control(c)
                && (c.is_ascii() || is_iri_char(c, true))
        })
}

/// The text itself in backticks when visible, else its code points.
fn shown(text: &str) -> String {
    if is_visible(text) {
        code(text)
    } else {
        code_points(text)
    }
}

fn it(text: &str) -> &'static str {
    if text.chars().nth(1).is_some() {
        "them"
    } else {
        "it"
    }
}

/// What a character flagged as `kind` in `part` becomes in the corrected URL, or `None` when
/// no correction can be derived.
fn replacement(
    kind: ProblemKind,
    part: Part,
    c: char,
    at_end: bool,
    out: &mut String,
) -> Option<()> {
    let remove_only = matches!(part, Part::Scheme | Part::Host);
    match kind {
        ProblemKind::Whitespace => {
            if remove_only || at_end || matches!(c, '\t' | '\n' | '\r' | '\u{B}' | '\u{C}') {
                // nothing: removed
            } else {
                percent_encode_char(c, out);
            }
        }
        ProblemKind::Quote => out.push_str("%22"),
        ProblemKind::Backslash => match part {
            Part::Slashes | Part::Path | Part::Host => out.push('/'),
            _ => out.push_str("%5C"),
        },
        ProblemKind::ControlChar => {}
        ProblemKind::InvalidChar => {
            if c == '\u{FFFD}' {
                return None;
            }
            if c.is_ascii() && !remove_only {
                percent_encode_char(c, out);
            } else if c.is_ascii() && part == Part::Host {
                return None;
            }
        }
        ProblemKind::BadPercentEscape => {
            if c == '%' {
                out.push_str("%25");
            } else {
                out.push(c);
            }
        }
        _ => return None,
    }
    Some(())
}

/// The correction of one finding: replace `range` of the value with the string, or `None` when
/// no correction can be derived (an unknown host, a port that is not a number, …).
fn edit(value: &str, checker: &Checker<'_>, f: &Finding) -> Option<(Range<usize>, String)> {
    let r = f.range.clone();
    let text = &value[r.clone()];
    Some(match f.issue {
        Issue::Char(part) => {
            let mut out = String::with_capacity(text.len() * 3);
            let at_end = r.end == value.len();
            for c in text.chars() {
                if f.kind == ProblemKind::NonAscii {
                    percent_encode_char(c, &mut out);
                } else {
                    replacement(f.kind, part, c, at_end, &mut out)?;
                }
            }
            (r, out)
        }
        Issue::Relative => {
            let sep = if value.starts_with('/') { "" } else { "/" };
            (0..0, format!("{}{sep}", checker.base()))
        }
        Issue::SchemeRelative => (0..0, format!("{}:", checker.scheme())),
        Issue::NoScheme => (0..0, format!("{}://", checker.scheme())),
        Issue::EmptyScheme => (0..0, checker.scheme().to_owned()),
        Issue::MissingColon { replaced: true } => (r, ":".to_owned()),
        Issue::MissingColon { replaced: false } => (r.end..r.end, ":".to_owned()),
        Issue::SchemeTypo { wanted }
        | Issue::InvalidScheme {
            wanted: Some(wanted),
        } => (r, wanted.to_owned()),
        Issue::Slashes {
            colon,
            host_like: true,
            ..
        } => (colon + 1..r.end, "//".to_owned()),
        Issue::Credentials | Issue::DoubledScheme | Issue::Fragment => (r, String::new()),
        Issue::EmptyLabel => {
            let host = checker.host.clone()?;
            // A leading run of dots goes; any other run becomes one dot (a trailing dot stays).
            let with = if r.start == host.start { "" } else { "." };
            (r, with.to_owned())
        }
        Issue::Ipv4(Ipv4Issue::LeadingZero) => {
            let digits = text.trim_start_matches('0');
            (r, if digits.is_empty() { "0" } else { digits }.to_owned())
        }
        Issue::Ipv6Unbracketed => (r, format!("[{text}]")),
        Issue::HostNonAscii => {
            let ascii = url::quirks::domain_to_ascii(text);
            if ascii.is_empty() || !ascii.is_ascii() {
                return None;
            }
            (r, ascii)
        }
        _ => return None,
    })
}

/// A corrected URL offered in a help text.
struct Fix {
    url: String,
    /// Whether problems of other kinds than the one the help is about were corrected too.
    others: bool,
    /// Whether the help is about an error (else a warning, corrected together with the errors).
    for_error: bool,
}

/// The URL with the problem `f` corrected, and with it every error, so that the suggestion is
/// itself a valid URL: `None` when some correction cannot be derived or the result would still
/// be invalid. Warnings of other kinds (a fragment, non-ASCII characters) are left alone.
fn suggestion(value: &str, checker: &Checker<'_>, f: &Finding) -> Option<Fix> {
    // A corrected copy of a huge URL, or of one with hundreds of problems, helps nobody and
    // costs a copy (and a re-check) per problem shown: no suggestion then.
    const MAX_FIX_LEN: usize = 8 * 1024;
    const MAX_FIX_EDITS: usize = 256;
    if value.len() > MAX_FIX_LEN || checker.findings.len() > MAX_FIX_EDITS {
        return None;
    }
    let mut edits = Vec::new();
    let mut others = false;
    for g in &checker.findings {
        if g.kind == f.kind || g.kind.is_error() {
            others |= g.kind != f.kind;
            edits.push(edit(value, checker, g)?);
        }
    }
    // Insertions before replacements at the same place; an edit inside an earlier one is
    // covered by it (`http:\\example.com`: the slashes are rewritten as a whole).
    edits.sort_by_key(|(r, _)| (r.start, !r.is_empty(), std::cmp::Reverse(r.end)));
    let mut url = String::with_capacity(value.len() + 16);
    let mut done = 0;
    let mut covered = 0..0;
    for (r, with) in &edits {
        if !covered.is_empty() && r.start >= covered.start && r.end <= covered.end {
            continue;
        }
        if r.start < done {
            return None;
        }
        url.push_str(&value[done..r.start]);
        url.push_str(with);
        done = r.end;
        covered = r.clone();
    }
    url.push_str(&value[done..]);
    let mut check = Checker::new(&url);
    check.run();
    if url.is_empty()
        || check
            .findings
            .iter()
            .any(|g| g.kind.is_error() || g.kind == f.kind)
    {
        return None;
    }
    Some(Fix {
        url,
        others,
        for_error: f.kind.is_error(),
    })
}

/// `text`, then the corrected URL if there is one.
fn with_url(text: &str, fix: Option<&Fix>) -> String {
    match fix {
        Some(Fix {
            url, others: false, ..
        }) => format!("{text}: {}", code_url(url)),
        Some(Fix {
            url,
            for_error: true,
            ..
        }) => format!("{text}; with every error fixed: {}", code_url(url)),
        Some(Fix { url, .. }) => format!("{text}; with the errors fixed too: {}", code_url(url)),
        None => text.to_owned(),
    }
}

fn render(value: &str, checker: &Checker<'_>, f: &Finding) -> Problem {
    let text = &value[f.range.clone()];
    let fix = suggestion(value, checker, f);
    let fix = fix.as_ref();
    // Helps that show the whole corrected URL anyway need no "fixing every problem" remark.
    let url = |what: &str| match fix {
        Some(fix) => format!("{what}: {}", code_url(&fix.url)),
        None => what.to_owned(),
    };
    let (message, help) = match f.issue {
        Issue::Char(part) => render_char(value, fix, f, part),
        Issue::Relative => {
            let how = if checker.base.is_some() {
                "write the full URL with the scheme and host the other entries have"
            } else {
                "write the full URL with scheme and host, e.g."
            };
            let help = match fix {
                Some(fix) if checker.base.is_some() => format!("{how}: {}", code_url(&fix.url)),
                Some(fix) => format!("{how} {}", code_url(&fix.url)),
                None => "write the full URL with scheme and host".to_owned(),
            };
            (
                format!("relative URL {}: `<loc>` needs an absolute URL", code(text)),
                Some(help),
            )
        }
        Issue::SchemeRelative => (
            format!("scheme-relative URL {} is missing its scheme", code(value)),
            Some(url("add the scheme")),
        ),
        Issue::NoScheme => (
            format!("missing scheme before {}", code(text)),
            Some(url("add the scheme")),
        ),
        Issue::EmptyScheme => (
            "missing scheme before `://`".to_owned(),
            Some(url("add the scheme")),
        ),
        Issue::MissingColon { replaced: r } => {
            if r {
                let scheme = &value[..f.range.start];
                (
                    format!("wrong character {} instead of `:` after {}", code(text), code(scheme)),
                    Some(with_url("write `:`", fix)),
                )
            } else {
                (
                    format!("missing `:` after the scheme {}", code(text)),
                    Some(with_url("insert `:`", fix)),
                )
            }
        }
        Issue::SchemeTypo { wanted } => (
            format!("misspelled scheme {}", code(text)),
            Some(with_url(&format!("write `{wanted}`"), fix)),
        ),
        Issue::InvalidScheme { wanted } => (
            format!(
                "invalid scheme {}: a scheme consists of ASCII letters, digits, `+`, `-` and `.`",
                shown(text)
            ),
            Some(match wanted {
                Some(w) => with_url(&format!("write `{w}`"), fix),
                None => "a sitemap may list only `http` and `https` URLs".to_owned(),
            }),
        ),
        Issue::DrivePath => (
            format!("local file path {} instead of a URL", code(text)),
            Some("list the public `https://` URL of the page instead".to_owned()),
        ),
        Issue::Unsupported => {
            let lower = text.to_ascii_lowercase();
            let help = match lower.as_str() {
                "javascript" => "a script is not a page: list the URL of the page instead",
                "mailto" | "tel" | "sms" => "an address is not a page: remove this entry",
                "file" => "a local file is not reachable by crawlers: list its public URL",
                "data" => "embedded data is not a page: list the URL of the page instead",
                _ => "list the `http` or `https` URL of the page instead",
            };
            (
                format!(
                    "unsupported scheme {}: a sitemap may list only `http` and `https` URLs",
                    code(text)
                ),
                Some(help.to_owned()),
            )
        }
        Issue::Slashes {
            colon,
            n,
            host_like,
        } => {
            let scheme = &value[..=colon];
            let rest = &value[f.range.end..];
            let message = match n {
                0 => format!("missing `//` after {}", code(scheme)),
                1 => format!("only one `/` after {}: the host must follow `//`", code(scheme)),
                _ if rest.is_empty() || !host_like => {
                    format!("missing host: {} slashes after {}", n, code(scheme))
                }
                _ => format!("too many slashes ({n}) after {}: the host must follow `//`", code(scheme)),
            };
            let help = match fix {
                Some(fix) if host_like => format!("write it as {}", code_url(&fix.url)),
                _ if host_like => format!("write `//` after {}", code(scheme)),
                _ => format!("write the host name after {}", code(&format!("{scheme}//"))),
            };
            (message, Some(help))
        }
        Issue::EmptyAuthority => (
            format!("missing host after {}", code(text)),
            Some("write the host name after `//`".to_owned()),
        ),
        Issue::EmptyHost => (
            format!("missing host in the authority {}", code(text)),
            Some("write the host name after `//`".to_owned()),
        ),
        Issue::Credentials => {
            if text == "@" {
                (
                    "empty user info `@` before the host".to_owned(),
                    Some(with_url("remove it", fix)),
                )
            } else if text.contains(':') {
                (
                    format!("credentials {} in the URL", code(text)),
                    Some(with_url(
                        "remove them: crawlers drop credentials, and a sitemap publishes them",
                        fix,
                    )),
                )
            } else {
                (
                    format!("user name {} in the URL", code(text)),
                    Some(with_url("remove it: crawlers drop user names", fix)),
                )
            }
        }
        Issue::DoubledScheme => (
            format!("doubled scheme: {} is read as the host", code(text)),
            Some(with_url("remove it", fix)),
        ),
        Issue::EmptyLabel => {
            let host = checker.host.clone().unwrap_or(f.range.clone());
            (
                format!("empty label in the host {}", code(&value[host])),
                Some(with_url("remove the extra `.`", fix)),
            )
        }
        Issue::LabelTooLong { len } => (
            format!("host label {} is {len} characters long", code(text)),
            Some("a DNS label has at most 63 characters (in its punycode form)".to_owned()),
        ),
        Issue::HostTooLong { len } => (
            format!("host {} is {len} characters long", code(text)),
            Some("a DNS name has at most 253 characters (in its punycode form)".to_owned()),
        ),
        Issue::Hyphen { leading, label } => (
            format!(
                "host label {} {} with a hyphen",
                code(&value[label.0..label.1]),
                if leading { "starts" } else { "ends" }
            ),
            Some("a DNS label must start and end with a letter or digit".to_owned()),
        ),
        Issue::Ipv4(issue) => {
            let host = checker.host.clone().unwrap_or(f.range.clone());
            let host_text = &value[host.clone()];
            match issue {
                Ipv4Issue::Parts(n) => (
                    format!("invalid IPv4 address {}: it has {n} parts instead of 4", code(text)),
                    Some("write four decimal numbers from 0 to 255, e.g. `192.0.2.1`, or a host name".to_owned()),
                ),
                Ipv4Issue::NotDecimal => (
                    format!("invalid IPv4 address {}: {} is not a decimal number", code(host_text), code(text)),
                    Some("write four decimal numbers from 0 to 255, e.g. `192.0.2.1`".to_owned()),
                ),
                Ipv4Issue::Over255 => (
                    format!("invalid IPv4 address {}: {} is over 255", code(host_text), code(text)),
                    Some("each part of an IPv4 address is a number from 0 to 255".to_owned()),
                ),
                Ipv4Issue::LeadingZero => {
                    (
                        format!(
                            "leading zero in {} of the IPv4 address {}: some parsers read it as octal",
                            code(text),
                            code(host_text)
                        ),
                        Some(with_url("remove the leading zeros", fix)),
                    )
                }
            }
        }
        Issue::Ipv6Invalid => (
            format!("invalid IPv6 address {}", code(text)),
            Some("write a valid IPv6 address in brackets, e.g. `[2001:db8::1]`".to_owned()),
        ),
        Issue::Ipv6Zone => (
            format!("zone identifier in the IPv6 address {}", code(text)),
            Some("a URL for crawlers cannot name a network interface: use a global address or a host name".to_owned()),
        ),
        Issue::Ipv6Unclosed => (
            format!("unclosed `[` in the host {}", code(text)),
            Some("close the IPv6 address with `]`".to_owned()),
        ),
        Issue::Ipv6Trailing => (
            format!("unexpected {} after the IPv6 address", code(text)),
            Some("only `:` and a port may follow `]`".to_owned()),
        ),
        Issue::Ipv6Unbracketed => (
            format!("unbracketed IPv6 address {}", code(text)),
            Some(with_url("enclose it in `[` `]`", fix)),
        ),
        Issue::Idna => (
            format!("invalid internationalized host name {}", shown(text)),
            Some("the host cannot be converted to punycode (IDNA): check its spelling".to_owned()),
        ),
        Issue::HostNonAscii => {
            let ascii = url::quirks::domain_to_ascii(text);
            let help = if ascii.is_empty() {
                "crawlers expect an ASCII host".to_owned()
            } else {
                with_url(
                    &format!("crawlers expect the punycode (IDNA) form {}", code(&ascii)),
                    fix,
                )
            };
            (format!("internationalized host name {}", shown(text)), Some(help))
        }
        Issue::PortNotNumber => (
            format!("port {} is not a number", shown(text)),
            Some("a port is a number from 0 to 65535; omit it for the default port".to_owned()),
        ),
        Issue::PortRange => (
            format!("port {} is out of range", code(text)),
            Some("a port is a number from 0 to 65535; omit it for the default port".to_owned()),
        ),
        Issue::Fragment => (
            format!("fragment {} is ignored by crawlers", shown(text)),
            Some(with_url(
                "remove it: each fragment makes another entry for the same page",
                fix,
            )),
        ),
    };
    Problem {
        kind: f.kind,
        range: f.range.clone(),
        message,
        help,
        fix: fix.map(|fix| fix.url.clone()),
    }
}

fn render_char(
    value: &str,
    fix: Option<&Fix>,
    f: &Finding,
    part: Part,
) -> (String, Option<String>) {
    let text = &value[f.range.clone()];
    let first = text.chars().next().unwrap_or(' ');
    let where_ = part.name();
    let fixed = || fix;
    let several = text.chars().nth(1).is_some();
    match f.kind {
        ProblemKind::Whitespace => {
            let count = text.chars().count();
            let message = if text.bytes().all(|x| x == b' ') {
                if count == 1 {
                    format!("space in the {where_}")
                } else {
                    format!("consecutive spaces ({count}) in the {where_}")
                }
            } else {
                format!("whitespace {} in the {where_}", code_points(text))
            };
            let remove = matches!(part, Part::Scheme | Part::Host)
                || f.range.end == value.len()
                || matches!(first, '\t' | '\n' | '\r' | '\u{B}' | '\u{C}');
            let how = if remove {
                format!("remove {}", it(text))
            } else {
                format!(
                    "percent-encode {} as {}",
                    it(text),
                    code(&percent_encoded(text))
                )
            };
            (message, Some(with_url(&how, fixed())))
        }
        ProblemKind::Quote => (
            format!("quotation mark {} in the {where_}", code(text)),
            Some(with_url(
                &format!(
                    "percent-encode {} as {}",
                    it(text),
                    code(&percent_encoded(text))
                ),
                fixed(),
            )),
        ),
        ProblemKind::Backslash => {
            if part == Part::Slashes {
                (
                    format!("backslash {} instead of `/` after the scheme", code(text)),
                    Some(with_url("write `/`", fixed())),
                )
            } else if matches!(part, Part::Path | Part::Host) {
                (
                    format!("backslash {} in the {where_}", code(text)),
                    Some(with_url(
                        "use `/` as the path separator (or `%5C` for a literal backslash)",
                        fixed(),
                    )),
                )
            } else {
                (
                    format!("backslash {} in the {where_}", code(text)),
                    Some(with_url(
                        &format!(
                            "percent-encode {} as {}",
                            it(text),
                            code(&percent_encoded(text))
                        ),
                        fixed(),
                    )),
                )
            }
        }
        ProblemKind::ControlChar => (
            format!(
                "control character{} {} in the {where_}",
                if text.chars().nth(1).is_some() {
                    "s"
                } else {
                    ""
                },
                code_points(text)
            ),
            Some(with_url(&format!("remove {}", it(text)), fixed())),
        ),
        ProblemKind::InvalidChar => {
            let message = if part == Part::Fragment && text.starts_with('#') {
                "another `#` inside the fragment".to_owned()
            } else if first.is_ascii() && several {
                format!("characters {} are not allowed in the {where_}", code(text))
            } else if first.is_ascii() {
                format!("character {} is not allowed in the {where_}", code(text))
            } else if text.contains('\u{FFFD}') {
                format!("character {} in the {where_}", code_points(text))
            } else if part == Part::Scheme {
                format!("character {} before or in the scheme", code_points(text))
            } else {
                let private = text
                    .chars()
                    .any(|c| matches!(c, '\u{E000}'..='\u{F8FF}' | '\u{F0000}'..));
                format!(
                    "{} {} {} not allowed in the {}{}",
                    if several { "characters" } else { "character" },
                    code_points(text),
                    if several { "are" } else { "is" },
                    where_,
                    if private && part != Part::Query {
                        " (private-use characters are allowed only in the query)"
                    } else {
                        ""
                    }
                )
            };
            let help = if text.contains('\u{FFFD}') {
                "the URL was decoded with the wrong character encoding: fix it at its source"
                    .to_owned()
            } else if first.is_ascii() && part != Part::Host && part != Part::Scheme {
                with_url(
                    &format!(
                        "percent-encode {} as {}",
                        it(text),
                        code(&percent_encoded(text))
                    ),
                    fixed(),
                )
            } else if first.is_ascii() {
                "a host name may contain only letters, digits, `-`, `_` and `.`".to_owned()
            } else {
                with_url(&format!("remove {}", it(text)), fixed())
            };
            (message, Some(help))
        }
        ProblemKind::BadPercentEscape => (
            format!(
                "invalid percent-escape {}: `%` must be followed by two hex digits",
                code(text)
            ),
            Some(with_url("write `%25` for a literal `%`", fixed())),
        ),
        ProblemKind::NonAscii => (
            format!("non-ASCII {} in the {where_}", shown(text)),
            Some(with_url(
                &format!(
                    "crawlers expect a URI: percent-encode {} as UTF-8",
                    it(text)
                ),
                fixed(),
            )),
        ),
        ProblemKind::InvalidHost => {
            if first == '%' {
                (
                    format!("percent-encoded {} in the host name", code(text)),
                    Some(
                        "write the host name without percent-encoding (punycode for non-ASCII)"
                            .to_owned(),
                    ),
                )
            } else {
                (
                    format!(
                        "{} {} {} not allowed in a host name",
                        if several { "characters" } else { "character" },
                        code(text),
                        if several { "are" } else { "is" }
                    ),
                    Some(
                        "a host name may contain only letters, digits, `-`, `_` and `.`".to_owned(),
                    ),
                )
            }
        }
        kind => (format!("{} {}", kind.as_str(), code(text)), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ProblemKind::*;

    fn kinds(v: &str) -> Vec<ProblemKind> {
        check_http_url(v).into_iter().map(|p| p.kind).collect()
    }

    fn one(v: &str) -> Problem {
        let mut ps = check_http_url(v);
        assert_eq!(ps.len(), 1, "{v:?}: {ps:#?}");
        ps.remove(0)
    }

    fn of(v: &str, kind: ProblemKind) -> Problem {
        let ps = check_http_url(v);
        ps.iter()
            .find(|p| p.kind == kind)
            .cloned()
            .unwrap_or_else(|| panic!("{v:?}: no {kind:?} in {ps:#?}"))
    }

    fn text(v: &str, p: &Problem) -> String {
        v[p.range.clone()].to_owned()
    }

    /// The fast path may only say "clean" where the full checker finds nothing.
    #[track_caller]
    fn fast_agrees(v: &str) -> bool {
        let fast = is_plain_http_url(v.as_bytes());
        if fast {
            assert_eq!(check_full(v, None), vec![], "fast path accepted {v:?}");
        }
        assert_eq!(check_http_url(v), check_full(v, None), "{v:?}");
        fast
    }

    #[test]
    fn first_not_plain_finds_the_first_such_byte() {
        for len in 0..40 {
            for bad in 0..=len {
                let mut b = vec![b'a'; len];
                if bad < len {
                    b[bad] = b' ';
                }
                let want = b.iter().position(|&x| !PLAIN_URL_BYTE[usize::from(x)]);
                assert_eq!(first_not_plain(&b), want, "{len} {bad}");
            }
        }
    }

    #[test]
    fn fast_path_takes_plain_urls() {
        for v in [
            "https://example.com",
            "https://www.example.com/",
            "http://www.example.com/a?b=1&c=2",
            "https://www.example.com/category-1/products/kitchen-garden-1.html?ref=sitemap",
            "https://cdn.example.com/images/000/garden-garden-0-en-0-1600w.jpg",
            "https://example.com/%C3%BCber",
            "https://example.com:8080/x",
            "https://a.com:65535",
            "https://example.com?q",
            "https://example.com/a(b)/c'd*e!~_;,=+$:@/?x=/?:@&y",
            "https://1a.example.com/x",
            "https://a.b.c.d.e.f.example/",
        ] {
            assert!(fast_agrees(v), "{v} should take the fast path");
        }
    }

    #[test]
    fn fast_path_agrees_with_full_checker() {
        let long_label = "a".repeat(63);
        let too_long_label = "a".repeat(64);
        let long_host = format!("{}.com", vec!["b".repeat(62); 4].join("."));
        let too_long_host = format!("{}.comm", vec!["b".repeat(62); 4].join("."));
        assert_eq!(long_host.len(), 255);
        let hosts: Vec<String> = [
            "example.com",
            "www.example.com",
            "a",
            "localhost",
            "a-b.c",
            "-a.com",
            "a-.com",
            "a.-b",
            "a..b",
            ".a",
            "a.",
            "xn--r8jz45g.jp",
            "XN--abc.com",
            "xn--a",
            "xn-a.com",
            "1.2.3.4",
            "1.2.3",
            "256.1.1.1",
            "01.2.3.4",
            "a.123",
            "123.a",
            "0",
            "ex_ample.com",
            "exa mple.com",
            "user@example.com",
            "u:p@example.com",
            "@example.com",
            "[::1]",
            "[::1",
            "",
            "ex%41.com",
            "例え.jp",
            "http",
            "https",
            "example.com.",
            "a.b-",
            "e\u{ff0e}com",
            "EXAMPLE.COM",
            "1a.b2",
        ]
        .iter()
        .map(|h| h.to_string())
        .chain([
            format!("{long_label}.com"),
            format!("{too_long_label}.com"),
            long_host[..253].to_string(),
            long_host.clone(),
            too_long_host,
        ])
        .collect();
        let schemes = [
            "https://",
            "http://",
            "HTTP://",
            "Https://",
            "https:/",
            "https:///",
            "htps://",
            "https//",
            "ftp://",
            " https://",
            "https:\\\\",
            "https:/\\",
            "",
            "//",
            "http:",
        ];
        let ports = [
            "", ":", ":0", ":80", ":65535", ":65536", ":99999", ":123456", ":8a", ":-1", ":080",
            "::80", ":00000", ":000000", ": 80",
        ];
        let paths = [
            "",
            "/",
            "/a/b",
            "/a?b=1&c=2",
            "?q",
            "/%41",
            "/%4",
            "/%4g",
            "/%zz",
            "/%",
            "?%",
            "/a%2",
            "/a b",
            "/a#f",
            "#f",
            "/#",
            "/a\\b",
            "\\x",
            "/ä",
            "/a\"",
            "/a<b>",
            "/[x]",
            "/a|b",
            "/~u;p=1,2",
            "/a:b@c",
            "/a\t",
            "/a\u{7f}",
            "/a\u{0}",
            "/?a?b/c",
            "//x",
            "/a^b",
            "/`",
            "/{}",
            "?a=%C3%BC",
            "/\u{200b}",
            "/a\n",
            "//http://x",
            "/\u{a0}",
        ];
        // Every combination that differs from `https://example.com` in at most three parts.
        let mut fast = 0;
        let mut total = 0;
        for (a, scheme) in schemes.iter().enumerate() {
            for (b, host) in hosts.iter().enumerate() {
                for (c, port) in ports.iter().enumerate() {
                    for (d, path) in paths.iter().enumerate() {
                        if [a, b, c, d].iter().filter(|&&i| i > 0).count() > 3 {
                            continue;
                        }
                        let v = format!("{scheme}{host}{port}{path}");
                        total += 1;
                        fast += usize::from(fast_agrees(&v));
                    }
                }
            }
        }
        // The generated set must exercise the fast path, not only the fallback.
        assert!(fast > 1000 && fast < total / 2, "{fast} of {total}");
    }

    proptest::proptest! {
        #[test]
        fn fast_path_never_accepts_a_problem(
            v in proptest::prop_oneof![
                "https?://[a-z0-9.-]{0,20}(:[0-9]{0,6})?([/?][ -~]{0,30})?",
                "(https?:|HTTP:)?//?[a-zA-Z0-9.:@_-]{0,20}[/?#%\\\\]?[a-zA-Z0-9/?#%:@.&=~ \\[\\]-]{0,20}",
                "https://\\PC{0,40}",
            ],
        ) {
            let fast = is_plain_http_url(v.as_bytes());
            if fast {
                proptest::prop_assert_eq!(check_full(&v, None), vec![], "{:?}", v);
            }
        }
    }

    #[test]
    fn clean_values() {
        for v in [
            "https://example.com/",
            "http://www.example.com/a?b=1&c=2",
            "https://example.com/%C3%BCber",
            "http://[2001:db8::1]:8080/x",
            "http://127.0.0.1/",
            "https://example.com/a(b)/c'd*e!",
            "https://EXAMPLE.com:443/",
            "https://example.com/~user/path;params?q=a+b",
            "HTTP://EXAMPLE.COM/",
            "https://example.com",
            "https://example.com:/",
            "https://a.com:8080",
            "https://my_host.example.com/",
            "https://example.com./",
            "https://xn--r8jz45g.jp/",
            "https://example.com/a:b@c/$,;=?x=/?:@&y",
            "https://example.com/%e2%82%ac",
            "https://example.com/%FF%FE",
            "http://[::1]/",
            "http://[::ffff:192.0.2.1]/",
            "http://[v1.fe80::a+en1]/",
            "https://1.2.3.4:65535/",
            "https://example.com?q",
            "https://example.com/?",
            "https://0.0.0.0/",
        ] {
            assert_eq!(check_http_url(v), vec![], "{v}");
        }
    }

    #[test]
    fn idn_host_is_only_non_ascii() {
        let v = "https://例え.jp/";
        let p = one(v);
        assert_eq!(p.kind, NonAscii);
        assert_eq!(text(v, &p), "例え.jp");
        assert!(!p.kind.is_error());
        let help = p.help.unwrap();
        assert!(help.contains("`xn--r8jz45g.jp`"), "{help}");
        assert!(help.contains("`https://xn--r8jz45g.jp/`"), "{help}");
    }

    #[test]
    fn empty() {
        let p = one("");
        assert_eq!(p.kind, Empty);
        assert_eq!(p.range, 0..0);
        assert!(p.help.is_some());
    }

    #[test]
    fn is_error_split() {
        for k in ProblemKind::ALL {
            assert_eq!(
                k.is_error(),
                !matches!(k, NonAscii | Fragment | Credentials),
                "{k:?}"
            );
            assert!(!k.as_str().is_empty());
        }
    }

    #[test]
    fn relative_references() {
        for v in [
            "/about",
            "about.html",
            "../a/b",
            "?q=1",
            "index.php?x",
            "page",
            "a/b/c",
        ] {
            let p = of(v, Relative);
            assert_eq!(p.range, 0..v.len(), "{v}");
            assert!(p.message.contains(&format!("`{v}`")), "{}", p.message);
            assert_eq!(kinds(v), vec![Relative], "{v}");
        }
        let p = one("/about");
        assert_eq!(
            p.help.as_deref(),
            Some("write the full URL with scheme and host, e.g. `https://example.com/about`")
        );
        let p = one("about.html");
        assert!(p.help.unwrap().contains("`https://example.com/about.html`"));
        // characters are still checked
        assert_eq!(kinds("/a b"), vec![Relative, Whitespace]);
        assert_eq!(kinds("#top"), vec![Relative, Fragment]);
    }

    #[test]
    fn scheme_relative() {
        let v = "//example.com/x";
        let p = one(v);
        assert_eq!(p.kind, MissingScheme);
        assert_eq!(text(v, &p), "//example.com");
        assert!(p.message.contains("scheme"), "{}", p.message);
        assert_eq!(
            p.help.as_deref(),
            Some("add the scheme: `https://example.com/x`")
        );
        assert_eq!(kinds("//"), vec![Relative]);
        assert_eq!(kinds("//exa mple.com/"), vec![MissingScheme, Whitespace]);
    }

    #[test]
    fn no_scheme() {
        let v = "www.example.com/page";
        let p = one(v);
        assert_eq!(p.kind, MissingScheme);
        assert_eq!(text(v, &p), "www.example.com");
        assert_eq!(
            p.help.as_deref(),
            Some("add the scheme: `https://www.example.com/page`")
        );
        for v in [
            "example.com",
            "example.com/x",
            "example.com:8080/x",
            "localhost:8080/",
            "127.0.0.1/x",
            "shop.example.co.uk?x=1",
            "münchen.de/",
        ] {
            assert_eq!(kinds(v).first(), Some(&MissingScheme), "{v}");
            let p = of(v, MissingScheme);
            assert_eq!(
                p.help.unwrap(),
                format!("add the scheme: `https://{v}`"),
                "{v}"
            );
        }
        // the port is still checked
        assert_eq!(kinds("example.com:80x/"), vec![MissingScheme, InvalidPort]);
        let p = one("://example.com/");
        assert_eq!(p.kind, MissingScheme);
        assert_eq!(p.range, 0..1);
        assert!(p.help.unwrap().contains("`https://example.com/`"));
    }

    #[test]
    fn unsupported_schemes() {
        for (v, s) in [
            ("ftp://example.com/file", "ftp"),
            ("javascript:void(0)", "javascript"),
            ("mailto:someone@example.com", "mailto"),
            ("data:text/html,hi", "data"),
            ("file:///C:/x.html", "file"),
            ("tel:+123", "tel"),
            ("urn:isbn:123", "urn"),
        ] {
            let p = one(v);
            assert_eq!(p.kind, UnsupportedScheme, "{v}");
            assert_eq!(text(v, &p), s);
            assert!(p.message.contains(&format!("`{s}`")), "{}", p.message);
            assert!(p.help.is_some());
        }
        let p = one(r"C:\Users\me\page.html");
        assert_eq!(p.kind, UnsupportedScheme);
        assert!(p.message.contains("local file path"), "{}", p.message);
    }

    #[test]
    fn scheme_typos() {
        for (v, fixed) in [
            ("htp://example.com/", "http://example.com/"),
            ("hhttp://example.com/", "http://example.com/"),
            ("htps://example.com/", "https://example.com/"),
            ("httpss://example.com/", "https://example.com/"),
            ("htpps://example.com/", "https://example.com/"),
            ("hxxps://example.com/", "https://example.com/"),
            ("ttps://example.com/", "https://example.com/"),
            ("HTTTP://example.com/", "http://example.com/"),
        ] {
            let p = one(v);
            assert_eq!(p.kind, UnsupportedScheme, "{v}");
            assert_eq!(p.range, 0..v.find(':').unwrap());
            assert!(p.message.starts_with("misspelled scheme"), "{}", p.message);
            assert!(p.help.unwrap().ends_with(&format!("`{fixed}`")), "{v}");
        }
        // the rest is still checked
        assert_eq!(kinds("htp://a b.com/"), vec![UnsupportedScheme, Whitespace]);
    }

    #[test]
    fn invalid_schemes() {
        let v = "ｈｔｔｐｓ://example.com/";
        let p = one(v);
        assert_eq!(p.kind, UnsupportedScheme);
        assert!(p.help.unwrap().contains("`https://example.com/`"));
        let p = one("1http://example.com/");
        assert_eq!(p.kind, UnsupportedScheme);
        assert!(p.message.starts_with("invalid scheme"));
    }

    #[test]
    fn junk_in_scheme() {
        let v = "\u{FEFF}https://example.com/";
        let p = one(v);
        assert_eq!(p.kind, InvalidChar);
        assert_eq!(p.range, 0..3);
        assert!(p.message.contains("U+FEFF"), "{}", p.message);
        assert!(p.help.unwrap().contains("`https://example.com/`"));
        let v = "\u{A0}https://example.com/";
        assert_eq!(kinds(v), vec![Whitespace]);
        let v = "https ://example.com/";
        let p = one(v);
        assert_eq!((p.kind, p.range), (Whitespace, 5..6));
        assert!(p.help.unwrap().contains("`https://example.com/`"));
    }

    #[test]
    fn missing_colon() {
        let v = "https//example.com/x";
        let p = one(v);
        assert_eq!(p.kind, MissingScheme);
        assert_eq!(text(v, &p), "https");
        assert_eq!(p.message, "missing `:` after the scheme `https`");
        assert_eq!(
            p.help.as_deref(),
            Some("insert `:`: `https://example.com/x`")
        );
        let v = "http;//example.com/";
        let p = one(v);
        assert_eq!(p.kind, MissingScheme);
        assert_eq!(text(v, &p), ";");
        assert_eq!(p.help.as_deref(), Some("write `:`: `http://example.com/`"));
        assert_eq!(kinds("https//"), vec![MissingScheme, MissingHost]);
    }

    #[test]
    fn slashes_after_scheme() {
        let v = "http:/example.com";
        let p = one(v);
        assert_eq!(p.kind, MissingHost);
        assert_eq!(text(v, &p), "http:/");
        assert!(p.message.contains("one `/`"), "{}", p.message);
        assert_eq!(p.help.as_deref(), Some("write it as `http://example.com`"));

        let v = "http:example.com";
        let p = one(v);
        assert_eq!(p.kind, MissingHost);
        assert_eq!(p.message, "missing `//` after `http:`");
        assert_eq!(p.help.as_deref(), Some("write it as `http://example.com`"));

        let v = "https:///example.com/a";
        let p = one(v);
        assert_eq!(p.kind, MissingHost);
        assert_eq!(
            p.help.as_deref(),
            Some("write it as `https://example.com/a`")
        );

        let p = one("http:///path");
        assert_eq!(p.kind, MissingHost);
        assert!(p.message.starts_with("missing host"), "{}", p.message);

        for v in ["http://", "http://?q", "http://#x", "http:", "http:/"] {
            assert_eq!(kinds(v).first(), Some(&MissingHost), "{v}");
        }
        let p = one("http://");
        assert_eq!(p.range, 0..7);
    }

    #[test]
    fn backslashes() {
        let v = r"https:\\example.com\path\page.html";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 3, "{ps:#?}");
        assert!(ps.iter().all(|p| p.kind == Backslash));
        assert_eq!(ps[0].range, 6..8);
        assert!(ps[0]
            .help
            .as_deref()
            .unwrap()
            .ends_with("`https://example.com/path/page.html`"));
        let v = r"https://example.com/?q=a\b";
        let p = one(v);
        assert_eq!(p.kind, Backslash);
        assert!(p.help.unwrap().ends_with("`https://example.com/?q=a%5Cb`"));
        assert!(one(r"https://example.com/a\b")
            .help
            .unwrap()
            .contains("`%5C`"));
    }

    #[test]
    fn whitespace() {
        let v = "https://example.com/a b";
        let p = one(v);
        assert_eq!((p.kind, p.range.clone()), (Whitespace, 21..22));
        assert_eq!(p.message, "space in the path");
        assert_eq!(
            p.help.as_deref(),
            Some("percent-encode it as `%20`: `https://example.com/a%20b`")
        );
        let v = "https://example.com/a  b c";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].range, 21..23);
        assert_eq!(ps[0].message, "consecutive spaces (2) in the path");
        assert_eq!(ps[1].range, 24..25);
        assert!(ps[0]
            .help
            .as_deref()
            .unwrap()
            .ends_with("`https://example.com/a%20%20b%20c`"));

        let v = "https://exa mple.com/";
        let p = one(v);
        assert_eq!((p.kind, p.range.clone()), (Whitespace, 11..12));
        assert!(p.message.ends_with("in the host"), "{}", p.message);
        assert!(p.help.unwrap().ends_with("`https://example.com/`"));

        let v = "https://example.com/a\tb\nc";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2);
        assert!(ps[0].message.contains("U+0009 (tab)"), "{}", ps[0].message);
        assert!(ps[0]
            .help
            .as_deref()
            .unwrap()
            .ends_with("`https://example.com/abc`"));

        let v = "https://example.com/a\u{A0}b\u{3000}";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2);
        assert_eq!(text(v, &ps[0]), "\u{A0}");
        assert_eq!(text(v, &ps[1]), "\u{3000}");
        assert!(ps[0].help.as_deref().unwrap().contains("%C2%A0"));
        assert!(ps[1].help.as_deref().unwrap().starts_with("remove it"));
        assert_eq!(
            kinds("https://example.com/?q=a b#c d"),
            vec![Whitespace, Fragment, Whitespace]
        );
    }

    #[test]
    fn quotes_and_invalid_chars() {
        let v = "https://example.com/\"a\"";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].kind, Quote);
        assert!(ps[0]
            .help
            .as_deref()
            .unwrap()
            .ends_with("`https://example.com/%22a%22`"));
        for (c, enc) in [
            ('<', "%3C"),
            ('>', "%3E"),
            ('{', "%7B"),
            ('}', "%7D"),
            ('|', "%7C"),
            ('^', "%5E"),
            ('`', "%60"),
            ('[', "%5B"),
            (']', "%5D"),
        ] {
            let v = format!("https://example.com/a{c}b");
            let p = one(&v);
            assert_eq!(p.kind, InvalidChar, "{v}");
            assert_eq!(p.range, 21..22);
            let help = p.help.unwrap();
            assert!(help.contains(&format!("`{enc}`")), "{help}");
            assert!(
                help.ends_with(&format!("`https://example.com/a{enc}b`")),
                "{help}"
            );
        }
        let v = "https://example.com/<>";
        let p = one(v);
        assert_eq!(text(v, &p), "<>");
        assert!(p.help.unwrap().contains("`%3C%3E`"));
        // sub-delims and friends are legal
        assert_eq!(kinds("https://example.com/'()*!$;,=+&~:@"), vec![]);
        assert_eq!(
            kinds("https://example.com/?a=[1]"),
            vec![InvalidChar, InvalidChar]
        );
    }

    #[test]
    fn control_chars() {
        let v = "https://example.com/a\u{1}\u{2}b\u{7f}\u{85}";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2, "{ps:#?}");
        assert_eq!(ps[0].kind, ControlChar);
        assert_eq!(text(v, &ps[0]), "\u{1}\u{2}");
        assert!(
            ps[0].message.contains("U+0001, U+0002"),
            "{}",
            ps[0].message
        );
        assert_eq!(text(v, &ps[1]), "\u{7f}\u{85}");
        assert!(ps[1]
            .help
            .as_deref()
            .unwrap()
            .ends_with("`https://example.com/ab`"));
    }

    #[test]
    fn percent_escapes() {
        let v = "https://example.com/%zz";
        let p = one(v);
        assert_eq!(p.kind, BadPercentEscape);
        assert_eq!(text(v, &p), "%zz");
        assert!(p.help.unwrap().ends_with("`https://example.com/%25zz`"));
        for (v, t) in [
            ("https://example.com/100%", "%"),
            ("https://example.com/%2", "%2"),
            ("https://example.com/%2G", "%2G"),
            ("https://example.com/%é", "%"),
            ("https://example.com/?q=50%+off", "%"),
        ] {
            let p = of(v, BadPercentEscape);
            assert_eq!(text(v, &p), t, "{v}");
        }
        assert_eq!(kinds("https://example.com/%%41"), vec![BadPercentEscape]);
        assert_eq!(kinds("https://example.com/%C3"), vec![]);
        assert_eq!(kinds("https://ex%61mple.com/"), vec![InvalidHost]);
        assert_eq!(kinds("https://ex%6.com/"), vec![BadPercentEscape]);
    }

    #[test]
    fn non_ascii_runs() {
        let v = "https://example.com/über/straße?q=ä#ö";
        let ps = check_http_url(v);
        let ks: Vec<_> = ps.iter().map(|p| p.kind).collect();
        assert_eq!(ks, vec![NonAscii, NonAscii, NonAscii, Fragment, NonAscii]);
        assert_eq!(text(v, &ps[0]), "ü");
        assert_eq!(text(v, &ps[1]), "ß");
        assert_eq!(ps[0].message, "non-ASCII `ü` in the path");
        let uri = "https://example.com/%C3%BCber/stra%C3%9Fe?q=%C3%A4#%C3%B6";
        assert_eq!(to_uri(v), uri);
        assert!(ps[0]
            .help
            .as_deref()
            .unwrap()
            .ends_with(&format!("`{uri}`")));
        let v = "https://例え.jp/パス";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2);
        assert_eq!(text(v, &ps[0]), "例え.jp");
        assert_eq!(text(v, &ps[1]), "パス");
        assert_eq!(to_uri(v), "https://xn--r8jz45g.jp/%E3%83%91%E3%82%B9");
        // invisible but valid IRI characters are named by code point
        let p = one("https://example.com/a\u{200B}b");
        assert_eq!(p.kind, NonAscii);
        assert!(
            p.message.contains("U+200B (zero width space)"),
            "{}",
            p.message
        );
    }

    #[test]
    fn invalid_iri_chars() {
        for c in [
            '\u{FFFD}',
            '\u{FDD0}',
            '\u{FDEF}',
            '\u{FFFE}',
            '\u{FFFF}',
            '\u{1FFFE}',
            '\u{10FFFF}',
            '\u{200E}',
            '\u{200F}',
            '\u{202A}',
            '\u{202E}',
            '\u{E000}',
            '\u{E0001}',
        ] {
            let v = format!("https://example.com/a{c}b");
            let p = one(&v);
            assert_eq!(p.kind, InvalidChar, "{:04X}", c as u32);
            assert_eq!(p.range, 21..21 + c.len_utf8());
            assert!(
                p.message.contains(&format!("U+{:04X}", c as u32)),
                "{}",
                p.message
            );
        }
        // private use is allowed in the query only
        assert_eq!(kinds("https://example.com/?q=\u{E000}"), vec![NonAscii]);
        assert_eq!(kinds("https://example.com/?q=\u{F0000}"), vec![NonAscii]);
        // bidi controls are never allowed, even in the host
        assert_eq!(kinds("https://exa\u{202E}mple.com/"), vec![InvalidChar]);
        let p = one("https://example.com/\u{FFFD}");
        assert!(p.help.unwrap().contains("wrong character encoding"));
    }

    #[test]
    fn fragments() {
        let v = "https://example.com/page#top";
        let p = one(v);
        assert_eq!(p.kind, Fragment);
        assert_eq!(text(v, &p), "#top");
        assert!(!p.kind.is_error());
        assert!(p.help.unwrap().ends_with("`https://example.com/page`"));
        let v = "https://example.com/#a#b";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2);
        assert_eq!((ps[1].kind, text(v, &ps[1])), (InvalidChar, "#".to_owned()));
        assert_eq!(ps[1].message, "another `#` inside the fragment");
        assert_eq!(kinds("https://example.com/#"), vec![Fragment]);
        assert_eq!(kinds("https://example.com/#/route?x=1"), vec![Fragment]);
    }

    #[test]
    fn credentials() {
        let v = "https://user:pass@example.com/";
        let p = one(v);
        assert_eq!(p.kind, Credentials);
        assert_eq!(text(v, &p), "user:pass@");
        assert!(!p.kind.is_error());
        assert!(p.help.unwrap().ends_with("`https://example.com/`"));
        let v = "https://user@example.com/";
        let p = one(v);
        assert_eq!(text(v, &p), "user@");
        assert!(p.message.starts_with("user name"));
        assert_eq!(kinds("https://@example.com/"), vec![Credentials]);
        assert_eq!(
            kinds("https://a@b@example.com/"),
            vec![Credentials, InvalidChar]
        );
        assert_eq!(
            kinds("https://us er@example.com/"),
            vec![Credentials, Whitespace]
        );
        assert_eq!(kinds("https://user@/"), vec![Credentials, MissingHost]);
    }

    #[test]
    fn host_labels() {
        let v = "https://a..b.com/";
        let p = one(v);
        assert_eq!(p.kind, InvalidHost);
        assert_eq!(text(v, &p), "..");
        assert!(p.help.unwrap().ends_with("`https://a.b.com/`"));
        let v = "https://.example.com/";
        assert_eq!(text(v, &one(v)), ".");
        let v = "https://example.com../";
        assert_eq!(text(v, &one(v)), "..");
        let v = "https://a...b/";
        assert_eq!(text(v, &one(v)), "...");
        assert_eq!(kinds("https://./"), vec![InvalidHost]);

        let long = "a".repeat(64);
        let v = format!("https://{long}.com/");
        let p = one(&v);
        assert_eq!(p.kind, InvalidHost);
        assert_eq!(text(&v, &p), long);
        assert!(p.message.contains("64 characters"), "{}", p.message);
        assert_eq!(kinds(&format!("https://{}.com/", "a".repeat(63))), vec![]);

        let host = vec!["a".repeat(60); 5].join(".");
        let v = format!("https://{host}/");
        let p = one(&v);
        assert!(p.message.contains("304 characters"), "{}", p.message);

        let v = "https://-a.example-.com/";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].range, 8..9);
        assert!(ps[0].message.contains("`-a` starts"), "{}", ps[0].message);
        assert_eq!(ps[1].range, 18..19);
        assert!(
            ps[1].message.contains("`example-` ends"),
            "{}",
            ps[1].message
        );

        assert_eq!(kinds("https://exa!mple.com/"), vec![InvalidHost]);
        assert_eq!(kinds("https://xn--zz.com/"), vec![InvalidHost]);
        assert_eq!(kinds("https://a_b.example.com/"), vec![]);
    }

    #[test]
    fn ip_hosts() {
        assert_eq!(kinds("http://1.2.3.999/"), vec![InvalidHost]);
        let v = "http://1.2.3.999/";
        assert_eq!(text(v, &one(v)), "999");
        let v = "http://1.2.3/";
        assert!(one(v).message.contains("3 parts"));
        let v = "http://010.0.0.1/";
        let p = one(v);
        assert_eq!(text(v, &p), "010");
        assert!(p.help.unwrap().ends_with("`http://10.0.0.1/`"));
        assert_eq!(kinds("http://0x7f.0.0.1/"), vec![InvalidHost]);
        assert_eq!(kinds("http://12345/"), vec![InvalidHost]);
        assert_eq!(kinds("http://example.123/"), vec![InvalidHost]);

        for v in [
            "http://[2001:db8::g]/",
            "http://[1:2:3]/",
            "http://[fe80::1%25eth0]/",
            "http://[::1/",
            "http://[::1]x/",
        ] {
            assert_eq!(kinds(v), vec![InvalidHost], "{v}");
        }
        let v = "http://2001:db8::1/x";
        let p = one(v);
        assert_eq!(p.kind, InvalidHost);
        assert!(p.help.unwrap().ends_with("`http://[2001:db8::1]/x`"));
        assert_eq!(kinds("http://[::1]:99999/"), vec![InvalidPort]);
        assert_eq!(kinds("http://a[b]/"), vec![InvalidChar, InvalidChar]);
    }

    #[test]
    fn ports() {
        let v = "https://example.com:8o8o/";
        let p = one(v);
        assert_eq!(p.kind, InvalidPort);
        assert_eq!(text(v, &p), "8o8o");
        let v = "https://example.com:65536/";
        let p = one(v);
        assert_eq!((p.kind, text(v, &p)), (InvalidPort, "65536".to_owned()));
        assert_eq!(
            kinds("https://example.com:99999999999999999999/"),
            vec![InvalidPort]
        );
        assert_eq!(kinds("https://example.com:80:90/"), vec![InvalidPort]);
        assert_eq!(kinds("https://example.com:0/"), vec![]);
        assert_eq!(kinds("https://:80/"), vec![MissingHost]);
    }

    #[test]
    fn doubled_scheme() {
        let v = "https://https://example.com/x";
        let p = one(v);
        assert_eq!(p.kind, InvalidHost);
        assert_eq!(text(v, &p), "https://");
        assert!(p.help.unwrap().ends_with("`https://example.com/x`"));
    }

    #[test]
    fn idn_hosts() {
        let v = "https://bücher.de/";
        assert_eq!(to_uri(v), "https://xn--bcher-kva.de/");
        assert_eq!(kinds(v), vec![NonAscii]);
        assert_eq!(to_uri("https://例え。jp/"), "https://xn--r8jz45g.jp/");
        assert_eq!(kinds("https://例え。jp/"), vec![NonAscii]);
        let long = "ü".repeat(60);
        assert_eq!(
            kinds(&format!("https://{long}.de/")),
            vec![NonAscii, InvalidHost]
        );
        assert_eq!(kinds("https://-ü.de/"), vec![NonAscii, InvalidHost]);
    }

    #[test]
    fn to_uri_conversions() {
        assert_eq!(to_uri("https://example.com/a b"), "https://example.com/a b");
        assert_eq!(
            to_uri("https://example.com/€"),
            "https://example.com/%E2%82%AC"
        );
        assert_eq!(
            to_uri("https://example.com/😀"),
            "https://example.com/%F0%9F%98%80"
        );
        assert_eq!(to_uri("/ä"), "/%C3%A4");
        assert_eq!(
            to_uri("https://ü@example.com/"),
            "https://%C3%BC@example.com/"
        );
        assert_eq!(to_uri("https://BÜCHER.de/"), "https://xn--bcher-kva.de/");
        assert_eq!(to_uri("https://bü cher.de/"), "https://b%C3%BC cher.de/");
        assert_eq!(to_uri(""), "");
    }

    #[test]
    fn order_and_cap() {
        let v = format!("https://example.com/{}", "a b".repeat(30));
        let ps = check_http_url(&v);
        assert_eq!(ps.len(), MAX_PROBLEMS);
        assert!(ps.windows(2).all(|w| w[0].range.start <= w[1].range.start));
        let v = "https://us er@exa mple.com:x/a<b#c d";
        let ks = kinds(v);
        assert_eq!(
            ks,
            vec![
                Credentials,
                Whitespace,
                Whitespace,
                InvalidPort,
                InvalidChar,
                Fragment,
                Whitespace
            ]
        );
    }

    #[test]
    fn elides_long_text() {
        let v = format!("/{}", "x".repeat(500));
        let p = one(&v);
        assert!(p.message.len() < 200, "{}", p.message);
        assert!(p.message.contains('…'));
    }

    #[test]
    fn typo_distance() {
        assert_eq!(edit_distance(b"http", b"http"), 0);
        assert_eq!(edit_distance(b"htpt", b"http"), 1);
        assert_eq!(edit_distance(b"ftp", b"http"), 2);
        assert_eq!(edit_distance(b"averyverylongscheme", b"http"), usize::MAX);
        assert_eq!(scheme_typo(b"htp"), Some("http"));
        assert_eq!(scheme_typo(b"htps"), Some("https"));
        assert_eq!(scheme_typo(b"ftp"), None);
        assert_eq!(scheme_typo(b"ws"), None);
        assert_eq!(kinds("ftps://example.com/"), vec![UnsupportedScheme]);
        assert!(one("ftps://example.com/")
            .message
            .starts_with("unsupported"));
    }

    #[test]
    fn host_heuristics() {
        for h in [
            "example.com",
            "www.example",
            "a.b.c.museum",
            "localhost",
            "localhost:8080",
            "192.0.2.1",
            "[::1]",
            "xn--r8jz45g.xn--wgv71a",
            "例え.テスト",
            "example.com:443",
        ] {
            assert!(looks_like_host(h), "{h}");
        }
        for h in [
            "",
            "about.html",
            "index.php",
            "page",
            ".com",
            "example.",
            "a b.com",
            "x.1",
            "img.png",
            "a@b.com",
        ] {
            assert!(!looks_like_host(h), "{h}");
        }
    }

    #[test]
    fn url_crate_would_repair_these() {
        // The WHATWG parser accepts all of these silently; the checker must not.
        for v in [
            "https://example.com/a b",
            "https:example.com",
            "https://example.com\\a",
            "https://example.com/%zz",
            "https://example.com/a\tb",
            "http:/example.com",
            "https:///example.com",
        ] {
            assert!(url::Url::parse(v).is_ok(), "{v}");
            assert!(kinds(v).iter().any(|k| k.is_error()), "{v}");
        }
    }

    /// The URL a help text ends with, if any (elided ones excluded).
    fn suggested(help: &str) -> Option<&str> {
        let body = help.strip_suffix('`')?;
        let start = body.rfind('`')? + 1;
        let url = &body[start..];
        let after_scheme = url.split_once("://").map_or("", |(_, rest)| rest);
        (url.starts_with("http") && !after_scheme.is_empty() && !url.contains('…')).then_some(url)
    }

    #[test]
    fn suggestions_fix_every_error() {
        // The help of each problem shows a URL without any error, or none at all.
        let v = "htp://example.com/a b";
        let ps = check_http_url(v);
        assert_eq!(ps.len(), 2);
        for p in &ps {
            let help = p.help.as_deref().unwrap();
            assert_eq!(suggested(help), Some("http://example.com/a%20b"), "{help}");
            assert!(help.contains("with every error fixed"), "{help}");
        }
        let p = of("/a b", Relative);
        assert_eq!(
            p.help.as_deref(),
            Some("write the full URL with scheme and host, e.g. `https://example.com/a%20b`")
        );
        // a fragment's help must not suggest a URL that is still invalid
        let p = of("https://example.com/a b#frag", Fragment);
        assert_eq!(
            p.help.as_deref(),
            Some("remove it: each fragment makes another entry for the same page; with the errors fixed too: `https://example.com/a%20b`")
        );
        // no URL when one problem cannot be corrected
        let p = of("https://example.com:80a/a b", Whitespace);
        assert_eq!(p.help.as_deref(), Some("percent-encode it as `%20`"));
        // non-ASCII stays when an error is fixed (a warning of its own)
        let p = of("https://example.com/café b", Whitespace);
        assert_eq!(
            suggested(p.help.as_deref().unwrap()),
            Some("https://example.com/café%20b")
        );
        // overlapping corrections: the slashes are rewritten as a whole
        let p = one(r"http:\\example.com");
        assert!(p.help.unwrap().ends_with("`http://example.com`"));
        let p = of(r"http:\example.com/", MissingHost);
        assert_eq!(p.help.as_deref(), Some("write it as `http://example.com/`"));
    }

    #[test]
    fn relative_references_take_the_base() {
        let base = origin("https://www.example.org:8443/a/b?c#d");
        assert_eq!(base, None, "a fragment is a problem");
        let base = origin("https://www.example.org:8443/a/b?c");
        assert_eq!(base, Some("https://www.example.org:8443"));
        assert_eq!(origin("http://a.example"), Some("http://a.example"));
        assert_eq!(origin("/about"), None);
        let p = check_http_url_with_base("/about", base).remove(0);
        assert_eq!(
            p.help.as_deref(),
            Some("write the full URL with the scheme and host the other entries have: `https://www.example.org:8443/about`")
        );
        let p = check_http_url_with_base("//cdn.example.org/x", Some("http://a.example")).remove(0);
        assert_eq!(
            p.help.as_deref(),
            Some("add the scheme: `http://cdn.example.org/x`")
        );
    }

    #[test]
    fn backquotes_are_quoted_readably() {
        let p = one("https://example.com/a`b");
        assert_eq!(p.message, "character `` ` `` is not allowed in the path");
        let p = one("https://example.com/a}|b");
        assert_eq!(p.message, "characters `}|` are not allowed in the path");
    }

    /// A small deterministic generator for robustness checks.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 16) as usize
        }
    }

    #[test]
    fn never_panics_and_keeps_invariants() {
        const PIECES: &[&str] = &[
            "http",
            "https",
            "HTTP",
            "htp",
            ":",
            "/",
            "//",
            "\\",
            "?",
            "#",
            "@",
            "%",
            "%4",
            "%41",
            "%zz",
            "[",
            "]",
            "[::1]",
            ":80",
            ":",
            "例",
            "é",
            "ü",
            " ",
            "\t",
            "\n",
            "\u{200E}",
            "\u{FFFD}",
            "\u{A0}",
            "\u{3000}",
            "a",
            "b",
            ".",
            "..",
            "-",
            "xn--",
            "1",
            "255",
            "999",
            "\u{3002}",
            "\u{10FFFF}",
            "\u{E000}",
            "\u{1}",
            "\u{85}",
            "\"",
            "<",
            "www.",
            "com",
            "example",
            "user:pw@",
            "ftp",
            "'",
            "\u{FEFF}",
            "ｈ",
            "😀",
            "~",
            "!",
            "=",
        ];
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _ in 0..30_000 {
            let n = rng.next() % 12;
            let mut v = String::new();
            for _ in 0..n {
                v.push_str(PIECES[rng.next() % PIECES.len()]);
            }
            let ps = check_http_url(&v);
            assert!(ps.len() <= MAX_PROBLEMS, "{v:?}");
            assert_eq!(
                v.is_empty(),
                ps.first().is_some_and(|p| p.kind == Empty),
                "{v:?}"
            );
            for w in ps.windows(2) {
                assert!(w[0].range.start <= w[1].range.start, "{v:?}: {ps:#?}");
            }
            for p in &ps {
                if p.kind != Empty {
                    assert!(p.range.start < p.range.end, "{v:?}: {p:?}");
                }
                assert!(p.range.end <= v.len(), "{v:?}: {p:?}");
                assert!(v.is_char_boundary(p.range.start), "{v:?}: {p:?}");
                assert!(v.is_char_boundary(p.range.end), "{v:?}: {p:?}");
                let first = p.message.chars().next().unwrap();
                assert!(first.is_ascii_lowercase(), "{v:?}: {p:?}");
                assert!(!p.message.ends_with('.'), "{v:?}: {p:?}");
                if let Some(h) = &p.help {
                    assert!(
                        h.chars().next().unwrap().is_ascii_lowercase(),
                        "{v:?}: {p:?}"
                    );
                    assert!(!h.ends_with('.'), "{v:?}: {p:?}");
                    if let Some(url) = suggested(h) {
                        let left = check_http_url(url);
                        assert!(
                            !left.iter().any(|q| q.kind.is_error() || q.kind == p.kind),
                            "{v:?}: {p:?} suggests {url:?}, which has {left:#?}"
                        );
                    }
                }
            }
            // one problem per kind per contiguous run
            for (i, a) in ps.iter().enumerate() {
                for b in &ps[i + 1..] {
                    if a.kind == b.kind {
                        assert!(
                            a.range.end < b.range.start
                                || a.range.start > b.range.end
                                || a.range.end == b.range.start && a.kind == InvalidHost,
                            "{v:?}: {ps:#?}"
                        );
                    }
                }
            }
            let uri = to_uri(&v);
            assert!(uri.is_ascii(), "{v:?} -> {uri:?}");
            if v.is_ascii() {
                assert_eq!(uri, v);
            }
            assert!(
                !check_http_url(&uri).iter().any(|p| p.kind == NonAscii),
                "{v:?} -> {uri:?}"
            );
        }
    }
}
