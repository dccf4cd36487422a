//! The typed, spanned, lenient sitemap model built from the XML tree; it records what it saw and judges nothing.

pub mod links;
pub mod text;

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Range;

use crate::pipeline::url_key::UrlKey;
use crate::values::finding::Edit;
use crate::{values::datetime, values::uri};

use roxmltree::{Document, Node, NodeType};

pub use crate::values::namespace::{SITEMAP_NS, XSI_NS};

/// Misplaced root children kept in the model (a file of millions of `<x/>` must not cost a model
/// entry each); rules report at most [`crate::rule::MAX_REPORTS_PER_RULE`] per file anyway.
pub const MAX_OTHER_CHILDREN: usize = 10_000;

/// The protocol's limit on entries per file.
pub const MAX_ENTRIES: usize = 50_000;

/// What the root element says the file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `<urlset>`: a sitemap.
    UrlSet,
    /// `<sitemapindex>`: a sitemap index.
    Index,
    /// Anything else; the model then holds no entries.
    Other,
}

impl Kind {
    /// The element name entries of this kind of file must have.
    pub fn entry_name(self) -> &'static str {
        match self {
            Kind::UrlSet | Kind::Other => "url",
            Kind::Index => "sitemap",
        }
    }
}

/// How the file is written: an XML sitemap, or a text sitemap (one URL per line, see
/// [`crate::pipeline::text_sitemap`]) whose lines the model presents as `<url>` entries with a
/// `<loc>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Syntax {
    #[default]
    Xml,
    Text,
}

/// An element with the byte spans rules point at. All spans are offsets into the [`crate::SourceFile`].
#[derive(Debug, Clone)]
pub struct Element<'a> {
    pub node: Node<'a, 'a>,
    /// The whole element, start tag to end tag.
    pub span: Range<usize>,
    /// The qualified name in the start tag (`image:image`).
    pub name_span: Range<usize>,
}

impl<'a> Element<'a> {
    /// Wraps `node` of a document parsed from `text[base..]`.
    pub fn new(node: Node<'a, 'a>, base: usize, text: &str) -> Self {
        let range = node.range();
        let span = range.start + base..range.end + base;
        let name_start = range.start + 1;
        let name_len = text
            .get(name_start + base..)
            .unwrap_or("")
            .bytes()
            .take_while(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'/' | b'>'))
            .count();
        Element {
            node,
            span,
            name_span: name_start + base..name_start + name_len + base,
        }
    }

    /// The offset of the parsed text in the source (non-zero when leading whitespace before the
    /// declaration was skipped): add it to roxmltree ranges of this element's descendants.
    pub fn base(&self) -> usize {
        self.span.start - self.node.range().start
    }

    /// The spans of the element, for what outlives its document (see [`Tag`]).
    pub fn tag(&self) -> Tag {
        Tag {
            span: self.span.clone(),
            name_span: self.name_span.clone(),
        }
    }

    /// The prefix of the name as written (`image` for `image:image`), if any.
    pub fn prefix<'s>(&self, source: &'s str) -> Option<&'s str> {
        self.tag().prefix(source)
    }

    /// The attributes of the start tag as written, namespace declarations included, in order.
    pub fn raw_attributes(&self, source: &str) -> Vec<RawAttribute> {
        self.tag().raw_attributes(source)
    }
}

/// An element's spans without its node: what the source says about it, for what outlives the
/// document it was parsed from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tag {
    /// The whole element, start tag to end tag.
    pub span: Range<usize>,
    /// The qualified name in the start tag (`image:image`).
    pub name_span: Range<usize>,
}

impl Tag {
    /// The name as written (`image:image`, `loc`).
    pub fn qualified_name<'s>(&self, source: &'s str) -> &'s str {
        source.get(self.name_span.clone()).unwrap_or("")
    }

    /// The prefix of the name as written (`image` for `image:image`), if any.
    pub fn prefix<'s>(&self, source: &'s str) -> Option<&'s str> {
        self.qualified_name(source)
            .split_once(':')
            .map(|(prefix, _)| prefix)
    }

    /// The attributes of the start tag as written, namespace declarations included, in order.
    pub fn raw_attributes(&self, source: &str) -> Vec<RawAttribute> {
        let mut out = Vec::new();
        let Some(tag) = source.get(self.name_span.end..self.span.end) else {
            return out;
        };
        let bytes = tag.as_bytes();
        let at = |i: usize| self.name_span.end + i;
        let skip_space = |mut i: usize| {
            while bytes
                .get(i)
                .is_some_and(|&b| matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
            {
                i += 1;
            }
            i
        };
        let mut i = 0;
        loop {
            i = skip_space(i);
            if matches!(bytes.get(i), None | Some(b'>' | b'/')) {
                break;
            }
            let name_start = i;
            while bytes
                .get(i)
                .is_some_and(|&b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n' | b'='))
            {
                i += 1;
            }
            let name_end = i;
            i = skip_space(i);
            if bytes.get(i) != Some(&b'=') {
                break;
            }
            i = skip_space(i + 1);
            let quote = match bytes.get(i) {
                Some(&q @ (b'"' | b'\'')) => q,
                _ => break,
            };
            let value_start = i + 1;
            let Some(len) = tag[value_start..].find(char::from(quote)) else {
                break;
            };
            i = value_start + len + 1;
            out.push(RawAttribute {
                name: at(name_start)..at(name_end),
                value: at(value_start)..at(value_start + len),
                whole: at(name_start)..at(i),
            });
        }
        out
    }
}

/// An attribute of a start tag as written in the source (see [`Element::raw_attributes`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawAttribute {
    /// The qualified name (`xmlns:image`, `priority`).
    pub name: Range<usize>,
    /// The value between the quotes, as written (entities not expanded).
    pub value: Range<usize>,
    /// Name, `=` and the quoted value.
    pub whole: Range<usize>,
}

