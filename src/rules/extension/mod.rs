//! Google's extensions (image, video, news) and the `xhtml:link` namespace: placement, structure, values.

pub mod extension_deprecated;
pub mod extension_limits;
pub mod extension_namespace;
pub mod extension_placement;
pub mod extension_structure;
pub mod extension_unknown_code;
pub mod extension_url;
pub mod extension_value;
pub mod news_date_range;
pub mod unknown_extension_namespace;
pub mod video_invalid;
pub mod walk;
pub mod xhtml_link_namespace;

use std::borrow::Cow;
use std::ops::Range;
use std::sync::Arc;

use crate::pipeline::model::{self, is_xml_space, ChildKind, Element, Entry, Sitemap};
use crate::rule::Context;
use crate::values::extension::ElementDecl;
use crate::values::namespace::{self, KnownNamespace, KNOWN};
use crate::values::text;
use walk::{Class, Problem};

/// One walk of the Google extension elements of an entry ([`walk::check_entry`]): the problems
/// of every class and the elements [`for_declared`] hands out.
struct EntryWalk {
    problems: Box<[Problem]>,
    declared: Arc<[walk::Declared]>,
}

/// The walk of `entry`, made on the first call for the entry and kept in the context for the
/// other rules of the family.
fn entry_walk<'c>(
    sitemap: &Sitemap<'_>,
    entry: &Entry<'_>,
    cx: &'c mut Context<'_>,
) -> Option<&'c EntryWalk> {
    cx.entry_memo(entry, || {
        let (problems, declared) = walk::check_entry(sitemap, entry);
        EntryWalk {
            problems: problems.into_boxed_slice(),
            declared: declared.into(),
        }
    })
}

/// The problems of `class` in the Google extension elements of `entry`: one walk finds those of
/// every class, on the first call for the entry, and the three rules of the walk
/// (`extension-placement`, `extension-structure`, `extension-value`) read it from the context.
pub fn entry_problems(
    sitemap: &Sitemap<'_>,
    entry: &Entry<'_>,
    class: Class,
    cx: &mut Context<'_>,
) -> Vec<Problem> {
    entry_walk(sitemap, entry, cx)
        .into_iter()
        .flat_map(|w| w.problems.iter().filter(|p| p.class == class).cloned())
        .collect()
}

/// Calls `f` with every element of a Google extension in `entry` that sits where its XSD puts it,
/// with its declaration, in document order: each `image:image`, `video:video`, `news:news` and
/// `mobile:mobile` directly in the entry, and below them every child whose namespace and name
/// match a particle of its parent's content model (order and counts are not checked). The way
/// for rules to find, say, every `video:duration` (`std::ptr::eq(decl, &VIDEO_DURATION)`); the
/// elements come from the walk the family shares (see [`entry_problems`]), found once an entry.
pub fn for_declared<'a>(
    sitemap: &Sitemap<'_>,
    entry: &Entry<'a>,
    cx: &mut Context<'_>,
    f: &mut dyn FnMut(&Element<'a>, &'static ElementDecl, &mut Context<'_>),
) {
    let Some(declared) = entry_walk(sitemap, entry, cx).map(|w| Arc::clone(&w.declared)) else {
        return;
    };
    for d in declared.iter() {
        if let Some(el) = d.element(entry) {
            f(&el, d.decl, cx);
        }
    }
}

/// Whether `entry` has an element of the image or video namespace.
pub(crate) fn has_extension(entry: &Entry<'_>, namespaces: &[&str]) -> bool {
    entry.children.iter().any(|c| {
        c.kind == ChildKind::Foreign
            && c.element
                .namespace()
                .is_some_and(|ns| namespaces.contains(&ns))
    })
}

/// The decoded text of an element holding text only (`""` when empty), without allocating;
/// `None` when it holds child elements, or comments or processing instructions between pieces
/// of text (which a built `Value` joins).
pub(crate) fn simple_text<'a>(el: &Element<'a>) -> Option<&'a str> {
    let mut children = el.node.children();
    match (children.next(), children.next()) {
        (None, _) => Some(""),
        (Some(t), None) if t.is_text() => t.text(),
        _ => None,
    }
}

/// The decoded text of an element holding text only: borrowed from the source when it can be
/// (see [`simple_text`]), otherwise joined by building its `Value`; `None` when it holds child
/// elements.
pub(crate) fn element_text<'a>(source: &'a str, el: &Element<'a>) -> Option<Cow<'a, str>> {
    if let Some(t) = simple_text(el) {
        return Some(Cow::Borrowed(t));
    }
    if el.node.children().any(|n| n.is_element()) {
        return None;
    }
    Some(model::build_value(el.clone(), el.base(), source).text)
}

