//! Checks the XML declaration (`<?xml … ?>`) at the start of a sitemap for the rules roxmltree does not enforce.
//!
//! roxmltree 0.21 accepts declarations that are not XML 1.0 (`version="2.0"`,
//! `standalone="YES"`, `<?XML …?>`, values with stray spaces) or that
//! contradict the sitemap protocol (`encoding="ISO-8859-1"`), and it fails with
//! a confusing "unexpected declaration" error when anything precedes `<?xml`.
//! [`check_prolog`] looks at the start of the decoded text (UTF-8 BOM already
//! removed), reports those problems with exact byte ranges (typed: the rules
//! `leading-whitespace`, `xml-declaration` and `xml-declaration-encoding` word
//! them), and tells the
//! caller how many bytes of leading whitespace to skip so that the parser can
//! still read the rest of the document.
//!
//! The scan is bounded: a misplaced declaration is only looked for within
//! [`PREFIX_LIMIT`] bytes after the leading whitespace, and a declaration is
//! only read up to [`DECL_LIMIT`] bytes, so a large document without a
//! declaration costs next to nothing.

use crate::pipeline::source::floor_char_boundary;
use crate::values::finding::Edit;
use crate::values::text::excerpt as show;
use std::ops::Range;

/// How far (in bytes, after the leading whitespace) `<?xml` is looked for when
/// other content precedes it.
pub const PREFIX_LIMIT: usize = 1024;

/// How many bytes of a declaration are read, starting at `<?`, before it is
/// considered unterminated.
pub const DECL_LIMIT: usize = 1024;

/// The pseudo-attributes of the XML declaration, in their required order.
const NAMES: [&str; 3] = ["version", "encoding", "standalone"];
const VERSION: usize = 0;
const ENCODING: usize = 1;
const STANDALONE: usize = 2;

/// What is wrong with the start of the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProblemKind {
    /// whitespace (or blank lines) before `<?xml`: a common generator bug, Google reports "Leading whitespace"
    LeadingWhitespace,
    /// other content before `<?xml` (e.g. text, a comment, or a second BOM): the declaration must be the very first thing
    NotAtStart,
    /// the declaration's syntax is broken: missing `version`, attributes out of order (version, encoding, standalone is the required order), unquoted or mismatched quotes, missing `?>`, unknown pseudo-attribute, duplicate, no whitespace between pseudo-attributes, `<?XML` / `<?Xml` (the target must be lowercase `xml`)
    Malformed,
    /// version other than exactly `1.0` (e.g. `1.1`, `2.0`, `1.0 `, `1`)
    Version,
    /// encoding other than UTF-8 (case-insensitive; `UTF8` without hyphen is not a valid IANA name either: flag it with help `UTF-8`); also values with surrounding spaces
    Encoding,
    /// standalone other than exactly `yes` or `no`
    Standalone,
}

/// One problem found in the prolog.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub kind: ProblemKind,
    /// Non-empty byte range into the checked text, on char boundaries.
    pub range: Range<usize>,
    /// What it is, with the data its message needs.
    pub found: Found,
    /// The edit that fixes it, when the intended text is certain.
    pub edit: Option<Edit>,
}

impl Problem {
    fn new(kind: ProblemKind, range: Range<usize>, found: impl Into<Found>) -> Self {
        Problem {
            kind,
            range,
            found: found.into(),
            edit: None,
        }
    }

    fn with_edit(mut self, edit: Edit) -> Self {
        self.edit = Some(edit);
        self
    }
}

/// What a [`Problem`] is, by the rule that words it. Names and values are quoted as written
/// (the declaration is read no further than [`DECL_LIMIT`] bytes).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Found {
    /// `leading-whitespace`: `lines` line breaks (CRLF counts once), and besides them `spaces`
    /// spaces and `tabs` tabs, before `<?xml`.
    Leading {
        lines: usize,
        spaces: usize,
        tabs: usize,
    },
    /// `xml-declaration-encoding`.
    Encoding(EncodingValue),
    /// `xml-declaration`.
    Declaration(Declaration),
}

impl From<EncodingValue> for Found {
    fn from(e: EncodingValue) -> Self {
        Found::Encoding(e)
    }
}

impl From<Declaration> for Found {
    fn from(d: Declaration) -> Self {
        Found::Declaration(d)
    }
}

/// An `encoding` other than `UTF-8`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EncodingValue {
    Empty,
    /// `UTF-8` with whitespace around it.
    Whitespace(String),
    /// `UTF8` (possibly with whitespace around it), not a valid name.
    NoHyphen(String),
    /// Another encoding.
    Other(String),
}

/// What is wrong with the declaration, or before it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Declaration {
    /// `count` byte order marks before `<?xml`, and nothing else.
    StrayBoms { count: usize },
    /// A comment before `<?xml`.
    CommentBefore,
    /// Other content before `<?xml` (an excerpt of it).
    ContentBefore { excerpt: String },
    /// `<?XML` (the target as written).
    TargetCase { written: String },
    /// `>` where `?>` should end it.
    EndsWithGt,
    /// `?`, `=` or a quote where a pseudo-attribute should start.
    Unexpected { found: char },
    /// No whitespace before the pseudo-attribute `name`.
    MissingSpace { name: String },
    /// No `=` after `name`.
    ExpectedEq { name: String },
    /// `name=` and no value.
    NoValue { name: String },
    /// `name=value` without quotes.
    Unquoted { name: String, value: String },
    /// The value of `name` opens with `open` and closes with `close`.
    MismatchedQuotes {
        name: String,
        open: char,
        close: char,
    },
    /// The value of `name` has no closing `quote`.
    UnterminatedValue { name: String, quote: char },
    /// A pseudo-attribute other than `version`, `encoding`, `standalone`.
    UnknownAttribute { name: String },
    /// `name` is `canonical` in another letter case.
    NameCase {
        name: String,
        canonical: &'static str,
    },
    /// `canonical` a second time.
    Duplicate { canonical: &'static str },
    /// `version` after another pseudo-attribute.
    VersionNotFirst,
    /// `encoding` after `standalone`.
    EncodingAfterStandalone,
    /// No `version`.
    NoVersion,
    /// No `?>`.
    Unterminated,
    /// `version=""`.
    VersionEmpty,
    /// `1.0` with whitespace around it.
    VersionWhitespace(String),
    /// `1.1`.
    Version11,
    /// Any other version.
    VersionUnknown(String),
    /// `standalone=""`.
    StandaloneEmpty,
    /// A `standalone` other than `yes` or `no`.
    StandaloneOther(String),
}

