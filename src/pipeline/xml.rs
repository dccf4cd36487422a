//! XML parsing with roxmltree: each parser error becomes a located diagnostic with a fix hint, and common errors are patched over so later ones are found too.
//!
//! The parser stops at the first error. To report more than one per run, [`check`] patches the
//! error over in a copy of the text (the same number of bytes, so every offset stays valid) and
//! parses again: unescaped `&`, unknown entities, forbidden characters, a bare `<` in text, a
//! DOCTYPE, a stray or misspelled closing tag, a duplicate attribute, a comment with `--`, text
//! before the root element and content after it. Errors that cannot be patched (a truncated
//! file, a missing closing tag, an undeclared namespace prefix) end the search; the tree is then
//! not used. Lexical errors (`&`, entities, forbidden characters) are all found in one scan once
//! the parser has hit the first one, so a file with thousands of them costs one more parse, not
//! thousands.

use std::collections::HashMap;
use std::ops::Range;

use memchr::memmem;
use roxmltree::{Document, Error, ParsingOptions, TextPos};

use crate::diagnostic::Diagnostic;
use crate::pipeline::source::floor_char_boundary;
use crate::pipeline::xml_decl::{self, Prolog};
use crate::rules::{input::doctype_not_allowed, input::xml_syntax};
use crate::values::text;

/// XML errors reported per file at most; further ones are counted in a note.
pub const MAX_XML_ERRORS: usize = 50;
/// Bytes re-parsed per file at most while looking for further errors.
const REPARSE_BUDGET: usize = 256 * 1024 * 1024;
/// Re-parses per file at most (each patches at least one error).
const MAX_ROUNDS: usize = 500;
/// Characters of offending text quoted in a message.
const SNIPPET_CHARS: usize = 40;

/// The parser settings used everywhere: DTDs off (see `doctype-not-allowed`).
pub fn options<'a>() -> ParsingOptions<'a> {
    ParsingOptions {
        allow_dtd: false,
        ..ParsingOptions::default()
    }
}

/// The outcome of parsing: the text the tree was built from (the source itself, or a copy in which
/// recoverable errors were blanked out with the same number of bytes so spans stay valid).
pub struct Parsed {
    pub patched: Option<String>,
    pub ok: bool,
    /// The byte ranges of `patched` that differ from the source. A value (a `<loc>`, a date)
    /// overlapping one of them is not what the file says, so rules should not judge it.
    pub patches: Vec<Range<usize>>,
}

impl Parsed {
    /// Whether `span` lies in a run of text (between two tags) that was patched, so that a value
    /// judged there is not the file's: a diagnostic about it would be a consequence of the XML
    /// error already reported (such as `_` where a bare `<` was).
    pub fn touches_patch(&self, span: &Range<usize>) -> bool {
        let Some(buf) = self.patched.as_deref() else {
            return false;
        };
        if self.patches.is_empty() {
            return false;
        }
        let start = floor_char_boundary(buf, span.start);
        let end = floor_char_boundary(buf, span.end.max(start));
        let run_start = buf[..start].rfind(['<', '>']).map_or(0, |p| p + 1);
        let run_end = buf[end..].find(['<', '>']).map_or(buf.len(), |p| end + p);
        // `patches` is sorted by start.
        let i = self.patches.partition_point(|p| p.start < run_start);
        self.patches[i.saturating_sub(1)..]
            .iter()
            .take_while(|p| p.start <= run_end)
            .any(|p| p.end > run_start && p.start <= run_end)
    }
}

/// Parses `text[skip..]`, reporting every error found into `out`. Returns `ok == false` when an
/// error could not be patched over; the tree must then not be used.
///
/// The XML declaration is checked by [`xml_decl`] first; a declaration it reported as malformed
/// or misplaced is blanked out here, so that the parser neither reports it again nor stops at it.
pub fn check(text: &str, skip: usize, out: &mut Vec<Diagnostic>) -> Parsed {
    let mut prolog = xml_decl::check_prolog(text);
    prolog.skip = skip;
    check_after_prolog(text, &prolog, out)
}

/// The tree of `text[prolog.skip..]` when the text parses as it stands: the common case, no XML
/// error and no declaration to blank out. The caller then needs neither [`check_after_prolog`]
/// nor a second parse.
pub fn parse_clean<'t>(text: &'t str, prolog: &Prolog) -> Option<Document<'t>> {
    if prolog.blank.as_ref().is_some_and(|r| !r.is_empty()) {
        return None;
    }
    Document::parse_with_options(&text[prolog.skip..], options()).ok()
}

/// [`check`] for a caller that already ran [`xml_decl::check_prolog`] on `text`.
pub fn check_after_prolog(text: &str, prolog: &Prolog, out: &mut Vec<Diagnostic>) -> Parsed {
    let skip = prolog.skip;
    let parse = |s: &str| Document::parse_with_options(&s[skip..], options()).map(|_| ());
    let mut patches = Vec::new();
    let mut buf = None;
    if let Some(range) = prolog.blank.clone().filter(|r| !r.is_empty()) {
        let mut b = text.to_string();
        apply(&mut b, vec![Edit::Fill(range, b' ')], &mut patches);
        buf = Some(b);
    }
    let mut error = match parse(buf.as_deref().unwrap_or(text)) {
        Ok(()) => {
            return Parsed {
                patched: buf,
                ok: true,
                patches,
            }
        }
        Err(e) => e,
    };
    let mut buf = buf.unwrap_or_else(|| text.to_string());
    let mut state = State {
        original: text,
        skip,
        dtd_entities: Vec::new(),
    };
    let mut budget = REPARSE_BUDGET;
    let mut reported = 0usize;
    let mut unreported = 0usize;
    let mut rounds = 0usize;
    let ok = loop {
        let step = describe(&mut state, &buf, &error);
        for d in step.diagnostics {
            if reported < MAX_XML_ERRORS {
                out.push(d);
                reported += 1;
            } else {
                unreported += 1;
            }
        }
        unreported += step.extra;
        let Some(edits) = step.edits.filter(|e| !e.is_empty()) else {
            break false;
        };
        apply(&mut buf, edits, &mut patches);
        rounds += 1;
        budget = budget.saturating_sub(buf.len());
        match parse(&buf) {
            Ok(()) => break true,
            Err(e) if budget == 0 || rounds >= MAX_ROUNDS || same_error(&e, &error) => {
                unreported += 1;
                break false;
            }
            Err(e) => error = e,
        }
    };
    if unreported > 0 {
        if let Some(last) = out.last_mut() {
            last.notes.push(if ok {
                format!(
                    "{} more XML {} not reported one by one; fix these first",
                    crate::values::text::group(unreported as u64),
                    if unreported == 1 {
                        "error was"
                    } else {
                        "errors were"
                    }
                )
            } else {
                "further XML errors were not reported; fix these first".to_string()
            });
        }
    }
    patches.sort_by_key(|r| r.start);
    Parsed {
        patched: Some(buf),
        ok,
        patches,
    }
}

/// Whether a re-parse stopped at the same error again (a patch that did not help).
fn same_error(a: &Error, b: &Error) -> bool {
    a.pos() == b.pos() && std::mem::discriminant(a) == std::mem::discriminant(b)
}

/// What is carried from one error to the next.
struct State<'t> {
    /// The text before any patch (for messages that depend on what the file really holds).
    original: &'t str,
    skip: usize,
    /// Entities declared in a DOCTYPE that was blanked out: (name, span of the name there).
    dtd_entities: Vec<(String, Range<usize>)>,
}

/// Diagnostics for one parser error, and the edits that patch it over (`None`: cannot continue).
struct Step {
    diagnostics: Vec<Diagnostic>,
    /// Errors found and patched but not described (beyond [`MAX_XML_ERRORS`] in one scan).
    extra: usize,
    edits: Option<Vec<Edit>>,
}

impl Step {
    fn stop(d: Diagnostic) -> Step {
        Step {
            diagnostics: vec![d],
            extra: 0,
            edits: None,
        }
    }

    fn patch(d: Diagnostic, edits: Vec<Edit>) -> Step {
        Step {
            diagnostics: vec![d],
            extra: 0,
            edits: Some(edits),
        }
    }
}

/// One patch, the same number of bytes as what it replaces so that offsets do not move.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Edit {
    /// Every byte of the range but line ends becomes this ASCII byte.
    Fill(Range<usize>, u8),
    /// The range becomes this text, of the same length.
    Text(Range<usize>, String),
}

