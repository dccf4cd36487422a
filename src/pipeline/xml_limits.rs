//! Limits checked before the XML parser runs: attributes per element and namespace declarations, whose cost in the parser grows with their square.
//!
//! roxmltree compares each attribute of an element with every earlier one (duplicate check), and
//! an element that declares a namespace copies every namespace in scope, checking each against
//! the ones copied so far. 240,000 attributes on one element, or 1,000 declarations on the root
//! and one on each `<url>`, take minutes in a file of a few megabytes. [`scan`] reads the text
//! once, in linear time, and reports the first element beyond a limit as `xml-syntax`; the file
//! is then not parsed. It runs on the whole file before it is parsed whole. A file checked in
//! pieces with few namespace declarations ([`piecewise`]) is scanned a piece at a time instead,
//! right before each piece is parsed, on the threads that parse them; a piece beyond a limit
//! sends the file to the whole-file path, whose scan reports the first element beyond a limit;
//! a piece dense in tags ([`dense_in_tags`]) cannot hold one, and skips the scan.
//! So every `--jobs` mode gives the same report.
//!
//! The limits are far above what sitemaps use (the shared corpus: at most 10 attributes on an
//! element, 9 namespace declarations in a file) and keep the parser's work linear in the size of
//! the file: at most [`MAX_ATTRIBUTES`] comparisons per attribute, at most
//! [`MAX_NAMESPACE_DECLARATIONS`] elements that copy at most [`MAX_NAMESPACES_IN_SCOPE`] bindings,
//! and at most [`MAX_NAMESPACE_BINDINGS`] distinct bindings, far below the 65,536 at which
//! roxmltree refuses a document (which only a file parsed whole would meet).

use std::ops::Range;

use memchr::memmem;

/// Attributes (namespace declarations included) one element may have.
pub const MAX_ATTRIBUTES: usize = 256;

/// Namespace declarations in scope at one element (its own and its ancestors').
pub const MAX_NAMESPACES_IN_SCOPE: usize = 64;

/// Namespace declarations in one file.
pub const MAX_NAMESPACE_DECLARATIONS: usize = 250_000;

/// Distinct bindings (a prefix with a namespace URI) in one file. roxmltree keeps them in a
/// sorted list (an insertion costs a move of the list) and refuses the 65,537th with an error at
/// 1:1; a file parsed in pieces never meets that, a file parsed whole does. Checked here, far
/// below that, every mode reports the same.
pub const MAX_NAMESPACE_BINDINGS: usize = 4_096;

/// The first element beyond a limit (`xml-syntax` words it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exceeded {
    /// The attribute (or declaration) beyond the limit.
    pub span: Range<usize>,
    pub limit: Limit,
}

/// Which limit an element goes beyond.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    /// [`MAX_ATTRIBUTES`] on one element.
    Attributes,
    /// [`MAX_NAMESPACES_IN_SCOPE`].
    NamespacesInScope,
    /// [`MAX_NAMESPACE_BINDINGS`] in one file.
    NamespaceBindings,
    /// [`MAX_NAMESPACE_DECLARATIONS`] in one file.
    NamespaceDeclarations,
}

/// Whether the limits can be checked a piece at a time (see `split`): the file holds at most
/// [`MAX_NAMESPACES_IN_SCOPE`] namespace declarations (counted as the places `xmlns` is written,
/// which every declaration's name holds), so that no limit on declarations can be met, in the
/// file or in any piece of it (whose copy of the root's start tag holds the root's own), and only
/// [`MAX_ATTRIBUTES`], which each element meets or not by itself, remains.
pub fn piecewise(text: &str) -> bool {
    memmem::find_iter(text.as_bytes(), b"xmlns")
        .nth(MAX_NAMESPACES_IN_SCOPE)
        .is_none()
}

/// Whether `text` is too dense in `<` for any start tag in it to hold more than
/// [`MAX_ATTRIBUTES`] attributes, were it parsed by roxmltree as it stands (no recovery): then
/// [`scan`] finds no element beyond that limit in a text that parses, and the one that does not
/// parse is refused before it costs more.
///
/// roxmltree wants whitespace before each attribute and no `<` in a value, so an attribute it
/// reads takes at least 5 bytes without a `<` (` a=""`), and a start tag beyond the limit more
/// than 1,280 such bytes after its `<`. A run of 1,023 bytes holds a whole aligned block of
/// [`DENSE_BLOCK`] bytes: when every block holds a `<`, no run without one is that long. A
/// `memchr` per block, which finds a `<` within a line or two of markup, instead of a pass over
/// every tag: on a piece of a sitemap, a few instructions per 512 bytes.
///
/// Only for the limit on attributes, which [`piecewise`] leaves alone, and only for a text parsed
/// without recovery (a piece of a split file: [`crate::pipeline::split::Layout::parse_piece`]);
/// recovery may mend a value with a `<` into a tag that this cannot see.
pub fn dense_in_tags(text: &str) -> bool {
    text.as_bytes()
        .chunks(DENSE_BLOCK)
        .all(|block| memchr::memchr(b'<', block).is_some())
}

