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
/// Every span in a [`crate::Diagnostic`] is a byte range into `text`. The line index is computed
/// on first use only, so a clean file never pays for it; so is the text of a file checked in
/// pieces (see [`SourceFile::laid_out`]).
#[derive(Debug)]
pub struct SourceFile {
    name: String,
    text: OnceLock<String>,
    /// A split file's buffer, turned back into `text` on first use.
    layout: Mutex<Option<Layout>>,
    /// Line ends before every multiple of [`CHECKPOINT`] bytes (see [`LineIndex`]).
    line_index: OnceLock<LineIndex>,
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

/// Whether the byte at `i` ends a line: a `\n`, or a `\r` not followed by `\n`. Lines end at
/// `\n`, `\r\n` or a lone `\r`: XML reads all three as one line end (XML 1.0 §2.11), and so do
/// editors.
fn ends_line(bytes: &[u8], i: usize) -> bool {
    match bytes[i] {
        b'\n' => true,
        b'\r' => bytes.get(i + 1) != Some(&b'\n'),
        _ => false,
    }
}

/// How many bytes of `bytes[range]` end a line ([`ends_line`]; the byte after the range is read
/// for a `\r` at its end). Counts the `\n`s in one vectorised pass; the `\r`s, rare, only when
/// there are any.
fn count_ends(bytes: &[u8], range: Range<usize>) -> usize {
    let part = &bytes[range.clone()];
    let lf = count_byte(part, b'\n');
    if memchr::memchr(b'\r', part).is_none() {
        return lf;
    }
    lf + memchr::memchr_iter(b'\r', part)
        .filter(|&i| ends_line(bytes, range.start + i))
        .count()
}

/// How many bytes of `hay` are `needle`: memchr's vectorised count (AVX2 where the machine has
/// it). [`LineIndex::new`] on a 52 MB file of 1.1 M lines took 23 M instructions, against 39 M
/// with a byte-per-lane fold the compiler vectorised for SSE2 and 306 M with `filter().count()`.
fn count_byte(hay: &[u8], needle: u8) -> usize {
    memchr::memchr_iter(needle, hay).count()
}

/// The line index of a text: how many line ends come before each multiple of [`CHECKPOINT`]
/// bytes. A line's number, start and end then cost a binary search over the checkpoints and a
/// scan of at most one checkpoint's worth of bytes, on any text (a minified sitemap is one line
/// of 50 MB): building it is one vectorised pass (23 M instructions on a 52 MB file of 1.1 M
/// lines), where a table of every line start cost a call per line (97 M on the same file).
#[derive(Debug)]
struct LineIndex {
    /// `ends_before[k]`: line ends at offsets below `min(k × CHECKPOINT, len)`.
    ends_before: Vec<usize>,
}

impl LineIndex {
    fn new(bytes: &[u8]) -> LineIndex {
        let mut ends_before = Vec::with_capacity(bytes.len() / CHECKPOINT + 2);
        let mut count = 0;
        ends_before.push(0);
        let mut at = 0;
        while at < bytes.len() {
            let end = (at + CHECKPOINT).min(bytes.len());
            count += count_ends(bytes, at..end);
            ends_before.push(count);
            at = end;
        }
        LineIndex { ends_before }
    }

    /// Line ends at offsets below `offset` (at most the text's length): the 0-based line index.
    fn ends_before(&self, bytes: &[u8], offset: usize) -> usize {
        let k = offset / CHECKPOINT;
        self.ends_before[k] + count_ends(bytes, k * CHECKPOINT..offset)
    }