/// Applies `edits` to `buf` (ranges not on character boundaries are skipped) and records them.
fn apply(buf: &mut String, edits: Vec<Edit>, patches: &mut Vec<Range<usize>>) {
    let fits = |r: &Range<usize>| {
        r.start <= r.end && buf.is_char_boundary(r.start) && buf.is_char_boundary(r.end)
    };
    let edits: Vec<Edit> = edits
        .into_iter()
        .filter(|e| match e {
            Edit::Fill(r, b) => fits(r) && b.is_ascii(),
            Edit::Text(r, t) => fits(r) && r.len() == t.len(),
        })
        .collect();
    let mut bytes = std::mem::take(buf).into_bytes();
    for edit in edits {
        match edit {
            Edit::Fill(r, fill) => {
                for b in &mut bytes[r.clone()] {
                    if !matches!(*b, b'\n' | b'\r') {
                        *b = fill;
                    }
                }
                patches.push(r);
            }
            Edit::Text(r, t) => {
                bytes[r.clone()].copy_from_slice(t.as_bytes());
                patches.push(r);
            }
        }
    }
    // Whole characters were replaced by ASCII or by text: the bytes are still UTF-8.
    *buf = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// The edit that blanks `range` of `buf` out: with spaces when the text around it is only
/// whitespace (between tags, where `_` would become stray text), else with `_` (so a patched URL
/// gains no whitespace).
fn blank_content(buf: &str, range: Range<usize>) -> Edit {
    let before = buf[..range.start].rfind(['>', '<']).map_or(0, |p| p + 1);
    let after = buf[range.end..]
        .find('<')
        .map_or(buf.len(), |p| range.end + p);
    let ws = |s: &str| s.bytes().all(|b| b.is_ascii_whitespace());
    let fill = if ws(&buf[before..range.start]) && ws(&buf[range.end..after]) {
        b' '
    } else {
        b'_'
    };
    Edit::Fill(range, fill)
}

/// [`blank_content`] for many sorted, disjoint ranges, in one pass over the text (a text node
/// may hold millions of errors).
fn content_edits(buf: &str, ranges: &[Range<usize>]) -> Vec<Edit> {
    let bytes = buf.as_bytes();
    let ws = |s: &[u8]| s.iter().all(|b| b.is_ascii_whitespace());
    let mut edits = Vec::with_capacity(ranges.len());
    let mut i = 0;
    while i < ranges.len() {
        let first = &ranges[i];
        let start = bytes[..first.start]
            .iter()
            .rposition(|&b| b == b'<' || b == b'>')
            .map_or(0, |p| p + 1);
        let end = bytes[first.end..]
            .iter()
            .position(|&b| b == b'<')
            .map_or(buf.len(), |p| first.end + p);
        // The ranges in this run of text, and whether it holds anything but them and whitespace.
        let mut j = i;
        let mut only_ws = true;
        let mut pos = start.min(first.start);
        while j < ranges.len() && ranges[j].start < end {
            only_ws = only_ws && ws(&bytes[pos.min(ranges[j].start)..ranges[j].start]);
            pos = pos.max(ranges[j].end);
            j += 1;
        }
        only_ws = only_ws && ws(&bytes[pos.min(end)..end]);
        let fill = if only_ws { b' ' } else { b'_' };
        edits.extend(ranges[i..j].iter().map(|r| Edit::Fill(r.clone(), fill)));
        i = j;
    }
    edits
}

/// The edit that blanks markup (a DOCTYPE, a comment, a stray tag) out with spaces.
fn blank_markup(range: Range<usize>) -> Edit {
    Edit::Fill(range, b' ')
}

/// Byte offset in `text` of a roxmltree position in `text[skip..]`.
fn offset_of(text: &str, skip: usize, pos: TextPos) -> usize {
    let parsed = &text[skip..];
    let mut line_start = 0usize;
    if pos.row > 1 {
        let mut rows = 1u32;
        for (i, b) in parsed.bytes().enumerate() {
            if b == b'\n' {
                rows += 1;
                if rows == pos.row {
                    line_start = i + 1;
                    break;
                }
            }
        }
        if rows < pos.row {
            return text.len();
        }
    }
    let line = &parsed[line_start..];
    let col = line
        .char_indices()
        .nth(pos.col.saturating_sub(1) as usize)
        .map_or(line.len(), |(i, _)| i);
    skip + line_start + col
}

fn char_span(text: &str, at: usize) -> Range<usize> {
    let len = text[at..].chars().next().map_or(0, char::len_utf8);
    at..at + len
}

/// Text quoted in a message: first line only, control characters escaped, at most
/// [`SNIPPET_CHARS`] characters.
fn show(s: &str) -> String {
    let line = s.split(['\r', '\n']).next().unwrap_or("");
    let mut out = String::new();
    let mut chars = line.chars();
    for c in chars.by_ref().take(SNIPPET_CHARS) {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    if line.len() < s.len() || chars.next().is_some() {
        out.push('…');
    }
    out
}

/// A character as it reads in a message: itself, or escaped when it is invisible.
fn show_char(c: char) -> String {
    if c.is_control() || c == '\u{feff}' {
        format!("U+{:04X}", c as u32)
    } else {
        format!("`{c}`")
    }
}

/// XML 1.0 `Char`: what may appear in a document at all.
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

fn is_name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == ':'
}

fn is_name_char(c: char) -> bool {
    is_name_start(c) || c.is_numeric() || matches!(c, '-' | '.' | '\u{B7}')
}

/// The element name at the start of `tag` (`<name …`, `</name>`).
fn tag_name(tag: &str) -> &str {
    let t = tag.trim_start_matches('<').trim_start_matches('/');
    let end = t
        .find(|c: char| c.is_whitespace() || matches!(c, '>' | '/' | '<'))
        .unwrap_or(t.len());
    &t[..end]
}

/// Markup that can be left open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Markup {
    Comment,
    Cdata,
    Pi,
    /// `<!DOCTYPE …>` and other `<!…>` declarations.
    Declaration,
    Tag,
}

/// Where the markup that starts at `at` (a `<`) ends, just after its last byte, looking no
/// further than `to`; `None` when it does not end before `to`. Quotes in tags are honoured (`>`
/// may appear in an attribute value).
fn markup_end(text: &str, at: usize, to: usize) -> (Markup, Option<usize>) {
    let rest = &text[at..to];
    let find = |open: usize, close: &str| {
        rest[open..]
            .find(close)
            .map(|p| at + open + p + close.len())
    };
    if rest.starts_with("<!--") {
        (Markup::Comment, find(4, "-->"))
    } else if rest.starts_with("<![CDATA[") {
        (Markup::Cdata, find(9, "]]>"))
    } else if rest.starts_with("<?") {
        (Markup::Pi, find(2, "?>"))
    } else if rest.starts_with("<!") {
        (Markup::Declaration, declaration_end(rest).map(|e| at + e))
    } else {
        let mut quote = None;
        for (i, b) in rest.bytes().enumerate().skip(1) {
            match (quote, b) {
                (None, b'"' | b'\'') => quote = Some(b),
                (Some(q), _) if q == b => quote = None,
                (None, b'>') => return (Markup::Tag, Some(at + i + 1)),
                _ => {}
            }
        }
        (Markup::Tag, None)
    }
}

/// The length of `<!DOCTYPE …>` at the start of `s`, including an internal subset `[…]` with
/// its quoted entity values and comments (which may contain `>` and `]`).
fn declaration_end(s: &str) -> Option<usize> {
    let bytes = s.as_bytes();
    let mut i = 2;
    let mut depth = 0usize;
    let mut quote = None;
    while i < bytes.len() {
        let b = bytes[i];
        match quote {
            Some(q) => {
                if b == q {
                    quote = None;
                }
            }
            None => match b {
                b'"' | b'\'' => quote = Some(b),
                b'[' => depth += 1,
                b']' => depth = depth.saturating_sub(1),
                b'<' if s[i..].starts_with("<!--") => {
                    i += s[i + 4..].find("-->")? + 7;
                    continue;
                }
                b'>' if depth == 0 => return Some(i + 1),
                _ => {}
            },
        }
        i += 1;
    }
    None
}

/// The element structure of `text[from..to]`, a prefix the parser has already accepted.
#[derive(Debug, Default)]
struct Structure<'t> {
    /// Start tags of the elements open at `to`, outermost first: (span, name).
    open: Vec<(Range<usize>, &'t str)>,
    /// The last closing tag: (span, name).
    last_closed: Option<(Range<usize>, &'t str)>,
    /// The first start tag: (span, name).
    root: Option<(Range<usize>, &'t str)>,
    /// The closing tag (or the empty-element tag) that ended the root element.
    root_end: Option<Range<usize>>,
    /// Markup that starts before `to` and does not end by it.
    unclosed: Option<(Markup, Range<usize>)>,
}

fn structure(text: &str, from: usize, to: usize) -> Structure<'_> {
    let mut s = Structure::default();
    let mut i = from;
    while let Some(p) = text[i..to].find('<') {
        let at = i + p;
        let (kind, end) = markup_end(text, at, to);
        let Some(end) = end else {
            s.unclosed = Some((kind, at..to));
            break;
        };
        if kind == Markup::Tag {
            let tag = &text[at..end];
            let name = tag_name(tag);
            if tag.starts_with("</") {
                s.open.pop();
                s.last_closed = Some((at..end, name));
                if s.open.is_empty() && s.root_end.is_none() {
                    s.root_end = Some(at..end);
                }
            } else {
                if s.root.is_none() {
                    s.root = Some((at..end, name));
                }
                if tag.ends_with("/>") {
                    if s.open.is_empty() && s.root_end.is_none() {
                        s.root_end = Some(at..end);
                    }
                } else {
                    s.open.push((at..end, name));
                }
            }
        }
        i = end;
    }
    s
}

/// A lexical error: something wrong with a character or reference wherever it is.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Lexical {
    /// `&` that starts no reference.
    BareAmpersand,
    /// `&amp` without its `;`.
    MissingSemicolon(String),
    /// `&name;` for a name XML does not define.
    UnknownEntity(String),
    /// `&#…;` that is malformed, out of range, or names a forbidden character.
    BadCharRef,
    /// A run of characters XML forbids.
    Forbidden,
}

/// Every lexical error from `from` on. Up to `literal_until` the text is inside a comment, CDATA
/// section or processing instruction, where `&` is literal; forbidden characters are found
/// everywhere.
fn lexical_errors(
    text: &str,
    from: usize,
    mut literal_until: usize,
) -> Vec<(Range<usize>, Lexical)> {
    let mut found = Vec::new();
    let bytes = text.as_bytes();
    let mut i = from;
    while i < bytes.len() {
        let b = bytes[i];
        if b >= 0x80 || (b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r')) {
            let c = text[i..].chars().next().unwrap_or(' ');
            if !is_xml_char(c) {
                let start = i;
                let mut end = i;
                for c in text[i..].chars() {
                    if is_xml_char(c) {
                        break;
                    }
                    end += c.len_utf8();
                }
                found.push((start..end, Lexical::Forbidden));
                i = end;
                continue;
            }
            i += c.len_utf8();
            continue;
        }
        if i >= literal_until {
            if b == b'<' {
                let rest = &text[i..];
                let close = if rest.starts_with("<!--") {
                    Some((4, "-->"))
                } else if rest.starts_with("<![CDATA[") {
                    Some((9, "]]>"))
                } else if rest.starts_with("<?") {
                    Some((2, "?>"))
                } else {
                    None
                };
                if let Some((open, close)) = close {
                    literal_until = rest[open..]
                        .find(close)
                        .map_or(text.len(), |p| i + open + p + close.len());
                }
            } else if b == b'&' {
                let (len, kind) = reference_at(&text[i..]);
                if let Some(kind) = kind {
                    found.push((i..i + len, kind));
                }
                i += len.max(1);
                continue;
            }
        }
        i += 1;
    }
    found
}

/// The reference at the start of `s` (which starts with `&`): its length and what is wrong with it
/// (`None` when it is a good one).
fn reference_at(s: &str) -> (usize, Option<Lexical>) {
    let body = &s[1..];
    if let Some(num) = body.strip_prefix('#') {
        let (hex, digits_from) = match num.strip_prefix('x') {
            Some(_) => (true, 2),
            None => (false, 1),
        };
        let digits: &str = {
            let d = &body[digits_from..];
            let n = d
                .bytes()
                .take_while(|b| {
                    if hex {
                        b.is_ascii_hexdigit()
                    } else {
                        b.is_ascii_digit()
                    }
                })
                .count();
            &d[..n]
        };
        let after = 1 + digits_from + digits.len();
        if !digits.is_empty() && s[after..].starts_with(';') {
            let ok = u32::from_str_radix(digits, if hex { 16 } else { 10 })
                .ok()
                .and_then(char::from_u32)
                .is_some_and(is_xml_char);
            return (after + 1, (!ok).then_some(Lexical::BadCharRef));
        }
        return (after, Some(Lexical::BadCharRef));
    }
    let name_len: usize = body
        .char_indices()
        .take_while(|&(i, c)| {
            if i == 0 {
                is_name_start(c) && c != ':'
            } else {
                is_name_char(c)
            }
        })
        .map(|(_, c)| c.len_utf8())
        .sum();
    let name = &body[..name_len];
    if name.is_empty() {
        return (1, Some(Lexical::BareAmpersand));
    }
    // `&lt=2` is a URL parameter named `lt` after a bare `&`, not a broken `&lt;`.
    if body[name_len..].starts_with('=') {
        return (1, Some(Lexical::BareAmpersand));
    }
    if body[name_len..].starts_with(';') {
        let known = matches!(name, "amp" | "lt" | "gt" | "quot" | "apos");
        return (
            name_len + 2,
            (!known).then(|| Lexical::UnknownEntity(name.to_string())),
        );
    }
    let predefined = matches!(name, "amp" | "lt" | "gt" | "quot" | "apos");
    if predefined || html_entity(name).is_some() {
        return (
            name_len + 1,
            Some(Lexical::MissingSemicolon(name.to_string())),
        );
    }
    (1, Some(Lexical::BareAmpersand))
}