impl<'a> Element<'a> {
    pub fn local_name(&self) -> &'a str {
        self.node.tag_name().name()
    }

    /// The namespace URI; `None` for no namespace (`xmlns=""` included).
    pub fn namespace(&self) -> Option<&'a str> {
        self.node.tag_name().namespace().filter(|ns| !ns.is_empty())
    }

    /// The name as written (`image:image`, `loc`).
    pub fn qualified_name<'s>(&self, source: &'s str) -> &'s str {
        source.get(self.name_span.clone()).unwrap_or("")
    }
}

/// The text content of a value element (`<loc>`, `<lastmod>`, …).
#[derive(Debug, Clone)]
pub struct Value<'a> {
    pub element: Element<'a>,
    /// The decoded content (entities expanded, CDATA unwrapped, line ends normalised).
    pub text: Cow<'a, str>,
    /// The content without leading and trailing XML whitespace, as a range of `text`.
    pub trimmed: Range<usize>,
    /// Source range of the content between the tags (empty range after the start tag when empty).
    pub content: Range<usize>,
    /// True when `text` is byte-for-byte the source slice `content`, so offsets map directly.
    pub verbatim: bool,
    /// The URL check of the trimmed value, computed once for all URL rules.
    url_problems: OnceCell<Vec<uri::Problem>>,
    /// The W3C Datetime verdict of the trimmed value, computed once for all date rules.
    date: OnceCell<datetime::Verdict>,
    /// The parts and fingerprint of the trimmed value, computed once for the rules that compare
    /// URLs.
    url_key: OnceCell<UrlKey>,
}

impl<'a> Value<'a> {
    /// The value rules judge: the content without surrounding XML whitespace.
    pub fn trimmed(&self) -> &str {
        &self.text[self.trimmed.clone()]
    }

    /// Problems of the trimmed value as an absolute http(s) URL (see [`uri::check_http_url`]).
    pub fn url_problems(&self) -> &[uri::Problem] {
        self.url_problems
            .get_or_init(|| uri::check_http_url(self.trimmed()))
    }

    /// The parts and fingerprint of the trimmed value (see [`UrlKey`]).
    pub fn url_key(&self) -> &UrlKey {
        self.url_key.get_or_init(|| UrlKey::of(self.trimmed()))
    }

    /// The trimmed value parsed as a W3C Datetime (see [`datetime::parse`]).
    pub fn date(&self) -> &datetime::Verdict {
        self.date.get_or_init(|| datetime::parse(self.trimmed()))
    }

    /// Source span of the trimmed value; the whole element when the value is empty.
    pub fn span(&self, source: &str) -> Range<usize> {
        if self.trimmed.is_empty() {
            return self.element.span.clone();
        }
        self.source_range(source, self.trimmed.clone())
    }

    /// Maps a byte range of `text` to the source range that produced it.
    pub fn source_range(&self, source: &str, range: Range<usize>) -> Range<usize> {
        if self.verbatim {
            return self.content.start + range.start..self.content.start + range.end;
        }
        let start = map_offset(source, self.content.clone(), range.start, false);
        let end = map_offset(source, self.content.clone(), range.end, true);
        start..end.max(start)
    }

    /// Maps a range of the trimmed value to the source.
    pub fn source_range_in_trimmed(&self, source: &str, range: Range<usize>) -> Range<usize> {
        let off = self.trimmed.start;
        self.source_range(source, range.start + off..range.end + off)
    }

    /// The source range `range` of `text` comes from, when the source writes those bytes as
    /// they are: no entity or character reference, no CDATA boundary, comment or normalised
    /// line end inside. A fix may only edit such a range: elsewhere it cannot see what it
    /// rewrites. An empty range (an insertion) maps through the character before it (or the
    /// one after, at the start), which must be written as it is.
    pub fn exact_source_range(&self, source: &str, range: Range<usize>) -> Option<Range<usize>> {
        let text = self.text.get(range.clone())?;
        if self.verbatim {
            return Some(self.source_range(source, range));
        }
        if range.is_empty() {
            let at = range.start;
            let before = self.text[..at].chars().next_back().map(char::len_utf8);
            let after = self.text[at..].chars().next().map(char::len_utf8);
            return match (before, after) {
                (Some(n), _) => {
                    Some(self.exact_source_range(source, at - n..at)?.end).map(|e| e..e)
                }
                (None, Some(n)) => {
                    Some(self.exact_source_range(source, at..at + n)?.start).map(|s| s..s)
                }
                (None, None) => None,
            };
        }
        let mapped = self.source_range(source, range);
        (source.get(mapped.clone()) == Some(text)).then_some(mapped)
    }

    /// An edit replacing `range` of the trimmed value with `with`, when the source writes that
    /// range as it is (see [`Value::exact_source_range`]); `None` otherwise.
    pub fn edit_in_trimmed(
        &self,
        source: &str,
        range: Range<usize>,
        with: impl Into<String>,
    ) -> Option<Edit> {
        let off = self.trimmed.start;
        let range = self.exact_source_range(source, range.start + off..range.end + off)?;
        Some(Edit::replace(range, with))
    }

    /// An edit replacing the whole trimmed value with `with` (see [`Value::edit_in_trimmed`]).
    pub fn replace_trimmed(&self, source: &str, with: impl Into<String>) -> Option<Edit> {
        self.edit_in_trimmed(source, 0..self.trimmed.len(), with)
    }

