//! The default renderer: rustc-style diagnostics via codespan-reporting, the offending text underlined, long lines excerpted.

use std::borrow::Cow;
use std::io::{self, Write};
use std::ops::Range;

use codespan_reporting::diagnostic::{
    Diagnostic as CsDiagnostic, Label as CsLabel, Severity as CsSeverity,
};
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term::termcolor::{Ansi, NoColor};
use codespan_reporting::term::{self, Config};

use crate::diagnostic::{Diagnostic, Severity};
use crate::pipeline::source::{floor_char_boundary, SourceFile};
use crate::render::{stand_in, visible, Checked, RenderOptions, Renderer, Summary};
use crate::report::FileReport;

/// Lines longer than this (in bytes) are shown as excerpts around the labels.
const LONG_LINE: usize = 200;
/// Characters of context kept on each side of a label in an excerpt.
const CONTEXT_CHARS: usize = 40;
/// A multi-line label is shown whole up to this many lines, else only its first line.
const MAX_LABEL_LINES: usize = 8;

/// rustc-style output; the summary line is left to the caller (it goes to stderr).
pub struct Human {
    pub options: RenderOptions,
}

impl Renderer for Human {
    fn file(&mut self, file: &Checked<'_>, out: &mut dyn Write) -> io::Result<()> {
        render_file(file.report, out, self.options.clone())
    }

    fn finish(&mut self, _summary: &Summary, _out: &mut dyn Write) -> io::Result<()> {
        Ok(())
    }
}

/// From this many diagnostics in a file, they are rendered in chunks of [`CHUNK`] on up to
/// [`RenderOptions::threads`] threads and written in order: codespan takes about 40,000
/// instructions for one diagnostic (125 M for the 3,000 of the `findings-52mb` benchmark file),
/// which all ran on one thread after the file was checked on all of them.
const PARALLEL_FROM: usize = 512;

/// Diagnostics rendered together on one thread (see [`PARALLEL_FROM`]).
const CHUNK: usize = 128;

fn render_file(report: &FileReport, out: &mut dyn Write, options: RenderOptions) -> io::Result<()> {
    let config = Config::default();
    let source = &report.source;
    if options.threads < 2 || report.diagnostics.len() < PARALLEL_FROM {
        for d in &report.diagnostics {
            render_one(source, d, &options, &config, out)?;
        }
        return Ok(());
    }
    // The text and its line index are made once, before the threads read them.
    let _ = source.line_index(0);
    let chunks: Vec<&[Diagnostic]> = report.diagnostics.chunks(CHUNK).collect();
    crate::exec::ordered(
        chunks.len(),
        options.threads,
        |i| {
            let mut text = Vec::new();
            for d in chunks[i] {
                render_one(source, d, &options, &config, &mut text)?;
            }
            Ok(text)
        },
        |text| text.as_ref().map_or(0, Vec::len),
        |_, text| out.write_all(&text?),
    )
}

fn render_one(
    source: &SourceFile,
    d: &Diagnostic,
    options: &RenderOptions,
    config: &Config,
    out: &mut dyn Write,
) -> io::Result<()> {
    let excerpt = Excerpt::build(source, d);
    let cs = excerpt.diagnostic(d);
    if d.severity == Severity::Info {
        // codespan names this severity `note`; sitemap-lint's word is `info` everywhere.
        let mut text = Vec::new();
        emit(&mut text, options, config, &excerpt, &cs)?;
        out.write_all(&info_header(text))
    } else {
        emit(out, options, config, &excerpt, &cs)
    }
}

fn emit(
    out: &mut dyn Write,
    options: &RenderOptions,
    config: &Config,
    excerpt: &Excerpt<'_>,
    cs: &CsDiagnostic<()>,
) -> io::Result<()> {
    let result = if options.color {
        term::emit_to_write_style(&mut Ansi::new(&mut *out), config, excerpt, cs)
    } else {
        term::emit_to_write_style(&mut NoColor::new(&mut *out), config, excerpt, cs)
    };
    result.map_err(|e| match e {
        FilesError::Io(io) => io,
        other => io::Error::other(other.to_string()),
    })
}