/// The diagnostics and the patch for one parser error.
fn describe(state: &mut State<'_>, buf: &str, error: &Error) -> Step {
    let syntax = &xml_syntax::META;
    let skip = state.skip;
    let pos = |p: &TextPos| offset_of(buf, skip, *p).min(buf.len());
    match error {
        Error::MalformedEntityReference(p)
        | Error::UnknownEntityReference(_, p)
        | Error::NonXmlChar(_, p) => lexical(state, buf, pos(p)),
        Error::InvalidAttributeValue(p) => {
            let at = pos(p);
            let span = char_span(buf, at);
            let d = Diagnostic::new(syntax, span.clone(), "`<` inside an attribute value")
                .with_help("write `&lt;` instead");
            Step::patch(d, vec![blank_content(buf, span)])
        }
        Error::DtdDetected => doctype(state, buf, buf.find("<!DOCTYPE").unwrap_or(0)),
        Error::UnexpectedCloseTag(expected, actual, p) => {
            close_tag(buf, skip, pos(p), expected, actual)
        }
        Error::UnknownToken(p) => token(state, buf, pos(p)),
        Error::InvalidName(p) => invalid_name(state, buf, pos(p)),
        Error::UnclosedRootNode | Error::UnexpectedEndOfStream => end_of_file(buf, skip),
        Error::NoRootNode => no_root(state),
        Error::UnexpectedDeclaration(p) => {
            let at = pos(p);
            let end = buf[at..].find("?>").map_or(at + 5, |e| at + e + 2);
            let s = structure(buf, skip, at);
            if s.root_end.is_some() {
                let d = Diagnostic::new(syntax, at..end, "XML declaration after the root element")
                    .with_label("a second document starts here")
                    .with_help("were two files concatenated? a sitemap holds one `<?xml …?>` declaration and one root element")
                    .with_note("the rest of the file was not checked");
                Step::patch(d, vec![blank_markup(at..buf.len())])
            } else {
                let d = Diagnostic::new(syntax, at..end, "XML declaration in the middle of the file")
                    .with_label("a declaration may only appear at the very start")
                    .with_help("remove it: keep one `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` as the first line");
                Step::patch(d, vec![blank_markup(at..end)])
            }
        }
        Error::UnknownNamespace(prefix, p) => {
            let at = pos(p);
            let span = at..(at + prefix.len()).min(buf.len());
            let d = Diagnostic::new(
                syntax,
                span,
                format!("namespace prefix `{prefix}` is not declared"),
            )
            .with_label(format!("`{prefix}:` is bound to no namespace"));
            let d = match known_namespace(prefix) {
                Some(uri) if prefix == "mobile" => d
                    .with_help(format!(
                        "declare it on the root element: `xmlns:{prefix}=\"{uri}\"`"
                    ))
                    .with_note("Google no longer reads the mobile extension: removing the `<mobile:mobile/>` elements is fine too"),
                Some(uri) => d.with_help(format!(
                    "declare it on the root element: `xmlns:{prefix}=\"{uri}\"`"
                )),
                None => d.with_help(format!(
                    "declare it on the root element with `xmlns:{prefix}=\"…\"` and the extension's namespace URI"
                )),
            };
            Step::stop(d)
        }
        Error::InvalidComment(p) => {
            let at = pos(p);
            let end = buf[at + 4.min(buf.len() - at)..]
                .find("-->")
                .map_or(buf.len(), |e| at + 4 + e + 3);
            let inner = at + 4..end.saturating_sub(3).max(at + 4);
            let span = match buf[inner.clone()].find("--") {
                Some(d) => inner.start + d..inner.start + d + 2,
                None => inner.end.saturating_sub(1)..inner.end,
            };
            let d = Diagnostic::new(syntax, span, "`--` inside a comment")
                .with_label("not allowed in a comment")
                .with_secondary(at..end, "the comment")
                .with_help("XML comments may not contain `--` nor end with `-`: replace it, for example with `-`");
            Step::patch(d, vec![blank_markup(at..end)])
        }
        Error::InvalidCharacterData(p) => {
            let at = pos(p);
            // The text node ends at `at`; find its `]]>`.
            let start = buf[..at]
                .rfind('<')
                .map_or(0, |lt| markup_end(buf, lt, at).1.unwrap_or(lt));
            let mut spans = Vec::new();
            let mut from = start;
            while let Some(k) = buf[from..at].find("]]>") {
                spans.push(from + k..from + k + 3);
                from = from + k + 3;
            }
            if spans.is_empty() {
                return Step::stop(
                    Diagnostic::new(syntax, char_span(buf, at), "`]]>` in text")
                        .with_help("write `]]&gt;`"),
                );
            }
            let diagnostics: Vec<Diagnostic> = spans
                .iter()
                .take(MAX_XML_ERRORS)
                .map(|span| {
                    Diagnostic::new(syntax, span.clone(), "`]]>` in text")
                        .with_label("only allowed at the end of a CDATA section")
                        .with_help("write `]]&gt;`")
                })
                .collect();
            Step {
                extra: spans.len() - diagnostics.len(),
                diagnostics,
                edits: Some(content_edits(buf, &spans)),
            }
        }
        Error::DuplicatedAttribute(name, p) | Error::DuplicatedNamespace(name, p) => {
            let at = pos(p);
            duplicate_attribute(
                buf,
                at,
                name,
                matches!(error, Error::DuplicatedNamespace(..)),
            )
        }
        Error::InvalidChar(expected, actual, p) => {
            invalid_char(state, buf, pos(p), Expected::Byte(*expected), *actual)
        }
        Error::InvalidChar2(expected, actual, p) => {
            invalid_char(state, buf, pos(p), Expected::Text(expected), *actual)
        }
        Error::InvalidString(expected, p) => {
            let at = pos(p);
            if at >= buf.len() {
                return end_of_file(buf, skip);
            }
            let d = Diagnostic::new(syntax, char_span(buf, at), format!("expected `{expected}`"))
                .with_label(format!("expected `{expected}` here"));
            Step::stop(d)
        }
        other => {
            let at = match other.pos() {
                p if p.row == 1 && p.col == 1 => skip,
                p => pos(&p),
            };
            let d = Diagnostic::new(syntax, char_span(buf, at), format!("invalid XML: {other}"));
            Step::stop(d)
        }
    }
}

/// Unescaped `&`, bad references and forbidden characters: everything of the kind from `at` on is
/// reported and patched at once.
fn lexical(state: &mut State<'_>, buf: &str, at: usize) -> Step {
    // Inside a comment, CDATA section or PI, `&` is literal: start the scan after it.
    let s = structure(buf, state.skip, at);
    let literal_until = match s.unclosed {
        Some((Markup::Comment | Markup::Cdata | Markup::Pi, ref r)) => {
            markup_end(buf, r.start, buf.len()).1.unwrap_or(buf.len())
        }
        _ => 0,
    };
    let mut found = lexical_errors(buf, at, literal_until);
    if found.first().is_none_or(|(r, _)| r.start != at) {
        // The parser saw something the scan does not: report that alone.
        let (len, kind) = reference_at(&buf[at..]);
        let kind = match buf[at..].chars().next() {
            Some(c) if !is_xml_char(c) => Lexical::Forbidden,
            _ => kind.unwrap_or(Lexical::BareAmpersand),
        };
        let len = if kind == Lexical::Forbidden {
            char_span(buf, at).len()
        } else {
            len.max(1)
        };
        found.insert(0, (at..(at + len).min(buf.len()), kind));
    }
    let mut diagnostics = Vec::new();
    let mut extra = 0usize;
    let mut spans = Vec::with_capacity(found.len());
    let declared: HashMap<&str, &Range<usize>> = state
        .dtd_entities
        .iter()
        .map(|(n, r)| (n.as_str(), r))
        .collect();
    // Uses of each DTD entity: the first is reported (at this index), the others counted on it.
    let mut dtd_uses: HashMap<String, (usize, usize)> = HashMap::new();
    for (span, kind) in found {
        spans.push(span.clone());
        if let Lexical::UnknownEntity(name) = &kind {
            if let Some(decl) = declared.get(name.as_str()) {
                if let Some(uses) = dtd_uses.get_mut(name) {
                    uses.1 += 1;
                } else {
                    dtd_uses.insert(name.clone(), (diagnostics.len(), 1));
                    diagnostics.push(
                        Diagnostic::new(
                            &xml_syntax::META,
                            span.clone(),
                            format!("entity `&{name};` is declared only in the DOCTYPE, which is not processed"),
                        )
                        .with_label("undefined without the DTD")
                        .with_secondary((*decl).clone(), format!("`{name}` is declared here"))
                        .with_help("write the text itself instead of the entity, and remove the DOCTYPE"),
                    );
                }
                continue;
            }
        }
        // Past the cap the errors are only counted (a file may hold millions).
        if diagnostics.len() < MAX_XML_ERRORS {
            diagnostics.push(lexical_diagnostic(buf, span, &kind));
        } else {
            extra += 1;
        }
    }
    for (name, (index, uses)) in dtd_uses {
        if uses > 1 {
            diagnostics[index].notes.push(format!(
                "`&{name};` is used {uses} times; the other uses are not reported one by one"
            ));
        }
    }
    Step {
        diagnostics,
        extra,
        edits: Some(content_edits(buf, &spans)),
    }
}

