//! Rendering: the message and help text of each finding.

use super::chars::{is_bidi_control, is_invisible, is_iri_char, percent_encoded};
use super::fix::{repair, suggestion, Fix};
use super::grammar::{Checker, Finding, Ipv4Issue, Issue, Part};
use super::{Problem, ProblemKind};

// ---------------------------------------------------------------------------------------------
// Rendering

/// `text` in backticks, its middle elided when long.
pub(super) fn code(text: &str) -> String {
    elided(text, 40, 20)
}

/// A suggested URL in backticks: shown whole unless very long, so that it can be copied.
pub(super) fn code_url(url: &str) -> String {
    elided(url, 200, 60)
}

/// `text` in backticks (double ones around text with a backquote, as Markdown does), its middle
/// elided when it has more than `head + tail + 10` characters.
pub(super) fn elided(text: &str, head: usize, tail: usize) -> String {
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

pub(super) fn char_name(c: char) -> Option<&'static str> {
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
pub(super) fn code_points(text: &str) -> String {
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
pub(super) fn is_visible(text: &str) -> bool {
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
pub(super) fn shown(text: &str) -> String {
    if is_visible(text) {
        code(text)
    } else {
        code_points(text)
    }
}

pub(super) fn it(text: &str) -> &'static str {
    if text.chars().nth(1).is_some() {
        "them"
    } else {
        "it"
    }
}

/// `text`, then the corrected URL if there is one.
pub(super) fn with_url(text: &str, fix: Option<&Fix>) -> String {
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

pub(super) fn render(value: &str, checker: &Checker<'_>, f: &Finding) -> Problem {
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
                Ipv4Issue::Shortened(n) => (
                    format!("host {} is {n} {}: browsers read it as a shortened IPv4 address", code(text), if n == 1 { "number" } else { "numbers" }),
                    Some("to RFC 3986 it is a name, to browsers and crawlers an IPv4 address: write the address's four decimal numbers, e.g. `192.0.2.1`, or a host name".to_owned()),
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
        repair: repair(value, checker, f),
    }
}

pub(super) fn render_char(
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
        ProblemKind::UnusualHost => (
            format!("percent-encoded {} in the host name", code(text)),
            Some(
                "crawlers decode it before looking the host up (RFC 3986 allows it): write the host name without percent-encoding (punycode for non-ASCII)"
                    .to_owned(),
            ),
        ),
        ProblemKind::InvalidHost => (
            format!(
                "{} {} {} not allowed in a host name",
                if several { "characters" } else { "character" },
                code(text),
                if several { "are" } else { "is" }
            ),
            Some("a host name may contain only letters, digits, `-`, `_` and `.`".to_owned()),
        ),
        kind => (format!("{} {}", kind.as_str(), code(text)), None),
    }
}
