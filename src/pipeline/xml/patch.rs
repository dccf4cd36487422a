//! Patching errors over: what one parse hands the next, and the same-length edits that let
//! the parser go on.

use std::ops::Range;

use super::problem::XmlProblem;

/// What is carried from one error to the next.
pub(super) struct State<'t> {
    /// The text before any patch (for messages that depend on what the file really holds).
    pub(super) original: &'t str,
    pub(super) skip: usize,
    /// Entities declared in a DOCTYPE that was blanked out: (name, span of the name there).
    pub(super) dtd_entities: Vec<(String, Range<usize>)>,
    /// How many more errors with a fix beyond [`super::MAX_XML_ERRORS`] may be kept for it
    /// (see [`XmlProblem::beyond_cap`]); 0 unless fixes are wanted.
    pub(super) fix_budget: usize,
}

/// Problems for one parser error, and the edits that patch it over (`None`: cannot continue).
pub(super) struct Step {
    pub(super) problems: Vec<XmlProblem>,
    /// Errors found and patched but not described (beyond [`MAX_XML_ERRORS`] in one scan).
    pub(super) extra: usize,
    pub(super) edits: Option<Vec<Edit>>,
}

impl Step {
    pub(super) fn stop(p: XmlProblem) -> Step {
        Step {
            problems: vec![p],
            extra: 0,
            edits: None,
        }
    }

    pub(super) fn patch(p: XmlProblem, edits: Vec<Edit>) -> Step {
        Step {
            problems: vec![p],
            extra: 0,
            edits: Some(edits),
        }
    }
}

/// One patch, the same number of bytes as what it replaces so that offsets do not move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Edit {
    /// Every byte of the range but line ends becomes this ASCII byte.
    Fill(Range<usize>, u8),
    /// The range becomes this text, of the same length.
    Text(Range<usize>, String),
}

/// Applies `edits` to `buf` (ranges not on character boundaries are skipped) and records them.
pub(super) fn apply(buf: &mut String, edits: Vec<Edit>, patches: &mut Vec<Range<usize>>) {
    let fits = |r: &Range<usize>| {
        r.start <= r.end && buf.is_char_boundary(r.start) && buf.is_char_boundary(r.end)
    };
    let edits: Vec<Edit> = edits
        .into_iter()
        .filter(|e| match e {
            Edit::Fill(r, b) => fits(r) && b.is_ascii(),
            Edit::Text(r, t) => fits(r) && r.len() == t.len(),
        })
        .collect();
    let mut bytes = std::mem::take(buf).into_bytes();
    for edit in edits {
        match edit {
            Edit::Fill(r, fill) => {
                for b in &mut bytes[r.clone()] {
                    if !matches!(*b, b'\n' | b'\r') {
                        *b = fill;
                    }
                }
                patches.push(r);
            }
            Edit::Text(r, t) => {
                bytes[r.clone()].copy_from_slice(t.as_bytes());
                patches.push(r);
            }
        }
    }
    // Whole characters were replaced by ASCII or by text: the bytes are still UTF-8.
    *buf = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// The edit that blanks `range` of `buf` out: with spaces when the text around it is only
/// whitespace (between tags, where `_` would become stray text), else with `_` (so a patched URL
/// gains no whitespace).
pub(super) fn blank_content(buf: &str, range: Range<usize>) -> Edit {
    let before = buf[..range.start].rfind(['>', '<']).map_or(0, |p| p + 1);
    let after = buf[range.end..]
        .find('<')
        .map_or(buf.len(), |p| range.end + p);
    let ws = |s: &str| s.bytes().all(|b| b.is_ascii_whitespace());
    let fill = if ws(&buf[before..range.start]) && ws(&buf[range.end..after]) {
        b' '
    } else {
        b'_'
    };
    Edit::Fill(range, fill)
}

/// [`blank_content`] for many sorted, disjoint ranges, in one pass over the text (a text node
/// may hold millions of errors).
pub(super) fn content_edits(buf: &str, ranges: &[Range<usize>]) -> Vec<Edit> {
    let bytes = buf.as_bytes();
    let ws = |s: &[u8]| s.iter().all(|b| b.is_ascii_whitespace());
    let mut edits = Vec::with_capacity(ranges.len());
    let mut i = 0;
    while i < ranges.len() {
        let first = &ranges[i];
        let start = bytes[..first.start]
            .iter()
            .rposition(|&b| b == b'<' || b == b'>')
            .map_or(0, |p| p + 1);
        let end = bytes[first.end..]
            .iter()
            .position(|&b| b == b'<')
            .map_or(buf.len(), |p| first.end + p);
        // The ranges in this run of text, and whether it holds anything but them and whitespace.
        let mut j = i;
        let mut only_ws = true;
        let mut pos = start.min(first.start);
        while j < ranges.len() && ranges[j].start < end {
            only_ws = only_ws && ws(&bytes[pos.min(ranges[j].start)..ranges[j].start]);
            pos = pos.max(ranges[j].end);
            j += 1;
        }
        only_ws = only_ws && ws(&bytes[pos.min(end)..end]);
        let fill = if only_ws { b' ' } else { b'_' };
        edits.extend(ranges[i..j].iter().map(|r| Edit::Fill(r.clone(), fill)));
        i = j;
    }
    edits
}

/// The edit that blanks markup (a DOCTYPE, a comment, a stray tag) out with spaces.
pub(super) fn blank_markup(range: Range<usize>) -> Edit {
    Edit::Fill(range, b' ')
}
