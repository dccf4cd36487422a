//! The decoded text of one input and the conversion of byte offsets to 1-based line/column positions.

use std::ops::Range;
use std::sync::{Mutex, OnceLock, PoisonError};

use crate::pipeline::split::Layout;

/// A 1-based line and column; the column counts Unicode scalar values (characters), not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Position {
    pub line: usize,
    pub column: usize,
}

/// The decoded text of one input (after gzip and encoding handling, UTF-8 BOM removed).
///
/// Every span in a [`crate::Diagnostic`] is a byte range into `text`. Line starts are computed on
/// first use only, so a clean file never pays for them; so is the text of a file checked in
/// pieces (see [`SourceFile::laid_out`]).
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: OnceLock<String>,
    /// A split file's buffer, turned back into `text` on first use.
    layout: Mutex<Option<Layout>>,
    line_starts: OnceLock<Vec<usize>>,
    /// Characters before every multiple of [`CHECKPOINT`] bytes, so that a column on a long line
    /// (a minified sitemap is one line) costs at most one checkpoint's worth of counting.
    char_checkpoints: OnceLock<Vec<usize>>,
}

/// Distance in bytes between character-count checkpoints.
const CHECKPOINT: usize = 4096;

/// The largest character boundary of `text` at or before `i` (clamped to the text's length).
pub fn floor_char_boundary(text: &str, i: usize) -> usize {
    let mut i = i.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// Whether `text` starts with the ASCII `prefix`, ignoring ASCII case. Compares bytes, so it
/// never slices `text` off a character boundary (`例え.jp` against `www.`), and costs nothing
/// beyond the prefix.
pub fn starts_with_ignore_ascii_case(text: &str, prefix: &str) -> bool {
    text.as_bytes()
        .get(..prefix.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(prefix.as_bytes()))
}

/// `range`, cut before its first line break: a line break inside a value (`…/a⏎b`) is shown
/// at the end of its line rather than as a span over two lines. An empty result stays empty.
pub fn on_one_line(source: &str, range: Range<usize>) -> Range<usize> {
    match source.get(range.clone()).and_then(|t| t.find('\n')) {
        Some(0) => range.start..range.start,
        Some(nl) => range.start..range.start + nl,
        None => range,
    }
}

/// The lines `range` stands on, when nothing else does: from the start of its first line
/// (indentation included) to the end of its last one (line break included), with the
/// indentation and the line break (`\n` or `\r\n`). `None` when other text shares a line
/// with it, or the last line has no line break.
pub fn own_lines(source: &str, range: Range<usize>) -> Option<OwnLines<'_>> {
    let b = source.as_bytes();
    let mut start = range.start;
    while start > 0 && matches!(b[start - 1], b' ' | b'\t') {
        start -= 1;
    }
    if start > 0 && b[start - 1] != b'\n' {
        return None;
    }
    let mut end = range.end;
    while b.get(end).is_some_and(|c| matches!(c, b' ' | b'\t')) {
        end += 1;
    }
    let newline = match b.get(end..end + 2) {
        Some(b"\r\n") => "\r\n",
        _ if b.get(end) == Some(&b'\n') => "\n",
        _ => return None,
    };
    Some(OwnLines {
        lines: start..end + newline.len(),
        indent: source.get(start..range.start)?,
        newline,
    })
}

/// What [`own_lines`] finds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwnLines<'s> {
    pub lines: Range<usize>,
    pub indent: &'s str,
    pub newline: &'static str,
}

