//! Reading the raw text around an error: offsets, names, where markup ends, what encloses a
//! position.

use std::ops::Range;

use roxmltree::TextPos;

/// Byte offset in `text` of a roxmltree position in `text[skip..]`.
pub(super) fn offset_of(text: &str, skip: usize, pos: TextPos) -> usize {
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

pub(super) fn char_span(text: &str, at: usize) -> Range<usize> {
    let len = text[at..].chars().next().map_or(0, char::len_utf8);
    at..at + len
}

pub(super) use crate::values::text::excerpt as show;

/// XML 1.0 `Char`: what may appear in a document at all.
pub(super) fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

pub(super) fn is_name_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == ':'
}

pub(super) fn is_name_char(c: char) -> bool {
    is_name_start(c) || c.is_numeric() || matches!(c, '-' | '.' | '\u{B7}')
}

/// The element name at the start of `tag` (`<name …`, `</name>`).
pub(super) fn tag_name(tag: &str) -> &str {
    let t = tag.trim_start_matches('<').trim_start_matches('/');
    let end = t
        .find(|c: char| c.is_whitespace() || matches!(c, '>' | '/' | '<'))
        .unwrap_or(t.len());
    &t[..end]
}

/// Markup that can be left open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Markup {
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
pub(super) fn markup_end(text: &str, at: usize, to: usize) -> (Markup, Option<usize>) {
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
pub(super) fn declaration_end(s: &str) -> Option<usize> {
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
pub(super) struct Structure<'t> {
    /// Start tags of the elements open at `to`, outermost first: (span, name).
    pub(super) open: Vec<(Range<usize>, &'t str)>,
    /// The last closing tag: (span, name).
    pub(super) last_closed: Option<(Range<usize>, &'t str)>,
    /// The first start tag: (span, name).
    pub(super) root: Option<(Range<usize>, &'t str)>,
    /// The closing tag (or the empty-element tag) that ended the root element.
    pub(super) root_end: Option<Range<usize>>,
    /// Markup that starts before `to` and does not end by it.
    pub(super) unclosed: Option<(Markup, Range<usize>)>,
}

pub(super) fn structure(text: &str, from: usize, to: usize) -> Structure<'_> {
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