fn lexical_diagnostic(buf: &str, span: Range<usize>, kind: &Lexical) -> Diagnostic {
    let syntax = &xml_syntax::META;
    let text = &buf[span.clone()];
    match kind {
        Lexical::BareAmpersand => {
            let after: String = buf[span.end..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, '<' | '&' | '"' | '\''))
                .take(20)
                .collect();
            Diagnostic::new(syntax, span, "unescaped `&`")
                .with_label("`&` starts an entity reference in XML")
                .with_help(format!(
                    "write `&amp;{after}`: a literal `&` is written `&amp;` in XML, in URLs too (crawlers read it back as `&`)"
                ))
        }
        Lexical::MissingSemicolon(name) => Diagnostic::new(
            syntax,
            span,
            format!("entity reference `&{name}` lacks its closing `;`"),
        )
        .with_label("expected `;` after the entity name")
        .with_help(format!("write `&{name};`")),
        Lexical::UnknownEntity(name) => {
            let d = Diagnostic::new(syntax, span, format!("unknown entity `&{name};`"))
                .with_label("XML defines only `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`");
            match html_entity(name) {
                Some(code) => {
                    let c = char::from_u32(code).unwrap_or('\u{FFFD}');
                    let shown = if c.is_whitespace() {
                        format!("U+{code:04X}")
                    } else {
                        format!("`{c}`")
                    };
                    d.with_help(format!(
                        "`&{name};` is an HTML entity; write the character itself ({shown}) or `&#{code};`; inside a URL, percent-encode it instead"
                    ))
                }
                None => d.with_help(format!(
                    "if `&` is meant literally, escape it: `&amp;{name};`"
                )),
            }
        }
        Lexical::BadCharRef => {
            let (message, label) = if text.ends_with(';') {
                let digits = text.trim_start_matches("&#").trim_end_matches(';');
                let code = match digits.strip_prefix('x') {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => digits.parse::<u32>().ok(),
                };
                match code {
                    Some(c) if char::from_u32(c).is_some() || (0xD800..0xE000).contains(&c) => (
                        format!("character reference `{text}` names a character XML forbids"),
                        format!("U+{c:04X} is not allowed in XML, not even as a reference"),
                    ),
                    _ => (
                        format!("character reference `{text}` is out of range"),
                        "Unicode ends at U+10FFFF".to_string(),
                    ),
                }
            } else {
                let has_digits = text
                    .trim_start_matches("&#")
                    .trim_start_matches('x')
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_hexdigit());
                (
                    format!("malformed character reference `{}`", show(text)),
                    if has_digits {
                        "expected `;` after the digits".to_string()
                    } else {
                        "expected digits after `&#`".to_string()
                    },
                )
            };
            Diagnostic::new(syntax, span, message)
                .with_label(label)
                .with_help("write `&#` and decimal digits or `&#x` and hex digits, then `;`, for an allowed character; for a literal `&`, write `&amp;`")
        }
        Lexical::Forbidden => {
            let chars: Vec<char> = text.chars().collect();
            let first = chars[0];
            let what = match first {
                '\0' => " (NUL)",
                '\u{8}' => " (backspace)",
                '\u{b}' => " (vertical tab)",
                '\u{c}' => " (form feed)",
                '\u{1b}' => " (escape)",
                _ => "",
            };
            let message = if chars.len() == 1 {
                format!(
                    "character U+{:04X}{what} is not allowed in XML",
                    first as u32
                )
            } else if chars.iter().all(|&c| c == first) {
                format!(
                    "{} characters U+{:04X}{what} in a row are not allowed in XML",
                    chars.len(),
                    first as u32
                )
            } else {
                format!(
                    "{} control characters in a row are not allowed in XML",
                    chars.len()
                )
            };
            Diagnostic::new(syntax, span, message)
                .with_label("not an XML character")
                .with_help("remove it: XML 1.0 allows no control characters but tab, line feed and carriage return, not even as `&#…;` references")
        }
    }
}

/// A `<!DOCTYPE` at `at`: reported, blanked out, and its entities remembered.
fn doctype(state: &mut State<'_>, buf: &str, at: usize) -> Step {
    let end = markup_end(buf, at, buf.len()).1;
    let Some(end) = end else {
        let d = Diagnostic::new(
            &doctype_not_allowed::META,
            at..(at + 9).min(buf.len()),
            "DOCTYPE declarations are not allowed in sitemaps",
        )
        .with_label("this declaration is never closed with `>`")
        .with_help("delete the `<!DOCTYPE …>`: sitemaps are defined by an XML Schema, not a DTD");
        return Step::stop(d);
    };
    let span = at..end;
    let entities = dtd_entities(buf, span.clone());
    let mut d = Diagnostic::new(
        &doctype_not_allowed::META,
        span.clone(),
        "DOCTYPE declarations are not allowed in sitemaps",
    )
    .with_label("remove this declaration")
    .with_help("delete the `<!DOCTYPE …>`: sitemaps are defined by an XML Schema, not a DTD, and search engines refuse DTDs because they enable entity-expansion attacks (billion laughs, external entities)");
    if !entities.is_empty() {
        let names: Vec<String> = entities
            .iter()
            .take(3)
            .map(|(n, _)| format!("`{n}`"))
            .collect();
        let more = if entities.len() > 3 { ", …" } else { "" };
        d = d.with_note(format!(
            "the DTD was not processed: its {} ({}{more}) {} not expanded",
            if entities.len() == 1 {
                "entity"
            } else {
                "entities"
            },
            names.join(", "),
            if entities.len() == 1 { "is" } else { "are" },
        ));
    }
    state.dtd_entities.extend(entities);
    Step::patch(d, vec![blank_markup(span)])
}

/// `<!ENTITY name …>` declarations in a DOCTYPE (general entities only): names and their spans.
fn dtd_entities(buf: &str, span: Range<usize>) -> Vec<(String, Range<usize>)> {
    let mut out = Vec::new();
    let mut i = span.start;
    while let Some(p) = buf[i..span.end].find("<!ENTITY") {
        let mut j = i + p + 8;
        let rest = &buf[j..span.end];
        let ws = rest.len() - rest.trim_start().len();
        j += ws;
        i = j;
        if buf[j..].starts_with('%') {
            continue;
        }
        let len: usize = buf[j..span.end]
            .chars()
            .take_while(|&c| is_name_char(c))
            .map(char::len_utf8)
            .sum();
        if len > 0 {
            out.push((buf[j..j + len].to_string(), j..j + len));
        }
    }
    out
}

/// A closing tag that does not match the open element.
fn close_tag(buf: &str, skip: usize, at: usize, expected: &str, actual: &str) -> Step {
    let syntax = &xml_syntax::META;
    let end = buf[at..]
        .find('>')
        .map_or(at + 2 + actual.len(), |e| at + e + 1)
        .min(buf.len());
    let span = at..end;
    let s = structure(buf, skip, at);
    let open = s
        .open
        .last()
        .filter(|(_, n)| *n == expected)
        .map(|(r, _)| r.clone());
    let in_text = |r: &Range<usize>| {
        buf[..r.start]
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_whitespace() && c != '>')
    };
    // An ancestor is closed while `expected` is still open: its end tag is missing.
    if s.open.iter().rev().skip(1).any(|(_, n)| *n == actual) {
        let mut d = Diagnostic::new(
            syntax,
            span,
            format!("closing tag `</{actual}>` does not match the open element `<{expected}>`"),
        )
        .with_label(format!("expected `</{expected}>` before this"));
        let mut help = format!("add `</{expected}>` where the `<{expected}>` element ends");
        if let Some(open) = open {
            if in_text(&open) {
                help.push_str(&format!(
                    ", or write `&lt;{expected}` if the `<` is meant literally"
                ));
            }
            d = d.with_secondary(open, format!("`<{expected}>` is never closed"));
        }
        return Step::stop(d.with_help(help));
    }
    // A misspelled closing tag: rewrite it to the expected name when it fits, and go on.
    if text::closest(actual, &[expected]).is_some() {
        let mut d = Diagnostic::new(
            syntax,
            span.clone(),
            format!("closing tag `</{actual}>` does not match the open element `<{expected}>`"),
        )
        .with_label(format!("expected `</{expected}>`"));
        if let Some(open) = open {
            d = d.with_secondary(open, format!("`<{expected}>` opened here"));
        }
        d = d.with_help(if actual.eq_ignore_ascii_case(expected) {
            format!("write `</{expected}>`: tag names are case-sensitive")
        } else {
            format!("write `</{expected}>`")
        });
        let name_at = at + 2;
        if actual.len() >= expected.len() && buf[name_at..].starts_with(actual) {
            let mut replacement = expected.to_string();
            replacement.push_str(&" ".repeat(actual.len() - expected.len()));
            return Step::patch(
                d,
                vec![Edit::Text(name_at..name_at + actual.len(), replacement)],
            );
        }
        return Step::stop(d);
    }
    // A closing tag for no open element: remove it and go on.
    let mut d = Diagnostic::new(
        syntax,
        span.clone(),
        format!("unexpected closing tag `</{actual}>`"),
    )
    .with_label(format!("no `<{actual}>` is open here"));
    match &s.last_closed {
        Some((r, n)) if *n == actual => {
            d = d.with_secondary(r.clone(), format!("`<{actual}>` was already closed here"));
        }
        _ => {
            if let Some(open) = open {
                d = d.with_secondary(open, format!("the open element is `<{expected}>`"));
            }
        }
    }
    d = d.with_help(format!(
        "remove `</{actual}>`, or add the `<{actual}>` it was meant to close"
    ));
    Step::patch(d, vec![blank_markup(span)])
}

