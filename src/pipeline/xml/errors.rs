//! Each roxmltree error turned into located, typed problems (worded by the rules), and the patch
//! that gets past it.

use std::ops::Range;

use roxmltree::{Error, TextPos};

use crate::pipeline::source::floor_char_boundary;
use crate::values::text;

use super::lexical::lexical;
use super::patch::{blank_content, blank_markup, content_edits, Edit, State, Step};
use super::problem::{Syntax as K, Unclosed, Wanted, XmlKind, XmlProblem as P};
use super::scan::{
    char_span, is_name_char, is_name_start, is_xml_char, markup_end, offset_of, show, structure,
    tag_name, Markup,
};
use super::MAX_XML_ERRORS;

/// The problems and the patch for one parser error.
pub(super) fn describe(state: &mut State<'_>, buf: &str, error: &Error) -> Step {
    let skip = state.skip;
    let pos = |p: &TextPos| offset_of(buf, skip, *p).min(buf.len());
    match error {
        Error::MalformedEntityReference(p)
        | Error::UnknownEntityReference(_, p)
        | Error::NonXmlChar(_, p) => lexical(state, buf, pos(p)),
        Error::InvalidAttributeValue(p) => {
            let at = pos(p);
            let span = char_span(buf, at);
            let d = P::new(span.clone(), K::LtInAttribute { labelled: false });
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
                let d = P::new(at..end, K::DeclarationAfterRoot);
                Step::patch(d, vec![blank_markup(at..buf.len())])
            } else {
                let d = P::new(at..end, K::DeclarationInMiddle);
                Step::patch(d, vec![blank_markup(at..end)])
            }
        }
        Error::UnknownNamespace(prefix, p) => {
            let at = pos(p);
            let span = at..(at + prefix.len()).min(buf.len());
            let d = P::new(
                span,
                K::UndeclaredPrefix {
                    prefix: prefix.clone(),
                },
            );
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
            let d = P::new(span, K::DashesInComment { comment: at..end });
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
                return Step::stop(P::new(
                    char_span(buf, at),
                    K::CdataEndInText { labelled: false },
                ));
            }
            let problems: Vec<P> = spans
                .iter()
                .take(MAX_XML_ERRORS)
                .map(|span| P::new(span.clone(), K::CdataEndInText { labelled: true }))
                .collect();
            Step {
                extra: spans.len() - problems.len(),
                problems,
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
            let d = P::new(
                char_span(buf, at),
                K::ExpectedString {
                    expected: expected.to_string(),
                },
            );
            Step::stop(d)
        }
        other => {
            let at = match other.pos() {
                p if p.row == 1 && p.col == 1 => skip,
                p => pos(&p),
            };
            Step::stop(P::new(char_span(buf, at), K::Parser(other.clone())))
        }
    }
}

/// A `<!DOCTYPE` at `at`: reported, blanked out, and its entities remembered.
pub(super) fn doctype(state: &mut State<'_>, buf: &str, at: usize) -> Step {
    let end = markup_end(buf, at, buf.len()).1;
    let Some(end) = end else {
        return Step::stop(P::new(
            at..(at + 9).min(buf.len()),
            XmlKind::DoctypeUnclosed,
        ));
    };
    let span = at..end;
    let entities = dtd_entities(buf, span.clone());
    let d = P::new(
        span.clone(),
        XmlKind::Doctype {
            entities: entities.iter().take(3).map(|(n, _)| n.clone()).collect(),
            entity_count: entities.len(),
        },
    );
    state.dtd_entities.extend(entities);
    Step::patch(d, vec![blank_markup(span)])
}

