//! Rule `text-line-invalid`: a line of a text sitemap holds something other than one URL.

use crate::declare_rule;
use crate::diagnostic::{Diagnostic, Edit, Fix};
use crate::pipeline::model::Sitemap;
use crate::pipeline::text_sitemap::{LineKind, TextLine};
use crate::rule::{Context, Rule};
use crate::rules::text::quoted;

declare_rule! {
    /// ## What it does
    /// In a text sitemap, reports a line that holds something other than one URL: several
    /// words (a URL and a date, two URLs, a URL with an unencoded space), a comment (`# …`), or
    /// markup (`<loc>…</loc>`, an HTML page).
    ///
    /// A file is a text sitemap when its content is not XML (its first character other than
    /// whitespace is not `<`) and its name ends in `.txt` or `.txt.gz`, or its server declares
    /// it `text/plain`. A `.txt` file that holds XML is checked as an XML sitemap; a file of
    /// text under another name gets `xml-syntax` ("the file is text, not XML"). A line of one
    /// word is a URL: the `<loc>` rules judge it (`loc-invalid` for a relative URL, and so on),
    /// and so do `duplicate-loc` and `too-many-entries` (50,000 URLs, 50 MiB).
    ///
    /// ## Why is this bad?
    /// "The text file should contain no information other than the list of URLs" (sitemaps.org).
    /// Search engines read every line as one URL: a comment or a second column becomes an
    /// invalid URL, and a URL with a space in it is cut or rejected.
    ///
    /// ## Example
    /// ```text
    /// # pages
    /// https://www.example.com/ 2024-11-01
    /// https://www.example.com/about https://www.example.com/contact
    /// ```
    ///
    /// Use instead:
    /// ```text
    /// https://www.example.com/
    /// https://www.example.com/about
    /// https://www.example.com/contact
    /// ```
    ///
    /// ## Fix
    /// A safe fix deletes a comment line. An unsafe fix puts URLs that share a line on lines of
    /// their own (unsafe: the space may belong to one URL).
    ///
    /// ## References
    /// - sitemaps.org protocol, "Text file": one URL per line, "no information other than the
    ///   list of URLs", "no header or footer information"
    /// - Google Search Central, "Build and submit a sitemap", text sitemap
    pub static META = {
        name: "text-line-invalid",
        category: Structure,
        severity: Error,
        fix: Mixed,
        summary: "a line of a text sitemap holds something other than one URL",
    }
}

impl Rule for Check {
    fn check_text_line(&self, sitemap: &Sitemap<'_>, line: &TextLine, cx: &mut Context<'_>) {
        if matches!(line.kind, LineKind::Url { .. } | LineKind::Blank { .. }) {
            return;
        }
        // A file of millions of such lines: counted past the cap, not built (see
        // `Context::report_with`).
        let at = match &line.kind {
            LineKind::Comment { text: span } | LineKind::Markup { text: span } => span.start,
            LineKind::Words { words, .. } => words.start,
            _ => return,
        };
        if cx.skip(&META, at) {
            return;
        }
        let source = sitemap.source;
        let text = |r: &std::ops::Range<usize>| source.get(r.clone()).unwrap_or("");
        let d = match &line.kind {
            LineKind::Comment { text: span } => {
                Diagnostic::new(&META, span.clone(), format!("comment in a text sitemap: `{}`", quoted(text(span))))
                    .with_label("read as a URL")
                    .with_help("delete the line: a text sitemap has no comments, every line is read as a URL")
                    .with_fix(Fix::safe("delete the comment line", vec![Edit::delete(line.span.start..line.next)]))
            }
            LineKind::Markup { text: span } => {
                Diagnostic::new(&META, span.clone(), format!("markup in a text sitemap: `{}`", quoted(text(span))))
                    .with_label("read as a URL")
                    .with_help("write the URL alone on the line; a sitemap with tags is an XML sitemap, named `*.xml`")
            }
            LineKind::Words { words, first } => words_line(source, line, words, first),
            _ => return,
        };
        cx.report(d);
    }
}

/// URLs on one line that the fix of [`words_line`] puts on lines of their own at most.
const MAX_SPLIT: usize = 1_000;

/// The finding on a line of several words: `words` (the line without the spaces and tabs
/// around it) starts with the word `first`.
fn words_line(
    source: &str,
    line: &TextLine,
    words: &std::ops::Range<usize>,
    first: &std::ops::Range<usize>,
) -> Diagnostic {
    let all = source.get(words.clone()).unwrap_or("");
    let is_url = |w: &str| {
        let starts = |p: &str| {
            w.as_bytes()
                .get(..p.len())
                .is_some_and(|s| s.eq_ignore_ascii_case(p.as_bytes()))
        };
        starts("http://") || starts("https://")
    };
    let mut gaps = Vec::new();
    let mut start = None;
    for (i, b) in all.bytes().enumerate() {
        match (b == b' ' || b == b'\t', start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                gaps.push(words.start + s..words.start + i);
                start = None;
            }
            _ => {}
        }
        if gaps.len() > MAX_SPLIT {
            break;
        }
    }
    let several_urls = all.split([' ', '\t']).filter(|w| !w.is_empty()).all(is_url);
    if several_urls {
        // Each URL on a line of its own: the gaps between them become line ends, as the file
        // writes them.
        let line_end = match source.get(line.span.end..line.next) {
            Some(end) if !end.is_empty() => end,
            _ => "\n",
        };
        let mut d = Diagnostic::new(&META, words.clone(), "several URLs on one line")
            .with_label("one URL per line")
            .with_help("put each URL on a line of its own");
        if gaps.len() <= MAX_SPLIT {
            let edits = gaps
                .into_iter()
                .map(|gap| Edit::replace(gap, line_end))
                .collect();
            d = d.with_fix(Fix::unsafe_("put each URL on a line of its own", edits));
        }
        return d;
    }
    let first_word = source.get(first.clone()).unwrap_or("");
    let rest = source
        .get(first.end..words.end)
        .unwrap_or("")
        .trim_start_matches([' ', '\t']);
    let (message, help) = if is_url(first_word) {
        (
            format!(
                "the line holds more than a URL: `{}` follows it",
                quoted(rest)
            ),
            "delete what follows the URL; if the space is part of the URL, write it as `%20`",
        )
    } else {
        (
            format!("the line is not a URL: `{}`", quoted(all)),
            "delete the line, or write the full URL (`https://…`) alone on it",
        )
    };
    Diagnostic::new(&META, words.clone(), message)
        .with_label("one URL per line, nothing else")
        .with_help(help)
}