    /// The edits deleting the whitespace around the value (none when there is none): `None`
    /// when the value is empty, or when what surrounds it in the source is not only whitespace
    /// (a comment, a character reference).
    pub fn trim_edits(&self, source: &str) -> Option<Vec<Edit>> {
        if self.trimmed.is_empty() {
            return None;
        }
        let value = self.source_range(source, self.trimmed.clone());
        let around = [self.content.start..value.start, value.end..self.content.end];
        let mut edits = Vec::new();
        for r in around {
            let text = source.get(r.clone())?;
            // Whitespace, and the markers of a CDATA section holding the value, which stay.
            let mut i = 0;
            let mut run = None;
            while i < text.len() {
                let rest = &text[i..];
                let marker = ["<![CDATA[", "]]>"].iter().find(|m| rest.starts_with(**m));
                let step = match marker {
                    Some(m) => m.len(),
                    None if rest.starts_with(is_xml_space) => 1,
                    None => return None,
                };
                match (marker, run.take()) {
                    (Some(_), Some(start)) => {
                        edits.push(Edit::delete(r.start + start..r.start + i))
                    }
                    (Some(_), None) => {}
                    (None, started) => run = Some(started.unwrap_or(i)),
                }
                i += step;
            }
            if let Some(start) = run {
                edits.push(Edit::delete(r.start + start..r.end));
            }
        }
        Some(edits)
    }
}

/// Walks the raw XML between `content.start` and `content.end`, counting decoded bytes, and returns the
/// source offset where decoded byte `target` starts (or, with `end`, where the previous one ends).
fn map_offset(source: &str, content: Range<usize>, target: usize, end: bool) -> usize {
    let Some(raw) = source.get(content.clone()) else {
        return content.start;
    };
    if end && target == 0 {
        return content.start;
    }
    let mut decoded = 0usize;
    let mut i = 0usize;
    let mut last_end = 0usize;
    while i < raw.len() {
        let rest = &raw[i..];
        if rest.starts_with("<![CDATA[") {
            let inner_end = rest.find("]]>").unwrap_or(rest.len()).max(9);
            let inner_len = inner_end - 9;
            let inside = target.saturating_sub(decoded);
            if target >= decoded && (inside < inner_len || (end && inside == inner_len)) {
                return content.start + i + 9 + inside;
            }
            decoded += inner_len;
            last_end = i + inner_end;
            i = (i + inner_end + 3).min(raw.len());
            continue;
        }
        if rest.starts_with("<!--") {
            i += rest.find("-->").map_or(rest.len(), |p| p + 3);
            continue;
        }
        if rest.starts_with('<') {
            i += rest.find('>').map_or(rest.len(), |p| p + 1);
            continue;
        }
        if decoded >= target {
            return content.start + if end { last_end } else { i };
        }
        let (decoded_len, raw_len) = if rest.starts_with('&') {
            // Search bytes: slicing the str at 12 could cut a multi-byte character.
            match rest.as_bytes()[..rest.len().min(12)]
                .iter()
                .position(|&b| b == b';')
            {
                Some(semi) => (
                    decode_reference(&rest[1..semi]).map_or(semi + 1, char::len_utf8),
                    semi + 1,
                ),
                None => (1, 1),
            }
        } else if rest.starts_with("\r\n") {
            (1, 2)
        } else {
            let n = rest.chars().next().map_or(1, char::len_utf8);
            (n, n)
        };
        decoded += decoded_len;
        i += raw_len;
        last_end = i;
    }
    content.start + if end { last_end } else { i }
}

fn decode_reference(name: &str) -> Option<char> {
    match name {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => {
            let num = name.strip_prefix('#')?;
            let code = match num.strip_prefix('x') {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => num.parse().ok()?,
            };
            char::from_u32(code)
        }
    }
}

/// The recognised children of `<url>` and `<sitemap>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Field {
    Loc,
    Lastmod,
    Changefreq,
    Priority,
}

impl Field {
    pub const ALL: [Field; 4] = [
        Field::Loc,
        Field::Lastmod,
        Field::Changefreq,
        Field::Priority,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Field::Loc => "loc",
            Field::Lastmod => "lastmod",
            Field::Changefreq => "changefreq",
            Field::Priority => "priority",
        }
    }

    pub fn from_name(name: &str) -> Option<Field> {
        match name {
            "loc" => Some(Field::Loc),
            "lastmod" => Some(Field::Lastmod),
            "changefreq" => Some(Field::Changefreq),
            "priority" => Some(Field::Priority),
            _ => None,
        }
    }

    /// Whether the field belongs in entries of this kind of file (`<sitemap>` has only loc and lastmod).
    pub fn allowed_in(self, kind: Kind) -> bool {
        kind != Kind::Index || matches!(self, Field::Loc | Field::Lastmod)
    }
}

/// How an element child of an entry was classified.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChildKind {
    /// `loc`, `lastmod`, `changefreq`, `priority` in the sitemap namespace (see [`Child`]).
    Field(Field),
    /// Another name in the sitemap namespace.
    Unknown,
    /// An element of another namespace: an extension such as `image:image`.
    Foreign,
}

/// An element child of an entry (or of the root).
///
/// The model is lenient about namespaces so that one namespace mistake does not hide the rest of the
/// file: an element counts as a sitemap element (`Field` or `Unknown`) when it is in the root's
/// namespace, in its entry's namespace, or in no namespace at all (`<loc xmlns="">`, or `<loc>`
/// under a prefixed `<sm:urlset>`). `namespace_ok` tells whether it is really in the root's
/// namespace; the `namespace` rule reports the others.
#[derive(Debug, Clone)]
pub struct Child<'a> {
    pub element: Element<'a>,
    pub kind: ChildKind,
    /// The value, for `Field` children.
    /// Boxed: most children of a large file are not values, and a `Child` should stay small.
    pub value: Option<Box<Value<'a>>>,
    /// Whether the element is in the root's namespace (always true for `Foreign` children).
    pub namespace_ok: bool,
}

/// Whether an entry element is `url` or `sitemap` (either may be misplaced).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EntryKind {
    Url,
    Sitemap,
}

impl EntryKind {
    /// The kind of an element of [`Sitemap::entries`] (`Sitemap` for `sitemap`).
    pub fn of(element: &Element<'_>) -> EntryKind {
        if element.local_name() == "url" {
            EntryKind::Url
        } else {
            EntryKind::Sitemap
        }
    }