/// `UnknownToken`: at a `<!`, a `<` at the end, text before the root element, content after it.
fn token(state: &mut State<'_>, buf: &str, at: usize) -> Step {
    let syntax = &xml_syntax::META;
    let skip = state.skip;
    let rest = &buf[at..];
    if rest.chars().next().is_some_and(|c| !is_xml_char(c)) {
        return lexical(state, buf, at);
    }
    if rest
        .get(..9)
        .is_some_and(|h| h.eq_ignore_ascii_case("<!DOCTYPE"))
    {
        return doctype(state, buf, at);
    }
    if rest.starts_with("<!") {
        let end = markup_end(buf, at, buf.len()).1;
        let next_lt = buf[at + 1..].find('<').map_or(buf.len(), |p| at + 1 + p);
        let d = Diagnostic::new(
            syntax,
            at..end.unwrap_or(at + 2).min(next_lt).max(at + 2),
            format!(
                "malformed markup `{}`",
                show(&buf[at..floor_char_boundary(buf, end.unwrap_or(next_lt).min(at + 20))])
            ),
        )
        .with_label("not a comment, CDATA section or declaration")
        .with_help("a comment is written `<!-- … -->`, a CDATA section `<![CDATA[ … ]]>`");
        return match end.filter(|&e| e <= next_lt) {
            Some(e) => Step::patch(d, vec![blank_markup(at..e)]),
            None => Step::stop(d),
        };
    }
    if rest.starts_with('<') && rest.len() == 1 {
        return bare_lt(buf, at);
    }
    let s = structure(buf, skip, at);
    if let Some(root_end) = s.root_end.clone() {
        let is_element =
            rest.starts_with('<') && rest[1..].chars().next().is_some_and(is_name_start);
        let line_end = rest.find(['\r', '\n']).map_or(buf.len(), |e| at + e);
        let span = if is_element {
            at..rest.find('>').map_or(line_end, |e| at + e + 1)
        } else {
            at..line_end.min(rest.find('<').map_or(buf.len(), |e| at + e))
        };
        let (msg, label, help) = if is_element {
            (
                "a second root element".to_string(),
                "a document has one root element",
                "put every `<url>` inside the one `<urlset>` (were two sitemaps concatenated?)",
            )
        } else {
            (
                format!("text after the root element: `{}`", show(&buf[span.clone()])),
                "nothing but comments may follow the root element",
                "remove everything after the closing root tag (is it debug output of the generator?)",
            )
        };
        let d = Diagnostic::new(syntax, span.clone(), msg)
            .with_label(label)
            .with_secondary(root_end, "the root element ends here")
            .with_note("the rest of the file was not checked")
            .with_help(help);
        return Step::patch(d, vec![blank_markup(at..buf.len())]);
    }
    if s.root.is_none() && !rest.starts_with('<') {
        let line_end = rest.find(['\r', '\n', '<']).map_or(buf.len(), |e| at + e);
        let span = at..line_end.max(at + char_span(buf, at).len());
        let text = show(&buf[span.clone()]);
        return match rest.find('<') {
            Some(n) => {
                let d = Diagnostic::new(syntax, span, format!("text before the root element: `{text}`"))
                    .with_label("only the XML declaration, comments and whitespace may come before the root element")
                    .with_help("remove it: a sitemap starts with `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` and `<urlset …>` (is it an error message printed by the generator?)");
                Step::patch(d, vec![blank_markup(at..at + n)])
            }
            None => Step::stop(
                Diagnostic::new(syntax, span, format!("the file is text, not XML: `{text}`"))
                    .with_label("expected the root element `<urlset>` or `<sitemapindex>`")
                    .with_help("a sitemap is an XML document: `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` and then `<urlset …>`; was an error page saved instead of the sitemap?"),
            ),
        };
    }
    let d = Diagnostic::new(syntax, char_span(buf, at), "malformed markup")
        .with_label("the XML parser cannot read this")
        .with_help("check for a broken tag, an unescaped `<` or `&`, or a stray character");
    Step::stop(d)
}

/// A `<` that starts no tag: reported and patched over.
fn bare_lt(buf: &str, lt: usize) -> Step {
    let d = Diagnostic::new(&xml_syntax::META, lt..lt + 1, "unescaped `<` in text")
        .with_label("`<` starts a tag in XML")
        .with_help("write `&lt;` for a literal less-than sign (in a URL, `%3C`)");
    Step::patch(d, vec![blank_content(buf, lt..lt + 1)])
}

/// The `<` of the tag the parser is in at `at`, and whether it stands in the middle of text (so
/// it is more likely a literal `<` than a broken tag).
fn tag_start(buf: &str, at: usize) -> Option<(usize, bool)> {
    let lt = buf[..at].rfind('<')?;
    let in_text = buf[..lt]
        .chars()
        .next_back()
        .is_some_and(|c| !c.is_whitespace() && c != '>');
    Some((lt, in_text))
}

/// A start tag at `lt` that the parser could not finish because another `<` came first.
fn unterminated_tag(buf: &str, lt: usize, in_text: bool) -> Step {
    if in_text {
        return bare_lt(buf, lt);
    }
    let name = tag_name(&buf[lt..]);
    let close = buf[lt..].starts_with("</");
    let span = lt..lt + name.len() + if close { 2 } else { 1 };
    let shown = if close {
        format!("</{name}")
    } else {
        format!("<{name}")
    };
    let d = Diagnostic::new(
        &xml_syntax::META,
        span,
        format!("tag `{shown}` is not closed with `>`"),
    )
    .with_label("expected `>` before the next `<`")
    .with_help(format!("write `{shown}>`"));
    Step::stop(d)
}

/// `InvalidName`: a tag, attribute or PI name that cannot start where it does.
fn invalid_name(state: &mut State<'_>, buf: &str, at: usize) -> Step {
    let syntax = &xml_syntax::META;
    let before = &buf[..at];
    let next = buf[at..].chars().next();
    if next.is_some_and(|c| !is_xml_char(c)) {
        return lexical(state, buf, at);
    }
    if before.ends_with("</") {
        let end = buf[at..].find('>').map_or(at, |e| at + e + 1);
        let d = Diagnostic::new(syntax, at - 2..end.max(at), "malformed closing tag")
            .with_label("expected an element name right after `</`")
            .with_help("a closing tag is `</`, the element name and `>`, as in `</url>`");
        return Step::stop(d);
    }
    if before.ends_with("<?") {
        let end = buf[at..].find("?>").map(|e| at + e + 2);
        let d = Diagnostic::new(
            syntax,
            at - 2..end.unwrap_or(at),
            "malformed processing instruction",
        )
        .with_label("expected a name right after `<?`")
        .with_help("a processing instruction is `<?name …?>`; remove it if it is not needed");
        return match end {
            Some(e) => Step::patch(d, vec![blank_markup(at - 2..e)]),
            None => Step::stop(d),
        };
    }
    if before.ends_with('<') && buf[at..].starts_with('!') {
        return token(state, buf, at - 1);
    }
    if before.ends_with('<') {
        let lt = at - 1;
        if next.is_some_and(is_name_start) {
            let name = tag_name(&buf[lt..]);
            let d = Diagnostic::new(
                syntax,
                at..at + name.len(),
                format!("invalid element name `{}`", show(name)),
            )
            .with_help("element names are letters, digits, `-`, `_` and `.`, with at most one `:` for a namespace prefix");
            return Step::stop(d);
        }
        return bare_lt(buf, lt);
    }
    // Inside a tag, where an attribute name should start.
    if next == Some('<') || next.is_none() {
        return match tag_start(buf, at) {
            Some((lt, in_text)) if next.is_some() => unterminated_tag(buf, lt, in_text),
            _ => end_of_file(buf, state.skip),
        };
    }
    // No `=` before the next `<`: this is content, and the tag lacks its `>`.
    let next_lt = buf[at..].find('<').map_or(buf.len(), |p| at + p);
    if !buf[at..next_lt].contains('=') && next_lt < buf.len() {
        if let Some((lt, in_text)) = tag_start(buf, at) {
            return unterminated_tag(buf, lt, in_text);
        }
    }
    let c = next.unwrap_or(' ');
    let d = Diagnostic::new(
        syntax,
        char_span(buf, at),
        format!("expected an attribute name or `>`, found {}", show_char(c)),
    )
    .with_label("not allowed in a tag here")
    .with_help("attributes are written `name=\"value\"`; a tag ends with `>` or `/>`");
    Step::stop(d)
}

enum Expected<'e> {
    Byte(u8),
    Text(&'e str),
}

/// `InvalidChar`/`InvalidChar2`: the parser wanted one thing and found another.
fn invalid_char(
    state: &mut State<'_>,
    buf: &str,
    at: usize,
    expected: Expected<'_>,
    actual: u8,
) -> Step {
    let syntax = &xml_syntax::META;
    if at >= buf.len() {
        return end_of_file(buf, state.skip);
    }
    let found = buf[at..].chars().next().unwrap_or(' ');
    if !is_xml_char(found) {
        return lexical(state, buf, at);
    }
    match (&expected, actual) {
        // A `<` inside a tag: the tag never ended, or the first `<` was meant literally.
        (Expected::Text("a whitespace") | Expected::Byte(b'=' | b'>'), b'<') => {
            if let Some((lt, in_text)) = tag_start(buf, at) {
                return unterminated_tag(buf, lt, in_text);
            }
        }
        (Expected::Byte(q @ (b'"' | b'\'')), b'<') => {
            // The value from its opening quote to `at`.
            let open = buf[..at].rfind(*q as char).unwrap_or(at);
            let value = &buf[open + 1..at];
            if value.contains(['>', '\n']) {
                let d = Diagnostic::new(syntax, open..open + 1, "attribute value is never closed")
                    .with_label(format!(
                        "this `{}` has no closing `{}`",
                        *q as char, *q as char
                    ))
                    .with_help(format!(
                        "add the closing `{}` at the end of the value",
                        *q as char
                    ));
                return Step::stop(d);
            }
            let d = Diagnostic::new(syntax, at..at + 1, "`<` inside an attribute value")
                .with_label("not allowed in attribute values")
                .with_help("write `&lt;` instead");
            return Step::patch(d, vec![blank_content(buf, at..at + 1)]);
        }
        (Expected::Text("a quote"), _) => {
            let end = buf[at..]
                .find(|c: char| c.is_whitespace() || c == '>' || c == '<')
                .map_or(buf.len(), |e| at + e);
            let end = if buf[..end].ends_with('/') && buf[end..].starts_with('>') {
                end - 1
            } else {
                end
            };
            let eq = buf[..at].trim_end();
            let name_end = eq.strip_suffix('=').map(str::trim_end).unwrap_or(eq);
            let name_start = name_end
                .rfind(|c: char| c.is_whitespace() || c == '<')
                .map_or(0, |p| p + 1);
            let name = &buf[name_start..name_end.len()];
            let value = &buf[at..end.max(at)];
            let d = Diagnostic::new(
                syntax,
                at..end.max(at + 1),
                format!("the value of attribute `{name}` is not quoted"),
            )
            .with_label("expected `\"` before the value")
            .with_help(if value.chars().count() <= 100 {
                format!("write `{name}=\"{value}\"`")
            } else {
                format!("write `{name}=\"{}\"`", show(value))
            });
            return Step::stop(d);
        }
        (Expected::Text("a whitespace"), _) => {
            let prev = buf[..at].chars().next_back();
            if matches!(prev, Some('"' | '\'')) {
                let name = &buf[at..][..buf[at..]
                    .find(|c: char| !is_name_char(c))
                    .unwrap_or(buf.len() - at)];
                let d = Diagnostic::new(
                    syntax,
                    char_span(buf, at),
                    format!("missing whitespace before attribute `{}`", show(name)),
                )
                .with_label("expected a space here")
                .with_help("separate attributes with a space: `a=\"1\" b=\"2\"`");
                return Step::stop(d);
            }
        }
        (Expected::Byte(b'='), _) => {
            let name_end = buf[..at].trim_end().len();
            let name_start = buf[..name_end]
                .rfind(|c: char| c.is_whitespace() || c == '<')
                .map_or(0, |p| p + 1);
            let name = &buf[name_start..name_end];
            let d = Diagnostic::new(
                syntax,
                name_start..name_end.max(name_start + 1),
                format!("attribute `{}` has no value", show(name)),
            )
            .with_label("expected `=` and a quoted value")
            .with_help(format!(
                "XML attributes always have a value: `{}=\"…\"`",
                show(name)
            ));
            return Step::stop(d);
        }
        _ => {}
    }
    let wanted = match expected {
        Expected::Byte(b) => format!("`{}`", b as char),
        Expected::Text(t) => t.to_string(),
    };
    let d = Diagnostic::new(
        syntax,
        char_span(buf, at),
        format!("expected {wanted}, found {}", show_char(found)),
    )
    .with_label(format!("expected {wanted} here"));
    Step::stop(d)
}

