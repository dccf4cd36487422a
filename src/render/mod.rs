//! Output formats: one renderer per file in this folder, chosen by [`Format`]; all write to a caller-supplied writer.
//!
//! Renderers stream: [`Renderer::file`] is called once per checked input, in output order, and
//! [`Renderer::finish`] once at the end. A renderer never keeps a file's text after `file`
//! returns; formats whose header needs totals (JUnit) keep only their small per-finding output.

use std::collections::HashMap;
use std::io::{self, Write};
use std::ops::Range;

use sha2::{Digest, Sha256};

use crate::diagnostic::{Applicability, Diagnostic};
use crate::pipeline::source::{Position, SourceFile};
use crate::report::FileReport;
use crate::Severity;

pub mod checkstyle;
pub mod concise;
pub mod github;
pub mod gitlab;
pub mod human;
pub mod json;
pub mod junit;
pub mod sarif;
pub mod statistics;

pub use crate::values::text::{line_start_name, stand_in, visible};

/// The output formats of `sitemap-lint check --format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// rustc-style diagnostics with the offending text underlined (default).
    Human,
    /// The versioned JSON document described in docs/formats.md ("JSON output").
    Json,
    /// One line per finding, `path:line:col: severity: message [rule]` (GNU style, never coloured).
    Concise,
    /// SARIF 2.1.0, as GitHub code scanning reads it.
    Sarif,
    /// GitHub Actions workflow commands (annotations), then the concise report.
    Github,
    /// GitLab Code Quality (Code Climate subset) JSON.
    Gitlab,
    /// JUnit XML: one test suite per file, one failing test case per finding.
    Junit,
    /// Checkstyle XML (version 4.3).
    Checkstyle,
}

/// Options that affect rendering.
#[derive(Debug, Clone, Default)]
pub struct RenderOptions {
    /// Emit ANSI colour codes (human format only).
    pub color: bool,
    /// The absolute directory repository paths are relative to (SARIF `%SRCROOT%`).
    pub root: Option<std::path::PathBuf>,
    /// Threads a renderer may use for a file with many findings (human format; 0 or 1: the
    /// calling thread only).
    pub threads: usize,
}

/// Totals over all files.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub files: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
    /// `<url>` entries in the sitemaps checked (indexes' `<sitemap>` entries not counted).
    pub urls: usize,
    /// Findings (of those counted) with a safe fix, which `--fix` applies.
    pub fixable: usize,
    /// Findings with an unsafe fix, which `--fix --unsafe-fixes` applies.
    pub fixable_unsafe: usize,
}

impl Summary {
    pub fn of(reports: &[FileReport]) -> Summary {
        let mut s = Summary::default();
        for r in reports {
            s.add(r);
        }
        s
    }

    /// `2 errors, 1 warning in 3 files` (or `no problems in 3 files`).
    pub fn line(&self) -> String {
        let mut parts = Vec::new();
        if self.errors > 0 {
            parts.push(plural(self.errors, "error"));
        }
        if self.warnings > 0 {
            parts.push(plural(self.warnings, "warning"));
        }
        if self.infos > 0 {
            parts.push(plural(self.infos, "info"));
        }
        let what = if parts.is_empty() {
            "no problems".to_string()
        } else {
            parts.join(", ")
        };
        format!("{what} in {}", plural(self.files, "file"))
    }

    /// Adds one file's counts.
    pub fn add(&mut self, report: &FileReport) {
        self.files += 1;
        self.errors += report.count(Severity::Error);
        self.warnings += report.count(Severity::Warning);
        self.infos += report.count(Severity::Info);
        self.urls += report.site.urls();
        for d in &report.diagnostics {
            match d.fix.as_ref().map(|f| f.applicability) {
                Some(Applicability::Safe) => self.fixable += 1,
                Some(Applicability::Unsafe) => self.fixable_unsafe += 1,
                None => {}
            }
        }
    }

    /// `3 fixable with --fix (1 more with --unsafe-fixes)`, or `None` when nothing is fixable.
    /// With `unsafe_fixes` (the flag given), unsafe fixes count as fixable.
    pub fn fix_line(&self, unsafe_fixes: bool) -> Option<String> {
        let (now, more) = if unsafe_fixes {
            (self.fixable + self.fixable_unsafe, 0)
        } else {
            (self.fixable, self.fixable_unsafe)
        };
        let flag = if unsafe_fixes {
            "--fix --unsafe-fixes"
        } else {
            "--fix"
        };
        match (now, more) {
            (0, 0) => None,
            (0, m) => Some(format!("{m} fixable with --fix --unsafe-fixes")),
            (n, 0) => Some(format!("{n} fixable with {flag}")),
            (n, m) => Some(format!(
                "{n} fixable with {flag} ({m} more with --unsafe-fixes)"
            )),
        }
    }
}

