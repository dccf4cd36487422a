//! The registry: every rule, one line each; adding a module line here both declares and registers it.

use crate::rule::{Rule, RuleMeta};

macro_rules! rules {
    ($($module:ident),* $(,)?) => {
        $(pub mod $module;)*

        /// Every rule, in registry order (pipeline stages first, then sitemap rules).
        pub static ALL: &[&dyn Rule] = &[$(&$module::Check),*];
    };
}

rules! {
    // Input: reading bytes.
    input_too_large,
    gzip_invalid,
    gzip_extension_mismatch,
    // Encoding and the XML declaration.
    encoding_not_utf8,
    invalid_utf8,
    leading_whitespace,
    xml_declaration,
    xml_declaration_encoding,
    // XML well-formedness.
    xml_syntax,
    doctype_not_allowed,
    // Structure.
    root_element,
    namespace,
    empty_sitemap,
    entry_kind_mismatch,
    missing_loc,
    unknown_element,
    duplicate_element,
    element_order,
    unexpected_text,
    unexpected_child_element,
    unexpected_attribute,
    // Values.
    loc_invalid,
    loc_length,
    loc_not_ascii,
    loc_fragment,
    loc_credentials,
    lastmod_invalid,
    lastmod_w3c_only,
    lastmod_missing_timezone,
    changefreq_invalid,
    priority_invalid,
    value_whitespace,
    // Site: location, hosts, duplicates, dates (issue #6).
    loc_outside_scope,
    loc_mixed_hosts,
    duplicate_loc,
    index_child,
    lastmod_future,
    lastmod_before_1990,
    lastmod_all_identical,
    priority_all_identical,
    changefreq_priority_ignored,
    // Google extensions (structure).
    extension_namespace,
    xhtml_link_namespace,
    unknown_extension_namespace,
    extension_placement,
    extension_structure,
    extension_value,
    // Google extensions (Google's documentation beyond the XSDs).
    extension_url,
    extension_unknown_code,
    video_invalid,
    extension_deprecated,
    news_date_range,
    // hreflang alternates (`xhtml:link`).
    hreflang_rel,
    hreflang_invalid,
    hreflang_href_invalid,
    hreflang_duplicate,
    hreflang_self_missing,
    hreflang_return_link,
    hreflang_cluster_mismatch,
    // Limits.
    too_many_entries,
    extension_limits,
    // Inline suppressions (applied by the engine after every other rule).
    suppression_invalid,
    unused_suppression,
    // The checker itself.
    internal_error,
}

/// Looks a rule up by name.
pub fn find(name: &str) -> Option<&'static RuleMeta> {
    ALL.iter().map(|r| r.meta()).find(|m| m.name == name)
}

/// Every rule's metadata, in registry order.
pub fn metas() -> impl Iterator<Item = &'static RuleMeta> {
    ALL.iter().map(|r| r.meta())
}
