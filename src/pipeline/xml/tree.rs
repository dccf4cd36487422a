//! Well-formedness checks on the parsed tree that roxmltree does not make.

use memchr::memmem;
use roxmltree::Document;

use super::problem::{Syntax as K, XmlKind, XmlProblem};

/// Well-formedness rules roxmltree does not enforce, checked on the parsed tree and its source:
/// reserved and malformed processing-instruction targets anywhere in the document, character
/// references to surrogates or non-characters, `<:name>`, and namespace declarations that XML 1.0
/// namespaces forbid (`xmlns:a=""`, declaring `xmlns:xmlns`).
///
/// `text` is the text the tree was parsed from (its offsets are `base` bytes into the source).
pub fn check_tree(doc: &Document<'_>, text: &str, base: usize, out: &mut Vec<XmlProblem>) {
    check_tree_from(doc, text, base, base, out);
}

/// [`check_tree`] for one of the documents a file was split into ([`crate::pipeline::split`]): what lies
/// before `from` in `text` (the copy of the root's start tag) was checked with the first piece.
pub fn check_tree_from(
    doc: &Document<'_>,
    text: &str,
    base: usize,
    from: usize,
    out: &mut Vec<XmlProblem>,
) {
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
                out.push(XmlProblem::new(
                    span,
                    XmlKind::DeclarationPi {
                        target: target.to_string(),
                    },
                ));
                continue;
            }
            if target.contains(':') {
                out.push(XmlProblem::new(
                    span.clone(),
                    K::PiTargetColon {
                        target: target.to_string(),
                    },
                ));
            }
            let after = parsed.get(r.start + 2 + target.len()..).unwrap_or("");
            if !(after.starts_with("?>") || after.starts_with([' ', '\t', '\r', '\n'])) {
                out.push(XmlProblem::new(
                    span,
                    K::PiNoSpace {
                        target: target.to_string(),
                    },
                ));
            }
        } else if node.is_element() {
            if parsed
                .as_bytes()
                .get(r.start..)
                .is_some_and(|t| t.starts_with(b"<:"))
            {
                out.push(XmlProblem::new(
                    r.start + base..r.start + base + 2,
                    K::ElementColon,
                ));
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
}

/// The offset of the next `xmlns:` in `text` at or after `from`. Usually there is none after the
/// root's start tag, which one vectorised search over the rest of the file establishes, so the
/// other start tags are never scanned.
pub(super) fn next_xmlns(text: &str, from: usize) -> Option<usize> {
    let rest = text.get(from..)?;
    memmem::find(rest.as_bytes(), b"xmlns:").map(|p| from + p)
}

/// `xmlns:p=""` (undeclaring a prefix is XML 1.1 only) and `xmlns:xmlns=…` in one start tag.
pub(super) fn check_namespace_declarations(tag: &str, at: usize, out: &mut Vec<XmlProblem>) {
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
            out.push(XmlProblem::new(span, K::DeclaresXmlns));
        } else if value_empty {
            out.push(XmlProblem::new(
                span,
                K::UndeclaresPrefix {
                    prefix: prefix.to_string(),
                },
            ));
        }
    }
}