/// Whether `b` starts a UTF-8 character (is not a continuation byte).
fn starts_char(b: u8) -> bool {
    (b & 0xC0) != 0x80
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            text: OnceLock::from(text.into()),
            layout: Mutex::new(None),
            line_starts: OnceLock::new(),
            char_checkpoints: OnceLock::new(),
        }
    }

    /// The file whose text is laid out in pieces in `layout` (see [`crate::pipeline::split`]): the text is
    /// put back together when something reads it (a diagnostic to show), so that a clean file
    /// is never moved back (7 ms for a 52 MB file).
    pub fn laid_out(name: impl Into<String>, layout: Layout) -> Self {
        SourceFile {
            name: name.into(),
            text: OnceLock::new(),
            layout: Mutex::new(Some(layout)),
            line_starts: OnceLock::new(),
            char_checkpoints: OnceLock::new(),
        }
    }

    /// The name and the text, taken back.
    pub fn into_parts(self) -> (String, String) {
        let _ = self.text();
        (self.name, self.text.into_inner().unwrap_or_default())
    }

    /// The name shown in diagnostics (the path as given, or the stdin label).
    pub fn name(&self) -> &str {
        &self.name
    }

    pub fn text(&self) -> &str {
        self.text.get_or_init(|| {
            let mut layout = self.layout.lock().unwrap_or_else(PoisonError::into_inner);
            layout.take().map(Layout::into_source).unwrap_or_default()
        })
    }

    /// Byte offsets at which each line starts. Lines end at `\n`, `\r\n` or a lone `\r`: XML
    /// reads all three as one line end (XML 1.0 §2.11), and so do editors.
    pub fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            let bytes = self.text().as_bytes();
            let mut starts = vec![0];
            starts.extend(
                memchr::memchr2_iter(b'\n', b'\r', bytes)
                    .filter(|&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'))
                    .map(|i| i + 1),
            );
            starts
        })
    }

    /// Clamps `offset` into the text and onto a character boundary (moving backwards).
    pub fn clamp(&self, offset: usize) -> usize {
        floor_char_boundary(self.text(), offset)
    }

    /// Clamps a range into the text, onto character boundaries, with `start <= end`.
    pub fn clamp_range(&self, range: Range<usize>) -> Range<usize> {
        let start = self.clamp(range.start);
        let end = self.clamp(range.end).max(start);
        start..end
    }

    /// 0-based index of the line holding `offset`.
    pub fn line_index(&self, offset: usize) -> usize {
        let starts = self.line_starts();
        match starts.binary_search(&offset) {
            Ok(i) => i,
            Err(i) => i - 1,
        }
    }

    /// Number of characters before byte `offset` (a char boundary).
    fn chars_before(&self, offset: usize) -> usize {
        let bytes = self.text().as_bytes();
        let cps = self.char_checkpoints.get_or_init(|| {
            let mut cps = Vec::with_capacity(bytes.len() / CHECKPOINT + 1);
            let mut count = 0;
            cps.push(0);
            for chunk in bytes.chunks(CHECKPOINT) {
                count += chunk.iter().filter(|&&b| starts_char(b)).count();
                cps.push(count);
            }
            cps
        });
        let k = offset / CHECKPOINT;
        cps[k]
            + bytes[k * CHECKPOINT..offset]
                .iter()
                .filter(|&&b| starts_char(b))
                .count()
    }

    /// 1-based line and character column of a byte offset (clamped into the text).
    pub fn position(&self, offset: usize) -> Position {
        let offset = self.clamp(offset);
        let line = self.line_index(offset);
        let start = self.line_starts()[line];
        let column = if offset - start <= CHECKPOINT {
            self.text()[start..offset].chars().count()
        } else {
            self.chars_before(offset) - self.chars_before(start)
        };
        Position {
            line: line + 1,
            column: column + 1,
        }
    }

    /// Byte offset of a 1-based line and character column as roxmltree reports them, clamped.
    /// roxmltree counts lines at `\n` only (a lone `\r` does not end its lines), so this does
    /// not use [`SourceFile::line_starts`]; it is called for the few positions of XML errors.
    pub fn offset_of(&self, line: usize, column: usize) -> usize {
        let text = self.text();
        let start = match line.saturating_sub(1) {
            0 => 0,
            n => match memchr::memchr_iter(b'\n', text.as_bytes()).nth(n - 1) {
                Some(nl) => nl + 1,
                None => return text.len(),
            },
        };
        let end =
            memchr::memchr(b'\n', &text.as_bytes()[start..]).map_or(text.len(), |e| start + e + 1);
        let line_text = &text[start..end];
        line_text
            .char_indices()
            .nth(column.saturating_sub(1))
            .map_or(end, |(i, _)| start + i)
    }

    /// Byte range of the whole line holding `offset`, without its line terminator.
    pub fn line_range(&self, offset: usize) -> Range<usize> {
        let line = self.line_index(self.clamp(offset));
        let starts = self.line_starts();
        let start = starts[line];
        let bytes = self.text().as_bytes();
        let mut end = starts.get(line + 1).map_or(bytes.len(), |&e| e - 1);
        // `\r\n`: the line also ends before its CR (a lone CR was the terminator itself).
        if end > start && bytes.get(end) == Some(&b'\n') && bytes[end - 1] == b'\r' {
            end -= 1;
        }
        start..end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A split file's text comes back whole when it is first read, once, and only then.
    #[test]
    fn laid_out_text_is_restored_on_first_use() {
        let mut text =
            String::from("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
        for i in 0..200 {
            text.push_str(&format!("<url><loc>https://é.example/{i}</loc></url>\n"));
        }
        text.push_str("</urlset>\n");
        let layout = crate::pipeline::split::layout(text.clone(), 0, 256).expect("split");
        assert!(layout.pieces.len() > 2);
        assert_ne!(
            layout.buf, text,
            "the pieces carry copies of the root's tags"
        );
        let src = SourceFile::laid_out("t", layout);
        assert!(src.text.get().is_none(), "not restored before it is read");
        let at = text.find("/150<").unwrap();
        assert_eq!(
            src.position(at),
            Position {
                line: 152,
                column: 28
            }
        );
        assert_eq!(src.text(), text);
        assert_eq!(src.into_parts(), ("t".to_owned(), text));
    }

    #[test]
    fn a_lone_cr_ends_a_line_as_lf_and_crlf_do() {
        let f = SourceFile::new("t.xml", "a\rbc\r\nd\ne\r");
        assert_eq!(f.line_starts(), &[0, 2, 6, 8, 10]);
        assert_eq!(f.position(3).line, 2);
        assert_eq!(f.position(3).column, 2);
        assert_eq!(f.position(6).line, 3);
        assert_eq!(f.position(8).line, 4);
        assert_eq!(f.line_range(0), 0..1);
        assert_eq!(f.line_range(3), 2..4);
        assert_eq!(f.line_range(6), 6..7);
        assert_eq!(f.line_range(8), 8..9);
        // roxmltree's positions count `\n` only.
        assert_eq!(f.offset_of(1, 4), 3);
        assert_eq!(f.offset_of(2, 1), 6);
    }

    #[test]
    fn positions_count_characters() {
        let src = SourceFile::new("t", "ab\ncé\r\nxyz");
        assert_eq!(src.position(0), Position { line: 1, column: 1 });
        assert_eq!(src.position(3), Position { line: 2, column: 1 });
        // after "cé" (c = 1 byte, é = 2 bytes)
        assert_eq!(src.position(6), Position { line: 2, column: 3 });
        assert_eq!(src.position(8), Position { line: 3, column: 1 });
        assert_eq!(src.offset_of(2, 3), 6);
        assert_eq!(src.line_range(4), 3..6);
        // clamping inside a multi-byte char moves back to its start
        assert_eq!(src.clamp(5), 4);
        assert_eq!(src.position(1000), Position { line: 3, column: 4 });
    }

    #[test]
    fn columns_on_long_lines_use_checkpoints_correctly() {
        let line: String = "aé€😀".repeat(5000);
        let text = format!("x\n{line}\n");
        let src = SourceFile::new("t", text.as_str());
        for (i, (off, _)) in text.char_indices().enumerate().step_by(997) {
            let expect = if off < 2 {
                Position {
                    line: 1,
                    column: off + 1,
                }
            } else {
                Position {
                    line: 2,
                    column: i - 2 + 1,
                }
            };
            if off < text.len() {
                assert_eq!(src.position(off), expect, "offset {off}");
            }
        }
    }
}
