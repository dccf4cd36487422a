//! Splits a large document between its entries into pieces that parse as documents of their own (on several threads: see `exec`).
//!
//! A sitemap is one root element with many small entries, so the text can be cut right after an
//! entry's end tag (`</url>`, `</sitemap>`, any prefix) into pieces that become documents of their
//! own: the first piece gets the root's end tag appended, the others the root's start tag
//! prepended (and all but the last the end tag appended). The pieces live in one buffer, `buf`,
//! and spans in it map back to the file with [`Layout::to_source`].
//!
//! Why the pieces say the same as the whole: without a DTD (a file with `<!DOCTYPE` is not split),
//! XML's tokens depend only on the text and on whether the parser is in content, a tag, a
//! comment, CDATA or a processing instruction. A piece that ends with the synthetic end tag parses
//! only if the root is open, in content, with no other element open, where the cut is: so when
//! every piece parses, each one starts exactly where the previous one stopped, in the same state,
//! and the file is well-formed. The prepended start tag is the root's own (its namespace
//! declarations included), so names resolve the same. When any piece fails, the caller parses the
//! whole file the usual way, which then reports the errors. A cut never lands inside a text node,
//! so text and whitespace nodes are the same too.
//!
//! Every piece but the last also ends with a comment of `<` characters after its synthetic end
//! tag ([`padding`]): roxmltree sizes a document's list of nodes by the `<` in its text, and a
//! pretty-printed sitemap has about 1.6 nodes per `<` (the whitespace between tags), so without
//! it the list of every piece is grown once, copying it whole (1.3 % of the instructions of a
//! check of the 52 MB benchmark file, 2 % of the 11 MB one). The comment is outside the root
//! element, so no rule sees it, and it keeps the argument above: it holds no `?>`, `]]>` or
//! quote, and opens with `<!--`, whose two hyphens a comment may not hold, so a piece cut inside
//! a comment of the file still fails to parse.

use std::ops::Range;
use std::sync::OnceLock;

use roxmltree::Document;

/// Files smaller than this are parsed whole (the default of [`crate::Settings::split_min`]).
pub const DEFAULT_SPLIT_MIN: usize = 1 << 20;

/// The text each piece aims at (a smaller `min`, in tests, makes smaller pieces, down to one
/// entry each). A piece and its tree should stay in the cache of the core that checks it: with
/// pieces of up to 1 MiB (820 KB on the 52 MB benchmark file, a tree of about three times that),
/// two threads spent 12-20 % more CPU time than one on the same instructions. Pieces of 128 KiB
/// took 8-13 % less CPU time and 6-10 % less wall time on two threads on the 52 MB files than
/// those of 820 KB, 2.5 % less than pieces of 256 KiB, and no more on one thread; pieces of
/// 64 KiB took more again (see `docs/performance.md`).
const PIECE: usize = 128 << 10;

/// At most this many pieces per file (larger files get larger pieces).
const MAX_PIECES: usize = 512;

/// Room a buffer read for splitting keeps after the text (see `input::with_slack`): the copies
/// of the root's tags for [`MAX_PIECES`] pieces, when they are 256 bytes long together (a root
/// with a few namespace declarations) and the delimiters of their comments; [`slack`] adds room
/// for the comments' `<` (see [`padding`]). More is allocated when needed.
const SLACK: usize = (MAX_PIECES + 1) * (256 + COMMENT_DELIMITERS);

/// What opens and closes the comment around the `<` of [`padding`].
const COMMENT_OPEN: &[u8] = b"<!--";
const COMMENT_CLOSE: &[u8] = b"-->";
const COMMENT_DELIMITERS: usize = COMMENT_OPEN.len() + COMMENT_CLOSE.len();

/// The room to keep after a text of `len` bytes read to be split (see [`SLACK`]).
pub fn slack(len: usize) -> usize {
    SLACK.saturating_add(len / PADDING_DIVISOR)
}

/// The comment of [`padding`] adds at most one byte per so many of its piece.
const PADDING_DIVISOR: usize = 16;

/// The text [`padding`] samples, from the root's start tag on.
const PADDING_SAMPLE: usize = 64 << 10;