    /// The offset of the `n`-th line end (0-based), if the text has that many.
    fn nth_end(&self, bytes: &[u8], n: usize) -> Option<usize> {
        // The first checkpoint with more than `n` ends before it closes the block holding it.
        let after = self.ends_before.partition_point(|&c| c <= n);
        if after == self.ends_before.len() {
            return None;
        }
        let block = after - 1;
        let start = block * CHECKPOINT;
        let end = (start + CHECKPOINT).min(bytes.len());
        let skip = n - self.ends_before[block];
        memchr::memchr2_iter(b'\n', b'\r', &bytes[start..end])
            .map(|i| start + i)
            .filter(|&i| ends_line(bytes, i))
            .nth(skip)
    }
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        SourceFile {
            name: name.into(),
            text: OnceLock::from(text.into()),
            layout: Mutex::new(None),
            line_index: OnceLock::new(),
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
            line_index: OnceLock::new(),
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

    fn lines(&self) -> &LineIndex {
        self.line_index
            .get_or_init(|| LineIndex::new(self.text().as_bytes()))
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

    /// 0-based index of the line holding `offset` (clamped into the text).
    pub fn line_index(&self, offset: usize) -> usize {
        let bytes = self.text().as_bytes();
        self.lines().ends_before(bytes, offset.min(bytes.len()))
    }

    /// Byte offset at which the line holding `offset` (clamped into the text) starts.
    pub fn line_start(&self, offset: usize) -> usize {
        let bytes = self.text().as_bytes();
        let offset = offset.min(bytes.len());
        let from = offset - offset % CHECKPOINT;
        // The last line end before `offset` in its own block, else the last one before the block.
        let last = memchr::memrchr2_iter(b'\n', b'\r', &bytes[from..offset])
            .map(|i| from + i)
            .find(|&i| ends_line(bytes, i))
            .or_else(|| {
                let lines = self.lines();
                match lines.ends_before[from / CHECKPOINT] {
                    0 => None,
                    n => lines.nth_end(bytes, n - 1),
                }
            });
        last.map_or(0, |i| i + 1)
    }

    /// The offset of the first line end at or after `offset`, if any.
    fn next_end(&self, offset: usize) -> Option<usize> {
        let bytes = self.text().as_bytes();
        let offset = offset.min(bytes.len());
        let to = (offset - offset % CHECKPOINT + CHECKPOINT).min(bytes.len());
        memchr::memchr2_iter(b'\n', b'\r', &bytes[offset..to])
            .map(|i| offset + i)
            .find(|&i| ends_line(bytes, i))
            .or_else(|| {
                let lines = self.lines();
                lines.nth_end(bytes, lines.ends_before(bytes, to))
            })
    }

    /// Byte offset at which the line after the one holding `offset` starts, if there is one.
    pub fn next_line_start(&self, offset: usize) -> Option<usize> {
        self.next_end(self.line_start(offset)).map(|e| e + 1)
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
        Position {
            line: self.line_index(offset) + 1,
            column: self.column(offset),
        }
    }

    /// The 1-based character column of a byte offset (clamped into the text): what
    /// [`SourceFile::position`] gives without counting the lines before it.
    pub fn column(&self, offset: usize) -> usize {
        let offset = self.clamp(offset);
        let start = self.line_start(offset);
        let column = if offset - start <= CHECKPOINT {
            self.text()[start..offset].chars().count()
        } else {
            self.chars_before(offset) - self.chars_before(start)
        };
        column + 1
    }

    /// Byte offset of a 1-based line and character column as roxmltree reports them, clamped.
    /// roxmltree counts lines at `\n` only (a lone `\r` does not end its lines), so this does
    /// not use [`SourceFile::line_index`]; it is called for the few positions of XML errors.
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
        let start = self.line_start(self.clamp(offset));
        let bytes = self.text().as_bytes();
        let mut end = self.next_end(start).unwrap_or(bytes.len());
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
        let starts: Vec<usize> = (0..=10).map(|o| f.line_start(o)).collect();
        assert_eq!(starts, [0, 0, 2, 2, 2, 2, 6, 6, 8, 8, 10]);
        assert_eq!(f.next_line_start(0), Some(2));
        assert_eq!(f.next_line_start(8), Some(10));
        assert_eq!(f.next_line_start(10), None);
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

    /// The line starts of `text` as a table, the way they were once computed: the reference
    /// the checkpointed index must agree with.
    fn table(text: &str) -> Vec<usize> {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        starts.extend(
            memchr::memchr2_iter(b'\n', b'\r', bytes)
                .filter(|&i| bytes[i] == b'\n' || bytes.get(i + 1) != Some(&b'\n'))
                .map(|i| i + 1),
        );
        starts
    }

    /// Every offset of texts with lines of every length (empty, short, longer than several
    /// checkpoints), all three line ends, a `\r\n` across a checkpoint and a lone `\r` at the
    /// end: line index, start, end and next start agree with the table of line starts.
    #[test]
    fn the_line_index_agrees_with_a_table_of_line_starts() {
        let mut texts = vec![String::new(), "\r".into(), "\n\n".into(), "a\r\nb".into()];
        let mut state = 12345u32;
        let mut text = String::new();
        while text.len() < 5 * CHECKPOINT {
            state = state.wrapping_mul(1_103_515_245).wrapping_add(12345);
            let len = match (state >> 16) % 7 {
                0 => 0,
                1 => (state >> 8) as usize % 3 * CHECKPOINT + 17,
                _ => (state >> 8) as usize % 90,
            };
            text.push_str(&"é".repeat(len / 2));
            text.push_str(["\n", "\r\n", "\r"][(state >> 20) as usize % 3]);
        }
        texts.push(text);
        let mut across = "x".repeat(CHECKPOINT - 1);
        across.push_str("\r\nyz\r");
        texts.push(across);
        texts.push("a".repeat(3 * CHECKPOINT + 5));
        for text in &texts {
            let src = SourceFile::new("t", text.as_str());
            let starts = table(text);
            // Every offset near a line start or a checkpoint, and every fifth one elsewhere.
            let near = |o: usize| {
                let s = starts[starts.partition_point(|&s| s <= o) - 1];
                o - s < 3
                    || starts
                        .get(starts.partition_point(|&s| s <= o))
                        .is_some_and(|&n| n - o < 4)
                    || o % CHECKPOINT < 3
                    || CHECKPOINT - o % CHECKPOINT < 3
            };
            for offset in (0..=text.len() + 2).filter(|&o| o % 5 == 0 || near(o.min(text.len()))) {
                let o = offset.min(text.len());
                let line = starts.partition_point(|&s| s <= o) - 1;
                assert_eq!(src.line_index(o), line, "line of {o}");
                assert_eq!(src.line_start(o), starts[line], "start of {o}");
                if text.is_char_boundary(o) {
                    let column = text[starts[line]..o].chars().count() + 1;
                    assert_eq!(src.column(o), column, "column of {o}");
                }
                assert_eq!(
                    src.next_line_start(o),
                    starts.get(line + 1).copied(),
                    "next of {o}"
                );
                if text.is_char_boundary(o) {
                    let r = src.line_range(o);
                    let mut end = starts.get(line + 1).map_or(text.len(), |&e| e - 1);
                    if end > r.start
                        && text.as_bytes()[end - 1] == b'\r'
                        && text.as_bytes().get(end) == Some(&b'\n')
                    {
                        end -= 1;
                    }
                    assert_eq!(r, starts[line]..end, "range of {o}");
                }
            }
        }
    }
}