/// The same attribute (or namespace declaration) twice in one tag: the second is removed.
fn duplicate_attribute(buf: &str, at: usize, name: &str, namespace: bool) -> Step {
    let syntax = &xml_syntax::META;
    // roxmltree points at the attribute; find its value's end.
    let attr_end = (|| {
        let eq = at + buf[at..].find('=')?;
        let q_at = eq + 1 + buf[eq + 1..].find(['"', '\''])?;
        let q = buf[q_at..].chars().next()?;
        Some(q_at + 1 + buf[q_at + 1..].find(q)? + 1)
    })();
    let written = if namespace {
        if name.is_empty() {
            "xmlns".to_string()
        } else {
            format!("xmlns:{name}")
        }
    } else {
        name.to_string()
    };
    let name_span = at..(at
        + buf[at..]
            .find(['=', ' ', '\t', '\n', '\r', '>'])
            .unwrap_or(0))
    .max(at + 1);
    let mut d = Diagnostic::new(
        syntax,
        name_span,
        if namespace {
            format!("namespace prefix `{name}` is declared twice on one element")
        } else {
            format!("attribute `{written}` appears twice in one tag")
        },
    )
    .with_label("second occurrence");
    let tag_start = buf[..at].rfind('<').unwrap_or(0);
    let needle_len = buf[at..]
        .find(['=', ' ', '\t', '\n', '\r', '>'])
        .unwrap_or(0);
    let needle = &buf[at..at + needle_len];
    if let Some(first) = buf[tag_start..at]
        .match_indices(needle)
        .map(|(i, _)| tag_start + i)
        .find(|&i| buf[..i].ends_with(|c: char| c.is_whitespace()))
    {
        d = d.with_secondary(first..first + needle.len(), "first occurrence");
    }
    d = d.with_help("keep only one of them");
    match attr_end {
        Some(end) => Step::patch(d, vec![blank_markup(at..end)]),
        None => Step::stop(d),
    }
}

/// The file ends before the document does.
fn end_of_file(buf: &str, skip: usize) -> Step {
    let syntax = &xml_syntax::META;
    let s = structure(buf, skip, buf.len());
    if let Some((kind, range)) = &s.unclosed {
        let (what, open, close) = match kind {
            Markup::Comment => ("comment", "<!--", "-->"),
            Markup::Cdata => ("CDATA section", "<![CDATA[", "]]>"),
            Markup::Pi => ("processing instruction", "<?", "?>"),
            Markup::Declaration | Markup::Tag => ("", "", ""),
        };
        if !what.is_empty() {
            let d = Diagnostic::new(
                syntax,
                range.start..range.start + open.len(),
                format!("unclosed {what}"),
            )
            .with_label(format!("this `{open}` has no closing `{close}`"))
            .with_help(format!(
                "close the {what} with `{close}`: everything after `{open}` up to the end of the file is part of it"
            ));
            return Step::stop(d);
        }
    }
    let end = buf.trim_end().len();
    let mut d = Diagnostic::new(syntax, end..end, "unexpected end of file")
        .with_label("the file ends here");
    let mut help =
        String::from("the file looks truncated (was the upload or the generator interrupted?)");
    if let Some((root, name)) = s.open.first() {
        d = d.with_secondary(root.clone(), format!("`<{name}>` is never closed"));
        // Name the closing tags a complete file would have, but not a million of them.
        const SHOWN: usize = 8;
        let mut closes: Vec<String> = s
            .open
            .iter()
            .rev()
            .take(SHOWN)
            .map(|(_, n)| format!("</{n}>"))
            .collect();
        if s.open.len() > SHOWN {
            closes.push(format!("… ({} closing tags in all)", s.open.len()));
        }
        if let Some((inner, inner_name)) = s.open.last().filter(|_| s.open.len() > 1) {
            d = d.with_secondary(
                inner.clone(),
                format!("the file ends inside this `<{inner_name}>`"),
            );
        }
        help.push_str(&format!(
            ": a complete file would continue with `{}`",
            closes.join("")
        ));
    }
    Step::stop(d.with_help(help))
}

/// The document has no element at all.
fn no_root(state: &State<'_>) -> Step {
    let syntax = &xml_syntax::META;
    let help = "a sitemap is a `<urlset>` element, or a sitemap index a `<sitemapindex>` element, in the namespace `http://www.sitemaps.org/schemas/sitemap/0.9`";
    let original = state.original;
    if original.is_empty() {
        return Step::stop(Diagnostic::new(syntax, 0..0, "the file is empty").with_help(help));
    }
    if original
        .bytes()
        .all(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
    {
        return Step::stop(
            Diagnostic::new(syntax, 0..0, "the file contains only whitespace").with_help(help),
        );
    }
    let end = original.trim_end().len();
    let d = Diagnostic::new(syntax, end..end, "the file has no root element")
        .with_label("expected `<urlset>` or `<sitemapindex>` after this")
        .with_help(help);
    Step::stop(d)
}

/// Namespaces a sitemap commonly uses, by conventional prefix.
pub fn known_namespace(prefix: &str) -> Option<&'static str> {
    match prefix {
        "xsi" => Some(crate::pipeline::model::XSI_NS),
        _ => crate::rules::extension::known_by_prefix(prefix).map(|k| k.uri),
    }
}

/// Code points of common HTML entities that XML does not know.
fn html_entity(name: &str) -> Option<u32> {
    Some(match name {
        "nbsp" => 160,
        "iexcl" => 161,
        "cent" => 162,
        "pound" => 163,
        "yen" => 165,
        "sect" => 167,
        "copy" => 169,
        "laquo" => 171,
        "reg" => 174,
        "deg" => 176,
        "plusmn" => 177,
        "middot" => 183,
        "raquo" => 187,
        "iquest" => 191,
        "Agrave" => 192,
        "Aacute" => 193,
        "Auml" => 196,
        "Ccedil" => 199,
        "Eacute" => 201,
        "Ntilde" => 209,
        "Ouml" => 214,
        "times" => 215,
        "Uuml" => 220,
        "szlig" => 223,
        "agrave" => 224,
        "aacute" => 225,
        "acirc" => 226,
        "atilde" => 227,
        "auml" => 228,
        "aring" => 229,
        "ccedil" => 231,
        "egrave" => 232,
        "eacute" => 233,
        "ecirc" => 234,
        "euml" => 235,
        "iacute" => 237,
        "ntilde" => 241,
        "oacute" => 243,
        "ocirc" => 244,
        "ouml" => 246,
        "oslash" => 248,
        "uacute" => 250,
        "uuml" => 252,
        "ndash" => 8211,
        "mdash" => 8212,
        "lsquo" => 8216,
        "rsquo" => 8217,
        "ldquo" => 8220,
        "rdquo" => 8221,
        "bull" => 8226,
        "hellip" => 8230,
        "euro" => 8364,
        "trade" => 8482,
        _ => return None,
    })
}

/// Well-formedness rules roxmltree does not enforce, checked on the parsed tree and its source:
/// reserved and malformed processing-instruction targets anywhere in the document, character
/// references to surrogates or non-characters, `<:name>`, and namespace declarations that XML 1.0
/// namespaces forbid (`xmlns:a=""`, declaring `xmlns:xmlns`).
///
/// `text` is the text the tree was parsed from (its offsets are `base` bytes into the source).
pub fn check_tree(doc: &Document<'_>, text: &str, base: usize, out: &mut Vec<Diagnostic>) {
    check_tree_from(doc, text, base, base, out);
}

/// [`check_tree`] for one of the documents a file was split into ([`crate::pipeline::split`]): what lies
/// before `from` in `text` (the copy of the root's start tag) was checked with the first piece.
pub fn check_tree_from(
    doc: &Document<'_>,
    text: &str,
    base: usize,
    from: usize,
    out: &mut Vec<Diagnostic>,
) {
    use crate::rules::input::xml_declaration;
    let syntax = &xml_syntax::META;
    let parsed = &text[base..];
    let skip = from.saturating_sub(base);
    let mut next_decl = next_xmlns(parsed, skip);
    // What the walk looks for is rare after the prolog: three vectorised searches usually show
    // there is nothing, and the walk over every node is skipped.
    let own = parsed.get(skip..).unwrap_or("");
    // The declaration (the PI `xml` at the start, which the walk skips too) is not a reason to walk.
    let after_declaration = match own.strip_prefix("<?xml") {
        Some(rest) if skip == 0 && rest.starts_with([' ', '\t', '\r', '\n', '?']) => rest,
        _ => own,
    };
    let walk = next_decl.is_some()
        || memmem::find(own.as_bytes(), b"<:").is_some()
        || memmem::find(after_declaration.as_bytes(), b"<?").is_some();
    for node in doc.descendants().filter(|_| walk) {
        let r = node.range();
        if r.start < skip {
            continue;
        }
        if let Some(pi) = node.pi() {
            let target = pi.target;
            // `<?xml\n version="1.0"?>` is a declaration, which roxmltree reads as a PI.
            if r.start == 0 && target == "xml" {
                continue;
            }
            let span = r.start + base..(r.start + base + 2 + target.len()).min(text.len());
            if target.eq_ignore_ascii_case("xml") {
                out.push(
                    Diagnostic::new(
                        &xml_declaration::META,
                        span,
                        format!("processing instruction `{target}` looks like a misplaced XML declaration"),
                    )
                    .with_help("the target `xml` is reserved in any letter case; keep one `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` at the very start of the file and remove this one"),
                );
                continue;
            }
            if target.contains(':') {
                out.push(
                    Diagnostic::new(
                        syntax,
                        span.clone(),
                        format!("processing instruction target `{target}` contains a colon"),
                    )
                    .with_help(
                        "XML namespaces forbid colons in processing-instruction targets; rename it",
                    ),
                );
            }
            let after = parsed.get(r.start + 2 + target.len()..).unwrap_or("");
            if !(after.starts_with("?>") || after.starts_with([' ', '\t', '\r', '\n'])) {
                out.push(
                    Diagnostic::new(
                        syntax,
                        span,
                        format!("no space after the processing instruction target `{target}`"),
                    )
                    .with_help(format!(
                        "write `<?{target} …?>` with a space between the target and its content"
                    )),
                );
            }
        } else if node.is_element() {
            if parsed
                .as_bytes()
                .get(r.start..)
                .is_some_and(|t| t.starts_with(b"<:"))
            {
                out.push(
                    Diagnostic::new(
                        syntax,
                        r.start + base..r.start + base + 2,
                        "element name starts with a colon",
                    )
                    .with_help("a qualified name is `prefix:local` or `local`; remove the colon"),
                );
            }
            // Only a start tag with an `xmlns:` in it needs reading: skip the ones before this
            // element, then look at its tag if the next one is before its first child.
            while let Some(h) = next_decl.filter(|&h| h < r.start) {
                next_decl = next_xmlns(parsed, h + 1);
            }
            let Some(h) = next_decl else {
                continue;
            };
            let tag_bound = node.first_child().map_or(r.end, |c| c.range().start);
            if h >= tag_bound {
                continue;
            }
            let tag = parsed.get(r.start..r.end).unwrap_or("");
            let tag = &tag[..tag.find('>').map_or(tag.len(), |e| e + 1)];
            check_namespace_declarations(tag, r.start + base, out);
        }
    }
    check_char_references(text, base.max(from), out);
}