/// Renames codespan's `note[rule]` header (the first line, maybe after colour codes) to
/// `info[rule]`.
fn info_header(mut text: Vec<u8>) -> Vec<u8> {
    let first_line = text.iter().position(|&b| b == b'\n').unwrap_or(text.len());
    if let Some(at) = text[..first_line].windows(5).position(|w| w == b"note[") {
        text[at..at + 4].copy_from_slice(b"info");
    }
    text
}

/// The lines one diagnostic needs, cut down to windows around its labels, with the real line and
/// column numbers kept for display.
struct Excerpt<'a> {
    name: Cow<'a, str>,
    text: String,
    /// Per excerpt line: (start offset in `text`, real 1-based line number, real char column of the
    /// excerpt line's first char minus one, and the pieces mapping source ranges into `text`).
    lines: Vec<ExcerptLine>,
    source: &'a SourceFile,
}

struct ExcerptLine {
    start: usize,
    end: usize,
    real_line: usize,
    pieces: Vec<Piece>,
}

/// A run of source text shown in the excerpt: verbatim (`shown` bytes equal to the source range),
/// or one invisible character replaced by a visible stand-in of another width.
struct Piece {
    range: Range<usize>,
    /// Offset in the excerpt text where it is shown.
    at: usize,
    /// Bytes it occupies in the excerpt text.
    shown: usize,
}

impl Piece {
    fn verbatim(&self) -> bool {
        self.shown == self.range.len()
    }

    /// Excerpt offset of a source offset inside this piece (the stand-in is atomic).
    fn to_excerpt(&self, offset: usize) -> usize {
        if self.verbatim() {
            self.at + (offset - self.range.start)
        } else if offset == self.range.start {
            self.at
        } else {
            self.at + self.shown
        }
    }

    /// Source offset of an excerpt offset inside this piece.
    fn to_source(&self, byte_index: usize) -> usize {
        if self.verbatim() {
            self.range.start + (byte_index - self.at)
        } else if byte_index == self.at {
            self.range.start
        } else {
            self.range.end
        }
    }
}

/// Appends the source range to the excerpt text, replacing invisible characters with stand-ins.
fn push_visible(text: &mut String, pieces: &mut Vec<Piece>, source: &str, range: Range<usize>) {
    let slice = &source[range.clone()];
    let mut run_start = range.start;
    for (i, c) in slice.char_indices() {
        let Some(vis) = stand_in(c) else { continue };
        let at = range.start + i;
        if at > run_start {
            pieces.push(Piece {
                range: run_start..at,
                at: text.len(),
                shown: at - run_start,
            });
            text.push_str(&source[run_start..at]);
        }
        let end = at + c.len_utf8();
        pieces.push(Piece {
            range: at..end,
            at: text.len(),
            shown: vis.len(),
        });
        text.push_str(&vis);
        run_start = end;
    }
    if range.end > run_start || pieces.is_empty() {
        pieces.push(Piece {
            range: run_start..range.end,
            at: text.len(),
            shown: range.end - run_start,
        });
        text.push_str(&source[run_start..range.end]);
    }
}