/// What [`check_prolog`] found at the start of the document.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Prolog {
    /// Byte range of the declaration `<?xml … ?>` (from `<` through `?>`) when
    /// one was found and is terminated by `?>`, else None.
    pub decl: Option<Range<usize>>,
    /// Number of bytes of leading XML whitespace (space, tab, CR, LF) before a `<?xml` declaration; 0 when none or when there is no declaration after it.
    /// The caller parses `&text[skip..]` so that the XML parser does not stop at the misplaced declaration; set it only when the remainder starts with `<?xml` (any case) so the parser can continue.
    pub skip: usize,
    /// The value of encoding= if present, with its range (for messages).
    /// The range is the value inside the quotes (empty only for `encoding=""`).
    pub encoding: Option<(String, Range<usize>)>,
    /// When the declaration is malformed or misplaced: the range from the first non-whitespace
    /// byte through the end of the declaration (as far as it can be told), whose problems are
    /// reported here. The XML parser must not see it (the caller blanks it out), so that it does
    /// not report the same mistake again and can check the rest of the document.
    pub blank: Option<Range<usize>>,
    /// Problems in document order.
    pub problems: Vec<Problem>,
}

/// Checks the start of `text` (decoded, BOM removed) for the XML declaration
/// rules roxmltree does not enforce. A document without a declaration is fine.
pub fn check_prolog(text: &str) -> Prolog {
    let bytes = text.as_bytes();
    let mut prolog = Prolog::default();
    // The whitespace run is scanned to its end: it stops at the first other
    // byte, and the XML parser has to walk over it anyway.
    let ws = bytes.iter().take_while(|&&b| is_xml_ws(b)).count();
    let start = if is_decl_start(bytes, ws) {
        if ws > 0 {
            prolog.skip = ws;
            prolog.problems.push(leading_whitespace(&text[..ws]));
        }
        ws
    } else {
        match find_misplaced_decl(bytes, ws) {
            Some(pos) => {
                prolog.problems.push(not_at_start(text, ws, pos));
                pos
            }
            None => return prolog,
        }
    };
    let extent_end = parse_decl(text, start, &mut prolog);
    if prolog
        .problems
        .iter()
        .any(|p| matches!(p.kind, ProblemKind::NotAtStart | ProblemKind::Malformed))
    {
        prolog.blank = Some(ws..extent_end.max(ws));
    }
    prolog.problems.sort_by_key(|p| p.range.start);
    prolog
}

/// XML whitespace (production `S`).
fn is_xml_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

fn trim_xml_ws(s: &str) -> &str {
    s.trim_matches(|c| matches!(c, ' ' | '\t' | '\r' | '\n'))
}

/// `<?xml` in any case, followed by whitespace, `?` or the end of the text
/// (so `<?xml-stylesheet` is not a declaration).
fn is_decl_start(bytes: &[u8], i: usize) -> bool {
    let Some(head) = bytes.get(i..i.saturating_add(5)) else {
        return false;
    };
    if !(head.starts_with(b"<?") && head[2..].eq_ignore_ascii_case(b"xml")) {
        return false;
    }
    match bytes.get(i + 5) {
        None => true,
        Some(&b) => is_xml_ws(b) || b == b'?',
    }
}