/// The offset of the next `xmlns:` in `text` at or after `from`. Usually there is none after the
/// root's start tag, which one vectorised search over the rest of the file establishes, so the
/// other start tags are never scanned.
fn next_xmlns(text: &str, from: usize) -> Option<usize> {
    let rest = text.get(from..)?;
    memmem::find(rest.as_bytes(), b"xmlns:").map(|p| from + p)
}

/// `xmlns:p=""` (undeclaring a prefix is XML 1.1 only) and `xmlns:xmlns=…` in one start tag.
fn check_namespace_declarations(tag: &str, at: usize, out: &mut Vec<Diagnostic>) {
    let syntax = &xml_syntax::META;
    let mut from = 0;
    // Look for the `x` of each `xmlns:` with a byte scan: most tags have none, and a substring
    // search costs a searcher set-up per tag.
    while let Some(p) = tag.as_bytes()[from..].iter().position(|&b| b == b'x') {
        let start = from + p;
        from = start + 1;
        if !tag.as_bytes()[start..].starts_with(b"xmlns:") {
            continue;
        }
        from = start + 6;
        if !tag[..start].ends_with([' ', '\t', '\r', '\n']) {
            continue;
        }
        let rest = &tag[start + 6..];
        let name_len = rest
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(rest.len());
        let prefix = &rest[..name_len];
        let after = rest[name_len..]
            .trim_start()
            .strip_prefix('=')
            .map(str::trim_start);
        let value_empty = after.is_some_and(|v| v.starts_with("\"\"") || v.starts_with("''"));
        let span = at + start..at + start + 6 + name_len;
        if prefix == "xmlns" {
            out.push(
                Diagnostic::new(syntax, span, "the prefix `xmlns` cannot be declared").with_help(
                    "`xmlns` is reserved for namespace declarations; remove this attribute",
                ),
            );
        } else if value_empty {
            out.push(
                Diagnostic::new(
                    syntax,
                    span,
                    format!(
                        "`xmlns:{prefix}=\"\"` undeclares a prefix, which XML 1.0 does not allow"
                    ),
                )
                .with_help(format!(
                    "remove the declaration, or give `{prefix}` a namespace URI"
                )),
            );
        }
    }
}