impl<'a> Excerpt<'a> {
    fn build(source: &'a SourceFile, d: &Diagnostic) -> Excerpt<'a> {
        let spans: Vec<Range<usize>> = std::iter::once(d.primary.span.clone())
            .chain(d.secondary.iter().map(|l| l.span.clone()))
            .collect();
        // (0-based index, start offset) of every line to show.
        let mut line_idx: Vec<(usize, usize)> = Vec::new();
        for s in &spans {
            let first = source.line_index(s.start);
            let last = source.line_index(s.end.max(s.start));
            let last = if last - first >= MAX_LABEL_LINES {
                first
            } else {
                last
            };
            let mut start = Some(source.line_start(s.start));
            for li in first..=last {
                let Some(at) = start else { break };
                line_idx.push((li, at));
                start = source.next_line_start(at);
            }
        }
        line_idx.sort_unstable();
        line_idx.dedup();
        let mut text = String::new();
        let mut lines = Vec::new();
        for (li, line_start) in line_idx {
            let lr = source.line_range(line_start);
            let line = &source.text()[lr.clone()];
            let start = text.len();
            let mut pieces = Vec::new();
            if line.len() <= LONG_LINE {
                push_visible(&mut text, &mut pieces, source.text(), lr.clone());
            } else {
                // Windows around every label part on this line, merged when they overlap.
                let mut windows: Vec<Range<usize>> = spans
                    .iter()
                    .filter(|s| s.start <= lr.end && s.end.max(s.start) >= lr.start)
                    .map(|s| {
                        let a = floor_char_boundary(source.text(), s.start.max(lr.start));
                        let b = floor_char_boundary(
                            source.text(),
                            s.end.clamp(a, lr.end).min(a + LONG_LINE),
                        );
                        let a = back_chars(source.text(), a, CONTEXT_CHARS).max(lr.start);
                        let b = fwd_chars(source.text(), b, CONTEXT_CHARS).min(lr.end);
                        a..b
                    })
                    .collect();
                windows.sort_by_key(|w| w.start);
                let mut merged: Vec<Range<usize>> = Vec::new();
                for w in windows {
                    match merged.last_mut() {
                        Some(m) if w.start <= m.end => m.end = m.end.max(w.end),
                        _ => merged.push(w),
                    }
                }
                for (i, w) in merged.iter().enumerate() {
                    if i > 0 || w.start > lr.start {
                        text.push('…');
                    }
                    push_visible(&mut text, &mut pieces, source.text(), w.clone());
                }
                if merged.last().is_some_and(|w| w.end < lr.end) {
                    text.push('…');
                }
            }
            let end = text.len();
            text.push('\n');
            lines.push(ExcerptLine {
                start,
                end,
                real_line: li + 1,
                pieces,
            });
        }
        Excerpt {
            name: visible(source.name()),
            text,
            lines,
            source,
        }
    }

    /// Maps a source offset into the excerpt text (to the nearest shown position).
    fn map(&self, offset: usize) -> usize {
        for line in &self.lines {
            for piece in &line.pieces {
                if offset >= piece.range.start && offset <= piece.range.end {
                    return piece.to_excerpt(offset);
                }
            }
        }
        // Not shown (a long multi-line label): clamp to the end of the closest preceding line.
        let mut best = 0;
        for line in &self.lines {
            if let (Some(first), Some(last)) = (line.pieces.first(), line.pieces.last()) {
                if first.range.start <= offset {
                    best = if offset > last.range.end {
                        line.end
                    } else {
                        first.at
                    };
                }
            }
        }
        best
    }

    fn map_range(&self, r: &Range<usize>) -> Range<usize> {
        let a = self.map(r.start);
        let b = self.map(r.end.max(r.start)).max(a);
        a..b
    }

    fn diagnostic(&self, d: &Diagnostic) -> CsDiagnostic<()> {
        let severity = match d.severity {
            Severity::Error => CsSeverity::Error,
            Severity::Warning => CsSeverity::Warning,
            Severity::Info => CsSeverity::Note,
        };
        let mut labels = vec![CsLabel::primary((), self.map_range(&d.primary.span))
            .with_message(visible(&d.primary.message))];
        for l in &d.secondary {
            labels.push(
                CsLabel::secondary((), self.map_range(&l.span)).with_message(visible(&l.message)),
            );
        }
        // A label in another file of the set: its place, then its message (that file's text
        // is not at hand).
        let mut notes: Vec<String> = d
            .elsewhere
            .iter()
            .map(|e| {
                format!(
                    "{}:{}:{}: {}",
                    visible(&e.file),
                    e.line,
                    e.column,
                    visible(&e.message)
                )
            })
            .collect();
        notes.extend(d.notes.iter().map(|n| visible(n).into_owned()));
        if let Some(help) = &d.help {
            notes.push(format!("help: {}", visible(help)));
        }
        if let Some(fix) = &d.fix {
            notes.push(crate::render::fixable_note(fix.applicability).to_string());
        }
        CsDiagnostic::new(severity)
            .with_message(visible(&d.message))
            .with_code(d.rule.name)
            .with_labels(labels)
            .with_notes(notes)
    }

    fn line_of(&self, byte_index: usize) -> usize {
        self.lines
            .iter()
            .rposition(|l| l.start <= byte_index)
            .unwrap_or(0)
    }
}

fn back_chars(text: &str, at: usize, n: usize) -> usize {
    text[..at]
        .char_indices()
        .rev()
        .nth(n.saturating_sub(1))
        .map_or(0, |(i, _)| i)
}

fn fwd_chars(text: &str, at: usize, n: usize) -> usize {
    text[at..]
        .char_indices()
        .nth(n)
        .map_or(text.len(), |(i, _)| at + i)
}

impl<'f> Files<'f> for Excerpt<'_> {
    type FileId = ();
    type Name = &'f str;
    type Source = &'f str;

