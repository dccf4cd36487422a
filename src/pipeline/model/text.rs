//! The model of a text sitemap: a `<urlset>` whose entries are the lines that hold a URL (see
//! [`crate::pipeline::text_sitemap`]), so that the rules read it as they read an XML sitemap.

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::Range;

use roxmltree::Document;

use super::{Child, ChildKind, Element, Entry, Field, Sitemap, Syntax, Value};

/// The XML that stands for every text sitemap: its nodes are those of [`Sitemap::text`] and
/// [`Sitemap::text_entry`] (the spans are the text's own).
pub const TEXT_SKELETON: &str =
    "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\"><url><loc/></url></urlset>";

impl<'a> Sitemap<'a> {
    /// The model of a text sitemap `source`: a `<urlset>` whose root has no span (`0..0`);
    /// `skeleton` is a parsed [`TEXT_SKELETON`], whose nodes stand for the root and, in
    /// [`Sitemap::text_entry`], each line's `<url>` and `<loc>`.
    pub fn text(skeleton: &'a Document<'a>, source: &'a str) -> Sitemap<'a> {
        let mut sitemap = Sitemap::head(skeleton, source, 0);
        sitemap.root.span = 0..0;
        sitemap.root.name_span = 0..0;
        sitemap.syntax = Syntax::Text;
        sitemap
    }

    /// The entry of a text sitemap's line `line` holding the URL `url` (byte ranges of the source),
    /// for a [`Sitemap::text`]: a `<url>` spanning the line, whose one child is a `<loc>` whose
    /// value is the URL as written. Element names have empty spans at the URL's start.
    pub fn text_entry(&self, line: Range<usize>, url: Range<usize>) -> Option<Entry<'a>> {
        let url_node = self.root.node.first_element_child()?;
        let loc_node = url_node.first_element_child()?;
        let at = url.start..url.start;
        let element = Element {
            node: url_node,
            span: line,
            name_span: at.clone(),
        };
        let loc = Element {
            node: loc_node,
            span: url.clone(),
            name_span: at,
        };
        let value = Value {
            element: loc.clone(),
            text: Cow::Borrowed(self.source.get(url.clone())?),
            trimmed: 0..url.len(),
            content: url,
            verbatim: true,
            url_problems: OnceCell::new(),
            date: OnceCell::new(),
            url_key: OnceCell::new(),
        };
        let mut entry = Entry::new(element, self.namespace);
        entry.children.push(Child {
            element: loc,
            kind: ChildKind::Field(Field::Loc),
            value: Some(Box::new(value)),
            namespace_ok: true,
        });
        Some(entry)
    }
}
