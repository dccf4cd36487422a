//! `<lastmod>` dates: syntax, time zones, plausibility.

pub mod lastmod_all_identical;
pub mod lastmod_before_1990;
pub mod lastmod_future;
pub mod lastmod_invalid;
pub mod lastmod_missing_timezone;
pub mod lastmod_w3c_only;