/// `text` without surrounding XML whitespace, and where it starts.
pub(crate) fn trim(text: &str) -> (usize, &str) {
    let t = text.trim_start_matches(model::is_xml_space);
    (
        text.len() - t.len(),
        t.trim_end_matches(model::is_xml_space),
    )
}

/// What a namespace URI of an extension element is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NamespaceClass {
    /// The sitemap namespace, or a mistake for it (the `namespace` rule's).
    Sitemap,
    /// Exactly one of [`KNOWN`].
    Known(KnownNamespace),
    /// Almost one of [`KNOWN`]; `why` says how it differs, in a few words.
    NearMiss { known: KnownNamespace, why: String },
    /// Another namespace: an extension sitemap-lint has no schema for.
    Unknown,
}

/// Classifies the namespace URI of an element that is not in the root's namespace.
pub fn classify(uri: &str) -> NamespaceClass {
    if let Some(k) = KNOWN.into_iter().find(|k| k.uri == uri) {
        return NamespaceClass::Known(k);
    }
    if namespace::is_sitemap_like(uri) {
        return NamespaceClass::Sitemap;
    }
    match near_miss(uri) {
        Some((known, why)) => NamespaceClass::NearMiss { known, why },
        None => NamespaceClass::Unknown,
    }
}

/// The known namespace without `http://www.` (`google.com/schemas/sitemap-image/1.1`).
fn core(uri: &'static str) -> &'static str {
    uri.strip_prefix("http://www.").unwrap_or(uri)
}

/// Joins reasons as prose: `a`, `a and b`, `a, b and c`.
fn join(reasons: &[String]) -> String {
    match reasons {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The known namespace `uri` is a mistake for, with what is wrong, if it is close to one.
fn near_miss(uri: &str) -> Option<(KnownNamespace, String)> {
    // Namespace URIs are short; a long one is nobody's typo (and distances stay cheap).
    if uri.len() > 200 {
        return None;
    }
    let trimmed = uri.trim_matches(is_xml_space);
    let lower = trimmed.to_ascii_lowercase();
    let (rest, scheme) = if let Some(r) = lower.strip_prefix("http://") {
        (r, "http")
    } else if let Some(r) = lower.strip_prefix("https://") {
        (r, "https")
    } else {
        (lower.as_str(), "")
    };
    let (rest, www) = match rest.strip_prefix("www.") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    let (rest, xsd) = if rest.ends_with(".xsd") {
        (rest.rsplit_once('/').map_or(rest, |(dir, _)| dir), true)
    } else {
        (rest, false)
    };
    let trimmed_rest = rest.trim_end_matches('/');
    let slash = trimmed_rest.len() != rest.len() && !xsd;
    let rest = trimmed_rest;

    let (known, mut reasons) = if let Some(k) = KNOWN.into_iter().find(|k| core(k.uri) == rest) {
        (k, Vec::new())
    } else if let Some(found) = google_family(rest) {
        found
    } else if rest.starts_with("w3.org/") && rest.contains("html") {
        (
            KNOWN[4],
            vec!["this is not the XHTML namespace of hreflang links".to_string()],
        )
    } else {
        let (k, d) = KNOWN
            .into_iter()
            .filter(|k| core(k.uri).len().abs_diff(rest.len()) <= 2)
            .map(|k| (k, text::distance(rest, core(k.uri))))
            .min_by_key(|(_, d)| *d)?;
        if d > 2 {
            return None;
        }
        (k, vec!["a typo".to_string()])
    };
    if trimmed.len() != uri.len() {
        reasons.push("surrounding whitespace".into());
    }
    match scheme {
        "https" => {
            reasons.push("`https` instead of `http` (a namespace is a name, not a link)".into())
        }
        "http" => {}
        _ => reasons.push("no `http://`".into()),
    }
    if !www {
        reasons.push("no `www.`".into());
    }
    if slash {
        reasons.push("a trailing slash".into());
    }
    if xsd {
        reasons.push("the address of the schema file".into());
    }
    if trimmed.bytes().any(|b| b.is_ascii_uppercase()) {
        reasons.push("capital letters (namespaces are case-sensitive)".into());
    }
    if reasons.is_empty() {
        reasons.push("a different spelling".into());
    }
    Some((known, join(&reasons)))
}

/// `…/sitemap-image/1.0`, `sitemaps.org/schemas/sitemap-video/1.1`: Google's extension names
/// with another version, no version, or on another Google (or sitemaps.org) host.
fn google_family(rest: &str) -> Option<(KnownNamespace, Vec<String>)> {
    let host = rest.split('/').next().unwrap_or("");
    if !(host.starts_with("google.") || host == "sitemaps.org") {
        return None;
    }
    for k in &KNOWN[..4] {
        let name = format!("sitemap-{}", k.prefix);
        let Some(at) = rest.find(&name) else { continue };
        let after = &rest[at + name.len()..];
        if !(after.is_empty() || after.starts_with('/')) {
            continue;
        }
        let want = core(k.uri);
        let want_version = want.rsplit('/').next().unwrap_or("");
        let mut reasons = Vec::new();
        if host != "google.com" {
            reasons.push(format!("the host `{host}` instead of `google.com`"));
        }
        match after.strip_prefix('/') {
            None | Some("") => reasons.push(format!("no version (`/{want_version}`)")),
            Some(v) if v != want_version => {
                reasons.push(format!("version `{v}` ({} is `{want_version}`)", k.name))
            }
            Some(_) => {}
        }
        if reasons.is_empty() {
            reasons.push("a different path".into());
        }
        return Some((*k, reasons));
    }
    None
}

/// The namespace declaration (`xmlns:prefix` or `xmlns`) in scope that binds the name of `el`:
/// on `el` itself or its nearest ancestor declaring it.
pub fn declaration_of<'a>(
    el: &Element<'a>,
    source: &str,
) -> Option<(Element<'a>, Range<usize>, Range<usize>)> {
    let wanted = match el.prefix(source) {
        Some(p) => format!("xmlns:{p}"),
        None => "xmlns".to_string(),
    };
    let base = el.base();
    for node in el.node.ancestors().filter(|n| n.is_element()) {
        let holder = Element::new(node, base, source);
        if let Some(a) = holder
            .raw_attributes(source)
            .into_iter()
            .find(|a| source.get(a.name.clone()) == Some(wanted.as_str()))
        {
            return Some((holder, a.name, a.value));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::values::namespace::{IMAGE_NS, MOBILE_NS, NEWS_NS, SITEMAP_NS, VIDEO_NS, XHTML_NS};

    fn near(uri: &str) -> Option<&'static str> {
        match classify(uri) {
            NamespaceClass::NearMiss { known, .. } => Some(known.uri),
            _ => None,
        }
    }

    #[test]
    fn near_misses_name_the_right_namespace() {
        for (uri, right) in [
            ("http://www.google.com/schemas/sitemap-image/1.0", IMAGE_NS),
            ("https://www.google.com/schemas/sitemap-image/1.1", IMAGE_NS),
            ("http://www.google.com/schemas/sitemap-image/1.1/", IMAGE_NS),
            ("http://google.com/schemas/sitemap-image/1.1", IMAGE_NS),
            ("http://www.google.com/schemas/sitemap-image", IMAGE_NS),
            (
                "http://www.sitemaps.org/schemas/sitemap-image/1.1",
                IMAGE_NS,
            ),
            ("http://www.google.com/schemas/sitemap-video/1.0", VIDEO_NS),
            ("http://www.google.com/schemas/sitemap-vidoe/1.1", VIDEO_NS),
            ("http://www.google.com/schemas/sitemap-news/0.84", NEWS_NS),
            ("HTTP://WWW.GOOGLE.COM/SCHEMAS/SITEMAP-NEWS/0.9", NEWS_NS),
            (
                "http://www.google.com/schemas/sitemap-mobile/1.0/",
                MOBILE_NS,
            ),
            (
                " http://www.google.com/schemas/sitemap-mobile/1.0",
                MOBILE_NS,
            ),
            ("http://www.w3.org/1999/xhtml/", XHTML_NS),
            ("https://www.w3.org/1999/xhtml", XHTML_NS),
            ("http://www.w3.org/1999/html", XHTML_NS),
            ("http://w3.org/1999/xhtml", XHTML_NS),
            ("http://www.w3.org/1999/xhtlm", XHTML_NS),
        ] {
            assert_eq!(near(uri), Some(right), "{uri}");
        }
    }

    #[test]
    fn other_namespaces_are_not_near_misses() {
        for uri in [
            "http://www.google.com/schemas/sitemap-pagemap/1.0",
            "http://www.google.com/schemas/sitemap-content/1.0",
            "http://www.google.com/geo/schemas/sitemap/1.0",
            "http://www.google.com/codesearch/schemas/sitemap/1.0",
            "http://www.baidu.com/schemas/sitemap-mobile/1/",
            "http://www.w3.org/2005/Atom",
            "http://www.w3.org/2001/XMLSchema-instance",
            "urn:example:extension",
            "",
        ] {
            assert_eq!(classify(uri), NamespaceClass::Unknown, "{uri}");
        }
        assert_eq!(classify(&"x".repeat(100_000)), NamespaceClass::Unknown);
        for uri in [
            SITEMAP_NS,
            "http://www.sitemaps.org/schemas/sitemap/0.9/",
            "http://www.google.com/schemas/sitemap/0.84",
        ] {
            assert_eq!(classify(uri), NamespaceClass::Sitemap, "{uri}");
        }
        for k in KNOWN {
            assert_eq!(classify(k.uri), NamespaceClass::Known(k));
        }
    }
}
