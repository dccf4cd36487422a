//! Text sitemaps (sitemaps.org, "Text file"): which inputs are one, and their lines, classified.
//!
//! An input whose content is not XML (its first character other than whitespace is not `<`) is a
//! text sitemap when its name ends in `.txt` or `.txt.gz` (any case; a URL's query and fragment
//! do not count), or when its server declared it `text/plain`. Each line holds one URL. The
//! engine turns every URL line into an entry of the model with a `<loc>` (see
//! [`crate::pipeline::model::Sitemap::text`]), so the URL rules judge it as they judge `<loc>`;
//! every line also goes through the rules' line hook ([`crate::rule::Rule::check_text_line`]).
//!
//! Lines end at `\n`, `\r\n` or a lone `\r` (as Java's `BufferedReader.readLine`, which
//! crawler-commons reads text sitemaps with, and XML's line-end normalisation). The text after the
//! last line end is a line only when it is not empty: a final newline is normal. The byte-order
//! mark is removed by decoding before the text gets here. One pass over the bytes, no allocation
//! per line: a 50 MiB line or ten million blank lines cost linear time and constant memory.

use std::ops::Range;

/// Whether `name` (a path or URL) names a text sitemap: `*.txt` or `*.txt.gz`, any case. The query
/// and fragment of a URL are not part of its name.
pub fn is_text_name(name: &str) -> bool {
    let name = if name.contains("://") {
        name.split(['?', '#']).next().unwrap_or(name)
    } else {
        name
    };
    let lower = name.to_ascii_lowercase();
    let lower = lower.strip_suffix(".gz").unwrap_or(&lower);
    lower.ends_with(".txt")
}

/// Whether `text` (decoded, without its byte-order mark) is XML: its first character other than
/// whitespace is `<`.
pub fn is_xml(text: &str) -> bool {
    text.trim_start_matches(|c: char| c.is_whitespace() || c == '\u{FEFF}')
        .starts_with('<')
}

/// [`is_xml`] on bytes not decoded yet (the first bytes of a file): after a UTF-8 byte-order mark
/// and ASCII whitespace, the first byte is `<`.
pub fn starts_xml(bytes: &[u8]) -> bool {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|&b| b == b'<')
}

/// Whether an input is checked as a text sitemap: its content is not XML, and it is named `*.txt`
/// or `*.txt.gz` or was declared `text/plain` (`declared_text`).
pub fn applies(name: &str, declared_text: bool, text: &str) -> bool {
    (declared_text || is_text_name(name)) && !is_xml(text)
}

/// One line of a text sitemap, or a run of blank lines. Spans are byte offsets into the text and
/// never include the line end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextLine {
    /// The line without its line end (for [`LineKind::Blank`], the first blank line of the run).
    pub span: Range<usize>,
    /// Where the next line starts (after the line end; for a run of blank lines, after the last
    /// one's): `span.start..next` is what deleting the line (or the run) removes.
    pub next: usize,
    pub kind: LineKind,
}

/// What a line holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LineKind {
    /// One word, taken for a URL (the URL rules judge it), maybe with spaces or tabs around it.
    Url {
        /// The URL, without the spaces and tabs around it.
        url: Range<usize>,
    },
    /// `count` lines in a row that are empty or hold only spaces and tabs.
    Blank { count: usize },
    /// A line starting with `#`, as comments are written in other line-based files.
    Comment { text: Range<usize> },
    /// A line starting with `<`: markup, such as a `<loc>` element or an HTML page.
    Markup { text: Range<usize> },
    /// Several words separated by spaces or tabs: `words` is the line without the spaces and tabs
    /// around it, `first` its first word.
    Words {
        words: Range<usize>,
        first: Range<usize>,
    },
}

impl TextLine {
    /// The URL of a URL line.
    pub fn url(&self) -> Option<Range<usize>> {
        match &self.kind {
            LineKind::Url { url } => Some(url.clone()),
            _ => None,
        }
    }
}

/// Spaces and tabs: what separates words on a line and is trimmed around a URL. Other whitespace
/// (no-break spaces, form feeds) is part of the word, and the URL rules name it.
fn is_blank(b: u8) -> bool {
    matches!(b, b' ' | b'\t')
}

/// The lines of `text`, in order, runs of blank lines as one item.
pub fn lines(text: &str) -> Lines<'_> {
    Lines { text, at: 0 }
}

/// The iterator of [`lines`].
pub struct Lines<'t> {
    text: &'t str,
    at: usize,
}

