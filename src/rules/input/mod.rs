//! Reading the input: size, gzip, encoding, the XML declaration, well-formedness, and the checker's own failures.

pub mod doctype_not_allowed;
pub mod encoding_not_utf8;
pub mod gzip_extension_mismatch;
pub mod gzip_invalid;
pub mod input_too_large;
pub mod internal_error;
pub mod invalid_utf8;
pub mod leading_whitespace;
pub mod xml_declaration;
pub mod xml_declaration_encoding;
pub mod xml_syntax;

use std::ops::Range;

use crate::diagnostic::Diagnostic;
use crate::pipeline::xml::{XmlKind, XmlProblem};
use crate::pipeline::xml_decl::{Found, Problem};

/// The diagnostics for what the XML stage found, each worded by its rule (`xml-syntax`,
/// `doctype-not-allowed`, `xml-declaration`), appended to `out`. `unreported` errors more were
/// found (`ok`: the parse got past them; see [`crate::pipeline::xml::Parsed`]): they are counted
/// in a note on the last diagnostic that is shown.
pub fn xml_problems(
    problems: Vec<XmlProblem>,
    unreported: usize,
    ok: bool,
    out: &mut Vec<Diagnostic>,
) {
    out.extend(problems.into_iter().map(xml_problem));
    if unreported > 0 {
        if let Some(last) = out.iter_mut().rev().find(|d| !d.is_beyond_cap()) {
            last.notes.push(xml_syntax::unreported_note(unreported, ok));
        }
    }
}

/// The diagnostic of one problem the XML stage found.
pub fn xml_problem(p: XmlProblem) -> Diagnostic {
    let d = match p.kind {
        XmlKind::Doctype {
            entities,
            entity_count,
        } => doctype_not_allowed::blanked(p.span, &entities, entity_count),
        XmlKind::DoctypeUnclosed => doctype_not_allowed::unclosed(p.span),
        XmlKind::DeclarationPi { target } => xml_declaration::misplaced_pi(p.span, &target),
        XmlKind::Syntax(problem) => xml_syntax::diagnostic(p.span, problem),
    };
    if p.beyond_cap {
        d.keep_beyond_cap()
    } else {
        d
    }
}

/// The diagnostic of a problem the prolog stage found, worded by its rule (`leading-whitespace`,
/// `xml-declaration-encoding`, `xml-declaration`), at `span`.
pub fn prolog_problem(p: &Problem, span: Range<usize>) -> Diagnostic {
    match &p.found {
        Found::Leading {
            lines,
            spaces,
            tabs,
        } => leading_whitespace::diagnostic(span, *lines, *spaces, *tabs, p.edit.clone()),
        Found::Encoding(value) => xml_declaration_encoding::diagnostic(span, value, p.edit.clone()),
        Found::Declaration(found) => xml_declaration::diagnostic(span, found),
    }
}