/// Character references to surrogates (`&#xD800;`) or to U+FFFE/U+FFFF, which roxmltree turns into
/// U+FFFD without an error.
fn check_char_references(text: &str, base: usize, out: &mut Vec<Diagnostic>) {
    let syntax = &xml_syntax::META;
    let bytes = text.as_bytes();
    let mut i = base;
    let mut reported = 0;
    // Character references are rare in sitemaps: a vectorised search finds each `&#`.
    let finder = memmem::Finder::new(b"&#");
    while let Some(p) = bytes.get(i..).and_then(|rest| finder.find(rest)) {
        let start = i + p;
        i = start + 2;
        let (digits_start, radix) = if bytes.get(i) == Some(&b'x') {
            (i + 1, 16)
        } else {
            (i, 10)
        };
        let len = bytes[digits_start..]
            .iter()
            .take(12)
            .take_while(|b| b.is_ascii_hexdigit())
            .count();
        if bytes.get(digits_start + len) != Some(&b';') || len == 0 {
            continue;
        }
        let Ok(code) = u32::from_str_radix(&text[digits_start..digits_start + len], radix) else {
            continue;
        };
        if (0xD800..=0xDFFF).contains(&code) || code == 0xFFFE || code == 0xFFFF {
            let what = if code >= 0xFFFE {
                "a non-character"
            } else {
                "a UTF-16 surrogate"
            };
            out.push(
                Diagnostic::new(syntax, start..digits_start + len + 1, format!("character reference to U+{code:04X}, {what}"))
                    .with_help("refer to the character itself (`&#x1F600;` for U+1F600, not its two surrogates), or remove the reference"),
            );
            reported += 1;
            if reported >= MAX_XML_ERRORS {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
    const TAIL: &str = "</urlset>\n";

    fn doc(body: &str) -> String {
        format!("{HEAD}{body}{TAIL}")
    }

    /// The XML stage on `text`, with the invariants every result must satisfy.
    fn run(text: &str) -> (Parsed, Vec<Diagnostic>) {
        let prolog = xml_decl::check_prolog(text);
        let mut out = Vec::new();
        let parsed = check(text, prolog.skip, &mut out);
        for d in &out {
            let spans = std::iter::once(&d.primary).chain(&d.secondary);
            for l in spans {
                assert!(
                    l.span.start <= l.span.end && l.span.end <= text.len(),
                    "{text:?}: {d:?}"
                );
                assert!(text.is_char_boundary(l.span.start) && text.is_char_boundary(l.span.end));
            }
            let first = d.message.chars().next().unwrap();
            assert!(
                !first.is_uppercase()
                    || d.message.starts_with("XML")
                    || d.message.starts_with("DOCTYPE"),
                "{}",
                d.message
            );
            assert!(!d.message.ends_with('.'), "{}", d.message);
            assert!(!d.help.as_deref().unwrap_or("").ends_with('.'));
        }
        if let Some(p) = &parsed.patched {
            assert_eq!(p.len(), text.len(), "patches keep every offset");
            assert_eq!(p.matches('\n').count(), text.matches('\n').count());
        }
        for r in &parsed.patches {
            assert!(r.end <= text.len());
        }
        (parsed, out)
    }

    /// The text each diagnostic underlines.
    fn underlined<'t>(text: &'t str, out: &[Diagnostic]) -> Vec<&'t str> {
        out.iter().map(|d| &text[d.primary.span.clone()]).collect()
    }

    fn messages(out: &[Diagnostic]) -> Vec<&str> {
        out.iter().map(|d| d.message.as_str()).collect()
    }

    #[test]
    fn namespace_declarations_are_found_in_every_start_tag() {
        // Declarations on nested, empty and sibling elements, with `xmlns:` also in text, in
        // comments and in attribute values, which are not declarations.
        let text = doc(concat!(
            "  <url><loc>https://e.com/xmlns:a=\"\"</loc><!-- xmlns:b=\"\" -->\n",
            "    <x:e xmlns:x=\"urn:x\" a=\"xmlns:c=''\" xmlns:d=\"\"/>\n",
            "    <y:e xmlns:y=\"urn:y\"><z:e xmlns:z=\"urn:z\" xmlns:f=\"\">t</z:e></y:e>\n",
            "    <w:e xmlns:w=\"urn:w\"\n xmlns:g=''>xmlns:h=\"\"</w:e>\n",
            "    <e a-long-attribute-name=\"and a long value\" xmlns:k=\"\"/></url>\n",
        ));
        let prolog = xml_decl::check_prolog(&text);
        let tree = parse_clean(&text, &prolog).expect("roxmltree parses it");
        let mut out = Vec::new();
        check_tree(&tree, &text, prolog.skip, &mut out);
        assert_eq!(
            underlined(&text, &out),
            ["xmlns:d", "xmlns:f", "xmlns:g", "xmlns:k"],
            "{out:#?}"
        );
    }

    #[test]
    fn a_clean_document_is_not_copied() {
        let (parsed, out) = run(&doc(
            "  <url><loc>https://example.com/?a=1&amp;b=2</loc></url>\n",
        ));
        assert!(parsed.ok && parsed.patched.is_none() && out.is_empty());
    }

    #[test]
    fn mismatched_close_labels_the_open_tag_on_the_stack() {
        // The nearest `<url>` before the bad tag is closed; the open one is the outer.
        let text = doc("  <url>\n    <url><loc>https://e.com/b</loc></url>\n  </urll>\n");
        let (parsed, out) = run(&text);
        assert_eq!(underlined(&text, &out), ["</urll>"]);
        let open = &out[0].secondary[0];
        assert_eq!(open.span.start, text.find("  <url>\n").unwrap() + 2);
        assert_eq!(open.message, "`<url>` opened here");
        // Misspelled and longer: rewritten, and the check goes on.
        assert!(parsed.ok);
        assert!(parsed.patched.unwrap().contains("</url >"));
    }

    #[test]
    fn a_missing_close_tag_labels_the_unclosed_element() {
        let text = doc(
            "  <url>\n    <loc>https://e.com/</loc>\n  <url><loc>https://e.com/b</loc></url>\n",
        );
        let (parsed, out) = run(&text);
        assert!(!parsed.ok);
        assert_eq!(underlined(&text, &out), ["</urlset>"]);
        assert_eq!(
            out[0].message,
            "closing tag `</urlset>` does not match the open element `<url>`"
        );
        assert_eq!(out[0].secondary[0].span.start, HEAD.len() + 2);
        assert_eq!(out[0].secondary[0].message, "`<url>` is never closed");
    }

    #[test]
    fn a_stray_close_tag_is_removed() {
        let text = doc("  <url><loc>https://e.com/</loc></url>\n  </url>\n  <url><loc>https://e.com/?a&b</loc></url>\n");
        let (parsed, out) = run(&text);
        assert!(parsed.ok);
        assert_eq!(
            messages(&out),
            ["unexpected closing tag `</url>`", "unescaped `&`"]
        );
        assert_eq!(
            out[0].secondary[0].message,
            "`<url>` was already closed here"
        );
    }

    #[test]
    fn a_bare_lt_is_found_whatever_the_parser_reports() {
        // roxmltree reports these at different places and with different errors.
        for loc in ["a<b", "a<1", "a<", "a < b", "a<=b", "a<b c"] {
            let text = doc(&format!("  <url><loc>https://e.com/?{loc}</loc></url>\n"));
            let (parsed, out) = run(&text);
            assert_eq!(messages(&out), ["unescaped `<` in text"], "{loc}");
            let lt = text.find(&format!("?{loc}")).unwrap() + 1 + loc.find('<').unwrap();
            assert_eq!(out[0].primary.span, lt..lt + 1, "{loc}");
            assert!(parsed.ok, "{loc}");
        }
        // A `<` at the very end.
        let text = format!("{HEAD}  <url><loc>x</loc></url>\n<");
        let (_, out) = run(&text);
        assert_eq!(out[0].message, "unescaped `<` in text");
    }

    #[test]
    fn a_tag_without_its_gt_is_not_taken_for_a_bare_lt() {
        let text = doc("  <url>\n    <loc https://e.com/</loc>\n  </url>\n");
        let (parsed, out) = run(&text);
        assert!(!parsed.ok);
        assert_eq!(underlined(&text, &out), ["<loc"]);
        assert_eq!(out[0].message, "tag `<loc` is not closed with `>`");
    }

    #[test]
    fn lexical_errors_are_all_found_and_literal_sections_skipped() {
        let text = doc(concat!(
            "  <!-- Tom & Jerry -->\n",
            "  <url><loc>https://e.com/?a=1&b=2&amp;c=3</loc></url>\n",
            "  <url><loc><![CDATA[https://e.com/?a&b]]></loc></url>\n",
            "  <url><loc>https://e.com/caf&eacute;&nbsp&#0;&#x41;\u{1}\u{1}</loc></url>\n",
        ));
        let (parsed, out) = run(&text);
        assert!(parsed.ok);
        assert_eq!(
            underlined(&text, &out),
            ["&", "&eacute;", "&nbsp", "&#0;", "\u{1}\u{1}"]
        );
        assert_eq!(
            messages(&out),
            [
                "unescaped `&`",
                "unknown entity `&eacute;`",
                "entity reference `&nbsp` lacks its closing `;`",
                "character reference `&#0;` names a character XML forbids",
                "2 characters U+0001 in a row are not allowed in XML",
            ]
        );
        // The URL keeps its shape: `_` where the `&` was, no whitespace.
        let patched = parsed.patched.unwrap();
        assert!(patched.contains("https://e.com/?a=1_b=2&amp;c=3"));
    }

    #[test]
    fn references_are_classified() {
        let kind = |s: &str| reference_at(s);
        assert_eq!(kind("&amp;"), (5, None));
        assert_eq!(kind("&#x41;"), (6, None));
        assert_eq!(kind("&#65;x"), (5, None));
        assert_eq!(kind("&b=2"), (1, Some(Lexical::BareAmpersand)));
        assert_eq!(kind("& "), (1, Some(Lexical::BareAmpersand)));
        assert_eq!(kind("&"), (1, Some(Lexical::BareAmpersand)));
        // `&lt=2` is a URL parameter named `lt`, not a broken `&lt;`.
        assert_eq!(kind("&lt=2"), (1, Some(Lexical::BareAmpersand)));
        assert_eq!(kind("&lt2"), (1, Some(Lexical::BareAmpersand)));
        assert_eq!(
            kind("&amp x"),
            (4, Some(Lexical::MissingSemicolon("amp".into())))
        );
        assert_eq!(
            kind("&foo;"),
            (5, Some(Lexical::UnknownEntity("foo".into())))
        );
        assert_eq!(kind("&#0;"), (4, Some(Lexical::BadCharRef)));
        assert_eq!(kind("&#xD800;"), (8, Some(Lexical::BadCharRef)));
        assert_eq!(kind("&#12a;"), (4, Some(Lexical::BadCharRef)));
        assert_eq!(kind("&#;"), (2, Some(Lexical::BadCharRef)));
        assert_eq!(kind("&#99999999999;"), (14, Some(Lexical::BadCharRef)));
    }

    #[test]
    fn doctype_entities_point_at_their_declaration() {
        let text = format!(
            "<?xml version=\"1.0\"?>\n<!DOCTYPE urlset [\n  <!ENTITY close \"]>\">\n  <!ENTITY site \"https://e.com\">\n]>\n{}",
            &doc("  <url><loc>&site;/a</loc></url>\n  <url><loc>&site;/b</loc></url>\n")[HEAD.find('\n').unwrap() + 1..]
        );
        let (parsed, out) = run(&text);
        assert!(parsed.ok);
        assert_eq!(out[0].rule.name, "doctype-not-allowed");
        assert!(text[out[0].primary.span.clone()].ends_with("]>"));
        assert_eq!(
            out[0].notes,
            ["the DTD was not processed: its entities (`close`, `site`) are not expanded"]
        );
        assert_eq!(out.len(), 2, "{:?}", messages(&out));
        assert_eq!(&text[out[1].primary.span.clone()], "&site;");
        assert_eq!(&text[out[1].secondary[0].span.clone()], "site");
        assert_eq!(
            out[1].notes,
            ["`&site;` is used 2 times; the other uses are not reported one by one"]
        );
    }

    #[test]
    fn a_broken_declaration_is_left_to_the_prolog_check() {
        for decl in [
            "<?xml version=\"1.0\" encoding=\"UTF-8\">",
            "<?xml version=1.0?>",
            "<?xml encoding=\"UTF-8\" version=\"1.0\"?>",
            "<?XML version=\"1.0\"?>",
            "<?xml version=\"1.0\"",
            "<!-- c --><?xml version=\"1.0\"?>",
            "Warning: x\n<?xml version=\"1.0\"?>",
        ] {
            let text = format!("{decl}\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://e.com/?a&b</loc></url></urlset>");
            let (parsed, out) = run(&text);
            assert_eq!(messages(&out), ["unescaped `&`"], "{decl}");
            assert!(parsed.ok, "{decl}");
        }
    }

    #[test]
    fn no_root_element() {
        let msg = |text: &str| run(text).1[0].message.clone();
        assert_eq!(msg(""), "the file is empty");
        assert_eq!(msg(" \r\n\t"), "the file contains only whitespace");
        let text = "<?xml version=\"1.0\"?>\n<!-- nothing -->\n";
        let (_, out) = run(text);
        assert_eq!(out[0].message, "the file has no root element");
        assert_eq!(
            out[0].primary.span,
            text.trim_end().len()..text.trim_end().len()
        );
        assert_eq!(
            msg("404 Not Found\n"),
            "the file is text, not XML: `404 Not Found`"
        );
    }

    #[test]
    fn content_after_the_root_is_ignored_once_reported() {
        let text = format!("{}Debug: 3 queries\n<p>x</p>", doc(""));
        let (parsed, out) = run(&text);
        assert!(parsed.ok);
        assert_eq!(
            messages(&out),
            ["text after the root element: `Debug: 3 queries`"]
        );
        let text = format!("{}{}", doc(""), doc(""));
        let (parsed, out) = run(&text);
        assert!(parsed.ok);
        assert_eq!(messages(&out), ["XML declaration after the root element"]);
        let text = format!("{}{}", doc(""), &doc("")[HEAD.find('\n').unwrap() + 1..]);
        let (_, out) = run(&text);
        assert_eq!(messages(&out), ["a second root element"]);
    }

    #[test]
    fn the_end_of_a_truncated_file() {
        let text = format!("{HEAD}  <url>\n    <loc>https://e.c");
        let (parsed, out) = run(&text);
        assert!(!parsed.ok);
        assert_eq!(out[0].message, "unexpected end of file");
        assert_eq!(out[0].primary.span, text.len()..text.len());
        let labels: Vec<&str> = out[0]
            .secondary
            .iter()
            .map(|l| l.message.as_str())
            .collect();
        assert_eq!(
            labels,
            [
                "`<urlset>` is never closed",
                "the file ends inside this `<loc>`"
            ]
        );
        assert!(out[0]
            .help
            .as_deref()
            .unwrap()
            .ends_with("`</loc></url></urlset>`"));
        let (_, out) = run(&format!("{HEAD}  <!-- <url>\n"));
        assert_eq!(out[0].message, "unclosed comment");
    }

    #[test]
    fn too_many_errors_are_counted_and_the_model_still_built() {
        let body: String = (0..60)
            .map(|i| format!("  <url><loc>https://e.com/?q={i}&p=2</loc></url>\n"))
            .collect();
        let (parsed, out) = run(&doc(&body));
        assert!(parsed.ok);
        assert_eq!(out.len(), MAX_XML_ERRORS);
        assert_eq!(
            out.last().unwrap().notes,
            ["10 more XML errors were not reported one by one; fix these first"]
        );
    }

    #[test]
    fn patched_text_runs_are_known() {
        let text = doc("  <url><loc>https://e.com/?a < b</loc></url>\n  <url><loc>https://e.com/ x</loc></url>\n");
        let (parsed, _) = run(&text);
        assert!(parsed.ok);
        let a = text.find("?a").unwrap();
        assert!(parsed.touches_patch(&(a..a + 2)));
        let x = text.find("/ x").unwrap();
        assert!(!parsed.touches_patch(&(x..x + 3)));
    }

    #[test]
    fn declaration_ends_skip_quotes_brackets_and_comments() {
        let d = "<!DOCTYPE a [ <!ENTITY x \"]>\"> <!-- ] > --> ]>";
        assert_eq!(declaration_end(&format!("{d}<a/>")), Some(d.len()));
        assert_eq!(declaration_end("<!DOCTYPE a [ <!ENTITY x \"]>"), None);
        assert_eq!(declaration_end("<!doctype html>x"), Some(15));
    }

    const FUZZ_ROUNDS: usize = 3_000;

    /// Deterministic fuzzing: random concatenations of XML fragments never panic, never loop,
    /// and satisfy the invariants of [`run`].
    #[test]
    fn fuzz_fragments() {
        const FRAGMENTS: &[&str] = &[
            "<?xml version=\"1.0\"?>",
            "<?xml",
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">",
            "</urlset>",
            "<url>",
            "</url>",
            "<loc>",
            "</loc>",
            "</lo>",
            "</locc>",
            "https://e.com/",
            "&",
            "&amp;",
            "&nbsp;",
            "&#0;",
            "&#x41;",
            "<",
            ">",
            "<!--",
            "-->",
            "--",
            "<![CDATA[",
            "]]>",
            "<!DOCTYPE u [<!ENTITY e \"x\">]>",
            "&e;",
            "<!doctype",
            "<?",
            "?>",
            "\"",
            "'",
            "=",
            " a=\"1\"",
            " ",
            "\n",
            "\r\n",
            "\0",
            "\u{1}",
            "é",
            "日本",
            "\u{feff}",
            "<image:image>",
            "xmlns:x=\"u\"",
            "/>",
            "</",
            "<!",
        ];
        let mut state: u64 = 0x2545_f491_4f6c_dd1d;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for _ in 0..FUZZ_ROUNDS {
            let len = (next() % 24) as usize;
            let mut text = String::new();
            for _ in 0..len {
                text.push_str(FRAGMENTS[(next() % FRAGMENTS.len() as u64) as usize]);
            }
            run(&text);
        }
    }
}