fn find_bytes(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// Looks for `<?xml` after some other content that starts at `from`. Gives up
/// after [`PREFIX_LIMIT`] bytes and at the first element tag (a `<?xml` after
/// that is inside the document, which the XML parser reports). Comments are
/// skipped so that `<?xml` quoted inside one is not taken for a declaration.
fn find_misplaced_decl(bytes: &[u8], from: usize) -> Option<usize> {
    let stop = bytes.len().min(from.saturating_add(PREFIX_LIMIT));
    let mut i = from;
    while i < stop {
        if bytes[i] == b'<' {
            if is_decl_start(bytes, i) {
                return Some(i);
            }
            match bytes.get(i + 1) {
                Some(b'/' | b'a'..=b'z' | b'A'..=b'Z' | b'_' | b':' | 0x80..) => return None,
                Some(b'!') if bytes[i..].starts_with(b"<!--") => {
                    let body = i + 4;
                    let end = find_bytes(bytes.get(body..stop)?, b"-->")?;
                    i = body + end + 3;
                    continue;
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

fn leading_whitespace(ws: &str) -> Problem {
    let n = ws.len();
    let lines = ws.matches('\n').count() + ws.matches('\r').count() - ws.matches("\r\n").count();
    // Indentation besides the line breaks (CRLF counts as one line break).
    let spaces = ws.bytes().filter(|&b| b == b' ').count();
    let tabs = ws.bytes().filter(|&b| b == b'\t').count();
    Problem::new(
        ProblemKind::LeadingWhitespace,
        0..n,
        Found::Leading {
            lines,
            spaces,
            tabs,
        },
    )
    .with_edit(Edit::delete(0..n))
}

/// Content (after `ws` bytes of whitespace) before a declaration at `pos`.
fn not_at_start(text: &str, ws: usize, pos: usize) -> Problem {
    let bytes = text.as_bytes();
    let mut end = pos;
    while end > ws && is_xml_ws(bytes[end - 1]) {
        end -= 1;
    }
    let content = &text[ws..end];
    let range = ws..end;
    let boms = content.chars().filter(|&c| c == '\u{feff}').count();
    let found = if boms == content.chars().count() {
        Declaration::StrayBoms { count: boms }
    } else if content.len() >= 7 && content.starts_with("<!--") && content.ends_with("-->") {
        Declaration::CommentBefore
    } else {
        Declaration::ContentBefore {
            excerpt: show(content),
        }
    };
    Problem::new(ProblemKind::NotAtStart, range, found)
}

fn malformed(range: Range<usize>, found: Declaration) -> Problem {
    Problem::new(ProblemKind::Malformed, range, found)
}

/// How reading the declaration ended.
enum Outcome {
    /// `?>` found; the declaration ends at this offset.
    Complete(usize),
    /// neither `?>` nor a recognisable error before the end of the window
    Unterminated,
    /// a syntax error was reported; look for `?>` from this offset
    Broken(usize),
    /// a syntax error was reported; the declaration ends at this offset but without `?>`
    BrokenNoEnd(usize),
}

/// Reads the declaration that starts at `start` (`<?xml` in any case). Returns where the
/// declaration ends: after `?>`, or, when it is broken, where the document seems to resume.
fn parse_decl(text: &str, start: usize, prolog: &mut Prolog) -> usize {
    let bytes = text.as_bytes();
    let lim = floor_char_boundary(text, start.saturating_add(DECL_LIMIT));
    let problems = &mut prolog.problems;

    let target = start + 2..start + 5;
    if &bytes[target.clone()] != b"xml" {
        problems.push(malformed(
            target.clone(),
            Declaration::TargetCase {
                written: text[target].to_string(),
            },
        ));
    }

    let skip_ws = |mut i: usize| {
        while i < lim && is_xml_ws(bytes[i]) {
            i += 1;
        }
        i
    };
    let mut seen = [false; 3];
    let mut any_attr = false;
    let mut i = start + 5;
    let end = loop {
        let ws_start = i;
        i = skip_ws(i);
        if i >= lim {
            break Outcome::Unterminated;
        }
        let b = bytes[i];
        if b == b'?' && i + 1 < lim && bytes[i + 1] == b'>' {
            break Outcome::Complete(i + 2);
        }
        if b == b'<' {
            break Outcome::Unterminated;
        }
        if b == b'>' {
            problems.push(malformed(i..i + 1, Declaration::EndsWithGt));
            break Outcome::BrokenNoEnd(i + 1);
        }
        if matches!(b, b'?' | b'=' | b'"' | b'\'') {
            problems.push(malformed(
                i..i + 1,
                Declaration::Unexpected { found: b as char },
            ));
            break Outcome::Broken(i);
        }

        // Pseudo-attribute name.
        let name_start = i;
        while i < lim
            && !matches!(
                bytes[i],
                b' ' | b'\t' | b'\r' | b'\n' | b'=' | b'?' | b'>' | b'"' | b'\'' | b'<'
            )
        {
            i += 1;
        }
        let name_range = name_start..i;
        let name = &text[name_range.clone()];
        if ws_start == name_start {
            problems.push(malformed(
                name_range.clone(),
                Declaration::MissingSpace {
                    name: name.to_string(),
                },
            ));
        }

        // `=`
        i = skip_ws(i);
        if i >= lim {
            break Outcome::Unterminated;
        }
        if bytes[i] != b'=' {
            problems.push(malformed(
                name_range.clone(),
                Declaration::ExpectedEq {
                    name: name.to_string(),
                },
            ));
            break Outcome::Broken(i);
        }
        i = skip_ws(i + 1);
        if i >= lim {
            break Outcome::Unterminated;
        }

        // Quoted value.
        let quote = bytes[i];
        if quote != b'"' && quote != b'\'' {
            let value_start = i;
            while i < lim && !matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n' | b'?' | b'>' | b'<')
            {
                i += 1;
            }
            if value_start == i {
                problems.push(malformed(
                    name_range.clone(),
                    Declaration::NoValue {
                        name: name.to_string(),
                    },
                ));
            } else {
                problems.push(malformed(
                    value_start..i,
                    Declaration::Unquoted {
                        name: name.to_string(),
                        value: text[value_start..i].to_string(),
                    },
                ));
            }
            break Outcome::Broken(i);
        }
        let value_start = i + 1;
        let mut j = value_start;
        let mut other_quote = None;
        let close = loop {
            if j >= lim {
                break None;
            }
            let c = bytes[j];
            if c == quote {
                break Some(j);
            }
            if c == b'<' || (c == b'?' && bytes.get(j + 1) == Some(&b'>')) {
                break None;
            }
            if (c == b'"' || c == b'\'') && other_quote.is_none() {
                other_quote = Some(j);
            }
            j += 1;
        };
        if let Some(k) = other_quote {
            problems.push(malformed(
                i..k + 1,
                Declaration::MismatchedQuotes {
                    name: name.to_string(),
                    open: quote as char,
                    close: bytes[k] as char,
                },
            ));
            break Outcome::Broken(k + 1);
        }
        let Some(close) = close else {
            problems.push(malformed(
                i..i + 1,
                Declaration::UnterminatedValue {
                    name: name.to_string(),
                    quote: quote as char,
                },
            ));
            break Outcome::Broken(j);
        };
        let value_range = value_start..close;
        let quoted_range = i..close + 1;
        let value = &text[value_range.clone()];
        i = close + 1;

        // Which pseudo-attribute, and is it in its place?
        let Some(idx) = NAMES.iter().position(|n| n.eq_ignore_ascii_case(name)) else {
            problems.push(malformed(
                name_range,
                Declaration::UnknownAttribute {
                    name: name.to_string(),
                },
            ));
            any_attr = true;
            continue;
        };
        let canonical = NAMES[idx];
        if name != canonical {
            problems.push(malformed(
                name_range.clone(),
                Declaration::NameCase {
                    name: name.to_string(),
                    canonical,
                },
            ));
        }
        if seen[idx] {
            problems.push(malformed(name_range, Declaration::Duplicate { canonical }));
            continue;
        }
        if idx == VERSION && any_attr {
            problems.push(malformed(name_range, Declaration::VersionNotFirst));
        } else if idx == ENCODING && seen[STANDALONE] {
            problems.push(malformed(name_range, Declaration::EncodingAfterStandalone));
        }
        let problem = match idx {
            VERSION => check_version(value, value_range, quoted_range),
            ENCODING => {
                prolog.encoding = Some((value.to_string(), value_range.clone()));
                check_encoding(value, value_range, quoted_range)
            }
            _ => check_standalone(value, value_range, quoted_range),
        };
        problems.extend(problem);
        seen[idx] = true;
        any_attr = true;
    };

    // Where the document resumes when the declaration has no `?>`: at the next `<`.
    let resume = |from: usize| {
        let from = from.min(lim);
        bytes[from..lim]
            .iter()
            .position(|&b| b == b'<')
            .map_or(lim, |k| from + k)
    };
    match end {
        Outcome::Complete(end) => {
            prolog.decl = Some(start..end);
            if !seen[VERSION] {
                problems.push(malformed(start..start + 5, Declaration::NoVersion));
            }
            end
        }
        Outcome::Unterminated => {
            problems.push(malformed(start..start + 5, Declaration::Unterminated));
            resume(start + 2)
        }
        Outcome::Broken(from) => {
            // Find the end for `decl`, without reporting anything more and
            // without running into the document.
            let stop = resume(from);
            let base = from.min(stop);
            match find_bytes(&bytes[base..stop], b"?>") {
                Some(k) => {
                    let end = base + k + 2;
                    prolog.decl = Some(start..end);
                    end
                }
                None => stop,
            }
        }
        Outcome::BrokenNoEnd(end) => end,
    }
}

fn check_version(value: &str, range: Range<usize>, quoted: Range<usize>) -> Option<Problem> {
    if value == "1.0" {
        return None;
    }
    let (range, found) = if value.is_empty() {
        (quoted, Declaration::VersionEmpty)
    } else if trim_xml_ws(value) == "1.0" {
        (range, Declaration::VersionWhitespace(value.to_string()))
    } else if value == "1.1" {
        (range, Declaration::Version11)
    } else {
        (range, Declaration::VersionUnknown(value.to_string()))
    };
    Some(Problem::new(ProblemKind::Version, range, found))
}

fn check_encoding(value: &str, range: Range<usize>, quoted: Range<usize>) -> Option<Problem> {
    if value.eq_ignore_ascii_case("UTF-8") {
        return None;
    }
    let trimmed = trim_xml_ws(value);
    let (range, found) = if value.is_empty() {
        (quoted, EncodingValue::Empty)
    } else if trimmed.eq_ignore_ascii_case("UTF-8") {
        (range, EncodingValue::Whitespace(value.to_string()))
    } else if trimmed.eq_ignore_ascii_case("UTF8") {
        (range, EncodingValue::NoHyphen(value.to_string()))
    } else {
        (range, EncodingValue::Other(value.to_string()))
    };
    let problem = Problem::new(ProblemKind::Encoding, range.clone(), found);
    // A name the Encoding Standard reads as UTF-8 (`utf8`, ` UTF-8 `, `unicode-1-1-utf-8`)
    // means what `UTF-8` says: the text was decoded as UTF-8 to get here.
    Some(match encoding_rs::Encoding::for_label(trimmed.as_bytes()) {
        Some(e) if e == encoding_rs::UTF_8 && !trimmed.is_empty() => {
            problem.with_edit(Edit::replace(range, "UTF-8"))
        }
        _ => problem,
    })
}

fn check_standalone(value: &str, range: Range<usize>, quoted: Range<usize>) -> Option<Problem> {
    if value == "yes" || value == "no" {
        return None;
    }
    let (range, found) = if value.is_empty() {
        (quoted, Declaration::StandaloneEmpty)
    } else {
        (range, Declaration::StandaloneOther(value.to_string()))
    };
    Some(Problem::new(ProblemKind::Standalone, range, found))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A problem as its rule words it (`crate::rules::input::prolog_problem`).
    #[derive(Debug, Clone)]
    struct Worded {
        kind: ProblemKind,
        range: Range<usize>,
        message: String,
        help: Option<String>,
    }

    /// [`Prolog`] with its problems worded.
    #[derive(Debug)]
    struct Checked {
        decl: Option<Range<usize>>,
        skip: usize,
        encoding: Option<(String, Range<usize>)>,
        blank: Option<Range<usize>>,
        problems: Vec<Worded>,
        prolog: Prolog,
    }

    impl PartialEq<Prolog> for Checked {
        fn eq(&self, other: &Prolog) -> bool {
            self.prolog == *other
        }
    }

    /// [`super::check_prolog`], its problems worded by their rules.
    fn check_prolog(text: &str) -> Checked {
        let prolog = super::check_prolog(text);
        let problems = prolog
            .problems
            .iter()
            .map(|p| {
                let d = crate::rules::input::prolog_problem(p, p.range.clone());
                Worded {
                    kind: p.kind,
                    range: p.range.clone(),
                    message: d.message,
                    help: d.help,
                }
            })
            .collect();
        Checked {
            decl: prolog.decl.clone(),
            skip: prolog.skip,
            encoding: prolog.encoding.clone(),
            blank: prolog.blank.clone(),
            problems,
            prolog,
        }
    }

    fn kinds(p: &Checked) -> Vec<ProblemKind> {
        p.problems.iter().map(|p| p.kind).collect()
    }

    /// The single problem of `text`, with its kind and the text it points at.
    fn one(text: &str) -> (ProblemKind, &str, Worded) {
        let p = check_prolog(text);
        assert_eq!(p.problems.len(), 1, "{text:?}: {:#?}", p.problems);
        let problem = p.problems[0].clone();
        (problem.kind, &text[problem.range.clone()], problem)
    }

    /// Invariants every result must satisfy, for any input.
    fn check_invariants(text: &str) -> Checked {
        let p = check_prolog(text);
        for problem in &p.problems {
            let r = &problem.range;
            assert!(r.start < r.end, "{text:?}: empty range {problem:?}");
            assert!(r.end <= text.len(), "{text:?}: {problem:?}");
            assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
            let first = problem.message.chars().next().unwrap();
            assert!(
                !first.is_uppercase() || problem.message.starts_with("XML"),
                "{text:?}: {}",
                problem.message
            );
            assert!(!problem.message.ends_with('.'), "{}", problem.message);
            let help = problem.help.as_deref().unwrap();
            assert!(!help.ends_with('.'), "{help}");
        }
        if let Some(d) = &p.decl {
            assert!(d.start < d.end && d.end <= text.len());
            assert!(text.is_char_boundary(d.start) && text.is_char_boundary(d.end));
            assert!(text[d.clone()].ends_with("?>"));
            assert!(text[d.start..]
                .get(..5)
                .unwrap()
                .eq_ignore_ascii_case("<?xml"));
        }
        if let Some((value, r)) = &p.encoding {
            assert!(r.start <= r.end && r.end <= text.len());
            assert_eq!(&text[r.clone()], value);
        }
        if let Some(b) = &p.blank {
            assert!(b.start <= b.end && b.end <= text.len(), "{text:?}: {b:?}");
            assert!(text.is_char_boundary(b.start) && text.is_char_boundary(b.end));
            assert!(text[..b.start].bytes().all(is_xml_ws), "{text:?}: {b:?}");
            if let Some(d) = &p.decl {
                assert!(d.end <= b.end, "{text:?}: {b:?} {d:?}");
            }
        }
        assert_eq!(
            p.blank.is_some(),
            p.problems
                .iter()
                .any(|p| matches!(p.kind, ProblemKind::NotAtStart | ProblemKind::Malformed)),
            "{text:?}"
        );
        assert!(p.skip <= text.len());
        if p.skip > 0 {
            assert!(text[..p.skip].bytes().all(is_xml_ws));
            assert!(text[p.skip..]
                .get(..5)
                .unwrap()
                .eq_ignore_ascii_case("<?xml"));
            assert_eq!(p.problems[0].kind, ProblemKind::LeadingWhitespace);
        }
        // Problems are sorted.
        assert!(p
            .problems
            .windows(2)
            .all(|w| w[0].range.start <= w[1].range.start));
        p
    }

    // ---- fine documents ----------------------------------------------------

    #[test]
    fn good_declarations_have_no_problems() {
        for text in [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset/>",
            "<?xml version=\"1.0\" encoding=\"utf-8\"?><urlset/>",
            "<?xml version='1.0' encoding='Utf-8' standalone='yes'?>",
            "<?xml version=\"1.0\" standalone=\"no\"?>",
            "<?xml version=\"1.0\"?>",
            "<?xml version=\"1.0\" ?>",
            "<?xml\tversion = \"1.0\"\r\n encoding=\t'UTF-8' ?>",
        ] {
            let p = check_invariants(text);
            assert!(p.problems.is_empty(), "{text:?}: {:#?}", p.problems);
            assert_eq!(p.skip, 0);
            let decl = p.decl.clone().unwrap();
            assert_eq!(decl.start, 0);
            assert!(text[decl].ends_with("?>"));
        }
    }

    #[test]
    fn decl_range_and_encoding() {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset/>";
        let p = check_prolog(text);
        assert_eq!(p.decl, Some(0..38));
        assert_eq!(&text[0..38], "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        let (value, range) = p.encoding.unwrap();
        assert_eq!(value, "UTF-8");
        assert_eq!(&text[range], "UTF-8");
    }

    #[test]
    fn no_declaration_is_fine() {
        for text in [
            "",
            " ",
            "\n\n",
            "<urlset/>",
            "\n  <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"/>",
            "<?xml-stylesheet type=\"text/xsl\" href=\"s.xsl\"?><urlset/>",
            "<!-- no declaration --><urlset/>",
            "<!-- was <?xml version=\"1.0\"?> --><urlset/>",
            "<urlset><![CDATA[<?xml version=\"2.0\"?>]]></urlset>",
            "</urlset><?xml version=\"1.0\"?>",
            "<é/><?xml version=\"1.0\"?>",
            "hello",
            "<",
            "<?",
            "<?xm",
            "<?xmlfoo?>",
            "<?xml-?>",
        ] {
            let p = check_invariants(text);
            assert_eq!(p, Prolog::default(), "{text:?}");
        }
    }

    #[test]
    fn large_document_without_declaration_is_cheap() {
        // 50 MB: the scan stops at the first element, or after PREFIX_LIMIT.
        let mut text = String::with_capacity(50 << 20);
        text.push_str("<urlset>");
        text.extend(std::iter::repeat_n('a', 50 << 20));
        text.push_str("<?xml version=\"1.0\"?>");
        assert_eq!(check_prolog(&text), Prolog::default());
        let text = text.replacen("<urlset>", "garbage!", 1);
        assert_eq!(check_prolog(&text), Prolog::default());
    }

    // ---- leading whitespace ---------------------------------------------------

    #[test]
    fn leading_spaces() {
        let text = "  <?xml version=\"1.0\" encoding=\"UTF-8\"?><urlset/>";
        let p = check_invariants(text);
        assert_eq!(kinds(&p), [ProblemKind::LeadingWhitespace]);
        assert_eq!(p.skip, 2);
        assert_eq!(p.problems[0].range, 0..2);
        assert_eq!(
            p.problems[0].message,
            "whitespace before the XML declaration"
        );
        assert_eq!(
            p.problems[0].help.as_deref(),
            Some("remove the 2 spaces before `<?xml`: the XML declaration must be the very first thing in the file")
        );
        assert_eq!(p.decl, Some(2..40));
        assert_eq!(&text[2..40], "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        assert_eq!(&text[p.encoding.unwrap().1], "UTF-8");
    }

    #[test]
    fn leading_single_space_and_tab() {
        let (kind, at, problem) = one(" <?xml version=\"1.0\"?>");
        assert_eq!((kind, at), (ProblemKind::LeadingWhitespace, " "));
        assert!(problem
            .help
            .unwrap()
            .starts_with("remove the 1 space before `<?xml`"));
        let (_, at, problem) = one("\t <?xml version=\"1.0\"?>");
        assert_eq!(at, "\t ");
        assert!(problem
            .help
            .unwrap()
            .starts_with("remove the 1 space and 1 tab before"));
    }

    #[test]
    fn leading_blank_lines() {
        let text = "\n<?xml version=\"1.0\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::LeadingWhitespace, "\n"));
        assert_eq!(problem.message, "blank line before the XML declaration");
        let help = problem.help.unwrap();
        assert!(
            help.starts_with("remove the line break before `<?xml`"),
            "{help}"
        );
        assert!(help.contains("`<?php`"));

        let text = "\r\n  \r\n\t<?xml version=\"1.0\"?>";
        let p = check_invariants(text);
        assert_eq!(p.skip, 7);
        assert_eq!(p.problems[0].range, 0..7);
        assert_eq!(
            p.problems[0].message,
            "2 blank lines before the XML declaration"
        );
        assert!(p.problems[0]
            .help
            .as_deref()
            .unwrap()
            .starts_with("remove the 2 line breaks and the 2 spaces and 1 tab before `<?xml`"));

        // Old Mac line ends count too.
        let p = check_prolog("\r\r<?xml version=\"1.0\"?>");
        assert_eq!(
            p.problems[0].message,
            "2 blank lines before the XML declaration"
        );
    }

    #[test]
    fn leading_whitespace_with_broken_declaration_reports_both() {
        let text = "\n\n<?XML version=\"2.0\"?><urlset/>";
        let p = check_invariants(text);
        assert_eq!(p.skip, 2);
        assert_eq!(
            kinds(&p),
            [
                ProblemKind::LeadingWhitespace,
                ProblemKind::Malformed,
                ProblemKind::Version
            ]
        );
        assert_eq!(&text[p.problems[1].range.clone()], "XML");
        assert_eq!(&text[p.problems[2].range.clone()], "2.0");
    }

    #[test]
    fn long_leading_whitespace_is_still_found() {
        let text = format!("{}<?xml version=\"1.0\"?>", "\n".repeat(5000));
        let p = check_invariants(&text);
        assert_eq!(p.skip, 5000);
        assert_eq!(kinds(&p), [ProblemKind::LeadingWhitespace]);
    }

    #[test]
    fn skip_only_for_whitespace() {
        // Non-XML whitespace is content, not leading whitespace.
        for text in [
            "\u{a0}<?xml version=\"1.0\"?>",
            "\u{feff}<?xml version=\"1.0\"?>",
            "\x0c<?xml version=\"1.0\"?>",
            "\n x <?xml version=\"1.0\"?>",
        ] {
            let p = check_invariants(text);
            assert_eq!(p.skip, 0, "{text:?}");
            assert_eq!(kinds(&p), [ProblemKind::NotAtStart], "{text:?}");
        }
    }

    // ---- content before the declaration ------------------------------------------

    #[test]
    fn text_before_declaration() {
        let text = "\n hello world \n<?xml version=\"1.0\"?><urlset/>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::NotAtStart, "hello world"));
        assert_eq!(
            problem.message,
            "unexpected `hello world` before the XML declaration"
        );
        let p = check_prolog(text);
        assert_eq!(p.skip, 0);
        assert_eq!(&text[p.decl.unwrap()], "<?xml version=\"1.0\"?>");
    }

    #[test]
    fn second_bom() {
        let (kind, at, problem) = one("\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
        assert_eq!((kind, at), (ProblemKind::NotAtStart, "\u{feff}"));
        assert_eq!(
            problem.message,
            "stray byte order mark (U+FEFF) before the XML declaration"
        );
        let (_, at, problem) = one("\u{feff}\u{feff}<?xml version=\"1.0\"?>");
        assert_eq!(at, "\u{feff}\u{feff}");
        assert!(problem.message.starts_with("2 stray byte order marks"));
    }

    #[test]
    fn comment_before_declaration() {
        let text = "<!-- generated by foo -->\n<?xml version=\"1.0\"?><urlset/>";
        let (kind, at, problem) = one(text);
        assert_eq!(
            (kind, at),
            (ProblemKind::NotAtStart, "<!-- generated by foo -->")
        );
        assert_eq!(problem.message, "comment before the XML declaration");
        // A comment mentioning `<?xml` is skipped over.
        let text = "<!-- <?xml version=\"2.0\"?> -->\n<?xml version=\"1.0\"?>";
        let (kind, at, _) = one(text);
        assert_eq!(
            (kind, at),
            (ProblemKind::NotAtStart, "<!-- <?xml version=\"2.0\"?> -->")
        );
        // Unclosed comment: nothing found.
        assert_eq!(
            check_prolog("<!-- <?xml version=\"1.0\"?>"),
            Prolog::default()
        );
    }

    #[test]
    fn php_and_doctype_before_declaration() {
        let text = "<?php header('Content-Type: text/xml'); ?><?xml version=\"1.0\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!(kind, ProblemKind::NotAtStart);
        assert_eq!(at, "<?php header('Content-Type: text/xml'); ?>");
        assert_eq!(
            problem.message,
            "unexpected `<?php header('Content-Type: text/xml'); …` before the XML declaration"
        );
        let (kind, at, _) = one("<!DOCTYPE urlset>\n<?xml version=\"1.0\"?>");
        assert_eq!((kind, at), (ProblemKind::NotAtStart, "<!DOCTYPE urlset>"));
        let (_, at, _) = one("<?xml-stylesheet href=\"a.xsl\"?><?xml version=\"1.0\"?>");
        assert_eq!(at, "<?xml-stylesheet href=\"a.xsl\"?>");
    }

    #[test]
    fn content_snippet_is_shortened() {
        let text = format!(
            "Warning: {} in x.php\n<?xml version=\"1.0\"?>",
            "é".repeat(60)
        );
        let (kind, at, problem) = one(&text);
        assert_eq!(kind, ProblemKind::NotAtStart);
        assert!(at.starts_with("Warning") && at.ends_with("x.php"));
        assert!(problem.message.contains('…'));
        assert!(problem.message.chars().count() < 100, "{}", problem.message);
        // Multi-line content: only the first line is quoted.
        let (_, at, problem) = one("a\nb\n<?xml version=\"1.0\"?>");
        assert_eq!(at, "a\nb");
        assert_eq!(
            problem.message,
            "unexpected `a…` before the XML declaration"
        );
    }

    #[test]
    fn prefix_limit() {
        let near = format!("{}<?xml version=\"1.0\"?>", "x".repeat(PREFIX_LIMIT - 1));
        assert_eq!(kinds(&check_invariants(&near)), [ProblemKind::NotAtStart]);
        let far = format!("{}<?xml version=\"1.0\"?>", "x".repeat(PREFIX_LIMIT + 1));
        assert_eq!(check_invariants(&far), Prolog::default());
        // The limit counts from after the leading whitespace.
        let ws = format!("{}{near}", " ".repeat(3000));
        let p = check_invariants(&ws);
        assert_eq!(kinds(&p), [ProblemKind::NotAtStart]);
        assert_eq!(p.problems[0].range, 3000..3000 + PREFIX_LIMIT - 1);
        // Multi-byte characters straddling the limit.
        let text = format!("{}<?xml version=\"1.0\"?>", "日".repeat(400));
        assert_eq!(check_invariants(&text), Prolog::default());
    }

    // ---- target ------------------------------------------------------------------

    #[test]
    fn uppercase_target() {
        for (text, bad) in [
            ("<?XML version=\"1.0\"?>", "XML"),
            ("<?Xml version=\"1.0\"?>", "Xml"),
            ("<?xML version=\"1.0\"?>", "xML"),
        ] {
            let (kind, at, problem) = one(text);
            assert_eq!((kind, at), (ProblemKind::Malformed, bad));
            assert_eq!(
                problem.message,
                format!("the XML declaration must start with lowercase `<?xml`, not `<?{bad}`")
            );
            assert_eq!(check_prolog(text).decl, Some(0..text.len()));
        }
    }

    // ---- version -------------------------------------------------------------------

    #[test]
    fn bad_versions() {
        for (value, message) in [
            (
                "2.0",
                "XML version `2.0` does not exist: sitemaps are XML 1.0",
            ),
            (
                "1.1",
                "XML version `1.1` is not allowed: sitemaps are XML 1.0",
            ),
            ("1", "XML version `1` does not exist: sitemaps are XML 1.0"),
            (
                "1.00",
                "XML version `1.00` does not exist: sitemaps are XML 1.0",
            ),
            ("1.0 ", "XML version `1.0 ` contains whitespace"),
            (" 1.0", "XML version ` 1.0` contains whitespace"),
            ("1.0\n", "XML version `1.0\\n` contains whitespace"),
            (
                "v1.0",
                "XML version `v1.0` does not exist: sitemaps are XML 1.0",
            ),
        ] {
            let text = format!("<?xml version=\"{value}\" encoding=\"UTF-8\"?>");
            let (kind, at, problem) = one(&text);
            assert_eq!((kind, at), (ProblemKind::Version, value));
            assert_eq!(problem.message, message);
            assert_eq!(problem.help.as_deref(), Some("write `version=\"1.0\"`"));
        }
        let (kind, at, _) = one("<?xml version=\"\"?>");
        assert_eq!((kind, at), (ProblemKind::Version, "\"\""));
    }

    // ---- encoding ------------------------------------------------------------------

    #[test]
    fn bad_encodings() {
        let text = "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::Encoding, "ISO-8859-1"));
        assert_eq!(
            problem.message,
            "`encoding` declares `ISO-8859-1`, but sitemaps must be UTF-8"
        );
        assert_eq!(
            problem.help.as_deref(),
            Some("declare `encoding=\"UTF-8\"`; if the bytes really are `ISO-8859-1`, convert them first: `iconv -f ISO-8859-1 -t UTF-8`")
        );
        let (_, _, problem) = one("<?xml version=\"1.0\" encoding=\"UTF-16\"?>");
        assert_eq!(
            problem.help.as_deref(),
            Some("the file is not encoded in `UTF-16`: declare `encoding=\"UTF-8\"`")
        );
        let p = check_prolog(text);
        let (value, range) = p.encoding.unwrap();
        assert_eq!(value, "ISO-8859-1");
        assert_eq!(&text[range], "ISO-8859-1");

        for value in ["UTF-16", "windows-1252", "latin1", "UTF_8", "UTF-8-BOM"] {
            let text = format!("<?xml version='1.0' encoding='{value}'?>");
            let (kind, at, problem) = one(&text);
            assert_eq!((kind, at), (ProblemKind::Encoding, value));
            assert!(problem.message.ends_with("but sitemaps must be UTF-8"));
        }
    }

    #[test]
    fn utf8_without_hyphen() {
        for value in ["UTF8", "utf8", " utf8 "] {
            let text = format!("<?xml version=\"1.0\" encoding=\"{value}\"?>");
            let (kind, at, problem) = one(&text);
            assert_eq!((kind, at), (ProblemKind::Encoding, value));
            assert!(problem.message.contains("not a valid encoding name"));
            assert!(problem.help.unwrap().contains("`UTF-8`"));
        }
    }

    #[test]
    fn encoding_with_spaces_and_empty() {
        let (kind, at, problem) = one("<?xml version=\"1.0\" encoding=\" UTF-8\"?>");
        assert_eq!((kind, at), (ProblemKind::Encoding, " UTF-8"));
        assert_eq!(
            problem.message,
            "`encoding` value ` UTF-8` has surrounding whitespace"
        );
        let text = "<?xml version=\"1.0\" encoding=\"\"?>";
        let (kind, at, _) = one(text);
        assert_eq!((kind, at), (ProblemKind::Encoding, "\"\""));
        let (value, range) = check_prolog(text).encoding.unwrap();
        assert_eq!((value.as_str(), range), ("", 30..30));
    }

    // ---- standalone ----------------------------------------------------------------

    #[test]
    fn bad_standalone() {
        for value in ["YES", "No", "true", "1", " yes"] {
            let text = format!("<?xml version=\"1.0\" standalone=\"{value}\"?>");
            let (kind, at, problem) = one(&text);
            assert_eq!((kind, at), (ProblemKind::Standalone, value));
            assert_eq!(
                problem.help.as_deref(),
                Some("`standalone` takes `yes` or `no` (lowercase)")
            );
        }
        let (kind, at, problem) = one("<?xml version=\"1.0\" standalone=\"YES\"?>");
        assert_eq!((kind, at), (ProblemKind::Standalone, "YES"));
        assert_eq!(
            problem.message,
            "`standalone` must be `yes` or `no`, not `YES`"
        );
        let (kind, at, _) = one("<?xml version=\"1.0\" standalone=''?>");
        assert_eq!((kind, at), (ProblemKind::Standalone, "''"));
    }

    #[test]
    fn several_value_problems_are_all_reported() {
        let text = "<?xml version=\"2.0\" encoding=\"ISO-8859-1\" standalone=\"YES\"?>";
        let p = check_invariants(text);
        assert_eq!(
            kinds(&p),
            [
                ProblemKind::Version,
                ProblemKind::Encoding,
                ProblemKind::Standalone
            ]
        );
        let at: Vec<&str> = p.problems.iter().map(|p| &text[p.range.clone()]).collect();
        assert_eq!(at, ["2.0", "ISO-8859-1", "YES"]);
        assert_eq!(p.decl, Some(0..text.len()));
    }

    // ---- malformed -----------------------------------------------------------------

    #[test]
    fn missing_version() {
        for text in [
            "<?xml encoding=\"UTF-8\"?>",
            "<?xml?>",
            "<?xml ?>",
            "<?xml standalone=\"yes\"?>",
        ] {
            let (kind, at, problem) = one(text);
            assert_eq!((kind, at), (ProblemKind::Malformed, "<?xml"), "{text:?}");
            assert_eq!(
                problem.message,
                "the XML declaration has no `version`: it is required and must come first"
            );
            assert_eq!(check_prolog(text).decl, Some(0..text.len()));
        }
    }

    #[test]
    fn attribute_order() {
        let text = "<?xml encoding=\"UTF-8\" version=\"1.0\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::Malformed, "version"));
        assert_eq!(
            problem.message,
            "`version` must come first in the XML declaration"
        );
        assert_eq!(
            check_prolog(text).encoding.map(|e| e.0).as_deref(),
            Some("UTF-8")
        );

        let text = "<?xml version=\"1.0\" standalone=\"yes\" encoding=\"UTF-8\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::Malformed, "encoding"));
        assert_eq!(problem.message, "`encoding` must come before `standalone`");

        // Out of order and with a bad value: both reported.
        let text = "<?xml standalone=\"yes\" encoding=\"latin1\" version=\"1.0\"?>";
        let p = check_invariants(text);
        let at: Vec<(ProblemKind, &str)> = p
            .problems
            .iter()
            .map(|p| (p.kind, &text[p.range.clone()]))
            .collect();
        assert_eq!(
            at,
            [
                (ProblemKind::Malformed, "encoding"),
                (ProblemKind::Encoding, "latin1"),
                (ProblemKind::Malformed, "version"),
            ]
        );
    }

    #[test]
    fn unknown_duplicate_and_case() {
        let (kind, at, problem) = one("<?xml version=\"1.0\" charset=\"UTF-8\"?>");
        assert_eq!((kind, at), (ProblemKind::Malformed, "charset"));
        assert_eq!(
            problem.message,
            "unknown pseudo-attribute `charset` in the XML declaration"
        );

        let text = "<?xml version=\"1.0\" encoding=\"UTF-8\" encoding=\"latin1\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::Malformed, "encoding"));
        assert_eq!(problem.range.start, 37);
        assert_eq!(
            problem.message,
            "duplicate `encoding` in the XML declaration"
        );
        // The first one is kept.
        assert_eq!(check_prolog(text).encoding.unwrap().0, "UTF-8");

        let (kind, at, problem) = one("<?xml Version=\"1.0\"?>");
        assert_eq!((kind, at), (ProblemKind::Malformed, "Version"));
        assert_eq!(problem.message, "`Version` must be lowercase `version`");
        // A case variant still counts as the attribute (no "missing version"),
        // and its value is still checked.
        let p = check_invariants("<?xml version=\"1.0\" ENCODING=\"latin1\"?>");
        assert_eq!(kinds(&p), [ProblemKind::Malformed, ProblemKind::Encoding]);
        assert_eq!(p.encoding.unwrap().0, "latin1");
    }

    #[test]
    fn missing_whitespace_between_attributes() {
        let text = "<?xml version=\"1.0\"encoding=\"UTF-8\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::Malformed, "encoding"));
        assert_eq!(problem.message, "missing whitespace before `encoding`");
        assert_eq!(check_prolog(text).decl, Some(0..text.len()));
    }

    #[test]
    fn quoting_errors() {
        let text = "<?xml version=1.0 encoding=\"UTF-8\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::Malformed, "1.0"));
        assert_eq!(problem.message, "the value of `version` must be quoted");
        assert_eq!(problem.help.as_deref(), Some("write `version=\"1.0\"`"));
        assert_eq!(check_prolog(text).decl, Some(0..text.len()));

        let text = "<?xml version=\"1.0' encoding=\"UTF-8\"?>";
        let (kind, at, problem) = one(text);
        assert_eq!((kind, at), (ProblemKind::Malformed, "\"1.0'"));
        assert_eq!(
            problem.message,
            "mismatched quotes around the value of `version`: it opens with `\"` but closes with `'`"
        );
        assert_eq!(check_prolog(text).decl, Some(0..text.len()));

        let (kind, at, _) = one("<?xml version='1.0\"?>");
        assert_eq!((kind, at), (ProblemKind::Malformed, "'1.0\""));

        let (kind, at, problem) = one("<?xml version=\"1.0?>\n<urlset/>");
        assert_eq!((kind, at), (ProblemKind::Malformed, "\""));
        assert_eq!(
            problem.message,
            "unterminated value of `version`: missing closing `\"`"
        );

        let (kind, at, problem) = one("<?xml version=?>");
        assert_eq!((kind, at), (ProblemKind::Malformed, "version"));
        assert_eq!(problem.message, "`version` has no value");

        let (kind, at, problem) = one("<?xml version \"1.0\"?>");
        assert_eq!((kind, at), (ProblemKind::Malformed, "version"));
        assert_eq!(problem.message, "expected `=` after `version`");
        assert_eq!(check_prolog("<?xml version \"1.0\"?>").decl, Some(0..21));

        let (kind, at, problem) = one("<?xml =\"1.0\"?>");
        assert_eq!((kind, at), (ProblemKind::Malformed, "="));
        assert_eq!(problem.message, "unexpected `=` in the XML declaration");

        let (kind, at, _) = one("<?xml version=\"1.0\" ? >");
        assert_eq!((kind, at), (ProblemKind::Malformed, "?"));
    }

    #[test]
    fn termination_errors() {
        let (kind, at, problem) = one("<?xml version=\"1.0\">\n<urlset/>");
        assert_eq!((kind, at), (ProblemKind::Malformed, ">"));
        assert_eq!(
            problem.message,
            "the XML declaration must end with `?>`, not `>`"
        );
        assert_eq!(check_prolog("<?xml version=\"1.0\">").decl, None);

        for text in [
            "<?xml version=\"1.0\"",
            "<?xml version=\"1.0\" encoding=\"UTF-8\"\n<urlset/>",
            "<?xml",
            "<?xml ",
            "<?xml version",
            "<?xml version=",
            "<?xml version= ",
        ] {
            let (kind, at, problem) = one(text);
            assert_eq!((kind, at), (ProblemKind::Malformed, "<?xml"), "{text:?}");
            assert_eq!(
                problem.message,
                "unterminated XML declaration: missing `?>`"
            );
            assert_eq!(check_prolog(text).decl, None);
        }

        // A broken declaration is not searched for `?>` past the next `<`.
        let text = "<?xml version=1.0>\n<?xml-stylesheet href=\"a\"?><urlset/>";
        let p = check_invariants(text);
        assert_eq!(p.decl, None);
        assert_eq!(p.problems.len(), 1);
    }

    #[test]
    fn decl_limit() {
        let text = format!("<?xml version=\"1.0\"{}?>", " ".repeat(DECL_LIMIT));
        let (kind, _, problem) = one(&text);
        assert_eq!(kind, ProblemKind::Malformed);
        assert!(problem.message.starts_with("unterminated"));
        // Multi-byte characters at the limit do not panic.
        let text = format!("<?xml version=\"{}\"?>", "日".repeat(DECL_LIMIT));
        let p = check_invariants(&text);
        assert_eq!(kinds(&p), [ProblemKind::Malformed]);
        let text = format!("<?xml {}=\"1.0\"?>", "日".repeat(DECL_LIMIT));
        check_invariants(&text);
    }

    #[test]
    fn long_values_are_shortened_in_messages() {
        let value = "x".repeat(300);
        let text = format!("<?xml version=\"1.0\" encoding=\"{value}\"?>");
        let (kind, at, problem) = one(&text);
        assert_eq!((kind, at), (ProblemKind::Encoding, value.as_str()));
        assert!(problem.message.len() < 120, "{}", problem.message);
        assert!(problem.message.contains('…'));
    }

    #[test]
    fn non_ascii_everywhere() {
        for text in [
            "<?xml version=\"1.0\" encoding=\"ÜTF-8\"?>",
            "<?xml versión=\"1.0\"?>",
            "<?xml version=\"1.0\" é?>",
            "<?xml version=«1.0»?>",
            "<?xml version=\"1.0\"日=\"x\"?>",
            "é<?xml version=\"1.0\"?>",
            "\u{feff} <?xml version=\"1.0\"?>",
        ] {
            let p = check_invariants(text);
            assert!(!p.problems.is_empty(), "{text:?}");
        }
        let (kind, at, _) = one("<?xml version=«1.0»?>");
        assert_eq!((kind, at), (ProblemKind::Malformed, "«1.0»"));
    }

    /// Deterministic fuzzing: random concatenations of declaration fragments
    /// never panic and always satisfy the invariants.
    #[test]
    fn fuzz_fragments() {
        const FRAGMENTS: &[&str] = &[
            "<?xml",
            "<?XML",
            "<?xml ",
            " ",
            "\n",
            "\r\n",
            "\t",
            "version",
            "encoding",
            "standalone",
            "Version",
            "foo",
            "=",
            "\"",
            "'",
            "1.0",
            "2.0",
            "UTF-8",
            "utf8",
            "yes",
            "YES",
            "?>",
            "?",
            ">",
            "<",
            "é",
            "日本",
            "\u{feff}",
            "<!--",
            "-->",
            "<urlset>",
            "a",
            "<?php",
            "\u{a0}",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..20_000 {
            let len = (next() % 16) as usize;
            let mut text = String::new();
            for _ in 0..len {
                text.push_str(FRAGMENTS[(next() % FRAGMENTS.len() as u64) as usize]);
            }
            check_invariants(&text);
            // Also every char-boundary suffix and prefix.
            for (i, _) in text.char_indices() {
                check_invariants(&text[i..]);
                check_invariants(&text[..i]);
            }
        }
    }

    #[test]
    fn messages_and_helps_are_well_formed() {
        // A sample of every message: lowercase start (or `XML`), no period.
        for text in [
            " <?xml version=\"1.0\"?>",
            "\n<?xml version=\"1.0\"?>",
            "x<?xml version=\"1.0\"?>",
            "<!--c--><?xml version=\"1.0\"?>",
            "\u{feff}<?xml version=\"1.0\"?>",
            "<?XML version=\"1.0\"?>",
            "<?xml?>",
            "<?xml version=\"9\" encoding=\"x\" standalone=\"x\"?>",
            "<?xml encoding=\"UTF-8\" version=\"1.0\"?>",
            "<?xml version=\"1.0\" standalone=\"no\" encoding=\"UTF-8\"?>",
            "<?xml version=\"1.0\"?",
            "<?xml version=\"1.0\">",
        ] {
            let p = check_invariants(text);
            assert!(!p.problems.is_empty());
            for problem in p.problems {
                assert!(problem.help.is_some());
            }
        }
    }
}