/// `<!ENTITY name …>` declarations in a DOCTYPE (general entities only): names and their spans.
pub(super) fn dtd_entities(buf: &str, span: Range<usize>) -> Vec<(String, Range<usize>)> {
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
pub(super) fn close_tag(buf: &str, skip: usize, at: usize, expected: &str, actual: &str) -> Step {
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
        let literal = open.as_ref().is_some_and(in_text);
        return Step::stop(P::new(
            span,
            K::CloseTagMissing {
                actual: actual.to_string(),
                expected: expected.to_string(),
                open,
                literal,
            },
        ));
    }
    // A misspelled closing tag: rewrite it to the expected name when it fits, and go on.
    if text::closest(actual, &[expected]).is_some() {
        let d = P::new(
            span.clone(),
            K::CloseTagMisspelled {
                actual: actual.to_string(),
                expected: expected.to_string(),
                open,
            },
        );
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
    let (closed, open) = match &s.last_closed {
        Some((r, n)) if *n == actual => (Some(r.clone()), None),
        _ => (None, open.map(|r| (r, expected.to_string()))),
    };
    let d = P::new(
        span.clone(),
        K::CloseTagStray {
            actual: actual.to_string(),
            closed,
            open,
        },
    );
    Step::patch(d, vec![blank_markup(span)])
}

/// `UnknownToken`: at a `<!`, a `<` at the end, text before the root element, content after it.
pub(super) fn token(state: &mut State<'_>, buf: &str, at: usize) -> Step {
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
        let d = P::new(
            at..end.unwrap_or(at + 2).min(next_lt).max(at + 2),
            K::MalformedDeclaration {
                excerpt: show(
                    &buf[at..floor_char_boundary(buf, end.unwrap_or(next_lt).min(at + 20))],
                ),
            },
        );
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
        let kind = if is_element {
            K::SecondRoot { root_end }
        } else {
            K::TextAfterRoot {
                excerpt: show(&buf[span.clone()]),
                root_end,
            }
        };
        return Step::patch(P::new(span, kind), vec![blank_markup(at..buf.len())]);
    }
    if s.root.is_none() && !rest.starts_with('<') {
        let line_end = rest.find(['\r', '\n', '<']).map_or(buf.len(), |e| at + e);
        let span = at..line_end.max(at + char_span(buf, at).len());
        let excerpt = show(&buf[span.clone()]);
        return match rest.find('<') {
            Some(n) => Step::patch(
                P::new(span, K::TextBeforeRoot { excerpt }),
                vec![blank_markup(at..at + n)],
            ),
            None => {
                // A list of URLs is a text sitemap, which only a `.txt` name makes one.
                let urls = rest.get(..8).is_some_and(|s| {
                    let s = s.to_ascii_lowercase();
                    s.starts_with("http://") || s.starts_with("https://")
                });
                Step::stop(P::new(span, K::NotXml { excerpt, urls }))
            }
        };
    }
    Step::stop(P::new(char_span(buf, at), K::MalformedMarkup))
}

/// A `<` that starts no tag: reported and patched over.
pub(super) fn bare_lt(buf: &str, lt: usize) -> Step {
    let d = P::new(lt..lt + 1, K::BareLt);
    Step::patch(d, vec![blank_content(buf, lt..lt + 1)])
}

/// The `<` of the tag the parser is in at `at`, and whether it stands in the middle of text (so
/// it is more likely a literal `<` than a broken tag).
pub(super) fn tag_start(buf: &str, at: usize) -> Option<(usize, bool)> {
    let lt = buf[..at].rfind('<')?;
    let in_text = buf[..lt]
        .chars()
        .next_back()
        .is_some_and(|c| !c.is_whitespace() && c != '>');
    Some((lt, in_text))
}

/// A start tag at `lt` that the parser could not finish because another `<` came first.
pub(super) fn unterminated_tag(buf: &str, lt: usize, in_text: bool) -> Step {
    if in_text {
        return bare_lt(buf, lt);
    }
    let name = tag_name(&buf[lt..]);
    let close = buf[lt..].starts_with("</");
    let span = lt..lt + name.len() + if close { 2 } else { 1 };
    Step::stop(P::new(
        span,
        K::TagNotClosed {
            name: name.to_string(),
            close,
        },
    ))
}

/// `InvalidName`: a tag, attribute or PI name that cannot start where it does.
pub(super) fn invalid_name(state: &mut State<'_>, buf: &str, at: usize) -> Step {
    let before = &buf[..at];
    let next = buf[at..].chars().next();
    if next.is_some_and(|c| !is_xml_char(c)) {
        return lexical(state, buf, at);
    }
    if before.ends_with("</") {
        let end = buf[at..].find('>').map_or(at, |e| at + e + 1);
        return Step::stop(P::new(at - 2..end.max(at), K::MalformedCloseTag));
    }
    if before.ends_with("<?") {
        let end = buf[at..].find("?>").map(|e| at + e + 2);
        let d = P::new(at - 2..end.unwrap_or(at), K::MalformedPi);
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
            return Step::stop(P::new(
                at..at + name.len(),
                K::InvalidElementName {
                    excerpt: show(name),
                },
            ));
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
    let found = next.unwrap_or(' ');
    Step::stop(P::new(
        char_span(buf, at),
        K::ExpectedAttributeName { found },
    ))
}

pub(super) enum Expected<'e> {
    Byte(u8),
    Text(&'e str),
}

/// `InvalidChar`/`InvalidChar2`: the parser wanted one thing and found another.
pub(super) fn invalid_char(
    state: &mut State<'_>,
    buf: &str,
    at: usize,
    expected: Expected<'_>,
    actual: u8,
) -> Step {
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
                return Step::stop(P::new(
                    open..open + 1,
                    K::AttributeValueNotClosed { quote: *q as char },
                ));
            }
            let d = P::new(at..at + 1, K::LtInAttribute { labelled: true });
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
            return Step::stop(P::new(
                at..end.max(at + 1),
                K::AttributeNotQuoted {
                    name: name.to_string(),
                    value: value.chars().take(101).collect(),
                },
            ));
        }
        (Expected::Text("a whitespace"), _) => {
            let prev = buf[..at].chars().next_back();
            if matches!(prev, Some('"' | '\'')) {
                let name = &buf[at..][..buf[at..]
                    .find(|c: char| !is_name_char(c))
                    .unwrap_or(buf.len() - at)];
                return Step::stop(P::new(
                    char_span(buf, at),
                    K::MissingSpaceBeforeAttribute {
                        excerpt: show(name),
                    },
                ));
            }
        }
        (Expected::Byte(b'='), _) => {
            let name_end = buf[..at].trim_end().len();
            let name_start = buf[..name_end]
                .rfind(|c: char| c.is_whitespace() || c == '<')
                .map_or(0, |p| p + 1);
            let name = &buf[name_start..name_end];
            return Step::stop(P::new(
                name_start..name_end.max(name_start + 1),
                K::AttributeWithoutValue {
                    excerpt: show(name),
                },
            ));
        }
        _ => {}
    }
    let wanted = match expected {
        Expected::Byte(b) => Wanted::Byte(b),
        Expected::Text(t) => Wanted::Text(t.to_string()),
    };
    Step::stop(P::new(
        char_span(buf, at),
        K::ExpectedFound { wanted, found },
    ))
}