    /// Whether entries of this kind may hold `field` (`<sitemap>` has only loc and lastmod).
    pub fn allows(self, field: Field) -> bool {
        self == EntryKind::Url || matches!(field, Field::Loc | Field::Lastmod)
    }

    pub fn name(self) -> &'static str {
        match self {
            EntryKind::Url => "url",
            EntryKind::Sitemap => "sitemap",
        }
    }
}

/// Whether `child` of `entry` is an hreflang link written without the XHTML namespace: a `<link>`
/// in the sitemap namespace (or none) inside `<url>`, with link attributes or no text (a `<link>`
/// holding a URL is a misspelled `<loc>`).
pub fn is_plain_hreflang_link(entry: &Entry<'_>, child: &Child<'_>) -> bool {
    if entry.kind != EntryKind::Url
        || child.kind != ChildKind::Unknown
        || child.element.local_name() != "link"
    {
        return false;
    }
    let node = child.element.node;
    node.attributes()
        .any(|a| matches!(a.name(), "rel" | "hreflang" | "href"))
        || !node
            .descendants()
            .any(|n| n.text().is_some_and(|t| !t.trim().is_empty()) || n != node && n.is_element())
}

/// One `<url>` or `<sitemap>` child of the root.
#[derive(Debug, Clone)]
pub struct Entry<'a> {
    pub kind: EntryKind,
    pub element: Element<'a>,
    /// Every element child, in document order.
    pub children: Vec<Child<'a>>,
    /// Non-whitespace text directly inside the entry.
    pub stray_text: Vec<Range<usize>>,
    /// Whether the entry element is in the root's namespace (`<url xmlns="">` is not, but is still
    /// an entry; the `namespace` rule reports it).
    pub namespace_ok: bool,
    /// The `<xhtml:link>` children (their index in `children`) with their attributes, read once
    /// for all the hreflang rules (see [`links::links`]).
    links: OnceCell<Box<[(usize, links::LinkAttributes)]>>,
    /// Boxes of the values of the entry this one was refilled from, for reuse.
    #[allow(clippy::vec_box)] // the boxes are what is kept: children hold boxed values
    spare_values: Vec<Box<Value<'a>>>,
}

impl<'a> Entry<'a> {
    /// The first child holding `field`.
    pub fn field(&self, field: Field) -> Option<&Child<'a>> {
        self.children
            .iter()
            .find(|c| c.kind == ChildKind::Field(field))
    }

    /// The first value of `field`.
    pub fn value(&self, field: Field) -> Option<&Value<'a>> {
        self.field(field).and_then(|c| c.value.as_deref())
    }

    pub fn loc(&self) -> Option<&Value<'a>> {
        self.value(Field::Loc)
    }

    /// The `<xhtml:link>` children of a `<url>` (their index in `children`) with their
    /// attributes; none for a `<sitemap>`.
    pub fn links(&self) -> &[(usize, links::LinkAttributes)] {
        self.links.get_or_init(|| {
            if self.kind != EntryKind::Url {
                return Box::default();
            }
            self.children
                .iter()
                .enumerate()
                .filter(|(_, c)| links::is_link(c))
                .map(|(i, c)| (i, links::LinkAttributes::of(&c.element)))
                .collect()
        })
    }
}

/// The whole file as rules see it: the root and, in the hooks that run after the entries
/// ([`crate::rule::Rule::check_sitemap`], [`crate::rule::Collector::finish`]), what the root holds
/// besides them. The entries themselves are not kept: rules see one [`Entry`] at a time.
///
/// Not `Sync` (values cache what rules compute in a [`OnceCell`]): a thread that checks entries
/// works with its own clone, made while the root's other children are still empty.
#[derive(Debug, Clone)]
pub struct Sitemap<'a> {
    /// The decoded source text all spans index into.
    pub source: &'a str,
    pub kind: Kind,
    pub root: Element<'a>,
    /// The namespace the root element is in; child elements in the same namespace are sitemap elements.
    pub namespace: Option<&'a str>,
    /// The number of `<url>`/`<sitemap>` children of the root (whichever the file's kind), in any
    /// namespace. 0 while the entries are being checked.
    pub entry_count: usize,
    /// Other element children of the root: unknown names (in the root's namespace or in none) or
    /// elements of other namespaces. Empty while the entries are being checked (collectors see
    /// them in document order with [`crate::rule::Collector::root_child`]).
    /// At most [`MAX_OTHER_CHILDREN`] are kept; the rest are only counted.
    pub other_children: Vec<Child<'a>>,
    /// Other element children of the root beyond [`MAX_OTHER_CHILDREN`], not kept.
    pub other_children_omitted: usize,
    /// Non-whitespace text directly inside the root. Empty while the entries are being checked.
    pub stray_text: Vec<Range<usize>>,
    /// The scheme and host (`https://www.example.com`) of the first entry whose `<loc>` has no
    /// problem at all: help texts complete relative URLs with it.
    pub site_origin: Option<String>,
    /// XML, or a text sitemap (whose root and entries have no name in the source: rules word
    /// what they say about them as lines and URLs).
    pub syntax: Syntax,
}

