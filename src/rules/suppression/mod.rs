//! Inline suppression comments (`sitemap-lint: allow …`), applied after every other rule.

pub mod suppression_invalid;
pub mod unused_suppression;