impl Lines<'_> {
    /// The next raw line: its span without the line end, and where the line after it starts.
    fn raw(&mut self) -> Option<(Range<usize>, usize)> {
        let bytes = self.text.as_bytes();
        let start = self.at;
        if start >= bytes.len() {
            return None;
        }
        let (end, next) = line_end(bytes, start);
        self.at = next;
        Some((start..end, next))
    }

    /// After a blank line that ends at `next`: the blank lines that follow, counted, and where
    /// the line after them starts. Each byte is looked at once.
    fn blank_run(&self, mut next: usize) -> (usize, usize) {
        let bytes = self.text.as_bytes();
        let mut count = 0;
        loop {
            let mut i = next;
            while bytes.get(i).is_some_and(|&b| is_blank(b)) {
                i += 1;
            }
            let after = match bytes.get(i) {
                // Spaces at the very end are a last blank line; nothing at all is no line.
                None if i > next => i,
                Some(b'\n') => i + 1,
                Some(b'\r') => {
                    i + if bytes.get(i + 1) == Some(&b'\n') {
                        2
                    } else {
                        1
                    }
                }
                _ => return (count, next),
            };
            count += 1;
            next = after;
        }
    }
}

/// Where the line starting at `start` ends (before its line end), and where the next one starts.
/// Short lines are scanned byte by byte (cheaper than setting up a vector search for each),
/// longer ones with `memchr`.
fn line_end(bytes: &[u8], start: usize) -> (usize, usize) {
    const SHORT: usize = 64;
    let head = &bytes[start..bytes.len().min(start + SHORT)];
    let found = match head.iter().position(|&b| matches!(b, b'\n' | b'\r')) {
        Some(i) => Some(start + i),
        None if head.len() < SHORT => None,
        None => memchr::memchr2(b'\n', b'\r', &bytes[start + SHORT..]).map(|i| start + SHORT + i),
    };
    match found {
        None => (bytes.len(), bytes.len()),
        Some(end) => {
            let crlf = bytes[end] == b'\r' && bytes.get(end + 1) == Some(&b'\n');
            (end, end + if crlf { 2 } else { 1 })
        }
    }
}

impl Iterator for Lines<'_> {
    type Item = TextLine;

    fn next(&mut self) -> Option<TextLine> {
        let bytes = self.text.as_bytes();
        let (span, next) = self.raw()?;
        let line = &bytes[span.clone()];
        let Some(first) = line.iter().position(|&b| !is_blank(b)) else {
            // A run of blank lines: one item, however long the run.
            let (more, next) = self.blank_run(next);
            self.at = next;
            return Some(TextLine {
                span,
                next,
                kind: LineKind::Blank { count: 1 + more },
            });
        };
        let last = line.iter().rposition(|&b| !is_blank(b)).unwrap_or(first);
        let words = span.start + first..span.start + last + 1;
        let kind = match line[first] {
            b'#' => LineKind::Comment { text: words },
            b'<' => LineKind::Markup { text: words },
            _ => match line[first..=last].iter().position(|&b| is_blank(b)) {
                Some(gap) => LineKind::Words {
                    first: words.start..words.start + gap,
                    words,
                },
                None => LineKind::Url { url: words },
            },
        };
        Some(TextLine { span, next, kind })
    }
}

/// The lines (without their line ends) that hold the offsets `at`, sorted and without repeats.
/// Each byte of `text` is looked at once at most, however many offsets share a line: what
/// the engine uses to drop findings on lines with bytes that were not UTF-8.
pub fn lines_holding(text: &str, at: impl IntoIterator<Item = usize>) -> Vec<Range<usize>> {
    let bytes = text.as_bytes();
    let is_end = |b: &u8| matches!(b, b'\n' | b'\r');
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut offsets: Vec<usize> = at.into_iter().map(|a| a.min(bytes.len())).collect();
    offsets.sort_unstable();
    for a in offsets {
        let floor = out.last().map_or(0, |r| r.end);
        if out.last().is_some_and(|r| r.contains(&a) || r.end == a) {
            continue;
        }
        let start = bytes[floor..a]
            .iter()
            .rposition(is_end)
            .map_or(floor, |i| floor + i + 1);
        let end = bytes[a..]
            .iter()
            .position(is_end)
            .map_or(bytes.len(), |i| a + i);
        out.push(start..end);
    }
    out
}

