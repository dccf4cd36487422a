//! The corrected URL a finding's help offers.

use std::ops::Range;

use super::chars::{is_bidi_control, is_invisible, percent_encode_char};
use super::grammar::{Checker, Finding, Ipv4Issue, Issue, Part};
use super::{ProblemKind, Repair};

/// What a character flagged as `kind` in `part` becomes in the corrected URL, or `None` when
/// no correction can be derived.
pub(super) fn replacement(
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
pub(super) fn edit(
    value: &str,
    checker: &Checker<'_>,
    f: &Finding,
) -> Option<(Range<usize>, String)> {
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

/// The correction of the finding `f` alone (see [`Repair`]).
pub(super) fn repair(value: &str, checker: &Checker<'_>, f: &Finding) -> Option<Repair> {
    if f.issue == Issue::Relative {
        // Completed with an origin the help only guesses: the caller resolves it against the
        // sitemap's own URL, if it knows it.
        return None;
    }
    let (range, with) = edit(value, checker, f)?;
    let text = &value[f.range.clone()];
    let certain = match f.issue {
        Issue::Char(Part::Path | Part::Query | Part::Fragment) => match f.kind {
            // Spaces percent-encoded (not removed at the end, not tabs or line breaks).
            ProblemKind::Whitespace => text.bytes().all(|b| b == b' ') && !with.is_empty(),
            // Not `[` `]`: reserved, so `%5B` is not the same URL for every reader.
            ProblemKind::Quote => true,
            ProblemKind::InvalidChar => text.is_ascii() && !text.contains(['[', ']']),
            ProblemKind::NonAscii => !text.chars().any(|c| is_invisible(c) || is_bidi_control(c)),
            _ => false,
        },
        Issue::HostNonAscii => true,
        _ => false,
    };
    Some(Repair {
        range,
        with,
        certain,
    })
}

/// A corrected URL offered in a help text.
pub(super) struct Fix {
    pub(super) url: String,
    /// Whether problems of other kinds than the one the help is about were corrected too.
    pub(super) others: bool,
    /// Whether the help is about an error (else a warning, corrected together with the errors).
    pub(super) for_error: bool,
}

/// The URL with the problem `f` corrected, and with it every error, so that the suggestion is
/// itself a valid URL: `None` when some correction cannot be derived or the result would still
/// be invalid. Warnings of other kinds (a fragment, non-ASCII characters) are left alone.
pub(super) fn suggestion(value: &str, checker: &Checker<'_>, f: &Finding) -> Option<Fix> {
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
