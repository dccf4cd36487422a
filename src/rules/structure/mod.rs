//! The document's shape: root, namespace, which elements, their order and attributes, entry counts.
//!
//! The helpers below are shared by the family's rules.

use std::ops::Range;

use crate::pipeline::model::{
    is_plain_hreflang_link, is_xml_space, Child, ChildKind, Entry, EntryKind, Field,
};
use crate::pipeline::source::starts_with_ignore_ascii_case;
use crate::values::text;

pub mod duplicate_element;
pub mod element_order;
pub mod empty_sitemap;
pub mod entry_kind_mismatch;
pub mod missing_loc;
pub mod namespace;
pub mod root_element;
pub mod too_many_entries;
pub mod unexpected_attribute;
pub mod unexpected_child_element;
pub mod unexpected_text;
pub mod unknown_element;

const URL_CHILDREN: &[&str] = &["loc", "lastmod", "changefreq", "priority"];
const SITEMAP_CHILDREN: &[&str] = &["loc", "lastmod"];

/// The children an entry of this kind may have.
pub fn allowed_children(kind: EntryKind) -> &'static [&'static str] {
    match kind {
        EntryKind::Url => URL_CHILDREN,
        EntryKind::Sitemap => SITEMAP_CHILDREN,
    }
}

/// The allowed element `name` is probably a misspelling of (`location` → `loc`, `LastMod` →
/// `lastmod`), if any.
pub fn suggested_name(name: &str, allowed: &[&'static str]) -> Option<&'static str> {
    let alias = match name.to_ascii_lowercase().as_str() {
        "location" | "link" | "href" | "uri" | "address" => Some("loc"),
        "lastmodified" | "last_mod" | "last-mod" | "lastmodification" | "last_modified"
        | "lastmoddate" | "modified" | "updated" | "date" => Some("lastmod"),
        "changefrequency" | "change_freq" | "change-freq" | "frequency" | "freq" => {
            Some("changefreq")
        }
        "prio" | "pri" => Some("priority"),
        _ => None,
    };
    alias
        .and_then(|a| allowed.iter().copied().find(|&x| x == a))
        .or_else(|| text::closest(name, allowed))
}

/// Whether `child` of `entry` is the misspelled `<loc>` that `missing-loc` labels (so `unknown-element`
/// stays quiet about it).
pub fn is_loc_lookalike(entry: &Entry<'_>, child: &Child<'_>) -> bool {
    child.kind == ChildKind::Unknown
        && !is_plain_hreflang_link(entry, child)
        && suggested_name(child.element.local_name(), allowed_children(entry.kind)) == Some("loc")
        && entry.field(Field::Loc).is_none()
}

/// Splits the children of an entry before every `<loc>` but the first: an entry with two `<loc>`
/// usually lacks a `</url><url>` there, so what follows the second `<loc>` belongs to another
/// entry, and is checked for duplicates and order on its own (one mistake, one error).
pub fn segments(entry: &Entry<'_>) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let (mut start, mut seen_loc) = (0, false);
    for (i, child) in entry.children.iter().enumerate() {
        if child.kind == ChildKind::Field(Field::Loc) {
            if seen_loc {
                out.push(start..i);
                start = i;
            }
            seen_loc = true;
        }
    }
    out.push(start..entry.children.len());
    out
}

/// Whether stray text is a URL (so the fix is probably to wrap it in `<loc>`).
pub fn looks_like_url(text: &str) -> bool {
    let t = text.trim_matches(is_xml_space);
    ["http://", "https://", "www."]
        .iter()
        .any(|p| starts_with_ignore_ascii_case(t, p))
        && !t.contains(is_xml_space)
}