/// One piece of [`Layout::buf`].
#[derive(Debug, Clone)]
pub struct Piece {
    /// The whole piece in `buf`, synthetic tags (and comment) included: the text parsed as one
    /// document.
    pub range: Range<usize>,
    /// The part of `range` copied from the file.
    pub body: Range<usize>,
    /// Where `body` starts in the file.
    pub source_start: usize,
}

/// The pieces of a file, side by side in one buffer.
#[derive(Debug)]
pub struct Layout {
    pub buf: String,
    pub pieces: Vec<Piece>,
    /// Where the root's start tag starts in the file (each copy has its length).
    root_start: usize,
    /// Whether the whole file passed [`crate::pipeline::xml_limits::scan`] already: then
    /// [`Layout::parse_piece`] does not scan each piece again.
    pub scanned: bool,
}

impl Layout {
    /// The offset in the file of offset `at` of `buf`. An offset inside a copy of the root's
    /// start tag maps to the same place in the original; one inside a synthetic end tag (or the
    /// comment after it, see [`padding`]) to the end of its piece's body.
    pub fn to_source(&self, at: usize) -> usize {
        let i = self
            .pieces
            .partition_point(|p| p.range.start <= at)
            .saturating_sub(1);
        let Some(p) = self.pieces.get(i) else {
            return at;
        };
        if i > 0 && at < p.body.start {
            return self.root_start + (at - p.range.start.min(at));
        }
        let inside = at.clamp(p.body.start, p.body.end) - p.body.start;
        p.source_start + inside
    }

    /// Piece `k` parsed with `options`, once it is found within the limits of
    /// [`crate::pipeline::xml_limits`] (checked on the piece right before its parse, by the thread
    /// that parses it, unless the whole file was, [`Layout::scanned`], or the piece is too dense
    /// in tags to hold an element beyond them, [`crate::pipeline::xml_limits::dense_in_tags`]).
    /// `None` when the piece goes beyond a limit or does not parse: the file is then checked
    /// whole, which reports either. Only for a file of which
    /// [`crate::pipeline::xml_limits::piecewise`] holds (the limits across the file cannot be
    /// met), or that the whole-file scan passed.
    pub fn parse_piece<'b>(
        &'b self,
        k: usize,
        options: roxmltree::ParsingOptions<'b>,
    ) -> Option<Document<'b>> {
        let text = self.buf.get(self.pieces.get(k)?.range.clone())?;
        if !self.scanned
            && !crate::pipeline::xml_limits::dense_in_tags(text)
            && crate::pipeline::xml_limits::scan(text, 0).is_some()
        {
            return None;
        }
        Document::parse_with_options(text, options).ok()
    }

    /// [`Layout::to_source`] for a range (never inverted).
    pub fn range_to_source(&self, r: &Range<usize>) -> Range<usize> {
        let start = self.to_source(r.start);
        start..self.to_source(r.end).max(start)
    }

    /// The file's text again: the bodies, moved together in place (no second buffer).
    pub fn into_source(self) -> String {
        let mut bytes = self.buf.into_bytes();
        let mut len = 0;
        for p in &self.pieces {
            bytes.copy_within(p.body.clone(), len);
            len += p.body.len();
        }
        bytes.truncate(len);
        // The cuts are at ASCII `>`: the bodies are whole UTF-8.
        String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
    }
}