impl<'a> Sitemap<'a> {
    /// The root of the document `doc`, parsed from `source[base..]`, with nothing else yet (the
    /// engine adds the rest, see [`RootChildren`]).
    pub fn head(doc: &'a Document<'a>, source: &'a str, base: usize) -> Sitemap<'a> {
        let root = Element::new(doc.root_element(), base, source);
        let kind = match root.local_name() {
            "urlset" => Kind::UrlSet,
            "sitemapindex" => Kind::Index,
            _ => Kind::Other,
        };
        Sitemap {
            source,
            kind,
            namespace: root.namespace(),
            root,
            entry_count: 0,
            other_children: Vec::new(),
            other_children_omitted: 0,
            site_origin: None,
            stray_text: Vec::new(),
            syntax: Syntax::Xml,
        }
    }

    /// Adds what the root holds in one document (the whole file, or one piece of it, in order)
    /// besides the entries' elements: their count, [`Sitemap::other_children`] and the stray text.
    pub fn add(&mut self, children: &RootChildren<'a>) {
        self.entry_count += children.entries.len();
        self.add_other_children(children);
        self.stray_text.extend(children.stray_text.iter().cloned());
    }

    /// Adds the root's other children in one document, within [`MAX_OTHER_CHILDREN`].
    pub fn add_other_children(&mut self, children: &RootChildren<'a>) {
        let room = MAX_OTHER_CHILDREN.saturating_sub(self.other_children.len());
        let kept = children.other_children.len().min(room);
        self.other_children
            .extend(children.other_children[..kept].iter().cloned());
        self.other_children_omitted +=
            children.other_children.len() - kept + children.other_children_omitted;
    }
}

/// Whether a child of the root named `local_name` is an entry (`<url>` or `<sitemap>`, whichever
/// the file's kind: see [`RootChildren::entries`]).
pub fn is_entry_name(local_name: &str) -> bool {
    matches!(local_name, "url" | "sitemap")
}

/// The children of the root in one parsed document (the whole file, or one of the pieces a
/// large file is split into, see [`crate::pipeline::split`]).
#[derive(Debug, Default)]
pub struct RootChildren<'a> {
    /// `<url>`/`<sitemap>` children of the root (whichever the file's kind), in any namespace:
    /// only their elements, 56 bytes each; [`RootChildren::entry`] makes the [`Entry`] rules see.
    pub entries: Vec<Element<'a>>,
    /// Other element children (see [`Sitemap::other_children`]); at most [`MAX_OTHER_CHILDREN`].
    pub other_children: Vec<Child<'a>>,
    /// Other element children beyond [`MAX_OTHER_CHILDREN`], not kept.
    pub other_children_omitted: usize,
    /// Non-whitespace text directly inside the root.
    pub stray_text: Vec<Range<usize>>,
}

impl<'a> RootChildren<'a> {
    /// The root's children in `doc`, parsed from `source[base..]`; `head` is the file's root
    /// (a later piece of a split file repeats its start tag). None for a root that is not a
    /// `<urlset>` or a `<sitemapindex>`.
    pub fn build(
        doc: &'a Document<'a>,
        source: &'a str,
        base: usize,
        head: &Sitemap<'_>,
    ) -> RootChildren<'a> {
        let mut out = RootChildren::default();
        if head.kind == Kind::Other {
            return out;
        }
        let namespace = head.namespace;
        for node in doc.root_element().children() {
            match node.node_type() {
                NodeType::Element => {
                    let element = Element::new(node, base, source);
                    if is_entry_name(element.local_name()) {
                        out.entries.push(element);
                    } else if out.other_children.len() >= MAX_OTHER_CHILDREN {
                        out.other_children_omitted += 1;
                    } else {
                        let ns = element.namespace();
                        let (kind, namespace_ok) = if ns == namespace {
                            (ChildKind::Unknown, true)
                        } else if ns.is_none() {
                            (ChildKind::Unknown, false)
                        } else {
                            (ChildKind::Foreign, true)
                        };
                        out.other_children.push(Child {
                            element,
                            kind,
                            value: None,
                            namespace_ok,
                        });
                    }
                }
                NodeType::Text => push_stray_text(&mut out.stray_text, node, base),
                _ => {}
            }
        }
        out.entries.shrink_to_fit();
        out
    }

    /// Entry `i` of [`RootChildren::entries`], without its children ([`Entry::fill`] builds
    /// them); `namespace` is the root's.
    pub fn entry(&self, i: usize, namespace: Option<&str>) -> Option<Entry<'a>> {
        Some(Entry::new(self.entries.get(i)?.clone(), namespace))
    }

    /// Makes `entry` entry `i` of [`RootChildren::entries`], with its children: what
    /// [`RootChildren::entry`] and [`Entry::fill`] do, reusing the allocations of `entry`.
    /// `false` (and `entry` unchanged) when there is no entry `i`.
    pub fn refill(
        &self,
        entry: &mut Entry<'a>,
        i: usize,
        namespace: Option<&'a str>,
        source: &'a str,
    ) -> bool {
        let Some(element) = self.entries.get(i) else {
            return false;
        };
        entry.kind = EntryKind::of(element);
        entry.namespace_ok = element.namespace() == namespace;
        entry.element = element.clone();
        entry.fill(namespace, source);
        true
    }

    /// The origin of the first entry whose `<loc>` has no problem at all (see
    /// [`Sitemap::site_origin`]), found without caching anything in the values.
    pub fn first_origin(&self, namespace: Option<&'a str>, source: &'a str) -> Option<String> {
        (0..self.entries.len()).find_map(|i| {
            let loc = self.entry(i, namespace)?.first_loc(namespace, source)?;
            uri::origin(loc.trimmed()).map(str::to_owned)
        })
    }
}

/// The model of one whole document: the file-level view and the root's children, for tests and
/// for callers that want every entry at once.
pub struct Model<'a> {
    pub sitemap: Sitemap<'a>,
    pub children: RootChildren<'a>,
}

impl<'a> Model<'a> {
    /// Builds the model of one document. `base` is the offset of the parsed text inside `source`
    /// (non-zero when leading whitespace before the XML declaration was skipped).
    pub fn build(doc: &'a Document<'a>, source: &'a str, base: usize) -> Model<'a> {
        let mut sitemap = Sitemap::head(doc, source, base);
        let children = RootChildren::build(doc, source, base, &sitemap);
        sitemap.add(&children);
        sitemap.site_origin = children.first_origin(sitemap.namespace, source);
        Model { sitemap, children }
    }

    /// The entries' elements.
    pub fn entries(&self) -> &[Element<'a>] {
        &self.children.entries
    }

    /// Entry `i` with its children.
    pub fn filled(&self, i: usize) -> Option<Entry<'a>> {
        let mut entry = self.children.entry(i, self.sitemap.namespace)?;
        entry.fill(self.sitemap.namespace, self.sitemap.source);
        Some(entry)
    }
}

