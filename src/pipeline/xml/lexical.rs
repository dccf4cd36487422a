//! Lexical errors: bare `&`, unknown or bad references, forbidden characters, all found in one
//! scan once the parser has hit the first.

use std::collections::HashMap;
use std::ops::Range;

use crate::values::finding::Edit;
use crate::values::text::excerpt;

use super::patch::{content_edits, State, Step};
use super::problem::{CharRef, Syntax as K, XmlKind, XmlProblem as P};
use super::scan::{
    char_span, is_name_char, is_name_start, is_xml_char, markup_end, structure, Markup,
};
use super::MAX_XML_ERRORS;

/// A lexical error: something wrong with a character or reference wherever it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Lexical {
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
pub(super) fn lexical_errors(
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
pub(super) fn reference_at(s: &str) -> (usize, Option<Lexical>) {
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

/// Unescaped `&`, bad references and forbidden characters: everything of the kind from `at` on is
/// reported and patched at once.
pub(super) fn lexical(state: &mut State<'_>, buf: &str, at: usize) -> Step {
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
    let mut problems = Vec::new();
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
                    dtd_uses.insert(name.clone(), (problems.len(), 1));
                    problems.push(P::new(
                        span.clone(),
                        K::DtdEntity {
                            name: name.clone(),
                            declared: (*decl).clone(),
                            uses: 1,
                        },
                    ));
                }
                continue;
            }
        }
        // Past the cap the errors are only counted (a file may hold millions).
        if problems.len() < MAX_XML_ERRORS {
            problems.push(lexical_problem(buf, span, kind));
        } else {
            extra += 1;
            if kind == Lexical::BareAmpersand && state.fix_budget > 0 {
                state.fix_budget -= 1;
                let mut p = lexical_problem(buf, span, kind);
                p.beyond_cap = true;
                problems.push(p);
            }
        }
    }
    for (index, uses) in dtd_uses.into_values() {
        if let Some(XmlKind::Syntax(K::DtdEntity { uses: n, .. })) =
            problems.get_mut(index).map(|p| &mut p.kind)
        {
            *n = uses;
        }
    }
    Step {
        problems,
        extra,
        edits: Some(content_edits(buf, &spans)),
    }
}

/// The problem a lexical error at `span` of `buf` is.
pub(super) fn lexical_problem(buf: &str, span: Range<usize>, kind: Lexical) -> P {
    let text = &buf[span.clone()];
    let kind: K = match kind {
        Lexical::BareAmpersand => {
            let after: String = buf[span.end..]
                .chars()
                .take_while(|c| !c.is_whitespace() && !matches!(c, '<' | '&' | '"' | '\''))
                .take(20)
                .collect();
            let at = span.start;
            let fix = buf[at..]
                .starts_with('&')
                .then(|| Edit::replace(at..at + 1, "&amp;"));
            K::BareAmpersand { after, fix }
        }
        Lexical::MissingSemicolon(name) => K::MissingSemicolon { name },
        Lexical::UnknownEntity(name) => {
            let html = html_entity(&name);
            K::UnknownEntity { name, html }
        }
        Lexical::BadCharRef => {
            let problem = if text.ends_with(';') {
                let digits = text.trim_start_matches("&#").trim_end_matches(';');
                let code = match digits.strip_prefix('x') {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => digits.parse::<u32>().ok(),
                };
                match code {
                    Some(c) if char::from_u32(c).is_some() || (0xD800..0xE000).contains(&c) => {
                        CharRef::Forbidden(c)
                    }
                    _ => CharRef::OutOfRange,
                }
            } else {
                let digits = text
                    .trim_start_matches("&#")
                    .trim_start_matches('x')
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_hexdigit());
                CharRef::Malformed { digits }
            };
            // A malformed reference runs to no `;`: an excerpt of it is enough.
            let written = match problem {
                CharRef::Malformed { .. } => excerpt(text),
                _ => text.to_string(),
            };
            K::BadCharRef { written, problem }
        }
        Lexical::Forbidden => {
            let first = text.chars().next().unwrap_or('\0');
            K::Forbidden {
                first,
                count: text.chars().count(),
                same: text.chars().all(|c| c == first),
            }
        }
    };
    P::new(span, kind)
}

/// Code points of common HTML entities that XML does not know.
pub(super) fn html_entity(name: &str) -> Option<u32> {
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

/// The first character reference from `from` on that is malformed or names no XML character,
/// among them those roxmltree accepts, turning them into U+FFFD without an error: beyond U+10FFFF (`&#x110000;`, or too many
/// digits for 32 bits) or a UTF-16 surrogate (`&#xD800;`). References inside comments, CDATA
/// sections and processing instructions are literal text and skipped.
///
/// Linear in the length of `text`: one vectorised search for `&#`, and, only where one is found,
/// searches for the openers of literal sections between it and the previous one.
pub(crate) fn first_bad_char_ref(text: &str, from: usize) -> Option<usize> {
    const OPENERS: [(&[u8], &[u8]); 3] =
        [(b"<!--", b"-->"), (b"<![CDATA[", b"]]>"), (b"<?", b"?>")];
    let b = text.as_bytes();
    let refs = memchr::memmem::Finder::new(b"&#");
    let openers = OPENERS.map(|(open, _)| memchr::memmem::Finder::new(open));
    // The next opener of each kind at or after `markup` (`usize::MAX`: none left).
    let mut next = [0usize; 3];
    let mut known = [false; 3];
    let mut markup = from;
    let mut i = from;
    while let Some(p) = b.get(i..).and_then(|rest| refs.find(rest)) {
        let at = i + p;
        // Literal sections opening before `at`: skip them, and the reference if inside one.
        let mut literal_end = None;
        loop {
            for k in 0..3 {
                if !known[k] || (next[k] != usize::MAX && next[k] < markup) {
                    next[k] = b
                        .get(markup..)
                        .and_then(|rest| openers[k].find(rest))
                        .map_or(usize::MAX, |q| markup + q);
                    known[k] = true;
                }
            }
            let Some((k, &open)) = next.iter().enumerate().min_by_key(|(_, &n)| n) else {
                break;
            };
            if open >= at {
                break;
            }
            let body = open + OPENERS[k].0.len();
            let close = OPENERS[k].1;
            let end =
                memchr::memmem::find(&b[body..], close).map_or(b.len(), |q| body + q + close.len());
            markup = end;
            if end > at {
                literal_end = Some(end);
                break;
            }
        }
        if let Some(end) = literal_end {
            i = end;
            continue;
        }
        // A malformed reference is also reported (the parser would stop at it anyway).
        let (len, kind) = reference_at(&text[at..]);
        if kind.is_some() {
            return Some(at);
        }
        i = at + len.max(2);
    }
    None
}