/// Cuts `text` (parsed from `skip`) into pieces when it is at least `min` bytes long and has a
/// plain prolog (declaration, comments, processing instructions: no DOCTYPE) and a root start tag
/// without a carriage return. `Err` gives the text back unchanged: parse the file whole.
///
/// The pieces are laid out in the text's own buffer (moved apart in place, the copies of the tags
/// written between them), so a large file is never held twice.
pub fn layout(text: String, skip: usize, min: usize) -> Result<Layout, String> {
    let Some(plan) = plan(&text, skip, min) else {
        return Err(text);
    };
    let Plan {
        root_start,
        open,
        close,
        cuts,
        per_mib,
    } = plan;
    let len = text.len();
    let ends: Vec<usize> = cuts.iter().copied().chain([len]).collect();
    let mut pieces = Vec::with_capacity(ends.len());
    // Bytes added before the current point: the copies of the tags and the comments.
    let (mut from, mut shift) = (0, 0);
    for (i, &to) in ends.iter().enumerate() {
        if i > 0 {
            shift += open.len();
        }
        let body_start = from + shift;
        let body_end = body_start + (to - from);
        // Every piece but the last ends with the root's end tag and the comment of `padding`.
        if to < len {
            let lt = padding(to - from, per_mib);
            shift += close.len() + if lt == 0 { 0 } else { lt + COMMENT_DELIMITERS };
        }
        pieces.push(Piece {
            // The first piece is parsed from `skip` (see `xml_decl::Prolog::skip`).
            range: if i == 0 {
                skip
            } else {
                body_start - open.len()
            }..to + shift,
            body: body_start..body_end,
            source_start: from,
        });
        from = to;
    }
    let mut bytes = text.into_bytes();
    // Exactly what the copies need: a doubled capacity would reserve another file's worth.
    bytes.reserve_exact(shift);
    bytes.resize(len + shift, b' ');
    // From the last piece to the first, so no body is overwritten before it has moved.
    for p in pieces.iter().rev() {
        bytes.copy_within(p.source_start..p.source_start + p.body.len(), p.body.start);
        if p.range.start < p.body.start && p.source_start > 0 {
            bytes[p.body.start - open.len()..p.body.start].copy_from_slice(open.as_bytes());
        }
        if p.range.end > p.body.end {
            let tail = &mut bytes[p.body.end..p.range.end];
            let (end_tag, comment) = tail.split_at_mut(close.len());
            end_tag.copy_from_slice(close.as_bytes());
            if let Some(lt) = comment.len().checked_sub(COMMENT_DELIMITERS) {
                let (opening, rest) = comment.split_at_mut(COMMENT_OPEN.len());
                let (lts, closing) = rest.split_at_mut(lt);
                opening.copy_from_slice(COMMENT_OPEN);
                lts.fill(b'<');
                closing.copy_from_slice(COMMENT_CLOSE);
            }
        }
    }
    let layout = |buf| Layout {
        buf,
        pieces: pieces.clone(),
        root_start,
        scanned: false,
    };
    // Only whole UTF-8 sequences moved (the cuts follow an ASCII `>`), so this holds.
    match String::from_utf8(bytes) {
        Ok(buf) => Ok(layout(buf)),
        Err(e) => Err(layout(String::from_utf8_lossy(e.as_bytes()).into_owned()).into_source()),
    }
}

/// What [`layout`] needs to know of `text`.
struct Plan {
    /// Where the root's start tag starts.
    root_start: usize,
    /// The root's start tag copied for the pieces (line breaks and tabs turned into spaces, so
    /// line numbers in the buffer are the file's; in attribute values they are spaces to XML
    /// anyway).
    open: String,
    /// The root's end tag.
    close: String,
    cuts: Vec<usize>,
    /// `<` to add per MiB of a piece (see [`padding`]).
    per_mib: usize,
}

fn plan(text: &str, skip: usize, min: usize) -> Option<Plan> {
    if text.len() < min.max(1) {
        return None;
    }
    let (root_start, tag_end, name) = root_start_tag(text, skip)?;
    let open: String = text[root_start..tag_end]
        .chars()
        .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
        .collect();
    let close = format!("</{name}>");
    let cuts = cuts(text, tag_end, min.clamp(1, PIECE));
    if cuts.is_empty() {
        return None;
    }
    let sample = &text.as_bytes()[tag_end..];
    let per_mib = padding_per_mib(&sample[..sample.len().min(PADDING_SAMPLE)]);
    Some(Plan {
        root_start,
        open,
        close,
        cuts,
        per_mib,
    })
}