/// The blocks of [`dense_in_tags`]: 512 + 511 bytes < 5 × ([`MAX_ATTRIBUTES`] + 1).
const DENSE_BLOCK: usize = 512;
const _: () = assert!(2 * DENSE_BLOCK - 1 < 5 * (MAX_ATTRIBUTES + 1));

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\r' | b'\n')
}

/// Scans `text[skip..]` (after the XML declaration) for an element beyond a limit. Markup that is
/// not well-formed is skipped over (the parser reports it): the scan resumes at the next `<`.
pub fn scan(text: &str, skip: usize) -> Option<Exceeded> {
    let b = text.as_bytes();
    let len = b.len();
    // Namespace declarations in scope, per open element.
    let mut scope: Vec<u32> = Vec::new();
    let mut total = 0usize;
    let mut bindings: std::collections::HashSet<(&[u8], &[u8])> = std::collections::HashSet::new();
    let mut i = skip.min(len);
    let after = |from: usize, what: &[u8]| {
        memmem::find(&b[from.min(len)..], what).map(|p| from + p + what.len())
    };
    while let Some(p) = memchr::memchr(b'<', &b[i..]) {
        let at = i + p;
        let rest = &b[at..];
        if rest.starts_with(b"<!--") {
            i = after(at + 4, b"-->")?;
            continue;
        }
        if rest.starts_with(b"<![CDATA[") {
            i = after(at + 9, b"]]>")?;
            continue;
        }
        if rest.starts_with(b"<?") {
            i = after(at + 2, b"?>")?;
            continue;
        }
        if rest.starts_with(b"<!") {
            // A DOCTYPE (refused elsewhere): past its internal subset, if any, and its `>`.
            let end = memchr::memchr(b'>', &b[at..])? + at;
            i = match memchr::memchr(b'[', &b[at..end]) {
                Some(_) => after(at, b"]")
                    .and_then(|j| memchr::memchr(b'>', &b[j..]).map(|k| j + k + 1))?,
                None => end + 1,
            };
            continue;
        }
        if rest.starts_with(b"</") {
            scope.pop();
            i = at + 2;
            continue;
        }
        // A start tag: its name, then `name = "value"` pairs.
        let mut j = at + 1;
        while j < len && !is_space(b[j]) && !matches!(b[j], b'>' | b'/' | b'<') {
            j += 1;
        }
        let parent = scope.last().copied().unwrap_or(0) as usize;
        let mut attributes = 0usize;
        let mut declared = 0usize;
        let open = loop {
            while j < len && is_space(b[j]) {
                j += 1;
            }
            match b.get(j) {
                None => return None,
                Some(b'>') => {
                    j += 1;
                    break true;
                }
                Some(b'/') if b.get(j + 1) == Some(&b'>') => {
                    j += 2;
                    break false;
                }
                _ => {}
            }
            let name_start = j;
            while j < len && !is_space(b[j]) && !matches!(b[j], b'=' | b'>' | b'/' | b'<') {
                j += 1;
            }
            let name = &b[name_start..j];
            while j < len && is_space(b[j]) {
                j += 1;
            }
            if name.is_empty() || b.get(j) != Some(&b'=') {
                break false; // not well-formed: resume at the next `<`
            }
            j += 1;
            while j < len && is_space(b[j]) {
                j += 1;
            }
            let Some(&quote) = b.get(j).filter(|q| matches!(q, b'"' | b'\'')) else {
                break false;
            };
            j = memchr::memchr(quote, &b[j + 1..])? + j + 2;
            let span = name_start..j;
            attributes += 1;
            if attributes > MAX_ATTRIBUTES {
                return Some(Exceeded {
                    span,
                    limit: Limit::Attributes,
                });
            }
            if name == b"xmlns" || name.starts_with(b"xmlns:") {
                declared += 1;
                total += 1;
                if parent + declared > MAX_NAMESPACES_IN_SCOPE {
                    return Some(Exceeded {
                        span,
                        limit: Limit::NamespacesInScope,
                    });
                }
                // The value without its quotes, as written (entities unexpanded: a binding
                // written two ways counts twice, which only brings the limit nearer).
                bindings.insert((name, &b[name_start + name.len()..j]));
                if bindings.len() > MAX_NAMESPACE_BINDINGS {
                    return Some(Exceeded {
                        span,
                        limit: Limit::NamespaceBindings,
                    });
                }
                if total > MAX_NAMESPACE_DECLARATIONS {
                    return Some(Exceeded {
                        span,
                        limit: Limit::NamespaceDeclarations,
                    });
                }
            }
        };
        if open {
            // Fits: `parent + declared` is at most MAX_NAMESPACES_IN_SCOPE here.
            scope.push((parent + declared) as u32);
        }
        i = j.max(at + 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn element(attributes: usize, prefix: &str) -> String {
        let mut s = String::from("<a");
        for i in 0..attributes {
            s.push_str(&format!(" {prefix}{i}='v'"));
        }
        s.push_str("/>");
        s
    }

    #[test]
    fn attributes_per_element() {
        let ok = format!("<r>{}</r>", element(MAX_ATTRIBUTES, "a"));
        assert_eq!(scan(&ok, 0), None);
        let over = format!("<r>{}</r>", element(MAX_ATTRIBUTES + 1, "a"));
        let e = scan(&over, 0).unwrap();
        assert_eq!(&over[e.span], format!("a{MAX_ATTRIBUTES}='v'"));
        // In comments, CDATA and processing instructions they are text.
        let hidden = format!(
            "<r><!--{x}--><![CDATA[{x}]]><?p {x}?></r>",
            x = element(MAX_ATTRIBUTES + 1, "a")
        );
        assert_eq!(scan(&hidden, 0), None);
    }

    #[test]
    fn namespaces_in_scope_and_in_total() {
        let root = element(MAX_NAMESPACES_IN_SCOPE, "xmlns:n").replace("/>", ">");
        assert_eq!(scan(&format!("{root}<b/></a>"), 0), None);
        let over = format!("{root}<b xmlns:x='y'/></a>");
        assert_eq!(scan(&over, 0).unwrap().limit, Limit::NamespacesInScope);
        // Scopes end with their element.
        let siblings = format!(
            "<r>{}</r>",
            "<b xmlns='u'><c xmlns:d='e'/></b>".repeat(1_000)
        );
        assert_eq!(scan(&siblings, 0), None);
        let many = format!(
            "<r>{}</r>",
            "<b xmlns='u'/>".repeat(MAX_NAMESPACE_DECLARATIONS + 1)
        );
        assert_eq!(scan(&many, 0).unwrap().limit, Limit::NamespaceDeclarations);
    }

    #[test]
    fn distinct_bindings_in_one_file() {
        // The same binding on every entry is one binding.
        let same = format!(
            "<r>{}</r>",
            "<b xmlns:i='u'/>".repeat(MAX_NAMESPACE_BINDINGS * 2)
        );
        assert_eq!(scan(&same, 0), None);
        let distinct = |n: usize| {
            let mut s = String::from("<r>");
            for i in 0..n {
                s.push_str(&format!("<b xmlns:p='urn:{i}'/>"));
            }
            s + "</r>"
        };
        assert_eq!(scan(&distinct(MAX_NAMESPACE_BINDINGS), 0), None);
        let over = distinct(MAX_NAMESPACE_BINDINGS + 1);
        let e = scan(&over, 0).unwrap();
        assert_eq!(e.limit, Limit::NamespaceBindings);
        assert_eq!(
            &over[e.span],
            format!("xmlns:p='urn:{MAX_NAMESPACE_BINDINGS}'")
        );
    }

    #[test]
    fn a_tag_beyond_the_limit_is_never_dense() {
        // The densest tag beyond the limit that roxmltree reads: distinct names of one or two
        // letters, one space before each, empty values, inside `<` of markup on either side.
        let names = (b'a'..=b'z').flat_map(|a| {
            std::iter::once(String::from(a as char))
                .chain((b'a'..=b'z').map(move |b| format!("{}{}", a as char, b as char)))
        });
        let mut tag = String::from("<a");
        for name in names.take(MAX_ATTRIBUTES + 1) {
            tag.push_str(&format!(" {name}=''"));
        }
        tag.push_str("/>");
        let around = "<b/>".repeat(300);
        for shift in 0..DENSE_BLOCK {
            let text = format!("<r>{}{around}{tag}{around}</r>", " ".repeat(shift));
            assert!(roxmltree::Document::parse(&text).is_ok());
            assert!(scan(&text, 0).is_some());
            assert!(!dense_in_tags(&text), "shift {shift}");
        }
        // One attribute fewer: within the limit, and in a text dense in tags it is never scanned.
        let within = format!("<r>{around}{}{around}</r>", tag.replacen(" a=''", "", 1));
        assert_eq!(scan(&within, 0), None);
        let sitemap = format!(
            "<urlset>{}</urlset>",
            "<url><loc>https://example.com/a?b=c</loc><lastmod>2024-01-01</lastmod></url>\n"
                .repeat(1_000)
        );
        assert!(dense_in_tags(&sitemap));
    }

    #[test]
    fn malformed_markup_is_left_to_the_parser() {
        for text in ["<a b>", "<a b=c>", "<a b='", "<a", "<!--", "<a <b c='d'/>"] {
            assert_eq!(scan(text, 0), None, "{text}");
        }
        // The scan resumes after a broken tag.
        let text = format!("<a b><r>{}</r>", element(MAX_ATTRIBUTES + 1, "a"));
        assert!(scan(&text, 0).is_some());
    }
}