/// The note a fixable finding carries in the human output: `[*] fixable with --fix`.
pub fn fixable_note(applicability: Applicability) -> &'static str {
    match applicability {
        Applicability::Safe => "[*] fixable with --fix",
        Applicability::Unsafe => "[*] fixable with --fix --unsafe-fixes",
    }
}

/// `1 file`, `2 files`.
pub fn plural(n: usize, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// One checked input as the renderers see it: the report plus what CI formats need to place it.
#[derive(Debug, Clone, Copy)]
pub struct Checked<'a> {
    pub report: &'a FileReport,
    /// The path CI tools resolve against the repository: relative to the project root (the
    /// current directory) with `/` separators, or absolute for a file outside it. Used by the
    /// `sarif`, `github` and `gitlab` formats; the others show `report.source.name()`.
    pub repo_path: &'a str,
    /// The raw input was gzip-compressed. Positions then refer to the decompressed text, which a
    /// code host cannot show: `sarif`, `github` and `gitlab` put the decompressed line and column
    /// into the message and point at line 1 of the file.
    pub compressed: bool,
}

impl<'a> Checked<'a> {
    /// A report whose name is also its repository path, not compressed.
    pub fn new(report: &'a FileReport) -> Checked<'a> {
        Checked {
            report,
            repo_path: report.source.name(),
            compressed: false,
        }
    }

    pub fn source(&self) -> &'a SourceFile {
        &self.report.source
    }

    pub fn diagnostics(&self) -> &'a [Diagnostic] {
        &self.report.diagnostics
    }

    /// Where a code host should show `span`: the exact region, or line 1 for compressed input.
    pub fn host_region(&self, span: &Range<usize>) -> Region {
        if self.compressed {
            let p = Position { line: 1, column: 1 };
            Region { start: p, end: p }
        } else {
            Region::of(self.source(), span)
        }
    }

    /// ` (decompressed line L, column C)` for compressed input, else empty: appended to messages
    /// of formats that show [`Checked::host_region`].
    pub fn decompressed_note(&self, span: &Range<usize>) -> String {
        if self.compressed {
            let p = self.source().position(span.start);
            format!(" (decompressed line {}, column {})", p.line, p.column)
        } else {
            String::new()
        }
    }
}

/// A 1-based start and end position; `end` is the position just after the last character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    pub start: Position,
    pub end: Position,
}

impl Region {
    pub fn of(source: &SourceFile, span: &Range<usize>) -> Region {
        Region {
            start: source.position(span.start),
            end: source.position(span.end),
        }
    }
}

/// Streams a report: files are written as they are checked, so only one file's text is held.
pub trait Renderer {
    /// Called once per file, in output order.
    fn file(&mut self, file: &Checked<'_>, out: &mut dyn Write) -> io::Result<()>;
    /// Called once at the end with the totals.
    fn finish(&mut self, summary: &Summary, out: &mut dyn Write) -> io::Result<()>;
}

/// The renderer for `format`.
pub fn renderer(format: Format, options: RenderOptions) -> Box<dyn Renderer> {
    match format {
        Format::Human => Box::new(human::Human { options }),
        Format::Json => Box::new(json::Json::default()),
        Format::Concise => Box::new(concise::Concise),
        Format::Sarif => Box::new(sarif::Sarif::new(options.root.as_deref())),
        Format::Github => Box::new(github::Github::default()),
        Format::Gitlab => Box::new(gitlab::Gitlab::default()),
        Format::Junit => Box::new(junit::Junit::default()),
        Format::Checkstyle => Box::new(checkstyle::Checkstyle::default()),
    }
}

/// Renders complete reports in one go (convenient for tests). Each report's name is used as its
/// repository path, and no input counts as compressed.
pub fn render(
    format: Format,
    reports: &[FileReport],
    out: &mut dyn Write,
    options: RenderOptions,
) -> io::Result<()> {
    let mut r = renderer(format, options);
    for report in reports {
        r.file(&Checked::new(report), out)?;
    }
    r.finish(&Summary::of(reports), out)
}

/// Escapes text for an XML attribute value or element content. Characters XML 1.0 cannot carry
/// (most C0 controls, U+FFFE, U+FFFF) are written as `\u{…}`.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => {
                out.push_str(&format!("\\u{{{:x}}}", c as u32))
            }
            c => out.push(c),
        }
    }
    out
}