/// How many `<` the comment after a piece of `len` bytes holds, at `per_mib` (see
/// [`padding_per_mib`]).
///
/// roxmltree reserves room for as many nodes as its text has `<`, which is too little for a
/// pretty-printed document (every element has one `<` more than it makes nodes, but the
/// whitespace between tags makes a text node each): the list of nodes is then grown to twice
/// that, a copy of all of it, and trimmed back at the end, a second copy unless at least half
/// of the room is used. With these `<` added, the room covers the nodes of a piece like the
/// sample, with a sixteenth to spare, and is used more than half: neither copy happens.
fn padding(len: usize, per_mib: usize) -> usize {
    len.saturating_mul(per_mib) >> 20
}

/// The `<` to add per MiB of text for the nodes of `sample` (the text after the root's start
/// tag) to fit in roxmltree's first reservation (see [`padding`]), at most one per
/// [`PADDING_DIVISOR`] bytes; 0 when its nodes and a sixteenth fit in as many as its `<`, or it
/// has too few tags to tell. Nodes are estimated from the bytes: a `<` that is not an end tag's
/// starts an element, a comment, a processing instruction or a CDATA section, and a `>` followed
/// by anything but `<` is followed by text.
fn padding_per_mib(sample: &[u8]) -> usize {
    let (mut lt, mut nodes) = (0usize, 0usize);
    for i in memchr::memchr2_iter(b'<', b'>', sample) {
        let next = sample.get(i + 1).copied();
        if sample[i] == b'<' {
            lt += 1;
            nodes += usize::from(next != Some(b'/'));
        } else {
            nodes += usize::from(next.is_some_and(|b| b != b'<'));
        }
    }
    if lt < 64 {
        return 0;
    }
    let wanted = (nodes + nodes / 16).saturating_sub(lt);
    (wanted << 20)
        .checked_div(sample.len())
        .unwrap_or(0)
        .min((1 << 20) / PADDING_DIVISOR)
}

/// The root's start tag: (where it starts, where it ends, its qualified name). `None` when the
/// prolog has anything but whitespace, comments and processing instructions, or the tag has a
/// carriage return, or is empty (`<urlset/>`).
fn root_start_tag(text: &str, skip: usize) -> Option<(usize, usize, &str)> {
    let bytes = text.as_bytes();
    let mut i = skip;
    loop {
        while bytes
            .get(i)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            i += 1;
        }
        let rest = text.get(i..)?;
        if rest.starts_with("<?") {
            i += rest.find("?>")? + 2;
        } else if rest.starts_with("<!--") {
            i += rest.find("-->")? + 3;
        } else if rest.starts_with('<') && !rest.starts_with("<!") {
            break;
        } else {
            return None;
        }
    }
    let name_len = bytes[i + 1..]
        .iter()
        .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'/' | b'>'))?;
    if name_len == 0 {
        return None;
    }
    let name = &text[i + 1..i + 1 + name_len];
    let mut quote = None;
    let mut j = i + 1 + name_len;
    loop {
        let b = *bytes.get(j)?;
        match (quote, b) {
            (_, b'\r' | b'<') => return None,
            (None, b'"' | b'\'') => quote = Some(b),
            (Some(q), _) if q == b => quote = None,
            (None, b'>') => break,
            _ => {}
        }
        j += 1;
    }
    if bytes[j - 1] == b'/' {
        return None;
    }
    Some((i, j + 1, name))
}

/// Where to cut: right after an end tag whose local name is `url` or `sitemap`, about every
/// `piece` bytes after the root's start tag, and once early (a short first piece).
fn cuts(text: &str, from: usize, piece: usize) -> Vec<usize> {
    let body = text.len() - from;
    let n = (body / piece).clamp(1, MAX_PIECES);
    let mut out = Vec::with_capacity(n + 1);
    let mut last = from;
    // The first piece is parsed before the other threads start (it tells the site's origin):
    // an eighth of a piece keeps that wait short.
    if n > 1 {
        if let Some(cut) = cut_after(text, from + (body / n / 8).max(1)) {
            if cut < from + body / n {
                out.push(cut);
                last = cut;
            }
        }
    }
    for k in 1..n {
        let target = (from + body / n * k).max(last);
        match cut_after(text, target) {
            Some(cut) if cut < text.len() => {
                if cut > last {
                    out.push(cut);
                    last = cut;
                }
            }
            _ => break,
        }
    }
    out
}

