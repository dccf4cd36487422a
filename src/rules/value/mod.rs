//! `<changefreq>` and `<priority>` values, and whitespace around values.

pub mod changefreq_invalid;
pub mod changefreq_priority_ignored;
pub mod priority_all_identical;
pub mod priority_invalid;
pub mod value_whitespace;

// The `xsd:decimal` grammar and the [0, 1] range of `<priority>`, which `priority-invalid`,
// `priority-all-identical` and `value-whitespace` share.

/// Whether `s` is in the lexical space of `xsd:decimal`.
pub fn is_decimal(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let (int, frac) = match digits.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (digits, None),
    };
    let all_digits = |p: &str| p.bytes().all(|b| b.is_ascii_digit());
    all_digits(int)
        && frac.is_none_or(all_digits)
        && (!int.is_empty() || frac.is_some_and(|f| !f.is_empty()))
}

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