impl<'a> std::ops::Deref for Model<'a> {
    type Target = Sitemap<'a>;
    fn deref(&self) -> &Sitemap<'a> {
        &self.sitemap
    }
}

/// `s` as a slice of `source` when it lies inside it (a value roxmltree did not have to decode
/// points into the text it parsed), otherwise a copy: what a collector keeps past the document
/// an entry was parsed from (the pieces of a split file are dropped once checked).
pub fn detach<'t>(source: &'t str, s: &str) -> Cow<'t, str> {
    match inside(source, s) {
        Some(inside) => Cow::Borrowed(inside),
        None => Cow::Owned(s.to_owned()),
    }
}

/// `s` as a slice of `source` when it lies inside it (see [`detach`]), without a copy otherwise.
pub fn inside<'t>(source: &'t str, s: &str) -> Option<&'t str> {
    let start = (s.as_ptr() as usize).wrapping_sub(source.as_ptr() as usize);
    source
        .get(start..start.wrapping_add(s.len()))
        .filter(|inside| start <= source.len() && std::ptr::eq(inside.as_ptr(), s.as_ptr()))
}

fn push_stray_text(out: &mut Vec<Range<usize>>, node: Node<'_, '_>, base: usize) {
    if is_xml_blank(node.text().unwrap_or("")) {
        return;
    }
    let r = node.range();
    out.push(r.start + base..r.end + base);
}

pub use crate::values::text::{is_xml_blank, is_xml_space};

/// How a child element of an entry counts: `root_ns` is the root's namespace; children in it, in
/// the entry's own namespace or in no namespace are sitemap elements (see [`Child`]). Returns the
/// kind and [`Child::namespace_ok`].
fn classify(
    element: &Element<'_>,
    root_ns: Option<&str>,
    entry_ns: Option<&str>,
) -> (ChildKind, bool) {
    // One lookup of the name for both parts (what `namespace` and `local_name` do each).
    let name = element.node.tag_name();
    let ns = name.namespace().filter(|ns| !ns.is_empty());
    let sitemap_element = ns.is_none() || same_ns(ns, root_ns) || same_ns(ns, entry_ns);
    let kind = match sitemap_element.then(|| Field::from_name(name.name())) {
        Some(Some(f)) => ChildKind::Field(f),
        Some(None) => ChildKind::Unknown,
        None => ChildKind::Foreign,
    };
    (kind, !sitemap_element || same_ns(ns, root_ns))
}

/// `a == b` for namespace URIs, which usually are the same slice of the document's namespace
/// table: compared by address first.
fn same_ns(a: Option<&str>, b: Option<&str>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => std::ptr::eq(a, b) || a == b,
        (a, b) => a.is_none() && b.is_none(),
    }
}

impl<'a> Entry<'a> {
    /// The entry of the `<url>`/`<sitemap>` `element`, without its children ([`Entry::fill`]
    /// builds them); `namespace` is the root's.
    pub fn new(element: Element<'a>, namespace: Option<&str>) -> Entry<'a> {
        Entry {
            kind: EntryKind::of(&element),
            namespace_ok: element.namespace() == namespace,
            element,
            children: Vec::new(),
            stray_text: Vec::new(),
            links: OnceCell::new(),
            spare_values: Vec::new(),
        }
    }

    /// Builds the children (and values) of the entry; `root_ns` is the root's namespace.
    pub fn fill(&mut self, root_ns: Option<&'a str>, source: &'a str) {
        let entry_ns = self.element.namespace();
        let base = self.element.base();
        let node = self.element.node;
        // An entry refilled for the next one (see [`RootChildren::refill`]) keeps its allocations:
        // the vectors' capacity and the boxes of its values.
        let spare = &mut self.spare_values;
        spare.extend(self.children.drain(..).filter_map(|c| c.value));
        self.stray_text.clear();
        self.links = OnceCell::new();
        for node in node.children() {
            match node.node_type() {
                NodeType::Element => {
                    // Room for the rest at once when the list is full past its first size (an
                    // entry with alternates and images): grown one by one, it would be copied
                    // again at 8 and 16. Entries of four children or fewer never count.
                    if self.children.len() >= 4 && self.children.len() == self.children.capacity() {
                        let rest = node.next_siblings().filter(|n| n.is_element()).count();
                        self.children.reserve_exact(rest);
                    }
                    let element = Element::new(node, base, source);
                    let (kind, namespace_ok) = classify(&element, root_ns, entry_ns);
                    let value = match kind {
                        ChildKind::Field(_) => {
                            let value = build_value(element.clone(), base, source);
                            Some(match spare.pop() {
                                Some(mut boxed) => {
                                    *boxed = value;
                                    boxed
                                }
                                None => Box::new(value),
                            })
                        }
                        _ => None,
                    };
                    self.children.push(Child {
                        element,
                        kind,
                        value,
                        namespace_ok,
                    });
                }
                NodeType::Text => push_stray_text(&mut self.stray_text, node, base),
                _ => {}
            }
        }
    }

    /// The value of the first `<loc>` child, built on its own (without filling the entry).
    fn first_loc(&self, root_ns: Option<&'a str>, source: &'a str) -> Option<Value<'a>> {
        let entry_ns = self.element.namespace();
        let base = self.element.base();
        self.element
            .node
            .children()
            .filter(|n| n.is_element())
            .map(|n| Element::new(n, base, source))
            .find(|e| classify(e, root_ns, entry_ns).0 == ChildKind::Field(Field::Loc))
            .map(|e| build_value(e, base, source))
    }
}

/// Where the last `</` of `s` starts (`s.rfind("</")`, without building a substring searcher for
/// every value: the end tag is a few bytes from the end).
fn last_end_tag(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    memchr::memrchr_iter(b'<', b).find(|&p| b.get(p + 1) == Some(&b'/'))
}

