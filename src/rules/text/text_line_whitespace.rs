//! Rule `text-line-whitespace`: spaces or tabs before or after the URL on a line of a text sitemap.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::Sitemap;
use crate::pipeline::text_sitemap::{LineKind, TextLine};
use crate::rule::{Context, Rule};

declare_rule! {
    /// ## What it does
    /// In a text sitemap (one URL per line: a file named `*.txt` or `*.txt.gz` whose content is
    /// not XML, or one served as `text/plain`), reports spaces or tabs before or after the URL
    /// of a line. The URL rules judge the URL without them. (Spaces between two words are
    /// `text-line-invalid`.)
    ///
    /// ## Why is this bad?
    /// Google asks for URLs written exactly as they should be crawled. The major search engines
    /// trim the line, but not every reader does: some take ` https://…` for a relative URL, or
    /// keep a trailing space as part of the URL. Templates that indent the list are the usual
    /// cause.
    ///
    /// ## Example
    /// ```text
    /// https://www.example.com/
    ///   https://www.example.com/about
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// https://www.example.com/
    /// https://www.example.com/about
    /// ```
    ///
    /// ## Fix
    /// A safe fix deletes the spaces and tabs around the URL.
    ///
    /// ## References
    /// - sitemaps.org protocol, "Text file": "The text file should contain no information other
    ///   than the list of URLs"
    pub static META = {
        name: "text-line-whitespace",
        category: Structure,
        severity: Warning,
        fix: Safe,
        summary: "spaces or tabs around the URL on a line of a text sitemap",
    }
}

impl Rule for Check {
    fn check_text_line(&self, _sitemap: &Sitemap<'_>, line: &TextLine, cx: &mut Context<'_>) {
        let LineKind::Url { url } = &line.kind else {
            return;
        };
        let before = line.span.start..url.start;
        let after = url.end..line.span.end;
        let (first, second, what) = match (before.is_empty(), after.is_empty()) {
            (true, true) => return,
            (false, true) => (before, None, "before"),
            (true, false) => (after, None, "after"),
            (false, false) => (before, Some(after), "before and after"),
        };
        if cx.skip(&META, first.start) {
            return;
        }
        let mut edits = vec![Edit::delete(first.clone())];
        let mut d = Diagnostic::new(&META, first, format!("whitespace {what} the URL"))
            .with_label("remove this");
        if let Some(second) = second {
            edits.push(Edit::delete(second.clone()));
            d = d.with_secondary(second, "and this");
        }
        cx.report(
            d.with_help("write the URL alone on its line, from the first column")
                .with_fix(Fix::safe("delete the whitespace", edits)),
        );
    }
}