/// The same attribute (or namespace declaration) twice in one tag: the second is removed.
pub(super) fn duplicate_attribute(buf: &str, at: usize, name: &str, namespace: bool) -> Step {
    // roxmltree points at the attribute; find its value's end.
    let attr_end = (|| {
        let eq = at + buf[at..].find('=')?;
        let q_at = eq + 1 + buf[eq + 1..].find(['"', '\''])?;
        let q = buf[q_at..].chars().next()?;
        Some(q_at + 1 + buf[q_at + 1..].find(q)? + 1)
    })();
    let name_span = at..(at
        + buf[at..]
            .find(['=', ' ', '\t', '\n', '\r', '>'])
            .unwrap_or(0))
    .max(at + 1);
    let tag_start = buf[..at].rfind('<').unwrap_or(0);
    let needle_len = buf[at..]
        .find(['=', ' ', '\t', '\n', '\r', '>'])
        .unwrap_or(0);
    let needle = &buf[at..at + needle_len];
    let first = buf[tag_start..at]
        .match_indices(needle)
        .map(|(i, _)| tag_start + i)
        .find(|&i| buf[..i].ends_with(|c: char| c.is_whitespace()))
        .map(|first| first..first + needle.len());
    let d = P::new(
        name_span,
        K::DuplicateAttribute {
            name: name.to_string(),
            namespace,
            first,
        },
    );
    match attr_end {
        Some(end) => Step::patch(d, vec![blank_markup(at..end)]),
        None => Step::stop(d),
    }
}

/// The file ends before the document does.
pub(super) fn end_of_file(buf: &str, skip: usize) -> Step {
    let s = structure(buf, skip, buf.len());
    if let Some((kind, range)) = &s.unclosed {
        let (what, open) = match kind {
            Markup::Comment => (Some(Unclosed::Comment), "<!--"),
            Markup::Cdata => (Some(Unclosed::Cdata), "<![CDATA["),
            Markup::Pi => (Some(Unclosed::Pi), "<?"),
            Markup::Declaration | Markup::Tag => (None, ""),
        };
        if let Some(what) = what {
            return Step::stop(P::new(
                range.start..range.start + open.len(),
                K::UnclosedMarkup(what),
            ));
        }
    }
    let end = buf.trim_end().len();
    // Name the closing tags a complete file would have, but not a million of them.
    const SHOWN: usize = 8;
    let kind = K::UnexpectedEnd {
        root: s.open.first().map(|(r, n)| (r.clone(), n.to_string())),
        inner: s
            .open
            .last()
            .filter(|_| s.open.len() > 1)
            .map(|(r, n)| (r.clone(), n.to_string())),
        closing: s
            .open
            .iter()
            .rev()
            .take(SHOWN)
            .map(|(_, n)| n.to_string())
            .collect(),
        open_count: s.open.len(),
    };
    Step::stop(P::new(end..end, kind))
}

/// The document has no element at all.
pub(super) fn no_root(state: &State<'_>) -> Step {
    let original = state.original;
    if original.is_empty() {
        return Step::stop(P::new(0..0, K::Empty));
    }
    if crate::values::text::is_xml_blank(original) {
        return Step::stop(P::new(0..0, K::OnlyWhitespace));
    }
    let end = original.trim_end().len();
    Step::stop(P::new(end..end, K::NoRoot))
}

/// Namespaces a sitemap commonly uses, by conventional prefix.
pub fn known_namespace(prefix: &str) -> Option<&'static str> {
    match prefix {
        "xsi" => Some(crate::pipeline::model::XSI_NS),
        _ => crate::values::namespace::known_by_prefix(prefix).map(|k| k.uri),
    }
}
