//! The registry: every rule, one line each, in its family folder (`rules/<family>/<rule>.rs`,
//! declared in the family's `mod.rs`, which also holds the helpers the family's rules share: a rule
//! file never imports another rule file).

use std::ops::Range;

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

/// Looks a rule up by name.
pub fn find(name: &str) -> Option<&'static RuleMeta> {
    ALL.iter().map(|r| r.meta()).find(|m| m.name == name)
}

/// Every rule's metadata, in registry order.
pub fn metas() -> impl Iterator<Item = &'static RuleMeta> {
    ALL.iter().map(|r| r.meta())
}

/// `range`, cut before its first line break: a line break inside a value (`…/a⏎b`) is shown
/// at the end of its line rather than as a span over two lines. An empty result stays empty.
pub(crate) fn on_one_line(source: &str, range: Range<usize>) -> Range<usize> {
    match source.get(range.clone()).and_then(|t| t.find('\n')) {
        Some(0) => range.start..range.start,
        Some(nl) => range.start..range.start + nl,
        None => range,
    }
}
