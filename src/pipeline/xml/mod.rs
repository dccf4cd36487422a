//! XML parsing with roxmltree: each parser error becomes a located, typed problem ([`XmlProblem`],
//! worded by the rules `xml-syntax`, `doctype-not-allowed` and `xml-declaration`), and common errors
//! are patched over so later ones are found too.
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

use std::ops::Range;

use roxmltree::{Document, Error, ParsingOptions};

use crate::pipeline::source::floor_char_boundary;
use crate::pipeline::xml_decl::{self, Prolog};

mod errors;
mod lexical;
mod patch;
mod problem;
mod scan;
mod tree;

use errors::describe;
pub use errors::known_namespace;
pub(crate) use lexical::first_bad_char_ref;
use patch::{apply, Edit, State};
pub use problem::{CharRef, Syntax, Unclosed, Wanted, XmlKind, XmlProblem};
pub use tree::{check_tree, check_tree_from};

/// XML errors reported per file at most; further ones are counted in a note.
pub const MAX_XML_ERRORS: usize = 50;
/// Bytes re-parsed per file at most while looking for further errors.
const REPARSE_BUDGET: usize = 256 * 1024 * 1024;
/// Re-parses per file at most (each patches at least one error).
const MAX_ROUNDS: usize = 500;

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
    /// Errors found but not reported one by one (beyond [`MAX_XML_ERRORS`], or not looked for
    /// after an error that could not be patched over): the rule counts them in a note.
    pub unreported: usize,
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

/// Parses `text[skip..]`, reporting every problem found into `out`. Returns `ok == false` when an
/// error could not be patched over; the tree must then not be used.
///
/// The XML declaration is checked by [`xml_decl`] first; a declaration it reported as malformed
/// or misplaced is blanked out here, so that the parser neither reports it again nor stops at it.
pub fn check(text: &str, skip: usize, out: &mut Vec<XmlProblem>) -> Parsed {
    let mut prolog = xml_decl::check_prolog(text);
    prolog.skip = skip;
    check_after_prolog(text, &prolog, 0, out)
}

/// The tree of `text[prolog.skip..]` when the text parses as it stands: the common case, no XML
/// error and no declaration to blank out. The caller then needs neither [`check_after_prolog`]
/// nor a second parse.
pub fn parse_clean<'t>(text: &'t str, prolog: &Prolog) -> Option<Document<'t>> {
    if prolog.blank.as_ref().is_some_and(|r| !r.is_empty())
        || first_bad_char_ref(text, prolog.skip).is_some()
    {
        return None;
    }
    Document::parse_with_options(&text[prolog.skip..], options()).ok()
}

