//! Rule `text-blank-line`: an empty line (or one of spaces and tabs only) in a text sitemap.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::Sitemap;
use crate::pipeline::text_sitemap::{LineKind, TextLine};
use crate::rule::{Context, Rule};
use crate::values::text::group;

declare_rule! {
    /// ## What it does
    /// In a text sitemap (one URL per line: a file named `*.txt` or `*.txt.gz` whose content is
    /// not XML, or one served as `text/plain`), reports lines that are empty or hold only spaces
    /// and tabs. A run of blank lines is one finding. The line end after the last URL is not a
    /// blank line: a file may, and usually does, end with a newline. Lines end at `\n`, `\r\n`
    /// or `\r`.
    ///
    /// ## Why is this bad?
    /// The protocol asks for one URL per line and nothing else. Google and Bing skip blank
    /// lines, but other readers take them for an empty URL, and a blank line in the middle of
    /// the list is often where a generator lost a URL (an empty template variable).
    ///
    /// ## Example
    /// ```text
    /// https://www.example.com/
    ///
    /// https://www.example.com/about
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// https://www.example.com/
    /// https://www.example.com/about
    /// ```
    ///
    /// ## Fix
    /// A safe fix deletes the blank lines.
    ///
    /// ## References
    /// - sitemaps.org protocol, "Text file": "The text file must have one URL per line"
    pub static META = {
        name: "text-blank-line",
        category: Structure,
        severity: Warning,
        fix: Safe,
        summary: "a blank line in a text sitemap",
    }
}

impl Rule for Check {
    fn check_text_line(&self, _sitemap: &Sitemap<'_>, line: &TextLine, cx: &mut Context<'_>) {
        let LineKind::Blank { count } = line.kind else {
            return;
        };
        let (message, label, what) = if count == 1 {
            ("blank line".to_string(), "this line is empty", "the line")
        } else {
            (
                format!("{} blank lines in a row", group(count as u64)),
                "the first of them",
                "the lines",
            )
        };
        cx.report(
            Diagnostic::new(&META, line.span.clone(), message)
                .with_label(label)
                .with_help(format!(
                    "delete {what}: a text sitemap holds one URL on every line"
                ))
                .with_fix(Fix::safe(
                    format!("delete {what}"),
                    vec![Edit::delete(line.span.start..line.next)],
                )),
        );
    }
}
