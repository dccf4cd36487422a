//! `<changefreq>` and `<priority>` values, and whitespace around values.

pub mod changefreq_invalid;
pub mod changefreq_priority_ignored;
pub mod priority_all_identical;
pub mod priority_invalid;
pub mod value_whitespace;
