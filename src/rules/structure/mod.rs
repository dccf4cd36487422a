//! The document's shape: root, namespace, which elements, their order and attributes, entry counts.

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