/// Whether `at` lies on one of `lines` (as [`lines_holding`] returns them).
pub fn on_lines(lines: &[Range<usize>], at: usize) -> bool {
    let i = lines.partition_point(|r| r.end < at);
    lines.get(i).is_some_and(|r| r.start <= at && at <= r.end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<(String, LineKind)> {
        lines(text)
            .map(|l| (text[l.span.clone()].to_string(), l.kind))
            .collect()
    }

    #[test]
    fn names_and_content_decide() {
        assert!(is_text_name("sitemap.txt"));
        assert!(is_text_name("a/URLS.TXT.GZ"));
        assert!(is_text_name("https://example.com/sitemap.txt?v=2#top"));
        assert!(!is_text_name("sitemap.xml"));
        assert!(!is_text_name("sitemap.txt.xml"));
        assert!(!is_text_name("https://example.com/sitemap.xml?f=.txt"));
        assert!(is_xml("  \n<?xml version=\"1.0\"?><urlset/>"));
        assert!(is_xml("\u{FEFF}<urlset/>"));
        assert!(!is_xml("https://example.com/\n"));
        assert!(!is_xml(""));
        assert!(starts_xml(b"\xEF\xBB\xBF \n<urlset/>"));
        assert!(!starts_xml(b"https://example.com/<x>"));
        assert!(applies("sitemap.txt", false, "https://example.com/"));
        assert!(!applies("sitemap.txt", false, "<urlset/>"));
        assert!(!applies("sitemap.xml", false, "https://example.com/"));
        assert!(applies(
            "https://example.com/urls",
            true,
            "https://example.com/"
        ));
    }

    #[test]
    fn lines_end_at_lf_crlf_and_cr_and_a_final_newline_is_no_line() {
        let text = "https://a.example/\r\nhttps://b.example/\rhttps://c.example/\n";
        let urls: Vec<&str> = lines(text)
            .filter_map(|l| l.url())
            .map(|r| &text[r])
            .collect();
        assert_eq!(
            urls,
            [
                "https://a.example/",
                "https://b.example/",
                "https://c.example/"
            ]
        );
        assert_eq!(lines("https://a.example/").count(), 1);
        assert_eq!(lines("").count(), 0);
    }

    #[test]
    fn blank_runs_are_one_item_and_words_are_classified() {
        let text = "https://a.example/\n\n \t\r\n\nhttps://b.example/ x\n  https://c.example/\t\n# note\n<loc>x</loc>\n\n";
        let got = kinds(text);
        assert_eq!(got[1].1, LineKind::Blank { count: 3 });
        assert_eq!(got[1].0, "");
        assert!(matches!(got[2].1, LineKind::Words { .. }));
        let LineKind::Url { url } = &got[3].1 else {
            panic!("{got:?}")
        };
        assert_eq!(&text[url.clone()], "https://c.example/");
        assert!(matches!(got[4].1, LineKind::Comment { .. }));
        assert!(matches!(got[5].1, LineKind::Markup { .. }));
        assert_eq!(got[6].1, LineKind::Blank { count: 1 });
        assert_eq!(got.len(), 7);
        // The run's `next` is after its last line end.
        let blank = lines(text).nth(1).unwrap();
        assert_eq!(&text[blank.next..blank.next + 5], "https");
    }

    #[test]
    fn blank_runs_count_every_line_end_once() {
        let blank = |text: &str| -> Vec<LineKind> { lines(text).map(|l| l.kind).collect() };
        assert_eq!(blank("\r\r\n\n"), [LineKind::Blank { count: 3 }]);
        assert_eq!(blank("\n \t"), [LineKind::Blank { count: 2 }]);
        assert_eq!(blank("  "), [LineKind::Blank { count: 1 }]);
        let text = "https://a.example/\n  ";
        let got: Vec<TextLine> = lines(text).collect();
        assert_eq!(got[1].kind, LineKind::Blank { count: 1 });
        assert_eq!((got[1].span.clone(), got[1].next), (19..21, 21));
        // Long lines go through the vector search: the same lines.
        let long = format!("https://a.example/{}\r\n\r\nx", "a".repeat(100));
        let got: Vec<LineKind> = lines(&long).map(|l| l.kind).collect();
        assert_eq!(got.len(), 3);
        assert_eq!(got[1], LineKind::Blank { count: 1 });
    }

    #[test]
    fn lines_holding_offsets() {
        let text = "ab\ncd\r\nef\rgh";
        let lines = lines_holding(text, [4, 0, 5, 13]);
        assert_eq!(lines, [0..2, 3..5, 10..12]);
        assert!(on_lines(&lines, 1) && on_lines(&lines, 5) && on_lines(&lines, 10));
        assert!(!on_lines(&lines, 7) && !on_lines(&lines, 8));
        assert_eq!(lines_holding("", [0]).len(), 1);
    }
}