/// Collects the text of a value element: its direct text children. Misplaced child elements (reported
/// by `unexpected-child-element`) are read the way they were most likely meant, so that one mistake
/// gives one error: when the value is only inside them (`<loc><a>https://…</a></loc>`) their text is
/// taken; when text comes first (`<loc>https://…` followed by `<lastmod>`: a missing `</loc>`), the
/// value is that text, up to the first child element and without the whitespace before it.
pub fn build_value<'a>(element: Element<'a>, base: usize, source: &'a str) -> Value<'a> {
    let node = element.node;
    // The common case, one text child: that is the value, and nothing needs collecting.
    let only_text = node
        .first_child()
        .filter(|c| c.is_text() && c.next_sibling().is_none());
    let direct = only_text.is_some()
        || node
            .children()
            .any(|c| c.is_text() && !is_xml_blank(c.text().unwrap_or("")));
    let cut_at_element = only_text.is_none() && direct && node.children().any(|c| c.is_element());
    let parts: Vec<Node<'a, 'a>> = if only_text.is_some() {
        Vec::new()
    } else if !direct {
        node.descendants().filter(|c| c.is_text()).collect()
    } else if cut_at_element {
        node.children()
            .take_while(|c| !c.is_element())
            .filter(|c| c.is_text())
            .collect()
    } else {
        node.children().filter(|c| c.is_text()).collect()
    };
    let first = only_text.or_else(|| parts.first().copied());
    let (text, content, verbatim): (Cow<'a, str>, Range<usize>, bool) = match first {
        None => {
            // Empty: point just after the start tag (or at the element for `<loc/>`).
            let at = source
                .get(element.span.clone())
                .and_then(|s| s.find('>'))
                .map_or(element.span.end, |p| element.span.start + p + 1)
                .min(element.span.end);
            (Cow::Borrowed(""), at..at, true)
        }
        Some(first) => {
            let single = only_text.is_some()
                || (node.children().count() == 1 && first.parent() == Some(node));
            let r = first.range();
            let content_start = r.start + base;
            // roxmltree merges text and CDATA sections into one node whose range covers only
            // the first of them: the content ends where the end tag starts.
            let end_tag = || {
                // Usually the end tag starts right where the text ends: a `</` in content is
                // always an end tag, and after a child of this element it is this element's
                // (after text inside a misplaced child element, it is that element's).
                let after = r.end + base;
                if first.parent() == Some(node)
                    && after < element.span.end
                    && source.as_bytes().get(after..after + 2) == Some(b"</".as_slice())
                {
                    return Some(after);
                }
                source
                    .get(element.span.clone())
                    .and_then(last_end_tag)
                    .map(|p| element.span.start + p)
                    .filter(|&p| p >= r.end + base)
            };
            let last_end = if cut_at_element {
                parts.last().map_or(r.end, |l| l.range().end) + base
            } else {
                end_tag()
                    .unwrap_or(node.children().next_back().map_or(r.end, |l| l.range().end) + base)
            };
            if single {
                let t = first.text().unwrap_or("");
                let raw = source.get(content_start..last_end).unwrap_or("");
                let verbatim = std::ptr::eq(raw, t) || raw == t;
                let text = match first.text_storage() {
                    Some(roxmltree::StringStorage::Borrowed(b)) => Cow::Borrowed(*b),
                    _ => Cow::Owned(t.to_string()),
                };
                (text, content_start..last_end, verbatim)
            } else {
                let mut s = String::new();
                for t in &parts {
                    s.push_str(t.text().unwrap_or(""));
                }
                if cut_at_element {
                    s.truncate(s.trim_end_matches(is_xml_space).len());
                }
                (Cow::Owned(s), content_start..last_end, false)
            }
        }
    };
    let start = text.len() - text.trim_start_matches(is_xml_space).len();
    let end = text.trim_end_matches(is_xml_space).len().max(start);
    Value {
        element,
        text,
        trimmed: start..end,
        content,
        verbatim,
        url_problems: OnceCell::new(),
        date: OnceCell::new(),
        url_key: OnceCell::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_model(xml: &str, f: impl FnOnce(&Model<'_>)) {
        let doc = Document::parse(xml).unwrap();
        let model = Model::build(&doc, xml, 0);
        f(&model);
    }

    #[test]
    fn field_names_round_trip() {
        for f in Field::ALL {
            assert_eq!(Field::from_name(f.name()), Some(f));
        }
        assert_eq!(Field::from_name("Loc"), None);
    }

    #[test]
    fn values_map_back_to_source() {
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>\n  https://a.example/?a=1&amp;b=2 x</loc></url></urlset>";
        with_model(xml, |m| {
            let e: Vec<Entry<'_>> = (0..m.entries().len()).filter_map(|i| m.filled(i)).collect();
            let v = e[0].loc().unwrap();
            assert_eq!(v.trimmed(), "https://a.example/?a=1&b=2 x");
            let span = v.span(xml);
            assert_eq!(&xml[span], "https://a.example/?a=1&amp;b=2 x");
            let x = v.trimmed().find(' ').unwrap();
            let r = v.source_range_in_trimmed(xml, x..x + 1);
            assert_eq!(&xml[r], " ");
            let amp = v.trimmed().find('&').unwrap();
            let r = v.source_range_in_trimmed(xml, amp..amp + 1);
            assert_eq!(&xml[r], "&amp;");
        });
    }

    /// The content of a value ends where its end tag starts, whether the text is one node, text
    /// and CDATA that roxmltree merges (its range covers only the first), or text around a
    /// comment or with references. When the value is only inside a misplaced child element, it
    /// starts at that text and still ends at the value's own end tag, not the child's.
    #[test]
    fn value_content_ends_at_the_end_tag() {
        // (the value's inner text, whether it is only inside a misplaced child element)
        let cases = [
            ("https://a.example/", false),
            ("  https://a.example/\n", false),
            ("https://a.example/?a=1&amp;b=2", false),
            ("https://a.example/<![CDATA[x]]>", false),
            ("<![CDATA[https://a.example/]]>y", false),
            ("a<![CDATA[b]]>c<![CDATA[d]]>", false),
            ("https://a<!-- c -->.example/", false),
            ("https://a<?pi x?>.example/", false),
            ("&#x68;ttps://a.example/", false),
            ("<a>https://a.example/</a>", true),
            ("<a><b>https://a.example/</b></a> ", true),
        ];
        for (inner, nested) in cases {
            let xml = format!(
                "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>{inner}</loc></url></urlset>"
            );
            with_model(&xml, |m| {
                let e: Vec<Entry<'_>> =
                    (0..m.entries().len()).filter_map(|i| m.filled(i)).collect();
                let v = e[0].loc().unwrap();
                let start = xml.find("<loc>").unwrap()
                    + "<loc>".len()
                    + if nested {
                        inner.find("https").unwrap()
                    } else {
                        0
                    };
                assert_eq!(v.content, start..xml.rfind("</loc>").unwrap(), "{inner}");
            });
        }
    }

    #[test]
    fn cdata_values_map_back() {
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc><![CDATA[https://a.example/ b]]></loc></url></urlset>";
        with_model(xml, |m| {
            let e: Vec<Entry<'_>> = (0..m.entries().len()).filter_map(|i| m.filled(i)).collect();
            let v = e[0].loc().unwrap();
            assert_eq!(v.trimmed(), "https://a.example/ b");
            let sp = v.trimmed().find(' ').unwrap();
            let r = v.source_range_in_trimmed(xml, sp..sp + 1);
            assert_eq!(&xml[r], " ");
            assert_eq!(&xml[v.span(xml)], "https://a.example/ b");
        });
    }

    #[test]
    fn classifies_children() {
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" xmlns:i=\"urn:x\"><url><loc>a</loc><foo/><i:image/><lastmod/></url><sitemap/>text</urlset>";
        with_model(xml, |m| {
            let e: Vec<Entry<'_>> = (0..m.entries().len()).filter_map(|i| m.filled(i)).collect();
            assert_eq!(m.kind, Kind::UrlSet);
            assert_eq!(m.entries().len(), 2);
            assert_eq!(e[1].kind, EntryKind::Sitemap);
            let kinds: Vec<_> = e[0].children.iter().map(|c| c.kind).collect();
            assert_eq!(
                kinds,
                [
                    ChildKind::Field(Field::Loc),
                    ChildKind::Unknown,
                    ChildKind::Foreign,
                    ChildKind::Field(Field::Lastmod)
                ]
            );
            assert_eq!(&xml[e[0].children[2].element.name_span.clone()], "i:image");
            assert_eq!(m.stray_text.len(), 1);
            let empty = e[0].value(Field::Lastmod).unwrap();
            assert_eq!(&xml[empty.span(xml)], "<lastmod/>");
        });
    }

    #[test]
    fn no_namespace_children_are_sitemap_elements_flagged() {
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc xmlns=\"\">https://a.example/</loc></url><url xmlns=\"\"><loc>https://b.example/</loc></url></urlset>";
        with_model(xml, |m| {
            let e: Vec<Entry<'_>> = (0..m.entries().len()).filter_map(|i| m.filled(i)).collect();
            assert_eq!(m.entries().len(), 2);
            let (a, b) = (&e[0], &e[1]);
            assert!(a.namespace_ok);
            assert_eq!(a.children[0].kind, ChildKind::Field(Field::Loc));
            assert!(!a.children[0].namespace_ok);
            assert_eq!(a.loc().unwrap().trimmed(), "https://a.example/");
            assert!(!b.namespace_ok);
            assert_eq!(b.children[0].kind, ChildKind::Field(Field::Loc));
            assert!(b.children[0].element.namespace().is_none());
        });
    }

    #[test]
    fn unprefixed_children_of_a_prefixed_root_are_entries() {
        let xml = "<sm:urlset xmlns:sm=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc>https://a.example/</loc></url></sm:urlset>";
        with_model(xml, |m| {
            let e: Vec<Entry<'_>> = (0..m.entries().len()).filter_map(|i| m.filled(i)).collect();
            assert_eq!(m.namespace, Some(SITEMAP_NS));
            assert_eq!(m.entries().len(), 1);
            assert!(!e[0].namespace_ok);
            assert!(e[0].loc().is_some());
            assert_eq!(m.root.prefix(xml), Some("sm"));
        });
    }

    #[test]
    fn values_inside_misplaced_markup() {
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc><a href=\"x\">https://a.example/</a></loc></url><url><loc>https://b.example/\n  <lastmod>2024</lastmod></loc></url></urlset>";
        with_model(xml, |m| {
            let e: Vec<Entry<'_>> = (0..m.entries().len()).filter_map(|i| m.filled(i)).collect();
            let a = e[0].loc().unwrap();
            assert_eq!(a.trimmed(), "https://a.example/");
            assert_eq!(&xml[a.span(xml)], "https://a.example/");
            let b = e[1].loc().unwrap();
            assert_eq!(b.text, "https://b.example/");
            assert_eq!(&xml[b.span(xml)], "https://b.example/");
        });
    }

    #[test]
    fn raw_attributes_as_written() {
        let xml = "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"\n  xmlns:x='urn:x' x:a = \"1\"><url/></urlset>";
        with_model(xml, |m| {
            let attrs = m.root.raw_attributes(xml);
            let names: Vec<_> = attrs.iter().map(|a| &xml[a.name.clone()]).collect();
            assert_eq!(names, ["xmlns", "xmlns:x", "x:a"]);
            assert_eq!(&xml[attrs[1].value.clone()], "urn:x");
            assert_eq!(&xml[attrs[2].whole.clone()], "x:a = \"1\"");
        });
    }
}
