//! Rule `leading-whitespace`: whitespace before the XML declaration (reported by the prolog stage).

use std::ops::Range;

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::rule::Rule;

declare_rule! {
    /// ## What it does
    /// Reports spaces, tabs or blank lines before `<?xml` (after a UTF-8 byte-order mark, if there
    /// is one). The rest of the file is still checked as if the whitespace were not there. A file
    /// without an XML declaration may start with whitespace.
    ///
    /// ## Why is this bad?
    /// The XML declaration must be the very first thing in a file. XML parsers stop with "XML
    /// declaration allowed only at the start of the document", and Google Search Console reports
    /// "Leading whitespace". It is one of the most common generator bugs: a template, or a PHP file
    /// with a blank line before `<?php`, prints a newline before the sitemap.
    ///
    /// ## Example
    /// ```xml
    ///
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// Use instead:
    /// ```xml
    /// <?xml version="1.0" encoding="UTF-8"?>
    /// <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    ///   <url><loc>https://www.example.com/</loc></url>
    /// </urlset>
    /// ```
    ///
    /// ## Fix
    /// The whitespace before `<?xml` is removed (a safe fix); a byte-order mark is kept.
    ///
    /// ## References
    /// - XML 1.0 §2.8 (the XML declaration comes first)
    /// - Google Search Console Sitemaps report: "Leading whitespace"
    pub static META = {
        name: "leading-whitespace",
        category: Encoding,
        severity: Error,
        fix: Safe,
        summary: "whitespace before the `<?xml` declaration",
    }
}

impl Rule for Check {}

/// `n` with the singular or plural noun.
fn count(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Whitespace before `<?xml` at `span` (the declaration it displaces: whitespace is invisible
/// when underlined): `lines` line breaks, and besides them `spaces` spaces and `tabs` tabs;
/// `edit` removes it.
pub fn diagnostic(
    span: Range<usize>,
    lines: usize,
    spaces: usize,
    tabs: usize,
    edit: Option<Edit>,
) -> Diagnostic {
    let indent: Vec<String> = [(spaces, "space", "spaces"), (tabs, "tab", "tabs")]
        .iter()
        .filter(|(n, _, _)| *n > 0)
        .map(|&(n, one, many)| count(n, one, many))
        .collect();
    let (message, help) = if lines == 0 {
        (
            "whitespace before the XML declaration".to_string(),
            format!(
                "remove the {} before `<?xml`: the XML declaration must be the very first thing in the file",
                indent.join(" and ")
            ),
        )
    } else {
        let mut what = if lines == 1 {
            "line break".to_string()
        } else {
            format!("{lines} line breaks")
        };
        if !indent.is_empty() {
            what = format!("{what} and the {}", indent.join(" and "));
        }
        let message = if lines == 1 {
            "blank line before the XML declaration".to_string()
        } else {
            format!("{lines} blank lines before the XML declaration")
        };
        (
            message,
            format!(
                "remove the {what} before `<?xml`: the XML declaration must be the very first thing in the file; \
                 such lines are often printed by a template, or by a PHP file with a blank line before `<?php` or after `?>`"
            ),
        )
    };
    let d = Diagnostic::new(&META, span, message)
        .with_help(help)
        .with_label("must be the first thing in the file");
    match edit {
        Some(edit) => d.with_fix(Fix::safe("remove what comes before `<?xml`", vec![edit])),
        None => d,
    }
}
