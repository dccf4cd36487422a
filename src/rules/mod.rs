//! The registry: every rule, one line each, in its family folder (`rules/<family>/<rule>.rs`,
//! declared in the family's `mod.rs`, which also holds the helpers the family's rules share: a rule
//! file never imports another rule file).

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::diagnostic::Diagnostic;
use crate::rule::{Rule, RuleMeta};

pub mod extension;
pub mod hreflang;
pub mod input;
pub mod lastmod;
pub mod loc;
pub mod schema;
pub mod site;
pub mod structure;
pub mod suppression;
pub mod value;

macro_rules! rules {
    ($($family:ident :: $module:ident),* $(,)?) => {
        /// Every rule, in registry order (pipeline stages first, then sitemap rules).
        pub static ALL: &[&dyn Rule] = &[$(&$family::$module::Check),*];
    };
}

rules! {
    // Input: reading bytes.
    input::input_too_large,
    input::gzip_invalid,
    input::gzip_extension_mismatch,
    // Encoding and the XML declaration.
    input::encoding_not_utf8,
    input::invalid_utf8,
    input::leading_whitespace,
    input::xml_declaration,
    input::xml_declaration_encoding,
    // XML well-formedness.
    input::xml_syntax,
    input::doctype_not_allowed,
    // Structure.
    structure::root_element,
    structure::namespace,
    structure::empty_sitemap,
    structure::entry_kind_mismatch,
    structure::missing_loc,
    structure::unknown_element,
    structure::duplicate_element,
    structure::element_order,
    structure::unexpected_text,
    structure::unexpected_child_element,
    structure::unexpected_attribute,
    schema::schema_location,
    schema::schema_location_unused,
    // Values.
    loc::loc_invalid,
    loc::loc_length,
    loc::loc_not_ascii,
    loc::loc_unusual_host,
    loc::loc_fragment,
    loc::loc_credentials,
    loc::loc_private_host,
    lastmod::lastmod_invalid,
    lastmod::lastmod_w3c_only,
    lastmod::lastmod_missing_timezone,
    value::changefreq_invalid,
    value::priority_invalid,
    value::value_whitespace,
    // Site: location, hosts, duplicates, dates (issue #6).
    loc::loc_outside_scope,
    loc::loc_mixed_hosts,
    loc::duplicate_loc,
    site::index_child,
    lastmod::lastmod_future,
    lastmod::lastmod_before_1990,
    lastmod::lastmod_all_identical,
    value::priority_all_identical,
    value::changefreq_priority_ignored,
    // Google extensions (structure).
    extension::extension_namespace,
    extension::xhtml_link_namespace,
    extension::unknown_extension_namespace,
    extension::extension_placement,
    extension::extension_structure,
    extension::extension_value,
    // Google extensions (Google's documentation beyond the XSDs).
    extension::extension_url,
    extension::extension_unknown_code,
    extension::video_invalid,
    extension::extension_deprecated,
    extension::news_date_range,
    // hreflang alternates (`xhtml:link`).
    hreflang::hreflang_rel,
    hreflang::hreflang_invalid,
    hreflang::hreflang_href_invalid,
    hreflang::hreflang_duplicate,
    hreflang::hreflang_self_missing,
    hreflang::hreflang_return_link,
    hreflang::hreflang_cluster_mismatch,
    // Limits.
    structure::too_many_entries,
    extension::extension_limits,
    // Inline suppressions (applied by the engine after every other rule).
    suppression::suppression_invalid,
    suppression::unused_suppression,
    // The checker itself.
    input::internal_error,
}

/// Looks a rule up by name (in a table built on first use: rules ask whether another rule is on,
/// by name, once per entry, see [`crate::Settings::is_on`]).
pub fn find(name: &str) -> Option<&'static RuleMeta> {
    static BY_NAME: OnceLock<HashMap<&'static str, &'static RuleMeta>> = OnceLock::new();
    BY_NAME
        .get_or_init(|| metas().map(|m| (m.name, m)).collect())
        .get(name)
        .copied()
}

/// Every rule's metadata, in registry order.
pub fn metas() -> impl Iterator<Item = &'static RuleMeta> {
    ALL.iter().map(|r| r.meta())
}

/// The finding of a rule of any family for a value that holds unexpanded template placeholders
/// (see [`crate::values::text::template_placeholders`]): one diagnostic saying so, at the first
/// placeholder with the others labelled, instead of noise about the value's characters.
/// `element` names where the value is (`<lastmod>`, `hreflang`), `expands_to` what the template
/// should have written there ("URL", "date"); `source_range` maps a range of `text` to the file.
pub(crate) fn placeholder_finding(
    meta: &'static RuleMeta,
    text: &str,
    element: &str,
    expands_to: &str,
    source_range: impl Fn(std::ops::Range<usize>) -> std::ops::Range<usize>,
) -> Option<Diagnostic> {
    let found = crate::values::text::template_placeholders(text, crate::diagnostic::MAX_LABELS);
    let first = found.first()?.clone();
    let shown = crate::diagnostic::shown(&text[first.clone()]);
    let mut d = Diagnostic::new(
        meta,
        source_range(first),
        format!("unexpanded template placeholder `{shown}` in {element}"),
    )
    .with_label("the template engine did not replace this")
    .with_help(format!("generate the sitemap through the template engine, or fix the placeholder so that it expands to the {expands_to}"));
    for more in &found[1..] {
        d = d.with_secondary(source_range(more.clone()), "nor this");
    }
    Some(d)
}

#[cfg(test)]
mod tests {
    /// Every rule name a rule passes to `Settings::is_on` is a rule's: a renamed rule
    /// fails here instead of silently turning another rule's hand-over off.
    #[test]
    fn names_passed_to_is_on_are_rules() {
        fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    sources(&path, out);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    out.push(path);
                }
            }
        }
        let mut files = Vec::new();
        sources(
            &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
            &mut files,
        );
        let call = concat!("is_on", "(\"");
        let mut names = Vec::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for (at, _) in text.match_indices(call) {
                let rest = &text[at + call.len()..];
                let name = &rest[..rest.find('"').unwrap()];
                assert!(
                    super::find(name).is_some(),
                    "{}: `is_on(\"{name}\")` names no rule",
                    file.display()
                );
                names.push(name.to_owned());
            }
        }
        assert!(names.len() >= 4, "the hand-overs were not found: {names:?}");
    }
}