/// [`check`] for a caller that already ran [`xml_decl::check_prolog`] on `text`. Up to
/// `fix_budget` errors with a fix beyond [`MAX_XML_ERRORS`] are kept for their fix (when fixes
/// are wanted, [`crate::Settings::fixing`]), marked [`XmlProblem::beyond_cap`].
pub fn check_after_prolog(
    text: &str,
    prolog: &Prolog,
    fix_budget: usize,
    out: &mut Vec<XmlProblem>,
) -> Parsed {
    let skip = prolog.skip;
    let parse = |s: &str| Document::parse_with_options(&s[skip..], options()).map(|_| ());
    let mut patches = Vec::new();
    let mut buf = None;
    if let Some(range) = prolog.blank.clone().filter(|r| !r.is_empty()) {
        let mut b = text.to_string();
        apply(&mut b, vec![Edit::Fill(range, b' ')], &mut patches);
        buf = Some(b);
    }
    // A parse error, or a character reference roxmltree accepts but XML forbids (see
    // [`first_bad_char_ref`]), which is then reported as the lexical error it is.
    let first_error = |s: &str| match parse(s) {
        Ok(()) => first_bad_char_ref(s, skip).map(Problem::CharRef),
        Err(e) => Some(Problem::Parser(e)),
    };
    let Some(mut error) = first_error(buf.as_deref().unwrap_or(text)) else {
        return Parsed {
            patched: buf,
            ok: true,
            patches,
            unreported: 0,
        };
    };
    let mut buf = buf.unwrap_or_else(|| text.to_string());
    let mut state = State {
        original: text,
        skip,
        dtd_entities: Vec::new(),
        fix_budget,
    };
    let mut budget = REPARSE_BUDGET;
    let mut reported = 0usize;
    let mut unreported = 0usize;
    let mut rounds = 0usize;
    let ok = loop {
        let step = match &error {
            Problem::Parser(e) => describe(&mut state, &buf, e),
            Problem::CharRef(at) => lexical::lexical(&mut state, &buf, *at),
        };
        for d in step.problems {
            if d.beyond_cap {
                out.push(d);
            } else if reported < MAX_XML_ERRORS {
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
        match first_error(&buf) {
            None => break true,
            Some(e) if budget == 0 || rounds >= MAX_ROUNDS || same_error(&e, &error) => {
                unreported += 1;
                break false;
            }
            Some(e) => error = e,
        }
    };
    patches.sort_by_key(|r| r.start);
    Parsed {
        patched: Some(buf),
        ok,
        patches,
        unreported,
    }
}

/// What stops a parse from being taken as it is.
enum Problem {
    Parser(Error),
    /// A character reference at this offset names no XML character (see [`first_bad_char_ref`]).
    CharRef(usize),
}

/// Whether a re-parse stopped at the same error again (a patch that did not help).
fn same_error(a: &Problem, b: &Problem) -> bool {
    match (a, b) {
        (Problem::Parser(a), Problem::Parser(b)) => {
            a.pos() == b.pos() && std::mem::discriminant(a) == std::mem::discriminant(b)
        }
        (Problem::CharRef(a), Problem::CharRef(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::lexical::{reference_at, Lexical};
    use super::scan::declaration_end;
    use super::*;
    use crate::diagnostic::Diagnostic;
    use crate::rules::input::xml_problems;

    const HEAD: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n";
    const TAIL: &str = "</urlset>\n";

    fn doc(body: &str) -> String {
        format!("{HEAD}{body}{TAIL}")
    }

    /// The XML stage on `text`, with the invariants every result must satisfy.
    fn run(text: &str) -> (Parsed, Vec<Diagnostic>) {
        let prolog = xml_decl::check_prolog(text);
        let mut problems = Vec::new();
        let parsed = check(text, prolog.skip, &mut problems);
        let mut out = Vec::new();
        xml_problems(problems, parsed.unreported, parsed.ok, &mut out);
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
        let mut problems = Vec::new();
        check_tree(&tree, &text, prolog.skip, &mut problems);
        let mut out = Vec::new();
        xml_problems(problems, 0, true, &mut out);
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
    fn char_references_beyond_unicode_are_found_outside_literal_sections() {
        use super::first_bad_char_ref as bad;
        assert_eq!(bad("a &#x110000; b", 0), Some(2));
        assert_eq!(bad("&#x7FFFFFFF;", 0), Some(0));
        assert_eq!(bad("x&#99999999999999999999;", 0), Some(1));
        assert_eq!(bad("&#xD800;", 0), Some(0));
        assert_eq!(bad("&#x10FFFF; &#x0000000041; &#65; &amp;", 0), None);
        // Literal text: comments, CDATA sections, processing instructions.
        assert_eq!(
            bad(
                "<!-- &#x110000; --><![CDATA[&#xD800;]]><?pi &#x110000;?>",
                0
            ),
            None
        );
        assert_eq!(bad("<!-- &#x110000; --> &#x110000;", 0), Some(20));
        assert_eq!(bad("<!-- unclosed &#x110000;", 0), None);
        assert_eq!(bad("&#12a;", 0), Some(0));
        assert_eq!(bad("&#x110000;", 1), None);
        // Linear: many references and many literal sections.
        let many = "<!-- c --><a>&#65;</a>".repeat(200_000) + "&#x110000;";
        let start = std::time::Instant::now();
        assert_eq!(bad(&many, 0), Some(many.len() - 10));
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
    }

    #[test]
    fn a_char_reference_beyond_unicode_is_an_error_and_its_value_patched() {
        let text = doc("<url><loc>https://x/&#x110000;</loc></url>");
        let (parsed, out) = run(&text);
        assert!(parsed.ok);
        assert_eq!(
            messages(&out),
            ["character reference `&#x110000;` is out of range"]
        );
        let at = text.find("&#x").unwrap();
        assert!(parsed.touches_patch(&(at..at + 10)));
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