/// Escapes text for XML element content: as [`xml_escape`], but line breaks and tabs stay.
pub fn xml_text(s: &str) -> String {
    s.split('\n')
        .map(|line| {
            line.split('\t')
                .map(xml_escape)
                .collect::<Vec<_>>()
                .join("\t")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Stable fingerprints for the findings of one file (SARIF `partialFingerprints`, GitLab
/// `fingerprint`).
///
/// A fingerprint is SHA-256 over the rule, the repository path, the `<loc>` of the entry (`<url>`
/// or `<sitemap>`) the finding lies in, the text of the primary span with up to
/// [`FINGERPRINT_CONTEXT`] characters on each side on its line (whitespace collapsed), and the
/// occurrence number of that combination in the file. Line numbers are left out, so editing lines
/// above a finding keeps its fingerprint; the entry's `<loc>` keeps it when entries with the same
/// problem are inserted above (the occurrence number then counts only within one entry, where it
/// keeps identical findings apart). The same input always gives the same fingerprints, on every
/// platform.
#[derive(Default)]
pub struct Fingerprints {
    seen: HashMap<[u8; 32], u32>,
}

/// Characters of context on each side of the primary span that go into a fingerprint.
pub const FINGERPRINT_CONTEXT: usize = 20;

/// Characters of the span text itself that go into a fingerprint.
const FINGERPRINT_SPAN: usize = 200;

impl Fingerprints {
    /// The 32-hex-digit fingerprint of `d` (call once per finding, in output order).
    pub fn next(&mut self, repo_path: &str, source: &SourceFile, d: &Diagnostic) -> String {
        let text = source.text();
        let span = source.clamp_range(d.primary.span.clone());
        let line = source.line_range(span.start);
        let before = &text[line.start.min(span.start)..span.start];
        let before: String = {
            let mut v: Vec<char> = before.chars().rev().take(FINGERPRINT_CONTEXT).collect();
            v.reverse();
            v.into_iter().collect()
        };
        let inside: String = text[span.clone()].chars().take(FINGERPRINT_SPAN).collect();
        let after_end = line.end.max(span.end);
        let after: String = text[span.end..after_end]
            .chars()
            .take(FINGERPRINT_CONTEXT)
            .collect();
        let context = collapse_whitespace(&format!("{before}\u{1}{inside}\u{1}{after}"));

        let mut key = Sha256::new();
        key.update(b"sitemap-lint/v2\0");
        key.update(d.rule.name.as_bytes());
        key.update(b"\0");
        key.update(repo_path.as_bytes());
        key.update(b"\0");
        key.update(entry_loc(text, span.start).unwrap_or("").as_bytes());
        key.update(b"\0");
        key.update(context.as_bytes());
        let key: [u8; 32] = key.finalize().into();
        let n = self.seen.entry(key).or_insert(0);
        *n += 1;

        let mut h = Sha256::new();
        h.update(key);
        h.update(n.to_string().as_bytes());
        hex(&h.finalize()[..16])
    }
}

/// How far before a finding the start of its entry is looked for, and how far after it the
/// entry's `<loc>`: an entry's text is far shorter, and the search stays linear in the findings.
const ENTRY_WINDOW: usize = 64 * 1024;

/// The trimmed `<loc>` text of the `<url>` or `<sitemap>` entry that `at` lies in (any namespace
/// prefix), found in the text around it; `None` outside an entry or when the entry has no `<loc>`
/// within [`ENTRY_WINDOW`] bytes.
pub fn entry_loc(text: &str, at: usize) -> Option<&str> {
    let at = at.min(text.len());
    let mut floor = at.saturating_sub(ENTRY_WINDOW);
    while !text.is_char_boundary(floor) {
        floor += 1;
    }
    let mut ceil = at.saturating_add(ENTRY_WINDOW).min(text.len());
    while !text.is_char_boundary(ceil) {
        ceil -= 1;
    }
    let mut at = at;
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    // The nearest entry start tag (`<url>`, `<url `, `<sm:sitemap>`…) before `at`.
    let before = &text[floor..at];
    let is_entry_tag = |tag: &str, closing: bool| {
        let tag = if closing {
            tag.strip_prefix('/')
        } else {
            Some(tag)
        };
        let Some(tag) = tag else { return false };
        let name_end = tag
            .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
            .unwrap_or(tag.len());
        let local = tag[..name_end].rsplit(':').next().unwrap_or("");
        (local == "url" || local == "sitemap") && name_end < tag.len()
    };
    let mut start = None;
    for (i, _) in before.rmatch_indices('<') {
        let tag = &before[i + 1..];
        if is_entry_tag(tag, true) {
            return None; // the last entry closed before `at`: not inside one
        }
        if is_entry_tag(tag, false) {
            start = Some(floor + i);
            break;
        }
    }
    let start = start?;
    let entry = &text[start..ceil];
    // The entry ends at its closing tag; the `<loc>` is searched in it.
    let end = entry[1..]
        .match_indices('<')
        .map(|(i, _)| i + 1)
        .find(|&i| is_entry_tag(&entry[i + 1..], true) || is_entry_tag(&entry[i + 1..], false))
        .unwrap_or(entry.len());
    let entry = &entry[..end];
    let mut rest = entry;
    while let Some(i) = rest.find('<') {
        rest = &rest[i + 1..];
        let name_end = rest
            .find(['>', ' ', '\t', '\n', '\r', '/'])
            .unwrap_or(rest.len());
        if rest[..name_end].rsplit(':').next() == Some("loc") && rest[name_end..].starts_with('>') {
            let body = &rest[name_end + 1..];
            let close = body.find('<').unwrap_or(body.len());
            return Some(body[..close].trim());
        }
    }
    None
}

fn collapse_whitespace(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check_reader, Settings};

    fn report(name: &str, xml: &str) -> FileReport {
        check_reader(name, xml.as_bytes(), &Settings::default()).unwrap()
    }

    const TWO_SPACES: &str = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n<url><loc>https://www.example.com/a b</loc></url>\n<url><loc>https://www.example.com/a b</loc></url>\n</urlset>\n";

    fn prints(name: &str, xml: &str) -> Vec<String> {
        let r = report(name, xml);
        let mut f = Fingerprints::default();
        r.diagnostics
            .iter()
            .map(|d| f.next(name, &r.source, d))
            .collect()
    }

    #[test]
    fn fingerprints_are_unique_stable_and_ignore_lines_above() {
        let a = prints("s.xml", TWO_SPACES);
        assert_eq!(a.len(), 2);
        assert_ne!(a[0], a[1], "identical findings get distinct fingerprints");
        assert_eq!(
            a,
            prints("s.xml", TWO_SPACES),
            "same input, same fingerprints"
        );
        assert!(a.iter().all(|f| f.len() == 32));
        let shifted = TWO_SPACES.replacen("<url>", "\n\n<url>", 1);
        assert_eq!(
            a,
            prints("s.xml", &shifted),
            "blank lines above do not matter"
        );
        assert_ne!(a, prints("t.xml", TWO_SPACES), "the path is part of it");
    }

    #[test]
    fn fingerprints_follow_the_entry_when_entries_are_inserted_above() {
        let entry = |loc: &str| {
            format!("<url>\n<loc>https://www.example.com/{loc}</loc>\n<priority>2.0</priority>\n</url>\n")
        };
        let doc = |entries: &[&str]| {
            let body: String = entries.iter().map(|l| entry(l)).collect();
            format!("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n{body}</urlset>\n")
        };
        let a = prints("s.xml", &doc(&["a", "b"]));
        assert_eq!(a.len(), 2, "one finding per entry");
        assert_ne!(a[0], a[1]);
        // An entry with the same problem inserted above: the old findings keep their prints (by
        // occurrence number alone, both would have moved on by one).
        let b = prints("s.xml", &doc(&["new", "a", "b"]));
        assert_eq!(b.len(), 3);
        assert_eq!(&b[1..], &a[..]);
    }

    #[test]
    fn entry_loc_finds_the_enclosing_entry() {
        let text = "<urlset><url><lastmod>x</lastmod><loc> https://a.example/ </loc></url>\
                    <sm:url><loc>https://b.example/</loc><image:image/></sm:url></urlset>";
        let at = |needle: &str| text.find(needle).unwrap();
        assert_eq!(
            entry_loc(text, at("x</lastmod>")),
            Some("https://a.example/")
        );
        assert_eq!(
            entry_loc(text, at("<image:image")),
            Some("https://b.example/")
        );
        assert_eq!(entry_loc(text, at("<urlset>")), None);
        assert_eq!(
            entry_loc(text, at("</urlset>")),
            None,
            "after the last entry"
        );
    }

    #[test]
    fn xml_escape_handles_markup_and_controls() {
        assert_eq!(
            xml_escape("a<b>&\"'\n\u{0}"),
            "a&lt;b&gt;&amp;&quot;&apos;&#10;\\u{0}"
        );
    }
}
