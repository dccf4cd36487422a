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

use std::ops::Range;

mod any_uri;
mod chars;
mod fast_path;
mod fix;
mod grammar;
mod messages;
mod near_miss;

pub use any_uri::{check_any_uri, AnyUriProblem};
use chars::percent_encode_non_ascii;
pub(crate) use fast_path::{is_plain_host_byte, is_plain_http_url};
use grammar::{authority_end, Checker};
use messages::render;

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
    /// A host that RFC 3986 allows as a reg-name but that browsers and crawlers read otherwise:
    /// percent-encoded (`www.ex%41mple.com`), or ending in a number without being a dotted-decimal
    /// IPv4 address (`1.2.3`, which they read as the IPv4 address `1.2.0.3`).
    UnusualHost,
}

impl ProblemKind {
    /// Every kind, in declaration order.
    pub const ALL: [ProblemKind; 17] = [
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
        ProblemKind::UnusualHost,
    ];

    /// Whether the value is not a valid absolute `http(s)` URI. `NonAscii`, `Fragment`,
    /// `Credentials` and `UnusualHost` are warnings: the URI is valid, but crawlers want something
    /// else.
    pub fn is_error(self) -> bool {
        !matches!(
            self,
            ProblemKind::NonAscii
                | ProblemKind::Fragment
                | ProblemKind::Credentials
                | ProblemKind::UnusualHost
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
            ProblemKind::UnusualHost => "unusual-host",
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
    /// The correction of this problem alone, when one can be derived (see [`Repair`]).
    pub repair: Option<Repair>,
}

/// The correction of one problem: `range` of the checked value becomes `with`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Repair {
    pub range: Range<usize>,
    pub with: String,
    /// Whether the corrected URL is the one the writer meant, for certain: a space, a
    /// character not allowed in the path, query or fragment (`"`, `<`, `{`, `|`, …) or a
    /// non-ASCII character percent-encoded, a non-ASCII host converted to punycode. Other
    /// corrections are readings: a misspelled scheme, a backslash, a stray `%`, a line break
    /// removed, a scheme added.
    pub certain: bool,
}

impl Repair {
    /// What a fix made of `repairs` (of problems of `value`, not overlapping) does, in words:
    /// `replace \` \` with \`%20\``, or the whole URL before and after when there are several.
    pub fn describe(value: &str, repairs: &[&Repair]) -> String {
        let clip = |s: &str| -> String {
            match s.char_indices().nth(80) {
                Some((at, _)) => format!("{}…", &s[..at]),
                None => s.to_owned(),
            }
        };
        if let [one] = repairs {
            let old = value.get(one.range.clone()).unwrap_or("");
            return match (old.is_empty(), one.with.is_empty()) {
                (true, _) => format!("insert `{}`", clip(&one.with)),
                (false, true) => format!("remove `{}`", clip(old)),
                (false, false) => format!("replace `{}` with `{}`", clip(old), clip(&one.with)),
            };
        }
        let mut sorted: Vec<&&Repair> = repairs.iter().collect();
        sorted.sort_by_key(|r| (r.range.start, r.range.end));
        let mut new = String::with_capacity(value.len() + 16);
        let mut done = 0;
        for r in sorted {
            new.push_str(value.get(done..r.range.start).unwrap_or(""));
            new.push_str(&r.with);
            done = r.range.end.max(done);
        }
        new.push_str(value.get(done..).unwrap_or(""));
        format!("replace `{}` with `{}`", clip(value), clip(&new))
    }
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

/// [`check_http_url_with_base`] without the fast path for plain URLs.
fn check_full(value: &str, base: Option<&str>) -> Vec<Problem> {
    if value.is_empty() {
        return vec![Problem {
            kind: ProblemKind::Empty,
            range: 0..0,
            message: "empty URL".to_owned(),
            help: Some("write the absolute `http` or `https` URL of the page".to_owned()),
            fix: None,
            repair: None,
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

#[cfg(test)]
mod tests {
    use super::fast_path::{first_not_plain, PLAIN_URL_BYTE};
    use super::near_miss::{edit_distance, looks_like_host, scheme_typo};
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
                !matches!(k, NonAscii | Fragment | Credentials | UnusualHost),
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
        // Valid to RFC 3986 (a pct-encoded reg-name); crawlers decode it: a warning.
        assert_eq!(kinds("https://ex%61mple.com/"), vec![UnusualHost]);
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
        // A reg-name to RFC 3986, a shortened IPv4 address to browsers: a warning.
        let v = "http://1.2.3/";
        assert_eq!(kinds(v), vec![UnusualHost]);
        assert!(one(v).message.contains("shortened IPv4"));
        assert_eq!(kinds("http://0x7f.1/"), vec![UnusualHost]);
        // Not numbers all through, or too many parts: browsers reject it.
        assert!(one("http://1.2.3.4.5/").message.contains("5 parts"));
        let v = "http://010.0.0.1/";
        let p = one(v);
        assert_eq!(text(v, &p), "010");
        assert!(p.help.unwrap().ends_with("`http://10.0.0.1/`"));
        assert_eq!(kinds("http://0x7f.0.0.1/"), vec![InvalidHost]);
        assert_eq!(kinds("http://12345/"), vec![UnusualHost]);
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
