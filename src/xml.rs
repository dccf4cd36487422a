//! XML parsing with roxmltree: each parser error becomes a located diagnostic with a fix hint, and common errors are patched over so later ones are found too.

use std::ops::Range;

use roxmltree::{Document, Error, ParsingOptions, TextPos};

use crate::diagnostic::Diagnostic;
use crate::rules::{doctype_not_allowed, xml_syntax};

/// XML errors reported per file at most (each needs a re-parse to find the next).
pub const MAX_XML_ERRORS: usize = 50;
/// Bytes re-parsed per file at most while looking for further errors.
const REPARSE_BUDGET: usize = 256 * 1024 * 1024;

fn options<'a>() -> ParsingOptions<'a> {
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
}

/// Parses `text[skip..]`, reporting every error found into `out`. Returns `ok == false` when an
/// error could not be patched over; the tree must then not be used.
pub fn check(text: &str, skip: usize, out: &mut Vec<Diagnostic>) -> Parsed {
    let first = match Document::parse_with_options(&text[skip..], options()) {
        Ok(_) => {
            return Parsed {
                patched: None,
                ok: true,
            }
        }
        Err(e) => e,
    };
    let mut buf = text.to_string();
    let mut error = first;
    let mut budget = REPARSE_BUDGET;
    let mut reported = 0usize;
    loop {
        let (diagnostic, patch) = describe(&buf, skip, &error);
        out.push(diagnostic);
        reported += 1;
        let Some(patch) = patch else {
            return Parsed {
                patched: Some(buf),
                ok: false,
            };
        };
        blank(&mut buf, patch, is_doctype(&error));
        budget = budget.saturating_sub(buf.len());
        if reported >= MAX_XML_ERRORS || budget == 0 {
            // Check whether anything is left without reporting it in detail.
            if Document::parse_with_options(&buf[skip..], options()).is_err() {
                if let Some(last) = out.last_mut() {
                    last.notes
                        .push("further XML errors were not reported; fix these first".into());
                }
                return Parsed {
                    patched: Some(buf),
                    ok: false,
                };
            }
            return Parsed {
                patched: Some(buf),
                ok: true,
            };
        }
        match Document::parse_with_options(&buf[skip..], options()) {
            Ok(_) => {
                return Parsed {
                    patched: Some(buf),
                    ok: true,
                }
            }
            Err(e) => error = e,
        }
    }
}

fn is_doctype(error: &Error) -> bool {
    matches!(error, Error::DtdDetected)
}

