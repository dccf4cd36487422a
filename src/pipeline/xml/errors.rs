//! Each roxmltree error turned into located diagnostics with a fix, and the patch that gets past
//! it.

use std::ops::Range;

use roxmltree::{Error, TextPos};

use crate::diagnostic::Diagnostic;
use crate::pipeline::source::floor_char_boundary;
use crate::rules::{input::doctype_not_allowed, input::xml_syntax};
use crate::values::text;

use super::lexical::lexical;
use super::patch::{blank_content, blank_markup, content_edits, Edit, State, Step};
use super::scan::{
    char_span, is_name_char, is_name_start, is_xml_char, markup_end, offset_of, show, show_char,
    structure, tag_name, Markup,
};
use super::MAX_XML_ERRORS;

/// The diagnostics and the patch for one parser error.
pub(super) fn describe(state: &mut State<'_>, buf: &str, error: &Error) -> Step {
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

/// A `<!DOCTYPE` at `at`: reported, blanked out, and its entities remembered.
pub(super) fn doctype(state: &mut State<'_>, buf: &str, at: usize) -> Step {
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
pub(super) fn token(state: &mut State<'_>, buf: &str, at: usize) -> Step {
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
            None => {
                // A list of URLs is a text sitemap, which only a `.txt` name makes one.
                let urls = rest.get(..8).is_some_and(|s| {
                    let s = s.to_ascii_lowercase();
                    s.starts_with("http://") || s.starts_with("https://")
                });
                let help = if urls {
                    "a text sitemap (one URL per line) must be named `*.txt` or `*.txt.gz`: rename the file, or write it as XML (`<urlset …>`)"
                } else {
                    "a sitemap is an XML document: `<?xml version=\"1.0\" encoding=\"UTF-8\"?>` and then `<urlset …>`; was an error page saved instead of the sitemap?"
                };
                Step::stop(
                    Diagnostic::new(syntax, span, format!("the file is text, not XML: `{text}`"))
                        .with_label("expected the root element `<urlset>` or `<sitemapindex>`")
                        .with_help(help),
                )
            }
        };
    }
    let d = Diagnostic::new(syntax, char_span(buf, at), "malformed markup")
        .with_label("the XML parser cannot read this")
        .with_help("check for a broken tag, an unescaped `<` or `&`, or a stray character");
    Step::stop(d)
}

/// A `<` that starts no tag: reported and patched over.
pub(super) fn bare_lt(buf: &str, lt: usize) -> Step {
    let d = Diagnostic::new(&xml_syntax::META, lt..lt + 1, "unescaped `<` in text")
        .with_label("`<` starts a tag in XML")
        .with_help("write `&lt;` for a literal less-than sign (in a URL, `%3C`)");
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
pub(super) fn invalid_name(state: &mut State<'_>, buf: &str, at: usize) -> Step {
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
pub(super) fn duplicate_attribute(buf: &str, at: usize, name: &str, namespace: bool) -> Step {
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
            format!(
                "namespace prefix `{}` is declared twice on one element",
                crate::diagnostic::shown(name)
            )
        } else {
            format!(
                "attribute `{}` appears twice in one tag",
                crate::diagnostic::shown(&written)
            )
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
pub(super) fn end_of_file(buf: &str, skip: usize) -> Step {
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
pub(super) fn no_root(state: &State<'_>) -> Step {
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
        _ => crate::values::namespace::known_by_prefix(prefix).map(|k| k.uri),
    }
}
