//! The RFC 3986/3987 grammar: [`Checker`] walks a value part by part and records findings.

use std::net::Ipv6Addr;
use std::ops::Range;

use super::chars::{is_iri_char, is_label_separator, is_scheme_char, is_slash};
use super::near_miss::{
    fold_fullwidth_scheme, looks_like_host, missing_colon, scheme_typo, SchemeName,
};
use super::ProblemKind;

// ---------------------------------------------------------------------------------------------
// Parsing

/// The component a character stands in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Part {
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
    pub(super) fn name(self) -> &'static str {
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
pub(super) enum Ipv4Issue {
    /// Not 4 parts, and not every part a number: browsers reject it.
    Parts(usize),
    /// 1 to 3 parts, every one a number (decimal, or hex with `0x`): a reg-name to RFC 3986,
    /// a shortened IPv4 address to browsers (`1.2.3` is `1.2.0.3`).
    Shortened(usize),
    NotDecimal,
    Over255,
    LeadingZero,
}

/// Why a finding was made; rendered into a message and help at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Issue {
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
pub(super) struct Finding {
    pub(super) kind: ProblemKind,
    pub(super) range: Range<usize>,
    pub(super) issue: Issue,
}

pub(super) struct Checker<'a> {
    pub(super) v: &'a str,
    pub(super) findings: Vec<Finding>,
    /// The reg-name host (not an IP literal), once found.
    pub(super) host: Option<Range<usize>>,
    /// The origin (`https://example.com`) relative references are completed with in help texts.
    pub(super) base: Option<&'a str>,
}

/// Index of the first byte at or after `from` that ends an authority, or the length.
pub(super) fn authority_end(b: &[u8], from: usize) -> usize {
    b[from..]
        .iter()
        .position(|&x| matches!(x, b'/' | b'\\' | b'?' | b'#'))
        .map_or(b.len(), |p| from + p)
}

impl<'a> Checker<'a> {
    pub(super) fn new(v: &'a str) -> Self {
        Checker {
            v,
            findings: Vec::new(),
            host: None,
            base: None,
        }
    }

    /// The origin suggested for relative references.
    pub(super) fn base(&self) -> &'a str {
        self.base.unwrap_or("https://example.com")
    }

    /// The scheme suggested for URLs without one: the base's, else `https`.
    pub(super) fn scheme(&self) -> &'a str {
        self.base
            .and_then(|b| b.split_once("://"))
            .map_or("https", |(scheme, _)| scheme)
    }

    pub(super) fn push(&mut self, kind: ProblemKind, range: Range<usize>, issue: Issue) {
        // Every range is non-empty by construction; never let a slip become a panic later.
        if range.start < range.end && range.end <= self.v.len() {
            self.findings.push(Finding { kind, range, issue });
        }
    }

    /// Records a character-level finding, merging it into the previous one when that is of the
    /// same kind, in the same part and ends where this one starts.
    pub(super) fn push_char(&mut self, kind: ProblemKind, range: Range<usize>, part: Part) {
        if let Some(last) = self.findings.last_mut() {
            if last.kind == kind && last.issue == Issue::Char(part) && last.range.end == range.start
            {
                last.range.end = range.end;
                return;
            }
        }
        self.push(kind, range, Issue::Char(part));
    }

    pub(super) fn run(&mut self) {
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
    pub(super) fn with_colon(&mut self, colon: usize) -> bool {
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
    pub(super) fn scan_scheme_junk(&mut self, colon: usize) {
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
    pub(super) fn hier(&mut self, colon: usize) {
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
    pub(super) fn without_scheme(&mut self, first_delim: usize) {
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
    pub(super) fn authority(&mut self, start: usize, report_empty: bool) {
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

    pub(super) fn ip_literal(&mut self, open: usize, close: usize) {
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
    pub(super) fn host(&mut self, start: usize, end: usize) {
        let v = self.v;
        self.host = Some(start..end);
        let before = self.findings.len();
        self.scan(start, end, Part::Host);
        let clean_chars = self.findings.len() == before;
        // Percent-escapes count: the length of a label is that of its decoded form.
        let bad_chars = self.findings[before..]
            .iter()
            .any(|f| matches!(f.kind, ProblemKind::InvalidHost | ProblemKind::UnusualHost));
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
    pub(super) fn label(&mut self, start: usize, end: usize, bad_chars: bool) {
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

    /// Checks a host whose last label is numeric: four parts must be a dotted-decimal IPv4
    /// address; another number of parts is a reg-name to RFC 3986, which browsers read as an
    /// IPv4 address all the same (`1.2.3` as `1.2.0.3`).
    pub(super) fn ipv4(&mut self, start: usize, end: usize) {
        let host = &self.v[start..end];
        let parts = host.split('.').count();
        if parts != 4 {
            let number = |p: &str| match p.strip_prefix("0x").or_else(|| p.strip_prefix("0X")) {
                Some(hex) => hex.bytes().all(|x| x.is_ascii_hexdigit()),
                None => !p.is_empty() && p.bytes().all(|x| x.is_ascii_digit()),
            };
            if parts < 4 && host.split('.').all(number) {
                self.push(
                    ProblemKind::UnusualHost,
                    start..end,
                    Issue::Ipv4(Ipv4Issue::Shortened(parts)),
                );
            } else {
                self.push(
                    ProblemKind::InvalidHost,
                    start..end,
                    Issue::Ipv4(Ipv4Issue::Parts(parts)),
                );
            }
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

    pub(super) fn port(&mut self, start: usize, end: usize) {
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
    pub(super) fn path_etc(&mut self, start: usize) {
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
    pub(super) fn scan(&mut self, start: usize, end: usize, part: Part) {
        let v = self.v;
        let b = v.as_bytes();
        let mut i = start;
        while i < end {
            let x = b[i];
            if x == b'%' {
                if i + 2 < end && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() {
                    if part == Part::Host {
                        self.push_char(ProblemKind::UnusualHost, i..i + 3, part);
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
pub(super) fn classify_ascii(x: u8, part: Part) -> Option<ProblemKind> {
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
