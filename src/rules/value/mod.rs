//! `<changefreq>` and `<priority>` values, and whitespace around values.

pub mod changefreq_invalid;
pub mod changefreq_priority_ignored;
pub mod priority_all_identical;
pub mod priority_invalid;
pub mod value_whitespace;

// The `xsd:decimal` grammar and the [0, 1] range of `<priority>`, which `priority-invalid`,
// `priority-all-identical` and `value-whitespace` share.

pub use crate::values::decimal::is_decimal;

/// Whether a valid decimal lies in [0, 1], decided on the digits (no float rounding).
pub fn in_range(s: &str) -> bool {
    let negative = s.starts_with('-');
    let digits = s.trim_start_matches(['+', '-']);
    let (int, frac) = digits.split_once('.').unwrap_or((digits, ""));
    let int = int.trim_start_matches('0');
    let frac_zero = frac.bytes().all(|b| b == b'0');
    if negative {
        return int.is_empty() && frac_zero;
    }
    int.is_empty() || (int == "1" && frac_zero)
}