/// The offset right after the first `</url>` or `</sitemap>` (any prefix, space before `>`
/// allowed) at or after `at`.
fn cut_after(text: &str, at: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = at;
    loop {
        i += text.get(i..)?.find("</")? + 2;
        let name_len = bytes[i..]
            .iter()
            .position(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'>'))?;
        let name = &text[i..i + name_len];
        let local = name.rsplit(':').next().unwrap_or(name);
        if local != "url" && local != "sitemap" {
            continue;
        }
        let mut j = i + name_len;
        while bytes
            .get(j)
            .is_some_and(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
        {
            j += 1;
        }
        if bytes.get(j) == Some(&b'>') {
            return Some(j + 1);
        }
    }
}

/// Parses the pieces of `layout` whose slot is empty into their slots (`slots[i]` holds piece
/// `i`), on up to `threads` threads. False when a piece does not parse.
pub fn parse_into<'b>(
    layout: &'b Layout,
    options: impl Fn() -> roxmltree::ParsingOptions<'b> + Sync,
    threads: usize,
    slots: &[OnceLock<Document<'b>>],
) -> bool {
    let n = layout.pieces.len().min(slots.len());
    let todo: Vec<usize> = (0..n).filter(|&i| slots[i].get().is_none()).collect();
    // A piece that does not parse stops the others: the file is parsed whole anyway. One that
    // panics counts as one that does not parse.
    crate::exec::all(todo, threads, |i| match layout.parse_piece(i, options()) {
        Some(doc) => {
            let _ = slots[i].set(doc);
            true
        }
        None => false,
    }) && slots[..n].iter().all(|s| s.get().is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every piece parsed, in order; `None` when one does not parse.
    fn parse(layout: &Layout, threads: usize) -> Option<Vec<Document<'_>>> {
        let slots: Vec<OnceLock<Document<'_>>> =
            layout.pieces.iter().map(|_| OnceLock::new()).collect();
        if !parse_into(layout, roxmltree::ParsingOptions::default, threads, &slots) {
            return None;
        }
        slots.into_iter().map(OnceLock::into_inner).collect()
    }

    fn sitemap(n: usize) -> String {
        let mut s = String::from(
            "<?xml version=\"1.0\"?>\n<!-- c -->\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n  xmlns:x=\"urn:x\">\n",
        );
        for i in 0..n {
            s.push_str(&format!("<url><loc>https://e.example/{i}</loc></url >\n"));
        }
        s.push_str("</urlset>\n");
        s
    }

    #[test]
    fn pieces_parse_and_map_back() {
        let text = sitemap(40_000);
        let layout = layout(text.clone(), 0, 1 << 16).expect("splits");
        assert!(layout.pieces.len() > 10);
        let docs = parse(&layout, 2).expect("parses");
        assert_eq!(docs.len(), layout.pieces.len());
        let mut urls = 0;
        for (doc, piece) in docs.iter().zip(&layout.pieces) {
            for url in doc.root_element().children().filter(|n| n.is_element()) {
                urls += 1;
                let r = url.range();
                let at = piece.range.start + r.start;
                let mapped = layout.range_to_source(&(at..piece.range.start + r.end));
                assert_eq!(&text[mapped], &layout.buf[at..piece.range.start + r.end]);
            }
        }
        assert_eq!(urls, 40_000);
        // The copies of the root's start tag map to the original.
        let last = layout.pieces.last().unwrap();
        let xmlns = layout.buf[last.range.clone()].find("xmlns:x").unwrap() + last.range.start;
        let at = layout.to_source(xmlns);
        assert_eq!(&text[at..at + 7], "xmlns:x");
        // Line numbers are the file's: the copied start tag has no line break.
        let newlines = |s: &str| s.bytes().filter(|&b| b == b'\n').count();
        assert_eq!(newlines(&layout.buf), newlines(&text));
        assert_eq!(layout.into_source(), text);
    }

    #[test]
    fn a_cut_inside_a_comment_fails_to_parse() {
        let text = sitemap(2_000);
        let mid = text[..text.len() / 2].rfind("<url>").unwrap();
        let fake = "</url>\n".repeat(2_000);
        let text = format!("{}<!--\n{fake}-->{}", &text[..mid], &text[mid..]);
        assert!(Document::parse(&text).is_ok());
        let layout = layout(text.clone(), 0, 1_000).expect("splits");
        assert!(layout.pieces.len() > 10);
        // The comments after the synthetic end tags (see `padding`) are there, and do not close
        // the file's comment where a piece is cut inside it.
        assert!(layout.buf.contains("--><urlset"));
        // Some cuts land in the comment: those pieces do not parse, so the file is parsed whole.
        assert!(parse(&layout, 2).is_none());
    }

    /// A sitemap as generators print it: one tag a line, indented.
    fn pretty(n: usize) -> String {
        let mut s = String::from(
            "<?xml version=\"1.0\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
        );
        for i in 0..n {
            s.push_str(&format!(
                "  <url>\n    <loc>https://e.example/{i}</loc>\n    <lastmod>2024-01-01</lastmod>\n  </url>\n"
            ));
        }
        s.push_str("</urlset>\n");
        s
    }

    /// Nodes (the document's own included) and `<` of each piece.
    fn nodes_and_tags(layout: &Layout) -> Vec<(usize, usize)> {
        let docs = parse(layout, 1).expect("parses");
        docs.iter()
            .zip(&layout.pieces)
            .map(|(doc, p)| {
                let lt = memchr::memchr_iter(b'<', layout.buf[p.range.clone()].as_bytes()).count();
                (doc.descendants().count(), lt)
            })
            .collect()
    }

    #[test]
    fn the_nodes_of_a_piece_fit_in_the_room_roxmltree_reserves() {
        let text = pretty(20_000);
        let layout = layout(text.clone(), 0, 1 << 16).expect("splits");
        let counts = nodes_and_tags(&layout);
        assert!(counts.len() > 10);
        let (last, others) = counts.split_last().unwrap();
        for (k, &(nodes, lt)) in others.iter().enumerate() {
            // Room for every node (no growth), more than half of it used (no copy when trimmed).
            assert!(
                nodes <= lt && 2 * nodes > lt,
                "piece {k}: {nodes} nodes, {lt} `<`"
            );
        }
        // The last piece has no comment: its nodes outnumber its `<`, as every piece's would.
        assert!(last.0 > last.1, "{last:?}");
        assert_eq!(layout.into_source(), text);

        // A file without whitespace between its tags has fewer nodes than `<`: no comments.
        let compact = pretty(20_000).replace("\n", "").replace("  ", "");
        let flat = super::layout(compact.clone(), 0, 1 << 16).expect("splits");
        assert!(!flat.buf.contains("<!--"));
        assert!(nodes_and_tags(&flat).iter().all(|&(nodes, lt)| nodes <= lt));
        assert_eq!(flat.into_source(), compact);
    }

    #[test]
    fn padding_is_bounded() {
        // An empty element and text every 5 bytes: more than a `<` per 5 bytes wanted, a
        // sixteenth of the text given.
        let dense = "<a/>x".repeat(10_000);
        assert_eq!(
            padding_per_mib(dense.as_bytes()),
            (1 << 20) / PADDING_DIVISOR
        );
        assert_eq!(
            padding(usize::MAX, (1 << 20) / PADDING_DIVISOR),
            usize::MAX >> 20
        );
        // Too few tags to tell.
        assert_eq!(padding_per_mib(b"<a>\n</a>\n"), 0);
        assert_eq!(padding_per_mib(b""), 0);
    }

    #[test]
    fn not_split() {
        // DOCTYPE, empty root, CR in the start tag, too small, no entry end tag.
        for text in [
            "<!DOCTYPE urlset><urlset></urlset>".to_string(),
            "<urlset/>".to_string(),
            "<urlset\r\n xmlns=\"a\"><url></url><url></url></urlset>".to_string(),
            "<urlset><x></x><x></x></urlset>".to_string(),
        ] {
            assert_eq!(layout(text.clone(), 0, 0).unwrap_err(), text);
        }
        let small = sitemap(10);
        assert_eq!(layout(small.clone(), 0, 1 << 20).unwrap_err(), small);
    }
}