    fn name(&'f self, _: ()) -> Result<&'f str, FilesError> {
        Ok(&self.name)
    }

    fn source(&'f self, _: ()) -> Result<&'f str, FilesError> {
        Ok(&self.text)
    }

    fn line_index(&'f self, _: (), byte_index: usize) -> Result<usize, FilesError> {
        Ok(self.line_of(byte_index))
    }

    fn line_number(&'f self, _: (), line_index: usize) -> Result<usize, FilesError> {
        Ok(self.lines.get(line_index).map_or(1, |l| l.real_line))
    }

    fn column_number(
        &'f self,
        _: (),
        line_index: usize,
        byte_index: usize,
    ) -> Result<usize, FilesError> {
        // The real column: find the source offset behind this excerpt position.
        let Some(line) = self.lines.get(line_index) else {
            return Ok(1);
        };
        for piece in &line.pieces {
            if byte_index >= piece.at && byte_index <= piece.at + piece.shown {
                return Ok(self.source.column(piece.to_source(byte_index)));
            }
        }
        Ok(1)
    }

    fn line_range(&'f self, _: (), line_index: usize) -> Result<Range<usize>, FilesError> {
        match self.lines.get(line_index) {
            Some(l) => Ok(l.start..l.end + 1),
            None => Err(FilesError::LineTooLarge {
                given: line_index,
                max: self.lines.len().saturating_sub(1),
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{check_reader, Settings};

    /// Many findings are rendered on several threads exactly as on one: the chunks are written
    /// in order, errors and infos (whose header is renamed), short and excerpted lines alike.
    #[test]
    fn many_findings_render_the_same_on_several_threads() {
        let mut xml = String::from(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for i in 0..700 {
            // Every third line is longer than LONG_LINE: shown as an excerpt.
            let pad = "p".repeat(if i % 3 == 0 { 300 } else { 1 });
            xml.push_str(&format!(
                "<url><loc>https://example.com/{i}/{pad}</loc><lastmod>2999-01-01</lastmod><changefreq>sometimes</changefreq></url>\n"
            ));
        }
        xml.push_str("</urlset>\n");
        let report = check_reader("t.xml", xml.as_bytes(), &Settings::default()).unwrap();
        let n = report.diagnostics.len();
        assert!(n >= 2 * PARALLEL_FROM, "{n} findings");
        assert!(report
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Info));
        assert!(report
            .diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error));
        for color in [false, true] {
            let render = |threads| {
                let mut out = Vec::new();
                let options = RenderOptions {
                    color,
                    threads,
                    ..RenderOptions::default()
                };
                render_file(&report, &mut out, options).unwrap();
                String::from_utf8(out).unwrap()
            };
            let one = render(1);
            assert_eq!(one.matches("[changefreq-invalid]").count(), 700);
            assert!(one.contains("info[lastmod-future]") || one.contains("info\u{1b}"));
            assert_eq!(render(2), one, "color {color}");
            assert_eq!(render(3), one, "color {color}");
        }
    }
}