/// Replaces the bytes of `range` with one ASCII byte each (newlines kept), so offsets do not move:
/// spaces for markup such as a DOCTYPE, `_` inside content so a patched URL gains no whitespace.
fn blank(buf: &mut String, range: Range<usize>, markup: bool) {
    let Some(slice) = buf.get(range.clone()) else {
        return;
    };
    let replacement: String = slice
        .chars()
        .flat_map(|c| {
            let fill = match c {
                '\n' => '\n',
                _ if markup => ' ',
                _ => '_',
            };
            let n = c.len_utf8();
            std::iter::repeat_n(fill, n)
        })
        .collect();
    buf.replace_range(range, &replacement);
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

/// The span of the nearest start tag named `name` before `at` that is not self-closing.
fn open_tag_before(text: &str, at: usize, name: &str) -> Option<Range<usize>> {
    let hay = &text[..at];
    let needle = format!("<{name}");
    let mut end = hay.len();
    while let Some(p) = hay[..end].rfind(&needle) {
        let after = hay.as_bytes().get(p + needle.len()).copied();
        if matches!(after, Some(b' ' | b'>' | b'\t' | b'\r' | b'\n')) {
            let close = hay[p..].find('>').map_or(hay.len(), |c| p + c + 1);
            if !hay[p..close].ends_with("/>") {
                return Some(p..close);
            }
        }
        end = p;
    }
    None
}

/// The span and fix for one parser error, and the range to blank out to continue (if recoverable).
fn describe(text: &str, skip: usize, error: &Error) -> (Diagnostic, Option<Range<usize>>) {
    let syntax = &xml_syntax::META;
    let pos = |p: &TextPos| offset_of(text, skip, *p);
    match error {
        Error::MalformedEntityReference(p) => {
            let at = pos(p);
            let span = char_span(text, at);
            let after: String = text[span.end..]
                .chars()
                .take_while(|c| !c.is_whitespace() && *c != '<' && *c != '&')
                .take(20)
                .collect();
            let d = Diagnostic::new(syntax, span.clone(), "unescaped `&`")
                .with_label("`&` must start an entity reference such as `&amp;`")
                .with_help(format!(
                    "write `&amp;` for a literal ampersand: `&amp;{after}` (in URLs too: `?a=1&amp;b=2`)"
                ));
            (d, Some(span))
        }
        Error::UnknownEntityReference(name, p) => {
            let at = pos(p);
            let end = text[at..]
                .find(';')
                .filter(|&e| e <= name.len() + 2)
                .map_or(at + 1, |e| at + e + 1);
            let span = at..end;
            let mut d = Diagnostic::new(syntax, span.clone(), format!("unknown entity `&{name};`"))
                .with_label("XML defines only `&amp;` `&lt;` `&gt;` `&quot;` `&apos;`");
            d = match html_entity(name) {
                Some(code) => d.with_help(format!(
                    "`&{name};` is an HTML entity; write the character itself (UTF-8) or `&#{code};`; inside a URL, percent-encode it instead"
                )),
                None => d.with_help(format!(
                    "if `&` is meant literally, escape it as `&amp;{name};`"
                )),
            };
            (d, Some(span))
        }
        Error::NonXmlChar(c, p) => {
            let at = pos(p);
            let span = char_span(text, at);
            let d = Diagnostic::new(
                syntax,
                span.clone(),
                format!("character U+{:04X} is not allowed in XML", *c as u32),
            )
            .with_label("not an XML character")
            .with_help(
                "remove it: XML 1.0 forbids most control characters, even as `&#…;` references",
            );
            (d, Some(span))
        }
        Error::InvalidAttributeValue(p) => {
            let at = pos(p);
            let span = char_span(text, at);
            let d = Diagnostic::new(syntax, span.clone(), "`<` inside an attribute value")
                .with_help("write `&lt;` instead");
            (d, Some(span))
        }
        Error::DtdDetected => {
            let span = doctype_span(text).unwrap_or(0..0);
            let d = Diagnostic::new(
                &doctype_not_allowed::META,
                span.clone(),
                "DOCTYPE declarations are not allowed in sitemaps",
            )
            .with_label("remove this declaration")
            .with_help("delete the `<!DOCTYPE …>`: sitemaps are defined by an XML Schema, not a DTD, and search engines refuse DTDs because they enable entity-expansion attacks (billion laughs, external entities)");
            let recover = if span.is_empty() { None } else { Some(span) };
            (d, recover)
        }
        Error::UnexpectedCloseTag(expected, actual, p) => {
            let at = pos(p);
            let end = text[at..]
                .find('>')
                .map_or(at + 2 + actual.len(), |e| at + e + 1);
            let mut d = Diagnostic::new(
                syntax,
                at..end,
                format!("closing tag `</{actual}>` does not match the open element `<{expected}>`"),
            )
            .with_label(format!("expected `</{expected}>`"));
            if let Some(open) = open_tag_before(text, at, expected) {
                d = d.with_secondary(open, format!("`<{expected}>` opened here"));
            }
            d = d.with_help(format!(
                "close `<{expected}>` with `</{expected}>` before `</{actual}>`, or fix the misspelled tag"
            ));
            (d, None)
        }
        Error::UnknownToken(p) | Error::InvalidName(p) => {
            let at = pos(p);
            describe_token(text, skip, at)
        }
        Error::UnclosedRootNode | Error::UnexpectedEndOfStream => {
            let end = text.len();
            let mut d = Diagnostic::new(syntax, end..end, "unexpected end of file")
                .with_label("the file ends here");
            if let Some(root) = root_start_tag(text, skip) {
                let name = tag_name(&text[root.clone()]);
                d = d
                    .with_secondary(root, format!("`<{name}>` is never closed"))
                    .with_help(format!(
                        "the file looks truncated: make sure it ends with `</{name}>` (was the upload or the generator interrupted?)"
                    ));
            }
            (d, None)
        }
        Error::NoRootNode => {
            let span = 0..text.len().min(
                text.find(|c: char| !c.is_whitespace())
                    .map_or(0, |_| text.len()),
            );
            let msg = if text.trim().is_empty() {
                "the file is empty"
            } else {
                "the file has no root element"
            };
            let d = Diagnostic::new(syntax, span, msg)
                .with_help("a sitemap is a `<urlset>` element, or a sitemap index a `<sitemapindex>` element, in the namespace `http://www.sitemaps.org/schemas/sitemap/0.9`");
            (d, None)
        }
        Error::UnexpectedDeclaration(p) => {
            let at = pos(p);
            let end = text[at..].find("?>").map_or(at + 5, |e| at + e + 2);
            let d = Diagnostic::new(syntax, at..end, "XML declaration in the middle of the file")
                .with_label("a declaration may only appear at the very start")
                .with_help("were two files concatenated? keep one `<?xml …?>` as the first line and one root element");
            (d, None)
        }
        Error::UnknownNamespace(prefix, p) => {
            let at = pos(p);
            let end = at + text[at..].find(':').map_or(prefix.len(), |c| c + 1);
            let span = at..end.max(at + 1).min(text.len());
            let mut d = Diagnostic::new(
                syntax,
                span,
                format!("namespace prefix `{prefix}` is not declared"),
            );
            d = match known_namespace(prefix) {
                Some(uri) => d.with_help(format!(
                    "declare it on the root element: `xmlns:{prefix}=\"{uri}\"`"
                )),
                None => d.with_help(format!(
                    "declare it on the root element: `xmlns:{prefix}=\"…\"`"
                )),
            };
            (d, None)
        }
        Error::InvalidComment(p) => {
            let at = pos(p);
            let d = Diagnostic::new(syntax, char_span(text, at), "`--` inside a comment")
                .with_help("XML comments cannot contain `--` or end with `-`; rewrite the comment");
            (d, None)
        }
        Error::InvalidCharacterData(p) => {
            let at = pos(p);
            let d = Diagnostic::new(syntax, char_span(text, at), "`]]>` in text")
                .with_help("write `]]&gt;`");
            (d, None)
        }
        Error::DuplicatedAttribute(name, p) => {
            let at = pos(p);
            let d = Diagnostic::new(
                syntax,
                at..(at + name.len()).min(text.len()),
                format!("attribute `{name}` appears twice"),
            )
            .with_help("keep one of them");
            (d, None)
        }
        Error::DuplicatedNamespace(name, p) => {
            let at = pos(p);
            let d = Diagnostic::new(
                syntax,
                char_span(text, at),
                format!("namespace prefix `{name}` is declared twice on one element"),
            )
            .with_help("keep one declaration");
            (d, None)
        }
        Error::InvalidChar(expected, actual, p) => {
            let at = pos(p);
            let d = Diagnostic::new(
                syntax,
                char_span(text, at),
                format!(
                    "expected `{}` but found `{}`",
                    char::from(*expected).escape_default(),
                    char::from(*actual).escape_default()
                ),
            );
            (d, None)
        }
        Error::InvalidChar2(expected, actual, p) => {
            let at = pos(p);
            let d = Diagnostic::new(
                syntax,
                char_span(text, at),
                format!(
                    "expected {expected} but found `{}`",
                    char::from(*actual).escape_default()
                ),
            );
            (d, None)
        }
        Error::InvalidString(expected, p) => {
            let at = pos(p);
            let d = Diagnostic::new(
                syntax,
                char_span(text, at),
                format!("expected `{expected}`"),
            );
            (d, None)
        }
        other => {
            let at = match other.pos() {
                p if p.row == 1 && p.col == 1 => 0,
                p => pos(&p),
            };
            let d = Diagnostic::new(syntax, char_span(text, at), format!("invalid XML: {other}"));
            (d, None)
        }
    }
}

/// `UnknownToken` / `InvalidName`: a bare `<`, content after the root, or a broken tag.
fn describe_token(text: &str, skip: usize, at: usize) -> (Diagnostic, Option<Range<usize>>) {
    let syntax = &xml_syntax::META;
    let rest = &text[at..];
    // A `<` followed by something that cannot start a tag is a bare `<` in text.
    let lt = if rest.starts_with('<') {
        Some(at)
    } else if text[..at].ends_with('<') {
        Some(at - 1)
    } else {
        None
    };
    if let Some(lt) = lt {
        let next = text[lt + 1..].chars().next();
        let bare = match next {
            None => true,
            Some(c) => {
                !(c.is_alphabetic() || c == '_' || c == ':' || c == '/' || c == '!' || c == '?')
            }
        };
        if bare {
            let d = Diagnostic::new(syntax, lt..lt + 1, "unescaped `<` in text")
                .with_label("`<` starts a tag")
                .with_help("write `&lt;` for a literal less-than sign");
            return (d, Some(lt..lt + 1));
        }
    }
    // Is the root element already complete? Then this is content after it.
    if let Some(root_end) = root_end(text, skip, at) {
        let is_element = rest.starts_with('<')
            && rest[1..]
                .chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_');
        let span = if is_element {
            at..rest.find('>').map_or(text.len(), |e| at + e + 1)
        } else {
            let end = rest.find('<').map_or(text.len(), |e| at + e).min(at + 200);
            let end = if text.is_char_boundary(end) {
                end
            } else {
                at + char_span(text, at).len()
            };
            at..end.max(at + 1).min(text.len())
        };
        let (msg, help) = if is_element {
            (
                "a second root element",
                "an XML document has exactly one root element: put every `<url>` inside the one `<urlset>` (were two sitemaps concatenated?)",
            )
        } else {
            (
                "content after the root element",
                "remove everything after the closing root tag",
            )
        };
        let d = Diagnostic::new(syntax, span, msg)
            .with_secondary(root_end, "the root element ends here")
            .with_help(help);
        return (d, None);
    }
    let d = Diagnostic::new(syntax, char_span(text, at), "malformed markup")
        .with_label("the XML parser cannot read this")
        .with_help("check for a broken tag, an unescaped `<` or `&`, or a stray character");
    (d, None)
}

/// When `text[skip..at]` is a complete document, the span of its last end tag.
fn root_end(text: &str, skip: usize, at: usize) -> Option<Range<usize>> {
    if at <= skip {
        return None;
    }
    let prefix = &text[skip..at];
    let doc = Document::parse_with_options(prefix, options()).ok()?;
    let r = doc.root_element().range();
    let open = prefix[..r.end].rfind('<').unwrap_or(r.start);
    Some(skip + open..skip + r.end)
}

/// The span of the first start tag that is not a declaration, PI, comment or DOCTYPE.
fn root_start_tag(text: &str, skip: usize) -> Option<Range<usize>> {
    let mut i = skip;
    while let Some(p) = text[i..].find('<') {
        let at = i + p;
        let rest = &text[at..];
        if rest.starts_with("<?") {
            i = at + rest.find("?>").map_or(rest.len(), |e| e + 2);
        } else if rest.starts_with("<!--") {
            i = at + rest.find("-->").map_or(rest.len(), |e| e + 3);
        } else if rest.starts_with("<!") {
            i = at + rest.find('>').map_or(rest.len(), |e| e + 1);
        } else {
            let end = rest.find('>').map_or(text.len(), |e| at + e + 1);
            return Some(at..end);
        }
        if i >= text.len() {
            break;
        }
    }
    None
}

fn tag_name(tag: &str) -> &str {
    let t = tag.trim_start_matches('<');
    let end = t
        .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
        .unwrap_or(t.len());
    &t[..end]
}

/// The span of `<!DOCTYPE …>`, including an internal subset.
fn doctype_span(text: &str) -> Option<Range<usize>> {
    let start = text.find("<!DOCTYPE")?;
    let rest = &text[start..];
    let gt = rest.find('>')?;
    let end = match rest.find('[') {
        Some(br) if br < gt => {
            let close = rest[br..].find("]")?;
            let after = &rest[br + close..];
            br + close + after.find('>')? + 1
        }
        _ => gt + 1,
    };
    Some(start..start + end)
}

/// Namespaces a sitemap commonly uses, by conventional prefix.
pub fn known_namespace(prefix: &str) -> Option<&'static str> {
    Some(match prefix {
        "image" => "http://www.google.com/schemas/sitemap-image/1.1",
        "video" => "http://www.google.com/schemas/sitemap-video/1.1",
        "news" => "http://www.google.com/schemas/sitemap-news/0.9",
        "xhtml" => "http://www.w3.org/1999/xhtml",
        "mobile" => "http://www.google.com/schemas/sitemap-mobile/1.0",
        "xsi" => "http://www.w3.org/2001/XMLSchema-instance",
        _ => return None,
    })
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
