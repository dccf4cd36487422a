//! The `<xhtml:link>` children of a `<url>` entry as the hreflang rules read them: where their
//! `rel`, `hreflang`, `href` and `media` attributes are, found once per entry (a parse the model
//! caches, see [`Entry::links`]).

use std::ops::Range;

use super::{Child, ChildKind, Element, Entry};
use crate::values::namespace::XHTML_NS;

/// An attribute of an `<xhtml:link>`: its decoded value and where the value is written.
#[derive(Debug, Clone)]
pub struct LinkAttribute<'a> {
    /// The decoded value (entities expanded), as the XML parser reports it.
    pub value: &'a str,
    /// Source span of the value between the quotes.
    pub span: Range<usize>,
}

impl LinkAttribute<'_> {
    /// The source span of `range` (a byte range of `value`); the whole value when it is not
    /// written verbatim (entities or normalised whitespace). Only called on findings.
    pub fn source_range(&self, source: &str, range: Range<usize>) -> Range<usize> {
        if source.get(self.span.clone()) == Some(self.value) {
            self.span.start + range.start..self.span.start + range.end
        } else {
            self.span.clone()
        }
    }
}

/// Where the attributes of an `<xhtml:link>` that the hreflang rules read are (all without a
/// namespace, as written in `<xhtml:link rel="alternate" hreflang="…" href="…"/>`): their
/// positions among its attributes, found in one pass, once per entry for all the rules (see
/// [`Entry::links`]).
#[derive(Debug, Clone, Copy)]
pub struct LinkAttributes {
    /// `rel`, `hreflang`, `href`, `media`: the attribute's index, or `NONE`.
    at: [u32; 4],
}

const NONE: u32 = u32::MAX;

impl LinkAttributes {
    /// The attributes of the link `element`.
    pub fn of(element: &Element<'_>) -> LinkAttributes {
        let mut at = [NONE; 4];
        for (i, attr) in element.node.attributes().enumerate() {
            let slot = match attr.name() {
                "rel" => 0,
                "hreflang" => 1,
                "href" => 2,
                "media" => 3,
                _ => continue,
            };
            // XML allows an attribute once: the first without a namespace is the one.
            if at[slot] == NONE && attr.namespace().is_none() {
                at[slot] = u32::try_from(i).unwrap_or(NONE);
            }
        }
        LinkAttributes { at }
    }
}

/// One `<xhtml:link>` child of a `<url>`, with where its attributes are.
#[derive(Debug, Clone, Copy)]
pub struct Link<'e, 'a> {
    pub element: &'e Element<'a>,
    attributes: LinkAttributes,
}

impl<'a> Link<'_, 'a> {
    pub fn rel(&self) -> Option<LinkAttribute<'a>> {
        self.attribute(0)
    }

    pub fn hreflang(&self) -> Option<LinkAttribute<'a>> {
        self.attribute(1)
    }

    pub fn href(&self) -> Option<LinkAttribute<'a>> {
        self.attribute(2)
    }

    /// A `media` attribute: Google's annotation of a separate mobile URL, which has no `hreflang`.
    pub fn media(&self) -> Option<LinkAttribute<'a>> {
        self.attribute(3)
    }

    fn attribute(&self, slot: usize) -> Option<LinkAttribute<'a>> {
        let i = usize::try_from(*self.attributes.at.get(slot)?).ok()?;
        let attr = self.element.node.attributes().nth(i)?;
        let base = self.element.base();
        let r = attr.range_value();
        Some(LinkAttribute {
            value: attr.value(),
            span: r.start + base..r.end + base,
        })
    }
}

/// Whether `href` is an app deep link (`android-app://…`, `ios-app://…`), which Google's retired
/// App Indexing read from `<xhtml:link>` in sitemaps.
pub fn is_app_link(href: &str) -> bool {
    let h = href.trim_start();
    ["android-app:", "ios-app:"]
        .iter()
        .any(|p| h.get(..p.len()).is_some_and(|s| s.eq_ignore_ascii_case(p)))
}

/// Whether `child` is an `{http://www.w3.org/1999/xhtml}link` element.
pub fn is_link(child: &Child<'_>) -> bool {
    child.kind == ChildKind::Foreign
        && child.element.local_name() == "link"
        && child.element.namespace() == Some(XHTML_NS)
}

/// Whether a `<url>` entry has any `<xhtml:link>` child: the hreflang rules return at once when
/// it has none (most entries of most sitemaps).
pub fn has_links(entry: &Entry<'_>) -> bool {
    !entry.links().is_empty()
}

/// The `<xhtml:link>` children of a `<url>` entry, in document order (none for `<sitemap>`).
pub fn links<'e, 'a>(entry: &'e Entry<'a>) -> impl Iterator<Item = Link<'e, 'a>> + 'e {
    entry.links().iter().filter_map(|&(i, attributes)| {
        Some(Link {
            element: &entry.children.get(i)?.element,
            attributes,
        })
    })
}
